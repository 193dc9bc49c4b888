//! [`Plan`]: one round of an SPSA run as deterministic, idempotent work units, the
//! design of the other plans ([`crate::work_unit`]) for `chuhan spsa`.
//!
//! A run of `iterations` iterations goes in rounds of `pairs_per_round`
//! iterations; each iteration is one game pair (unit), so within a round every
//! pair is played from the same θ, with its own direction Δ, its own `k` and its
//! own opening. A plan describes one round: the run's settings, the openings,
//! the round, θ at its start (for the record) and its units, each with the
//! integer values θ+ and θ− are played with. `chuhan spsa --unit plan.json K
//! --out DIR` plays unit `K` anywhere into `DIR/unit-PLANID-K.json`
//! ([`super::unit`]); `--merge DIR` replays the run from the settings with the
//! unit files found there ([`super::merge`]) and either writes the tuned values
//! or the plan of the first round still missing.
//!
//! ```json
//! {
//!   "format": "chuhan-spsa-plan", "version": 1, "engine": "chuhan 0.2.0",
//!   "run_id": "3b1f…", "plan_id": "77a0…",
//!   "settings": { "engine": { "name": "chuhan", "command": "./chuhan", … },
//!                 "params": [ { "name": "RfpMargin", "value": 120.0, "min": 40,
//!                               "max": 300, "c_end": 10.0, "r_end": 0.002 } ],
//!                 "iterations": 1000, "pairs_per_round": 16, "limit": { "nodes": 5000 },
//!                 "rules": "cxa2011", "adjudication": { … }, "tolerance_ms": 50,
//!                 "hang_timeout_ms": 60000, "seed": 1 },
//!   "openings": [ … ],
//!   "round": 3, "theta": [ 121.73 ],
//!   "units": [ { "index": 0, "k": 48, "opening": 17, "delta": [ -1 ],
//!                "plus": [ 110 ], "minus": [ 134 ], "games": 2 }, … ]
//! }
//! ```
//!
//! The run id hashes the engine build, the settings and the openings; it is the
//! same for every round. The plan id hashes the run id, the round and the units
//! (integers only, so a plan read back from JSON has the id it was written with).

use super::iteration::{direction, perturbed};
use super::parameter::Parameter;
use super::schedule::Schedule;
use crate::game::engine_config::EngineConfig;
use crate::game::opening::Opening;
use crate::lots::Lots;
use crate::r#match::adjudication::Adjudication;
use crate::r#match::limit::Limit;
pub use crate::work_unit::PlanError;
pub use crate::work_unit::PlanFile;
pub use crate::work_unit::UnitPlan;
use crate::work_unit::{Stamp, check_units, engine_name};
use chuhan_engine::binary::fnv1a;
use chuhan_engine::rules::{Referee, RuleSet};
use serde::{Deserialize, Serialize};

/// The `format` field of an SPSA plan.
pub const PLAN_FORMAT: &str = "chuhan-spsa-plan";
/// The plan version this build writes and reads.
pub const PLAN_VERSION: u32 = 1;
/// Games per unit: one pair, the same opening with each setting as Red once.
pub const GAMES_PER_UNIT: u32 = 2;

/// Everything that decides an SPSA run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The engine both settings run (its own options are set for both).
    pub engine: EngineConfig,
    /// The tuned parameters, their values where the run starts.
    pub params: Vec<Parameter>,
    /// Iterations (game pairs) in the run.
    pub iterations: u32,
    /// Iterations per round (played from the same θ).
    pub pairs_per_round: u32,
    /// The search limit.
    pub limit: Limit,
    /// The rules games are judged by.
    pub rules: RuleSet,
    /// When a forbidden repetition ends a game (absent: strict).
    #[serde(default, skip_serializing_if = "crate::game::play::is_strict")]
    pub referee: Referee,
    /// Score adjudication.
    pub adjudication: Adjudication,
    /// Milliseconds forgiven beyond the clock or move time.
    pub tolerance_ms: u64,
    /// Milliseconds an untimed search may take.
    pub hang_timeout_ms: u64,
    /// The seed of the directions and of the order of the openings.
    pub seed: u64,
}

