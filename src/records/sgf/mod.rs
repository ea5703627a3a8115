//! boardspace.net SGF records (spec/sources/records-notes.md section 3, section 4): the first game tree
//! of a file read into one [`Record`].
//!
//! * `lexer.rs`: the SGF container: nodes, properties, escapes;
//! * this module: the root properties (GM, SU, players, date, RE) and the
//!   actions of the move nodes;
//! * `actions.rs`: an action's player, verb and arguments, read as colours,
//!   pieces and cells in the game's dialect;
//! * `turns.rs`: the pick-and-drop actions collapsed into plies;
//! * `cell.rs`: boardspace cells, and the frame that maps them to axial
//!   hexes;
//! * `token.rs`: boardspace piece tokens;
//! * `board.rs`: the board the reader follows the game on (the reference
//!   engine's stacks, without its rules), which writes each ply as a
//!   standard UHP MoveString and cross-checks the written relative suffix.
//!
//! The reader decides nothing about the rules, except that a game whose
//! queen is surrounded is over (what follows is debris, section 3.8); the replay
//! judges every ply.

mod actions;
mod board;
mod cell;
mod lexer;
mod players;
mod token;
mod turns;

pub use lexer::MAX_SGF_ITEMS;

use crate::core::{Color, GameType};

use super::{DeclaredResult, Ending, Format, Record, RecordError};
use actions::{short, Action};
use lexer::Property;
use players::declared_result;

/// Reads the game of a boardspace SGF file: its first game tree, the main
/// line. `text` is decoded already ([`super::decode`]); `file` names the
/// file in errors and may hold the file name's date stamp.
pub fn read(file: &str, text: &str) -> Result<Vec<Record>, RecordError> {
    let tree = lexer::first_tree(file, text)?;
    let Some(root) = tree.nodes.first() else {
        return Err(RecordError::new(
            file,
            tree.line,
            "the game tree has no node",
        ));
    };
    let header = Header::read(file, tree.line, &root.properties)?;
    let mut notes = header.notes.clone();
    let mut names: [Option<String>; 2] = [None, None];
    let mut actions = Vec::new();
    for property in tree.nodes.iter().flat_map(|node| &node.properties) {
        let player = match property.id.as_str() {
            "P0" => 0,
            "P1" => 1,
            // P-1: viewer scrolling and history pops; TM and the rest: clocks
            _ => continue,
        };
        match player_value(property, player) {
            PlayerValue::Action(action) => actions.push(action),
            PlayerValue::Name(name) => {
                if names[player].is_none() {
                    names[player] = name;
                }
            }
            PlayerValue::Other => {}
            PlayerValue::Empty => notes.push(format!(
                "line {}: \"{}\": a sequence number without an action, ignored",
                property.line,
                short(&property.value)
            )),
        }
    }
    let first_player = actions
        .iter()
        .find(|a| a.verb == "start")
        .and_then(|a| a.args.first())
        .and_then(|p| match p.to_ascii_uppercase().as_str() {
            "P0" => Some(0),
            "P1" => Some(1),
            _ => None,
        })
        .or_else(|| actions.iter().find(|a| a.verb != "start").map(|a| a.player))
        .unwrap_or(0);
    let outcome = turns::collapse(file, header.game_type, first_player, &actions)?;
    notes.extend(outcome.notes);
    let [white, black] = if first_player == 0 {
        [names[0].clone(), names[1].clone()]
    } else {
        [names[1].clone(), names[0].clone()]
    };
    let (stated, re_note) = match &header.re {
        Some((re, line)) => {
            let (result, note) = declared_result(re, white.as_deref(), black.as_deref());
            (result, note.map(|n| format!("line {line}: {n}")))
        }
        None => (DeclaredResult::Unknown, None),
    };
    notes.extend(re_note);
    let (result, ending) = match outcome.ending {
        Some(ending @ Ending::Resignation(color)) => (winner(color.opponent()), ending),
        Some(ending @ Ending::AgreedDraw) => (DeclaredResult::Draw, ending),
        _ => (stated, Ending::Unstated),
    };
    if ending != Ending::Unstated && stated != DeclaredResult::Unknown && stated != result {
        notes.push(format!(
            "RE says {}, the body ends the game with {}: the body decides",
            stated.name(),
            match ending {
                Ending::AgreedDraw => "an agreed draw",
                _ => "a resignation",
            }
        ));
    }
    notes.extend(tree.notes);
    Ok(vec![Record {
        format: Format::Sgf,
        file: file.to_string(),
        index: 1,
        line: tree.line,
        game_type: header.game_type,
        standard_opening: outcome.standard_opening,
        white,
        black,
        date: header.date,
        tags: header.tags,
        result,
        ending,
        moves: outcome.moves,
        notes,
    }])
}

