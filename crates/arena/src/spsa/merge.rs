//! [`State`]: where an SPSA run stands (θ, iterations applied, a line per round),
//! and [`merge`]: the run replayed from its settings and the unit files in a
//! directory.
//!
//! The merge walks the rounds from the start: it makes round `r`'s plan from θ,
//! reads the unit file of every pair of it and, when all are there, applies their
//! results in order of `k` (each with its own `a_k`, `c_k` and Δ) and goes on to
//! round `r + 1` from the new θ. It stops at the first round with a unit missing
//! ([`Merged::Next`], whose plan the caller writes to `next.json`) or at the end of
//! the run ([`Merged::Finished`]). The state is thus a pure function of the
//! settings and the unit files: the same files give the same state, wherever and
//! however often the merge runs, and a local run is resumed by merging again.

use super::parameter::Parameter;
use super::plan::{Plan, PlanError, Settings};
use super::unit::{UnitError, UnitResult};
use crate::game::opening::Opening;
use crate::work_unit::{UnitPlan, engine_name};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// The `format` field of a state file.
pub const STATE_FORMAT: &str = "chuhan-spsa-state";
/// The state file version this build writes.
pub const STATE_VERSION: u32 = 1;
/// The name of the state file in a run's directory.
pub const STATE_FILE: &str = "state.json";
/// The name of the tuned parameter file in a run's directory.
pub const TUNED_FILE: &str = "tuned.txt";
/// The name of the next round's plan a merge writes into the results directory.
pub const NEXT_PLAN: &str = "next.json";

/// One merged round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundRecord {
    /// The round, from 0.
    pub round: u32,
    /// Iterations applied after it.
    pub k: u32,
    /// The sum of its pairs' scores (θ+'s points minus θ−'s).
    pub score: f64,
    /// Wins, losses and draws of θ+ over its games.
    pub wld: [u32; 3],
    /// θ after it.
    pub theta: Vec<f64>,
}

/// Where a run stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Always [`STATE_FORMAT`].
    pub format: String,
    /// Always [`STATE_VERSION`].
    pub version: u32,
    /// The build that merged.
    pub engine: String,
    /// The run id.
    pub run_id: String,
    /// The parameters' names, in order.
    pub names: Vec<String>,
    /// Iterations in the run.
    pub iterations: u32,
    /// Iterations applied.
    pub k: u32,
    /// Rounds applied.
    pub rounds: u32,
    /// θ now.
    pub theta: Vec<f64>,
    /// The rounds applied, in order.
    pub history: Vec<RoundRecord>,
}

impl State {
    /// A run at its start.
    pub fn start(settings: &Settings, openings: &[Opening]) -> State {
        State {
            format: STATE_FORMAT.to_string(),
            version: STATE_VERSION,
            engine: engine_name(),
            run_id: settings.run_id(openings),
            names: settings.params.iter().map(|p| p.name.clone()).collect(),
            iterations: settings.iterations,
            k: 0,
            rounds: 0,
            theta: settings.start(),
            history: Vec::new(),
        }
    }

    /// Whether every iteration is applied.
    pub fn finished(&self) -> bool {
        self.k >= self.iterations
    }

    /// The parameters with θ (rounded) as their values: the tuned file.
    pub fn tuned(&self, settings: &Settings) -> Vec<Parameter> {
        settings
            .params
            .iter()
            .zip(&self.theta)
            .map(|(p, &x)| {
                let mut p = p.clone();
                p.value = x;
                p.value = f64::from(p.rounded());
                p
            })
            .collect()
    }

    /// θ rounded, `Name=value` separated by spaces.
    pub fn theta_line(&self, settings: &Settings) -> String {
        self.tuned(settings)
            .iter()
            .map(|p| format!("{}={}", p.name, p.value))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The state as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a state serialises")
    }

    /// Applies round `plan.round` with its unit results (in unit order).
    fn apply(&mut self, plan: &Plan, results: &[UnitResult]) {
        let settings = &plan.settings;
        let schedule = settings.schedule();
        let mut score = 0.0;
        let mut wld = [0; 3];
        for (u, r) in plan.units.iter().zip(results) {
            super::iteration::update(
                &settings.params,
                &schedule,
                &mut self.theta,
                u.k,
                &u.delta,
                r.body.score,
            );
            score += r.body.score;
            for g in &r.body.games {
                let plus = if g.plus_red {
                    chuhan_engine::core::Color::Red
                } else {
                    chuhan_engine::core::Color::Black
                };
                match g.result.winner() {
                    Some(c) if c == plus => wld[0] += 1,
                    Some(_) => wld[1] += 1,
                    None => wld[2] += 1,
                }
            }
            self.k = u.k + 1;
        }
        self.history.push(RoundRecord {
            round: plan.round,
            k: self.k,
            score,
            wld,
            theta: self.theta.clone(),
        });
        self.rounds = plan.round + 1;
    }
}

/// What a merge found.
#[derive(Debug)]
pub enum Merged {
    /// Every round is played: the final state.
    Finished(State),
    /// A round has units missing: the state before it and its plan.
    Next {
        /// The state after the rounds that are complete.
        state: State,
        /// The plan of the first round not complete.
        plan: Box<Plan>,
        /// Its units already played.
        done: u32,
    },
}

