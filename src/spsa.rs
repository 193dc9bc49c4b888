//! `chuhan spsa`: SPSA tuning of the search parameters by games (OpenBench's
//! method), locally or as work units on a cluster. See `chuhan_arena::spsa`.
//!
//! ```text
//! chuhan spsa --list > params.txt                     # every tunable, OpenBench format
//! chuhan spsa --engine target/tune/release/chuhan --params params.txt \
//!     --iterations 2000 --pairs-per-round 16 --nodes 5000 \
//!     --openings books/openings.txt --concurrency 2 --out spsa/
//! ```
//!
//! The local run writes `spsa/state.json` after every round (run it again to go
//! on) and `spsa/tuned.txt` at the end. The same run on a cluster:
//!
//! ```text
//! chuhan spsa --engine ./chuhan … --plan plan.json    # round 0
//! chuhan spsa --unit plan.json 7 --out results/       # one game pair, anywhere
//! chuhan spsa --merge results/                        # exit 3 + results/next.json
//! ```

use crate::limit_args::LimitArgs;
use crate::unit_args::{Mode, UnitArgs};
use chuhan_arena::game;
use chuhan_arena::r#match::adjudication::Adjudication;
use chuhan_arena::r#match::{engine_arg, openings, params};
use chuhan_arena::spsa::merge::{self, Merged, NEXT_PLAN, STATE_FILE, State, TUNED_FILE};
use chuhan_arena::spsa::parameter::{self, DEFAULT_R_END, Parameter};
use chuhan_arena::spsa::plan::{Plan, PlanFile, Settings, UnitPlan};
use chuhan_arena::spsa::unit::{self, Played, UnitResult};
use chuhan_arena::work_unit::write_atomic;
use chuhan_engine::rules::{Referee, RuleSet};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `chuhan spsa`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("mode").args(["list", "plan", "unit", "merge"])))]
pub struct SpsaArgs {
    /// Print the engine's tunable search parameters as a parameter file
    /// (`name, int, default, min, max, c_end, r_end`) and stop.
    #[arg(long)]
    pub list: bool,
    /// The engine, as `chuhan match --engine` takes it (`./chuhan name=X
    /// option.Hash=16`); it must take every parameter as an option (Chuhan built
    /// with `--features tune`).
    #[arg(long, value_name = "CMD")]
    pub engine: Option<String>,
    /// The parameter file: `name, int, default, min, max, c_end[, r_end]` a line.
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// Iterations (game pairs) in the run.
    #[arg(long, value_name = "N")]
    pub iterations: Option<u32>,
    /// Game pairs per round: they are played from the same values, then applied.
    #[arg(long, value_name = "P", default_value_t = 16)]
    pub pairs_per_round: u32,
    #[command(flatten)]
    pub limit: LimitArgs,
    /// Opening suite: FEN/EPD lines, move sequences, PGN or XQF (game pair `k`
    /// plays opening `k` of the suite shuffled by the seed, cycling).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Rules the games are judged by: cxa2011 or axf.
    #[arg(long, default_value_t = RuleSet::Cxa2011)]
    pub rules: RuleSet,
    /// When a forbidden repetition ends the game: strict or text.
    #[arg(long, default_value_t = Referee::Strict)]
    pub referee: Referee,
    /// Seed of the directions Δ and of the order of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds forgiven beyond the clock or move time (pipe latency).
    #[arg(long, value_name = "MS", default_value_t = game::params::TOLERANCE.as_millis() as u64)]
    pub tolerance: u64,
    /// Seconds an untimed (depth or nodes) search may take before the engine
    /// counts as hung.
    #[arg(long, value_name = "SECS", default_value_t = params::HANG_TIMEOUT.as_secs_f64())]
    pub hang_timeout: f64,
    /// The run's directory (local run: `plan.json`, the unit files, `state.json`,
    /// `tuned.txt`; run again to resume), or the directory `--unit` writes to.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// `--plan`, `--unit` and `--merge`.
    #[command(flatten)]
    pub units: UnitArgs,
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// Runs `chuhan spsa`. Exit status: 0 done, 1 a game pair could not be played,
/// 2 bad arguments or files, 3 a merge with rounds still to play.
pub fn run(args: &SpsaArgs) -> ExitCode {
    if args.list {
        print!("{}", list());
        return ExitCode::SUCCESS;
    }
    let done = match args.units.mode() {
        Mode::Unit { .. } => return play_unit(args),
        Mode::Merge(dir) => merge_dir(dir),
        Mode::Plan(path) => settings(args)
            .and_then(|(s, o)| write_plan(s, o, path))
            .map(|()| ExitCode::SUCCESS),
        Mode::Local => local(args),
    };
    done.unwrap_or_else(fail)
}

/// The engine's tunables as a parameter file.
fn list() -> String {
    let params: Vec<Parameter> = chuhan_engine::search::tunables::all()
        .iter()
        .map(|t| Parameter {
            name: t.name.to_string(),
            value: f64::from(t.default),
            min: t.min,
            max: t.max,
            c_end: f64::from(t.step),
            r_end: DEFAULT_R_END,
        })
        .collect();
    parameter::write(&params)
}

/// The run's settings and openings from the arguments.
fn settings(args: &SpsaArgs) -> Result<(Settings, Vec<game::opening::Opening>), String> {
    let engine = args.engine.as_deref().ok_or("give --engine")?;
    let engine = engine_arg::parse(engine).map_err(|e| format!("--engine {engine:?}: {e}"))?;
    let path = args.params.as_deref().ok_or("give --params FILE")?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let params = parameter::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let iterations = args.iterations.ok_or("give --iterations N")?;
    let limit = args.limit.limit()?;
    if !(args.hang_timeout.is_finite() && args.hang_timeout > 0.0) {
        return Err("--hang-timeout must be a positive number of seconds".into());
    }
    let openings = match &args.openings {
        Some(path) => openings::load(path).map_err(|e| format!("{}: {e}", path.display()))?,
        None => Vec::new(),
    };
    let settings = Settings {
        engine,
        params,
        iterations,
        pairs_per_round: args.pairs_per_round,
        limit,
        rules: args.rules,
        referee: args.referee,
        adjudication: Adjudication::default(),
        tolerance_ms: args.tolerance,
        hang_timeout_ms: (args.hang_timeout * 1000.0).round() as u64,
        seed: args.seed,
    };
    settings.check().map_err(|e| e.to_string())?;
    Ok((settings, openings))
}

/// `--plan FILE`: round 0 of the run.
fn write_plan(
    settings: Settings,
    openings: Vec<game::opening::Opening>,
    path: &Path,
) -> Result<(), String> {
    let plan = Plan::new(settings, openings).map_err(|e| e.to_string())?;
    plan.write(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "{}: SPSA run {}, {} parameters, {} iterations in {} rounds of up to {} game pairs ({})",
        path.display(),
        plan.run_id,
        plan.settings.params.len(),
        plan.settings.iterations,
        plan.settings.rounds(),
        plan.settings.pairs_per_round,
        plan.settings.limit
    );
    Ok(())
}

/// `--unit PLAN K --out DIR`: plays one game pair. Exit status 0 when its file is
/// written (or was there), 1 when the pair could not be played, 2 bad arguments.
fn play_unit(args: &SpsaArgs) -> ExitCode {
    let (plan, k, dir) = match args.units.open_unit::<Plan>(args.out.as_deref()) {
        Ok(opened) => opened,
        Err(e) => return fail(e),
    };
    match unit::play(&plan, k, &dir, args.concurrency) {
        Ok(played) => {
            let file = plan.unit_path(&dir, k);
            let what = match played {
                Played::Written => "played",
                Played::AlreadyThere => "already played",
            };
            println!(
                "{}: unit {k} of round {} {what}",
                file.display(),
                plan.round
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: unit {k}: {e}");
            ExitCode::from(1)
        }
    }
}

/// A round's line: `round 3/10: k 64/160, chuhan+ 9-5-18 (+4): RfpMargin=121 …`.
fn round_line(settings: &Settings, state: &State) -> String {
    let Some(h) = state.history.last() else {
        return format!(
            "round 0/{}: k 0/{}: {}",
            settings.rounds(),
            settings.iterations,
            state.theta_line(settings)
        );
    };
    format!(
        "round {}/{}: k {}/{}, {}+ {}-{}-{} ({:+}): {}",
        h.round + 1,
        settings.rounds(),
        h.k,
        settings.iterations,
        settings.engine.name,
        h.wld[0],
        h.wld[1],
        h.wld[2],
        h.score,
        state.theta_line(settings)
    )
}

/// Writes `DIR/state.json`.
fn write_state(dir: &Path, state: &State) -> Result<(), String> {
    let path = dir.join(STATE_FILE);
    write_atomic(&path, state.to_json().as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `DIR/tuned.txt`; returns its path.
fn write_tuned(dir: &Path, settings: &Settings, state: &State) -> Result<PathBuf, String> {
    let path = dir.join(TUNED_FILE);
    let text = format!(
        "# chuhan spsa run {}: {} iterations\n{}",
        state.run_id,
        state.k,
        parameter::write(&state.tuned(settings))
    );
    write_atomic(&path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// `--merge DIR`: the state, and the tuned file or the next round's plan.
fn merge_dir(dir: &Path) -> Result<ExitCode, String> {
    let plan_path = dir.join("plan.json");
    let plan = Plan::read(&plan_path).map_err(|e| format!("{}: {e}", plan_path.display()))?;
    let settings = &plan.settings;
    match merge::merge(settings, &plan.openings, dir).map_err(|e| e.to_string())? {
        Merged::Finished(state) => {
            write_state(dir, &state)?;
            let tuned = write_tuned(dir, settings, &state)?;
            // A plan left from the last round would only mislead.
            let _ = std::fs::remove_file(dir.join(NEXT_PLAN));
            let mut shown = state.clone();
            for h in &state.history {
                shown.history = vec![h.clone()];
                shown.theta = h.theta.clone();
                println!("{}", round_line(settings, &shown));
            }
            println!("{}: {}", tuned.display(), state.theta_line(settings));
            Ok(ExitCode::SUCCESS)
        }
        Merged::Next { state, plan, done } => {
            write_state(dir, &state)?;
            let path = dir.join(NEXT_PLAN);
            plan.write(&path)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            println!(
                "{}: round {} of {}: {} game pairs, {done} played; k {}/{}: {}",
                path.display(),
                plan.round + 1,
                settings.rounds(),
                plan.units.len(),
                state.k,
                settings.iterations,
                state.theta_line(settings)
            );
            Ok(ExitCode::from(3))
        }
    }
}

/// The local run: plays and merges round after round in `--out DIR`, resuming
/// from what is there.
fn local(args: &SpsaArgs) -> Result<ExitCode, String> {
    let dir = args
        .out
        .as_deref()
        .ok_or("give --out DIR (or --list, --plan, --unit, --merge)")?;
    if args.concurrency == 0 {
        return Err("--concurrency must be positive".into());
    }
    let kept = dir.join("plan.json");
    let plan = match (Plan::read(&kept), args.engine.is_some()) {
        (Ok(there), false) => there,
        (there, true) => {
            let (settings, openings) = settings(args)?;
            let plan = Plan::new(settings, openings).map_err(|e| e.to_string())?;
            match there {
                Ok(there) if there.run_id != plan.run_id => {
                    return Err(format!(
                        "{} holds SPSA run {} with other settings; use another directory",
                        dir.display(),
                        there.run_id
                    ));
                }
                Ok(there) => there,
                Err(_) => {
                    plan.write(&kept)
                        .map_err(|e| format!("{}: {e}", kept.display()))?;
                    plan
                }
            }
        }
        (Err(e), false) => {
            return Err(format!(
                "give --engine … (no run in {}: {e})",
                dir.display()
            ));
        }
    };
    let settings = &plan.settings;
    let mut notes = BTreeSet::new();
    let mut shown = None;
    loop {
        let merged = merge::merge(settings, &plan.openings, dir).map_err(|e| e.to_string())?;
        let (Merged::Finished(state) | Merged::Next { state, .. }) = &merged;
        write_state(dir, state)?;
        if shown != Some(state.rounds) {
            println!("{}", round_line(settings, state));
            shown = Some(state.rounds);
        }
        let round = match merged {
            Merged::Next { plan, .. } => plan,
            Merged::Finished(state) => {
                let tuned = write_tuned(dir, settings, &state)?;
                println!("{}: {}", tuned.display(), state.theta_line(settings));
                return Ok(ExitCode::SUCCESS);
            }
        };
        if let Err(e) = unit::play_round(&round, dir, args.concurrency, |_| {}) {
            eprintln!("error: round {}: {e}", round.round + 1);
            return Ok(ExitCode::from(1));
        }
        for u in &round.units {
            let path = round.unit_path(dir, u.index);
            if let Ok(r) = UnitResult::read(&path, &*round, u.index) {
                for note in r.body.notes {
                    if notes.insert(note.clone()) {
                        eprintln!("warning: engine {note}");
                    }
                }
            }
        }
    }
}
