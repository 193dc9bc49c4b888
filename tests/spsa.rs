//! `chuhan spsa` end to end against the real binary: `--list` prints every tunable
//! as a parameter file; a local run of one round of one game pair writes its
//! state and tuned file and resumes as finished; the same run as a plan, a unit
//! and merges (what `crates/arena/ray/chuhan_ray.py` drives) ends in the same
//! state. The binary under test is built without the feature `tune`, so the tuned
//! parameter is an ordinary engine option (`Hash`); the SPSA arithmetic itself is
//! tested in `chuhan_arena::spsa`.

use chuhan_arena::spsa::parameter;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn chuhan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(args)
        .output()
        .expect("chuhan runs")
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhan-spsa-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn state(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("state.json")).unwrap()).unwrap()
}

#[test]
fn list_prints_every_tunable_as_a_parameter_file() {
    let out = chuhan(&["spsa", "--list"]);
    assert!(out.status.success(), "{}", text(&out));
    let params = parameter::parse(&String::from_utf8(out.stdout).unwrap()).unwrap();
    let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    let expected: Vec<&str> = chuhan_engine::search::tunables::all()
        .iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, expected);
    assert!(params.iter().all(|p| p.r_end == parameter::DEFAULT_R_END));
}

#[test]
fn a_local_round_and_the_same_round_as_units_agree() {
    let dir = scratch("run");
    let params = dir.join("params.txt");
    std::fs::write(
        &params,
        "# the hash size stands in for a search parameter\nHash, int, 8, 1, 16, 2\n",
    )
    .unwrap();
    let engine = format!("{} name=c", env!("CARGO_BIN_EXE_chuhan"));
    let run = |extra: &[&str]| {
        let mut args = vec![
            "spsa",
            "--engine",
            &engine,
            "--params",
            params.to_str().unwrap(),
            "--iterations",
            "1",
            "--pairs-per-round",
            "1",
            "--nodes",
            "300",
        ];
        args.extend_from_slice(extra);
        chuhan(&args)
    };

    // Local: one round of one pair, then a rerun finds it finished.
    let local = dir.join("local");
    let out = run(&["--concurrency", "2", "--out", local.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(stdout.contains("round 1/1: k 1/1, c+ "), "{stdout}");
    let tuned =
        parameter::parse(&std::fs::read_to_string(local.join("tuned.txt")).unwrap()).unwrap();
    assert_eq!(tuned.len(), 1);
    assert_eq!(
        (tuned[0].name.as_str(), tuned[0].min, tuned[0].max),
        ("Hash", 1, 16)
    );
    let finished = state(&local);
    assert_eq!(
        (finished["k"].as_u64(), finished["rounds"].as_u64()),
        (Some(1), Some(1))
    );
    let wld = &finished["history"][0]["wld"];
    let games: u64 = (0..3).map(|i| wld[i].as_u64().unwrap()).sum();
    assert_eq!(games, 2);
    let again = chuhan(&["spsa", "--out", local.to_str().unwrap()]);
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(state(&local), finished);

    // The same run as a plan, its unit and merges.
    let results = dir.join("results");
    let plan = dir.join("plan.json");
    let out = run(&["--plan", plan.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    std::fs::create_dir_all(&results).unwrap();
    std::fs::copy(&plan, results.join("plan.json")).unwrap();
    let merge = || chuhan(&["spsa", "--merge", results.to_str().unwrap()]);
    let out = merge();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let next = results.join("next.json");
    let out = chuhan(&[
        "spsa",
        "--unit",
        next.to_str().unwrap(),
        "0",
        "--out",
        results.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let out = merge();
    assert!(out.status.success(), "{}", text(&out));
    assert!(!next.exists());
    // Games at a fixed node count are a function of the plan: the same state.
    assert_eq!(state(&results), finished);
    assert_eq!(
        std::fs::read_to_string(results.join("tuned.txt")).unwrap(),
        std::fs::read_to_string(local.join("tuned.txt")).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_directory_of_another_run_is_refused() {
    let dir = scratch("other");
    let params = dir.join("params.txt");
    std::fs::write(&params, "Hash, int, 8, 1, 16, 2\n").unwrap();
    let engine = env!("CARGO_BIN_EXE_chuhan").to_string();
    let plan = |iterations: &str, path: &Path| {
        chuhan(&[
            "spsa",
            "--engine",
            &engine,
            "--params",
            params.to_str().unwrap(),
            "--iterations",
            iterations,
            "--nodes",
            "300",
            "--plan",
            path.to_str().unwrap(),
        ])
    };
    let run = dir.join("run");
    std::fs::create_dir_all(&run).unwrap();
    assert!(plan("4", &run.join("plan.json")).status.success());
    let out = chuhan(&[
        "spsa",
        "--engine",
        &engine,
        "--params",
        params.to_str().unwrap(),
        "--iterations",
        "5",
        "--nodes",
        "300",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("other settings"));
    std::fs::remove_dir_all(&dir).unwrap();
}
