//! `chuhan-fuzz`: runs the fuzz harness ([`chuhan_fuzz`]) and reports inputs,
//! inputs/s, crashes, hangs and peak memory per target. Exit status 1 when any
//! input crashed or hung (each saved under `--save DIR`).

use chuhan_fuzz::{Target, fuzz, peak_memory_kib};
use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Fuzz Chuhan's parsers on stable Rust.
#[derive(Parser, Debug)]
#[command(name = "chuhan-fuzz")]
struct Args {
    /// Inputs in all, shared equally among the targets.
    #[arg(long, default_value_t = 10_000_000)]
    inputs: u64,
    /// Seed of the run (input K of a target is the same for the same seed).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Only these targets (default: all): protocol, fen, move-text, pgn, xqf,
    /// ccbridge, own-book, eleeye-book, book-text, tournament-config, record.
    #[arg(long = "target", value_parser = parse_target)]
    targets: Vec<Target>,
    /// An input running longer than this many milliseconds is a hang.
    #[arg(long, default_value_t = 2000)]
    hang_ms: u64,
    /// Write crashing and hanging inputs into this directory.
    #[arg(long)]
    save: Option<PathBuf>,
}

fn parse_target(s: &str) -> Result<Target, String> {
    Target::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
        format!("unknown target {s:?}; targets: {}", names.join(", "))
    })
}

fn main() -> ExitCode {
    let args = Args::parse();
    let targets = if args.targets.is_empty() {
        Target::ALL.to_vec()
    } else {
        args.targets.clone()
    };
    let per_target = args.inputs / targets.len() as u64;
    let started = Instant::now();
    let (mut inputs, mut crashes, mut hangs) = (0u64, 0usize, 0usize);
    println!(
        "{:<18} {:>10} {:>10} {:>8} {:>6}",
        "target", "inputs", "inputs/s", "crashes", "hangs"
    );
    for t in targets {
        let r = fuzz(
            t,
            per_target,
            args.seed,
            Some(Duration::from_millis(args.hang_ms)),
        );
        println!(
            "{:<18} {:>10} {:>10.0} {:>8} {:>6}",
            t.name(),
            r.inputs,
            r.rate(),
            r.crashes.len(),
            usize::from(r.hang.is_some())
        );
        let findings = r
            .crashes
            .iter()
            .map(|f| ("crash", f))
            .chain(r.hang.iter().map(|f| ("hang", f)));
        for (i, (kind, f)) in findings.enumerate() {
            println!("  {kind}: {}", f.message.lines().next().unwrap_or(""));
            if let Some(dir) = &args.save {
                let path = dir.join(format!("{}-{kind}-{i}.bin", t.name()));
                if let Err(e) =
                    std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, &f.input))
                {
                    eprintln!("error: {}: {e}", path.display());
                } else {
                    println!("  saved {}", path.display());
                }
            }
        }
        inputs += r.inputs;
        crashes += r.crashes.len();
        hangs += usize::from(r.hang.is_some());
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "total: {inputs} inputs in {secs:.0} s ({:.0}/s), {crashes} crashes, {hangs} hangs, peak memory {}",
        inputs as f64 / secs.max(1e-9),
        peak_memory_kib().map_or("unknown".into(), |k| format!("{} MiB", k / 1024))
    );
    if crashes + hangs > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
