//! What a played work unit of a tournament [`Plan`] leaves behind
//! (`unit-PLAN-K.json`), how a unit is played ([`play`]) and how the units in a
//! directory are merged into the event ([`merge`]).
//!
//! A unit file holds the event id, the plan id, the unit index and, per game, its
//! spec and how it went (decision, termination, moves, PGN). It is written
//! atomically under a name fixed by the plan and `K`, so a unit played twice
//! replaces its file and counts once. [`merge`] runs the event's own
//! [`Runner`] with one game player, [`UnitGames`], that answers each game due
//! from the unit files instead of playing it: games are recorded in the results
//! file in the order a local run with one game at a time records them, rounds are
//! paired and reports written as locally, and the run stops at the first game no
//! unit has played yet.

use super::config::TournamentConfig;
use super::event::Next;
use super::plan::{Plan, PlannedGame, event_id};
use super::runner::{Progress, RunError, Runner};
use super::standings::Decision;
use crate::game::play::{
    GameId, GameOutcome, GamePlayer, GameSpec, PlayError, PlayedGame, Termination,
};
use crate::work_unit::{JsonUnits, UnitFile};
pub use crate::work_unit::{Played, UnitError};
use chuhan_engine::core::Move;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The `format` field of a unit file.
pub const UNIT_FORMAT: &str = "chuhan-tournament-unit";
/// The unit file version this build writes and reads.
pub const UNIT_VERSION: u32 = 1;
/// The name of the plan [`merge`] leaves for the games due next.
pub const NEXT_PLAN: &str = "next.json";

/// The file name of unit `k` of the plan `plan_id` (the rule of
/// [`crate::work_unit::UnitPlan::unit_file_name`]).
pub fn file_name(plan_id: &str, k: u32) -> String {
    format!("unit-{plan_id}-{k}.json")
}

/// One game of a unit file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitGame {
    /// The game as planned.
    pub game: PlannedGame,
    /// How it was decided.
    pub decision: Decision,
    /// Why a played game ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination: Option<Termination>,
    /// The moves (ICCS) after the opening's forced moves.
    #[serde(default)]
    pub moves: Vec<String>,
    /// The game's PGN.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pgn: Option<String>,
}

/// What a tournament unit file holds besides the envelope ([`UnitFile`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundGames {
    /// The event id.
    pub event_id: String,
    /// Its games, in the plan's order.
    pub games: Vec<UnitGame>,
}

/// A tournament unit file: `unit-PLAN-K.json`.
pub type UnitResult = UnitFile<RoundGames>;

impl JsonUnits for Plan {
    const UNIT_FORMAT: &'static str = UNIT_FORMAT;
    const UNIT_VERSION: u32 = UNIT_VERSION;
    type Body = RoundGames;

    fn unit_plan_id(&self) -> &str {
        &self.plan_id
    }

    /// The event, and the unit's games as planned.
    fn check_body(&self, k: u32, body: &RoundGames) -> Result<(), String> {
        check_event(&body.event_id, &self.event_id)?;
        let games: Vec<&PlannedGame> = body.games.iter().map(|g| &g.game).collect();
        if self
            .unit(k)
            .is_ok_and(|u| u.games.iter().collect::<Vec<_>>() == games)
        {
            Ok(())
        } else {
            Err(format!(
                "not the games of unit {k} of plan {}",
                self.plan_id
            ))
        }
    }
}

fn check_event(found: &str, want: &str) -> Result<(), String> {
    if found == want {
        Ok(())
    } else {
        Err(format!("a unit of event {found}, not of event {want}"))
    }
}

impl UnitResult {
    /// Reads a unit file of any plan and checks its format and event (a merge
    /// reads the units of every round's plan).
    pub fn read_of_event(path: &Path, event_id: &str) -> Result<UnitResult, UnitError> {
        let r = UnitFile::read_kind::<Plan>(path)?;
        check_event(&r.body.event_id, event_id)
            .map_err(|why| UnitError::Mismatch(path.into(), why))?;
        Ok(r)
    }
}

/// Plays unit `k` of `plan` with `player` (the `chuhan tournament` command gives
/// it the match runner's, dating games with the plan's date and writing PGN in its
/// notation) and writes `dir/unit-PLAN-K.json`, unless a valid file of it is
/// already there. An engine that cannot be started here stops the unit (a cluster
/// retries it elsewhere) rather than forfeiting the game.
pub fn play(
    plan: &Plan,
    k: u32,
    dir: &Path,
    player: &mut impl GamePlayer,
) -> Result<Played, UnitError> {
    let unit = plan
        .unit(k)
        .map_err(|e| UnitError::Mismatch(dir.into(), e.to_string()))?;
    if plan.has_unit(dir, k) {
        return Ok(Played::AlreadyThere);
    }
    let mut games = Vec::with_capacity(unit.games.len());
    for g in &unit.games {
        let outcome = player
            .play(&g.spec())
            .map_err(|e| UnitError::Aborted(format!("game {}: {e}", g.id)))?;
        let played = match outcome {
            GameOutcome::Played(p) => p,
            GameOutcome::Forfeited(absent) => {
                return Err(UnitError::Aborted(format!(
                    "game {}: {absent:?} could not be started here",
                    g.id
                )));
            }
        };
        games.push(UnitGame {
            game: g.clone(),
            decision: Decision::Played(played.result),
            termination: Some(played.termination),
            moves: played.moves.iter().map(Move::to_string).collect(),
            pgn: played.pgn,
        });
    }
    let body = RoundGames {
        event_id: plan.event_id.clone(),
        games,
    };
    plan.write_unit(dir, k, body)
}

