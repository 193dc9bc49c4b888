//! `chuhan judge [--fen FEN] [--moves "m1 m2 …"] [--rules cxa2011|axf] [--json]`:
//! rules on a game — status, winner, the latest three-fold repetition with every
//! cycle move classified (將/殺/捉/閒) and the articles applied, and a verdict
//! (`none`/`draw`/`ban`) for each legal move of the side to move.

use crate::rules::{RuleSet, judge};
use std::process::ExitCode;

/// Arguments of `chuhan judge`.
#[derive(clap::Args, Debug)]
pub struct JudgeArgs {
    /// Starting position in FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// The moves played from it, ICCS, separated by spaces.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Rule set: cxa2011 (the Chinese Xiangqi Association's 2011 rules) or axf.
    #[arg(long, default_value_t = RuleSet::Cxa2011)]
    pub rules: RuleSet,
    /// Print the ruling as one line of JSON instead of a readable report.
    #[arg(long)]
    pub json: bool,
}

/// Judges the game and prints the ruling. An invalid FEN or an illegal move prints
/// `{"error": "…", "ply": N}` and exits with code 2.
pub fn run(args: &JudgeArgs) -> ExitCode {
    let moves: Vec<&str> = args.moves.split_whitespace().collect();
    match judge(args.fen.as_deref(), &moves, args.rules) {
        Ok(j) => {
            if args.json {
                println!("{}", j.to_json_line());
            } else {
                for line in j.report_lines() {
                    println!("{line}");
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{}", e.to_json_line());
            if !args.json {
                eprintln!("error: {e}");
            }
            ExitCode::from(2)
        }
    }
}
