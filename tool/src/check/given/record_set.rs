//! The game records a check replays on the engine (`--records`): the
//! files and folders given, read once before the run into a fixed list of
//! units ([`RecordSet`]); running them is `record_unit`.

use std::path::PathBuf;

use crate::input::{read_records, record_files, InputError};
use hive_oracle_rules::records::Record;

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
        for file in found.files {
            match read_records(&file) {
                Ok(games) if games.is_empty() => units.push(RecordUnit::Unreadable {
                    file: file.display().to_string(),
                    error: "the file holds no game".to_string(),
                    whole_file: true,
                }),
                // §10.16: a game that does not read is listed, the others checked
                Ok(games) => units.extend(games.into_iter().map(|game| match game {
                    Ok(game) => RecordUnit::Game(Box::new(game)),
                    Err(error) => RecordUnit::Unreadable {
                        file: file.display().to_string(),
                        error: error.to_string(),
                        whole_file: false,
                    },
                })),
                Err(error) => units.push(RecordUnit::Unreadable {
                    file: file.display().to_string(),
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

    /// The record files that could not be read at all (a truncated or
    /// encrypted archive, a file that holds no game), with why: not one game
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
