//! `chuhan datagen`: self-play training data for the neural evaluation (see
//! [`chuhan_arena::datagen`] and `docs/datagen-format.md`).
//!
//! ```text
//! chuhan datagen --out data/gen0 --games 20000 --nodes 5000 --random-plies 8 \
//!     --openings books/openings-600.txt            # play (or resume) a run
//! chuhan datagen --games 20000 … --plan plan.json   # only write the units as JSON
//! chuhan datagen --unit plan.json 17 --out DIR      # play unit 17 of a plan
//! chuhan datagen --stats data/gen0                  # what a directory holds
//! ```

use crate::hms::hms;
use crate::unit_args::{Mode, UnitArgs};
use chuhan_arena::datagen::filter::Filters;
use chuhan_arena::datagen::plan::{Plan, PlanFile, SearchLimit, Settings};
use chuhan_arena::datagen::runner::{self, Note, Progress};
use chuhan_arena::datagen::stats::Stats;
use chuhan_arena::r#match::adjudication::{DrawRule, ResignRule};
use chuhan_arena::r#match::openings;
use chuhan_engine::rules::RuleSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Arguments of `chuhan datagen`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("mode").args(["plan", "unit", "merge", "stats"])))]
#[command(group(clap::ArgGroup::new("limit").args(["nodes", "depth"])))]
pub struct DatagenArgs {
    /// Directory of the unit files (`unit-K.bin`) and the run's `plan.json`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Games in the run (raising it later extends the same run).
    #[arg(long, default_value_t = 1_000)]
    pub games: u64,
    /// Games per work unit.
    #[arg(long, default_value_t = 64)]
    pub games_per_unit: u32,
    /// Nodes per move (one search thread) [default: 5000].
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Fixed depth per move instead of nodes.
    #[arg(long, value_name = "D")]
    pub depth: Option<i32>,
    /// Random moves after the opening's moves.
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Opening suite (FEN/EPD lines, move sequences, PGN or XQF), cycled through by
    /// game index; the start position without it.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Run seed (random plies).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once, each by a one-thread engine (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub concurrency: usize,
    /// Hash table of each game's engine, MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Rules games are judged and searched by: cxa2011 or axf.
    #[arg(long, default_value_t = RuleSet::Cxa2011)]
    pub rules: RuleSet,
    /// Resign adjudication: `moves=N score=S` (a side loses when its last N scores
    /// were ≤ −S and its opponent's ≥ S).
    #[arg(long, num_args = 1..=2, value_name = "KEY=VALUE",
          default_values_t = ["moves=4".to_string(), "score=1000".to_string()])]
    pub resign: Vec<String>,
    /// No resign adjudication.
    #[arg(long)]
    pub no_resign: bool,
    /// Draw adjudication: `moves=N score=S after=M` (from move M, drawn when both
    /// sides' last N scores were within ±S).
    #[arg(long, num_args = 1..=3, value_name = "KEY=VALUE",
          default_values_t = ["moves=10".to_string(), "score=10".to_string(), "after=50".to_string()])]
    pub draw: Vec<String>,
    /// No draw adjudication.
    #[arg(long)]
    pub no_draw: bool,
    /// A game still going after this many plies is drawn.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Drop positions whose absolute score is above this (centipawns; mates
    /// always are).
    #[arg(long, default_value_t = 3_000)]
    pub max_score: i32,
    /// Keep positions where the side to move is in check.
    #[arg(long)]
    pub keep_in_check: bool,
    /// Keep positions whose best move is a capture.
    #[arg(long)]
    pub keep_capture_best: bool,
    /// Keep positions reached by a capture.
    #[arg(long)]
    pub keep_after_capture: bool,
    /// `--plan`, `--unit` and `--merge`.
    #[command(flatten)]
    pub units: UnitArgs,
    /// Print what the unit files of these directories hold (`--merge DIR` prints
    /// the same for one directory).
    #[arg(long, num_args = 1.., value_name = "DIR")]
    pub stats: Vec<PathBuf>,
}

