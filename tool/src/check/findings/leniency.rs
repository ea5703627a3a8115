//! Which spellings an engine MUST accept and which it MAY refuse
//! (spec/notation.md, "What `check` requires of other engines";
//! rulings.md#notation-standard-and-lenient).
//!
//! Every UHP engine MUST accept the standard spellings (§9.29): the
//! grammar's forms with letters as written and single spaces (§9.15,
//! §9.17, §9.18, §9.19, §9.21), any piece adjacent to the destination as
//! the reference, covered or not (§9.23), and the moving piece itself
//! (§9.24). Our engine also reads lenient spellings that the established
//! engines do not all accept: letters in either case (§9.20), expansion
//! letters in any order (§9.16), extra blank space (§9.28), a west or east
//! target that points at an occupied cell (§9.26) and a stack target naming
//! a covered piece (§9.27). `check` sends both kinds; an engine that refuses
//! a standard spelling gets an *error*, one that refuses a lenient spelling
//! an *advisory*, which does not fail the check unless `--strict-notation`.
//! Either finding cites the clause the spelling relies on.

use crate::check::findings::finding::Severity;
use hive_oracle_rules::core::notation::{
    parse_game_state, parse_game_type, parse_move, parse_turn, MoveSpec, Target,
};
use hive_oracle_rules::core::{GameType, Hex, Move, Piece, RulesOptions};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// What a spelling asks of the engine that reads it: the clause it relies
/// on, and whether that clause is one every engine MUST follow or a
/// leniency an engine MAY decline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Demand {
    /// A standard spelling, which every engine MUST accept (§9.29).
    Must(&'static str),
    /// A lenient spelling, which an engine MAY refuse.
    May(&'static str),
}

impl Demand {
    /// The clause the spelling relies on.
    pub(crate) fn clause(self) -> &'static str {
        match self {
            Demand::Must(clause) | Demand::May(clause) => clause,
        }
    }

    /// The severity of a refusal of the spelling: an error for a standard
    /// spelling, an advisory for a lenient one.
    pub(crate) fn severity(self) -> Severity {
        match self {
            Demand::Must(_) => Severity::Error,
            Demand::May(_) => Severity::Advisory,
        }
    }

    /// Words for a finding's detail: what the spelling is and what an
    /// engine may do with it.
    pub(crate) fn note(self) -> String {
        match self {
            Demand::Must(c) => format!(" (a standard spelling, {c}: every engine MUST accept it)"),
            Demand::May(c) => format!(" (a lenient spelling, {c}: an engine MAY refuse it)"),
        }
    }

    /// Words for a finding's pattern, which groups findings into causes:
    /// a lenient spelling is named, a standard one adds nothing.
    pub(crate) fn pattern_word(self) -> String {
        match self {
            Demand::Must(_) => String::new(),
            Demand::May(c) => format!(" (lenient {c})"),
        }
    }
}

/// What a MoveString asks of an engine in `game`. `None` for text that
/// does not read as a MoveString at all.
pub(crate) fn move_demand(game: &ReferenceEngine, text: &str) -> Option<Demand> {
    // §9.28: one space between the piece and the target, none elsewhere
    if text != text.trim() || text.contains('\t') || text.contains("  ") {
        return Some(Demand::May("§9.28"));
    }
    let spec = parse_move(text).ok()?;
    let MoveSpec::Piece { piece, target } = spec else {
        // §9.21: `pass` is written lower-case; `PASS` is a leniency (§9.20)
        return Some(if text == "pass" {
            Demand::Must("§9.21")
        } else {
            Demand::May("§9.20")
        });
    };
    // §9.19: both piece names as written there, else a leniency (§9.20)
    let named = |token: &str, p: Piece| token.trim_matches(['-', '/', '\\']) == p.to_string();
    let mut tokens = text.split(' ');
    let piece_ok = tokens.next().is_some_and(|t| named(t, piece));
    let reference_ok = match (target, tokens.next()) {
        (Target::Origin, None) => true,
        (Target::OnTop(r) | Target::Beside { reference: r, .. }, Some(t)) => named(t, r),
        _ => false,
    };
    if !piece_ok || !reference_ok {
        return Some(Demand::May("§9.20"));
    }
    let board = game.board();
    let reference_clause = |reference: Piece| {
        // §9.24: the mover as its own reference; §9.23: any other piece
        if reference == piece {
            Demand::Must("§9.24")
        } else {
            Demand::Must("§9.23")
        }
    };
    Some(match target {
        // §9.10: the first move, a piece name alone
        Target::Origin => Demand::Must("§9.10"),
        // §9.27: a stack target naming a covered piece
        Target::OnTop(reference) if !board.is_on_top(reference) => Demand::May("§9.27"),
        Target::OnTop(reference) => reference_clause(reference),
        // §9.26: a glyph target pointing at an occupied cell is a climb
        Target::Beside {
            reference,
            direction,
        } => {
            let points_at_a_stack = board
                .location(reference)
                .is_some_and(|at| board.is_occupied(at.neighbour(direction)));
            if points_at_a_stack {
                Demand::May("§9.26")
            } else {
                reference_clause(reference)
            }
        }
    })
}

