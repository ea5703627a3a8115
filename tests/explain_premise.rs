//! `explain` answers the premise of a dispute, not only its verdict: the
//! exception a legal move relies on (§6.8.7, §6.7.5, §6.2.3), the rulings
//! whose question is the move's and no others, why a pass is the only move
//! (§7.2), the walk a spider would need and the step that breaks a sliding
//! rule (§5.4, §5.5), the throws of a pillbug with no step (§6.8.1), the
//! move as the user typed it, and the sources the pillbug clauses cite.
//! Each explanation is a snapshot, `tests/snapshots/explain_premise_*.snap`.
//!
//! Update the snapshots with `INSTA_UPDATE=always cargo test --test integration explain_premise::`
//! (or `cargo insta review`), then read the diff.

use crate::common;

use common::game;
use hive_oracle_rules::core::Move;
use hive_oracle_rules::explain::{explain_move, explain_typed_move, verdict};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// White's `wP` has just thrown `bQ`; Black's `bP` may throw `wP` at once
/// (the spec's example of §6.8.7).
const PILLBUG_THAT_THREW: &str = r"Base+P;InProgress;Black[6];wP;bP wP-;wQ -wP;bQ bP/;wA1 -wQ;bQ \bP;wA1 wP\;bG1 bP-;wQ /wP;bG2 bG1-;bQ -wP";

/// `bP` has just thrown `wP` next to `wM`, which copies the immune pillbug
/// and throws `wG1` (the case `mosquito.toml::mosquito-copies-pillbug-that-was-just-thrown`).
const MOSQUITO_BY_THROWN_PILLBUG: &str = r"Base+MP;InProgress;White[7];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wP \wA1;bP \bQ;wP -bP;bG1 bQ\;wG1 -wP;bG2 bG1\;wM \wP;wP \bP";

/// `wM`, copying `bP`, has just thrown `bQ`; Black's `bP` throws `wM` back.
/// Constructed to show a mosquito that threw being thrown: the case
/// `mosquito.toml::mosquito-copying-pillbug-throws-opponent-queen` with
/// White's throw `bQ -wM` played.
const MOSQUITO_THAT_THREW: &str = r"Base+MP;InProgress;White[8];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wM \wA1;bP \bQ;wG1 -wQ;bP \bA1;wM bP/;bG1 bA1\;wG2 -wG1;bQ wM\;wG3 -wG2;bG2 bG1\;bQ -wM";

/// The ground beetle `wB1` next to the stack `wS1`, `bB1` of height 2 (the
/// case `beetle.toml::beetle-climbs-a-stack-taller-than-itself`, after
/// rulings.md#climbing-taller-stacks).
const BEETLE_BY_A_TALL_STACK: &str = r"Base;InProgress;White[6];wS1;bS1 wS1-;wB1 -wS1;bQ bS1-;wQ \wS1;bB1 \bQ;wG1 wB1\;bB1 \bS1;wB2 -wQ;bB1 wS1";

/// `wP` links `wQ` to the black pieces and may throw `bS1`, not the `bQ`
/// that has just moved (the spec's example of §5.10).
const PINNED_PILLBUG: &str =
    r"Base+P;InProgress;White[4];wP;bS1 wP-;wQ -wP;bQ bS1/;wA1 -wQ;bQ \bS1";

/// The position of [`PINNED_PILLBUG`] after White's throw `bS1 wP\`: the
/// thrown `bS1` is immune on Black's turn (the spec's example of §5.10).
const THROWN_SPIDER: &str =
    r"Base+P;InProgress;Black[4];wP;bS1 wP-;wQ -wP;bQ bS1/;wA1 -wQ;bQ \bS1;bS1 wP\";

/// A ladybug's walk, two up and one down, whose steps cite §5.6 (the case
/// `ladybug.toml::ladybug-two-up-and-one-down`).
const LADYBUG: &str = r"Base+L;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wL -wQ;bA1 bQ-";

