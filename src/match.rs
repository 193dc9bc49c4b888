//! `chuhan match`: engines against each other, refereed by Chuhan's rules.
//!
//! ```text
//! chuhan match --engine "./chuhan name=New" --engine "./chuhan-old name=Old" \
//!     --games 200 --tc 10+0.1 --concurrency 2 --openings books/openings.txt \
//!     --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 --pgn new-vs-old.pgn
//! ```
//!
//! Live lines per game (`Finished game 7 (New vs Old): 1-0 {Red mates}` and the
//! running score), then a summary that ends with `Score of A vs B: W - L - D` and
//! the Elo line. More than two engines play a round robin and get a standings
//! table. See the module `chuhan_arena::r#match` and `--help` for every option.
//!
//! The same match as deterministic work units, for a cluster (`crates/arena/ray/`):
//!
//! ```text
//! chuhan match --engine … --engine … --games 40 --depth 3 --plan plan.json
//! chuhan match --unit plan.json 7 --out results/      # anywhere, any number of times
//! chuhan match --merge results/ --pgn all.pgn         # the summary of a local match
//! ```

use crate::limit_args::LimitArgs;
use crate::unit_args::{Mode, UnitArgs};
use chuhan_arena::game;
use chuhan_arena::r#match::adjudication::{Adjudication, DrawRule, ResignRule};
use chuhan_arena::r#match::client::Timeouts;
use chuhan_arena::r#match::plan::{Plan, PlanFile, UnitPlan};
use chuhan_arena::r#match::process::TrafficLog;
use chuhan_arena::r#match::referee;
use chuhan_arena::r#match::referee::Fault;
use chuhan_arena::r#match::runner::{self, MatchConfig, MatchEvent, Summary};
use chuhan_arena::r#match::sprt::{Sprt, SprtState};
use chuhan_arena::r#match::stats::{EloEstimate, Tally, los};
use chuhan_arena::r#match::unit_result::{self, Played};
use chuhan_arena::r#match::{engine_arg, openings, params};
use chuhan_engine::notation::{Game, Notation, pgn};
use chuhan_engine::rules::{Referee, RuleSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `chuhan match`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("mode").args(["plan", "unit", "merge"])))]
pub struct MatchArgs {
    /// An engine: a shell command line with optional settings `cmd=… name=…
    /// proto=auto|ucci|uci ranks=auto|0|1 option.NAME=VALUE` (quote words with
    /// spaces). Give it twice for a match, more often for a round robin.
    #[arg(long = "engine", value_name = "CMD", required_unless_present_any = ["unit", "merge"])]
    pub engines: Vec<String>,
    /// Games per pairing (each opening is played with both colours).
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    #[command(flatten)]
    pub limit: LimitArgs,
    /// Games played at once (each with its own engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Opening suite: FEN/EPD lines, move sequences, PGN or XQF.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Rules the games are judged by: cxa2011 or axf.
    #[arg(long, default_value_t = RuleSet::Cxa2011)]
    pub rules: RuleSet,
    /// When a forbidden repetition ends the game: strict (the violator loses at
    /// the third occurrence, whoever moved last: how GUIs and match tools rule) or
    /// text (the violator is told to vary and loses when it completes the cycle).
    #[arg(long, default_value_t = Referee::Strict)]
    pub referee: Referee,
    /// Write every game to this PGN file (overwritten).
    #[arg(long, value_name = "OUT")]
    pub pgn: Option<PathBuf>,
    /// Move notation in the PGN file: iccs, wxf, zh or zh-hans.
    #[arg(long, default_value = "iccs")]
    pub pgn_notation: Notation,
    /// Sequential test of the first engine against the second:
    /// `elo0=… elo1=… [alpha=0.05] [beta=0.05]`; stops the match when decided.
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    pub sprt: Vec<String>,
    /// Seed for the order of the openings (file order without it).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Resign adjudication: `moves=N score=S` (both engines agree for N moves).
    #[arg(long, num_args = 1..=2, value_name = "KEY=VALUE")]
    pub resign: Vec<String>,
    /// Draw adjudication: `moves=N score=S [after=M]`.
    #[arg(long, num_args = 1..=3, value_name = "KEY=VALUE")]
    pub draw: Vec<String>,
    /// Milliseconds forgiven beyond the clock or move time (pipe latency).
    #[arg(long, value_name = "MS", default_value_t = game::params::TOLERANCE.as_millis() as u64)]
    pub tolerance: u64,
    /// Seconds an untimed (depth or nodes) search may take before the engine
    /// counts as hung.
    #[arg(long, value_name = "SECS", default_value_t = params::HANG_TIMEOUT.as_secs_f64())]
    pub hang_timeout: f64,
    /// The PGN `Event` tag.
    #[arg(long, default_value = "chuhan match")]
    pub event: String,
    /// Log every line sent to and received from the engines.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Exit with status 3 if any engine crashed, hung, moved illegally, lost on
    /// time or failed to start (the soak test).
    #[arg(long)]
    pub fail_on_fault: bool,
    /// `--plan`, `--unit` and `--merge`.
    #[command(flatten)]
    pub units: UnitArgs,
    /// Games per work unit of `--plan` (even: both games of an opening together;
    /// a unit costs about half a second to start, so give it a minute of play).
    #[arg(long, default_value_t = 16, value_name = "N")]
    pub games_per_unit: u32,
    /// The directory `--unit` writes to (it keeps a copy of the plan as `plan.json`).
    #[arg(long, value_name = "DIR", requires = "unit")]
    pub out: Option<PathBuf>,
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// The configuration from the arguments, or a message.
fn config(args: &MatchArgs) -> Result<MatchConfig, String> {
    let mut engines = args
        .engines
        .iter()
        .map(|e| engine_arg::parse(e).map_err(|err| format!("--engine {e:?}: {err}")))
        .collect::<Result<Vec<_>, _>>()?;
    if engines.len() < 2 {
        return Err("a match needs at least two --engine".into());
    }
    engine_arg::unique_names(&mut engines);
    let limit = args.limit.limit()?;
    if args.games == 0 {
        return Err("--games must be positive".into());
    }
    if args.concurrency == 0 {
        return Err("--concurrency must be positive".into());
    }
    if !(args.hang_timeout.is_finite() && args.hang_timeout > 0.0) {
        return Err("--hang-timeout must be a positive number of seconds".into());
    }
    let sprt = if args.sprt.is_empty() {
        None
    } else {
        if engines.len() != 2 {
            return Err("--sprt needs exactly two engines".into());
        }
        Some(
            args.sprt
                .join(" ")
                .parse::<Sprt>()
                .map_err(|e| format!("--sprt: {e}"))?,
        )
    };
    let adjudication = Adjudication {
        resign: (!args.resign.is_empty())
            .then(|| args.resign.join(" ").parse::<ResignRule>())
            .transpose()
            .map_err(|e| format!("--resign: {e}"))?,
        draw: (!args.draw.is_empty())
            .then(|| args.draw.join(" ").parse::<DrawRule>())
            .transpose()
            .map_err(|e| format!("--draw: {e}"))?,
    };
    let openings = match &args.openings {
        Some(path) => openings::load(path).map_err(|e| format!("{}: {e}", path.display()))?,
        None => Vec::new(),
    };
    let log = match &args.log {
        Some(path) => {
            Some(TrafficLog::create(path).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    Ok(MatchConfig {
        engines,
        games: args.games,
        limit,
        concurrency: args.concurrency,
        openings,
        rules: args.rules,
        referee: args.referee,
        seed: args.seed,
        sprt,
        adjudication,
        tolerance: Duration::from_millis(args.tolerance),
        hang_timeout: Duration::from_secs_f64(args.hang_timeout),
        timeouts: Timeouts::default(),
        event: args.event.clone(),
        log,
    })
}

fn percent(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

/// `Score of A vs B: W - L - D  [0.563] 40`.
fn score_line(a: &str, b: &str, t: &Tally) -> String {
    let score = t.score().map_or("-".into(), |s| format!("{s:.3}"));
    format!(
        "Score of {a} vs {b}: {} - {} - {}  [{score}] {}",
        t.wins,
        t.losses,
        t.draws,
        t.games()
    )
}

/// `Elo difference: 41.9 +/- 60.2, LOS: 91.0 %, DrawRatio: 30.0 %`.
fn elo_line(t: &Tally) -> String {
    let elo = EloEstimate::from_tally(t).map_or("-".into(), |e| e.to_string());
    let los = los(t).map_or("-".into(), percent);
    let draws = if t.games() > 0 {
        percent(f64::from(t.draws) / f64::from(t.games()))
    } else {
        "-".into()
    };
    format!("Elo difference: {elo}, LOS: {los}, DrawRatio: {draws}")
}

fn sprt_line(s: &Sprt, llr: f64, state: SprtState) -> String {
    let (a, b) = s.bounds();
    let verdict = match state {
        SprtState::Continue => "no decision yet",
        SprtState::AcceptH0 => "H0 was accepted",
        SprtState::AcceptH1 => "H1 was accepted",
    };
    format!(
        "SPRT: llr {llr:.3} ({}), lbound {a:.2}, ubound {b:.2} ({s}) - {verdict}",
        percent(llr / b)
    )
}

fn faults_line(summary: &Summary) -> String {
    let mut parts = Vec::new();
    for (i, f) in summary.faults.iter().enumerate() {
        let list: Vec<String> = Fault::ALL
            .iter()
            .filter_map(|k| f.get(k).map(|n| format!("{n} {k}")))
            .collect();
        if !list.is_empty() {
            parts.push(format!("{}: {}", summary.names[i], list.join(", ")));
        }
    }
    if parts.is_empty() {
        "Engine faults: none".into()
    } else {
        format!("Engine faults: {}", parts.join("; "))
    }
}

/// The standings of a round robin: each engine against the field.
fn standings(summary: &Summary) -> Vec<String> {
    let mut rows: Vec<(usize, Tally)> = (0..summary.names.len())
        .map(|i| (i, summary.total(i)))
        .collect();
    rows.sort_by(|a, b| {
        let s = |t: &Tally| t.score().unwrap_or(0.0);
        s(&b.1).total_cmp(&s(&a.1))
    });
    let width = summary
        .names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = vec![format!(
        "{:>4} {:<width$} {:>8} {:>8} {:>6} {:>7} {:>7}",
        "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
    )];
    for (rank, (i, t)) in rows.iter().enumerate() {
        let (elo, margin) = EloEstimate::from_tally(t).map_or(("-".into(), "-".into()), |e| {
            (format!("{:.1}", e.elo), format!("{:.1}", e.margin))
        });
        let score = t.score().map_or("-".into(), percent);
        let draws = if t.games() > 0 {
            percent(f64::from(t.draws) / f64::from(t.games()))
        } else {
            "-".into()
        };
        out.push(format!(
            "{:>4} {:<width$} {elo:>8} {margin:>8} {:>6} {score:>7} {draws:>7}",
            rank + 1,
            summary.names[*i],
            t.games()
        ));
    }
    out
}

/// Runs the match and prints progress and the summary. Exit status: 0 done, 1
/// the match was aborted (an engine could not be started) or the PGN could not be
/// written, 2 bad arguments, 3 engine faults with `--fail-on-fault`.
pub fn run(args: &MatchArgs) -> ExitCode {
    let mode = args.units.mode();
    match mode {
        Mode::Unit { .. } => return play_unit(args),
        Mode::Merge(dir) => return merge(args, dir),
        Mode::Plan(_) | Mode::Local => {}
    }
    let config = match config(args) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    if let Mode::Plan(path) = mode {
        return write_plan(&config, args.games_per_unit, path);
    }
    let mut pgn_out = match &args.pgn {
        Some(path) => match File::create(path) {
            Ok(f) => Some((path.clone(), BufWriter::new(f))),
            Err(e) => return fail(format!("{}: {e}", path.display())),
        },
        None => None,
    };
    let pgn_opts = pgn_options(args);
    let mut pgn_error: Option<String> = None;
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let two = names.len() == 2;
    let summary = runner::run(&config, |event| match event {
        MatchEvent::Started(g) => println!(
            "Started game {} of {} ({} vs {})",
            g.number,
            config.games as usize * runner_pairings(names.len()),
            names[g.red],
            names[g.black]
        ),
        MatchEvent::OptionNote { engine, note } => eprintln!("warning: engine {engine}: {note}"),
        MatchEvent::Finished {
            game,
            report,
            summary,
        } => {
            println!(
                "Finished game {} ({} vs {}): {} {{{}}}",
                game.number, names[game.red], names[game.black], report.result, report.reason
            );
            let p = &summary.pairings[game.pairing];
            println!(
                "{}",
                score_line(&names[p.first], &names[p.second], &p.tally)
            );
            if two && let Some((s, llr, _)) = &summary.sprt {
                println!("SPRT: llr {llr:.3} ({})", percent(llr / s.bounds().1));
            }
            if let Some((path, out)) = pgn_out.as_mut()
                && let Err(e) = write_game(out, &report.record, &pgn_opts)
            {
                pgn_error.get_or_insert(format!("{}: {e}", path.display()));
            }
        }
    });
    println!();
    for line in summary_lines(&summary) {
        println!("{line}");
    }
    if let Some(e) = pgn_error {
        eprintln!("error: PGN not fully written: {e}");
        return ExitCode::from(1);
    }
    exit_status(&summary, args.fail_on_fault)
}

/// The exit status of a finished match: 1 aborted, 3 faults with
/// `--fail-on-fault`, else 0.
fn exit_status(summary: &Summary, fail_on_fault: bool) -> ExitCode {
    if summary.aborted.is_some() {
        return ExitCode::from(1);
    }
    if fail_on_fault && summary.fault_count() > 0 {
        return ExitCode::from(3);
    }
    ExitCode::SUCCESS
}

/// The summary printed at the end of a match (and by `--merge`): terminations,
/// faults, standings, pentanomial pairs, the SPRT, score and Elo lines.
fn summary_lines(summary: &Summary) -> Vec<String> {
    let names = &summary.names;
    let mut out = Vec::new();
    if let Some(why) = &summary.aborted {
        out.push(format!("Match aborted: {why}"));
    }
    let terminations: Vec<String> = summary
        .terminations
        .iter()
        .map(|(t, n)| format!("{t} {n}"))
        .collect();
    out.push(format!(
        "Games: {} of {}; {}",
        summary.played,
        summary.scheduled,
        if terminations.is_empty() {
            "none played".to_string()
        } else {
            terminations.join(", ")
        }
    ));
    out.push(faults_line(summary));
    if names.len() != 2 {
        out.extend(standings(summary));
    }
    for p in &summary.pairings {
        if p.pentanomial.pairs() > 0 {
            let c = p.pentanomial.counts;
            out.push(format!(
                "Ptnml(0-2) of {} vs {}: {}, {}, {}, {}, {}",
                names[p.first], names[p.second], c[0], c[1], c[2], c[3], c[4]
            ));
            if p.identical_pairs > 0 {
                out.push(identical_line(&names[p.first], &names[p.second], p));
            }
        }
    }
    if let Some((s, llr, state)) = &summary.sprt {
        out.push(sprt_line(s, *llr, *state));
    }
    for p in &summary.pairings {
        out.push(score_line(&names[p.first], &names[p.second], &p.tally));
        out.push(elo_line(&p.tally));
    }
    out
}

/// The warning for game pairs whose two games had the same moves, e.g. `Identical
/// pairs of A vs B: 55 of 55 (both games of an opening had the same moves with
/// colours swapped; the engines play alike at this limit, so these pairs cannot tell
/// them apart)`.
fn identical_line(first: &str, second: &str, p: &runner::PairingStats) -> String {
    format!(
        "Identical pairs of {first} vs {second}: {} of {} (both games of an opening had \
         the same moves with colours swapped; the engines play alike at this limit, so \
         these pairs cannot tell them apart)",
        p.identical_pairs,
        p.pentanomial.pairs()
    )
}

/// The PGN options of `--pgn-notation`.
fn pgn_options(args: &MatchArgs) -> pgn::WriteOptions {
    pgn::WriteOptions {
        notation: args.pgn_notation,
        ..Default::default()
    }
}

/// Appends one game to a PGN file and flushes it.
fn write_game(out: &mut impl Write, record: &Game, opts: &pgn::WriteOptions) -> Result<(), String> {
    let text = pgn::write(record, opts).map_err(|e| e.to_string())?;
    writeln!(out, "{text}")
        .and_then(|()| out.flush())
        .map_err(|e| e.to_string())
}

/// `--plan FILE`: writes the match's work units.
fn write_plan(config: &MatchConfig, games_per_unit: u32, path: &Path) -> ExitCode {
    let plan = match Plan::new(config, games_per_unit, &referee::today()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    if let Err(e) = plan.write(path) {
        return fail(format!("{}: {e}", path.display()));
    }
    println!(
        "{}: plan {} with {} units of up to {} games ({} games, {})",
        path.display(),
        plan.plan_id,
        plan.units.len(),
        plan.settings.games_per_unit,
        plan.scheduled(),
        plan.settings.limit
    );
    ExitCode::SUCCESS
}

/// `--unit PLAN K --out DIR`: plays one unit. Exit status 0 when its file is
/// written (or was there), 1 when the unit could not be finished, 2 bad arguments.
fn play_unit(args: &MatchArgs) -> ExitCode {
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
    match unit_result::play(&plan, k, dir, args.concurrency.max(1), log) {
        Ok(played) => {
            let file = plan.unit_path(dir, k);
            match played {
                Played::Written => println!("{}: unit {k} played", file.display()),
                Played::AlreadyThere => println!("{}: unit {k} already played", file.display()),
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: unit {k}: {e}");
            ExitCode::from(1)
        }
    }
}

/// `--merge DIR`: the summary of the units in DIR, and their games to `--pgn`.
fn merge(args: &MatchArgs, dir: &Path) -> ExitCode {
    let plan_path = dir.join("plan.json");
    let plan = match Plan::read(&plan_path) {
        Ok(p) => p,
        Err(e) => return fail(format!("{}: {e}", plan_path.display())),
    };
    let merged = match unit_result::merge(&plan, dir) {
        Ok(m) => m,
        Err(e) => return fail(e),
    };
    if let Some(path) = &args.pgn {
        let opts = pgn_options(args);
        let written = File::create(path).map_err(|e| e.to_string()).and_then(|f| {
            let mut out = BufWriter::new(f);
            merged
                .records
                .iter()
                .try_for_each(|r| write_game(&mut out, r, &opts))
        });
        if let Err(e) = written {
            return fail(format!("{}: {e}", path.display()));
        }
    }
    for line in summary_lines(&merged.summary) {
        println!("{line}");
    }
    exit_status(&merged.summary, args.fail_on_fault)
}

fn runner_pairings(engines: usize) -> usize {
    engines * (engines - 1) / 2
}
