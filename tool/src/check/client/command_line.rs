//! The engine's command line, as given to `check --engine`: words split as
//! a POSIX shell does, so that it is the one printed in reproduce pipes.

use thiserror::Error;

/// A command line that does not split into words: an unterminated quote.
#[derive(Debug, Error)]
#[error("{source} in `{command_line}`")]
pub struct CommandLineError {
    /// The command line as given.
    pub command_line: String,
    /// What is wrong with it.
    pub source: shell_words::ParseError,
}

/// Splits a command line into words as a POSIX shell does (quotes,
/// backslash escapes; no expansions), with the `shell-words` crate, so that
/// the command line given to `check --engine` is the one printed in its
/// reproduce pipes. An unterminated quote is an error.
pub fn split_command_line(command_line: &str) -> Result<Vec<String>, CommandLineError> {
    shell_words::split(command_line).map_err(|source| CommandLineError {
        command_line: command_line.to_string(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_handles_quotes_and_blanks() {
        // shell syntax: double and single quotes group, backslash escapes
        assert_eq!(
            split_command_line("  a  \"b c\" d\"e f\"g ").unwrap(),
            ["a", "b c", "de fg"]
        );
        assert_eq!(
            split_command_line("'my engine' --name 'it''s' x\\ y").unwrap(),
            ["my engine", "--name", "its", "x y"]
        );
        assert_eq!(split_command_line("\"\"").unwrap(), [""]);
        assert!(split_command_line("").unwrap().is_empty());
        assert!(split_command_line("a \"b").is_err());
        assert!(split_command_line("a 'b").is_err());
    }
}
