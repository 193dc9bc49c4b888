//! The `chuhan` binary: with no arguments, the UCCI/UCI daemon; with a subcommand,
//! a tool (perft, ...).

use chuhan::core::{Position, perft};
use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "chuhan", version, about = "Chuhan (楚漢), a xiangqi engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the legal move tree.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Worker threads (root moves are split between them).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => ExitCode::SUCCESS,
        Some(Command::Perft { depth, fen, divide, threads }) => {
            let pos = match fen.as_deref().map(Position::from_fen).unwrap_or_else(|| Ok(Position::startpos())) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            let start = Instant::now();
            let nodes = if divide || threads > 1 {
                let rows = perft::divide_parallel(&pos, depth, threads);
                if divide {
                    for (m, n) in &rows {
                        println!("{m}: {n}");
                    }
                }
                rows.iter().map(|r| r.1).sum()
            } else {
                perft::perft(&mut pos.clone(), depth)
            };
            let secs = start.elapsed().as_secs_f64();
            println!("Nodes searched: {nodes}");
            println!("Time: {:.3} s, {:.1} M nodes/s", secs, nodes as f64 / secs.max(1e-9) / 1e6);
            ExitCode::SUCCESS
        }
    }
}
