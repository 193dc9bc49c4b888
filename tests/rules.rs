//! The rule cases of `tests/data/rules/cases.json` (copied from
//! `../shared/data/rules/cases.json`): each gives a FEN, moves ending at the third
//! occurrence, and the expected `must_vary` under `axf` and, where known, `cxa2011`
//! ("draw" = must_vary "none"; "none" = no repetition).

use chuhan_engine::core::Validation;
use chuhan_engine::notation::{ReplayError, replay};
use chuhan_engine::rules::{Judgement, RuleSet, judge_position};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
struct Case {
    id: String,
    fen: String,
    moves: Vec<String>,
    expected: BTreeMap<String, String>,
}

/// Replays `moves` from `fen` (as every door does) and judges the game.
fn judge<S: AsRef<str>>(
    fen: Option<&str>,
    moves: &[S],
    rules: RuleSet,
) -> Result<Judgement, ReplayError> {
    let line = replay(fen, moves, Validation::Lenient)?;
    Ok(judge_position(&line.position, rules))
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/rules/cases.json"
    ))
    .expect("cases.json");
    serde_json::from_str(&text).expect("valid cases.json")
}

/// What the judge says for a case: "none" (no repetition), "draw", "red", "black".
fn ruling(case: &Case, rules: RuleSet) -> (String, Vec<String>) {
    let j = match judge(Some(&case.fen), &case.moves, rules) {
        Ok(j) => j,
        Err(e) => return (format!("error: {e}"), Vec::new()),
    };
    let got = match &j.repetition {
        None => "none".to_string(),
        Some(r) => r.must_vary.map_or("draw", |c| c.name()).to_string(),
    };
    (got, j.report_lines())
}

fn run(rules: RuleSet, skip: &[&str]) -> (usize, usize, Vec<String>) {
    let verbose = std::env::var("RULES_VERBOSE").is_ok();
    let only = std::env::var("RULES_CASE").ok();
    let (mut pass, mut total, mut fails) = (0, 0, Vec::new());
    for case in cases() {
        let Some(want) = case.expected.get(rules.name()) else {
            continue;
        };
        if skip.contains(&case.id.as_str())
            || only.as_ref().is_some_and(|o| !case.id.contains(o.as_str()))
        {
            continue;
        }
        total += 1;
        let (got, report) = ruling(&case, rules);
        if &got == want {
            pass += 1;
        } else {
            fails.push(format!("{} ({rules}): expected {want}, got {got}", case.id));
        }
        if verbose || &got != want {
            eprintln!("=== {} [{rules}] expected {want} got {got}", case.id);
            for l in report {
                eprintln!("    {l}");
            }
        }
    }
    (pass, total, fails)
}

/// Cases whose FEN no legal game can reach, which Chuhan therefore refuses (as it
/// must refuse any invalid FEN, exit code 2). See [`or102_unreachable_position`].
const UNREACHABLE: &[&str] = &["AXF-OR102"];

#[test]
fn axf_cases() {
    let (pass, total, fails) = run(RuleSet::Axf, UNREACHABLE);
    eprintln!("AXF: {pass}/{total}");
    assert!(
        fails.is_empty(),
        "{pass}/{total} passed; failures:\n{}",
        fails.join("\n")
    );
}

#[test]
fn cxa2011_cases() {
    let (pass, total, fails) = run(RuleSet::Cxa2011, UNREACHABLE);
    eprintln!("CXA 2011: {pass}/{total}");
    assert!(
        fails.is_empty(),
        "{pass}/{total} passed; failures:\n{}",
        fails.join("\n")
    );
}

/// The search's shortcut ([`repetition::idle_on_both_sides`]) is exact: at every
/// repetition along every case's moves, under both rule sets and both folds, it
/// holds exactly when both sides played an idle move, and then the full analysis
/// gives the verdict [`repetition::repetition`] gives without it.
#[test]
fn both_sides_idle_shortcut_agrees_with_the_full_analysis() {
    use chuhan_engine::core::{Move, Position};
    use chuhan_engine::rules::{cycle, repetition};
    let (mut cycles, mut shortcuts) = (0, 0);
    for case in cases() {
        let Ok(mut pos) = Position::from_fen(&case.fen) else {
            continue;
        };
        for text in &case.moves {
            let m: Move = text.parse().expect("ICCS move");
            assert!(pos.is_legal(m), "{}: {text}", case.id);
            pos.make_move(m);
            for rules in RuleSet::ALL {
                for fold in [2, 3] {
                    let Some(c) = cycle::find(&pos, fold, rules) else {
                        continue;
                    };
                    cycles += 1;
                    let full = repetition::analyse(&pos, c, rules, None);
                    let both_idle = full.red.idles > 0 && full.black.idles > 0;
                    let at = format!("{} {rules} fold {fold} ply {}", case.id, pos.game_ply());
                    assert_eq!(
                        repetition::idle_on_both_sides(&pos, c, rules, None),
                        both_idle,
                        "{at}"
                    );
                    if both_idle {
                        shortcuts += 1;
                        assert_eq!(full.verdict.must_vary, None, "{at}");
                        let quick = repetition::repetition(&pos, rules, fold, None);
                        assert_eq!(quick.map(|r| r.verdict), Some(full.verdict), "{at}");
                    }
                }
            }
        }
    }
    eprintln!("{cycles} cycles, {shortcuts} shortcuts");
    assert!(
        cycles > 200 && shortcuts > 20,
        "{cycles} cycles, {shortcuts} shortcuts"
    );
}

