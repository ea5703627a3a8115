//! `hive-oracle convert`: a game record (PGN or boardspace SGF), one game
//! of it (`--game N`), as a UHP GameString or a PGN record; or a GameString
//! as a PGN record. What the output cannot say goes to stderr as notes.

use std::io::Write;

use clap::ValueEnum;

use crate::input::{self, stdin};
use hive_oracle_rules::records::pgn;
use hive_oracle_rules::records::NthRecord;
use hive_oracle_rules::rules::Rules;

use super::output::{self, Stop};
use super::position::input_stop;
use super::GameNumber;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ConvertTarget {
    /// A UHP GameString (§9.31), as every UHP engine reads it.
    Gamestring,
    /// A PGN-style record, as Mzinga writes it.
    Pgn,
}

/// The options of `convert`.
#[derive(clap::Args)]
pub struct ConvertArgs {
    /// A record file, a UHP GameString, or `-` to read one from stdin.
    input: String,
    /// What to print.
    #[arg(long, value_enum, default_value_t = ConvertTarget::Gamestring)]
    to: ConvertTarget,
    #[command(flatten)]
    number: GameNumber,
}

/// `hive-oracle convert`: a record (or a GameString) as a GameString or a
/// PGN, with notes on stderr on what the output leaves out: the other games
/// of the file, and the standard opening the game needs.
pub fn convert(out: &mut impl Write, args: ConvertArgs) -> Result<(), Stop> {
    let number = args.number.get();
    let read = if args.input == stdin::DASH {
        stdin::read().and_then(|given| given.record(number))
    } else {
        input::record_or_game(&args.input, number)
    };
    let (nth, reference) = read.map_err(|e| input_stop(e, number))?;
    if reference.setup_start().is_some() {
        // §9.36 a position string holds no moves to write down
        return Err(Stop::Refused(
            "a position string (spec/notation.md §9.36) has no moves, so it has no GameString or record: the commands that take a GameString take it as it is".to_string(),
        ));
    }
    match args.to {
        ConvertTarget::Gamestring => writeln!(out, "{}", reference.game_string())?,
        ConvertTarget::Pgn => out.write_all(pgn::write(&nth.record).as_bytes())?,
    }
    for note in notes(&nth) {
        output::say(&format!("note: {note}"));
    }
    Ok(())
}

/// What a converted game leaves out, one note each: the other games of
/// its file, and the standard opening it needs (§4.2, §10.12).
fn notes(nth: &NthRecord) -> Vec<String> {
    let record = &nth.record;
    let mut notes = Vec::new();
    if nth.games > 1 || !nth.complete {
        let games = if nth.complete {
            format!("{} games", nth.games)
        } else {
            format!("at least {} games (a later game does not read)", nth.games)
        };
        notes.push(format!(
            "{} holds {games}; this is game {} (choose another with --game N)",
            record.file, record.index
        ));
    }
    let queen_first = record
        .moves
        .iter()
        .take(2)
        .enumerate()
        .find(|(_, ply)| matches!(ply.uhp.split_whitespace().next(), Some("wQ" | "bQ")));
    if let Some((ply, placed)) = queen_first {
        notes.push(format!(
            "ply {} ({}) places a queen on its player's first move, which the tournament opening forbids (§4.2): engines refuse this game unless it is loaded with the standard opening (hive-oracle's --standard-opening, UHP option TournamentOpening=false)",
            ply + 1,
            placed.uhp
        ));
    }
    notes
}
