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
pub use crate::work_unit::Played;
use crate::work_unit::write_atomic;
use chuhan_engine::core::Move;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The `format` field of a unit file.
pub const UNIT_FORMAT: &str = "chuhan-tournament-unit";
/// The unit file version this build writes and reads.
pub const UNIT_VERSION: u32 = 1;
/// The name of the plan [`merge`] leaves for the games due next.
pub const NEXT_PLAN: &str = "next.json";

/// The file name of unit `k` of the plan `plan_id`.
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

/// A unit file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitResult {
    /// Always [`UNIT_FORMAT`].
    pub format: String,
    /// Always [`UNIT_VERSION`].
    pub version: u32,
    /// The event id.
    pub event_id: String,
    /// The plan id.
    pub plan_id: String,
    /// The unit index.
    pub unit: u32,
    /// Its games, in the plan's order.
    pub games: Vec<UnitGame>,
}

/// Why a unit cannot be played, read or merged.
#[derive(Debug)]
pub enum UnitError {
    /// Reading or writing failed.
    Io(PathBuf, std::io::Error),
    /// Not valid JSON of a unit file.
    Json(PathBuf, serde_json::Error),
    /// A unit file that does not belong to the plan or event.
    Mismatch(PathBuf, String),
    /// The unit stopped: an engine could not be started here, or the player failed.
    Aborted(String),
    /// The event could not go on (its results file, its configuration, a report).
    Event(RunError),
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            UnitError::Json(p, e) => write!(f, "{}: not a unit file: {e}", p.display()),
            UnitError::Mismatch(p, why) => write!(f, "{}: {why}", p.display()),
            UnitError::Aborted(why) => write!(f, "the unit was not finished: {why}"),
            UnitError::Event(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for UnitError {}

impl UnitResult {
    /// Reads a unit file and checks its format and event.
    pub fn read(path: &Path, event_id: &str) -> Result<UnitResult, UnitError> {
        let text = std::fs::read_to_string(path).map_err(|e| UnitError::Io(path.into(), e))?;
        let r: UnitResult =
            serde_json::from_str(&text).map_err(|e| UnitError::Json(path.into(), e))?;
        let mismatch = |why: String| Err(UnitError::Mismatch(path.into(), why));
        if r.format != UNIT_FORMAT || r.version != UNIT_VERSION {
            return mismatch(format!(
                "format {:?} version {}; this build reads {UNIT_FORMAT:?} version {UNIT_VERSION}",
                r.format, r.version
            ));
        }
        if r.event_id != event_id {
            return mismatch(format!(
                "a unit of event {}, not of event {event_id}",
                r.event_id
            ));
        }
        Ok(r)
    }

    /// Whether this is unit `k` of `plan`, game for game.
    fn is_unit_of(&self, plan: &Plan, k: u32) -> bool {
        let games: Vec<&PlannedGame> = self.games.iter().map(|g| &g.game).collect();
        self.plan_id == plan.plan_id
            && self.unit == k
            && plan
                .unit(k)
                .is_ok_and(|u| u.games.iter().collect::<Vec<_>>() == games)
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
    let out = dir.join(file_name(&plan.plan_id, k));
    if UnitResult::read(&out, &plan.event_id).is_ok_and(|r| r.is_unit_of(plan, k)) {
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
    let result = UnitResult {
        format: UNIT_FORMAT.to_string(),
        version: UNIT_VERSION,
        event_id: plan.event_id.clone(),
        plan_id: plan.plan_id.clone(),
        unit: k,
        games,
    };
    let json = serde_json::to_string(&result).expect("a unit result serialises");
    write_atomic(&out, json.as_bytes()).map_err(|e| UnitError::Io(out.clone(), e))?;
    Ok(Played::Written)
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
            for g in UnitResult::read(&path, event_id)?.games {
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
    let mut runner = Runner::open(config.clone()).map_err(UnitError::Event)?;
    let mut players = [games];
    match runner.run(&mut players, progress) {
        Ok(()) => return Ok(Merged::Finished),
        Err(RunError::Play(PlayError::Interrupted)) => {}
        Err(e) => return Err(UnitError::Event(e)),
    }
    let event = runner.event();
    let due = match event.next() {
        Ok(Next::Play(due)) => due,
        Ok(_) => {
            return Err(UnitError::Aborted(
                "the event stopped for a game that is not due".into(),
            ));
        }
        Err(e) => return Err(UnitError::Event(RunError::Event(e))),
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