/// The games played by the units in a directory, as a [`GamePlayer`] that
/// answers a game from them (and reports any other as not played yet,
/// [`PlayError::Interrupted`]).
#[derive(Clone, Debug, Default)]
pub struct UnitGames {
    games: BTreeMap<GameId, UnitGame>,
}

impl UnitGames {
    /// The games of every unit file (`unit-*.json`) of the event `event_id` in
    /// `dir` (none if `dir` does not exist). Two files with one game (a game
    /// planned twice) give it from the first by name.
    pub fn read(dir: &Path, event_id: &str) -> Result<UnitGames, UnitError> {
        let mut names: Vec<PathBuf> = match std::fs::read_dir(dir) {
            Ok(entries) => entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("unit-") && n.ends_with(".json"))
                })
                .collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(UnitError::Io(dir.into(), e)),
        };
        names.sort();
        let mut games = BTreeMap::new();
        for path in names {
            for g in UnitResult::read_of_event(&path, event_id)?.body.games {
                games.entry(g.game.id).or_insert(g);
            }
        }
        Ok(UnitGames { games })
    }

    /// Whether a unit played `spec`.
    pub fn has(&self, spec: &GameSpec) -> bool {
        self.games
            .get(&spec.id)
            .is_some_and(|g| g.game == PlannedGame::from(spec))
    }

    /// Games found.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether no game was found.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }
}

impl GamePlayer for UnitGames {
    fn play(&mut self, spec: &GameSpec) -> Result<GameOutcome, PlayError> {
        let Some(g) = self.games.get(&spec.id) else {
            return Err(PlayError::Interrupted);
        };
        if g.game != PlannedGame::from(spec) {
            return Err(PlayError::Failed(format!(
                "game {}: a unit played it otherwise than the event has it due",
                spec.id
            )));
        }
        Ok(match g.decision {
            Decision::Played(result) => GameOutcome::Played(PlayedGame {
                result,
                termination: g.termination.unwrap_or(Termination::EngineFailure),
                moves: g
                    .moves
                    .iter()
                    .map(|m| m.parse::<Move>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| {
                        PlayError::Failed(format!("game {}: a unit file has a bad move", spec.id))
                    })?,
                pgn: g.pgn.clone(),
            }),
            Decision::Forfeit(absent) => GameOutcome::Forfeited(absent),
        })
    }
}

/// Where [`merge`] left the event.
#[derive(Debug)]
pub enum Merged {
    /// The event is over.
    Finished,
    /// Games are due that no unit has played: their plan.
    Next(Box<Plan>),
}

/// Records the games the unit files in `dir` played into the event `config`
/// (its results file, its reports), as a local run with one game at a time
/// would, and goes on until a game is due that no unit has played; the games
/// then due and not yet in `dir` make the returned plan (`games_per_unit` a unit,
/// dated `date`, PGN in `notation`). `progress` sees what a local run shows.
pub fn merge(
    config: &TournamentConfig,
    dir: Option<&Path>,
    (games_per_unit, date, notation): (u32, &str, chuhan_engine::notation::Notation),
    progress: impl FnMut(Progress<'_>),
) -> Result<Merged, UnitError> {
    let id = event_id(config);
    let games = match dir {
        Some(d) => UnitGames::read(d, &id)?,
        None => UnitGames::default(),
    };
    let mut runner = Runner::open(config.clone()).map_err(|e| UnitError::Merge(Box::new(e)))?;
    let mut players = [games];
    match runner.run(&mut players, progress) {
        Ok(()) => return Ok(Merged::Finished),
        Err(RunError::Play(PlayError::Interrupted)) => {}
        Err(e) => return Err(UnitError::Merge(Box::new(e))),
    }
    let event = runner.event();
    let due = match event.next() {
        Ok(Next::Play(due)) => due,
        Ok(_) => {
            return Err(UnitError::Aborted(
                "the event stopped for a game that is not due".into(),
            ));
        }
        Err(e) => return Err(UnitError::Merge(Box::new(RunError::Event(e)))),
    };
    let [games] = &players;
    let specs: Vec<GameSpec> = due
        .iter()
        .filter(|s| s.forfeit.is_none())
        .map(|s| event.spec(s))
        .filter(|s| !games.has(s))
        .collect();
    let round = event.rounds().len() as u32;
    Plan::new(config, round, &specs, games_per_unit, date, notation)
        .map(|plan| Merged::Next(Box::new(plan)))
        .map_err(|e| UnitError::Mismatch(dir.unwrap_or(Path::new(".")).into(), e.to_string()))
}
