//! The engine options of the UHP session (spec/sources/uhp-notes.md section 5.8): the two
//! rules options, the engine, and the search settings. Each is printed as a
//! standard UHP option line, `Name;type;Value;Default[;...]`.

use super::game::EngineChoice;
use super::reply::quote;
use crate::core::RulesOptions;

/// The deepest `bestmove depth` search the session runs by default. Its
/// cost varies much with the position: on 30-ply Base+MLP midgames (the
/// project's shared 2-core machine, 2026-12-02, README "As a UHP engine")
/// depth 4 took 0.11 to 0.23 s of CPU, depth 5 1.6 to 6.6 s (up to 16.9 s
/// on other midgames) and depth 6 22 s; the end of the input stops any search.
pub(crate) const DEFAULT_MAX_DEPTH: u32 = 5;
/// The largest value the `MaxDepth` option takes, so that no `bestmove
/// depth` runs for many minutes (`bestmove time` searches deeper within its
/// budget).
pub(crate) const MAX_DEPTH_LIMIT: u32 = 6;
/// The transposition table size by default, in MiB.
pub const DEFAULT_TABLE_SIZE_MIB: u32 = 16;
/// The largest transposition table the `TableSizeMiB` option allows, in MiB.
pub const TABLE_SIZE_LIMIT_MIB: u32 = 1024;

/// The values of every option of a session. They persist across `newgame`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// §4.2: no queen on a player's first placement. `TournamentOpening`.
    pub tournament_opening: bool,
    /// §8.7.2: threefold repetition within 32 plies draws. `RepetitionDraw`.
    pub repetition_draw: bool,
    /// The engine that holds the game. `Engine`.
    pub engine: EngineChoice,
    /// The cap on the depth of `bestmove depth N`. `MaxDepth`.
    pub(crate) max_depth: u32,
    /// The size of the search's transposition table in MiB. `TableSizeMiB`.
    pub(crate) table_size_mib: u32,
}

impl Options {
    /// The defaults, with the given engine.
    pub fn new(engine: EngineChoice) -> Options {
        let rules = RulesOptions::default();
        Options {
            tournament_opening: rules.tournament_opening,
            repetition_draw: rules.repetition_draw,
            engine,
            max_depth: DEFAULT_MAX_DEPTH,
            table_size_mib: DEFAULT_TABLE_SIZE_MIB,
        }
    }

    /// The rules options that games of the session are played with.
    pub fn rules(&self) -> RulesOptions {
        RulesOptions {
            tournament_opening: self.tournament_opening,
            repetition_draw: self.repetition_draw,
        }
    }

    /// Every option line, in a fixed order.
    pub fn lines(&self) -> Vec<String> {
        OptionName::ALL
            .iter()
            .map(|&name| self.line(name))
            .collect()
    }

    /// The UHP option line of one option (spec/sources/uhp-notes.md section 5.8).
    pub fn line(&self, name: OptionName) -> String {
        let defaults = Options::new(EngineChoice::Fast);
        let text = name.text();
        match name {
            OptionName::TournamentOpening => {
                bool_line(text, self.tournament_opening, defaults.tournament_opening)
            }
            OptionName::RepetitionDraw => {
                bool_line(text, self.repetition_draw, defaults.repetition_draw)
            }
            OptionName::Engine => format!(
                "{text};enum;{};{};Fast;Reference",
                self.engine.name(),
                defaults.engine.name()
            ),
            OptionName::MaxDepth => format!(
                "{text};int;{};{};1;{MAX_DEPTH_LIMIT}",
                self.max_depth, defaults.max_depth
            ),
            OptionName::TableSizeMiB => format!(
                "{text};int;{};{};1;{TABLE_SIZE_LIMIT_MIB}",
                self.table_size_mib, defaults.table_size_mib
            ),
        }
    }
}

fn bool_line(name: &str, value: bool, default: bool) -> String {
    format!("{name};bool;{};{}", bool_text(value), bool_text(default))
}

fn bool_text(value: bool) -> &'static str {
    if value {
        "True"
    } else {
        "False"
    }
}

/// The options a session knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionName {
    /// `TournamentOpening`: the queen may not be a first placement (§4.2).
    TournamentOpening,
    /// `RepetitionDraw`: threefold repetition is a draw (§8.7.2).
    RepetitionDraw,
    /// `Engine`: `Fast` or `Reference`.
    Engine,
    /// `MaxDepth`: the cap on `bestmove depth`.
    MaxDepth,
    /// `TableSizeMiB`: the size of the search's transposition table, in MiB.
    TableSizeMiB,
}

