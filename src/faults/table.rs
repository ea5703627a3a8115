//! The table of faults: each fault is named once, in `fault_table!`, with
//! its documentation, its `--fault` name, where it shows ([`Area`]) and a
//! one-line summary. The enum [`Fault`], the list [`Fault::ALL`], the names
//! ([`Fault::name`], `Display`), their parsing (`FromStr`, whose error lists
//! every fault) and the help ([`Fault::help`]) all come from it, so a new
//! fault is one entry here and its behaviour in the file of its area.

use std::fmt;
use std::str::FromStr;

use crate::house_rules::HouseRepetition;
use crate::uhp::reply::quote;

/// Where a fault shows. It decides which engine holds a faulty session's
/// game, and groups the faults in the help.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Area {
    /// The rules (chapters 1 to 8), with the moves or the state computed on
    /// the reference position: the game is held by the reference engine,
    /// which can be made to play any move.
    ReferenceRules,
    /// The rules (chapters 1 to 8), on the engine the session is given.
    Rules,
    /// The notation (chapter 9): what the engine prints or reads.
    Notation,
    /// The protocol: the framing of the answers, the process and its streams.
    Protocol,
}

impl Area {
    /// The word for the area in the help.
    pub fn text(self) -> &'static str {
        match self {
            Area::ReferenceRules | Area::Rules => "rules",
            Area::Notation => "notation",
            Area::Protocol => "protocol",
        }
    }
}

/// One row of the table.
struct Entry {
    fault: Fault,
    name: &'static str,
    area: Area,
    summary: &'static str,
}

