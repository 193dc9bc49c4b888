//! [`Plan`]: one ply of a book generation split into deterministic, idempotent
//! work units, the design of match plans (`r#match::plan`) for `chuhan book
//! generate` (shared parts in [`crate::work_unit`]).
//!
//! The generator is iterative: the positions of ply `p + 1` are the replies the
//! searches of ply `p` kept. So a plan describes one ply: the generation's
//! settings, the ply, its positions in search order (FEN, normalised: no history,
//! counters reset) and a `units` array of consecutive runs of them. Unit `K` of
//! ply `P` is searched anywhere by `chuhan book generate --unit plan.json K --out
//! DIR` into `DIR/ply-P-unit-K.json` ([`super::unit`]); `--merge DIR` replays the
//! generation from the settings with the analyses found there and either builds
//! the book (every ply searched) or writes the plan of the first ply still
//! missing. Each search starts from a fresh engine state, so a unit is a pure
//! function of its plan and the engine build, and the merged book is the one a
//! local `chuhan book generate` with the same settings builds, byte for byte.
//!
//! ```json
//! {
//!   "format": "chuhan-book-plan", "version": 1, "engine": "chuhan 0.1.0",
//!   "run_id": "3b1f…",
//!   "settings": { "start": "rnbakabnr/…", "plies": 8, "depth": 8, "width": 4,
//!                 "margin": 30, "max_positions": null, "hash_mb": 16,
//!                 "positions_per_unit": 16 },
//!   "ply": 2,
//!   "positions": [ "rnbakab1r/…", … ],
//!   "units": [ { "index": 0, "first": 0, "positions": 16 }, … ]
//! }
//! ```
//!
//! The run id hashes the engine build and the settings; it is the same for every
//! ply of one generation and is written into every unit file.

use super::{GenerateError, GenerateOptions, Growth};
pub use crate::work_unit::PlanError;
pub use crate::work_unit::PlanFile;
pub use crate::work_unit::UnitPlan;
use crate::work_unit::{Stamp, check_units, engine_name};
use chuhan_engine::binary::fnv1a;
use chuhan_engine::core::Position;
use chuhan_engine::search::Value;
use serde::{Deserialize, Serialize};

/// The `format` field of a book plan.
pub const PLAN_FORMAT: &str = "chuhan-book-plan";
/// The plan version this build writes and reads.
pub const PLAN_VERSION: u32 = 1;

/// Everything that decides a generated book ([`GenerateOptions`] less the
/// threads, which do not change it), the start position and the unit size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The start position (FEN).
    pub start: String,
    /// Book moves are searched for the first `plies` plies.
    pub plies: u32,
    /// Search depth of every position past the first `deep_plies` plies.
    pub depth: i32,
    /// The first `deep_plies` plies are searched to `deep_depth`. Both are 0 and
    /// left out of the JSON when no ply is searched deeper, so such a plan reads and
    /// hashes as the plans of builds before the option.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deep_plies: u32,
    /// Search depth of the first `deep_plies` plies (0 when there are none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deep_depth: i32,
    /// At most this many different replies per position.
    pub width: usize,
    /// Replies more than this many centipawns below the best are left out.
    pub margin: Value,
    /// Stop after this many searched positions.
    pub max_positions: Option<usize>,
    /// Hash size of each engine in MB (it can change a search, so it is fixed).
    pub hash_mb: usize,
    /// Positions per work unit.
    pub positions_per_unit: u32,
}

impl Settings {
    /// The settings of a generation from `start` with `options`, `positions_per_unit`
    /// positions a unit.
    pub fn new(start: &Position, options: &GenerateOptions, positions_per_unit: u32) -> Settings {
        Settings {
            start: start.to_fen(),
            plies: options.plies,
            depth: options.depth,
            deep_plies: options.deep_plies,
            deep_depth: if options.deep_plies > 0 {
                options.deep_depth
            } else {
                0
            },
            width: options.width,
            margin: options.margin,
            max_positions: options.max_positions,
            hash_mb: options.hash_mb,
            positions_per_unit,
        }
    }