/// AXF-OR102 (orange-xiangqi #102, AXF diagrams 71-75) is kept failing on purpose.
///
/// Its FEN `3a2b1r/4ak3/8p/7P1/9/9/9/B2NN3B/3K5/4p4 w` has a black pawn on i7, behind
/// the pawn's starting rank (rank 6). Pawns never move backwards (§2.2: "兵（卒）在過
/// 河界前，每著只許向前直走一格"), so no game reaches this diagram and the core FEN
/// validation rejects it (`FenProblem::Misplaced`). The expectation itself is not in
/// doubt: [`or102_with_the_pawn_on_a_reachable_point`] plays the same moves with
/// that pawn one point lower and the ruling is the expected one.
#[test]
#[ignore = "the case's FEN is not a reachable xiangqi position; see the doc comment"]
fn or102_unreachable_position() {
    let case = cases()
        .into_iter()
        .find(|c| c.id == "AXF-OR102")
        .expect("case");
    assert_eq!(ruling(&case, RuleSet::Axf).0, "red");
}

/// AXF-OR102 with its unreachable black pawn moved from i7 to i6 (it plays no part
/// in the cycle): red's king steps d1/e1 alternately unmask a horse on the black
/// pawn shuttling on red's back rank — a chase by another piece that the king move
/// creates, forbidden although king and pawn themselves may chase (AXF 71-75, CXA
/// §26.1.1).
#[test]
fn or102_with_the_pawn_on_a_reachable_point() {
    let case = Case {
        id: "AXF-OR102/i6".to_string(),
        fen: "3a2b1r/4ak3/9/7Pp/9/9/9/B2NN3B/3K5/4p4 w - - 0 1".to_string(),
        moves: "d1e1 e0d0 e1d1 d0e0 d1e1 e0d0 e1d1 d0e0 d1e1 e0d0 e1d1"
            .split(' ')
            .map(String::from)
            .collect(),
        expected: BTreeMap::new(),
    };
    for rules in RuleSet::ALL {
        assert_eq!(ruling(&case, rules).0, "red", "{rules}");
    }
}

/// Per-article tests: small positions built for one clause each (verified by hand
/// with the reasoning in each comment).
mod articles {
    use super::judge;
    use chuhan_engine::core::GameResult;
    use chuhan_engine::core::{Move, Position, Square};
    use chuhan_engine::rules::classify::{Exemption, Label, MoveClass, classify};
    use chuhan_engine::rules::mate::MateProbe;
    use chuhan_engine::rules::threat::{ChaseKind, Means};
    use chuhan_engine::rules::{RuleSet, Status};

    const CXA: RuleSet = RuleSet::Cxa2011;
    const AXF: RuleSet = RuleSet::Axf;

    /// Plays `pre` from `fen`, then classifies `mv`.
    fn class(fen: &str, pre: &str, mv: &str, rules: RuleSet) -> MoveClass {
        let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for m in pre.split_whitespace() {
            let m: Move = m.parse().unwrap();
            assert!(pos.is_legal(m), "{fen}: {m}");
            pos.make_move(m);
        }
        let m: Move = mv.parse().unwrap();
        assert!(pos.is_legal(m), "{fen}: {m}");
        let before = pos.to_fen();
        let c = classify(&mut pos, m, rules);
        assert_eq!(pos.to_fen(), before, "classify restores the position");
        c
    }

    /// The (victim, kind, means) of each chase.
    fn chases(c: &MoveClass) -> Vec<(Square, ChaseKind, Means)> {
        c.chases
            .iter()
            .map(|t| (t.victim, t.kind, t.means))
            .collect()
    }

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn s24_1_check() {
        // The rook checks along rank 9.
        for r in RuleSet::ALL {
            assert_eq!(
                class("4k4/9/9/9/9/9/9/9/9/R2K5 w", "", "a0a9", r).label(),
                Label::Check
            );
        }
    }

    #[test]
    fn s24_2_mate_threat() {
        // After Ra7 red threatens Rd7# (d8 covered by the rook, e9/e8 by the red
        // king along the open e-file). 殺 under CXA; AXF knows no such category.
        let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w";
        assert_eq!(class(fen, "", "a0a7", CXA).label(), Label::MateThreat);
        assert_eq!(class(fen, "", "a0a7", AXF).label(), Label::Idle);
    }

