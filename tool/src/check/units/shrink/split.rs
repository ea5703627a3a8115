//! The game as two lists of turns, White's and Black's, each in order (see
//! the module documentation of [`super`]), and a candidate normalized:
//! pieces renumbered in the order they are placed, the first placement on
//! the origin.

use std::collections::BTreeMap;

use hive_oracle_rules::core::{Bug, Color, Hex, Move, Piece};

/// One turn of the game: who made it and a stable id.
#[derive(Clone, Copy, Debug)]
pub(super) struct Turn {
    pub(super) id: usize,
    pub(super) mv: Move,
}

/// The game as White's turns and Black's turns, in the names and cells of
/// the game being shrunk (candidates are normalized when they are built).
#[derive(Clone, Debug)]
pub(super) struct Split {
    pub(super) white: Vec<Turn>,
    pub(super) black: Vec<Turn>,
}

impl Split {
    pub(super) fn of(moves: &[Move]) -> Split {
        let mut split = Split {
            white: Vec::new(),
            black: Vec::new(),
        };
        for (id, &mv) in moves.iter().enumerate() {
            let turn = Turn { id, mv };
            if id % 2 == 0 {
                split.white.push(turn);
            } else {
                split.black.push(turn);
            }
        }
        split
    }

    pub(super) fn len(&self) -> usize {
        self.white.len() + self.black.len()
    }

    /// The interleaved game, without the turns whose ids are in `removed`.
    pub(super) fn without(&self, removed: &[usize]) -> Vec<Move> {
        let keep = |t: &&Turn| !removed.contains(&t.id);
        let white: Vec<Move> = self.white.iter().filter(keep).map(|t| t.mv).collect();
        let black: Vec<Move> = self.black.iter().filter(keep).map(|t| t.mv).collect();
        interleave(&white, &black)
    }

    pub(super) fn remove(&mut self, removed: &[usize]) {
        self.white.retain(|t| !removed.contains(&t.id));
        self.black.retain(|t| !removed.contains(&t.id));
    }
}

/// White's and Black's turns as one game: White, Black, White, ...
pub(super) fn interleave(white: &[Move], black: &[Move]) -> Vec<Move> {
    let mut out = Vec::with_capacity(white.len() + black.len());
    for i in 0..white.len().max(black.len()) {
        out.extend(white.get(i));
        out.extend(black.get(i));
    }
    out
}

/// Renumbers the pieces in the order they are placed (§1.5, §3.2) and
/// translates the board so that the first placement is on the origin
/// (§3.3). `None` when a piece moves before it is placed, or the game does
/// not start with a placement.
pub(super) fn normalize(moves: &[Move], focus: Option<Move>) -> Option<(Vec<Move>, Option<Move>)> {
    let offset = match moves.first().copied().or(focus) {
        Some(Move::Place { to, .. }) => to,
        Some(_) => return None,
        None => Hex::ORIGIN,
    };
    let shift = |h: Hex| Hex::new(h.q - offset.q, h.r - offset.r);
    let mut renamed: BTreeMap<Piece, Piece> = BTreeMap::new();
    let mut placed: BTreeMap<(Color, Bug), u8> = BTreeMap::new();
    let mut place = |piece: Piece, renamed: &mut BTreeMap<Piece, Piece>| -> Option<Piece> {
        let count = placed.entry((piece.color, piece.bug)).or_insert(0);
        *count += 1;
        let new = Piece::new(piece.color, piece.bug, *count)?;
        renamed.insert(piece, new);
        Some(new)
    };
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        out.push(match mv {
            Move::Place { piece, to } => {
                if renamed.contains_key(&piece) {
                    return None;
                }
                Move::Place {
                    piece: place(piece, &mut renamed)?,
                    to: shift(to),
                }
            }
            Move::Move { piece, to } => Move::Move {
                piece: *renamed.get(&piece)?,
                to: shift(to),
            },
            Move::Pass => Move::Pass,
        });
    }
    let focus = match focus {
        None => None,
        Some(Move::Pass) => Some(Move::Pass),
        Some(Move::Place { piece, to }) => Some(Move::Place {
            // a placement of a piece already on the board names the next one
            piece: match renamed.get(&piece) {
                Some(&p) => p,
                None => place(piece, &mut renamed)?,
            },
            to: shift(to),
        }),
        Some(Move::Move { piece, to }) => Some(Move::Move {
            piece: *renamed.get(&piece)?,
            to: shift(to),
        }),
    };
    Some((out, focus))
}