impl Settings {
    /// Checks the settings: parameters valid and unique, at least one iteration
    /// and one pair a round.
    pub fn check(&self) -> Result<(), PlanError> {
        let bad = |s: String| Err(PlanError::Settings(s));
        if self.params.is_empty() {
            return bad("no parameters to tune".into());
        }
        for (i, p) in self.params.iter().enumerate() {
            p.check().map_err(PlanError::Settings)?;
            if self.params[..i].iter().any(|q| q.name == p.name) {
                return bad(format!("{} is given twice", p.name));
            }
        }
        if self.iterations == 0 || self.pairs_per_round == 0 {
            return bad("iterations and pairs per round must be positive".into());
        }
        Ok(())
    }

    /// The run's gains.
    pub fn schedule(&self) -> Schedule {
        Schedule::new(&self.params, self.iterations)
    }

    /// Rounds in the run.
    pub fn rounds(&self) -> u32 {
        self.iterations.div_ceil(self.pairs_per_round)
    }

    /// The iterations of round `round`.
    pub fn iterations_of(&self, round: u32) -> std::ops::Range<u32> {
        let first = round
            .saturating_mul(self.pairs_per_round)
            .min(self.iterations);
        first
            ..first
                .saturating_add(self.pairs_per_round)
                .min(self.iterations)
    }

    /// The run id (hex) of these settings with `openings`.
    pub fn run_id(&self, openings: &[Opening]) -> String {
        let text = serde_json::to_string(&(engine_name(), self, openings))
            .expect("settings and openings serialise");
        format!("{:016x}", fnv1a(text.as_bytes()))
    }

    /// The starting θ.
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.value).collect()
    }

    /// The engine with the parameters set to `values`, called `name`.
    pub fn engine_with(&self, name: &str, values: &[i32]) -> EngineConfig {
        let mut e = self.engine.clone();
        e.name = name.to_string();
        for (p, v) in self.params.iter().zip(values) {
            e.options.insert(p.name.clone(), v.to_string());
        }
        e
    }
}

/// One work unit: one iteration, one game pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Its index `K` in the round.
    pub index: u32,
    /// Its iteration in the run, from 0.
    pub k: u32,
    /// The opening (an index into the plan's openings), if the run has any.
    pub opening: Option<usize>,
    /// The direction Δ, ±1 per parameter.
    pub delta: Vec<i8>,
    /// The values of θ+ = θ + c_k·Δ, clamped and rounded.
    pub plus: Vec<i32>,
    /// The values of θ− = θ − c_k·Δ, clamped and rounded.
    pub minus: Vec<i32>,
    /// Games in the unit (always [`GAMES_PER_UNIT`]).
    pub games: u32,
}

/// One round of an SPSA run split into units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// Its kind, version and engine build ([`PLAN_FORMAT`], [`PLAN_VERSION`]).
    #[serde(flatten)]
    pub stamp: Stamp,
    /// The run id (hex), the same for every round.
    pub run_id: String,
    /// The plan id (hex) of this round; unit files are named by it.
    pub plan_id: String,
    /// The settings.
    pub settings: Settings,
    /// The opening suite (may be empty: the standard start).
    pub openings: Vec<Opening>,
    /// The round, from 0.
    pub round: u32,
    /// θ at the start of the round (for the record: units carry what is played).
    pub theta: Vec<f64>,
    /// The units, in index order.
    pub units: Vec<Unit>,
}

/// The order the openings are used in: shuffled by the seed.
fn opening_order(seed: u64, openings: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..openings).collect();
    Lots::new(seed).shuffle("spsa openings", &mut order);
    order
}

impl Plan {
    /// The plan of the first round.
    pub fn new(settings: Settings, openings: Vec<Opening>) -> Result<Plan, PlanError> {
        let theta = settings.start();
        Plan::round(settings, openings, 0, theta)
    }

