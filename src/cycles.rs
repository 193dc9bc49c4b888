//! `chuhan cycles [--seed S] [--games N] [--first I]`: generated repetition games
//! (random few-piece positions, both sides walking loops of 4, 6 or 8 plies, to the
//! first third occurrence), each with Chuhan's AXF and CXA 2011 rulings, as one line
//! of JSON per game — the input of the differential test against Fairy-Stockfish
//! (`make rules-diff`, `tests/rules_diff/compare.py`). See [`chuhan_arena::cycles`].

use chuhan_arena::cycles::generate;
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `chuhan cycles`.
#[derive(clap::Args, Debug)]
pub struct CyclesArgs {
    /// Run seed: game `i` of a seed is the same on every machine.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games to generate.
    #[arg(long, default_value_t = 300)]
    pub games: u64,
    /// Index of the first game.
    #[arg(long, default_value_t = 0)]
    pub first: u64,
}

/// Runs `chuhan cycles`.
pub fn run(args: &CyclesArgs) -> ExitCode {
    let mut out = std::io::stdout().lock();
    for i in args.first..args.first.saturating_add(args.games) {
        let g = generate(args.seed, i);
        let line = serde_json::to_string(&g).expect("a generated game serialises");
        if writeln!(out, "{line}").is_err() {
            // The reader went away (a closed pipe): nothing more to say.
            return ExitCode::SUCCESS;
        }
    }
    ExitCode::SUCCESS
}
