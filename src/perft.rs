//! `chuhan perft DEPTH [--fen FEN] [--divide] [--threads N]`.

use chuhan_engine::core::{Position, perft};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `chuhan perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Position in FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print `move: count` for each root move.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads; root moves are shared out between them.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Runs perft and prints the node count, the time and the speed.
pub fn run(args: &PerftArgs) -> ExitCode {
    let pos = match &args.fen {
        None => Position::startpos(),
        Some(fen) => match crate::position_arg::read(fen, chuhan_engine::core::Validation::Lenient)
        {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let start = Instant::now();
    let nodes = if args.divide || args.threads > 1 {
        let rows = perft::divide_parallel(&pos, args.depth, args.threads);
        if args.divide {
            for (m, n) in &rows {
                println!("{m}: {n}");
            }
            println!();
        }
        rows.iter().map(|r| r.1).sum()
    } else {
        perft::perft(&mut pos.clone(), args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {nodes}");
    println!("Time: {:.3} s", secs);
    println!("Nodes/second: {:.0}", nodes as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}