    /// A move that threatens mate *and* attacks an unprotected piece (issue 23).
    /// Rb8 shuts the black king on its back rank (Ra9# next) and attacks the horse
    /// h8. CXA: the heavier effect counts (§26.4), 殺, the chase kept on record.
    /// AXF has no 殺 category (perpetual mate threats are allowed, AXF rule 9), but
    /// a threat to mate does not excuse a chase (AXF rule 18, diagrams 32-38): the
    /// move is a chase of the horse, and a side repeating it chases perpetually.
    #[test]
    fn s24_2_mate_threat_that_also_chases() {
        let fen = "4k4/7n1/1R7/9/9/9/9/9/9/R2K5 w";
        let c = class(fen, "", "b7b8", CXA);
        assert_eq!(c.label(), Label::MateThreat);
        assert_eq!(
            chases(&c),
            [(sq("h8"), ChaseKind::Unrooted, Means::Capture)]
        );
        let c = class(fen, "", "b7b8", AXF);
        assert_eq!(c.label(), Label::Chase);
        assert_eq!(
            chases(&c),
            [(sq("h8"), ChaseKind::Unrooted, Means::Capture)]
        );
    }

    #[test]
    fn s24_3_direct_chase() {
        // Ra4 attacks the unprotected cannon c4: 捉無根子.
        let c = class("4k4/9/9/9/9/2c6/9/9/9/R2K5 w", "", "a0a4", CXA);
        assert_eq!(
            chases(&c),
            [(sq("c4"), ChaseKind::Unrooted, Means::Capture)]
        );
        // The horse attacks a rook protected by the other rook: a horse for a rook
        // still wins material (捉車).
        let c = class("3rk4/9/9/3r5/9/9/9/1N7/9/5K3 w", "", "b2c4", AXF);
        assert_eq!(chases(&c), [(sq("d6"), ChaseKind::Rook, Means::Capture)]);
    }

    #[test]
    fn s24_3_joint_chase_and_s24_15_underprotected() {
        // Cannon d1 behind rook d2 against a horse protected once (advisor e8):
        // C×d7 A×C R×A nets +2 — only both pieces together win it (聯合捉, 少根子).
        // AXF counts a piece with a legal recapture as protected.
        let fen = "4k4/4a4/3n5/9/9/9/9/3R5/C8/5K3 w";
        let c = class(fen, "", "a1d1", CXA);
        assert_eq!(chases(&c), [(sq("d7"), ChaseKind::Joint, Means::Capture)]);
        assert_eq!(class(fen, "", "a1d1", AXF).label(), Label::Idle);
    }

    #[test]
    fn s24_3_chase_by_check_combination() {
        // CXA 1999 diagram 3: i4h6 threatens Ng8+ (closing the g7 horse's leg and
        // opening the h-file) and then Rh0×h9.
        let fen = "1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w";
        let c = class(fen, "h6i4 i9h9", "i4h6", CXA);
        assert_eq!(
            chases(&c),
            [(sq("h9"), ChaseKind::Rook, Means::Combination)]
        );
        // AXF: a chase threatens a capture "in the next move"; this win needs a
        // check first, so the move is 閒 (issue 23, Fairy-Stockfish agrees).
        assert_eq!(class(fen, "h6i4 i9h9", "i4h6", AXF).label(), Label::Idle);
    }

    #[test]
    fn s24_3_discovered_check_win() {
        // 抽吃: Ra2-e2 lines up behind the horse; Nc6+ (discovered) then N×a7.
        let c = class("4k4/9/n8/9/4N4/9/9/R8/9/3K5 w", "", "a2e2", CXA);
        assert_eq!(
            chases(&c),
            [(sq("a7"), ChaseKind::Unrooted, Means::Combination)]
        );
    }

    #[test]
    fn s24_3_chase_by_exchange_value() {
        // A horse attacking a protected rook wins by exchange (10 for 5).
        let c = class("3rk4/9/9/3r5/9/9/9/1N7/9/5K3 w", "", "b2c4", CXA);
        assert_eq!(c.chases[0].gain, 5);
    }

    #[test]
    fn s24_3_no_gain_if_mated_at_once() {
        // The horse interposes on d3 and unmasks Ra4 on the cannon f4; but if red
        // took it, R×d3 would mate (the king may not leave the d-file: e2 faces
        // the black king). With a pawn on e3 the king escapes and the chase counts.
        let c = class("4k4/9/9/9/3r5/RN3c3/9/3K5/9/9 w", "", "b4d3", CXA);
        assert_eq!(c.label(), Label::Idle);
        let c = class("4k4/9/9/9/3r5/RN3c3/4P4/3K5/9/9 w", "", "b4d3", CXA);
        assert_eq!(
            chases(&c),
            [(sq("f4"), ChaseKind::Unrooted, Means::Capture)]
        );
    }

    #[test]
    fn s24_4_exchange() {
        // Rook against rook: either may take first (兌 = 閒).
        assert_eq!(
            class("4k4/9/9/9/9/9/9/9/r8/3K1R3 w", "", "f0f1", CXA).label(),
            Label::Idle
        );
        // Horse against a cannon protected by an advisor: an even trade of
        // different kinds (兌).
        assert_eq!(
            class("4k4/4a4/3c5/9/9/9/1N7/9/9/5K3 w", "", "b3c5", CXA).label(),
            Label::Idle
        );
    }

    #[test]
    fn s24_5_offer() {
        // The cannon goes where the black rook takes it for nothing (獻): 閒.
        assert_eq!(
            class("4k4/9/9/2r6/9/9/9/9/9/C2K5 w", "", "a0a6", CXA).label(),
            Label::Idle
        );
    }

