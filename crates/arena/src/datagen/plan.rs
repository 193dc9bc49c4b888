//! [`Plan`]: a data-generation run split into deterministic, idempotent work units.
//!
//! A run is `games` self-play games numbered from 0. Game `g` starts from opening
//! `g mod n` of the plan's openings, plays `random_plies` random moves drawn from
//! the game's seed ([`game_seed`]: a pure function of the run seed and `g`), and
//! is then played out by the engine. Unit `K` holds games
//! `K·games_per_unit …` (the last unit may be shorter); its file is a pure function
//! of the plan and the engine build, so a unit played twice, anywhere, gives the
//! same bytes, and a finished unit (its file exists with the run's id) is never
//! played again.
//!
//! The plan is self-contained JSON (settings, openings, units), so a cluster driver
//! can hand `chuhan datagen --unit plan.json K --out DIR` to any machine:
//!
//! ```json
//! {
//!   "format": "chuhan-datagen-plan", "version": 1, "engine": "chuhan 0.1.0",
//!   "run_id": "5f0c…",
//!   "settings": { "seed": 1, "games": 128, "games_per_unit": 64,
//!                 "limit": { "nodes": 5000 }, "random_plies": 8, … },
//!   "openings": [ { "fen": "…", "moves": ["h2e2", …] }, … ],
//!   "units": [ { "index": 0, "first_game": 0, "games": 64, "seed": 1 }, … ]
//! }
//! ```
//!
//! The run id hashes everything that decides a unit's content except the number
//! of games, so raising `--games` extends a run: the units already written stay
//! valid.

use super::filter::Filters;
use crate::game::opening::Opening;
use crate::lots::Lots;
use crate::r#match::adjudication::{DrawRule, ResignRule};
pub use crate::work_unit::{PlanError, engine_name};
pub use crate::work_unit::{PlanFile, UnitPlan};
use crate::work_unit::{Stamp, check_units};
use chuhan_engine::binary::fnv1a;
use chuhan_engine::rules::RuleSet;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The `format` field of a plan.
pub const PLAN_FORMAT: &str = "chuhan-datagen-plan";
/// The plan version this build writes and reads.
pub const PLAN_VERSION: u32 = 1;

/// How long each move is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchLimit {
    /// A fixed number of nodes (one search thread).
    Nodes(u64),
    /// A fixed depth.
    Depth(i32),
}

impl fmt::Display for SearchLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchLimit::Nodes(n) => write!(f, "{n} nodes"),
            SearchLimit::Depth(d) => write!(f, "depth {d}"),
        }
    }
}

/// Everything that decides the games of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The run seed.
    pub seed: u64,
    /// Games in the run.
    pub games: u64,
    /// Games per work unit.
    pub games_per_unit: u32,
    /// The search limit of every move.
    pub limit: SearchLimit,
    /// Random moves played after the opening's moves.
    pub random_plies: u32,
    /// Hash table of each game's engine, MB.
    pub hash_mb: usize,
    /// The rules games are judged (and searched) by.
    pub rules: RuleSet,
    /// Resign adjudication (the search's scores).
    pub resign: Option<ResignRule>,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// A game still going after this many plies is adjudicated drawn.
    pub max_plies: u32,
    /// Which positions are kept.
    pub filters: Filters,
}

/// One work unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Its index `K` (the file is `unit-K.bin`).
    pub index: u32,
    /// Its first game.
    pub first_game: u64,
    /// Its number of games.
    pub games: u32,
    /// The run seed its games' seeds derive from ([`game_seed`]).
    pub seed: u64,
}

impl Unit {
    /// The unit's game indices.
    pub fn game_range(&self) -> std::ops::Range<u64> {
        self.first_game..self.first_game + u64::from(self.games)
    }
}

/// A run split into units.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// Its kind, version and engine build ([`PLAN_FORMAT`], [`PLAN_VERSION`]).
    #[serde(flatten)]
    pub stamp: Stamp,
    /// The run id (hex), written into every unit file.
    pub run_id: String,
    /// The settings.
    pub settings: Settings,
    /// The openings, cycled through by game index.
    pub openings: Vec<Opening>,
    /// The units, in index order.
    pub units: Vec<Unit>,
}

/// The seed of game `g` of the run seeded `seed`.
pub fn game_seed(seed: u64, g: u64) -> u64 {
    Lots::new(seed).value("datagen game", g)
}

/// The run id of `settings` and `openings` with this engine build: the FNV-1a
/// hash of their JSON with `games` left out.
pub fn run_id(settings: &Settings, openings: &[Opening]) -> u64 {
    let mut s = settings.clone();
    s.games = 0;
    let text = serde_json::to_string(&(engine_name(), &s, openings))
        .expect("settings and openings serialise");
    fnv1a(text.as_bytes())
}

impl Settings {
    /// Checks values the runner cannot work with.
    pub fn check(&self) -> Result<(), PlanError> {
        let bad = |s: &str| Err(PlanError::Settings(s.to_string()));
        if self.games_per_unit == 0 {
            return bad("games per unit must be at least 1");
        }
        match self.limit {
            SearchLimit::Nodes(0) => return bad("nodes must be at least 1"),
            SearchLimit::Depth(d) if !(1..=100).contains(&d) => {
                return bad("depth must be from 1 to 100");
            }
            _ => {}
        }
        if self.hash_mb == 0 {
            return bad("hash must be at least 1 MB");
        }
        if self.max_plies == 0 {
            return bad("the ply limit must be at least 1");
        }
        Ok(())
    }
}

