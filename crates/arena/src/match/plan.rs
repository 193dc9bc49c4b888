//! [`Plan`]: a match split into deterministic, idempotent work units, the design of
//! [`crate::datagen::plan`] for matches (shared parts in [`crate::work_unit`]).
//!
//! `chuhan match … --plan plan.json` writes the plan: the match's settings, its
//! opening suite and a `units` array. Unit `K` lists its games (number, pairing,
//! colours, opening index, pair) with the seed, limit and engines they are played
//! with; games go `games_per_unit` at a time in schedule order, so with an even
//! unit size both games of an opening (a pentanomial pair) are in one unit. A
//! game at a fixed depth or node count is a pure function of the plan, so a unit
//! can be played on any machine, and played again after a lost node, with the
//! same result; [`super::unit_result`] writes and merges what units played.
//!
//! ```json
//! {
//!   "format": "chuhan-match-plan", "version": 1, "engine": "chuhan 0.1.0",
//!   "plan_id": "9c1e…",
//!   "settings": { "engines": [ { "cmd": "./chuhan", "name": "A", … }, … ],
//!                 "games": 40, "games_per_unit": 2, "limit": { "depth": 3 },
//!                 "rules": "cxa2011", "referee": "text", "seed": 1, "sprt": null, … ,
//!                 "date": "2026.12.02" },
//!   "openings": [ { "fen": "…", "moves": ["h2e2", …] }, … ],
//!   "units": [ { "index": 0, "seed": 1, "limit": { "depth": 3 }, "engines": ["A", "B"],
//!                "games": [ { "number": 1, "pairing": 0, "red": 0, "black": 1,
//!                             "opening": 17, "pair": 0 }, … ] }, … ]
//! }
//! ```
//!
//! `referee` is written only when it is `text`: absent means strict, so plans
//! from before it was a setting read (and hash) as they did.

use super::adjudication::Adjudication;
use super::client::Timeouts;
use super::limit::Limit;
use super::process::TrafficLog;
use super::runner::MatchConfig;
use super::schedule::{self, ScheduledGame, Slot};
use super::sprt::Sprt;
use crate::game::engine_config::EngineConfig;
use crate::game::opening::Opening;
pub use crate::work_unit::PlanError;
pub use crate::work_unit::PlanFile;
pub use crate::work_unit::UnitPlan;
use crate::work_unit::{Stamp, check_units, engine_name};
use chuhan_engine::binary::fnv1a;
use chuhan_engine::rules::{Referee, RuleSet};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The `format` field of a match plan.
pub const PLAN_FORMAT: &str = "chuhan-match-plan";
/// The plan version this build writes and reads.
pub const PLAN_VERSION: u32 = 1;

/// Everything that decides a match's games (what `chuhan match` takes, less the
/// concurrency, the traffic log and the waits, plus the PGN date and the unit size).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The engines; names are unique.
    pub engines: Vec<EngineConfig>,
    /// Games per pairing.
    pub games: u32,
    /// Games per work unit.
    pub games_per_unit: u32,
    /// The search limit.
    pub limit: Limit,
    /// The rules games are judged by.
    pub rules: RuleSet,
    /// When a forbidden repetition ends a game. Absent (older plans, and the
    /// default, so their ids stay the same): strict.
    #[serde(default, skip_serializing_if = "crate::game::play::is_strict")]
    pub referee: Referee,
    /// The seed that shuffled the openings.
    pub seed: Option<u64>,
    /// The SPRT of the first engine against the second, if one runs.
    pub sprt: Option<Sprt>,
    /// Score adjudication.
    pub adjudication: Adjudication,
    /// Milliseconds forgiven beyond the clock or move time.
    pub tolerance_ms: u64,
    /// Milliseconds an untimed search may take.
    pub hang_timeout_ms: u64,
    /// PGN `Event`.
    pub event: String,
    /// PGN `Date` of every game (the day the plan was made).
    pub date: String,
}

/// One work unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Its index `K` (its result file is `unit-K.json`).
    pub index: u32,
    /// The match seed (it decided the openings; kept for the record).
    pub seed: Option<u64>,
    /// The search limit of its games.
    pub limit: Limit,
    /// The engines' names, by index.
    pub engines: Vec<String>,
    /// Its games, in schedule order.
    pub games: Vec<Slot>,
}