    #[test]
    fn s24_6_block() {
        // The elephant blocks the rook's attack on the horse (攔): 閒.
        let c = class("4k4/9/9/2r6/9/9/2N6/4B4/9/3K5 w", "", "e2c4", CXA);
        assert_eq!(c.label(), Label::Idle);
    }

    #[test]
    fn s24_7_follow() {
        // The rook "follows" a cannon the black rook protects (跟): no gain, 閒.
        let c = class("2r1k4/9/9/9/9/2c6/9/9/9/R2K5 w", "", "a0a4", CXA);
        assert_eq!(c.label(), Label::Idle);
    }

    #[test]
    fn s24_8_idle() {
        let c = class("3k5/9/9/9/9/9/9/9/4A4/3AK4 w", "", "e1f2", CXA);
        assert_eq!(c.label(), Label::Idle);
    }

    #[test]
    fn s24_16_false_root() {
        // The horse e7 "protects" d5 but is pinned against its king by Re0: a false
        // root (假根), so Rd2 chases an unprotected cannon. Without Re0 the horse
        // protects it and the rook gains nothing.
        let c = class("4k4/9/4n4/9/3c5/9/9/R8/9/4RK3 w", "", "a2d2", AXF);
        assert_eq!(
            chases(&c),
            [(sq("d5"), ChaseKind::Unrooted, Means::Capture)]
        );
        let c = class("4k4/9/4n4/9/3c5/9/9/R8/9/4RK3 w", "", "a2d2", CXA);
        assert_eq!(
            chases(&c),
            [(sq("d5"), ChaseKind::Unrooted, Means::Capture)]
        );
        let c = class("4k4/9/4n4/9/3c5/9/9/R8/9/5K3 w", "", "a2d2", CXA);
        assert_eq!(c.label(), Label::Idle);
    }

    #[test]
    fn s26_1_king_and_pawn_may_chase() {
        // The king steps next to an unprotected horse; a crossed pawn attacks an
        // unprotected horse. Neither is a chase.
        assert_eq!(
            class("3k5/9/9/9/9/9/9/9/3n5/4K4 w", "", "e0e1", CXA).label(),
            Label::Idle
        );
        assert_eq!(
            class("4k4/9/9/4n4/3P5/9/9/9/9/3K5 w", "", "d5d6", CXA).label(),
            Label::Idle
        );
    }

    #[test]
    fn s26_1_1_king_or_pawn_move_that_makes_another_piece_chase() {
        // The pawn steps aside and unmasks Re4 on the cannon e7.
        let c = class("4k4/9/4c4/4P4/9/4R4/9/9/9/3K5 w", "", "e6d6", CXA);
        assert_eq!(
            chases(&c),
            [(sq("e7"), ChaseKind::Unrooted, Means::Capture)]
        );
        // The king step unmasks a horse on the black pawn (AXF diagrams 71-75).
        let c = class("3a2b1r/4ak3/9/7Pp/9/9/9/B2NN3B/3K5/4p4 w", "", "d1e1", CXA);
        assert_eq!(
            chases(&c),
            [(sq("e0"), ChaseKind::Unrooted, Means::Capture)]
        );
    }

    #[test]
    fn s26_1_2_answering_check() {
        // King e2 answers the rook's check and frees the horse's leg: the horse now
        // attacks the cannon e3 — ruled 閒.
        let c = class("4k4/9/9/9/3r5/9/4c4/2NK5/9/9 w", "", "d2e2", CXA);
        assert_eq!(
            (c.label(), c.exemption),
            (Label::Idle, Some(Exemption::KingEvasion))
        );
        // The horse blocks the check and unmasks Ra4 on the cannon f4: a new
        // chase by another piece answering check counts.
        let c = class("4k4/9/9/9/3r5/RN3c3/4P4/3K5/9/9 w", "", "b4d3", CXA);
        assert!(c.evasion);
        assert_eq!(c.label(), Label::Chase);
    }

    #[test]
    fn s26_2_lone_defender() {
        // Red's lone rook against two black rooks goes for an unprotected elephant:
        // 閒 for the defending side (§26.2). With a second red attacking piece the
        // same move is a chase; AXF has no such clause.
        let fen = "r3k3r/9/9/9/6b2/1R7/9/9/9/3K5 w";
        let c = class(fen, "", "b4b5", CXA);
        assert_eq!(
            (c.label(), c.exemption),
            (Label::Idle, Some(Exemption::LoneDefender))
        );
        assert_eq!(class(fen, "", "b4b5", AXF).label(), Label::Chase);
        let c = class("r3k3r/9/9/9/6b2/1R7/9/9/9/3K2N2 w", "", "b4b5", CXA);
        assert_eq!(
            chases(&c),
            [(sq("g5"), ChaseKind::Unrooted, Means::Capture)]
        );
    }

