//! What a searched work unit of a book [`Plan`] leaves behind
//! (`ply-P-unit-K.json`), how a unit is searched ([`play`]) and how a directory of
//! them is merged ([`merge`]): into the book, or into the plan of the next ply
//! still to search.
//!
//! A unit file ([`UnitFile`]) holds the run id (as its `plan_id`), the ply, the unit index and, per position in
//! order, its FEN, its MultiPV lines (first move in ICCS, value) and the nodes
//! searched. It is written atomically under a name fixed by the ply and `K`, so a
//! unit searched twice (a retry after a lost node) replaces its file with the same
//! content and counts once. [`merge`] replays the generation from the settings
//! with [`Growth`](super::Growth), feeding it the unit files ply by ply in the plan's order, so
//! its book is the local generator's.

use super::plan::{Plan, Settings};
use super::{Analysis, Generated, Line};
use crate::work_unit::{JsonUnits, UnitFile, UnitPlan};
pub use crate::work_unit::{Played, UnitError};
use chuhan_engine::core::{Move, Position};
use chuhan_engine::search::Value;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The `format` field of a unit file.
pub const UNIT_FORMAT: &str = "chuhan-book-unit";
/// The unit file version this build writes and reads (2: the run id is the
/// envelope's `plan_id`; version 1 named it `run_id`).
pub const UNIT_VERSION: u32 = 2;
/// The name of the plan [`merge`] writes for the ply still to search.
pub const NEXT_PLAN: &str = "next.json";

/// The file name of unit `k` of ply `ply` (the rule of
/// [`UnitPlan::unit_file_name`]).
pub fn file_name(ply: u32, k: u32) -> String {
    format!("ply-{ply}-unit-{k}.json")
}

/// One searched position of a unit file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Searched {
    /// The position (FEN), as in the plan.
    pub fen: String,
    /// The MultiPV lines, best first: first move (ICCS) and value.
    pub lines: Vec<(String, Value)>,
    /// Nodes searched.
    pub nodes: u64,
}

/// What a book unit file holds besides the envelope ([`UnitFile`], whose
/// `plan_id` is the run id: every ply's plan of a run has it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Positions {
    /// The ply.
    pub ply: u32,
    /// Its positions, in the plan's order.
    pub positions: Vec<Searched>,
}

/// A book unit file: `ply-P-unit-K.json`.
pub type UnitResult = UnitFile<Positions>;

impl JsonUnits for Plan {
    const UNIT_FORMAT: &'static str = UNIT_FORMAT;
    const UNIT_VERSION: u32 = UNIT_VERSION;
    type Body = Positions;

    fn unit_plan_id(&self) -> &str {
        &self.run_id
    }

    /// The ply, and the unit's positions.
    fn check_body(&self, k: u32, body: &Positions) -> Result<(), String> {
        let want = self.unit_positions(k).map_err(|e| e.to_string())?;
        let got: Vec<&str> = body.positions.iter().map(|p| p.fen.as_str()).collect();
        if body.ply != self.ply || got != want {
            return Err(format!(
                "ply {} unit {k} with {} positions is not ply {} unit {k} of the plan",
                body.ply,
                got.len(),
                self.ply
            ));
        }
        Ok(())
    }
}

impl Positions {
    /// The analyses, moves read back (their legality is checked by
    /// [`Growth::advance`](super::Growth::advance)).
    fn analyses(&self, path: &Path) -> Result<Vec<Analysis>, UnitError> {
        self.positions
            .iter()
            .map(|p| {
                let lines = p
                    .lines
                    .iter()
                    .map(|(m, value)| {
                        let mv = m.parse::<Move>().map_err(|_| {
                            UnitError::Mismatch(path.into(), format!("bad move {m:?}"))
                        })?;
                        Ok(Line { mv, value: *value })
                    })
                    .collect::<Result<Vec<_>, UnitError>>()?;
                Ok(Analysis {
                    lines,
                    nodes: p.nodes,
                })
            })
            .collect()
    }
}

