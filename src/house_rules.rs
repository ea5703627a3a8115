//! House repetition rules: the repetition draws that real engines and sites
//! play instead of the spec's (§8.7.2 to §8.7.8), described exactly, so that
//! `hive-oracle check` can judge an engine that plays one of them without
//! reporting a ruling difference as a rules bug (spec/rulings.md#house-repetition-rules).
//!
//! A house rule is three choices: which earlier positions count
//! ([`Window`]), which positions are the same ([`Sameness`]), and when the
//! piece moved last turn is part of a position ([`ImmunePiece`]). The moves
//! are the spec's; only the draw differs. A house rule never overrides a
//! surround: as in §8.7.3, a surrounded queen decides first.
//!
//! Written for the reader like the reference engine it is built on: the
//! positions are replayed from the moves into ordered maps, nothing is
//! cached. Only positions with as many pieces on the board as the current
//! one can equal it (pieces never leave the board), so only the positions
//! since the last placement are compared.

use std::collections::BTreeMap;

use crate::core::{Bug, Color, GameState, Hex, Move, Piece, RulesOptions};
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

/// Which earlier positions a house rule counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// The positions after the last 32 plies, as §8.7.2.
    LastThirtyTwoPlies,
    /// Every earlier position of the game (hivegame.com).
    WholeGame,
    /// Only the positions 4, 8, …, 32 plies back, and only once more than
    /// ten plies were played; the draw needs two of them equal to the
    /// current one (nokamute, spec/sources/uhp-notes.md section 3.2).
    EveryFourthPlyBack,
}

/// Which positions a house rule calls the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sameness {
    /// The same stacks up to translation, as §8.7.4 and §8.7.7.
    Translation,
    /// Also up to the six rotations and their mirror images (hivegame.com).
    RotationAndReflection,
}

/// When the piece moved last turn is part of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImmunePiece {
    /// When its immunity removes a move, as §8.7.6.
    WhenItRemovesAMove,
    /// When it landed next to a pillbug, at any height (hivegame.com).
    NextToAPillbug,
    /// Never: the position is its stacks and the side to move (nokamute).
    Ignored,
}

/// A repetition draw as an engine plays it (spec/rulings.md#house-repetition-rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HouseRepetition {
    /// Which earlier positions count.
    pub window: Window,
    /// Which positions are the same.
    pub sameness: Sameness,
    /// When the piece moved last turn is part of a position.
    pub immune: ImmunePiece,
}

/// A position as a house rule compares it: the side to move, the stacks as
/// (colour, bug) bottom to top in cell order, and the immune piece's cell
/// when it counts.
type HouseKey = (Color, Vec<(Hex, Vec<(Color, Bug)>)>, Option<Hex>);

/// A plain board: the stacks, bottom to top.
type Stacks = BTreeMap<Hex, Vec<Piece>>;

impl HouseRepetition {
    /// The spec's positions counted over the whole game.
    pub const WHOLE_GAME: HouseRepetition = HouseRepetition {
        window: Window::WholeGame,
        sameness: Sameness::Translation,
        immune: ImmunePiece::WhenItRemovesAMove,
    };
    /// The spec's window, with rotations and mirror images folded.
    pub const FOLDS_SYMMETRY: HouseRepetition = HouseRepetition {
        window: Window::LastThirtyTwoPlies,
        sameness: Sameness::RotationAndReflection,
        immune: ImmunePiece::WhenItRemovesAMove,
    };
    /// hivegame.com's live rule, as an audit of its engine reported it.
    pub const HIVEGAME: HouseRepetition = HouseRepetition {
        window: Window::WholeGame,
        sameness: Sameness::RotationAndReflection,
        immune: ImmunePiece::NextToAPillbug,
    };
    /// nokamute's rule, as spec/sources/uhp-notes.md section 3.2 gives it.
    pub const NOKAMUTE: HouseRepetition = HouseRepetition {
        window: Window::EveryFourthPlyBack,
        sameness: Sameness::Translation,
        immune: ImmunePiece::Ignored,
    };

    /// The presets, each with a `--rules` word, in the order `check` tries
    /// them when it explains a game end.
    pub const PRESETS: [HouseRepetition; 4] = [
        HouseRepetition::WHOLE_GAME,
        HouseRepetition::FOLDS_SYMMETRY,
        HouseRepetition::HIVEGAME,
        HouseRepetition::NOKAMUTE,
    ];