/// [`read`] for the table of formats' one-game-at-a-time reader: an SGF
/// file holds one game, read whole, then given to `sink`. The error is the
/// file's. Returns the number of games given.
pub fn read_each(
    file: &str,
    text: &str,
    sink: &mut dyn FnMut(Result<Record, RecordError>),
) -> Result<usize, RecordError> {
    let games = read(file, text)?;
    let count = games.len();
    games.into_iter().map(Ok).for_each(sink);
    Ok(count)
}

fn winner(color: Color) -> DeclaredResult {
    match color {
        Color::White => DeclaredResult::WhiteWins,
        Color::Black => DeclaredResult::BlackWins,
    }
}

/// What the root node says.
struct Header {
    tags: Vec<(String, String)>,
    game_type: GameType,
    date: Option<String>,
    /// `RE` and its line.
    re: Option<(String, usize)>,
    notes: Vec<String>,
}

impl Header {
    fn read(file: &str, tree_line: usize, root: &[Property]) -> Result<Header, RecordError> {
        let find = |id: &str| root.iter().find(|p| p.id == id);
        // §10.7, section 3.3: GM[27] is boardspace's game number for Hive.
        match find("GM") {
            None => {
                return Err(RecordError::new(
                    file,
                    tree_line,
                    "not a boardspace Hive record: the root node has no GM[27]",
                ))
            }
            Some(gm) if gm.value.trim() != "27" => {
                return Err(RecordError::new(
                    file,
                    gm.line,
                    format!(
                        "not a boardspace Hive record: GM[{}] is another game (Hive is GM[27])",
                        short(&gm.value)
                    ),
                ))
            }
            Some(_) => {}
        }
        let mut notes = Vec::new();
        let game_type = match find("SU") {
            Some(su) => variant(&su.value).map_err(|why| RecordError {
                // §10.21: Ultimate Hive is a game of its own, not a bad record
                not_a_uhp_game: matches!(why, NotAVariant::Ultimate { .. }),
                ..RecordError::new(file, su.line, why.to_string())
            })?,
            None => {
                notes.push(format!("line {tree_line}: no SU (variant): read as Base"));
                GameType::BASE
            }
        };
        // section 3.1: the date stamp of the file stem (GN, else the file name), else DT.
        let date = find("GN")
            .and_then(|gn| stem_date(&gn.value))
            .or_else(|| stem_date(file))
            .or_else(|| {
                find("DT")
                    .map(|dt| dt.value.trim().to_string())
                    .filter(|dt| !dt.is_empty())
            });
        if game_type.pillbug {
            if let Some((year, month)) = date.as_deref().and_then(year_month) {
                if (year, month) < (2013, 3) {
                    notes.push(format!(
                        "the game is from {year}.{month:02}: pillbug games before about March 2013 used a prototype pillbug, whose moves the rules may refuse"
                    ));
                }
            }
        }
        Ok(Header {
            tags: root
                .iter()
                .map(|p| (p.id.clone(), p.value.clone()))
                .collect(),
            game_type,
            date,
            re: find("RE").map(|re| (re.value.clone(), re.line)),
            notes,
        })
    }
}

/// Why an `SU` value names no UHP game type (section 3.4); the value and its
/// first word cut for messages.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum NotAVariant {
    /// A word that is not `hive` or `hive-` with a set of p, l, m.
    #[error("SU[{su}]: the variant \"{word}\" is not a UHP game type (hive, or hive- with any of p, l, m)")]
    Unknown { su: String, word: String },
    /// boardspace's Ultimate Hive.
    #[error("SU[{su}]: the variant hive-ultimate (any bug mix, a setup phase, a colour swap) is not a UHP game")]
    Ultimate { su: String },
}