    /// The generator options, searching `threads` positions at once.
    pub fn options(&self, threads: usize) -> GenerateOptions {
        GenerateOptions {
            plies: self.plies,
            depth: self.depth,
            deep_plies: self.deep_plies,
            deep_depth: self.deep_depth,
            width: self.width,
            margin: self.margin,
            max_positions: self.max_positions,
            threads,
            hash_mb: self.hash_mb,
        }
    }

    /// The start position.
    pub fn start_position(&self) -> Result<Position, PlanError> {
        Position::from_fen(&self.start)
            .map_err(|e| PlanError::Settings(format!("start position: {e}")))
    }

    /// A generation at its start.
    pub fn growth(&self) -> Result<Growth, PlanError> {
        Growth::new(&self.start_position()?, &self.options(1))
            .map_err(|e: GenerateError| PlanError::Settings(e.to_string()))
    }

    /// The run id (hex): the hash of the engine build and the settings.
    pub fn run_id(&self) -> String {
        let text = serde_json::to_string(&(engine_name(), self)).expect("settings serialise");
        format!("{:016x}", fnv1a(text.as_bytes()))
    }
}

/// Whether a number is 0 (serde's `skip_serializing_if`).
fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

/// One work unit: a run of consecutive positions of the ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Its index `K` (its file is `ply-P-unit-K.json`).
    pub index: u32,
    /// Its first position (an index into the plan's positions).
    pub first: u32,
    /// Its number of positions.
    pub positions: u32,
}

impl Unit {
    /// The unit's position indices.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.first as usize..(self.first + self.positions) as usize
    }
}

/// One ply of a generation split into units.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// Its kind, version and engine build ([`PLAN_FORMAT`], [`PLAN_VERSION`]).
    #[serde(flatten)]
    pub stamp: Stamp,
    /// The run id (hex), the same for every ply of the generation.
    pub run_id: String,
    /// The settings.
    pub settings: Settings,
    /// The ply (0 = the start position).
    pub ply: u32,
    /// The positions of the ply (FEN), in search order.
    pub positions: Vec<String>,
    /// The units, in index order.
    pub units: Vec<Unit>,
}

/// The units of `positions` positions, `per_unit` at a time.
fn units(positions: usize, per_unit: u32) -> Vec<Unit> {
    let per_unit = per_unit.max(1) as usize;
    (0..positions)
        .step_by(per_unit)
        .enumerate()
        .map(|(k, first)| Unit {
            index: k as u32,
            first: first as u32,
            positions: per_unit.min(positions - first) as u32,
        })
        .collect()
}

impl Plan {
    /// The plan of the first ply (the start position) of a generation.
    pub fn new(settings: Settings) -> Result<Plan, PlanError> {
        let growth = settings.growth()?;
        Plan::of(settings, &growth)
    }

    /// The plan of the ply `growth` is waiting for.
    pub fn of(settings: Settings, growth: &Growth) -> Result<Plan, PlanError> {
        if settings.positions_per_unit == 0 {
            return Err(PlanError::Settings(
                "positions per unit must be at least 1".into(),
            ));
        }
        let positions: Vec<String> = growth.pending().iter().map(Position::to_fen).collect();
        Ok(Plan {
            stamp: Stamp::of::<Plan>(),
            run_id: settings.run_id(),
            ply: growth.ply(),
            units: units(positions.len(), settings.positions_per_unit),
            positions,
            settings,
        })
    }

    /// Unit `k`.
    pub fn unit(&self, k: u32) -> Result<&Unit, PlanError> {
        self.units
            .get(k as usize)
            .filter(|u| u.index == k)
            .ok_or(PlanError::NoUnit(k))
    }

    /// The positions of unit `k` (FEN).
    pub fn unit_positions(&self, k: u32) -> Result<&[String], PlanError> {
        Ok(&self.positions[self.unit(k)?.range()])
    }
}

impl UnitPlan for Plan {
    const RUN: &'static str = "book run";

    fn run_id(&self) -> &str {
        &self.run_id
    }

    fn check_unit(&self, k: u32) -> Result<(), PlanError> {
        self.unit(k).map(|_| ())
    }

    /// `ply-P-unit-K.json`: a run's directory holds every ply's units.
    fn unit_file_name(&self, k: u32) -> String {
        super::unit::file_name(self.ply, k)
    }
}

