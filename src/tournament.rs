//! `chuhan tournament CONFIG [--concurrency C]`: runs (or resumes) the engine
//! tournament a JSON configuration describes (see
//! [`chuhan_arena::tournament::config`]), playing its games with the match runner,
//! and prints the round results, standings and crosstable after every round. The
//! HTML page and the PGN file are rewritten as configured; the results file makes
//! an interrupted event resume where it stopped.

use chuhan_arena::r#match::player::MatchPlayer;
use chuhan_arena::r#match::process::TrafficLog;
use chuhan_arena::tournament::config::TournamentConfig;
use chuhan_arena::tournament::player::PlayerId;
use chuhan_arena::tournament::report::Report;
use chuhan_arena::tournament::results::GameRecord;
use chuhan_arena::tournament::runner::{Progress, Runner};
use chuhan_arena::tournament::standings::Decision;
use chuhan_engine::notation::Notation;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `chuhan tournament`.
#[derive(clap::Args, Debug)]
pub struct TournamentArgs {
    /// The tournament configuration (JSON).
    pub config: PathBuf,
    /// Games played at once (each slot with its own engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Move notation in the PGN records: iccs, wxf, zh or zh-hans.
    #[arg(long, default_value = "iccs")]
    pub pgn_notation: Notation,
    /// Log every line sent to and received from the engines.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

fn game_line(g: &GameRecord, names: &[String]) -> String {
    let name = |p: PlayerId| names.get(p.index()).map_or("?", String::as_str);
    let (result, why) = match g.decision {
        Decision::Played(r) => (
            r.to_string(),
            g.termination.map(|t| t.to_string()).unwrap_or_default(),
        ),
        Decision::Forfeit(a) => ("forfeit".to_string(), format!("{a:?} absent")),
    };
    format!(
        "Game {} ({} vs {}): {result} {{{why}}}",
        g.id(),
        name(g.red),
        name(g.black)
    )
}

/// Runs the event. Exit status: 0 finished, 1 stopped (resumable) or failed, 2 a
/// bad configuration.
pub fn run(args: &TournamentArgs) -> ExitCode {
    let config = match TournamentConfig::load(&args.config) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let log = match &args.log {
        Some(path) => match TrafficLog::create(path) {
            Ok(l) => Some(l),
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let mut runner = match Runner::open(config) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let names: Vec<String> = (0..runner.event().players())
        .map(|i| runner.event().name(PlayerId(i as u16)).to_string())
        .collect();
    let mut players: Vec<MatchPlayer> = (1..=args.concurrency.max(1))
        .map(|slot| MatchPlayer::new(slot, args.pgn_notation, log.clone()))
        .collect();
    let outcome = runner.run(&mut players, |progress| match progress {
        Progress::Paired(r) => {
            let boards: Vec<String> = r
                .boards
                .iter()
                .map(|b| {
                    format!(
                        "{} vs {}",
                        names.get(b.first.index()).map_or("?", String::as_str),
                        names.get(b.second.index()).map_or("?", String::as_str)
                    )
                })
                .collect();
            println!("Round {} paired: {}", r.round, boards.join(", "));
        }
        Progress::Game(g) => println!("{}", game_line(g, &names)),
        Progress::RoundOver { round, event } => {
            println!("\nAfter round {round}:\n{}", Report::new(event));
        }
        Progress::Finished(event) => {
            println!("\nFinal:\n{}", Report::new(event));
        }
    });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
