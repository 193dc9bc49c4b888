//! [`Plan`]: the games a tournament has due now, split into work units for a
//! cluster, the design of match plans (`r#match::plan`) for events.
//!
//! An event goes round by round and, in a knockout, game by game within a round
//! (a match's second game is due once its first is over), so a plan holds the
//! games [`Event::next`](super::event::Event::next) has due at one moment: each
//! as a full [`GameSpec`] ([`PlannedGame`]: engines, clocks or fixed limit,
//! rules, opening), `games_per_unit` at a time. `chuhan tournament --unit
//! plan.json K --out DIR` plays unit `K` anywhere ([`super::unit_result`]);
//! `chuhan tournament --merge DIR` records the games found there into the event
//! exactly as a local run records them, goes on (pairs the next round, forfeits)
//! and writes the plan of the games due next. At a fixed depth or node count
//! (`"limit"` in the configuration) a game is a pure function of its spec, so the
//! event played this way is the local one.
//!
//! ```json
//! {
//!   "format": "chuhan-tournament-plan", "version": 1, "engine": "chuhan 0.1.0",
//!   "event_id": "0b7d…", "plan_id": "5e21…",
//!   "config": { "event": "Cup", "engines": [ … ], "format": { "type": "swiss", … },
//!               "limit": { "depth": 3 }, "output": { "results": "/abs/cup.jsonl" }, … },
//!   "date": "2026.12.02", "games_per_unit": 1, "pgn_notation": "iccs", "round": 2,
//!   "units": [ { "index": 0, "games": [ { "id": { "round": 2, "board": 1, "game": 1 },
//!                "event": "Cup", "red": { … }, "black": { … }, "clock": "60+1",
//!                "limit": { "depth": 3 }, "tolerance_ms": 500, "rules": "cxa2011",
//!                "referee": "text" } ] } ]
//! }
//! ```
//!
//! `referee` is written only when it is `text`: absent means strict, so plans
//! from before it was a setting read (and hash) as they did.
//!
//! The event id hashes the engine build and the configuration less its output
//! paths; the plan id hashes the event id, the date and the units.

use super::config::OutputConfig;
use super::config::TournamentConfig;
use crate::game::clock::ClockSetting;
use crate::game::engine_config::EngineConfig;
use crate::game::opening::Opening;
use crate::game::play::{FixedLimit, GameId, GameSpec};
pub use crate::work_unit::PlanError;
pub use crate::work_unit::PlanFile;
pub use crate::work_unit::UnitPlan;
use crate::work_unit::{Stamp, engine_name};
use chuhan_engine::binary::fnv1a;
use chuhan_engine::notation::{IccsStyle, Notation};
use chuhan_engine::rules::{Referee, RuleSet};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

/// The `format` field of a tournament plan.
pub const PLAN_FORMAT: &str = "chuhan-tournament-plan";
/// The plan version this build writes and reads.
pub const PLAN_VERSION: u32 = 1;

/// A [`GameSpec`] as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedGame {
    /// The game's place in the event.
    pub id: GameId,
    /// The event's name.
    pub event: String,
    /// The engine playing Red.
    pub red: EngineConfig,
    /// The engine playing Black.
    pub black: EngineConfig,
    /// The clocks.
    pub clock: ClockSetting,
    /// A fixed depth or node count per move instead of the clocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<FixedLimit>,
    /// Overstep forgiven, in milliseconds.
    pub tolerance_ms: u64,
    /// The rules.
    pub rules: RuleSet,
    /// When a forbidden repetition ends the game (absent: strict).
    #[serde(default, skip_serializing_if = "crate::game::play::is_strict")]
    pub referee: Referee,
    /// The opening.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<Opening>,
}

impl From<&GameSpec> for PlannedGame {
    fn from(s: &GameSpec) -> PlannedGame {
        PlannedGame {
            id: s.id,
            event: s.event.clone(),
            red: s.red.clone(),
            black: s.black.clone(),
            clock: s.clock.clone(),
            limit: s.limit,
            tolerance_ms: s.tolerance.as_millis() as u64,
            rules: s.rules,
            referee: s.referee,
            opening: s.opening.clone(),
        }
    }
}

impl PlannedGame {
    /// The game to play.
    pub fn spec(&self) -> GameSpec {
        GameSpec {
            id: self.id,
            event: self.event.clone(),
            red: self.red.clone(),
            black: self.black.clone(),
            clock: self.clock.clone(),
            limit: self.limit,
            tolerance: Duration::from_millis(self.tolerance_ms),
            rules: self.rules,
            referee: self.referee,
            opening: self.opening.clone(),
        }
    }
}

