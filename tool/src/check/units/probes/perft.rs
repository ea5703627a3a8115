//! The perft probe: `perft N` from a few positions, on engines that answer
//! it (it is no UHP command; MZ, MZC and NK answer it, spec/sources/uhp-notes.md
//! section 6), the count compared with the reference's. An engine that
//! refuses `perft`, or whose answer gives no count, has the probe skipped
//! with that reason (the report's `skipped`).

use crate::check::client::answer::perft_count;
use crate::check::findings::finding::{Finding, Kind};
use crate::check::findings::quote::{quote, MAX_QUOTE_BYTES};
use hive_oracle_rules::core::RulesOptions;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

use super::probe::{Go, Probe, Prober};

/// The positions of the probe, the depth counted from each, and the
/// capability the game type needs. Both queens are placed in each, so the
/// counts do not depend on the opening rule (§4.2), and no position is long
/// enough for a repetition (§8.7.2): the probe runs before the engine's
/// rules are known. The first is the README's midgame, the second
/// tests/cases/components.toml `a-colour-has-eleven-pieces` (perft 1 = 45),
/// the third tests/cases/pillbug.toml `throw-and-step-to-same-cell-are-one-move`
/// (perft 1 = 37, a throw and a step to one cell counted once, §5.9).
const POSITIONS: &[(&str, u32, Option<&str>)] = &[
    ("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-", 2, None),
    (
        "Base;InProgress;White[12];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wS2 wQ-;bS2 -bQ;wB1 wS2-;bB1 -bS2;wB2 wB1-;bB2 -bB1;wG1 wB2-;bG1 -bB2;wG2 wG1-;bG2 -bG1;wG3 wG2-;bG3 -bG2;wA1 wG3-;bA1 -bG3;wA2 wA1-;bA2 -bA1;wA3 wA2-;bA3 -bA2",
        2,
        None,
    ),
    (
        r"Base+P;InProgress;White[4];wA1;bA1 wA1-;wQ -wA1;bQ bA1\;wP wQ\;bQ wA1\",
        2,
        Some("Pillbug"),
    ),
];

/// `newgame` of each position of [`POSITIONS`] the engine supports, then
/// `perft N`: the count must be the reference's. The first refusal of
/// `perft` (or an answer without a count) skips the rest with its reason.
pub(super) fn perft(p: &mut Prober<'_, '_>, probe: &Probe) -> Go {
    for &(game_string, depth, needs) in POSITIONS {
        if needs.is_some_and(|cap| !p.engine.capabilities.iter().any(|c| c == cap)) {
            continue;
        }
        let Ok(game) = ReferenceEngine::load_with(game_string, RulesOptions::default()) else {
            continue; // tests/check_probes.rs loads each
        };
        p.worker.counts.protocol_checks += 1;
        let newgame = format!("newgame {game_string}");
        let line = format!("perft {depth}");
        match p.worker.session.command(&newgame) {
            Ok(answer) if !answer.is_error() => {}
            // a refused GameString is the corpus's finding
            Ok(answer) => {
                p.worker.skips.push(format!(
                    "probe perft: the engine refused `{newgame}`: {}",
                    quote(&answer.lines.join(" / "), MAX_QUOTE_BYTES)
                ));
                continue;
            }
            Err(e) => return p.failed(probe, e),
        }
        let answer = match p.worker.session.command(&line) {
            Ok(answer) => answer,
            Err(e) => return p.failed(probe, e),
        };
        let said = quote(&answer.lines.join(" / "), MAX_QUOTE_BYTES);
        if answer.is_error() {
            p.worker.skips.push(format!(
                "probe perft: the engine refuses `{line}`: {said}; perft is no UHP command"
            ));
            return Go::On;
        }
        let Some(found) = perft_count(&answer.lines, depth) else {
            p.worker.skips.push(format!(
                "probe perft: the engine's answer to `{line}` gives no count for depth {depth}: {said}"
            ));
            return Go::On;
        };
        let expected = game.clone().count_leaves(depth);
        if found != expected {
            p.worker.add(
                Finding::new(Kind::Perft, &p.worker.test, &game)
                    .severity(probe.severity)
                    .pattern(probe.name)
                    .detail(format!(
                        "`{line}` counts {found} leaves, the rules give {expected}: somewhere in the game tree within depth {depth}, the engine's moves differ from the rules'"
                    ))
                    .exchange(p.worker.said(), answer.lines.clone()),
            );
        }
    }
    Go::On
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts of the probe's positions do not depend on the rules
    /// options (§4.2, §8.7.2), which the probe does not know yet.
    #[test]
    fn perft_probe_counts_do_not_depend_on_the_rules_options() {
        for &(game_string, depth, _) in POSITIONS {
            let counts: Vec<u64> = [(true, false), (false, false), (true, true), (false, true)]
                .into_iter()
                .map(|(tournament_opening, repetition_draw)| {
                    let options = RulesOptions {
                        tournament_opening,
                        repetition_draw,
                    };
                    let game = ReferenceEngine::load_with(game_string, options);
                    game.map(|mut g| g.count_leaves(depth)).unwrap_or(0)
                })
                .collect();
            assert!(counts[0] > 0, "{game_string}");
            assert!(
                counts.iter().all(|&c| c == counts[0]),
                "{game_string}: {counts:?}"
            );
        }
    }
}
