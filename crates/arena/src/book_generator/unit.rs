//! What a searched work unit of a book [`Plan`] leaves behind
//! (`ply-P-unit-K.json`), how a unit is searched ([`play`]) and how a directory of
//! them is merged ([`merge`]): into the book, or into the plan of the next ply
//! still to search.
//!
//! A unit file holds the run id, the ply, the unit index and, per position in
//! order, its FEN, its MultiPV lines (first move in ICCS, value) and the nodes
//! searched. It is written atomically under a name fixed by the ply and `K`, so a
//! unit searched twice (a retry after a lost node) replaces its file with the same
//! content and counts once. [`merge`] replays the generation from the settings
//! with [`Growth`](super::Growth), feeding it the unit files ply by ply in the plan's order, so
//! its book is the local generator's.

use super::plan::{Plan, Settings};
use super::{Analysis, Generated, Line};
pub use crate::work_unit::Played;
use crate::work_unit::write_atomic;
use chuhan_engine::core::{Move, Position};
use chuhan_engine::search::Value;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// The `format` field of a unit file.
pub const UNIT_FORMAT: &str = "chuhan-book-unit";
/// The unit file version this build writes and reads.
pub const UNIT_VERSION: u32 = 1;
/// The name of the plan [`merge`] writes for the ply still to search.
pub const NEXT_PLAN: &str = "next.json";

/// The file name of unit `k` of ply `ply`.
pub fn file_name(ply: u32, k: u32) -> String {
    format!("ply-{ply}-unit-{k}.json")
}

/// The path of unit `k` of ply `ply` in `dir`.
pub fn path(dir: &Path, ply: u32, k: u32) -> PathBuf {
    dir.join(file_name(ply, k))
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

/// A unit file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitResult {
    /// Always [`UNIT_FORMAT`].
    pub format: String,
    /// Always [`UNIT_VERSION`].
    pub version: u32,
    /// The run id of the plan.
    pub run_id: String,
    /// The ply.
    pub ply: u32,
    /// The unit index.
    pub unit: u32,
    /// Its positions, in the plan's order.
    pub positions: Vec<Searched>,
}

/// Why a unit cannot be searched, read or merged.
#[derive(Debug)]
pub enum UnitError {
    /// Reading or writing failed.
    Io(PathBuf, std::io::Error),
    /// Not valid JSON of a unit file.
    Json(PathBuf, serde_json::Error),
    /// A unit file that does not belong to the plan (other run, ply or positions),
    /// or a plan that does not fit.
    Mismatch(PathBuf, String),
    /// The engines could not be made (the hash size).
    Engine(String),
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            UnitError::Json(p, e) => write!(f, "{}: not a unit file: {e}", p.display()),
            UnitError::Mismatch(p, why) => write!(f, "{}: {why}", p.display()),
            UnitError::Engine(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for UnitError {}

impl UnitResult {
    /// Reads a unit file and checks that it is unit `k` of `plan`, position for
    /// position.
    pub fn read(path: &Path, plan: &Plan, k: u32) -> Result<UnitResult, UnitError> {
        let mismatch = |why: String| UnitError::Mismatch(path.into(), why);
        let want = plan
            .unit_positions(k)
            .map_err(|e| mismatch(e.to_string()))?;
        let text = std::fs::read_to_string(path).map_err(|e| UnitError::Io(path.into(), e))?;
        let r: UnitResult =
            serde_json::from_str(&text).map_err(|e| UnitError::Json(path.into(), e))?;
        if r.format != UNIT_FORMAT || r.version != UNIT_VERSION {
            return Err(mismatch(format!(
                "format {:?} version {}; this build reads {UNIT_FORMAT:?} version {UNIT_VERSION}",
                r.format, r.version
            )));
        }
        if r.run_id != plan.run_id {
            return Err(mismatch(format!(
                "a unit of run {}, not of run {}",
                r.run_id, plan.run_id
            )));
        }
        let got: Vec<&str> = r.positions.iter().map(|p| p.fen.as_str()).collect();
        if r.ply != plan.ply || r.unit != k || got != want {
            return Err(mismatch(format!(
                "ply {} unit {} with {} positions is not ply {} unit {k} of the plan",
                r.ply,
                r.unit,
                got.len(),
                plan.ply
            )));
        }
        Ok(r)
    }

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
    let out = path(dir, plan.ply, k);
    if out.exists() && UnitResult::read(&out, plan, k).is_ok() {
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
        super::engines(&options, threads).map_err(|e| UnitError::Engine(e.to_string()))?;
    let analyses = super::search_positions(&mut engines, &positions, &options, plan.ply, |_, _| {});
    let result = UnitResult {
        format: UNIT_FORMAT.to_string(),
        version: UNIT_VERSION,
        run_id: plan.run_id.clone(),
        ply: plan.ply,
        unit: k,
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
    let json = serde_json::to_string(&result).expect("a unit result serialises");
    write_atomic(&out, json.as_bytes()).map_err(|e| UnitError::Io(out.clone(), e))?;
    Ok(Played::Written)
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
            .filter(|&k| path(dir, plan.ply, k).exists())
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
            let p = path(dir, plan.ply, unit.index);
            analyses.extend(UnitResult::read(&p, &plan, unit.index)?.analyses(&p)?);
        }
        growth
            .advance(&analyses)
            .map_err(|e| UnitError::Mismatch(dir.join(file_name(plan.ply, 0)), e.to_string()))?;
    }
    Ok(Merged::Finished(growth.finish()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book_generator::generate;
    use crate::work_unit::PlanFile;

    fn scratch(name: &str) -> PathBuf {
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
        std::fs::remove_file(path(&dir, 1, 1)).unwrap();
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
        let file = path(&dir, 0, 0);
        let good = std::fs::read_to_string(&file).unwrap();
        // A unit of another run.
        let mut other = s.clone();
        other.margin = 41;
        assert!(matches!(
            UnitResult::read(&file, &Plan::new(other).unwrap(), 0),
            Err(UnitError::Mismatch(..))
        ));
        // An illegal move in an analysis stops the merge with an error.
        let r: UnitResult = serde_json::from_str(&good).unwrap();
        let first = &r.positions[0].lines[0].0;
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