/// One work unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Its index `K` (its file is `unit-PLAN-K.json`).
    pub index: u32,
    /// Its games, in the order the event has them due.
    pub games: Vec<PlannedGame>,
}

/// The games due now, split into units.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// Its kind, version and engine build ([`PLAN_FORMAT`], [`PLAN_VERSION`]).
    #[serde(flatten)]
    pub stamp: Stamp,
    /// The event id (hex): the same for every plan of the event.
    pub event_id: String,
    /// The plan id (hex), written into its unit files.
    pub plan_id: String,
    /// The event's configuration (output paths absolute: where the merge writes).
    pub config: TournamentConfig,
    /// The PGN `Date` of the plan's games.
    pub date: String,
    /// Games per unit (the merge makes the next plans with it too).
    pub games_per_unit: u32,
    /// The notation of the games' PGN (`iccs`, `wxf`, `zh`, `zh-hans`).
    pub pgn_notation: String,
    /// The round the games belong to.
    pub round: u32,
    /// The units, in index order.
    pub units: Vec<Unit>,
}

/// The name `notation` parses back from (`iccs-dash` kept apart from `iccs`).
fn notation_name(notation: Notation) -> &'static str {
    match notation {
        Notation::Iccs(IccsStyle::Dashed) => "iccs-dash",
        other => other.name(),
    }
}

/// The event id of a configuration: its hash with this build, output paths left
/// out (they say where reports go, not how games are played).
pub fn event_id(config: &TournamentConfig) -> String {
    let mut c = config.clone();
    c.output = OutputConfig {
        results: PathBuf::new(),
        html: None,
        pgn: None,
    };
    let text = serde_json::to_string(&(engine_name(), &c)).expect("a configuration serialises");
    format!("{:016x}", fnv1a(text.as_bytes()))
}

impl Plan {
    /// The plan of `games` (due in `round` of the event `config`),
    /// `games_per_unit` a unit, dated `date`, PGN in `notation`.
    pub fn new(
        config: &TournamentConfig,
        round: u32,
        games: &[GameSpec],
        games_per_unit: u32,
        date: &str,
        notation: Notation,
    ) -> Result<Plan, PlanError> {
        if games_per_unit == 0 {
            return Err(PlanError::Settings(
                "games per unit must be at least 1".into(),
            ));
        }
        let units = games
            .chunks(games_per_unit as usize)
            .enumerate()
            .map(|(k, games)| Unit {
                index: k as u32,
                games: games.iter().map(PlannedGame::from).collect(),
            })
            .collect();
        let mut plan = Plan {
            stamp: Stamp::of::<Plan>(),
            event_id: event_id(config),
            plan_id: String::new(),
            config: config.clone(),
            date: date.to_string(),
            games_per_unit,
            pgn_notation: notation_name(notation).to_string(),
            round,
            units,
        };
        plan.plan_id = plan.id();
        Ok(plan)
    }

    /// The hash of the event id, date, notation, round and units.
    fn id(&self) -> String {
        let text = serde_json::to_string(&(
            &self.event_id,
            &self.date,
            &self.pgn_notation,
            self.round,
            &self.units,
        ))
        .expect("units serialise");
        format!("{:016x}", fnv1a(text.as_bytes()))
    }

    /// Unit `k`.
    pub fn unit(&self, k: u32) -> Result<&Unit, PlanError> {
        self.units
            .get(k as usize)
            .filter(|u| u.index == k)
            .ok_or(PlanError::NoUnit(k))
    }

    /// Games in the plan.
    pub fn games(&self) -> usize {
        self.units.iter().map(|u| u.games.len()).sum()
    }

    /// The notation of the games' PGN.
    pub fn notation(&self) -> Notation {
        self.pgn_notation
            .parse()
            .expect("a checked plan names a notation")
    }
}

impl UnitPlan for Plan {
    const RUN: &'static str = "event";

    fn run_id(&self) -> &str {
        &self.event_id
    }

    fn check_unit(&self, k: u32) -> Result<(), PlanError> {
        self.unit(k).map(|_| ())
    }

    /// `unit-PLANID-K.json`: a results directory holds every round's plan.
    fn unit_file_name(&self, k: u32) -> String {
        super::unit_result::file_name(&self.plan_id, k)
    }
}