/// Why a merge failed.
#[derive(Debug)]
pub enum MergeError {
    /// The run's settings do not make a plan.
    Plan(PlanError),
    /// A unit file is there but unusable.
    Unit(UnitError),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Plan(e) => write!(f, "{e}"),
            MergeError::Unit(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MergeError {}

/// Replays the run of `settings` and `openings` with the unit files in `dir`.
pub fn merge(settings: &Settings, openings: &[Opening], dir: &Path) -> Result<Merged, MergeError> {
    let mut state = State::start(settings, openings);
    while !state.finished() {
        let plan = Plan::round(
            settings.clone(),
            openings.to_vec(),
            state.rounds,
            state.theta.clone(),
        )
        .map_err(MergeError::Plan)?;
        let mut results = Vec::new();
        for u in &plan.units {
            let path = plan.unit_path(dir, u.index);
            if path.exists() {
                results.push(UnitResult::read(&path, &plan, u.index).map_err(MergeError::Unit)?);
            }
        }
        if results.len() < plan.units.len() {
            return Ok(Merged::Next {
                state,
                done: results.len() as u32,
                plan: Box::new(plan),
            });
        }
        state.apply(&plan, &results);
    }
    Ok(Merged::Finished(state))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::play::Termination;
    use crate::spsa::plan::tests::{openings, settings};
    use crate::spsa::unit::{Pair, UnitGame};
    use crate::work_unit::JsonUnits;
    use chuhan_engine::core::GameResult;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("chuhan-spsa-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// Writes a made-up result for every unit of `plan`: θ+ wins the pair when
    /// its first parameter is larger than θ−'s.
    fn play_fake(plan: &Plan, dir: &Path) {
        for u in &plan.units {
            let plus_wins = u.plus[0] > u.minus[0];
            let game = |plus_red: bool| UnitGame {
                plus_red,
                result: if plus_wins == plus_red {
                    GameResult::RedWins
                } else {
                    GameResult::BlackWins
                },
                termination: Termination::Checkmate,
                reason: "made up".into(),
                moves: vec!["h2e2".into()],
            };
            let body = Pair {
                run_id: plan.run_id.clone(),
                k: u.k,
                score: if plus_wins { 2.0 } else { -2.0 },
                games: vec![game(true), game(false)],
                notes: Vec::new(),
            };
            plan.write_unit(dir, u.index, body).unwrap();
        }
    }

    /// Plays the whole run with fake results, merging after every round.
    fn run(dir: &Path) -> State {
        let s = settings(10, 4);
        let mut rounds = 0;
        loop {
            match merge(&s, &openings(), dir).unwrap() {
                Merged::Finished(state) => {
                    assert_eq!(rounds, 3);
                    return state;
                }
                Merged::Next { state, plan, done } => {
                    assert_eq!((done, plan.round, state.rounds), (0, rounds, rounds));
                    play_fake(&plan, dir);
                    rounds += 1;
                }
            }
        }
    }

    #[test]
    fn the_same_unit_files_merge_to_the_same_state() {
        let (a, b) = (scratch("merge-a"), scratch("merge-b"));
        let first = run(&a);
        assert_eq!(first.k, 10);
        assert_eq!(first.history.len(), 3);
        let h = &first.history[0];
        assert_eq!((h.wld[0] + h.wld[1], h.wld[2]), (8, 0));
        assert_eq!(f64::from(h.wld[0]) - f64::from(h.wld[1]), h.score);
        // Fake games reward a larger first parameter: it went up.
        assert!(first.theta[0] > 120.0, "{:?}", first.theta);
        // Merging again, and merging copies of the files elsewhere, agree exactly.
        let again = match merge(&settings(10, 4), &openings(), &a).unwrap() {
            Merged::Finished(s) => s,
            other => panic!("{other:?}"),
        };
        assert_eq!(again.to_json(), first.to_json());
        assert_eq!(run(&b).to_json(), first.to_json());
        std::fs::remove_dir_all(&a).unwrap();
        std::fs::remove_dir_all(&b).unwrap();
    }

    #[test]
    fn a_missing_unit_holds_the_round_back() {
        let dir = scratch("merge-missing");
        let s = settings(10, 4);
        let Merged::Next { plan, .. } = merge(&s, &openings(), &dir).unwrap() else {
            panic!("a fresh run has a round to play");
        };
        play_fake(&plan, &dir);
        std::fs::remove_file(plan.unit_path(&dir, 2)).unwrap();
        match merge(&s, &openings(), &dir).unwrap() {
            Merged::Next {
                state,
                plan: next,
                done,
            } => {
                assert_eq!((state.k, next.round, done), (0, 0, 3));
                assert_eq!(next.plan_id, plan.plan_id);
            }
            other => panic!("{other:?}"),
        }
        // A file of another unit under this unit's name is refused.
        std::fs::copy(plan.unit_path(&dir, 1), plan.unit_path(&dir, 2)).unwrap();
        assert!(matches!(
            merge(&s, &openings(), &dir),
            Err(MergeError::Unit(UnitError::OtherUnit {
                found: 1,
                want: 2,
                ..
            }))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