    #[test]
    fn s26_3_self_inflicted() {
        // Rc0-c9+ abandons rank 0; every answer now threatens Rb0+ Rc0 R×c0#. The
        // horse's interposition is not a 殺: red brought the threat on itself (自斃,
        // a king step answering the same check leaves it standing too).
        let c = class("4k4/1n7/1r7/9/9/9/9/9/r8/2R2K3 w", "c0c9", "b8d9", CXA);
        assert_eq!(
            (c.label(), c.exemption),
            (Label::Idle, Some(Exemption::SelfInflicted))
        );
        assert!(c.evasion && !c.mate_threat);
    }

    #[test]
    fn s26_4_heaviest_effect() {
        // 兌兼捉: the horse offers an exchange to the horse b7 and chases the rook
        // e6 — a chase.
        let c = class("4k4/9/1n7/4r4/9/N8/9/9/9/3K5 w", "", "a4c5", CXA);
        assert_eq!(chases(&c), [(sq("e6"), ChaseKind::Rook, Means::Capture)]);
        // 將兼捉: a check that also chases is a check (FS04's second move).
        let c = class(
            "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w",
            "f4d4 f5d5",
            "d4f4",
            CXA,
        );
        assert_eq!(c.label(), Label::Check);
        assert!(!c.chases.is_empty());
    }

    #[test]
    fn s26_5_root_or_pinned_capturer() {
        // The pawn step lets Rc3 take the cannon h3, but the rook is the only root
        // of the horse c6, which the cannon c9 attacks. Taking is an even trade:
        // 捉 (§26.5).
        let c = class("2ck5/2n6/9/2N6/9/9/2R1P2c1/9/9/5K3 w", "", "e3e4", CXA);
        assert_eq!(
            chases(&c),
            [(sq("h3"), ChaseKind::Unrooted, Means::Capture)]
        );
        assert_eq!(c.chases[0].gain, 0);
        // When the rook guards a rook instead, taking loses: 閒. (The AXF test has
        // no such clause.)
        let fen = "2raka3/9/9/2R6/9/9/2R1P2c1/9/9/5K3 w";
        assert_eq!(class(fen, "", "e3e4", CXA).label(), Label::Idle);
        assert_eq!(class(fen, "", "e3e4", AXF).label(), Label::Chase);
    }

    #[test]
    fn s26_6_pawns() {
        // A pawn at home is no target.
        assert_eq!(
            class("4k4/9/9/p8/9/R8/9/9/9/3K5 w", "", "a4a5", CXA).label(),
            Label::Idle
        );
        // A crossed pawn is.
        let c = class("4k4/9/9/9/9/4p4/R8/9/9/3K5 w", "", "a3a4", CXA);
        assert_eq!(
            chases(&c),
            [(sq("e4"), ChaseKind::Unrooted, Means::Capture)]
        );
        // A strong piece for a protected crossed pawn is no gain.
        let c = class("4k4/9/9/9/9/4p3r/R8/9/9/3K5 w", "", "a3a4", CXA);
        assert_eq!(c.label(), Label::Idle);
        // Going for a pawn that has just crossed is no gain (CXA); AXF counts it.
        let fen = "4k4/9/9/9/4p4/9/9/R8/9/3K5 w";
        assert_eq!(class(fen, "a2a3 e5e4", "a3a4", CXA).label(), Label::Idle);
        assert_eq!(class(fen, "a2a3 e5e4", "a3a4", AXF).label(), Label::Chase);
    }

    #[test]
    fn s26_6_pawn_for_a_rook() {
        // "主動送兵換車為捉": the crossed pawn steps up beside the rook — a chase under
        // CXA, although pawns may otherwise chase (§26.1); AXF lets pawns chase.
        let fen = "4k4/9/9/3r5/2P6/9/9/9/9/5K3 w";
        let c = class(fen, "", "c5c6", CXA);
        assert_eq!(chases(&c), [(sq("d6"), ChaseKind::Rook, Means::Capture)]);
        assert_eq!(class(fen, "", "c5c6", AXF).label(), Label::Idle);
    }

    #[test]
    fn s26_7_pawns_with_other_pieces() {
        // Re1 behind the pawn e6: P×d6 would unmask a check, so the pawn's
        // capture counts (捉, attacker the pawn).
        let c = class("4k4/9/9/3nP4/9/9/9/9/R8/3K5 w", "", "a1e1", CXA);
        assert_eq!(
            chases(&c),
            [(sq("d6"), ChaseKind::Unrooted, Means::Capture)]
        );
        assert_eq!(c.chases[0].attacker, sq("e6"));
        // A pawn step that only sets up a discovered-check win by other pieces
        // (兵借其他子抽吃) is 閒: here e5d5 opens Re1 behind the horse e6, which
        // could then go Nc7+ (discovered; the horse covers d9) and take a8. (AXF
        // shows it best: under CXA the battery also threatens mate.)
        let c = class("4k4/n8/9/4N4/4P4/9/9/9/4R4/3K5 w", "", "e5d5", AXF);
        assert_eq!(c.label(), Label::Idle);
        // The same battery made by a rook move threatens mate under CXA (the
        // heavier effect, §26.4); under AXF, whose chase is a capture in the next
        // move, the discovered-check win (抽吃) is two moves away: 閒.
        let fen = "4k4/n8/9/4N4/9/9/9/9/R8/3K5 w";
        assert_eq!(class(fen, "", "a1e1", CXA).label(), Label::MateThreat);
        assert_eq!(class(fen, "", "a1e1", AXF).label(), Label::Idle);
    }