impl Plan {
    /// The plan of `settings` over `openings` (an empty list means the start
    /// position).
    pub fn new(settings: Settings, openings: Vec<Opening>) -> Result<Plan, PlanError> {
        settings.check()?;
        let openings = if openings.is_empty() {
            vec![Opening::new(None, &[]).expect("the start position is an opening")]
        } else {
            openings
        };
        let per = u64::from(settings.games_per_unit);
        let count = settings.games.div_ceil(per);
        if count > u64::from(u32::MAX) {
            return Err(PlanError::Settings("too many units".into()));
        }
        let units = (0..count)
            .map(|k| {
                let first_game = k * per;
                Unit {
                    index: k as u32,
                    first_game,
                    games: (settings.games - first_game).min(per) as u32,
                    seed: settings.seed,
                }
            })
            .collect();
        let id = run_id(&settings, &openings);
        Ok(Plan {
            stamp: Stamp::of::<Plan>(),
            run_id: format!("{id:016x}"),
            settings,
            openings,
            units,
        })
    }

    /// The run id as a number.
    pub fn id(&self) -> u64 {
        u64::from_str_radix(&self.run_id, 16).unwrap_or(0)
    }

    /// Unit `k`.
    pub fn unit(&self, k: u32) -> Result<&Unit, PlanError> {
        self.units
            .get(k as usize)
            .filter(|u| u.index == k)
            .ok_or(PlanError::NoUnit(k))
    }

    /// The opening of game `g`.
    pub fn opening(&self, g: u64) -> &Opening {
        &self.openings[(g % self.openings.len() as u64) as usize]
    }
}

impl UnitPlan for Plan {
    const RUN: &'static str = "run";

    fn run_id(&self) -> &str {
        &self.run_id
    }

    fn check_unit(&self, k: u32) -> Result<(), PlanError> {
        self.unit(k).map(|_| ())
    }

    /// `unit-K.bin` ([`super::unit_file`], a binary file): a data directory
    /// holds one run.
    fn unit_file_name(&self, k: u32) -> String {
        super::unit_file::file_name(k)
    }
}

impl PlanFile for Plan {
    const FORMAT: &'static str = PLAN_FORMAT;
    const VERSION: u32 = PLAN_VERSION;

    fn stamp(&self) -> &Stamp {
        &self.stamp
    }

    /// Checks settings, openings, run id and units.
    fn check_content(&self) -> Result<(), PlanError> {
        let plan = self;
        plan.settings.check()?;
        if plan.openings.is_empty() {
            return Err(PlanError::Format("the plan has no opening".into()));
        }
        if plan.id() != run_id(&plan.settings, &plan.openings) {
            return Err(PlanError::RunId);
        }
        let expected = Plan::new(plan.settings.clone(), plan.openings.clone())?;
        check_units(&expected.units, &plan.units)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn settings(games: u64) -> Settings {
        Settings {
            seed: 5,
            games,
            games_per_unit: 3,
            limit: SearchLimit::Depth(2),
            random_plies: 4,
            hash_mb: 1,
            rules: RuleSet::Cxa2011,
            resign: None,
            draw: None,
            max_plies: 40,
            filters: Filters::default(),
        }
    }

    #[test]
    fn units_cover_the_games_once() {
        let plan = Plan::new(settings(10), Vec::new()).unwrap();
        assert_eq!(plan.units.len(), 4);
        let games: Vec<u64> = plan.units.iter().flat_map(|u| u.game_range()).collect();
        assert_eq!(games, (0..10).collect::<Vec<_>>());
        assert_eq!(plan.units[3].games, 1);
        assert_eq!(plan.unit(2).unwrap().first_game, 6);
        assert!(matches!(plan.unit(4), Err(PlanError::NoUnit(4))));
    }

    #[test]
    fn json_round_trip_and_checks() {
        let plan = Plan::new(settings(7), Vec::new()).unwrap();
        let back = Plan::from_json(&plan.to_json()).unwrap();
        assert_eq!(back, plan);
        let edited = plan
            .to_json()
            .replace("\"random_plies\": 4", "\"random_plies\": 5");
        assert!(matches!(Plan::from_json(&edited), Err(PlanError::RunId)));
        assert!(Plan::from_json("{}").is_err());
    }

    #[test]
    fn more_games_extend_the_same_run() {
        let a = Plan::new(settings(6), Vec::new()).unwrap();
        let b = Plan::new(settings(60), Vec::new()).unwrap();
        assert_eq!(a.run_id, b.run_id);
        assert_eq!(a.units[..], b.units[..2]);
        let mut other = settings(6);
        other.seed = 6;
        assert_ne!(Plan::new(other, Vec::new()).unwrap().run_id, a.run_id);
        assert_ne!(game_seed(5, 0), game_seed(5, 1));
    }

    #[test]
    fn bad_settings_are_refused() {
        let mut s = settings(4);
        s.games_per_unit = 0;
        assert!(Plan::new(s, Vec::new()).is_err());
        let mut s = settings(4);
        s.limit = SearchLimit::Nodes(0);
        assert!(Plan::new(s, Vec::new()).is_err());
    }
}
