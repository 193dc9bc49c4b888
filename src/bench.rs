//! `chuhan bench [--depth D] [--threads T] [--hash MB] [--rules R]`: the fixed-depth
//! search of the bench positions; prints the node count (the signature) and the
//! speed.

use chuhan_engine::search::bench;
use chuhan_engine::search::repetition::RepetitionRules;
use std::process::ExitCode;

/// Arguments of `chuhan bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth in plies.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
    pub depth: i32,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Hash size in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Repetition rules: cxa2011 (the default, and the signature), axf, or draw
    /// (every repetition a draw, to measure what the rules cost).
    #[arg(long, default_value_t = RepetitionRules::default())]
    pub rules: RepetitionRules,
    /// Also print the node count and time of each position.
    #[arg(long)]
    pub verbose: bool,
}

/// Runs the bench and prints `Nodes searched: N` and `Nodes/second: N`.
pub fn run(args: &BenchArgs) -> ExitCode {
    if !(1..=64).contains(&args.depth) || args.threads == 0 || args.hash == 0 {
        eprintln!("error: depth must be 1..64, threads and hash at least 1");
        return ExitCode::from(2);
    }
    match bench::run_with(args.depth, args.threads, args.hash, args.rules) {
        Ok(r) => {
            if args.verbose {
                for (i, (fen, n)) in bench::POSITIONS.iter().zip(&r.nodes).enumerate() {
                    println!("{:>2} {:>10}  {fen}", i + 1, n);
                }
            }
            println!("Time: {:.3} s", r.elapsed.as_secs_f64());
            println!("Nodes searched: {}", r.total_nodes);
            println!("Nodes/second: {}", r.nps());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