/// Black must pass: every cell next to `bQ` touches White, `bQ` is pinned
/// and `bS1` covered (the case `end.toml::black-stuck-must-pass`).
const BLACK_STUCK: &str = r"Base;InProgress;Black[11];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \wS1;bQ bS1/;wB1 -bQ;bQ bS1-;wB1 bS1;bQ wB1/;wA1 -wQ;bQ wB1-;wA2 -wA1;bQ wB1/;wA3 -wA2;bQ wB1-;wA3 wB1\;bQ wB1/;wA2 wA3-;bQ \wA2;wA1 bQ/";

/// White must pass: `wQ`'s only free side is a gate and `wS1` is covered
/// (the case `end.toml::white-stuck-must-pass`).
const WHITE_STUCK: &str = r"Base;InProgress;White[15];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wQ wS1/;bB1 \bS1;wQ wS1-;bA1 -bQ;wQ wS1/;bA2 bA1\;wQ wS1-;bA3 -bB1;wQ wS1/;bA1 wS1\;wQ bA1/;bA2 wQ\;wQ bA2/;bB1 \wS1;wQ \bA2;bB1 wS1;wQ bA2/;bB2 \bS1;wQ \bA2;bB2 \bB1;wQ bA2/;bB2 bB1/;wQ bB2\;bA3 wQ/";

/// Black's only piece, `bQ`, lies under `wB1` on Black's third turn (the
/// case `end.toml::pass-on-the-third-turn-with-the-only-piece-covered`,
/// standard opening).
const COVERED_ONLY_PIECE: &str = r"Base;InProgress;Black[3];wQ;bQ \wQ;wB1 wQ-;bQ \wB1;wB1 bQ";

/// `wS2` at the west end of a line (the spec's example of §6.4.1).
const SPIDER_AT_THE_END: &str =
    "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wS2 -wQ;bG1 bQ-";

fn mv(g: &ReferenceEngine, text: &str) -> Move {
    g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({
        snapshot_path => "snapshots",
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!(format!("explain_premise_{name}"), text);
    });
}

/// The explanation of `text` in `game_string`, its headline and its lines.
fn explained(game_string: &str, text: &str) -> String {
    let g = game(game_string);
    explain_move(&g, mv(&g, text))
}

/// Whether some line of the explanation starts (after its indent) with
/// `clause` and says `words`.
fn has_line(explanation: &str, clause: &str, words: &str) -> bool {
    explanation
        .lines()
        .any(|l| l.trim_start().starts_with(clause) && l.contains(words))
}

#[test]
fn a_legal_move_names_the_exception_it_relies_on() {
    // §6.8.7: the pillbug that threw is not the piece moved, so it is thrown
    let text = explained(PILLBUG_THAT_THREW, r"wP \bP");
    assert!(
        text.lines()
            .next()
            .is_some_and(|h| h.starts_with(r"legal: wP \bP")
                && h.contains("by the exception of")
                && h.contains("§6.8.7")),
        "{text}"
    );
    assert!(
        has_line(
            &text,
            "§6.8.7",
            "exception: bQ, the piece moved last turn, is Black's own: White threw it with wP"
        ),
        "{text}"
    );
    snapshot("exception_pillbug_that_threw", &text);

    // §6.7.5: the mosquito copies the pillbug that was just thrown
    let text = explained(MOSQUITO_BY_THROWN_PILLBUG, "wG1 -wM");
    assert!(
        has_line(
            &text,
            "§6.7.5",
            "exception: wP at (2, -2) was moved last turn"
        ),
        "{text}"
    );
    snapshot("exception_mosquito_copies_a_thrown_pillbug", &text);
    // §6.7.5 for the copied step too (the case
    // mosquito.toml::mosquito-next-to-frozen-pillbug-steps-and-jumps)
    let text = explained(MOSQUITO_BY_THROWN_PILLBUG, r"wM \wP");
    assert!(
        text.lines()
            .next()
            .is_some_and(|h| h.ends_with("by the exception of §6.7.5 Mosquito copying a pillbug")),
        "{text}"
    );
    assert!(
        has_line(
            &text,
            "§6.7.5",
            "exception: wP at (2, -2) was moved last turn"
        ),
        "{text}"
    );
    snapshot("exception_mosquito_steps_as_a_thrown_pillbug", &text);

    // §6.8.7 for a mosquito: the one that threw last turn is thrown at once
    let text = explained(MOSQUITO_THAT_THREW, "wM bA1/");
    assert!(
        has_line(&text, "§6.8.7", "White threw it with wM, next to it"),
        "{text}"
    );
    snapshot("exception_mosquito_that_threw", &text);

    // §6.2.3: a climb onto a stack higher than the beetle itself
    let text = explained(BEETLE_BY_A_TALL_STACK, "wB1 bB1");
    assert!(
        has_line(
            &text,
            "§6.2.3",
            "exception: the stack at (0, 0) (height 2) is higher than the beetle itself"
        ),
        "{text}"
    );
    snapshot("exception_beetle_climbs_a_taller_stack", &text);
    // a climb onto a single piece relies on no exception
    let g = game(BEETLE_BY_A_TALL_STACK);
    let plain = verdict(&g, mv(&g, "wB1 wQ"));
    assert!(plain.legal && plain.exceptions().is_empty(), "{plain:?}");
}