/// What a GameString asks of an engine: the first leniency it relies on,
/// padding (§9.28), the case of its header fields (§9.20), the order of
/// its expansion letters (§9.16) or a lenient move in its position; else
/// §9.31, a GameString every engine MUST load. `None` for a string that
/// does not replay.
pub(crate) fn game_string_demand(text: &str, options: RulesOptions) -> Option<Demand> {
    if text != text.trim() {
        return Some(Demand::May("§9.28"));
    }
    let fields: Vec<&str> = text.split(';').collect();
    if fields.iter().any(|f| *f != f.trim()) {
        return Some(Demand::May("§9.28"));
    }
    let game_type: GameType = parse_game_type(fields.first()?).ok()?;
    let standard = game_type.to_string();
    if fields[0] != standard {
        // §9.16: the letters in another order; §9.20: only in another case
        return Some(Demand::May(if fields[0].eq_ignore_ascii_case(&standard) {
            "§9.20"
        } else {
            "§9.16"
        }));
    }
    if fields.len() < 3 {
        return None;
    }
    if parse_game_state(fields[1]).ok()?.name() != fields[1] {
        return Some(Demand::May("§9.20"));
    }
    if parse_turn(fields[2]).ok()?.to_string() != fields[2] {
        return Some(Demand::May("§9.20"));
    }
    let mut game = ReferenceEngine::new_game(game_type, options);
    for text in &fields[3..] {
        if let Some(lenient @ Demand::May(_)) = move_demand(&game, text) {
            return Some(lenient);
        }
        let mv = game.parse_move(text).ok()?;
        game.play(mv).ok()?;
    }
    Some(Demand::Must("§9.31"))
}

/// The spellings every engine MUST refuse that the protocol's reference
/// implementation (Mzinga, MzingaCpp; spec/sources/uhp-notes.md sections 3.6
/// and 4.5) reads as a move, one row each: the shape, the clause it breaks
/// and Mzinga's reading in words. This table alone decides their severity
/// ([`READ_AS_THE_REFERENCE`]): accepting one exactly as Mzinga reads it is
/// an *advisory*, any other acceptance an error
/// (rulings.md#notation-glyph-on-both-sides, rulings.md#notation-bare-name;
/// spec/notation.md, "What `check` requires of other engines").
///
/// Mzinga's reader (`TryNormalizeMoveString`, the same in Mzinga and
/// MzingaCpp) takes the mover, then a glyph before the reference if there
/// is one, then the reference's name up to the first glyph after it, and
/// stops there: a glyph before wins over one after, and whatever follows
/// the first glyph after the name is ignored.
pub(crate) const REFERENCE_READINGS: &[(Shape, &str, &str)] = &[
    (Shape::GlyphOnBothSides, "§9.22", "read by its first glyph"),
    (
        Shape::TextAfterTheGlyph,
        "§9.21",
        "read up to its first glyph, the rest ignored",
    ),
    (Shape::BareName, "§9.10", "a bare name read as the origin"),
];

/// The severity of accepting a spelling of [`REFERENCE_READINGS`] exactly
/// as Mzinga reads it (any other acceptance is an error).
pub(crate) const READ_AS_THE_REFERENCE: Severity = Severity::Advisory;

/// The shapes of MUST-refuse spellings that Mzinga reads as moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `wA1 -wQ-`, `bS1 /wS1/`: a glyph before and after the reference.
    GlyphOnBothSides,
    /// `bS1 wS1-/`, `bS1 wS1-zzz`, `bS1 wS1- wS1`: more text after the
    /// reference's glyph.
    TextAfterTheGlyph,
    /// `bA1` after the first move.
    BareName,
}

/// A spelling of [`REFERENCE_READINGS`] with Mzinga's reading of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReferenceReading {
    /// The clause the spelling breaks.
    pub clause: &'static str,
    /// The move Mzinga plays for it.
    pub mv: Move,
    /// The reading, in words, for a finding's detail and pattern.
    pub what: &'static str,
    /// The spelling's shape: a bare name, which Mzinga also prints as it is.
    pub shape: Shape,
}