/// Declares [`Fault`] and the table `TABLE` from one list. Each entry is
/// the variant's documentation, then `Variant = "name", Area, "summary";`.
/// `TABLE` holds the rows in the order of the variants, so that a fault's
/// row is `TABLE[fault as usize]`.
macro_rules! fault_table {
    ($($(#[doc = $doc:literal])* $variant:ident = $name:literal, $area:ident, $summary:literal;)*) => {
        /// A deliberate deviation from the rules or from the protocol.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Fault {
            $($(#[doc = $doc])* $variant,)*
        }

        /// Every fault's row, in the order of the variants.
        const TABLE: &[Entry] = &[$(Entry {
            fault: Fault::$variant,
            name: $name,
            area: Area::$area,
            summary: $summary,
        },)*];

        impl Fault {
            /// Every fault, in the order of the table.
            pub const ALL: [Fault; TABLE.len()] = [$(Fault::$variant,)*];
        }
    };
}

fault_table! {
    /// Breaks §6.4.2: the spider's moves also include the ends of three
    /// ground steps that revisit a cell (its start included).
    SpiderBacktracks = "spider-backtracks", ReferenceRules,
        "the spider's three steps may revisit a cell (§6.4.2)";
    /// Breaks §6.2.2 (§5.6): beetle steps that only the height gate rule
    /// forbids (a climb, a step on top or a drop) are listed and accepted.
    BeetleIgnoresHeightGates = "beetle-ignores-height-gates", ReferenceRules,
        "the beetle's steps ignore height gates (§6.2.2, §5.6)";
    /// Breaks §5.10: a pillbug may throw the piece moved on the previous turn.
    PillbugThrowsLastMoved = "pillbug-throws-last-moved", ReferenceRules,
        "a pillbug may throw the piece moved last turn (§5.10)";
    /// Breaks §6.7.2: a mosquito on the ground whose neighbours are all
    /// mosquitoes moves as a queen (one ground step).
    MosquitoCopiesMosquito = "mosquito-copies-mosquito", ReferenceRules,
        "a mosquito touching only mosquitoes moves as a queen (§6.7.2)";
    /// Breaks §8.3: when both queens are surrounded the state printed is a
    /// win for the player who moved last instead of `Draw`.
    SimultaneousSurroundWins = "simultaneous-surround-wins", ReferenceRules,
        "both queens surrounded is a win for the last mover, not a draw (§8.3)";
    /// Breaks §4.2: the queen may be a player's first placement although
    /// `TournamentOpening` is `True`.
    QueenFirstAllowed = "queen-first-allowed", ReferenceRules,
        "the queen may be a first placement under TournamentOpening (§4.2)";
    /// Breaks §5.9 (any move clause): `validmoves` silently omits the last
    /// move in sorted order whenever it lists at least two (`play` still
    /// accepts it).
    DropOneMove = "drop-one-move", ReferenceRules,
        "validmoves omits its last move, which play accepts (§5.9)";
    /// Breaks the UHP framing (spec/sources/uhp-notes.md section 2.3): the
    /// response to the sixth command (the first after five) has no `ok` line.
    MissingOk = "missing-ok", Protocol,
        "the answer to the sixth command has no ok line";
    /// Breaks the protocol: the process exits with status 101, printing
    /// nothing, on the first `play` (or `pass`) after six plies.
    CrashMidGame = "crash-mid-game", Protocol,
        "exits with status 101 on the first play after six plies";
    /// Breaks the protocol: once four plies are played, `validmoves` never
    /// answers (the process blocks forever).
    Hang = "hang", Protocol,
        "validmoves never answers once four plies are played";
    /// Breaks §9.31 and §9.29 (the glyphs of §9.21): every GameString printed
    /// (after `newgame`, `play`, `pass`, `undo`) has `/` and `\` swapped in
    /// its moves, so `X/` (north-east) reads `X\` (south-east) and so on;
    /// the game played is the real one.
    WrongGameString = "wrong-game-string", Notation,
        "every GameString printed has / and \\ swapped in its moves (§9.31)";
    /// Breaks spec/sources/uhp-notes.md section 5.6 (the answer is a move the
    /// engine would play): `bestmove depth N` and `bestmove time hh:mm:ss`
    /// answer at once with a well-formed MoveString that is illegal in the
    /// position, a placement of a piece of the side not to move (§3.1), else
    /// a placement onto an occupied cell (§3.7), else a queen move onto an
    /// occupied cell.
    BestmoveIllegal = "bestmove-illegal", Protocol,
        "bestmove answers a move the rules refuse";
    /// Breaks spec/sources/uhp-notes.md section 5.6 (`time` is a wall-clock
    /// budget): `bestmove time hh:mm:ss` answers its (legal) move only once
    /// twice the budget plus 2 s have passed; `bestmove depth N` is as usual.
    BestmoveSlow = "bestmove-slow", Protocol,
        "bestmove time answers after twice its budget plus 2 s";
    /// Breaks spec/sources/uhp-notes.md section 2.3 (state on error:
    /// unchanged): a refused `newgame` answers `err` and `ok`, but the
    /// previous game is replaced by a new empty game of its type.
    NewgameRefusalLosesGame = "newgame-refusal-loses-game", Protocol,
        "a refused newgame replaces the game by an empty one";
    /// Breaks spec/notation.md, "UHP engine conventions" (a line that is not
    /// UTF-8 is answered `err`): the process exits with status 1, printing
    /// nothing, on such a line.
    ExitOnNonUtf8 = "exit-on-non-utf8", Protocol,
        "exits with status 1 on a line that is not UTF-8";
    /// Breaks §5.2 and §9.25 (the piece named moves, and a covered one
    /// cannot): a `play` whose moving piece is covered moves the piece on
    /// top of its stack to the target instead, when that move is legal
    /// (`play wQ \wS1` with `wB1` on `wQ` plays `wB1`'s move); any other
    /// `play` is as usual.
    CoveredNameMovesTop = "covered-name-moves-top", Rules,
        "a play naming a covered piece moves the piece on top (§5.2, §9.25)";
    /// Breaks §8.7.2 (the repetition draw applies only when the game is set
    /// up with it) and spec/sources/uhp-notes.md section 5.8: the games are
    /// played with the repetition draw on whatever `RepetitionDraw` says,
    /// and the engine does not know that option (`options` omits it, `get`
    /// and `set` refuse it), so it plays the variant without saying so.
    RepetitionDraw = "repetition-draw", Rules,
        "plays with the repetition draw and hides the option (§8.7.2)";
    /// Declines the leniency of §9.20 (input in any letter case), which an
    /// engine MAY decline: a `play` move or `newgame` argument whose letters
    /// are not exactly in their canonical case (`play wq`, `play WQ`, `play
    /// PASS`, `newgame base`) is refused with `invalidmove` (play) or `err`
    /// (newgame).
    RefusesLowercase = "refuses-lowercase", Notation,
        "refuses moves and games not in canonical letter case (§9.20)";
    /// Breaks spec/sources/uhp-notes.md section 2.3 (an answer ends with
    /// `ok`): once four plies are played, `validmoves` is answered with `y`
    /// lines without end, as `yes` prints them.
    FloodLines = "flood-lines", Protocol,
        "validmoves answers y lines without end once four plies are played";
    /// As flood-lines, with `y` bytes and no line break at all.
    FloodBytes = "flood-bytes", Protocol,
        "validmoves answers y bytes without end or line break after four plies";
    /// Breaks the framing: once four plies are played, `validmoves` is
    /// answered with one line of 1 GiB (`y` repeated) before its real
    /// answer.
    HugeLine = "huge-line", Protocol,
        "a line of 1 GiB before validmoves' answer once four plies are played";
    /// Breaks section 2.3 (output holds protocol only): `validmoves` lists,
    /// after the legal moves, an entry holding terminal escape codes (clear
    /// the screen, set the window title, red text) and the engine writes
    /// such codes on stderr.
    EscapeCodes = "escape-codes", Protocol,
        "terminal escape codes in the validmoves list and on stderr";
    /// Writes 64 KiB of noise (escape codes included) on stderr before every
    /// answer; the answers are right. Stderr is not protocol: the check
    /// passes, with the last lines quoted in findings bounded.
    StderrFlood = "stderr-flood", Protocol,
        "64 KiB of noise on stderr before every (right) answer";
    /// Breaks §9.35: `validmoves` lists every legal move twice.
    DuplicateMoves = "duplicate-moves", Notation,
        "validmoves lists every move twice (§9.35)";
    /// Breaks §9.35: `validmoves` repeats its list until it holds at least
    /// 100,000 entries.
    RepeatedMoves = "repeated-moves", Notation,
        "validmoves repeats its list to 100,000 entries (§9.35)";
    /// Breaks §9.29 and §9.35's list: `validmoves` lists the legal moves and
    /// then 100,000 entries that name no move.
    JunkMoves = "junk-moves", Notation,
        "validmoves adds 100,000 entries that name no move (§9.29)";
    /// Breaks the protocol: each process exits with status 101 on a command
    /// whose number (10 to 40) is drawn from its process id, so crashes
    /// come at different places in each run.
    RandomCrash = "random-crash", Protocol,
        "exits with status 101 on a command drawn from the process id";
    /// Breaks the count of `perft N` (no UHP command, but answered as
    /// spec/notation.md, UHP engine conventions, says): the count of its
    /// deepest depth is one leaf too many; the moves played are right.
    PerftMiscounts = "perft-miscounts", Protocol,
        "perft counts one leaf too many at its deepest depth";
    /// Not a fault of the rules: `perft`, which is no UHP command, is
    /// refused as unknown, as an engine without it answers; `check` must
    /// skip its perft cases and probe with that reason.
    RefusesPerft = "refuses-perft", Protocol,
        "refuses perft as an unknown command (perft is no UHP command)";
    /// Breaks the protocol twice, as nokamute 1.0.3 does
    /// (spec/sources/uhp-notes.md section 5.6 and spec/notation.md, UHP
    /// engine conventions): the process exits with status 101 on `bestmove`
    /// once the game is over, and with status 1 on a line that is not UTF-8.
    /// Two probes fail; neither may hide the other.
    BestmoveOverExits = "bestmove-over-exits", Protocol,
        "exits on bestmove once the game is over, and on a line not UTF-8";
    /// Breaks §9.32 (no empty move in a GameString): `newgame` skips the
    /// empty moves of a doubled or trailing `;` and loads the rest.
    SkipsEmptyMoves = "skips-empty-moves", Notation,
        "newgame skips the empty moves of a doubled or trailing ; (§9.32)";
    /// Breaks spec/sources/uhp-notes.md section 5.9: `exit` is answered
    /// `ok` and the engine goes on; it leaves only at the end of its input.
    ExitIgnored = "exit-ignored", Protocol,
        "exit is answered ok and ignored; the engine leaves at end of input";
    /// Breaks §9.15 (the eight game types, letters in the order M, L, P):
    /// every GameString printed spells its game type with the expansion
    /// letters reversed (`Base+PLM`); the game played is the real one.
    ReversedGameType = "reversed-game-type", Notation,
        "the game type printed has its expansion letters reversed (§9.15)";
    /// Breaks spec/sources/uhp-notes.md section 2.3 (a failure is `err`):
    /// a `newgame` that is refused answers with the previous game's
    /// GameString and `ok`, as if it had loaded that game; the game is kept.
    NewgameRefusalAnswersPrevious = "newgame-refusal-answers-previous", Protocol,
        "a refused newgame answers the previous game's GameString, no err";
    /// As repetition-draw (the repetition draw played and its option
    /// hidden), and also breaks §8.2 (a queen is surrounded on all six
    /// sides): every GameString printed while Black's queen has four or more
    /// neighbours says `WhiteWins` (the game really played goes on). A new
    /// state bug on top of a known one, for baselines.
    RepetitionDrawEarlyWin = "repetition-draw-early-win", Rules,
        "as repetition-draw, and WhiteWins printed once Black's queen has 4 neighbours (§8.2)";
    /// Breaks §7.2 (a player passes only when no move is legal): `pass` is
    /// accepted, and the turn passes, whatever moves there are.
    AcceptsIllegalPass = "accepts-illegal-pass", ReferenceRules,
        "pass is accepted while moves are legal (§7.2)";
    /// Reads three spellings as Mzinga, the protocol's reference
    /// implementation, does: a target up to its first glyph, so that one
    /// with a glyph on both sides is read by the first (`wA1 -wQ-` as `wA1
    /// -wQ`; §9.22 MUST refuse it) and text after the glyph is ignored
    /// (`bS1 wS1-/` as `bS1 wS1-`; §9.21 MUST refuse it), a bare
    /// piece name after the first move as a move to the origin (§9.10 MUST
    /// refuse it), and a line ending in CRLF with the `\r` kept, so that
    /// `info\r` is an unknown command (spec/sources/uhp-notes.md section 1:
    /// an engine *should* read CRLF). `check` lists each as an advisory.
    MzingaReadings = "mzinga-readings", Notation,
        "reads -wQ- and wS1-/ by their first glyph and a late bare name as the origin, keeps CRLF's \\r (§9.22, §9.21, §9.10)";
    /// As drop-one-move (§5.9: `validmoves` omits its last move, which
    /// `play` accepts), and the list's order is drawn from the process id,
    /// so that each process lists the same moves in another order: a
    /// reproduce pipe must be judged by the set of moves, not their order.
    ShuffledDropOneMove = "shuffled-drop-one-move", ReferenceRules,
        "as drop-one-move, the rest listed in an order drawn from the process id (§5.9)";
    /// Breaks spec/sources/uhp-notes.md section 5.2 (`newgame GameString`
    /// loads the game) and section 2.3 (a failure is `err`), as one real
    /// engine does: a GameString of a game that is over is not loaded, and
    /// the previous game's GameString is printed with `ok`; the game is
    /// kept. The same game reached with `play` ends as it should.
    FinishedGameAnswersPrevious = "finished-game-answers-previous", Protocol,
        "newgame of a finished game answers the previous game's GameString, no err";
    /// Breaks §1.5 (the pieces of a game and their numbers) as the rules
    /// library of a popular online Hive server does: a single piece
    /// numbered 1 (`wM1`) is played as that piece and a third spider or
    /// beetle (`wS3`) as one of the two, and the process exits with status
    /// 101 on a `play` of a fourth grasshopper or ant (`wG4`), as that
    /// library panics.
    LaxPieceNumbers = "lax-piece-numbers", ReferenceRules,
        "plays wM1 as wM and wS3 as a spider it has; exits with status 101 on wG4 (§1.5)";
    /// Breaks the protocol where only the whole life of the process shows
    /// it: exits with status 101 on its 40th command, whatever the command
    /// (a leak that ends the process, as engines that die after so many
    /// commands do); a pipe from the last `newgame` does not reach it, one
    /// from the process start does.
    CrashAfterFortyCommands = "crash-after-forty-commands", Protocol,
        "exits with status 101 on its 40th command";
    /// Breaks the protocol where a reproduce pipe cannot show it: exits
    /// with status 101 on its tenth command, unless its parent process is
    /// a shell (as in a reproduce pipe, `printf … | engine`); on systems
    /// without /proc it always crashes.
    CrashUnderCheck = "crash-under-check", Protocol,
        "exits with status 101 on its tenth command unless started by a shell";
    /// Plays hivegame.com's repetition draw instead of §8.7.2 (repetitions
    /// counted over the whole game, rotations and mirror images folded, the
    /// piece moved last counted only next to a pillbug;
    /// spec/rulings.md#house-repetition-rules) and hides `RepetitionDraw`,
    /// as an engine with its own rule does: a house rule to declare, not a
    /// bug.
    RepetitionHivegame = "repetition-hivegame", Rules,
        "plays hivegame.com's repetition draw and hides the option";
    /// Plays nokamute's repetition draw instead of §8.7.2 (the position
    /// two times among those 4, 8, …, 32 plies back, once more than ten
    /// plies were played; spec/rulings.md#house-repetition-rules) and hides
    /// `RepetitionDraw`.
    RepetitionNokamute = "repetition-nokamute", Rules,
        "plays nokamute's repetition draw and hides the option";
}

impl Fault {
    /// Whether it plays every game with the repetition draw and hides the
    /// option (repetition-draw and the faults built on it).
    pub(crate) fn plays_repetition_draw(self) -> bool {
        matches!(self, Fault::RepetitionDraw | Fault::RepetitionDrawEarlyWin)
    }

    /// The house repetition rule it plays instead of §8.7.2, if any.
    pub(crate) fn house_rule(self) -> Option<HouseRepetition> {
        match self {
            Fault::RepetitionHivegame => Some(HouseRepetition::HIVEGAME),
            Fault::RepetitionNokamute => Some(HouseRepetition::NOKAMUTE),
            _ => None,
        }
    }

    /// The fault's row of the table.
    fn entry(self) -> &'static Entry {
        let entry = &TABLE[self as usize];
        debug_assert_eq!(entry.fault, self);
        entry
    }

    /// The name given to `--fault`.
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// Where the fault shows.
    pub fn area(self) -> Area {
        self.entry().area
    }

    /// What the fault does, in one line, with the clause it breaks.
    pub fn summary(self) -> &'static str {
        self.entry().summary
    }

    /// Every fault, one per line: its name, its area and its summary.
    pub fn help() -> String {
        let width = TABLE.iter().map(|entry| entry.name.len()).max();
        let lines: Vec<String> = TABLE
            .iter()
            .map(|entry| {
                format!(
                    "  {:width$}  {:8}  {}",
                    entry.name,
                    entry.area.text(),
                    entry.summary,
                    width = width.unwrap_or_default()
                )
            })
            .collect();
        lines.join("\n")
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--fault` name that names no fault. The message lists every fault
/// with its summary ([`Fault::help`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown fault {}: the faults are\n{}", quote(.0), Fault::help())]
pub struct UnknownFault(pub String);

impl FromStr for Fault {
    type Err = UnknownFault;

    fn from_str(text: &str) -> Result<Fault, UnknownFault> {
        Fault::ALL
            .into_iter()
            .find(|fault| fault.name() == text)
            .ok_or_else(|| UnknownFault(text.to_string()))
    }
}
