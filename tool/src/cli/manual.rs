//! `hive-oracle completions SHELL` and `hive-oracle man [COMMAND]`: the
//! shell completions (clap_complete) and the manual pages (clap_mangen),
//! generated from the same clap definitions as the commands, so that they
//! cannot drift from them.

use std::io::Write;

use clap_complete::Shell;

use super::output::Stop;

/// The options of `completions`.
#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell: bash, elvish, fish, powershell or zsh. For bash, for
    /// example: `hive-oracle completions bash > ~/.local/share/bash-completion/completions/hive-oracle`.
    #[arg(value_enum)]
    shell: Shell,
}

/// The options of `man`.
#[derive(clap::Args)]
pub struct ManArgs {
    /// A command whose page to print (`hive-oracle-check(1)`); the page of
    /// hive-oracle itself, which lists the commands, by default. For
    /// example: `hive-oracle man check | man -l -`.
    #[arg(value_name = "COMMAND")]
    command: Option<String>,
}

/// `completions`: the completion script of the shell on stdout.
pub fn completions(
    out: &mut impl Write,
    args: CompletionsArgs,
    mut cli: clap::Command,
) -> Result<(), Stop> {
    let name = cli.get_name().to_string();
    // generated whole first: clap_complete panics on a failing writer
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cli, name, &mut script);
    Ok(out.write_all(&script)?)
}

/// `man`: the manual page (roff) of hive-oracle or of one of its commands
/// on stdout.
pub fn man(out: &mut impl Write, args: ManArgs, mut cli: clap::Command) -> Result<(), Stop> {
    cli.build();
    let page = match args.command.as_deref() {
        None => cli,
        Some(name) => match cli.find_subcommand(name) {
            Some(command) => command.clone(),
            None => {
                let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
                return Err(Stop::Usage(format!(
                    "no command {name:?}: the commands are {}",
                    names.join(", ")
                )));
            }
        },
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page).render(&mut roff)?;
    Ok(out.write_all(&roff)?)
}
