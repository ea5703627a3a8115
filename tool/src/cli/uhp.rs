//! `hive-oracle uhp`: the Universal Hive Protocol engine on stdin and
//! stdout.

use super::output::Stop;
use super::EngineChoice;

/// The options of `uhp`.
#[derive(clap::Args)]
pub struct UhpArgs {
    /// The engine that holds the game (the `Engine` option can switch it).
    #[arg(long, value_enum, default_value_t = EngineChoice::Fast)]
    engine: EngineChoice,
    /// Let `newgame` take a position string (spec/notation.md §9.36): a
    /// position without its history, an extension of this engine.
    #[arg(long)]
    position_strings: bool,
    /// A deliberate fault, for testing the checker (src/faults/; only in a
    /// build with the `faults` feature, which the test suite turns on).
    #[cfg(feature = "faults")]
    #[arg(long, hide = true, value_name = "NAME", value_parser = parse_fault)]
    fault: Option<hive_oracle_rules::faults::Fault>,
}

/// Reads the name of a `--fault`.
#[cfg(feature = "faults")]
fn parse_fault(text: &str) -> Result<hive_oracle_rules::faults::Fault, String> {
    text.parse()
        .map_err(|e: hive_oracle_rules::faults::UnknownFault| e.to_string())
}

/// `uhp`: a closed stdout (the client went away) ends the session quietly
/// with status 0, as the end of the input does; another I/O error on the
/// streams is one line on stderr and status 1.
pub fn run(args: UhpArgs) -> Result<(), Stop> {
    let engine = match args.engine {
        EngineChoice::Fast => hive_oracle_rules::uhp::EngineChoice::Fast,
        EngineChoice::Reference => hive_oracle_rules::uhp::EngineChoice::Reference,
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    // A deliberate fault wraps the real session (src/faults/).
    #[cfg(feature = "faults")]
    if let Some(fault) = args.fault {
        let result =
            super::faulty_process::run_with_fault(stdin.lock(), stdout.lock(), engine, fault);
        return ended(result);
    }
    // stdin is read on a thread of its own, so that the end of the input
    // stops a time search (hive_oracle_rules::uhp::run_with_reader)
    let session =
        hive_oracle_rules::uhp::Session::new(engine).with_position_strings(args.position_strings);
    ended(hive_oracle_rules::uhp::run_session_with_reader(
        std::io::BufReader::new(stdin),
        stdout.lock(),
        session,
    ))
}

/// How the session's end maps to the command's result.
fn ended(result: std::io::Result<()>) -> Result<(), Stop> {
    match result {
        Ok(()) => Ok(()),
        // The client closed its end of the pipe: nothing is left to answer.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(Stop::ClosedPipe),
        Err(e) => Err(Stop::Refused(format!("uhp: {e}"))),
    }
}