    /// The rule's name: the `--rules` word of a preset, else the words of
    /// its choices.
    pub fn name(&self) -> String {
        let words = [
            "repetition-whole-game",
            "repetition-folds-symmetry",
            "repetition-hivegame",
            "repetition-nokamute",
        ];
        if let Some(at) = HouseRepetition::PRESETS
            .iter()
            .position(|rule| rule == self)
        {
            return words[at].to_string();
        }
        if self.immune == ImmunePiece::WhenItRemovesAMove
            && self.window != Window::EveryFourthPlyBack
        {
            // the spec's rule with both changes of the first two presets
            return format!("{},{}", words[0], words[1]);
        }
        let window = match self.window {
            Window::LastThirtyTwoPlies => "last 32 plies",
            Window::WholeGame => "whole game",
            Window::EveryFourthPlyBack => "every fourth ply back",
        };
        let sameness = match self.sameness {
            Sameness::Translation => "up to translation",
            Sameness::RotationAndReflection => "up to rotation and reflection",
        };
        let immune = match self.immune {
            ImmunePiece::WhenItRemovesAMove => "immune piece when it removes a move",
            ImmunePiece::NextToAPillbug => "immune piece next to a pillbug",
            ImmunePiece::Ignored => "immune piece ignored",
        };
        format!("repetition over the {window}, {sameness}, {immune}")
    }

    /// The rules options the reference plays a game with under this house
    /// rule: the spec's repetition draw exactly when the immune piece counts
    /// as in §8.7.6, since the reference then records its cell; every such
    /// rule draws wherever the spec's does (its window and its sameness are
    /// at least the spec's), so the reference never draws where the house
    /// rule does not.
    pub fn reference_options(&self, rules: RulesOptions) -> RulesOptions {
        RulesOptions {
            repetition_draw: self.immune == ImmunePiece::WhenItRemovesAMove,
            ..rules
        }
    }

    /// Whether the rule can be played as described: the immune piece of
    /// §8.7.6 is read from the reference's own repetition draw, so it needs
    /// a window that holds the spec's.
    pub fn is_consistent(&self) -> bool {
        self.immune != ImmunePiece::WhenItRemovesAMove || self.window != Window::EveryFourthPlyBack
    }

    /// The state of `game` under this house rule: the reference's state,
    /// or a draw when the game is in progress and the position after the
    /// last ply completes a repetition as this rule counts it. `game` must
    /// be played with [`reference_options`](Self::reference_options).
    pub fn state(&self, game: &ReferenceEngine) -> GameState {
        let state = game.state();
        if state.is_over() || !self.draws(game) {
            state
        } else {
            GameState::Draw
        }
    }

    /// Whether the position after the last ply of `game` occurs for the
    /// third time as this rule counts (a surround aside).
    pub fn draws(&self, game: &ReferenceEngine) -> bool {
        let keys = self.keys_since_last_placement(game);
        let plies = game.history().len();
        let Some((current, earlier)) = keys.split_last() else {
            return false;
        };
        // `earlier[i]` is the key after ply `first + i`
        let first = plies + 1 - keys.len();
        let matches = |ply: usize| ply >= first && earlier[ply - first] == *current;
        match self.window {
            Window::LastThirtyTwoPlies => {
                (plies.saturating_sub(32)..plies)
                    .filter(|&p| matches(p))
                    .count()
                    >= 2
            }
            Window::WholeGame => (0..plies).filter(|&p| matches(p)).count() >= 2,
            Window::EveryFourthPlyBack => {
                plies > 10
                    && (4..=32)
                        .step_by(4)
                        .filter(|&back| back <= plies && matches(plies - back))
                        .count()
                        >= 2
            }
        }
    }

    /// The keys of the positions after the last placement (or the start)
    /// up to the current one, oldest first.
    fn keys_since_last_placement(&self, game: &ReferenceEngine) -> Vec<HouseKey> {
        let history = game.history();
        let since = history
            .iter()
            .rposition(|mv| matches!(mv, Move::Place { .. }))
            .map_or(0, |ply| ply + 1);
        let mut stacks = Stacks::new();
        let mut keys = Vec::new();
        for ply in 0..=history.len() {
            if ply > 0 {
                play_on(&mut stacks, history[ply - 1]);
            }
            if ply >= since {
                let immune = self.immune_cell(game, &stacks, ply);
                keys.push(self.key(&stacks, side_to_move(ply), immune));
            }
        }
        keys
    }

    /// The cell of the immune piece after `ply` plies when this rule counts
    /// it, in the coordinates of `stacks`.
    fn immune_cell(&self, game: &ReferenceEngine, stacks: &Stacks, ply: usize) -> Option<Hex> {
        match self.immune {
            ImmunePiece::Ignored => None,
            ImmunePiece::WhenItRemovesAMove => {
                // §8.7.6, as the reference recorded it, translated so that
                // the smallest occupied cell is the origin (§8.7.4)
                let cell = game.repetition_keys().get(ply)?.immune_cell()?;
                let anchor = stacks.keys().next().copied().unwrap_or(Hex::ORIGIN);
                Some(Hex::new(cell.q + anchor.q, cell.r + anchor.r))
            }
            ImmunePiece::NextToAPillbug => {
                let landed = match game.history().get(ply.checked_sub(1)?)? {
                    Move::Place { to, .. } | Move::Move { to, .. } => *to,
                    Move::Pass => return None,
                };
                let beside_a_pillbug = landed.neighbours().into_iter().any(|n| {
                    stacks
                        .get(&n)
                        .is_some_and(|stack| stack.iter().any(|p| p.bug == Bug::Pillbug))
                });
                beside_a_pillbug.then_some(landed)
            }
        }
    }