    /// The plan of round `round`, starting from `theta`.
    pub fn round(
        settings: Settings,
        openings: Vec<Opening>,
        round: u32,
        theta: Vec<f64>,
    ) -> Result<Plan, PlanError> {
        settings.check()?;
        if round >= settings.rounds() {
            return Err(PlanError::Settings(format!(
                "the run has {} rounds, not {}",
                settings.rounds(),
                round + 1
            )));
        }
        if theta.len() != settings.params.len() {
            return Err(PlanError::Settings("θ does not fit the parameters".into()));
        }
        let schedule = settings.schedule();
        let units = Plan::units_of(&settings, openings.len(), round, |k, delta| {
            perturbed(&settings.params, &schedule, &theta, k, delta)
        });
        let mut plan = Plan {
            stamp: Stamp::of::<Plan>(),
            run_id: settings.run_id(&openings),
            plan_id: String::new(),
            settings,
            openings,
            round,
            theta,
            units,
        };
        plan.plan_id = plan.id();
        Ok(plan)
    }

    /// The units of `round`, their values from `values(k, Δ)`.
    fn units_of(
        settings: &Settings,
        openings: usize,
        round: u32,
        mut values: impl FnMut(u32, &[i8]) -> (Vec<i32>, Vec<i32>),
    ) -> Vec<Unit> {
        let order = opening_order(settings.seed, openings);
        settings
            .iterations_of(round)
            .enumerate()
            .map(|(index, k)| {
                let delta = direction(settings.seed, k, settings.params.len());
                let (plus, minus) = values(k, &delta);
                Unit {
                    index: index as u32,
                    k,
                    opening: (!order.is_empty()).then(|| order[k as usize % order.len()]),
                    delta,
                    plus,
                    minus,
                    games: GAMES_PER_UNIT,
                }
            })
            .collect()
    }

    /// The plan id: the hash of the run id, the round and the units.
    fn id(&self) -> String {
        let text = serde_json::to_string(&(&self.run_id, self.round, &self.units))
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

    /// The two engines of a unit: θ+ (named `NAME+`) and θ− (`NAME-`).
    pub fn engines(&self, unit: &Unit) -> [EngineConfig; 2] {
        let name = &self.settings.engine.name;
        [
            self.settings.engine_with(&format!("{name}+"), &unit.plus),
            self.settings.engine_with(&format!("{name}-"), &unit.minus),
        ]
    }

    /// The unit's opening.
    pub fn opening(&self, unit: &Unit) -> Option<&Opening> {
        unit.opening.map(|i| &self.openings[i])
    }
}

impl UnitPlan for Plan {
    const RUN: &'static str = "SPSA run";

    fn run_id(&self) -> &str {
        &self.run_id
    }

    fn check_unit(&self, k: u32) -> Result<(), PlanError> {
        self.unit(k).map(|_| ())
    }

    /// `unit-PLANID-K.json`: a run's directory holds every round's plan.
    fn unit_file_name(&self, k: u32) -> String {
        format!("unit-{}-{k}.json", self.plan_id)
    }
}

impl PlanFile for Plan {
    const FORMAT: &'static str = PLAN_FORMAT;
    const VERSION: u32 = PLAN_VERSION;

    fn stamp(&self) -> &Stamp {
        &self.stamp
    }

