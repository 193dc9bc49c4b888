//! `chuhan suite`: makes a balanced opening suite for engine matches with Chuhan's
//! own analysis (see [`chuhan_arena::suite`] for the method) and writes it in the
//! line format `chuhan match --openings` reads.

use chuhan_arena::suite::{self, Progress, SuiteConfig};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `chuhan suite`.
#[derive(clap::Args, Debug)]
pub struct SuiteArgs {
    /// Number of openings.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Shortest line in plies.
    #[arg(long, default_value_t = 6)]
    pub min_plies: usize,
    /// Longest line in plies.
    #[arg(long, default_value_t = 10)]
    pub max_plies: usize,
    /// Depth of the multi-PV search choosing the candidate moves at each ply.
    #[arg(long, default_value_t = 8)]
    pub select_depth: i32,
    /// Candidate moves are those within this many centipawns of the best.
    #[arg(long, default_value_t = 30)]
    pub select_margin: i32,
    /// Depth of the search scoring the end position.
    #[arg(long, default_value_t = 12)]
    pub leaf_depth: i32,
    /// Keep end positions scored within ±this many centipawns.
    #[arg(long, default_value_t = 50)]
    pub balance: i32,
    /// Seed of the random walks.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Give up after this many walks.
    #[arg(long, default_value_t = 5_000)]
    pub max_walks: usize,
    /// Output file (standard output without it).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Makes the suite and writes it, one ICCS line per opening with its score as a
/// comment, under a header that records the command's settings.
pub fn run(args: &SuiteArgs) -> ExitCode {
    let cfg = SuiteConfig {
        count: args.count,
        min_plies: args.min_plies,
        max_plies: args.max_plies,
        select_depth: args.select_depth,
        select_margin: args.select_margin,
        leaf_depth: args.leaf_depth,
        balance: args.balance,
        seed: args.seed,
        max_walks: args.max_walks,
        ..SuiteConfig::default()
    };
    if let Some(Err(e)) = args.out.as_deref().map(crate::output::check_writable) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let result = suite::generate(&cfg, |p| {
        let Progress::Walk { walks, kept, line } = p;
        if let Some(l) = line {
            let moves: Vec<String> = l.moves.iter().map(|m| m.to_string()).collect();
            eprintln!(
                "walk {walks}: kept {kept}: {} ({:+})",
                moves.join(" "),
                l.red_score
            );
        }
    });
    let lines = match result {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut text = format!(
        "# Chuhan opening suite: {} openings made by `chuhan suite --count {} --min-plies {} \
         --max-plies {} --select-depth {} --select-margin {} --leaf-depth {} --balance {} \
         --seed {}` (Chuhan {}).\n# Each line: ICCS moves from the start position # the end \
         position's score at depth {}, Red's view.\n",
        lines.len(),
        cfg.count,
        cfg.min_plies,
        cfg.max_plies,
        cfg.select_depth,
        cfg.select_margin,
        cfg.leaf_depth,
        cfg.balance,
        cfg.seed,
        env!("CARGO_PKG_VERSION"),
        cfg.leaf_depth,
    );
    for l in &lines {
        let moves: Vec<String> = l.moves.iter().map(|m| m.to_string()).collect();
        text.push_str(&format!("{}  # {:+}\n", moves.join(" "), l.red_score));
    }
    let written = match &args.out {
        Some(path) => std::fs::write(path, &text),
        None => std::io::stdout().write_all(text.as_bytes()),
    };
    if let Err(e) = written {
        match &args.out {
            Some(path) => eprintln!("error: {}: {e}", path.display()),
            None => eprintln!("error: standard output: {e}"),
        }
        return ExitCode::from(2);
    }
    if lines.len() < cfg.count {
        eprintln!(
            "warning: only {} of {} openings after {} walks",
            lines.len(),
            cfg.count,
            cfg.max_walks
        );
    }
    ExitCode::SUCCESS
}
