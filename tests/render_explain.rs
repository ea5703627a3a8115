//! Pictures and explanations: the ASCII picture of
//! a position (insta snapshots, `tests/snapshots/render_explain_*.snap`), the
//! SVG picture (well-formed XML, one hexagon per occupied cell), `explain`
//! for refusals (the groups of One Hive, the pieces of a gate) and for legal
//! moves (the granting clause). The `render` and `explain` commands are the
//! tool's (`tool/tests/render_explain.rs`).
//!
//! Update the snapshots with `INSTA_UPDATE=always cargo test --test integration render_explain::`
//! (or `cargo insta review`), then read the diff.

use crate::common;

use common::game;
use hive_oracle_rules::core::{GameType, Hex, Move, RulesOptions};
use hive_oracle_rules::explain::{explain_move, explain_position, grants, verdict};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::render;
use hive_oracle_rules::rules::Rules;

/// `wQ wS1 bS1 bQ` in a line; lifting `wS1` splits it (spec §5.3 example).
const LINE: &str = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";

/// The pocket at (1, 1) behind the gate `wS2`/`wB1` (spec §5.5 example).
const POCKET: &str = r"Base;InProgress;White[9];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wG1 wQ-;bG1 /bQ;wG2 wS1\;bG2 -bQ;wB1 wG1\;bA1 -bG2;wS2 wG2\;bA2 -bA1;wG3 wS1/;bA3 -bA2;wA1 -wS2;bB1 -bA3";

/// `wB1` on `wS1` between the stacks `bB1^2` and `wB2^2` (spec §5.6 example).
const HEIGHT_GATE: &str = r"Base;InProgress;White[10];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 \wQ;bA1 bQ-;wA1 \bS1;bA1 wS1\;wB1 -wA1;bB1 bQ/;wB1 wS1;bB1 \bQ;wB2 /wQ;bB1 wA1;wB2 wQ\;bB2 bQ/;wB2 bA1;bB2 \bQ";

/// `wP` may throw `bS1` but not `bQ`, which has just moved (spec §5.10 example).
const PILLBUG: &str = r"Base+P;InProgress;White[4];wP;bS1 wP-;wQ -wP;bQ bS1/;wA1 -wQ;bQ \bS1";

/// `wM` on the ground next to the pillbug `bP` only.
const MOSQUITO_BY_PILLBUG: &str = r"Base+MP;InProgress;White[6];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wM \wA1;bP \bQ;wG1 -wQ;bP \bA1;wM bP/;bG1 bA1\";

fn mv(g: &ReferenceEngine, text: &str) -> Move {
    g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({
        snapshot_path => "snapshots",
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!(format!("render_explain_{name}"), text);
    });
}

// ---------------------------------------------------------------------------
// ASCII pictures
// ---------------------------------------------------------------------------

#[test]
fn ascii_picture_of_a_line() {
    // §2.1: rows shifted half a cell; §5.3 the cell in question highlighted
    let g = game(LINE);
    let picture = render::ascii(&g, &[Hex::ORIGIN]);
    assert!(picture.contains(" wQ     [wS1]    bS1     bQ"), "{picture}");
    assert!(picture.contains("highlighted: (0, 0)"), "{picture}");
    snapshot("ascii_line", &picture);
}

#[test]
fn ascii_picture_lists_stacks_bottom_to_top() {
    // §2.4: stacks with their pieces bottom to top; §5.6 the step in question
    let g = game(HEIGHT_GATE);
    let picture = render::ascii(&g, &[Hex::new(0, 0), Hex::new(1, 0)]);
    assert!(picture.contains("(0, 0): wS1, wB1 (height 2)"), "{picture}");
    assert!(
        picture.contains("(1, -1): wA1, bB1 (height 2)"),
        "{picture}"
    );
    assert!(picture.contains("[wB1^2] [bS1]"), "{picture}");
    snapshot("ascii_height_gate", &picture);
}

#[test]
fn ascii_picture_of_a_pocket_and_of_an_empty_board() {
    // §5.5: the pocket highlighted even though it is empty; §3.3 the origin
    let picture = render::ascii(&game(POCKET), &[Hex::new(1, 1)]);
    assert!(picture.contains("[.]"), "{picture}");
    snapshot("ascii_pocket", &picture);
    let empty = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
    let picture = render::ascii(&empty, &[Hex::ORIGIN]);
    assert_eq!(
        picture,
        "(no piece on the board)\n[.]\nhighlighted: (0, 0)\n"
    );
}