    /// Checks the ids and the units (everything but the
    /// values θ± take, which depend on θ in floating point).
    fn check_content(&self) -> Result<(), PlanError> {
        self.settings.check()?;
        if self.run_id != self.settings.run_id(&self.openings) || self.plan_id != self.id() {
            return Err(PlanError::RunId);
        }
        if self.round >= self.settings.rounds() || self.theta.len() != self.settings.params.len() {
            return Err(PlanError::Format(
                "the round does not fit the settings".into(),
            ));
        }
        let mut found = self.units.iter();
        let expected = Plan::units_of(&self.settings, self.openings.len(), self.round, |_, _| {
            found
                .next()
                .map_or_else(Default::default, |u| (u.plus.clone(), u.minus.clone()))
        });
        check_units(&expected, &self.units)?;
        let params = &self.settings.params;
        let in_range = |values: &[i32]| {
            values.len() == params.len()
                && values
                    .iter()
                    .zip(params)
                    .all(|(v, p)| (p.min..=p.max).contains(v))
        };
        if !self
            .units
            .iter()
            .all(|u| in_range(&u.plus) && in_range(&u.minus))
        {
            return Err(PlanError::Format(
                "a unit's values do not fit the parameters".into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::r#match::engine_arg;

    pub(crate) fn settings(iterations: u32, pairs_per_round: u32) -> Settings {
        Settings {
            engine: engine_arg::parse("./chuhan option.Threads=1").unwrap(),
            params: vec![
                Parameter {
                    name: "RfpMargin".into(),
                    value: 120.0,
                    min: 40,
                    max: 300,
                    c_end: 10.0,
                    r_end: 0.002,
                },
                Parameter {
                    name: "LmrBase".into(),
                    value: 2.0,
                    min: 0,
                    max: 4,
                    c_end: 1.0,
                    r_end: 0.002,
                },
            ],
            iterations,
            pairs_per_round,
            limit: Limit::Nodes(1000),
            rules: RuleSet::Cxa2011,
            referee: Referee::Strict,
            adjudication: Adjudication::default(),
            tolerance_ms: 50,
            hang_timeout_ms: 30_000,
            seed: 5,
        }
    }

    pub(crate) fn openings() -> Vec<Opening> {
        ["h2e2", "b2e2", "c3c4"]
            .iter()
            .map(|m| Opening::new(None, &[m.to_string()]).unwrap())
            .collect()
    }

    #[test]
    fn rounds_cover_the_iterations_once() {
        let s = settings(10, 4);
        assert_eq!(s.rounds(), 3);
        let plans: Vec<Plan> = (0..3)
            .map(|r| Plan::round(s.clone(), openings(), r, s.start()).unwrap())
            .collect();
        let ks: Vec<u32> = plans
            .iter()
            .flat_map(|p| p.units.iter().map(|u| u.k))
            .collect();
        assert_eq!(ks, (0..10).collect::<Vec<_>>());
        assert_eq!(plans[2].units.len(), 2);
        assert!(plans.iter().all(|p| p.run_id == plans[0].run_id));
        assert_ne!(plans[0].plan_id, plans[1].plan_id);
        assert!(Plan::round(s.clone(), openings(), 3, s.start()).is_err());
        // Every opening is used before one comes again.
        let used: std::collections::BTreeSet<_> = plans[0].units[..3]
            .iter()
            .map(|u| u.opening.unwrap())
            .collect();
        assert_eq!(used.len(), 3);
    }

    #[test]
    fn units_carry_the_perturbed_engines() {
        let plan = Plan::new(settings(100, 4), openings()).unwrap();
        let u = plan.unit(1).unwrap();
        let [plus, minus] = plan.engines(u);
        assert_eq!(
            (plus.name.as_str(), minus.name.as_str()),
            ("chuhan+", "chuhan-")
        );
        assert_eq!(plus.options["RfpMargin"], u.plus[0].to_string());
        assert_eq!(minus.options["LmrBase"], u.minus[1].to_string());
        assert_eq!(plus.options["Threads"], "1");
        // θ± straddle θ by c_k in the direction Δ (here c_1 ≈ 15.2 and 1.52).
        assert_eq!(u.plus[0] - 120, i32::from(u.delta[0]) * 15);
        assert_eq!(u.minus[0] - 120, -i32::from(u.delta[0]) * 15);
        assert!(matches!(plan.unit(4), Err(PlanError::NoUnit(4))));
    }

    #[test]
    fn json_round_trip_and_checks() {
        let s = settings(20, 4);
        let plan = Plan::round(s, openings(), 2, vec![131.37, 1.5]).unwrap();
        let json = plan.to_json();
        assert_eq!(Plan::from_json(&json).unwrap(), plan);
        let edited = json.replace("\"iterations\": 20", "\"iterations\": 21");
        assert!(matches!(Plan::from_json(&edited), Err(PlanError::RunId)));
        let mut forged = plan.clone();
        forged.units[0].plus[0] += 1;
        assert!(matches!(
            Plan::from_json(&forged.to_json()),
            Err(PlanError::RunId)
        ));
        assert!(Plan::from_json("{}").is_err());
    }
}