/// A match split into units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// Its kind, version and engine build ([`PLAN_FORMAT`], [`PLAN_VERSION`]).
    #[serde(flatten)]
    pub stamp: Stamp,
    /// The plan id (hex): the hash of the settings and openings, written into
    /// every unit result.
    pub plan_id: String,
    /// The settings.
    pub settings: Settings,
    /// The opening suite (may be empty: the standard start).
    pub openings: Vec<Opening>,
    /// The units, in index order.
    pub units: Vec<Unit>,
}

impl Plan {
    /// The plan of the match `config`, `games_per_unit` games a unit, every game
    /// dated `date` (`yyyy.mm.dd`).
    pub fn new(config: &MatchConfig, games_per_unit: u32, date: &str) -> Result<Plan, PlanError> {
        let settings = Settings {
            engines: config.engines.clone(),
            games: config.games,
            games_per_unit,
            limit: config.limit.clone(),
            rules: config.rules,
            referee: config.referee,
            seed: config.seed,
            sprt: config.sprt,
            adjudication: config.adjudication,
            tolerance_ms: config.tolerance.as_millis() as u64,
            hang_timeout_ms: config.hang_timeout.as_millis() as u64,
            event: config.event.clone(),
            date: date.to_string(),
        };
        Plan::of(settings, config.openings.clone())
    }

    fn of(settings: Settings, openings: Vec<Opening>) -> Result<Plan, PlanError> {
        if settings.games_per_unit == 0 {
            return Err(PlanError::Settings(
                "games per unit must be at least 1".into(),
            ));
        }
        if settings.engines.len() < 2 || settings.games == 0 {
            return Err(PlanError::Settings(
                "a match needs two engines and at least one game".into(),
            ));
        }
        let slots = schedule::slots(
            settings.engines.len(),
            settings.games,
            openings.len(),
            settings.seed,
        );
        let names: Vec<String> = settings.engines.iter().map(|e| e.name.clone()).collect();
        let units = slots
            .chunks(settings.games_per_unit as usize)
            .enumerate()
            .map(|(k, games)| Unit {
                index: k as u32,
                seed: settings.seed,
                limit: settings.limit.clone(),
                engines: names.clone(),
                games: games.to_vec(),
            })
            .collect();
        let text = serde_json::to_string(&(engine_name(), &settings, &openings))
            .expect("settings and openings serialise");
        Ok(Plan {
            stamp: Stamp::of::<Plan>(),
            plan_id: format!("{:016x}", fnv1a(text.as_bytes())),
            settings,
            openings,
            units,
        })
    }

    /// Unit `k`.
    pub fn unit(&self, k: u32) -> Result<&Unit, PlanError> {
        self.units
            .get(k as usize)
            .filter(|u| u.index == k)
            .ok_or(PlanError::NoUnit(k))
    }

    /// Games in the whole match.
    pub fn scheduled(&self) -> u32 {
        self.units.iter().map(|u| u.games.len() as u32).sum()
    }

    /// The scheduled game of a slot, its opening attached.
    pub fn game(&self, slot: &Slot) -> ScheduledGame {
        slot.game(&self.openings)
    }

    /// The match configuration that plays the plan's games: `concurrency` games
    /// at once, engine traffic to `log`.
    pub fn config(&self, concurrency: usize, log: Option<TrafficLog>) -> MatchConfig {
        let s = &self.settings;
        MatchConfig {
            engines: s.engines.clone(),
            games: s.games,
            limit: s.limit.clone(),
            concurrency,
            openings: self.openings.clone(),
            rules: s.rules,
            referee: s.referee,
            seed: s.seed,
            sprt: s.sprt,
            adjudication: s.adjudication,
            tolerance: Duration::from_millis(s.tolerance_ms),
            hang_timeout: Duration::from_millis(s.hang_timeout_ms),
            timeouts: Timeouts::default(),
            event: s.event.clone(),
            log,
        }
    }
}

impl UnitPlan for Plan {
    const RUN: &'static str = "plan";

    fn run_id(&self) -> &str {
        &self.plan_id
    }

    fn check_unit(&self, k: u32) -> Result<(), PlanError> {
        self.unit(k).map(|_| ())
    }

    /// `unit-K.json`: a results directory holds one plan.
    fn unit_file_name(&self, k: u32) -> String {
        format!("unit-{k}.json")
    }
}

