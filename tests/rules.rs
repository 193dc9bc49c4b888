//! The rule cases of `tests/data/rules/cases.json` (copied from
//! `../shared/data/rules/cases.json`): each gives a FEN, moves ending at the third
//! occurrence, and the expected `must_vary` under `axf` and, where known, `cxa2011`
//! ("draw" = must_vary "none"; "none" = no repetition).

use chuhan::rules::{RuleSet, judge};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
struct Case {
    id: String,
    fen: String,
    moves: Vec<String>,
    expected: BTreeMap<String, String>,
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
        Some(r) if r.must_vary == "none" => "draw".to_string(),
        Some(r) => r.must_vary.clone(),
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