    #[test]
    fn s26_9_exchange_offers() {
        // Nc5 offers the horse e6 an exchange; if black takes, its rook g5 loses
        // its only root and R×g5 follows: accepting loses material, so 捉.
        let c = class("4k4/9/9/4n4/6r2/N8/9/4B4/9/5KR2 w", "", "a4c5", CXA);
        assert_eq!(chases(&c), [(sq("e6"), ChaseKind::Unrooted, Means::Offer)]);
        // Ni1 offers the horse h3 an exchange; taking removes the guard of f4 and
        // Rf4 mates at once: 捉.
        let fen = "5k3/9/9/N8/9/R8/7n1/6N2/4K1c2/9 w";
        let c = class(fen, "", "g2i1", CXA);
        assert_eq!(chases(&c), [(sq("h3"), ChaseKind::Unrooted, Means::Offer)]);
        let mut pos = Position::from_fen(fen).unwrap();
        pos.make_move("g2i1".parse().unwrap());
        pos.make_move("h3i1".parse().unwrap());
        assert!(MateProbe::new(1, 1000).mates(&mut pos));
        // Under AXF an offer is never a chase.
        assert_eq!(class(fen, "", "g2i1", AXF).label(), Label::Idle);
    }

    #[test]
    fn s26_10_rook_and_horse_on_a_horse() {
        // Re2 and Nd4 both touch the horse e6, which touches Nd4. Unprotected: the
        // rook side chases (§26.10.1).
        let c = class("3k5/9/9/4n4/9/3N5/9/R8/9/5K3 w", "", "a2e2", CXA);
        assert_eq!(
            chases(&c),
            [(sq("e6"), ChaseKind::Unrooted, Means::Capture)]
        );
        // Protected by the rook a6, with Nd4 protected by Rd0 so that black can
        // trade horses without loss: an exchange offer, 閒 (§26.10.2).
        let c = class("5k3/9/9/r3n4/9/3N5/9/R8/9/3RK4 w", "", "a2e2", CXA);
        assert_eq!(c.label(), Label::Idle);
    }

    /// Plays a cycle and returns the judgement's (must_vary, articles, status,
    /// winner).
    fn ruling(
        fen: &str,
        moves: &str,
        rules: RuleSet,
    ) -> (String, Vec<String>, Status, Option<GameResult>) {
        let moves: Vec<&str> = moves.split_whitespace().collect();
        let j = judge(Some(fen), &moves, rules).unwrap();
        let r = j.repetition.expect("a repetition");
        let vary = r.must_vary.map_or("none", |c| c.name()).to_string();
        let articles = r.articles.iter().map(|a| a.code().to_string()).collect();
        (vary, articles, j.status, j.winner)
    }

    #[test]
    fn s23_5_1_unilateral_perpetual_check_loses_at_once() {
        let (vary, arts, status, winner) = ruling(
            "4k4/9/9/9/9/9/9/9/9/R2K5 w",
            "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9",
            CXA,
        );
        assert_eq!(vary, "red");
        assert_eq!(arts, ["25.1", "23.5.1"]);
        assert_eq!(
            (status, winner),
            (Status::Repetition, Some(GameResult::BlackWins))
        );
    }

    #[test]
    fn s23_2_a_capture_does_not_start_the_count() {
        // Ra0×a2 reaches a position that then recurs: under CXA the capture's
        // position does not count, so after nine plies there are two occurrences.
        let fen = "4k4/9/9/9/9/9/9/p8/4A4/R2AK4 w";
        let moves: Vec<&str> = "a0a2 e9f9 a2a1 f9e9 a1a2 e9f9 a2a1 f9e9 a1a2"
            .split(' ')
            .collect();
        assert!(judge(Some(fen), &moves, CXA).unwrap().repetition.is_none());
        assert!(judge(Some(fen), &moves, AXF).unwrap().repetition.is_some());
        let mut more = moves.clone();
        more.extend(["e9f9", "a2a1", "f9e9", "a1a2"]);
        assert!(judge(Some(fen), &more, CXA).unwrap().repetition.is_some());
    }

    #[test]
    fn s25_2_both_allowed_draw() {
        let (vary, arts, status, winner) = ruling(
            "3k5/9/9/9/9/9/9/9/4A4/3AK4 w",
            "e1f2 d9d8 f2e1 d8d9 e1f2 d9d8 f2e1 d8d9",
            CXA,
        );
        assert_eq!(vary, "none");
        assert_eq!(arts, ["25.2", "23.5.2.1"]);
        assert_eq!(
            (status, winner),
            (Status::Repetition, Some(GameResult::Draw))
        );
    }

    #[test]
    fn s25_3_forbidden_against_allowed() {
        // AXF-OR014's perpetual mate threats: CXA red must vary; AXF draw.
        let fen = "2b2k3/9/4b2P1/3N5/1R6p/6P2/5p2r/8n/4p4/5K3 w";
        let moves = "d6c8 f9f8 c8d6 f8f9 d6c8 f9f8 c8d6 f8f9 d6c8 f9f8 c8d6";
        let (vary, arts, _, _) = ruling(fen, moves, CXA);
        assert_eq!((vary.as_str(), arts[0].as_str()), ("red", "25.3"));
        assert_eq!(ruling(fen, moves, AXF).0, "none");
    }
}