impl OptionName {
    /// Every option, in the order `options` lists them.
    pub const ALL: [OptionName; 5] = [
        OptionName::TournamentOpening,
        OptionName::RepetitionDraw,
        OptionName::Engine,
        OptionName::MaxDepth,
        OptionName::TableSizeMiB,
    ];

    /// The name as printed.
    pub fn text(self) -> &'static str {
        match self {
            OptionName::TournamentOpening => "TournamentOpening",
            OptionName::RepetitionDraw => "RepetitionDraw",
            OptionName::Engine => "Engine",
            OptionName::MaxDepth => "MaxDepth",
            OptionName::TableSizeMiB => "TableSizeMiB",
        }
    }

    /// Reads an option name in any letter case.
    pub fn parse(text: &str) -> Result<OptionName, OptionError> {
        OptionName::parse_among(text, &OptionName::ALL)
    }

    /// Reads an option name in any letter case among `known` (the options an
    /// engine lists); any other name is refused as unknown.
    pub(crate) fn parse_among(text: &str, known: &[OptionName]) -> Result<OptionName, OptionError> {
        known
            .iter()
            .copied()
            .find(|name| name.text().eq_ignore_ascii_case(text))
            .ok_or_else(|| OptionError::Unknown {
                given: text.to_string(),
                known: known.to_vec(),
            })
    }

    /// Whether the option changes the rules, so that it cannot change once a
    /// move has been played.
    pub(crate) fn is_rule(self) -> bool {
        matches!(
            self,
            OptionName::TournamentOpening | OptionName::RepetitionDraw
        )
    }
}

/// Why `options get` or `options set` was refused (spec/sources/uhp-notes.md
/// section 5.8): an option the engine does not know, or a value the option
/// does not take. Each names the option and quotes the value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No option of the engine has this name.
    #[error("unknown option {}: the options are {}", quote(.given), names(.known))]
    Unknown {
        /// The name as given.
        given: String,
        /// The options the engine knows.
        known: Vec<OptionName>,
    },
    /// `Engine` takes `Fast` or `Reference`.
    #[error("{} takes Fast or Reference, not {}", .name.text(), quote(.value))]
    NotAnEngine {
        /// The option.
        name: OptionName,
        /// The value as given.
        value: String,
    },
    /// A `bool` option takes `True` or `False`.
    #[error("{} takes True or False, not {}", .name.text(), quote(.value))]
    NotABool {
        /// The option.
        name: OptionName,
        /// The value as given.
        value: String,
    },
    /// An `int` option takes a whole number from 1 to its maximum, in
    /// decimal digits.
    #[error("{} takes a whole number from 1 to {max}, not {}", .name.text(), quote(.value))]
    OutOfRange {
        /// The option.
        name: OptionName,
        /// The largest value it takes.
        max: u32,
        /// The value as given.
        value: String,
    },
}

/// The names of `options`, `, `-separated.
fn names(options: &[OptionName]) -> String {
    let names: Vec<&str> = options.iter().map(|n| n.text()).collect();
    names.join(", ")
}

/// Reads `value` as a value of option `name` and returns the options with it
/// set; `options` itself is not touched.
pub fn with_value(
    options: &Options,
    name: OptionName,
    value: &str,
) -> Result<Options, OptionError> {
    let mut next = *options;
    match name {
        OptionName::TournamentOpening => next.tournament_opening = parse_bool(name, value)?,
        OptionName::RepetitionDraw => next.repetition_draw = parse_bool(name, value)?,
        OptionName::Engine => {
            next.engine = if value.eq_ignore_ascii_case("fast") {
                EngineChoice::Fast
            } else if value.eq_ignore_ascii_case("reference") {
                EngineChoice::Reference
            } else {
                return Err(OptionError::NotAnEngine {
                    name,
                    value: value.to_string(),
                });
            }
        }
        OptionName::MaxDepth => next.max_depth = parse_int(name, value, MAX_DEPTH_LIMIT)?,
        OptionName::TableSizeMiB => {
            next.table_size_mib = parse_int(name, value, TABLE_SIZE_LIMIT_MIB)?
        }
    }
    Ok(next)
}

fn parse_bool(name: OptionName, value: &str) -> Result<bool, OptionError> {
    if value.eq_ignore_ascii_case("true") {
        Ok(true)
    } else if value.eq_ignore_ascii_case("false") {
        Ok(false)
    } else {
        Err(OptionError::NotABool {
            name,
            value: value.to_string(),
        })
    }
}

/// An integer from 1 to `max`, written in decimal digits only.
fn parse_int(name: OptionName, value: &str, max: u32) -> Result<u32, OptionError> {
    let problem = || OptionError::OutOfRange {
        name,
        max,
        value: value.to_string(),
    };
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(problem());
    }
    match value.parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(problem()),
    }
}
