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

#[test]
fn axf_cases() {
    let (pass, total, fails) = run(RuleSet::Axf, &[]);
    eprintln!("AXF: {pass}/{total}");
    assert!(
        fails.is_empty(),
        "{pass}/{total} passed; failures:\n{}",
        fails.join("\n")
    );
}

#[test]
fn cxa2011_cases() {
    let (pass, total, fails) = run(RuleSet::Cxa2011, &[]);
    eprintln!("CXA 2011: {pass}/{total}");
    assert!(
        fails.is_empty(),
        "{pass}/{total} passed; failures:\n{}",
        fails.join("\n")
    );
}