/// Runs `chuhan datagen`.
pub fn run(args: &DatagenArgs) -> ExitCode {
    match dispatch(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn dispatch(args: &DatagenArgs) -> Result<(), String> {
    if !args.stats.is_empty() {
        return stats(&args.stats);
    }
    let mode = args.units.mode();
    match mode {
        Mode::Unit { .. } => {
            let (plan, k, out) = args.units.open_unit::<Plan>(args.out.as_deref())?;
            return play(&plan, &[k], &out, args.concurrency);
        }
        Mode::Merge(dir) => return stats(&[dir.to_path_buf()]),
        Mode::Plan(_) | Mode::Local => {}
    }
    let plan = make_plan(args)?;
    if let Mode::Plan(path) = mode {
        plan.write(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        println!(
            "{}: run {} with {} units of up to {} games ({} games, {}, {} random plies)",
            path.display(),
            plan.run_id,
            plan.units.len(),
            plan.settings.games_per_unit,
            plan.settings.games,
            plan.settings.limit,
            plan.settings.random_plies
        );
        return Ok(());
    }
    let out = args
        .out
        .as_ref()
        .ok_or("give --out DIR (or --plan FILE, --unit PLAN K, --stats DIR)")?;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let plan_path = out.join("plan.json");
    if plan_path.exists() {
        match Plan::read(&plan_path) {
            Ok(old) if old.run_id != plan.run_id => {
                return Err(format!(
                    "{} holds run {} made with other settings; use another directory",
                    out.display(),
                    old.run_id
                ));
            }
            _ => {}
        }
    }
    plan.write(&plan_path)
        .map_err(|e| format!("{}: {e}", plan_path.display()))?;
    let all: Vec<u32> = plan.units.iter().map(|u| u.index).collect();
    play(&plan, &all, out, args.concurrency)
}

fn make_plan(args: &DatagenArgs) -> Result<Plan, String> {
    let openings = match &args.openings {
        Some(p) => openings::load(p).map_err(|e| format!("{}: {e}", p.display()))?,
        None => Vec::new(),
    };
    let limit = match (args.nodes, args.depth) {
        (_, Some(d)) => SearchLimit::Depth(d),
        (n, None) => SearchLimit::Nodes(n.unwrap_or(5_000)),
    };
    let resign = (!args.no_resign)
        .then(|| args.resign.join(" ").parse::<ResignRule>())
        .transpose()
        .map_err(|e| format!("--resign: {e}"))?;
    let draw = (!args.no_draw)
        .then(|| args.draw.join(" ").parse::<DrawRule>())
        .transpose()
        .map_err(|e| format!("--draw: {e}"))?;
    let settings = Settings {
        seed: args.seed,
        games: args.games,
        games_per_unit: args.games_per_unit,
        limit,
        random_plies: args.random_plies,
        hash_mb: args.hash,
        rules: args.rules,
        resign,
        draw,
        max_plies: args.max_plies,
        filters: Filters {
            skip_in_check: !args.keep_in_check,
            skip_capture_best: !args.keep_capture_best,
            skip_after_capture: !args.keep_after_capture,
            max_score: args.max_score,
        },
    };
    Plan::new(settings, openings).map_err(|e| e.to_string())
}

fn play(plan: &Plan, units: &[u32], out: &Path, concurrency: usize) -> Result<(), String> {
    let threads = if concurrency == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        concurrency
    };
    eprintln!(
        "datagen: run {}, {} unit(s) into {}, {} games at once, {}, {} random plies",
        plan.run_id,
        units.len(),
        out.display(),
        threads,
        plan.settings.limit,
        plan.settings.random_plies
    );
    let started = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let every = if terminal {
        Duration::from_millis(500)
    } else {
        Duration::from_secs(60)
    };
    let mut last: Option<Instant> = None;
    let report = |p: &Progress| {
        let now = Instant::now();
        let done = p.games_done == p.games_total;
        if !done && last.is_some_and(|t| now - t < every) {
            return;
        }
        last = Some(now);
        let secs = started.elapsed().as_secs_f64().max(1e-3);
        let kept_rate = p.kept as f64 / secs;
        let eta = if p.games_done == 0 {
            "?".to_string()
        } else {
            let per = secs / p.games_done as f64;
            hms(Duration::from_secs_f64(
                per * (p.games_total - p.games_done) as f64,
            ))
        };
        let width = 20usize;
        let filled = (p.games_done * width as u64)
            .checked_div(p.games_total)
            .unwrap_or(width as u64) as usize;
        let line = format!(
            "[{}{}] games {}/{} | units {}+{}/{} | positions {} written, {:.0}/s | {:.0} knps | {} elapsed, ETA {eta}",
            "#".repeat(filled),
            "-".repeat(width - filled),
            p.games_done,
            p.games_total,
            p.units_skipped,
            p.units_written,
            p.units_total,
            p.written,
            kept_rate,
            p.nodes as f64 / secs / 1000.0,
            hms(started.elapsed()),
        );
        if terminal {
            eprint!("\r{line}\x1b[K");
            if done {
                eprintln!();
            }
        } else {
            eprintln!("{line}");
        }
    };
    let note = |n: &Note| match n {
        Note::Replaying(p, why) => eprintln!("\n{}: {why}; playing it again", p.display()),
        Note::Written(_) => {}
    };
    let p = runner::run(plan, units, out, threads, report, note).map_err(|e| e.to_string())?;
    println!(
        "{}: {} units written, {} already there; {} games, {} positions searched, {} records \
         written in all; {}",
        out.display(),
        p.units_written,
        p.units_skipped,
        p.games_done,
        p.searched,
        p.written,
        hms(started.elapsed())
    );
    Ok(())
}

fn stats(dirs: &[PathBuf]) -> Result<(), String> {
    let mut all = Stats::default();
    for d in dirs {
        let s = Stats::of_dir(d).map_err(|e| format!("{}: {e}", d.display()))?;
        if dirs.len() > 1 {
            println!("== {}", d.display());
            print!("{s}");
        }
        all.merge(&s);
    }
    if dirs.len() > 1 {
        println!("== all");
    }
    print!("{all}");
    Ok(())
}