impl ReferenceReading {
    /// The severity of accepting the spelling as read.
    pub(crate) fn severity(self) -> Severity {
        READ_AS_THE_REFERENCE
    }
}

/// Mzinga's reading of `text` in `game`, when `text` is a spelling of
/// [`REFERENCE_READINGS`] that Mzinga reads as a legal move. `None` for any
/// other text, or when that reading is no legal move (Mzinga refuses it
/// too).
pub(crate) fn reference_reading(game: &ReferenceEngine, text: &str) -> Option<ReferenceReading> {
    let glyph = |c: char| matches!(c, '-' | '/' | '\\');
    let (mover, target) = match text.split_once(' ') {
        Some((mover, target)) => (mover, target),
        None => (text, ""),
    };
    let (shape, read) = if target.is_empty() {
        // §9.10: a bare piece name after the first move, read as the origin
        if game.plies() == 0 {
            return None;
        }
        let MoveSpec::Piece {
            piece,
            target: Target::Origin,
        } = parse_move(mover).ok()?
        else {
            return None;
        };
        let to = Hex::ORIGIN;
        let mv = if game.board().location(piece).is_some() {
            Move::Move { piece, to }
        } else {
            Move::Place { piece, to }
        };
        game.clone().play(mv).ok()?;
        return Some(reading(Shape::BareName, mv));
    } else {
        let before = target.starts_with(glyph);
        let name_start = usize::from(before);
        let name_len = target[name_start..].find(glyph)?;
        let after_at = name_start + name_len;
        let rest = &target[after_at + 1..];
        if before {
            // a glyph before wins: the name up to the next glyph
            let shape = Shape::GlyphOnBothSides;
            (shape, format!("{mover} {}", &target[..after_at]))
        } else if rest.is_empty() {
            return None; // the standard `wS1-`
        } else {
            (
                Shape::TextAfterTheGlyph,
                format!("{mover} {}", &target[..=after_at]),
            )
        }
    };
    let mv = game.parse_move(&read).ok()?;
    game.clone().play(mv).ok()?;
    Some(reading(shape, mv))
}