/// The game type of an `SU` value (§10.7, section 3.4): its first word, lowercased,
/// `hive` or `hive-` with a set of the letters p, l, m.
fn variant(su: &str) -> Result<GameType, NotAVariant> {
    let word = su
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase();
    let unknown = || NotAVariant::Unknown {
        su: short(su),
        word: short(&word),
    };
    if word == "hive" {
        return Ok(GameType::BASE);
    }
    let Some(letters) = word.strip_prefix("hive-") else {
        return Err(unknown());
    };
    if letters == "ultimate" {
        return Err(NotAVariant::Ultimate { su: short(su) });
    }
    if letters.is_empty() {
        return Err(unknown());
    }
    let mut game_type = GameType::BASE;
    for letter in letters.chars() {
        let flag = match letter {
            'm' => &mut game_type.mosquito,
            'l' => &mut game_type.ladybug,
            'p' => &mut game_type.pillbug,
            _ => return Err(unknown()),
        };
        if *flag {
            return Err(unknown());
        }
        *flag = true;
    }
    Ok(game_type)
}

/// What a `P0`/`P1` value holds.
enum PlayerValue {
    /// `57 Dropb bG1 M 12 /wL`: a sequence number and an action.
    Action(Action),
    /// `id "name"`.
    Name(Option<String>),
    /// `time 0:01:02`, `ranking 1500`: not used.
    Other,
    /// A sequence number alone.
    Empty,
}

fn player_value(property: &Property, player: usize) -> PlayerValue {
    let value = property.value.trim();
    let (head, rest) = value.split_once(char::is_whitespace).unwrap_or((value, ""));
    if !head.is_empty() && head.chars().all(|c| c.is_ascii_digit()) {
        let text = rest.trim().to_string();
        let mut words = text.split_whitespace();
        let Some(verb) = words.next() else {
            return PlayerValue::Empty;
        };
        return PlayerValue::Action(Action {
            line: property.line,
            player,
            verb: verb.to_lowercase(),
            args: words.map(str::to_string).collect(),
            text,
        });
    }
    if head.eq_ignore_ascii_case("id") {
        let name = rest.trim();
        let name = name
            .strip_prefix('"')
            .and_then(|n| n.strip_suffix('"'))
            .unwrap_or(name);
        // quotes and control characters dropped (as Mzinga does), blanks collapsed
        let name: String = name
            .chars()
            .filter(|&c| c != '"' && (c.is_whitespace() || !c.is_control()))
            .collect();
        let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
        return PlayerValue::Name((!name.is_empty()).then_some(name));
    }
    PlayerValue::Other
}

/// The date stamp `yyyy-mm-dd` of a file stem
/// (`HV-alice-bob-2018-11-02-0901`), as `yyyy.mm.dd`: the last such stamp
/// of the name, without its folder and extension (section 3.1).
fn stem_date(name: &str) -> Option<String> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let parts: Vec<&str> = base.split(['-', '.']).collect();
    let digits = |s: &str, n: usize| s.len() == n && s.chars().all(|c| c.is_ascii_digit());
    parts.windows(3).rev().find_map(|w| {
        let [year, month, day] = w else { return None };
        if !(digits(year, 4) && digits(month, 2) && digits(day, 2)) {
            return None;
        }
        let (m, d): (u32, u32) = (month.parse().ok()?, day.parse().ok()?);
        ((1..=12).contains(&m) && (1..=31).contains(&d)).then(|| format!("{year}.{month}.{day}"))
    })
}

/// The year and month of a `yyyy.mm.dd` date.
fn year_month(date: &str) -> Option<(u32, u32)> {
    let mut parts = date.split('.');
    let year = parts.next()?.parse().ok()?;
    let month = parts.next()?.parse().ok()?;
    Some((year, month))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants() {
        // section 3.4
        let t = |su: &str| variant(su).map(|t| t.to_string());
        assert_eq!(t("hive"), Ok("Base".into()));
        assert_eq!(t("Hive-PLM"), Ok("Base+MLP".into()));
        assert_eq!(t("hive-plm 2 0 101"), Ok("Base+MLP".into()));
        assert_eq!(t("hive-pl"), Ok("Base+LP".into()));
        assert_eq!(t("hive-m"), Ok("Base+M".into()));
        for bad in ["hive-ultimate", "hive-", "hive-pp", "hive-x", "chess", ""] {
            assert!(variant(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn dates() {
        // section 3.1
        assert_eq!(
            stem_date("games/T!HV-alice-bob-2018-11-02-0901.sgf"),
            Some("2018.11.02".into())
        );
        assert_eq!(stem_date("HV-a-b-2013-13-02-0901"), None);
        assert_eq!(stem_date("x.sgf"), None);
    }
}
