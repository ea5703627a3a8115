//! The game records a check replays on the engine (`--records`): the
//! files and folders given, read once before the run into a fixed list of
//! units ([`RecordSet`]); running them is `record_unit`.

use std::path::PathBuf;

use crate::input::{each_record, record_files, GameRead, InputError};
use hive_oracle_rules::records::{Record, RecordedMove};

/// The most games the records of one check may hold (docs/limits.md,
/// `check-records`): about twenty years of boardspace's Hive games, and more
/// than a check plays in a day.
pub const MAX_RECORD_GAMES: usize = 200_000;

/// The most memory the games of one check's records may take once read
/// (512 MiB, counted as [`Held::take`] does).
pub const MAX_RECORD_BYTES: usize = 512 << 20;

/// What the games read so far hold: every game is kept until the check
/// runs it.
#[derive(Default)]
struct Held {
    games: usize,
    bytes: usize,
}

impl Held {
    /// Counts `game` in, unless it would take the records over
    /// [`MAX_RECORD_GAMES`] or [`MAX_RECORD_BYTES`]. The bytes of a game are
    /// its texts and the fixed size of what holds them.
    fn take(&mut self, game: &GameRead) -> bool {
        let bytes = std::mem::size_of::<RecordUnit>()
            + match game {
                Ok(record) => {
                    let texts = [&record.white, &record.black, &record.date]
                        .into_iter()
                        .flatten()
                        .map(String::len)
                        .sum::<usize>();
                    let tags: usize = record
                        .tags
                        .iter()
                        .map(|(name, value)| name.len() + value.len() + 48)
                        .sum();
                    let moves: usize = record
                        .moves
                        .iter()
                        .map(|m| {
                            m.written.len() + m.uhp.len() + std::mem::size_of::<RecordedMove>()
                        })
                        .sum();
                    let notes: usize = record.notes.iter().map(|n| n.len() + 24).sum();
                    std::mem::size_of::<Record>() + record.file.len() + texts + tags + moves + notes
                }
                Err(error) => error.file.len() + error.message.len() + 64,
            };
        if self.games >= MAX_RECORD_GAMES || self.bytes + bytes > MAX_RECORD_BYTES {
            return false;
        }
        self.games += 1;
        self.bytes += bytes;
        true
    }
}

/// One unit of `--records`: a game of a record file, or a file that gave
/// no game.
#[derive(Clone, Debug)]
pub enum RecordUnit {
    /// A game read from a record file.
    Game(Box<Record>),
    /// A file that cannot be read, is not a record, or holds no game: the
    /// file and why.
    Unreadable {
        /// The file as found.
        file: String,
        /// The reader's error (file, line, what is wrong).
        error: String,
        /// Whether the whole file could not be read (so that none of its
        /// games was checked), rather than one game of it.
        whole_file: bool,
    },
}

impl RecordUnit {
    /// The unit's name in reports: `FILE game N`, or the file alone.
    pub fn name(&self) -> String {
        match self {
            RecordUnit::Game(record) => format!("{} game {}", record.file, record.index),
            RecordUnit::Unreadable { file, .. } => file.clone(),
        }
    }
}

/// The games of the record files and folders given to `--records`, in a
/// fixed order: the paths in the order given, a folder's `.pgn` and `.sgf`
/// files in sorted order ([`record_files`]), the games of a file in file
/// order.
#[derive(Clone, Debug, Default)]
pub struct RecordSet {
    /// The paths as given.
    pub paths: Vec<PathBuf>,
    /// The units, in order.
    pub units: Vec<RecordUnit>,
}

impl RecordSet {
    /// Reads every record file of `paths`. A path that does not exist, or
    /// a folder that holds no record file, is an error (the check cannot
    /// run as asked); a file that does not read is a unit, reported as not
    /// checked.
    pub fn load(paths: &[PathBuf]) -> Result<RecordSet, InputError> {
        let mut units = Vec::new();
        let found = record_files(paths)?;
        // what the walk did not read (FIFOs, devices, links to folders) is
        // listed as not checked, with why
        units.extend(
            found
                .skipped
                .into_iter()
                .map(|skipped| RecordUnit::Unreadable {
                    file: skipped.path,
                    error: skipped.why,
                    whole_file: false,
                }),
        );
        let mut held = Held::default();
        for file in found.files {
            let shown = file.display().to_string();
            // read one game at a time, so that the limits stop the reading
            // of a file of millions of games before it holds them all
            let mut games = Vec::new();
            let mut over = false;
            let read = each_record(&file, &mut |game| {
                if over {
                    return;
                }
                if held.take(&game) {
                    games.push(game);
                } else {
                    over = true;
                }
            });
            if over {
                return Err(InputError::TooManyRecords {
                    games: MAX_RECORD_GAMES,
                    bytes: MAX_RECORD_BYTES,
                    at: shown,
                });
            }
            match read {
                Ok(_) if games.is_empty() => units.push(RecordUnit::Unreadable {
                    file: shown,
                    error: "the file holds no game".to_string(),
                    whole_file: true,
                }),
                // §10.16: a game that does not read is listed, the others
                // checked; an entry of an archive that does not read at all
                // (encrypted, corrupt, over a limit, no record) is an error
                // of no game, as a file's would be, and none of its games
                // was checked. (Ultimate Hive is no game of UHP's: skipped.)
                Ok(_) => units.extend(games.into_iter().map(|game| match game {
                    Ok(game) => RecordUnit::Game(Box::new(game)),
                    Err(error) if error.game.is_none() && !error.not_a_uhp_game => {
                        RecordUnit::Unreadable {
                            file: error.file.clone(),
                            error: error.to_string(),
                            whole_file: true,
                        }
                    }
                    Err(error) => RecordUnit::Unreadable {
                        file: shown.clone(),
                        error: error.to_string(),
                        whole_file: false,
                    },
                })),
                Err(error) => units.push(RecordUnit::Unreadable {
                    file: shown,
                    error: error.to_string(),
                    whole_file: true,
                }),
            }
        }
        Ok(RecordSet {
            paths: paths.to_vec(),
            units,
        })
    }

    /// The record files that could not be read at all (a truncated
    /// archive, an entry of an archive that is encrypted or corrupt, a file
    /// that holds no game), with why: not one game
    /// of theirs was checked. (A game that does not read in a file that
    /// does is its file's business, §10.16, and not listed here.)
    pub fn unreadable_files(&self) -> Vec<(String, String)> {
        self.units
            .iter()
            .filter_map(|unit| match unit {
                RecordUnit::Unreadable {
                    file,
                    error,
                    whole_file: true,
                } => Some((file.clone(), error.clone())),
                _ => None,
            })
            .collect()
    }
}