/// The reading of a spelling of `shape` as `mv`, from [`REFERENCE_READINGS`].
fn reading(shape: Shape, mv: Move) -> ReferenceReading {
    let (_, clause, what) = REFERENCE_READINGS
        .iter()
        .copied()
        .find(|(s, _, _)| *s == shape)
        .unwrap_or((shape, "§9.21", "read as Mzinga reads it"));
    ReferenceReading {
        clause,
        mv,
        what,
        shape,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POSITION: &str = "Base;InProgress;Black[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 -wQ;bB1 \\bQ;wA1 -wG1;bB1 \\bS1;wG2 -wA1;bB1 wS1;wG2 bQ-;bB2 \\bS1;wS2 -wA1";

    #[test]
    fn move_spellings_are_named_by_their_clause() {
        // Positions from spec/notation.md §9.27's example.
        let game = ReferenceEngine::load(POSITION).expect("loads");
        // lenient spellings, which an engine MAY refuse
        assert_eq!(move_demand(&game, "bB2 wS1"), Some(Demand::May("§9.27")));
        assert_eq!(move_demand(&game, "BB2 bB1"), Some(Demand::May("§9.20")));
        assert_eq!(move_demand(&game, "bB2  bB1"), Some(Demand::May("§9.28")));
        assert_eq!(move_demand(&game, " bB2 bB1"), Some(Demand::May("§9.28")));
        assert_eq!(move_demand(&game, "bB2 -bS1"), Some(Demand::May("§9.26")));
        assert_eq!(move_demand(&game, "PASS"), Some(Demand::May("§9.20")));
        // standard spellings, which every engine MUST accept
        assert_eq!(move_demand(&game, "bB2 bB1"), Some(Demand::Must("§9.23")));
        assert_eq!(move_demand(&game, "pass"), Some(Demand::Must("§9.21")));
        // §9.23: any neighbour as reference
        assert_eq!(move_demand(&game, "bQ wG2-"), Some(Demand::Must("§9.23")));
        // §9.24: the mover as its own reference
        assert_eq!(move_demand(&game, "bQ bQ/"), Some(Demand::Must("§9.24")));
        // not a MoveString: nothing to classify (§9.22 refuses it)
        assert_eq!(move_demand(&game, "bQ -wG2-"), None);
        assert_eq!(
            Demand::May("§9.27").severity(),
            crate::check::findings::finding::Severity::Advisory
        );
        assert_eq!(
            Demand::Must("§9.24").severity(),
            crate::check::findings::finding::Severity::Error
        );
    }

    #[test]
    fn mzinga_readings_of_must_refuse_spellings() {
        // rulings.md#notation-glyph-on-both-sides: the position of the audit
        let game = ReferenceEngine::load("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
            .expect("loads");
        let west = game.parse_move("wA1 -wQ").expect("reads");
        let reading = reference_reading(&game, "wA1 -wQ-").expect("Mzinga reads it");
        assert_eq!((reading.clause, reading.mv), ("§9.22", west));
        // read by its first glyph, west of bS1: wS1's cell (§3.7), which
        // Mzinga refuses too
        assert_eq!(reference_reading(&game, "wA1 -bS1-"), None);
        assert_eq!(reference_reading(&game, "wA1 -wQ"), None);
        // text after the reference's glyph is ignored (MzingaCpp's
        // TryNormalizeMoveString stops at it): tests/cases/notation.toml::
        // malformed-targets-are-refused and the probe `play bS1 wS1-zzz`
        let game = ReferenceEngine::load("Base;InProgress;Black[1];wS1").expect("loads");
        let east = game.parse_move("bS1 wS1-").expect("reads");
        for text in ["bS1 wS1-/", "bS1 wS1-zzz", "bS1 wS1- wS1"] {
            let reading = reference_reading(&game, text).expect("Mzinga reads it");
            assert_eq!((reading.clause, reading.mv), ("§9.21", east), "{text}");
            assert_eq!(reading.shape, Shape::TextAfterTheGlyph);
        }
        // a glyph before wins over one after
        let north_west = game.parse_move("bS1 /wS1").expect("reads");
        let reading = reference_reading(&game, "bS1 /wS1/").expect("Mzinga reads it");
        assert_eq!((reading.clause, reading.mv), ("§9.22", north_west));
        // one severity for every reading, from the one table
        assert!(REFERENCE_READINGS
            .iter()
            .all(|(shape, _, _)| reading_of(*shape).severity() == Severity::Advisory));
        assert_eq!(reference_reading(&game, "bS1 wS1+"), None);
        // rulings.md#notation-bare-name: the origin is free and the ant may
        // go there (tests/cases/notation.toml::bare-piece-name-with-the-origin-free)
        let game = ReferenceEngine::load(
            "Base;InProgress;Black[4];wS1;bS1 wS1-;wQ \\wS1;bQ bS1-;wQ \\bS1;bA1 bQ-;wS1 bQ\\",
        )
        .expect("loads");
        let origin = game.parse_move("bA1 /wQ").expect("reads");
        let reading = reference_reading(&game, "bA1").expect("Mzinga reads it");
        assert_eq!((reading.clause, reading.mv), ("§9.10", origin));
        // a placement there would touch White's pieces (§3.6)
        assert_eq!(reference_reading(&game, "bA2"), None);
        // the origin taken: Mzinga refuses the bare name too
        let game = ReferenceEngine::load("Base;InProgress;Black[1];wS1").expect("loads");
        assert_eq!(reference_reading(&game, "bS1"), None);
        // the first move is a bare name by right: nothing to read otherwise
        let game = ReferenceEngine::load("Base;NotStarted;White[1]").expect("loads");
        assert_eq!(reference_reading(&game, "wS1"), None);
    }

    /// A reading of `shape`, to ask its severity.
    fn reading_of(shape: Shape) -> ReferenceReading {
        reading(shape, Move::Pass)
    }

    #[test]
    fn game_strings_are_named_by_their_clause() {
        let options = RulesOptions::default();
        assert_eq!(
            game_string_demand(POSITION, options),
            Some(Demand::Must("§9.31"))
        );
        assert_eq!(
            game_string_demand("base;InProgress;Black[1];wS1", options),
            Some(Demand::May("§9.20"))
        );
        assert_eq!(
            game_string_demand("Base+PM;NotStarted;White[1]", options),
            Some(Demand::May("§9.16"))
        );
        assert_eq!(
            game_string_demand("Base;inprogress;Black[1];wS1", options),
            Some(Demand::May("§9.20"))
        );
        assert_eq!(
            game_string_demand("Base;InProgress;Black[1]; wS1", options),
            Some(Demand::May("§9.28"))
        );
        assert_eq!(
            game_string_demand("Base;InProgress;White[2];ws1;bS1 wS1-", options),
            Some(Demand::May("§9.20"))
        );
        assert_eq!(
            game_string_demand("Base;InProgress;White[2];wQ", options),
            None
        );
    }
}