impl PlanFile for Plan {
    const FORMAT: &'static str = PLAN_FORMAT;
    const VERSION: u32 = PLAN_VERSION;

    fn stamp(&self) -> &Stamp {
        &self.stamp
    }

    /// Checks id and units.
    fn check_content(&self) -> Result<(), PlanError> {
        let expected = Plan::of(self.settings.clone(), self.openings.clone())?;
        if expected.plan_id != self.plan_id {
            return Err(PlanError::RunId);
        }
        check_units(&expected.units, &self.units)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::r#match::engine_arg;

    pub(crate) fn config(games: u32) -> MatchConfig {
        MatchConfig {
            engines: vec![
                engine_arg::parse("./a name=A").unwrap(),
                engine_arg::parse("./b name=B").unwrap(),
            ],
            games,
            limit: Limit::Depth(2),
            concurrency: 1,
            openings: ["h2e2", "b2e2", "c3c4"]
                .iter()
                .map(|m| Opening::new(None, &[m.to_string()]).unwrap())
                .collect(),
            rules: RuleSet::Cxa2011,
            referee: Referee::Strict,
            seed: Some(7),
            sprt: Some("elo0=0 elo1=10".parse().unwrap()),
            adjudication: Adjudication::default(),
            tolerance: Duration::from_millis(50),
            hang_timeout: Duration::from_secs(30),
            timeouts: Timeouts::default(),
            event: "plan test".into(),
            log: None,
        }
    }

    #[test]
    fn units_cover_the_schedule_once_in_order() {
        let c = config(9);
        let plan = Plan::new(&c, 2, "2026.12.02").unwrap();
        assert_eq!(plan.units.len(), 5);
        assert_eq!(plan.scheduled(), 9);
        let games: Vec<ScheduledGame> = plan
            .units
            .iter()
            .flat_map(|u| u.games.iter().map(|s| plan.game(s)))
            .collect();
        assert_eq!(games, schedule::schedule(2, 9, &c.openings, c.seed));
        // An even unit size keeps both games of an opening together.
        assert!(
            plan.units[..4]
                .iter()
                .all(|u| u.games[0].pair == u.games[1].pair)
        );
        assert_eq!(plan.unit(4).unwrap().games.len(), 1);
        assert!(matches!(plan.unit(5), Err(PlanError::NoUnit(5))));
    }

    #[test]
    fn json_round_trip_and_checks() {
        let plan = Plan::new(&config(6), 4, "2026.12.02").unwrap();
        let json = plan.to_json();
        assert!(
            json.contains("\"depth\": 2")
                && json.contains("\"elo0=0 elo1=10 alpha=0.05 beta=0.05\"")
        );
        assert_eq!(Plan::from_json(&json).unwrap(), plan);
        let edited = json.replace("\"games\": 6", "\"games\": 8");
        assert!(matches!(Plan::from_json(&edited), Err(PlanError::RunId)));
        assert!(Plan::from_json("{}").is_err());
        let back = Plan::from_json(&json).unwrap().config(2, None);
        assert_eq!(
            (back.limit, back.games, back.seed),
            (Limit::Depth(2), 6, Some(7))
        );
        assert_eq!(back.tolerance, Duration::from_millis(50));
    }

    #[test]
    fn the_referee_travels_and_older_plans_read_as_strict() {
        // A strict plan is written as plans were before the referee was a
        // setting: no key, the same id.
        let strict = Plan::new(&config(4), 2, "2026.12.02").unwrap();
        let json = strict.to_json();
        assert!(!json.contains("referee"), "{json}");
        let back = Plan::from_json(&json).unwrap();
        assert_eq!(back.config(1, None).referee, Referee::Strict);
        let mut c = config(4);
        c.referee = Referee::Text;
        let text = Plan::new(&c, 2, "2026.12.02").unwrap();
        let json = text.to_json();
        assert!(json.contains("\"referee\": \"text\""), "{json}");
        assert_ne!(text.plan_id, strict.plan_id);
        assert_eq!(
            Plan::from_json(&json).unwrap().config(1, None).referee,
            Referee::Text
        );
    }

    #[test]
    fn bad_settings_are_refused() {
        assert!(Plan::new(&config(4), 0, "2026.12.02").is_err());
        assert!(Plan::new(&config(0), 2, "2026.12.02").is_err());
    }
}
