//! `chuhan tournament CONFIG [--concurrency C]`: runs (or resumes) the engine
//! tournament a JSON configuration describes (see
//! [`chuhan_arena::tournament::config`]), playing its games with the match runner,
//! and prints the round results, standings and crosstable after every round. The
//! HTML page and the PGN file are rewritten as configured; the results file makes
//! an interrupted event resume where it stopped.
//!
//! The same event as work units, for a cluster (`crates/arena/ray/`):
//!
//! ```text
//! chuhan tournament cup.json --plan plan.json         # pair round 1; its games as units
//! chuhan tournament --unit plan.json 3 --out results/ # anywhere, any number of times
//! chuhan tournament --merge results/                   # record them; results/next.json
//! ```

use crate::unit_args::{Mode, UnitArgs};
use chuhan_arena::r#match::player::MatchPlayer;
use chuhan_arena::r#match::process::TrafficLog;
use chuhan_arena::r#match::referee::today;
use chuhan_arena::tournament::config::TournamentConfig;
use chuhan_arena::tournament::event::Event;
use chuhan_arena::tournament::plan::{Plan, PlanFile};
use chuhan_arena::tournament::player::PlayerId;
use chuhan_arena::tournament::report::Report;
use chuhan_arena::tournament::results::GameRecord;
use chuhan_arena::tournament::runner::{Progress, Runner};
use chuhan_arena::tournament::standings::Decision;
use chuhan_arena::tournament::unit_result::{self, Merged, Played};
use chuhan_engine::notation::Notation;
use chuhan_engine::rules::Referee;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `chuhan tournament`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("mode").args(["plan", "unit", "merge"])))]
pub struct TournamentArgs {
    /// The tournament configuration (JSON).
    #[arg(required_unless_present_any = ["unit", "merge"], conflicts_with_all = ["unit", "merge"])]
    pub config: Option<PathBuf>,
    /// Games played at once (each slot with its own engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Move notation in the PGN records: iccs, wxf, zh or zh-hans.
    #[arg(long, default_value = "iccs")]
    pub pgn_notation: Notation,
    /// Log every line sent to and received from the engines.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// When a forbidden repetition ends the game: strict (the violator loses at
    /// the third occurrence, whoever moved last: how GUIs and match tools rule) or
    /// text (the violator is told to vary and loses when it completes the cycle).
    /// Default strict; given, it replaces the configuration's "referee".
    #[arg(long, value_name = "REFEREE", conflicts_with_all = ["unit", "merge"])]
    pub referee: Option<Referee>,
    /// `--plan`, `--unit` and `--merge`.
    #[command(flatten)]
    pub units: UnitArgs,
    /// Games per work unit of --plan (and of the plans --merge makes).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub games_per_unit: u32,
    /// The directory --unit writes to (it keeps a copy of the plan as `plan.json`).
    #[arg(long, value_name = "DIR", requires = "unit")]
    pub out: Option<PathBuf>,
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

/// Prints what a run shows: pairings, games, the report after each round and at
/// the end.
fn show(progress: Progress<'_>, names: &[String]) {
    let name = |p: PlayerId| names.get(p.index()).map_or("?", String::as_str);
    match progress {
        Progress::Paired(r) => {
            let boards: Vec<String> = r
                .boards
                .iter()
                .map(|b| format!("{} vs {}", name(b.first), name(b.second)))
                .collect();
            println!("Round {} paired: {}", r.round, boards.join(", "));
        }
        Progress::Game(g) => println!("{}", game_line(g, names)),
        Progress::RoundOver { round, event } => {
            println!("\nAfter round {round}:\n{}", Report::new(event));
        }
        Progress::Finished(event) => {
            println!("\nFinal:\n{}", Report::new(event));
        }
    }
}

/// The player names of an event, by starting number.
fn names(config: &TournamentConfig) -> Result<Vec<String>, String> {
    let event = Event::new(config.clone()).map_err(|e| e.to_string())?;
    Ok(event.ids().map(|p| event.name(p).to_string()).collect())
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

/// Runs the event. Exit status: 0 finished, 1 stopped (resumable) or failed, 2 a
/// bad configuration; with --merge, 3 games still to play.
pub fn run(args: &TournamentArgs) -> ExitCode {
    let mode = args.units.mode();
    match mode {
        Mode::Unit { .. } => return play_unit(args),
        Mode::Merge(dir) => return merge(dir),
        Mode::Plan(_) | Mode::Local => {}
    }
    let Some(path) = &args.config else {
        return fail("give the configuration file");
    };
    let mut config = match TournamentConfig::load(path) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    if let Some(referee) = args.referee {
        config.referee = referee;
    }
    if let Mode::Plan(plan) = mode {
        return write_plan(config, args, plan);
    }
    let log = match &args.log {
        Some(path) => match TrafficLog::create(path) {
            Ok(l) => Some(l),
            Err(e) => return fail(format!("{}: {e}", path.display())),
        },
        None => None,
    };
    let mut runner = match Runner::open(config) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let names: Vec<String> = (0..runner.event().players())
        .map(|i| runner.event().name(PlayerId(i as u16)).to_string())
        .collect();
    let mut players: Vec<MatchPlayer> = (1..=args.concurrency.max(1))
        .map(|slot| MatchPlayer::new(slot, args.pgn_notation, log.clone()))
        .collect();
    match runner.run(&mut players, |p| show(p, &names)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// `CONFIG --plan FILE`: records what is due (pairing, forfeits) and writes the
/// games to play as units. Output paths in the plan are made absolute: the merge
/// writes there.
fn write_plan(mut config: TournamentConfig, args: &TournamentArgs, path: &Path) -> ExitCode {
    let out = &mut config.output;
    for p in [Some(&mut out.results), out.html.as_mut(), out.pgn.as_mut()]
        .into_iter()
        .flatten()
    {
        match std::path::absolute(&*p) {
            Ok(abs) => *p = abs,
            Err(e) => return fail(format!("{}: {e}", p.display())),
        }
    }
    let names = match names(&config) {
        Ok(n) => n,
        Err(e) => return fail(e),
    };
    let settings = (args.games_per_unit, today(), args.pgn_notation);
    match unit_result::merge(&config, None, (settings.0, &settings.1, settings.2), |p| {
        show(p, &names)
    }) {
        Ok(Merged::Finished) => {
            println!("the event is over: no games to plan");
            ExitCode::SUCCESS
        }
        Ok(Merged::Next(plan)) => match plan.write(path) {
            Ok(()) => {
                println!("{}", plan_line(path, &plan));
                ExitCode::SUCCESS
            }
            Err(e) => fail(format!("{}: {e}", path.display())),
        },
        Err(e) => fail(e),
    }
}

/// `plan.json: plan 5e21…, round 2: 4 games in 2 units`.
fn plan_line(path: &Path, plan: &Plan) -> String {
    let games = plan.games();
    let units = plan.units.len();
    format!(
        "{}: plan {}, round {}: {games} game{} in {units} unit{}",
        path.display(),
        plan.plan_id,
        plan.round,
        if games == 1 { "" } else { "s" },
        if units == 1 { "" } else { "s" },
    )
}

/// `--unit PLAN K --out DIR`: plays one unit. Exit status 0 when its file is
/// written (or was there), 1 when the unit could not be finished, 2 bad arguments.
fn play_unit(args: &TournamentArgs) -> ExitCode {
    let (plan, k, dir) = match args.units.open_unit::<Plan>(args.out.as_deref()) {
        Ok(opened) => opened,
        Err(e) => return fail(e),
    };
    let dir = dir.as_path();
    let log = match &args.log {
        Some(path) => match TrafficLog::create(path) {
            Ok(l) => Some(l),
            Err(e) => return fail(format!("{}: {e}", path.display())),
        },
        None => None,
    };
    let file = dir.join(unit_result::file_name(&plan.plan_id, k));
    let mut player = MatchPlayer::new(1, plan.notation(), log).with_date(plan.date.clone());
    match unit_result::play(&plan, k, dir, &mut player) {
        Ok(Played::Written) => {
            println!("{}: unit {k} played", file.display());
            ExitCode::SUCCESS
        }
        Ok(Played::AlreadyThere) => {
            println!("{}: unit {k} already played", file.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: unit {k}: {e}");
            ExitCode::from(1)
        }
    }
}

/// `--merge DIR`: records the units' games into the event of DIR's plan.json and
/// goes on; writes DIR/next.json when games remain (exit status 3).
fn merge(dir: &Path) -> ExitCode {
    let plan_path = dir.join("plan.json");
    let plan = match Plan::read(&plan_path) {
        Ok(p) => p,
        Err(e) => return fail(format!("{}: {e}", plan_path.display())),
    };
    let names = match names(&plan.config) {
        Ok(n) => n,
        Err(e) => return fail(e),
    };
    let date = today();
    let settings = (plan.games_per_unit, date.as_str(), plan.notation());
    let next_path = dir.join(unit_result::NEXT_PLAN);
    match unit_result::merge(&plan.config, Some(dir), settings, |p| show(p, &names)) {
        Ok(Merged::Finished) => {
            let _ = std::fs::remove_file(&next_path);
            ExitCode::SUCCESS
        }
        Ok(Merged::Next(next)) => match next.write(&next_path) {
            Ok(()) => {
                println!("{}", plan_line(&next_path, &next));
                ExitCode::from(3)
            }
            Err(e) => fail(format!("{}: {e}", next_path.display())),
        },
        Err(e) => fail(e),
    }
}
