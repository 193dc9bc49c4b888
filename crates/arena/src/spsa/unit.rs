//! What a played unit of an SPSA [`Plan`] leaves behind (`unit-PLANID-K.json`)
//! and how it is played: one game pair, θ+ against θ−, from the unit's opening
//! with each as Red once, by the match runner ([`crate::r#match::runner`]) with
//! the plan's limit, rules and adjudication. The file holds the pair's score
//! (θ+'s points minus θ−'s, from −2 to 2) and its games; it is written atomically
//! under a name fixed by the plan id and `K`, so a unit played twice counts once.

use super::plan::{GAMES_PER_UNIT, Plan, Unit};
use crate::game::play::Termination;
use crate::r#match::client::Timeouts;
use crate::r#match::runner::{self, MatchConfig, MatchEvent};
use crate::work_unit::{JsonUnits, UnitFile};
pub use crate::work_unit::{Played, UnitError};
use chuhan_engine::core::{GameResult, Move};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The `format` field of a unit file.
pub const UNIT_FORMAT: &str = "chuhan-spsa-unit";
/// The unit file version this build writes and reads.
pub const UNIT_VERSION: u32 = 1;

/// One game of a unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitGame {
    /// Whether θ+ played Red.
    pub plus_red: bool,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// The same in a sentence.
    pub reason: String,
    /// The moves after the opening (ICCS).
    pub moves: Vec<String>,
}

/// What an SPSA unit file holds besides the envelope ([`UnitFile`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    /// The run's id.
    pub run_id: String,
    /// The iteration.
    pub k: u32,
    /// θ+'s points minus θ−'s over the pair.
    pub score: f64,
    /// The games, θ+ as Red first.
    pub games: Vec<UnitGame>,
    /// What the engines said about their options (an option they do not have,
    /// a value they refused), each once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// An SPSA unit file: `unit-PLANID-K.json`.
pub type UnitResult = UnitFile<Pair>;

impl JsonUnits for Plan {
    const UNIT_FORMAT: &'static str = UNIT_FORMAT;
    const UNIT_VERSION: u32 = UNIT_VERSION;
    type Body = Pair;

    fn unit_plan_id(&self) -> &str {
        &self.plan_id
    }

    /// The run, the iteration, and a score a pair can have.
    fn check_body(&self, k: u32, body: &Pair) -> Result<(), String> {
        let unit = self.unit(k).map_err(|e| e.to_string())?;
        if (body.run_id.as_str(), body.k) != (self.run_id.as_str(), unit.k) {
            return Err(format!(
                "iteration {} of run {}, not iteration {} of run {}",
                body.k, body.run_id, unit.k, self.run_id
            ));
        }
        if !(body.score.is_finite() && body.score.abs() <= f64::from(GAMES_PER_UNIT)) {
            return Err(format!("score {} is not a pair's", body.score));
        }
        Ok(())
    }
}

/// The match configuration of one unit: θ+ against θ−, two games from its
/// opening, `concurrency` at once.
pub fn config(plan: &Plan, unit: &Unit, concurrency: usize) -> MatchConfig {
    let s = &plan.settings;
    MatchConfig {
        engines: plan.engines(unit).to_vec(),
        games: GAMES_PER_UNIT,
        limit: s.limit.clone(),
        concurrency: concurrency.clamp(1, GAMES_PER_UNIT as usize),
        openings: plan.opening(unit).cloned().into_iter().collect(),
        rules: s.rules,
        referee: s.referee,
        seed: None,
        sprt: None,
        adjudication: s.adjudication,
        tolerance: Duration::from_millis(s.tolerance_ms),
        hang_timeout: Duration::from_millis(s.hang_timeout_ms),
        timeouts: Timeouts::default(),
        event: "chuhan spsa".into(),
        log: None,
    }
}

/// Plays unit `k` of `plan` (its two games `concurrency` at once) and writes its
/// file into `dir`, unless a valid file of it is already there.
pub fn play(plan: &Plan, k: u32, dir: &Path, concurrency: usize) -> Result<Played, UnitError> {
    let unit = plan
        .unit(k)
        .map_err(|e| UnitError::Mismatch(dir.into(), e.to_string()))?;
    if plan.has_unit(dir, k) {
        return Ok(Played::AlreadyThere);
    }
    let config = config(plan, unit, concurrency);
    let mut games: Vec<(u32, UnitGame)> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let summary = runner::run(&config, |event| match event {
        MatchEvent::Finished { game, report, .. } => games.push((
            game.number,
            UnitGame {
                plus_red: game.red == 0,
                result: report.result,
                termination: report.termination,
                reason: report.reason.clone(),
                moves: report.moves.iter().map(Move::to_string).collect(),
            },
        )),
        MatchEvent::OptionNote { engine, note } => {
            let line = format!("{engine}: {note}");
            if !notes.contains(&line) {
                notes.push(line);
            }
        }
        MatchEvent::Started(_) => {}
    });
    if let Some(why) = summary.aborted {
        return Err(UnitError::Aborted(why));
    }
    if games.len() != GAMES_PER_UNIT as usize {
        return Err(UnitError::Aborted(format!(
            "{} of {GAMES_PER_UNIT} games played",
            games.len()
        )));
    }
    games.sort_by_key(|(n, _)| *n);
    let tally = summary.pairings[0].tally;
    let body = Pair {
        run_id: plan.run_id.clone(),
        k: unit.k,
        score: f64::from(tally.wins) - f64::from(tally.losses),
        games: games.into_iter().map(|(_, g)| g).collect(),
        notes,
    };
    plan.write_unit(dir, k, body)
}

/// Plays every unit of `plan` not yet in `dir`, `concurrency` games at once (a
/// pair per worker; both games of a pair at once when there are workers to
/// spare). `on_unit(k)` is called as each unit is done, from the worker threads.
/// Stops at the first unit that cannot be played and returns its error.
pub fn play_round(
    plan: &Plan,
    dir: &Path,
    concurrency: usize,
    on_unit: impl Fn(u32) + Sync,
) -> Result<(), UnitError> {
    let units = plan.units.len();
    let workers = concurrency.clamp(1, units.max(1));
    let per_pair = (concurrency / workers).clamp(1, GAMES_PER_UNIT as usize);
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<UnitError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= units || failure.lock().expect("not poisoned").is_some() {
                        return;
                    }
                    match play(plan, i as u32, dir, per_pair) {
                        Ok(_) => on_unit(i as u32),
                        Err(e) => {
                            failure.lock().expect("not poisoned").get_or_insert(e);
                            return;
                        }
                    }
                }
            });
        }
    });
    match failure.into_inner().expect("not poisoned") {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
