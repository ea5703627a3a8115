//! The `render` and `explain` commands: what they print and write is the
//! rules package's picture and explanation of the position given
//! (`hive_oracle_rules::render`, `hive_oracle_rules::explain`, tested for
//! themselves in the rules package's `tests/render_explain.rs`), and bad
//! input gets a message and exit status 1.

use crate::common::{run, stderr, stdout};
use hive_oracle_rules::core::Hex;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::render;
use hive_oracle_rules::rules::Rules;

/// `wQ wS1 bS1 bQ` in a line; lifting `wS1` splits it (spec §5.3 example).
const LINE: &str = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";

/// `wB1` on `wS1` between the stacks `bB1^2` and `wB2^2` (spec §5.6 example).
const HEIGHT_GATE: &str = r"Base;InProgress;White[10];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 \wQ;bA1 bQ-;wA1 \bS1;bA1 wS1\;wB1 -wA1;bB1 bQ/;wB1 wS1;bB1 \bQ;wB2 /wQ;bB1 wA1;wB2 wQ\;bB2 bQ/;wB2 bA1;bB2 \bQ";

#[test]
fn render_prints_the_picture_and_writes_the_svg() {
    // §2.4, §2.5: the picture of a position with stacks, the move's arrow
    // and the highlighted cells, as the rules package draws them
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("gate.svg");
    let out = run(&[
        "render",
        HEIGHT_GATE,
        "--svg",
        file.to_str().expect("utf-8 path"),
        "--move",
        "wB1 bS1",
        "--highlight",
        "(0,1); bB1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let game = ReferenceEngine::load(HEIGHT_GATE).expect("the position loads");
    // the highlighted cells, then the move's two ends
    let cells = [
        Hex::new(0, 1),
        Hex::new(1, -1),
        Hex::new(0, 0),
        Hex::new(1, 0),
    ];
    assert_eq!(stdout(&out), render::ascii(&game, &cells));
    let svg = std::fs::read_to_string(&file).expect("svg written");
    assert_eq!(
        svg,
        render::svg(&game, &cells, Some((Hex::new(0, 0), Hex::new(1, 0))))
    );
}

#[test]
fn explain_command_explains_moves_and_positions() {
    // §5.3: a refusal; §6.1 a legal queen step
    let out = run(&["explain", LINE, "wS1 wQ/"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("leaves two groups: {bQ, bS1} and {wQ}"));
    let out = run(&["explain", LINE, r"wQ \wS1"]);
    assert!(
        stdout(&out).starts_with(r"legal: wQ \wS1"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("§6.1 Queen Bee — "));
    let out = run(&["explain", LINE]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("legal moves: 22"), "{}", stdout(&out));
    // §9.21: the headline keeps the move as typed, then its canonical spelling
    let spider = "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wS2 -wQ;bG1 bQ-";
    let out = run(&["explain", spider, "wS2 /wS1"]);
    assert!(
        stdout(&out).starts_with(r"illegal: wS2 /wS1 (canonical: wS2 wQ\; move wS2 to (-1, 1)): "),
        "{}",
        stdout(&out)
    );
    // §7.2: a pass in a record says why nothing else was legal (ply 29 of
    // the record is White's forced pass of the case end.toml::white-stuck-must-pass)
    let out = run(&["explain", "tests/records/pgn/pass-and-PASS.pgn", "29"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("legal: pass"), "{text}");
    assert!(
        text.contains("§3.6 not touching the opponent's colour — the only empty cell next to wQ at (1, 0) is (2, 0)"),
        "{text}"
    );
    assert!(
        text.contains("§5.2 covered pieces — wS1 is covered"),
        "{text}"
    );
    // §4.2: the options reach the explanation
    let out = run(&["explain", "Base", "wQ"]);
    assert!(stdout(&out).contains("§4.2"), "{}", stdout(&out));
    let out = run(&["explain", "Base", "wQ", "--standard-opening"]);
    assert!(stdout(&out).starts_with("legal: wQ"), "{}", stdout(&out));
}

#[test]
fn bad_input_gets_a_message_and_exit_status_one() {
    // §9.14: unreadable input is reported, never a panic
    for args in [
        vec!["explain", "Bsae"],
        vec!["explain", "Base;InProgress;White[2];wS1;bQ wS1-"],
        vec!["explain", LINE, "wQ zz"],
        vec!["explain", LINE, "wQ bA3-"],
        vec!["explain", LINE, ""],
        vec!["render", "Base;Foo"],
        vec!["render", LINE, "--highlight", "1,"],
        vec!["render", LINE, "--highlight", "wA1"],
        vec!["render", LINE, "--highlight", "xyz"],
        vec!["render", LINE, "--move", "wQ"],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