impl PlanFile for Plan {
    const FORMAT: &'static str = PLAN_FORMAT;
    const VERSION: u32 = PLAN_VERSION;

    fn stamp(&self) -> &Stamp {
        &self.stamp
    }

    /// Checks run id, ply and units.
    fn check_content(&self) -> Result<(), PlanError> {
        if self.run_id != self.settings.run_id() {
            return Err(PlanError::RunId);
        }
        self.settings.growth()?;
        if self.settings.positions_per_unit == 0 {
            return Err(PlanError::Settings(
                "positions per unit must be at least 1".into(),
            ));
        }
        if self.ply >= self.settings.plies || self.positions.is_empty() {
            return Err(PlanError::Format(format!(
                "ply {} with {} positions is not a ply of a generation of {} plies",
                self.ply,
                self.positions.len(),
                self.settings.plies
            )));
        }
        check_units(
            &units(self.positions.len(), self.settings.positions_per_unit),
            &self.units,
        )?;
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn settings() -> Settings {
        Settings::new(
            &Position::startpos(),
            &GenerateOptions {
                plies: 3,
                depth: 1,
                deep_plies: 0,
                deep_depth: 1,
                width: 2,
                margin: 40,
                max_positions: None,
                threads: 1,
                hash_mb: 1,
            },
            2,
        )
    }

    #[test]
    fn units_cover_the_positions_in_runs() {
        assert_eq!(
            units(5, 2),
            vec![
                Unit {
                    index: 0,
                    first: 0,
                    positions: 2
                },
                Unit {
                    index: 1,
                    first: 2,
                    positions: 2
                },
                Unit {
                    index: 2,
                    first: 4,
                    positions: 1
                },
            ]
        );
        assert!(units(0, 3).is_empty());
    }

    #[test]
    fn the_first_plan_searches_the_start_position() {
        let plan = Plan::new(settings()).unwrap();
        assert_eq!(plan.ply, 0);
        assert_eq!(plan.positions, vec![Position::startpos().to_fen()]);
        assert_eq!(plan.units.len(), 1);
        assert_eq!(plan.unit_positions(0).unwrap().len(), 1);
        assert!(matches!(plan.unit(1), Err(PlanError::NoUnit(1))));
    }

    #[test]
    fn json_round_trip_and_checks() {
        let plan = Plan::new(settings()).unwrap();
        let json = plan.to_json();
        assert!(json.contains("\"format\": \"chuhan-book-plan\""), "{json}");
        assert_eq!(Plan::from_json(&json).unwrap(), plan);
        // Other settings, other run: an edited plan is refused.
        let edited = json.replace("\"depth\": 1", "\"depth\": 2");
        assert!(matches!(Plan::from_json(&edited), Err(PlanError::RunId)));
        let past_the_end = json.replace("\"ply\": 0", "\"ply\": 3");
        assert!(matches!(
            Plan::from_json(&past_the_end),
            Err(PlanError::Format(_))
        ));
        assert!(Plan::from_json("{}").is_err());
        // Another unit size, another run.
        let mut other = settings();
        other.positions_per_unit = 3;
        assert_ne!(other.run_id(), plan.run_id);
        other.positions_per_unit = 0;
        assert!(Plan::new(other).is_err());
    }

    #[test]
    fn deeper_first_plies_are_in_the_plan_only_when_asked_for() {
        // Without them the JSON is that of the builds before the option.
        let plain = Plan::new(settings()).unwrap();
        assert!(!plain.to_json().contains("deep_"), "{}", plain.to_json());
        assert_eq!(plain.settings.options(1).depth_at(0), 1);
        let mut deep = settings();
        deep.deep_plies = 1;
        deep.deep_depth = 3;
        let plan = Plan::new(deep.clone()).unwrap();
        let json = plan.to_json();
        assert!(json.contains("\"deep_plies\": 1") && json.contains("\"deep_depth\": 3"));
        assert_eq!(Plan::from_json(&json).unwrap(), plan);
        assert_ne!(plan.run_id, plain.run_id);
        let options = deep.options(1);
        assert_eq!((options.depth_at(0), options.depth_at(1)), (3, 1));
    }
}