/// Properties over random legal games that are steered into repetitions.
mod properties {
    use chuhan_engine::core::GameResult;
    use chuhan_engine::core::{Move, Position, Terminal};
    use chuhan_engine::rules::{RuleSet, Status, judge_position, repetition};
    use proptest::prelude::*;

    /// Plays `steps` from the start position: each step either reverses the mover's
    /// previous move (when `back` is set and that is legal — this is what makes
    /// cycles) or plays the legal move chosen by `pick`.
    fn play(steps: &[(bool, u16)]) -> Position {
        let mut pos = Position::startpos();
        for &(back, pick) in steps {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let n = pos.game_ply();
            let reverse = (n >= 2)
                .then(|| pos.history()[n - 1].mv)
                .filter(|m| m.is_some())
                .map(|m| Move::new(m.to(), m.from()))
                .filter(|&m| back && legal.contains(m));
            let m = reverse.unwrap_or(legal[pick as usize % legal.len()]);
            pos.make_move(m);
        }
        pos
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

        #[test]
        fn judge_is_total_and_lists_the_legal_moves(
            steps in proptest::collection::vec((proptest::bool::weighted(0.8), any::<u16>()), 0..90)
        ) {
            let pos = play(&steps);
            let legal = pos.legal_moves();
            for rules in RuleSet::ALL {
                let j = judge_position(&pos, rules);
                let listed: Vec<Move> = j.moves.iter().map(|m| m.mv).collect();
                prop_assert_eq!(listed.as_slice(), legal.as_slice());
                if let Some(r) = &j.repetition {
                    prop_assert!(r.occurrences >= 3);
                    prop_assert!(!r.cycle.is_empty() && r.cycle.len() % 2 == 0);
                }
                match pos.terminal() {
                    Terminal::Checkmate => prop_assert_eq!(j.status, Status::Checkmate),
                    Terminal::Stalemate => prop_assert_eq!(j.status, Status::Stalemate),
                    Terminal::Ongoing => prop_assert!(!matches!(j.status, Status::Checkmate | Status::Stalemate)),
                }
                if j.status == Status::Ongoing {
                    prop_assert_eq!(j.winner, None);
                }
                // The search-facing test agrees with the judge on the final position.
                let rep = repetition(&pos, rules, 3, None);
                if j.status == Status::Repetition {
                    let r = rep.expect("a repetition");
                    let vary = j.repetition.as_ref().map(|r| r.must_vary);
                    prop_assert_eq!(vary, Some(r.verdict.must_vary));
                    if r.verdict.must_vary.is_none() {
                        prop_assert_eq!(j.winner, Some(GameResult::Draw));
                    }
                } else if pos.terminal() == Terminal::Ongoing {
                    prop_assert!(rep.is_none());
                }
                // One line of JSON with the keys.
                let line = j.to_json_line();
                prop_assert!(!line.contains('\n'));
                let v: serde_json::Value = serde_json::from_str(&line).unwrap();
                for key in ["rules", "fen", "status", "winner", "repetition", "moves"] {
                    prop_assert!(v.get(key).is_some(), "missing {}", key);
                }
                // The typed fields are written as text: ICCS moves, side names,
                // the three move verdicts.
                for (m, jm) in j.moves.iter().zip(v["moves"].as_array().unwrap()) {
                    let iccs = m.mv.to_string();
                    prop_assert_eq!(jm["move"].as_str(), Some(iccs.as_str()));
                    prop_assert!(["none", "draw", "ban"].contains(&jm["verdict"].as_str().unwrap()));
                }
                if let Some(r) = v["repetition"].as_object() {
                    prop_assert!(["red", "black", "none"].contains(&r["must_vary"].as_str().unwrap()));
                    for c in r["cycle"].as_array().unwrap() {
                        prop_assert!(["red", "black"].contains(&c["side"].as_str().unwrap()));
                        prop_assert!(["將", "殺", "捉", "閒"].contains(&c["kind"].as_str().unwrap()));
                    }
                }
            }
        }
    }
}

/// The `chuhan judge` command line.
mod cli {
    use std::process::Command;

