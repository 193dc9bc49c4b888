//! `chuhan tune`: Texel tuning of the evaluation weights on game records (see
//! [`chuhan_arena::tune`] for the method).

use chuhan_arena::tune::{self, Sample, TuneConfig};
use chuhan_engine::eval::Weights;
use chuhan_engine::eval::params::{DEFAULT, EvalParams};
use chuhan_engine::notation::{Game, record};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `chuhan tune`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Game records (PGN, XQF...) with results, e.g. from `chuhan match --pgn`, or
    /// labelled-positions files (`FEN;label` lines, Red's expected score).
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// Held-out game records or labelled positions: the error on them is printed
    /// after every pass and the weights of the pass where it was lowest are kept.
    #[arg(long, num_args = 1..)]
    pub validate: Vec<PathBuf>,
    /// Write the quiet positions of the inputs (each FEN once) as `FEN;result`
    /// lines to this file and stop, e.g. to relabel them with
    /// `scripts/fsf_label.py`.
    #[arg(long)]
    pub export: Option<PathBuf>,
    /// Opening plies of every game left out.
    #[arg(long, default_value_t = 10)]
    pub skip_plies: usize,
    /// Step tried on every value.
    #[arg(long, default_value_t = 2)]
    pub step: i32,
    /// Most passes over all values.
    #[arg(long, default_value_t = 10)]
    pub passes: usize,
    /// Tune only the pairs whose name starts with one of these (e.g. `material`);
    /// all of them without it.
    #[arg(long, num_args = 1..)]
    pub only: Vec<String>,
    /// Tune by gradient descent (Adam on each position's evaluation linearised
    /// around the engine's weights) instead of coordinate descent: every pair and
    /// the per-point piece-square corrections (`pst.<kind>.<point>`).
    #[arg(long)]
    pub gradient: bool,
    /// Gradient tuning: epochs (full passes, one Adam step each).
    #[arg(long, default_value_t = 2000)]
    pub epochs: usize,
    /// Gradient tuning: Adam's step size in evaluation units.
    #[arg(long, default_value_t = 0.5)]
    pub rate: f64,
    /// Gradient tuning: L2 pull of each piece-square correction back toward the
    /// engine's value.
    #[arg(long, default_value_t = 1e-7)]
    pub l2: f64,
    /// Gradient tuning: report (and check the held-out positions) every this many
    /// epochs.
    #[arg(long, default_value_t = 100)]
    pub report_every: usize,
    /// Sigmoid scale (fitted to the current weights without it).
    #[arg(long)]
    pub k: Option<f64>,
    /// Write the tuned values into this copy of `crates/engine/src/eval/params.rs` (its `DEFAULT`
    /// literal); without it the values are only printed.
    #[arg(long)]
    pub update: Option<PathBuf>,
}

