//! Run the built-in case corpus (tests/cases/, every leaf clause of the
//! rules) on your own engine, in process, with no UHP server: write a small
//! adapter implementing `hive_oracle_rules::cases::CaseEngine` (load a GameString,
//! list the legal moves, play and undo a move, tell the state, count perft)
//! on plain move strings, and hand each case to `hive_oracle_rules::cases::run_case`.
//! Moves are compared as moves, not as strings: your engine may spell a
//! destination any way UHP allows.
//!
//! `ToyEngine` below stands in for your engine: it speaks only strings, as an
//! engine in another crate or behind FFI would (inside, the crate's fast
//! engine does the work). `--bug` makes it forget the last legal move of every
//! list, to show what a failing case looks like.
//!
//! ```sh
//! cargo run --release --example own_engine            # every case passes: exit 0
//! cargo run --release --example own_engine -- --bug   # the failures listed: exit 1
//! ```

use std::process::ExitCode;

use hive_oracle_rules::cases::{builtin_corpus, run_case, CaseEngine, Refused};
use hive_oracle_rules::core::{GameState, RulesOptions};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::rules::Rules;

/// Your engine, as seen from outside: GameStrings and MoveStrings in,
/// strings out, errors as text.
struct ToyEngine {
    game: FastEngine,
    forgets_a_move: bool,
}

impl ToyEngine {
    /// Your engine's two rules options (§4.2 the tournament opening, §8.7.2
    /// the repetition draw), which the corpus's cases set.
    fn new_game(
        game_string: &str,
        tournament_opening: bool,
        repetition_draw: bool,
        forgets_a_move: bool,
    ) -> Result<ToyEngine, String> {
        let options = RulesOptions {
            tournament_opening,
            repetition_draw,
        };
        let game = FastEngine::load_with(game_string, options).map_err(|e| e.to_string())?;
        Ok(ToyEngine {
            game,
            forgets_a_move,
        })
    }

    /// The legal moves, ';'-separated as UHP's `validmoves` prints them.
    fn valid_moves(&self) -> String {
        let mut moves = self.game.valid_move_strings();
        if self.forgets_a_move && moves.len() > 1 {
            moves.pop();
        }
        moves.join(";")
    }

    fn play(&mut self, move_string: &str) -> Result<(), String> {
        let mv = self
            .game
            .parse_move(move_string)
            .map_err(|e| e.to_string())?;
        self.game.play(mv).map_err(|e| e.to_string())
    }

    fn undo(&mut self) -> bool {
        self.game.undo().is_some()
    }

    /// "NotStarted", "InProgress", "Draw", "WhiteWins" or "BlackWins".
    fn state(&self) -> &'static str {
        self.game.state().name()
    }

    fn perft(&mut self, depth: u32) -> u64 {
        self.game.count_leaves(depth)
    }
}

/// The adapter: what the case runner asks, in terms of your engine.
struct Adapter {
    engine: Option<ToyEngine>,
    forgets_a_move: bool,
}

/// Talking to the engine failed (not a refusal): the case stops.
#[derive(Debug)]
struct AdapterError(String);

impl Adapter {
    fn engine(&mut self) -> Result<&mut ToyEngine, AdapterError> {
        self.engine
            .as_mut()
            .ok_or_else(|| AdapterError("no game loaded".to_string()))
    }
}

impl CaseEngine for Adapter {
    type Error = AdapterError;

    fn load(
        &mut self,
        game: &str,
        options: RulesOptions,
    ) -> Result<Result<(), Refused>, AdapterError> {
        // A case under rules your engine does not play would be skipped here:
        // `return Ok(Err(Refused("no repetition draws".into())))`.
        Ok(
            match ToyEngine::new_game(
                game,
                options.tournament_opening,
                options.repetition_draw,
                self.forgets_a_move,
            ) {
                Ok(engine) => {
                    self.engine = Some(engine);
                    Ok(())
                }
                Err(reason) => Err(Refused(reason)),
            },
        )
    }

    fn valid_moves(&mut self) -> Result<Vec<String>, AdapterError> {
        let list = self.engine()?.valid_moves();
        Ok(list
            .split(';')
            .filter(|m| !m.is_empty())
            .map(str::to_string)
            .collect())
    }

    fn play(&mut self, text: &str) -> Result<Result<(), Refused>, AdapterError> {
        Ok(self.engine()?.play(text).map_err(Refused))
    }

    fn undo(&mut self) -> Result<(), AdapterError> {
        match self.engine()?.undo() {
            true => Ok(()),
            false => Err(AdapterError("nothing to undo".to_string())),
        }
    }

    fn state(&mut self) -> Result<GameState, AdapterError> {
        match self.engine()?.state() {
            "NotStarted" => Ok(GameState::NotStarted),
            "InProgress" => Ok(GameState::InProgress),
            "Draw" => Ok(GameState::Draw),
            "WhiteWins" => Ok(GameState::WhiteWins),
            "BlackWins" => Ok(GameState::BlackWins),
            other => Err(AdapterError(format!("unknown state {other}"))),
        }
    }

    fn perft(&mut self, depth: u32) -> Result<Result<u64, Refused>, AdapterError> {
        // An engine without perft answers Ok(Err(Refused(..))): skipped, with the reason.
        Ok(Ok(self.engine()?.perft(depth)))
    }

    fn cites_clauses(&self) -> bool {
        // Your engine's refusals do not cite spec clauses, so `illegal`
        // checks only that a move is refused.
        false
    }
}

fn main() -> ExitCode {
    let forgets_a_move = std::env::args().any(|arg| arg == "--bug");
    let corpus = match builtin_corpus() {
        Ok(corpus) => corpus,
        Err(e) => {
            eprintln!("the built-in corpus does not read: {e}");
            return ExitCode::from(2);
        }
    };
    let mut adapter = Adapter {
        engine: None,
        forgets_a_move,
    };
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for loaded in &corpus {
        let run = match run_case(&mut adapter, &loaded.case) {
            Ok(run) => run,
            Err(e) => {
                eprintln!("{}: the case is broken: {e}", loaded.id());
                return ExitCode::from(2);
            }
        };
        skipped += run.skipped.len();
        if run.passed() {
            passed += 1;
            continue;
        }
        failed += 1;
        println!("FAIL {}", loaded.id());
        println!("  position: {}", loaded.case.game);
        // Moves in a failure are named in canonical notation, in the case's position.
        let position = FastEngine::load(&loaded.case.game).ok();
        for failure in &run.failures {
            match &position {
                Some(game) => println!("  {}", failure.describe(game)),
                None => println!("  {failure:?}"),
            }
        }
        if let Some(AdapterError(why)) = &run.stopped {
            println!("  stopped: {why}");
        }
    }
    println!(
        "{passed} passed, {failed} failed ({skipped} assertions skipped) of {} cases",
        corpus.len()
    );
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