#[test]
fn a_ruling_is_attached_only_where_its_question_is_the_moves() {
    // §6.8.5, §5.6: a throw's heights are no beetle's step
    let text = explained(PINNED_PILLBUG, r"bS1 wP\");
    assert!(text.contains("§5.6"), "{text}");
    assert!(!text.contains("beetle-height-gates"), "{text}");
    snapshot("ruling_not_for_a_throw", &text);

    // §6.6.2, §5.6: nor is a ladybug's walk
    let text = explained(LADYBUG, r"wL \bS1");
    assert!(text.contains("§5.6") && text.starts_with("legal"), "{text}");
    assert!(!text.contains("beetle-height-gates"), "{text}");
    snapshot("ruling_not_for_a_ladybug", &text);

    // §5.10: a thrown piece is immune, which is the pillbug ruling's
    // question, not the just-placed ruling's
    let text = explained(THROWN_SPIDER, r"bS1 bQ\");
    assert!(
        has_line(
            &text,
            "§5.10",
            "ruling rulings.md#pillbug-ability-not-a-move"
        ),
        "{text}"
    );
    assert!(!text.contains("just-placed-immunity"), "{text}");
    snapshot("ruling_for_a_thrown_piece", &text);
}

#[test]
fn a_pass_says_why_nothing_else_is_legal() {
    // §7.2, §3.6, §5.2, §5.3: Black's cells touch White, bS1 is covered,
    // bQ pinned
    let text = explained(BLACK_STUCK, "pass");
    assert!(
        has_line(&text, "§3.6", "the empty cells next to bQ at (2, 0) are (2, -1), (3, 0), and each touches a White stack: wB1, wA1, wA2"),
        "{text}"
    );
    assert!(has_line(&text, "§5.2", "bS1 is covered"), "{text}");
    assert!(
        has_line(&text, "§5.3", "bQ cannot move: lifting it splits the hive"),
        "{text}"
    );
    snapshot("pass_black", &text);
    // §5.5: White's queen has one free side, a gate
    let text = explained(WHITE_STUCK, "pass");
    assert!(
        has_line(&text, "§5.5", "wQ at (1, 0) has no move of its own"),
        "{text}"
    );
    snapshot("pass_white", &text);
    // §3.5: Black's only piece is covered, so no cell touches Black (the
    // case end.toml::pass-on-the-third-turn-with-the-only-piece-covered,
    // standard opening)
    let options = hive_oracle_rules::core::RulesOptions {
        tournament_opening: false,
        ..Default::default()
    };
    let g = common::game_with(COVERED_ONLY_PIECE, options);
    let text = explain_move(&g, Move::Pass);
    assert!(
        has_line(&text, "§3.5", "no stack has a Black piece on top"),
        "{text}"
    );
    assert!(has_line(&text, "§5.2", "bQ is covered"), "{text}");
    snapshot("pass_covered_only_piece", &text);
}

#[test]
fn a_spider_too_near_shows_the_walk_that_breaks_contact() {
    // §6.4.1, §5.4: (0, -1) is two steps away; three steps reach it only
    // off the hive, the walk an engine checking only the end would allow
    let text = explained(SPIDER_AT_THE_END, r"wS2 \wS1");
    assert!(
        has_line(
            &text,
            "§6.4.1 Spider, §5.4",
            "the three steps (-2, 0) → (-2, -1) → (-1, -1) → (0, -1) reach (0, -1) only by breaking the sliding rules: the step from (-2, 0) to (-2, -1) has both common neighbours"
        ),
        "{text}"
    );
    snapshot("spider_near_miss", &text);
}

#[test]
fn a_pillbug_with_no_step_is_told_it_may_still_throw() {
    // §6.8.1: wP is pinned, so it has no step of its own; §6.8.6 it throws
    let text = explained(PINNED_PILLBUG, "wP -bQ");
    assert!(
        has_line(
            &text,
            "§6.8.1",
            r"wP has no move of its own (it may still throw: bS1 wQ\, bS1 -bQ, bS1 wP\)"
        ),
        "{text}"
    );
    assert!(!text.contains("wP has no legal move here"), "{text}");
    snapshot("pillbug_may_still_throw", &text);
}

#[test]
fn the_headline_keeps_the_move_as_typed() {
    // §9.21: `wS2 /wS1` names (-1, 1), printed canonically as `wS2 wQ\`
    let g = game(SPIDER_AT_THE_END);
    let text = explain_typed_move(&g, mv(&g, "wS2 /wS1"), "wS2   /wS1");
    assert!(
        text.starts_with(r"illegal: wS2 /wS1 (canonical: wS2 wQ\; move wS2 to (-1, 1)): "),
        "{text}"
    );
    snapshot("typed_move", &text);
    // a canonical spelling is named once
    let canonical = explain_typed_move(&g, mv(&g, r"wS2 wQ\"), r"wS2 wQ\");
    assert!(
        canonical.starts_with(r"illegal: wS2 wQ\ (move wS2 to (-1, 1)): "),
        "{canonical}"
    );
}

/// The clause of `spec/rules.md` labelled `label`, from its label line to
/// the next label.
fn clause_text(rules: &str, label: &str) -> String {
    let start = rules
        .find(&format!("\n[{label}] "))
        .unwrap_or_else(|| panic!("no clause {label}"));
    let rest = &rules[start + 1..];
    let end = rest[1..].find("\n[§").map_or(rest.len(), |i| i + 1);
    rest[..end].to_string()
}

#[test]
fn the_pillbug_clauses_cite_the_official_pillbug_sheet() {
    // §6.7.5, §6.8.3, §6.8.5, §6.8.7 and the ruling of §6.8.7 quote the
    // Pillbug sheet; §6.8.1 is a rule, not a guarantee
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = std::fs::read_to_string(root.join("spec/rules.md")).expect("spec/rules.md");
    let sheet =
        "spec/sources/rule-text-005-pillbug-sheet-and-gate-sources.md (the official Pillbug sheet";
    for label in ["§6.7.5", "§6.8.3", "§6.8.5", "§6.8.7"] {
        let clause = clause_text(&rules, label);
        let source = clause
            .lines()
            .find(|l| l.starts_with("Source:"))
            .unwrap_or("");
        assert!(source.contains(sheet), "{label}: {source}");
    }
    let step = clause_text(&rules, "§6.8.1");
    assert!(
        step.contains("A Pillbug's own move MUST be exactly one ground step"),
        "{step}"
    );
    let rulings = std::fs::read_to_string(root.join("spec/rulings.md")).expect("spec/rulings.md");
    let section = |anchor: &str| -> String {
        let start = rulings
            .find(&format!("## {anchor}\n"))
            .unwrap_or_else(|| panic!("{anchor}"));
        let rest = &rulings[start + 3..];
        rest[..rest.find("\n## ").unwrap_or(rest.len())].to_string()
    };
    let ability = section("pillbug-ability-not-a-move");
    assert!(
        ability.contains("has NOT been physically moved"),
        "{ability}"
    );
    assert!(
        ability.contains("is considered 'moving' the Pillbug"),
        "{ability}"
    );
    let gates = section("beetle-height-gates");
    assert!(
        gates.contains("including beetles") && gates.contains("beetle gate"),
        "{gates}"
    );
}