/// Loads the games, fits the scale, tunes and prints (or writes) the result.
pub fn run(args: &TuneArgs) -> ExitCode {
    for path in args.export.iter().chain(&args.update) {
        if let Err(e) = crate::output::check_writable(path) {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    let Some((games, samples)) = load(&args.games, args.skip_plies) else {
        return ExitCode::from(2);
    };
    let Some((held_out, check)) = load(&args.validate, args.skip_plies) else {
        return ExitCode::from(2);
    };
    println!(
        "games {}, quiet positions {}; held out: games {}, positions {}",
        games,
        samples.len(),
        held_out,
        check.len()
    );
    if let Some(path) = &args.export {
        let mut seen = std::collections::HashSet::new();
        let mut text = String::new();
        for s in &samples {
            if seen.insert(s.pos.to_fen()) {
                text.push_str(&tune::labelled_line(s));
                text.push('\n');
            }
        }
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::from(2);
        }
        println!(
            "wrote {} distinct positions to {}",
            seen.len(),
            path.display()
        );
        return ExitCode::SUCCESS;
    }
    if samples.is_empty() {
        eprintln!("error: no labelled quiet positions");
        return ExitCode::from(2);
    }
    let start = Weights::new(DEFAULT);
    let k = args.k.unwrap_or_else(|| tune::best_k(&samples, &start));
    let cfg = TuneConfig {
        k,
        step: args.step.max(1),
        max_passes: args.passes,
        only: args.only.clone(),
    };
    let check_err = |p: &EvalParams| tune::error(&check, &Weights::new(p.clone()), k);
    let held = |p: &EvalParams| (!check.is_empty()).then(|| check_err(p));
    let show = |e: Option<f64>| e.map_or(String::new(), |e| format!(", held-out error {e:.6}"));
    println!(
        "k {k:.2}, error {:.6}{}",
        tune::error(&samples, &start, k),
        show(held(&DEFAULT))
    );
    if args.gradient {
        let gcfg = tune::GradientConfig {
            k,
            epochs: args.epochs,
            rate: args.rate,
            l2: args.l2,
            only: args.only.clone(),
            report_every: args.report_every,
        };
        let tuned = tune::gradient(&samples, &check, &DEFAULT, &gcfg, |r| {
            println!(
                "epoch {}: model error {:.6}{}",
                r.epoch,
                r.error,
                if check.is_empty() {
                    String::new()
                } else {
                    format!(", held-out model error {:.6}", r.held_out)
                }
            );
        });
        println!(
            "rounded weights: error {:.6}{}",
            tune::error(&samples, &Weights::new(tuned.clone()), k),
            show(held(&tuned))
        );
        print_changes(&tuned);
        return write_update(args, &tuned);
    }
    let mut kept = (check_err(&DEFAULT), 0, DEFAULT);
    let (mut tuned, err) = tune::tune(&samples, &DEFAULT, &cfg, |r, p| {
        let h = held(p);
        println!(
            "pass {}: error {:.6}{}, {} values changed",
            r.pass,
            r.error,
            show(h),
            r.changes
        );
        if let Some(h) = h
            && h < kept.0
        {
            kept = (h, r.pass, p.clone());
        }
    });
    println!("final error {err:.6}");
    if !check.is_empty() {
        println!("kept pass {} (held-out error {:.6})", kept.1, kept.0);
        tuned = kept.2;
    }
    print_changes(&tuned);
    write_update(args, &tuned)
}

/// Writes `tuned` into the `--update` file, if one is given.
fn write_update(args: &TuneArgs, tuned: &EvalParams) -> ExitCode {
    if let Some(path) = &args.update {
        let written = std::fs::read_to_string(path).and_then(|src| {
            let out = tune::rewrite_params_source(&src, tuned).ok_or_else(|| {
                std::io::Error::other("no `pub const DEFAULT: EvalParams` literal found")
            })?;
            std::fs::write(path, out)
        });
        if let Err(e) = written {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::from(2);
        }
        println!("wrote {} (run cargo fmt)", path.display());
    }
    ExitCode::SUCCESS
}

/// Reads every input of `paths`: the number of games read and the labelled quiet
/// positions (of the games, after `skip_plies`, and of the labelled-positions
/// files); `None` (after saying why) if a file is unreadable.
fn load(paths: &[PathBuf], skip_plies: usize) -> Option<(usize, Vec<Sample>)> {
    let mut games: Vec<Game> = Vec::new();
    let mut samples = Vec::new();
    for path in paths {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return None;
            }
        };
        let text = String::from_utf8_lossy(&bytes);
        if tune::is_labelled(&text) {
            match tune::parse_labelled(&text) {
                Ok(s) => samples.extend(s),
                Err(e) => {
                    eprintln!("error: {}: {e}", path.display());
                    return None;
                }
            }
            continue;
        }
        let mut bad = 0;
        for g in record::read_all(&bytes) {
            match g {
                Ok(g) => games.push(g),
                Err(_) => bad += 1,
            }
        }
        if bad > 0 {
            eprintln!(
                "warning: {}: {bad} unreadable games skipped",
                path.display()
            );
        }
    }
    samples.extend(tune::samples(&games, skip_plies));
    Some((games.len(), samples))
}

/// Prints every value that differs from the engine's weights.
fn print_changes(tuned: &EvalParams) {
    let mut old = DEFAULT;
    let mut new = tuned.clone();
    for ((name, a), (_, b)) in old.all_entries_mut().into_iter().zip(new.all_entries_mut()) {
        if a != b {
            println!("{name}: s({}, {}) -> s({}, {})", a.mg, a.eg, b.mg, b.eg);
        }
    }
}