    fn judge(args: &[&str]) -> (i32, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
            .arg("judge")
            .args(args)
            .output()
            .expect("run chuhan");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).expect("utf-8"),
        )
    }

    #[test]
    fn json_ruling_on_a_cycle() {
        let (code, out) = judge(&[
            "--fen",
            "4k4/9/9/9/9/9/9/9/9/R2K5 w",
            "--moves",
            "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9",
            "--json",
        ]);
        assert_eq!(code, 0);
        assert_eq!(out.lines().count(), 1);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["rules"], "cxa2011");
        assert_eq!(v["status"], "repetition");
        assert_eq!(v["winner"], "black");
        assert_eq!(v["repetition"]["must_vary"], "red");
        assert_eq!(v["repetition"]["red"], "長將");
        assert_eq!(v["repetition"]["cycle"][1]["kind"], "將");
    }

    #[test]
    fn readable_report_cites_articles() {
        let (code, out) = judge(&[
            "--fen",
            "4k4/9/9/9/9/9/9/9/9/R2K5 w",
            "--moves",
            "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9",
        ]);
        assert_eq!(code, 0);
        assert!(out.contains("§25.1") && out.contains("§23.5.1"), "{out}");
        assert!(out.contains("red loses at once"), "{out}");
    }

    #[test]
    fn errors_exit_with_code_2_and_json() {
        let (code, out) = judge(&["--moves", "h2e2 h2e2", "--json"]);
        assert_eq!(code, 2);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["ply"], 2);
        assert_eq!(v["kind"], "no-piece");
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with("ply 2: cannot play 'h2e2'")
        );
        let (code, out) = judge(&["--fen", "not a fen"]);
        assert_eq!(code, 2);
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["ply"], 0);
        let (code, _) = judge(&["--moves", "h2e2 zz99"]);
        assert_eq!(code, 2);
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("chuhan-judge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    /// Two games: an opening, then Red's perpetual check in WXF notation.
    const TWO_GAMES: &str = "[Game \"Chinese Chess\"]\n[Result \"*\"]\n\n1. h2e2 h9g7 *\n\n\
        [Game \"Chinese Chess\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1\"]\n[Result \"0-1\"]\n\n\
        1. R9+9 K5+1 2. R9-1 K5-1 3. R9+1 K5+1 4. R9-1 K5-1 5. R9+1 0-1\n";

    #[test]
    fn rules_the_game_of_a_record() {
        let pgn = temp("two.pgn");
        std::fs::write(&pgn, TWO_GAMES).unwrap();
        let pgn = pgn.to_str().unwrap();
        let (code, out) = judge(&["--pgn", pgn, "--game", "2", "--json"]);
        assert_eq!(code, 0, "{out}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["winner"], "black");
        assert_eq!(v["repetition"]["must_vary"], "red");
        assert_eq!(v["plies"], 9);
        let (code, out) = judge(&["--pgn", pgn, "--game", "2", "--rules", "axf"]);
        assert_eq!(code, 0);
        assert!(
            out.starts_with("rules: axf\n") && out.contains("red must vary"),
            "{out}"
        );
        // The first game by default: two plies, nothing to rule.
        let (code, out) = judge(&["--pgn", pgn, "--json"]);
        assert_eq!(code, 0);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            (v["plies"].as_u64(), &v["repetition"]),
            (Some(2), &serde_json::Value::Null)
        );
        // A plain move list is a record too.
        let list = temp("moves.txt");
        std::fs::write(&list, "h2e2 h9g7 h0g2").unwrap();
        let (code, out) = judge(&["--pgn", list.to_str().unwrap(), "--json"]);
        assert_eq!(code, 0);
        assert!(out.contains("\"plies\":3"), "{out}");
        for bad in [
            vec!["--pgn", pgn, "--game", "3"],
            vec!["--pgn", pgn, "--game", "0"],
            vec!["--pgn", "/nonexistent/chuhan.pgn"],
        ] {
            let (code, out) = judge(&bad);
            assert_eq!(code, 2, "{bad:?}");
            let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            assert!(v["error"].is_string(), "{bad:?}: {out}");
        }
    }

    #[test]
    fn svg_of_the_ruled_cycle() {
        let svg = temp("cycle.svg");
        let (code, _) = judge(&[
            "--fen",
            "4k4/9/9/9/9/9/9/9/9/R2K5 w",
            "--moves",
            "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9",
            "--svg",
            svg.to_str().unwrap(),
        ]);
        assert_eq!(code, 0);
        let doc = std::fs::read_to_string(&svg).unwrap();
        assert!(doc.starts_with("<?xml") && doc.trim_end().ends_with("</svg>"));
        // The last period: four moves, Red's two in red, Black's in blue; moves
        // between the same points share a label.
        assert_eq!(
            doc.matches("marker-end=\"url(#head-red)\"").count(),
            2,
            "{doc}"
        );
        assert_eq!(doc.matches("marker-end=\"url(#head-blue)\"").count(), 2);
        assert!(
            doc.contains(">1/3</text>") && doc.contains(">2/4</text>"),
            "{doc}"
        );
        assert!(doc.contains("violator: red, who loses at once (cxa2011)"));
        assert!(doc.contains("red 長將, black 閒"));
        assert!(doc.contains("plies 6–9; the position has occurred 3 times"));
        // Drawn at the period's start: Red's rook on a9 (x 64, y 70), Black's king
        // on e9 (x 304, y 70).
        assert!(doc.contains("x1=\"64\" y1=\"70\""), "a9a8 starts at a9");
        // No cycle: the final position and its last move.
        let (code, _) = judge(&["--moves", "h2e2 h9g7", "--svg", svg.to_str().unwrap()]);
        assert_eq!(code, 0);
        let doc = std::fs::read_to_string(&svg).unwrap();
        assert_eq!(doc.matches("marker-end").count(), 1);
        assert!(doc.contains("status: ongoing; game goes on"));
    }
}
