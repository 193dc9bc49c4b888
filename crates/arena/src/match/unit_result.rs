//! What a played work unit of a match [`Plan`] leaves behind (`unit-K.json`), how
//! a unit is played ([`play`]) and how a directory of them is merged into the
//! match's [`Summary`] ([`merge`]).
//!
//! A unit file ([`UnitFile`]) holds the plan id, the unit index and, per game in
//! game order, the result, termination, reason, fault, moves and PGN (ICCS). It is written
//! atomically under a name fixed by `K`, so a unit played twice (a retry after a
//! lost node) replaces its file and is counted once; [`merge`] feeds every game
//! of every unit file, in game order, to the same [`Scorer`] a local match uses,
//! so its summary is the local match's.

use super::plan::Plan;
use super::process::TrafficLog;
use super::referee::{Fault, GameReport};
use super::runner::{self, MatchEvent, Scorer, Summary};
use crate::game::play::Termination;
use crate::work_unit::{JsonUnits, UnitFile, UnitPlan};
pub use crate::work_unit::{Played, UnitError};
use chuhan_engine::core::{Color, GameResult, Move};
use chuhan_engine::notation::{self, pgn};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The `format` field of a unit file.
pub const UNIT_FORMAT: &str = "chuhan-match-unit";
/// The unit file version this build writes and reads.
pub const UNIT_VERSION: u32 = 1;

/// The side an engine fault is charged to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Red.
    Red,
    /// Black.
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Red => Side::Red,
            Color::Black => Side::Black,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::Red => Color::Red,
            Side::Black => Color::Black,
        }
    }
}

/// One game of a unit file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitGame {
    /// The game number in the match.
    pub number: u32,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// The same in a sentence.
    pub reason: String,
    /// The engine fault that ended it, and whose.
    pub fault: Option<(Side, Fault)>,
    /// The moves after the opening (ICCS).
    pub moves: Vec<String>,
    /// The game's PGN (ICCS moves).
    pub pgn: String,
}

/// What a match unit file holds besides the envelope ([`UnitFile`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Games {
    /// Its games, in game order.
    pub games: Vec<UnitGame>,
}

/// A match unit file: `unit-K.json`.
pub type UnitResult = UnitFile<Games>;

impl JsonUnits for Plan {
    const UNIT_FORMAT: &'static str = UNIT_FORMAT;
    const UNIT_VERSION: u32 = UNIT_VERSION;
    type Body = Games;

    fn unit_plan_id(&self) -> &str {
        &self.plan_id
    }

    /// The unit's games, number for number.
    fn check_body(&self, k: u32, body: &Games) -> Result<(), String> {
        let unit = self.unit(k).map_err(|e| e.to_string())?;
        let want: Vec<u32> = unit.games.iter().map(|s| s.number).collect();
        let got: Vec<u32> = body.games.iter().map(|g| g.number).collect();
        if want == got {
            Ok(())
        } else {
            Err(format!(
                "unit {k} with games {got:?}; unit {k} has games {want:?}"
            ))
        }
    }
}

impl Games {
    /// The games as reports (PGN read back into records).
    fn reports(&self, path: &Path) -> Result<Vec<GameReport>, UnitError> {
        self.games
            .iter()
            .map(|g| {
                let bad =
                    |e: String| UnitError::Mismatch(path.into(), format!("game {}: {e}", g.number));
                let record = pgn::read(&g.pgn)
                    .map_err(|e| bad(e.to_string()))?
                    .into_iter()
                    .next()
                    .ok_or_else(|| bad("no game".into()))?;
                let moves = g
                    .moves
                    .iter()
                    .map(|m| {
                        m.parse::<Move>()
                            .map_err(|_| bad(format!("bad move {m:?}")))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(GameReport {
                    result: g.result,
                    termination: g.termination,
                    reason: g.reason.clone(),
                    fault: g.fault.map(|(s, f)| (s.into(), f)),
                    moves,
                    record,
                })
            })
            .collect()
    }
}

/// Plays unit `k` of `plan` (`concurrency` games at once) and writes
/// `dir/unit-K.json`, unless a valid file of it is already there.
pub fn play(
    plan: &Plan,
    k: u32,
    dir: &Path,
    concurrency: usize,
    log: Option<TrafficLog>,
) -> Result<Played, UnitError> {
    let unit = plan
        .unit(k)
        .map_err(|e| UnitError::Mismatch(dir.into(), e.to_string()))?;
    if plan.has_unit(dir, k) {
        return Ok(Played::AlreadyThere);
    }
    let config = plan.config(concurrency, log);
    let games = unit.games.iter().map(|s| plan.game(s)).collect();
    let mut played: Vec<UnitGame> = Vec::new();
    let mut pgn_error = None;
    let summary = runner::run_games(&config, games, &plan.settings.date, |event| {
        if let MatchEvent::Finished { game, report, .. } = event {
            match pgn::write(&report.record, &pgn::WriteOptions::default()) {
                Ok(text) => played.push(UnitGame {
                    number: game.number,
                    result: report.result,
                    termination: report.termination,
                    reason: report.reason.clone(),
                    fault: report.fault.map(|(c, f)| (c.into(), f)),
                    moves: report.moves.iter().map(Move::to_string).collect(),
                    pgn: text,
                }),
                Err(e) => {
                    pgn_error.get_or_insert(format!("game {}: {e}", game.number));
                }
            }
        }
    });
    if let Some(why) = summary.aborted.or(pgn_error) {
        return Err(UnitError::Aborted(why));
    }
    played.sort_by_key(|g| g.number);
    plan.write_unit(dir, k, Games { games: played })
}

/// A merged directory of unit files.
#[derive(Debug)]
pub struct Merged {
    /// The match summary over every game found.
    pub summary: Summary,
    /// The game records, in game order.
    pub records: Vec<notation::Game>,
    /// Units with a result file.
    pub units_done: u32,
}

/// Merges the unit files of `plan` in `dir` (units without a file are left out:
/// a match stopped early, or still running).
pub fn merge(plan: &Plan, dir: &Path) -> Result<Merged, UnitError> {
    let names = plan
        .settings
        .engines
        .iter()
        .map(|e| e.name.clone())
        .collect();
    let mut scorer = Scorer::new(names, plan.scheduled(), plan.settings.sprt);
    let mut records = Vec::new();
    let mut units_done = 0;
    for unit in &plan.units {
        let p = plan.unit_path(dir, unit.index);
        if !p.exists() {
            continue;
        }
        let result = UnitResult::read(&p, plan, unit.index)?;
        units_done += 1;
        for (slot, report) in unit.games.iter().zip(result.body.reports(&p)?) {
            scorer.add(&plan.game(slot), &report);
            records.push(report.record);
        }
    }
    Ok(Merged {
        summary: scorer.into_summary(),
        records,
        units_done,
    })
}
