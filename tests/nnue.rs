//! The neural evaluation's tools end to end: `chuhan datagen` (a run, a plan, one
//! unit played elsewhere, resume, statistics) and `chuhan train` on the data it
//! wrote, down to a net file the engine loads. Small and shallow, so it takes
//! seconds.

use chuhan_engine::core::Position;
use chuhan_engine::eval::nnue::Network;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn chuhan(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(args)
        .output()
        .expect("chuhan runs");
    assert!(
        out.status.success(),
        "chuhan {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("chuhan-nnue-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

const RUN: [&str; 10] = [
    "--games",
    "6",
    "--games-per-unit",
    "3",
    "--depth",
    "2",
    "--random-plies",
    "6",
    "--max-plies",
    "120",
];

#[test]
fn datagen_units_resume_plan_and_train() {
    let dir = temp("data");
    let mut args = vec!["datagen", "--out", s(&dir), "--concurrency", "2"];
    args.extend(RUN);
    let first = chuhan(&args);
    let text = String::from_utf8_lossy(&first.stdout);
    assert!(text.contains("2 units written, 0 already there"), "{text}");
    // The same command again plays nothing.
    let again = chuhan(&args);
    let text = String::from_utf8_lossy(&again.stdout);
    assert!(text.contains("0 units written, 2 already there"), "{text}");
    // A plan, and its unit 1 played alone elsewhere: the same bytes.
    let plan = dir.join("copy-plan.json");
    let mut plan_args = vec!["datagen", "--plan", s(&plan)];
    plan_args.extend(RUN);
    chuhan(&plan_args);
    let other = temp("unit");
    chuhan(&[
        "datagen",
        "--unit",
        s(&plan),
        "1",
        "--out",
        s(&other),
        "--concurrency",
        "1",
    ]);
    assert_eq!(
        std::fs::read(dir.join("unit-1.bin")).unwrap(),
        std::fs::read(other.join("unit-1.bin")).unwrap()
    );
    // Statistics.
    let stats = chuhan(&["datagen", "--stats", s(&dir)]);
    let text = String::from_utf8_lossy(&stats.stdout);
    assert!(text.contains("units 2  runs 1  games 6"), "{text}");
    // Training on it, down to a net the engine loads.
    let runs = temp("train");
    let net = runs.join("tiny.nnue");
    std::fs::create_dir_all(&runs).unwrap();
    let out = chuhan(&[
        "train",
        s(&dir),
        "--out",
        s(&runs),
        "--net",
        s(&net),
        "--epochs",
        "2",
        "--batch",
        "64",
        "--hidden",
        "8",
        "--king-buckets",
        "ranks",
        "--output-buckets",
        "2",
        "--validation",
        "0.3",
        "--threads",
        "2",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("epoch   2: train"), "{text}");
    let loaded = Network::load(&net).unwrap();
    assert_eq!(loaded.arch.hidden, 8);
    assert_eq!(Network::load(&runs.join("epoch-2.nnue")).unwrap(), loaded);
    // The engine's reference evaluation runs on it.
    let _ = loaded.evaluate(&Position::startpos());
    // The next generation starts from it: the shape is the net's, and may not be
    // given again.
    let next = runs.join("next");
    let out = chuhan(&[
        "train",
        s(&dir),
        "--out",
        s(&next),
        "--init",
        s(&net),
        "--epochs",
        "1",
        "--batch",
        "64",
        "--validation",
        "0.3",
        "--threads",
        "2",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(1260×3 → 8)×2 → 1×2"), "{text}");
    assert!(text.contains("starting from"), "{text}");
    let tuned = Network::load(&next.join("final.nnue")).unwrap();
    assert_eq!((tuned.arch.hidden, tuned.arch.output_buckets), (8, 2));
    let refused = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args([
            "train",
            s(&dir),
            "--out",
            s(&next),
            "--init",
            s(&net),
            "--hidden",
            "16",
        ])
        .output()
        .expect("chuhan runs");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--hidden"));
    // A damaged net is refused with a clear error.
    let mut bytes = std::fs::read(&net).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    assert!(Network::from_bytes(&bytes).is_err());
    for d in [dir, other, runs] {
        std::fs::remove_dir_all(d).unwrap();
    }
}