#[test]
fn ascii_picture_is_deterministic_for_both_engines() {
    // §2.4: the picture depends only on the stacks, whichever engine holds them
    let reference = game(HEIGHT_GATE);
    let fast = hive_oracle_rules::fast::FastEngine::load(HEIGHT_GATE).expect("loads");
    assert_eq!(
        render::ascii(&reference, &[Hex::ORIGIN]),
        render::ascii(&fast, &[Hex::ORIGIN])
    );
}

// ---------------------------------------------------------------------------
// SVG pictures
// ---------------------------------------------------------------------------

/// A small XML well-formedness checker: one root element, balanced and
/// properly nested tags, quoted attributes, no duplicate attribute, only
/// known entities, no stray `<` or `&` in text.
fn check_xml(text: &str) -> Result<usize, String> {
    let mut rest = text;
    let mut stack: Vec<String> = Vec::new();
    let mut roots = 0;
    let mut elements = 0;
    let check_text = |t: &str| -> Result<(), String> {
        let mut s = t;
        while let Some(i) = s.find('&') {
            let after = &s[i + 1..];
            let end = after.find(';').ok_or("unterminated entity")?;
            let name = &after[..end];
            let known = ["amp", "lt", "gt", "quot", "apos"].contains(&name)
                || (name.starts_with('#') && name.len() > 1);
            if !known {
                return Err(format!("unknown entity &{name};"));
            }
            s = &after[end + 1..];
        }
        if t.contains('>') && !t.trim().is_empty() {
            // '>' is allowed in text, but our SVG never needs it
            return Err(format!("raw '>' in text {t:?}"));
        }
        Ok(())
    };
    if let Some(decl) = rest.strip_prefix("<?xml") {
        let end = decl.find("?>").ok_or("unterminated declaration")?;
        rest = &decl[end + 2..];
    }
    while !rest.is_empty() {
        let Some(open) = rest.find('<') else {
            check_text(rest)?;
            if !rest.trim().is_empty() && stack.is_empty() {
                return Err("text after the root element".into());
            }
            break;
        };
        let text_part = &rest[..open];
        check_text(text_part)?;
        if stack.is_empty() && !text_part.trim().is_empty() {
            return Err("text outside the root element".into());
        }
        rest = &rest[open..];
        let close = rest.find('>').ok_or("unterminated tag")?;
        let tag = &rest[1..close];
        rest = &rest[close + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let top = stack.pop().ok_or("closing tag without opening")?;
            if top != name.trim() {
                return Err(format!("</{name}> closes <{top}>"));
            }
            continue;
        }
        let self_closing = tag.ends_with('/');
        let body = tag.trim_end_matches('/');
        let name_end = body.find(char::is_whitespace).unwrap_or(body.len());
        let name = &body[..name_end];
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':')
        {
            return Err(format!("bad element name {name:?}"));
        }
        // attributes: name="value" pairs
        let mut attrs = body[name_end..].trim();
        let mut seen = std::collections::BTreeSet::new();
        while !attrs.is_empty() {
            let eq = attrs
                .find('=')
                .ok_or(format!("attribute without value in <{name}>"))?;
            let key = attrs[..eq].trim();
            if key.is_empty() || key.contains(char::is_whitespace) || !seen.insert(key.to_string())
            {
                return Err(format!("bad or duplicate attribute {key:?} in <{name}>"));
            }
            let after = attrs[eq + 1..].trim_start();
            let quote = after.chars().next().ok_or("missing attribute value")?;
            if quote != '"' && quote != '\'' {
                return Err(format!("unquoted attribute {key} in <{name}>"));
            }
            let end = after[1..].find(quote).ok_or("unterminated attribute")?;
            let value = &after[1..1 + end];
            if value.contains('<') {
                return Err(format!("'<' in attribute {key}"));
            }
            check_text(value)?;
            attrs = after[end + 2..].trim_start();
        }
        if stack.is_empty() {
            roots += 1;
        }
        elements += 1;
        if !self_closing {
            stack.push(name.to_string());
        }
    }
    if !stack.is_empty() {
        return Err(format!("unclosed elements {stack:?}"));
    }
    if roots != 1 {
        return Err(format!("{roots} root elements"));
    }
    Ok(elements)
}