impl PlanFile for Plan {
    const FORMAT: &'static str = PLAN_FORMAT;
    const VERSION: u32 = PLAN_VERSION;

    fn stamp(&self) -> &Stamp {
        &self.stamp
    }

    /// Checks configuration, ids, notation and units.
    fn check_content(&self) -> Result<(), PlanError> {
        self.config
            .validate()
            .map_err(|e| PlanError::Settings(e.to_string()))?;
        if self.event_id != event_id(&self.config) || self.plan_id != self.id() {
            return Err(PlanError::RunId);
        }
        if self.pgn_notation.parse::<Notation>().is_err() {
            return Err(PlanError::Settings(format!(
                "no notation {:?}",
                self.pgn_notation
            )));
        }
        let per_unit = self.games_per_unit as usize;
        let fits = self.units.iter().enumerate().all(|(k, u)| {
            u.index == k as u32
                && (1..=per_unit).contains(&u.games.len())
                && u.games.iter().all(|g| g.id.round == self.round)
        });
        if !fits {
            return Err(PlanError::Format(
                "the units do not fit the plan's round and unit size".into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::event::{Event, Next};

    pub(crate) fn config() -> TournamentConfig {
        TournamentConfig::from_json(
            r#"{
                "event": "Plan cup",
                "engines": [{"name": "A", "command": "./a"}, {"name": "B", "command": "./b"},
                            {"name": "C", "command": "./c"}, {"name": "D", "command": "./d"}],
                "format": {"type": "round_robin", "games_per_pairing": 2},
                "time_control": "60+1",
                "limit": {"depth": 2},
                "openings": [{"moves": ["h2e2"]}],
                "output": {"results": "/tmp/r.jsonl"}
            }"#,
        )
        .unwrap()
    }

    fn due(config: &TournamentConfig) -> Vec<GameSpec> {
        let mut event = Event::new(config.clone()).unwrap();
        event.start();
        let Next::Pair(round) = event.next().unwrap() else {
            panic!("round 1 is to pair");
        };
        event
            .apply(crate::tournament::results::Record::Round(round))
            .unwrap();
        let Next::Play(due) = event.next().unwrap() else {
            panic!("round 1 is to play");
        };
        due.iter().map(|s| event.spec(s)).collect()
    }

    #[test]
    fn the_due_games_in_units_and_back() {
        let c = config();
        let games = due(&c);
        assert_eq!(games.len(), 4);
        assert_eq!(games[0].limit, Some(FixedLimit::Depth(2)));
        let plan = Plan::new(
            &c,
            1,
            &games,
            3,
            "2026.12.02",
            Notation::Iccs(IccsStyle::Compact),
        )
        .unwrap();
        assert_eq!(plan.units.len(), 2);
        assert_eq!(plan.games(), 4);
        let back: Vec<GameSpec> = plan
            .units
            .iter()
            .flat_map(|u| u.games.iter().map(PlannedGame::spec))
            .collect();
        assert_eq!(back, games);
        assert!(matches!(plan.unit(2), Err(PlanError::NoUnit(2))));
    }

    #[test]
    fn json_round_trip_and_checks() {
        let c = config();
        let plan = Plan::new(
            &c,
            1,
            &due(&c),
            1,
            "2026.12.02",
            Notation::Iccs(IccsStyle::Compact),
        )
        .unwrap();
        let json = plan.to_json();
        assert!(json.contains("\"depth\": 2"), "{json}");
        assert_eq!(Plan::from_json(&json).unwrap(), plan);
        // An edited game, an edited configuration: refused.
        let edited = json.replacen("\"depth\": 2", "\"depth\": 3", 2);
        assert!(matches!(Plan::from_json(&edited), Err(PlanError::RunId)));
        let edited = json.replace("\"game\": 2", "\"game\": 3");
        assert!(matches!(Plan::from_json(&edited), Err(PlanError::RunId)));
        assert!(Plan::from_json("{}").is_err());
        // Output paths do not change the event.
        let mut moved = c.clone();
        moved.output.results = "/elsewhere.jsonl".into();
        assert_eq!(event_id(&moved), plan.event_id);
        moved.limit = Some(FixedLimit::Nodes(100));
        assert_ne!(event_id(&moved), plan.event_id);
        assert!(
            Plan::new(
                &c,
                1,
                &due(&c),
                0,
                "2026.12.02",
                Notation::Iccs(IccsStyle::Compact)
            )
            .is_err()
        );
    }
}