/// Searches unit `k` of `plan` (`threads` positions at once) and writes
/// `dir/ply-P-unit-K.json`, unless a valid file of it is already there.
pub fn play(plan: &Plan, k: u32, dir: &Path, threads: usize) -> Result<Played, UnitError> {
    let fens = plan
        .unit_positions(k)
        .map_err(|e| UnitError::Mismatch(dir.into(), e.to_string()))?;
    if plan.has_unit(dir, k) {
        return Ok(Played::AlreadyThere);
    }
    let positions = fens
        .iter()
        .map(|f| {
            Position::from_fen(f)
                .map_err(|e| UnitError::Mismatch(dir.into(), format!("position {f:?}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let options = plan.settings.options(threads.max(1));
    let mut engines =
        super::engines(&options, threads).map_err(|e| UnitError::Aborted(e.to_string()))?;
    let analyses = super::search_positions(&mut engines, &positions, &options, plan.ply, |_, _| {});
    let body = Positions {
        ply: plan.ply,
        positions: fens
            .iter()
            .zip(analyses)
            .map(|(fen, a)| Searched {
                fen: fen.clone(),
                lines: a
                    .lines
                    .iter()
                    .map(|l| (l.mv.to_string(), l.value))
                    .collect(),
                nodes: a.nodes,
            })
            .collect(),
    };
    plan.write_unit(dir, k, body)
}

/// What [`merge`] found.
#[derive(Debug)]
pub enum Merged {
    /// Every ply was searched: the book, as the local generator builds it.
    Finished(Generated),
    /// Ply `plan.ply` is not fully searched yet: its plan, with the units of it
    /// already in the directory.
    Next {
        /// The plan of the ply to search.
        plan: Plan,
        /// Its units with a file.
        done: Vec<u32>,
        /// Positions searched in the plies before it.
        searched: usize,
    },
}

/// Replays the generation of `settings` with the unit files in `dir`, ply by
/// ply, up to the first ply with a unit missing.
pub fn merge(settings: &Settings, dir: &Path) -> Result<Merged, UnitError> {
    let plan_error =
        |e: crate::work_unit::PlanError| UnitError::Mismatch(dir.into(), e.to_string());
    let mut growth = settings.growth().map_err(plan_error)?;
    while !growth.is_finished() {
        let plan = Plan::of(settings.clone(), &growth).map_err(plan_error)?;
        let done: Vec<u32> = plan
            .units
            .iter()
            .map(|u| u.index)
            .filter(|&k| plan.unit_path(dir, k).exists())
            .collect();
        if done.len() < plan.units.len() {
            return Ok(Merged::Next {
                searched: growth.searched(),
                plan,
                done,
            });
        }
        let mut analyses = Vec::with_capacity(plan.positions.len());
        for unit in &plan.units {
            let p = plan.unit_path(dir, unit.index);
            analyses.extend(UnitResult::read(&p, &plan, unit.index)?.body.analyses(&p)?);
        }
        growth
            .advance(&analyses)
            .map_err(|e| UnitError::Mismatch(plan.unit_path(dir, 0), e.to_string()))?;
    }
    Ok(Merged::Finished(growth.finish()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book_generator::generate;
    use crate::work_unit::PlanFile;

    fn scratch(name: &str) -> std::path::PathBuf {
        let d =
            std::env::temp_dir().join(format!("chuhan-book-unit-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn settings() -> Settings {
        super::super::plan::tests::settings()
    }

    /// Searches every missing unit of every ply, merging in between, out of order.
    fn run_all(settings: &Settings, dir: &Path) -> (Generated, u32) {
        let mut rounds = 0;
        loop {
            match merge(settings, dir).unwrap() {
                Merged::Finished(g) => return (g, rounds),
                Merged::Next { plan, done, .. } => {
                    assert!(done.is_empty());
                    rounds += 1;
                    let plan = Plan::from_json(&plan.to_json()).unwrap();
                    for u in plan.units.iter().rev() {
                        assert_eq!(play(&plan, u.index, dir, 1).unwrap(), Played::Written);
                    }
                }
            }
        }
    }

    #[test]
    fn units_merge_into_the_local_book() {
        let s = settings();
        let dir = scratch("local");
        let (merged, rounds) = run_all(&s, &dir);
        let local = generate(&Position::startpos(), &s.options(1), |_| {}).unwrap();
        assert_eq!(merged.book.to_bytes(), local.book.to_bytes());
        assert_eq!(
            (merged.searched, merged.plies_reached, merged.nodes),
            (local.searched, local.plies_reached, local.nodes)
        );
        assert_eq!(rounds, 3);
        assert!(local.searched > 3);
        // A unit searched again is not searched twice.
        let plan = Plan::new(s.clone()).unwrap();
        assert_eq!(play(&plan, 0, &dir, 1).unwrap(), Played::AlreadyThere);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_budget_and_a_missing_unit() {
        let mut s = settings();
        s.max_positions = Some(4);
        s.positions_per_unit = 1;
        let dir = scratch("budget");
        let (merged, _) = run_all(&s, &dir);
        let local = generate(&Position::startpos(), &s.options(2), |_| {}).unwrap();
        assert_eq!(merged.book.to_bytes(), local.book.to_bytes());
        assert_eq!(merged.searched, 4);
        // Take one unit of ply 1 away: the merge stops there and names it.
        std::fs::remove_file(dir.join(file_name(1, 1))).unwrap();
        match merge(&s, &dir).unwrap() {
            Merged::Next {
                plan,
                done,
                searched,
            } => {
                assert_eq!((plan.ply, searched), (1, 1));
                assert!(!done.contains(&1) && done.contains(&0), "{done:?}");
            }
            other => panic!("{other:?}"),
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn foreign_and_damaged_unit_files_are_refused() {
        let s = settings();
        let dir = scratch("foreign");
        let plan = Plan::new(s.clone()).unwrap();
        play(&plan, 0, &dir, 1).unwrap();
        let file = plan.unit_path(&dir, 0);
        assert_eq!(file, dir.join("ply-0-unit-0.json"));
        let good = std::fs::read_to_string(&file).unwrap();
        // A unit of another run.
        let mut other = s.clone();
        other.margin = 41;
        assert!(matches!(
            UnitResult::read(&file, &Plan::new(other).unwrap(), 0),
            Err(UnitError::OtherPlan { .. })
        ));
        // An illegal move in an analysis stops the merge with an error.
        let r: UnitResult = serde_json::from_str(&good).unwrap();
        let first = &r.body.positions[0].lines[0].0;
        std::fs::write(&file, good.replacen(first.as_str(), "a0a9", 1)).unwrap();
        let err = merge(&s, &dir).unwrap_err().to_string();
        assert!(err.contains("a0a9 is illegal"), "{err}");
        // A torn file is not a unit: searched again, then merged.
        std::fs::write(&file, &good[..good.len() / 2]).unwrap();
        assert!(matches!(merge(&s, &dir), Err(UnitError::Json(..))));
        assert_eq!(play(&plan, 0, &dir, 1).unwrap(), Played::Written);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), good);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