#[test]
fn xml_checker_rejects_broken_documents() {
    assert!(check_xml("<a><b/></a>").is_ok());
    assert!(check_xml("<a><b></a>").is_err());
    assert!(check_xml("<a x=1/>").is_err());
    assert!(check_xml("<a>x & y</a>").is_err());
    assert!(check_xml("<a/><b/>").is_err());
    assert!(check_xml("<a x=\"1\" x=\"2\"/>").is_err());
}

fn count(text: &str, needle: &str) -> usize {
    text.matches(needle).count()
}

#[test]
fn svg_is_well_formed_with_one_hexagon_per_occupied_cell() {
    // §2.4, §2.5: one hexagon per stack, coloured by its top piece
    for (text, highlight, arrow) in [
        (LINE, vec![Hex::ORIGIN], None),
        (
            HEIGHT_GATE,
            vec![Hex::new(0, 0), Hex::new(1, 0)],
            Some((Hex::new(0, 0), Hex::new(1, 0))),
        ),
        (POCKET, vec![Hex::new(1, 1)], None),
        (PILLBUG, vec![], Some((Hex::new(1, 0), Hex::new(0, 1)))),
    ] {
        let g = game(text);
        let svg = render::svg(&g, &highlight, arrow);
        check_xml(&svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
        let cells = g.board().occupied_cells().count();
        assert_eq!(count(&svg, "<polygon class=\"piece "), cells, "{svg}");
        assert_eq!(count(&svg, "class=\"highlight\""), highlight.len());
        assert_eq!(count(&svg, "class=\"arrow\""), usize::from(arrow.is_some()));
        let tall = g
            .board()
            .occupied_cells()
            .filter(|&h| g.board().height(h) >= 2)
            .count();
        assert_eq!(count(&svg, "class=\"height\""), tall, "{svg}");
    }
    let empty = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
    let svg = render::svg(&empty, &[], None);
    check_xml(&svg).expect("empty board");
    assert_eq!(count(&svg, "<polygon class=\"piece "), 0);
}

#[test]
fn svg_colours_a_stack_by_its_top_piece() {
    // §2.5: the stack at (1, -1) is wA1 under bB1, so it is black
    let svg = render::svg(&game(HEIGHT_GATE), &[], None);
    let at = svg
        .find("<title>wA1, bB1 at (1, -1)</title>")
        .expect("title");
    assert!(svg[at..]
        .trim_start_matches(|c| c != '<')
        .contains("class=\"piece black\""));
    let polygon = &svg[at..at + svg[at..].find("/>").expect("polygon")];
    assert!(polygon.contains("piece black"), "{polygon}");
}

// ---------------------------------------------------------------------------
// explain
// ---------------------------------------------------------------------------

#[test]
fn explain_one_hive_names_the_two_groups() {
    // §5.3
    let g = game(LINE);
    let text = explain_move(&g, mv(&g, "wS1 wQ/"));
    assert!(text.starts_with("illegal: "), "{text}");
    assert!(
        text.contains(
            "§5.3 One Hive — lifting wS1 from (0, 0) leaves two groups: {bQ, bS1} and {wQ}"
        ),
        "{text}"
    );
    snapshot("explain_one_hive", &text);
}

#[test]
fn explain_gate_names_the_two_flanking_pieces() {
    // §5.5, §6.5: the ant's way into the pocket passes between wB1 and wS2
    let g = game(POCKET);
    let text = explain_move(&g, mv(&g, r"wA1 wQ\"));
    assert!(text.starts_with("illegal: "), "{text}");
    assert!(
        text.contains(
            "the step from (1, 2) to (1, 1) passes between wB1 at (2, 1) and wS2 at (0, 2), both occupied"
        ),
        "{text}"
    );
    snapshot("explain_gate", &text);
}

#[test]
fn explain_height_gate_gives_the_heights() {
    // §6.2.2, §5.6: min(2, 2) = 2 > max(1, 1) = 1
    let g = game(HEIGHT_GATE);
    let text = explain_move(&g, mv(&g, "wB1 bS1"));
    assert!(
        text.contains("min(L, R) = 2 > max(h(a), h(b)) = max(1, 1) = 1"),
        "{text}"
    );
    assert!(text.contains("wB2 at (0, 1) (height 2)"), "{text}");
}

#[test]
fn explain_legal_moves_name_their_granting_clause() {
    // §6.2.1, §6.2.3: the beetle climbs onto the stack bB1^2
    let g = game(HEIGHT_GATE);
    let text = explain_move(&g, mv(&g, "wB1 bB1"));
    assert!(text.starts_with("legal: wB1 bB1"), "{text}");
    assert!(text.contains("§6.2.1 Beetle — "), "{text}");
    assert!(text.contains("(height 2 → 3)"), "{text}");
    assert!(text.contains("§6.2.3"), "{text}");
    snapshot("explain_beetle_climb", &text);
    // §6.8.2: the throw names its thrower; §6.8.6 the pinned pillbug still throws
    let g = game(PILLBUG);
    let text = explain_move(&g, mv(&g, r"bS1 wP\"));
    assert!(text.starts_with("legal: "), "{text}");
    assert!(
        text.contains("§6.8.2 Pillbug's ability — wP at (0, 0) uses the pillbug's ability"),
        "{text}"
    );
    assert!(text.contains("§6.8.6"), "{text}");
    snapshot("explain_throw", &text);
    // §6.7.1, §6.7.5: the mosquito names the bug it copies
    let g = game(MOSQUITO_BY_PILLBUG);
    let text = explain_move(&g, mv(&g, r"wM \bP"));
    assert!(text.contains("copies the pillbug bP at (1, -1)"), "{text}");
}

#[test]
fn explain_refusals_start_with_the_refusal_of_play() {
    // §5.10: bQ has just moved and cannot be thrown; §3.2, §3.6, §4.2 placements
    for (text, moves) in [
        (PILLBUG, vec![r"bQ \wP", r"wQ \bQ", "wA3 -wA1", "wS1 bS1-"]),
        (LINE, vec!["wS1 wQ/", "bQ -wQ", "wB1 bQ-", "pass"]),
        ("Base;InProgress;Black[1];wS1", vec!["bQ wS1-"]),
    ] {
        let g = game(text);
        for m in moves {
            let m = mv(&g, m);
            let refusal = g.clone().play(m).expect_err("illegal");
            let v = verdict(&g, m);
            assert!(!v.legal);
            assert_eq!(v.refusal.as_deref(), Some(refusal.to_string().as_str()));
            assert_eq!(v.facts[0].clauses, refusal.clauses);
            let shown = explain_move(&g, m);
            let first = shown.lines().next().expect("a line");
            assert!(first.ends_with(&refusal.to_string()), "{first}");
        }
    }
}

/// Deterministic pseudo-random games: every legal move of every position met
/// has at least one way granted by a clause, and every verdict agrees with
/// the legal move set; explaining any candidate move never panics.
#[test]
fn every_legal_move_is_granted_by_a_clause() {
    // §5.9: each legal move is granted by at least one way
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for game_type in [GameType::BASE, GameType::BASE_MLP] {
        for _ in 0..3 {
            let mut g = ReferenceEngine::new_game(game_type, RulesOptions::default());
            for _ in 0..40 {
                let legal = g.legal_move_set();
                for &m in &legal {
                    let ways = grants(&g, m);
                    assert!(!ways.is_empty(), "{} has no grant", g.move_string(m));
                    assert!(ways.iter().all(|w| !w[0].clauses.is_empty()));
                }
                // A few illegal candidates: every piece to a cell next to the hive.
                let cells: Vec<Hex> = g
                    .board()
                    .occupied_cells()
                    .flat_map(|h| h.neighbours())
                    .take(6)
                    .collect();
                for piece in game_type.all_pieces().step_by(5) {
                    for &to in &cells {
                        let m = if g.board().location(piece).is_some() {
                            Move::Move { piece, to }
                        } else {
                            Move::Place { piece, to }
                        };
                        let v = verdict(&g, m);
                        assert_eq!(v.legal, legal.contains(&m));
                        assert!(!v.facts.is_empty());
                    }
                }
                let moves: Vec<Move> = legal.into_iter().collect();
                if moves.is_empty() {
                    break;
                }
                let pick = moves[(next() % moves.len() as u64) as usize];
                g.play_unchecked(pick);
            }
            let _ = explain_position(&g);
        }
    }
}

#[test]
fn explain_position_lists_every_legal_move_with_its_clause() {
    // §6.8.2, §5.10: the position's moves grouped by piece; bQ is immune
    let g = game(PILLBUG);
    let text = explain_position(&g);
    assert!(text.contains("state: InProgress"), "{text}");
    assert!(text.contains("to move: White"), "{text}");
    assert!(
        text.contains(&format!("legal moves: {}", g.legal_moves().len())),
        "{text}"
    );
    for m in g.legal_moves() {
        if let Move::Move { .. } = m {
            assert!(text.contains(&g.move_string(m)), "{}", g.move_string(m));
        }
    }
    assert!(
        text.contains("§6.8.2 Pillbug's ability — wP at (0, 0)"),
        "{text}"
    );
    snapshot("explain_position_pillbug", &text);
}

#[test]
fn explain_position_of_a_finished_game() {
    // §8.5, §8.1, §8.2: the surrounded queen is named
    let g = game(
        r"Base;InProgress;White[7];wS1;bS1 wS1-;wQ \wS1;bQ bS1/;wQ wS1/;bG1 bQ-;wG1 -wS1;bG2 bQ/;wG2 \wQ;bG3 bQ\;wA1 /wS1;bA1 bS1\;wA1 -bG2",
    );
    let text = explain_position(&g);
    assert!(text.contains("state: WhiteWins"), "{text}");
    assert!(text.contains("§8.5"), "{text}");
    assert!(
        text.contains("bQ at (2, -1) has all six neighbours occupied"),
        "{text}"
    );
    assert!(text.contains("§8.2"), "{text}");
}

#[test]
fn a_position_says_which_pieces_of_the_reserve_are_held_back_and_why() {
    // §4.2: at the start, the tournament opening keeps the queen in the
    // reserve; the line quotes the refusal the rules give for placing it.
    let start = explain_position(&game("Base+MLP;NotStarted;White[1]"));
    assert!(
        start.contains("  not placeable (wQ): §4.2 tournament opening — the queen cannot be a player's first placement"),
        "{start}"
    );
    // §4.5: on White's fourth turn without the queen, every other next piece
    // of the reserve is refused by the fourth-turn rule (constructed line of
    // three pieces a side).
    let turn_four = explain_position(&game(
        "Base+MLP;InProgress;White[4];wS1;bS1 wS1-;wA1 -wS1;bA1 bS1-;wG1 -wA1;bG1 bA1-",
    ));
    assert!(
        turn_four.contains("  not placeable (wS2, wB1, wG2, wA2, wM, wL, wP): §4.5 queen by the fourth turn — it is White's turn 4 and White's queen is still in the reserve"),
        "{turn_four}"
    );
    assert!(
        turn_four.contains("placements (1 piece × 7 cells = 7 moves):"),
        "{turn_four}"
    );
    // With the queen placed, nothing is held back (§3.2 keeps the higher
    // numbers out of the listing, not out of this line).
    let later = explain_position(&game(LINE));
    assert!(!later.contains("not placeable"), "{later}");
}

// ---------------------------------------------------------------------------
// The classic disputes, each settled by one call of `explain`
// ---------------------------------------------------------------------------

/// The eight classic disputes of players and engine authors: a case of the
/// corpus, the move in dispute, and the deciding clause with a word of the
/// fact that must appear in the same explanation.
const DISPUTES: &[(&str, &str, &str, &str)] = &[
    // a covered pillbug cannot throw (§6.8.3)
    (
        "pillbug.toml::covered-pillbug-cannot-throw-queen",
        r"wQ \bB1",
        "§6.8.3",
        "covered by bB1",
    ),
    // a piece on a stack cannot be thrown (§6.8.3)
    (
        "pillbug.toml::beetle-on-a-stack-cannot-be-thrown",
        r"bB1 \bA1",
        "§6.8.3",
        "not alone in its cell",
    ),
    // a beetle does not climb through a height gate, with the ruling
    (
        "beetle.toml::beetle-climb-blocked-by-a-height-gate",
        "wB1 bS1",
        "§6.2.2",
        "ruling rulings.md#",
    ),
    // a mosquito touching only a mosquito does not move, the neighbour named
    (
        "mosquito.toml::mosquito-next-to-mosquito-only-cannot-move",
        "wM bM-",
        "§6.7.2",
        "touches only bM at",
    ),
    // a spider never steps back, with the walk that would
    (
        "spider.toml::spider-never-steps-back",
        r"wS2 /wQ",
        "§6.4.2",
        "visits",
    ),
    // a ladybug's climb obeys the height gate
    (
        "ladybug.toml::ladybug-climb-blocked-by-a-height-gate",
        "wL bQ-",
        "§6.6.2",
        "min(L, R)",
    ),
    // no pass while a move exists
    (
        "end.toml::no-pass-while-a-move-exists",
        "pass",
        "§7.2",
        "legal moves",
    ),
    // the queen by the fourth turn
    (
        "opening.toml::white-must-place-the-queen-on-the-fourth-turn",
        "wA2 -wA1",
        "§4.5",
        "fourth turn",
    ),
    // surrounding both queens at once is a draw, said with the move
    (
        "end.toml::filling-the-shared-cell-surrounds-both-queens",
        "wA1 -bG2",
        "§8.3",
        "after this move: Draw",
    ),
];

/// Each classic dispute is settled by one call of `explain GAME MOVE`: the
/// explanation cites the deciding clause and shows the fact that decides
/// it (the covered pillbug, the stack, the ruling, the neighbour copied, the
/// walk, the heights, the moves left, the turn, the draw). The positions
/// are the cases of `tests/cases/`; each explanation is a snapshot
/// (`render_explain_dispute_*`).
#[test]
fn every_classic_dispute_is_settled_in_one_call() {
    let corpus = hive_oracle_rules::cases::builtin_corpus().expect("the corpus loads");
    for &(id, text, clause, fact) in DISPUTES {
        let loaded = corpus
            .iter()
            .find(|c| c.id() == id)
            .unwrap_or_else(|| panic!("no case {id}"));
        let g = ReferenceEngine::load_with(&loaded.case.game, loaded.case.options.into())
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let explained = explain_move(&g, mv(&g, text));
        let cited = explained.lines().any(|line| {
            line.contains(clause) && !line.starts_with("illegal") && !line.starts_with("legal")
        });
        assert!(cited, "{id}: no fact cites {clause}:\n{explained}");
        assert!(
            explained.contains(fact),
            "{id}: no fact says {fact:?}:\n{explained}"
        );
        let name = id.split("::").nth(1).unwrap_or(id);
        snapshot(&format!("dispute_{name}"), &explained);
    }
}

/// `explain` of a position played with the repetition option shows where
/// the position stood before (§8.7.2) and why an equal board with the same
/// side to move is another position (§8.7.6). The game is the case
/// `options.toml::immunity-that-removes-a-move-distinguishes-positions`:
/// the board after ply 27 stood after plies 19 and 23; after 23 and 27 the
/// just-thrown bG1 counts (its immunity takes its moves away), after 19 the
/// immune wS1 takes away no move, so ply 19 is another position.
#[test]
fn explain_of_a_position_shows_its_repetitions_and_the_immune_piece() {
    let corpus = hive_oracle_rules::cases::builtin_corpus().expect("the corpus loads");
    let id = "options.toml::immunity-that-removes-a-move-distinguishes-positions";
    let loaded = corpus.iter().find(|c| c.id() == id).expect("the case");
    let g = ReferenceEngine::load_with(&loaded.case.game, loaded.case.options.into())
        .expect("the game loads");
    let text = explain_position(&g);
    // §8.7.2 the occurrences, §8.7.6 the immune piece that separates them
    let repetition_clause = |l: &str| l.contains("§8.7.2") || l.contains("§8.7.6");
    let repetition: Vec<&str> = text.lines().filter(|l| repetition_clause(l)).collect();
    let joined = repetition.join("\n");
    assert!(
        joined.contains("the position after ply 27 also stood after ply 23: 2 occurrences"),
        "{joined}"
    );
    assert!(
        joined.contains("after ply 19 the same stacks stood"),
        "{joined}"
    );
    assert!(
        joined.contains("after ply 19 the immune wS1 did not count"),
        "{joined}"
    );
    assert!(
        joined.contains("after ply 27 the immune bG1 counted: its immunity took away"),
        "{joined}"
    );
    snapshot("explain_repetitions", &joined);
    // Without the option nothing is said about repetitions.
    let off = ReferenceEngine::load(&loaded.case.game).expect("the game loads");
    assert!(!explain_position(&off).lines().any(repetition_clause));
}