    /// The key of a position: under [`Sameness::Translation`] the stacks
    /// translated so that the smallest cell is the origin; under
    /// [`Sameness::RotationAndReflection`] the smallest of the keys of its
    /// twelve images.
    fn key(&self, stacks: &Stacks, side: Color, immune: Option<Hex>) -> HouseKey {
        let images: &[fn(Hex) -> Hex] = match self.sameness {
            Sameness::Translation => &[identity],
            Sameness::RotationAndReflection => &SYMMETRIES,
        };
        images
            .iter()
            .map(|image| translated_key(stacks, side, immune, *image))
            .min()
            .unwrap_or((side, Vec::new(), None))
    }
}

/// The side to move after `plies` plies: White moves first (§7.1).
fn side_to_move(plies: usize) -> Color {
    if plies.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    }
}

/// Plays a move known to be legal on a plain board.
fn play_on(stacks: &mut Stacks, mv: Move) {
    match mv {
        Move::Place { piece, to } => stacks.entry(to).or_default().push(piece),
        Move::Move { piece, to } => {
            let from = stacks
                .iter()
                .find(|(_, stack)| stack.last() == Some(&piece))
                .map(|(hex, _)| *hex);
            if let Some(from) = from {
                if let Some(stack) = stacks.get_mut(&from) {
                    stack.pop();
                    if stack.is_empty() {
                        stacks.remove(&from);
                    }
                }
            }
            stacks.entry(to).or_default().push(piece);
        }
        Move::Pass => {}
    }
}

/// The key of the image of a position under `image`, translated so that
/// its smallest cell is the origin.
fn translated_key(
    stacks: &Stacks,
    side: Color,
    immune: Option<Hex>,
    image: fn(Hex) -> Hex,
) -> HouseKey {
    let mut cells: Vec<(Hex, Vec<(Color, Bug)>)> = stacks
        .iter()
        .map(|(hex, stack)| {
            (
                image(*hex),
                stack.iter().map(|p| (p.color, p.bug)).collect(),
            )
        })
        .collect();
    cells.sort();
    let anchor = cells.first().map_or(Hex::ORIGIN, |(hex, _)| *hex);
    let translate = |hex: Hex| Hex::new(hex.q - anchor.q, hex.r - anchor.r);
    for (hex, _) in &mut cells {
        *hex = translate(*hex);
    }
    (side, cells, immune.map(|hex| translate(image(hex))))
}

fn identity(hex: Hex) -> Hex {
    hex
}

/// A turn by 60° about the origin: cube `(x, y, z)` to `(-z, -x, -y)`, in
/// axial coordinates `(q, r)` to `(-r, q + r)`.
fn turn(hex: Hex) -> Hex {
    Hex::new(-hex.r, hex.q + hex.r)
}

/// The mirror image that swaps the cube coordinates `x` and `z`.
fn mirror(hex: Hex) -> Hex {
    Hex::new(hex.r, hex.q)
}

/// The twelve symmetries of the hex grid that fix the origin: six turns,
/// and each of them after the mirror.
const SYMMETRIES: [fn(Hex) -> Hex; 12] = [
    identity,
    turn,
    |h| turn(turn(h)),
    |h| turn(turn(turn(h))),
    |h| turn(turn(turn(turn(h)))),
    |h| turn(turn(turn(turn(turn(h))))),
    mirror,
    |h| turn(mirror(h)),
    |h| turn(turn(mirror(h))),
    |h| turn(turn(turn(mirror(h)))),
    |h| turn(turn(turn(turn(mirror(h))))),
    |h| turn(turn(turn(turn(turn(mirror(h)))))),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The twelve symmetries are distinct and each maps a neighbour of the
    /// origin to a neighbour (they are symmetries of the grid).
    #[test]
    fn twelve_distinct_symmetries_of_the_grid() {
        // a cell on no mirror axis: its cube coordinates 3, -2, -1 differ
        let probe = Hex::new(3, -1);
        let images: std::collections::BTreeSet<Hex> = SYMMETRIES.iter().map(|s| s(probe)).collect();
        assert_eq!(images.len(), 12);
        for symmetry in SYMMETRIES {
            for n in Hex::ORIGIN.neighbours() {
                assert!(Hex::ORIGIN.neighbours().contains(&symmetry(n)));
            }
        }
    }
}
