//! Plays the units of a plan: games spread over worker threads (each game with its
//! own one-thread engine), units assembled in game order, de-duplicated and written
//! atomically as soon as their last game is in. Finished units (a complete file
//! with the run's id) are skipped, so rerunning the same command resumes.

use super::plan::{Plan, PlanError, Unit};
use super::selfplay::{self, EngineSetupError, PlayedGame};
use super::unit_file::{self, UnitData, UnitFileError};
use crossbeam_channel::unbounded;
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Why units could not be played.
#[derive(Debug)]
pub enum RunError {
    /// The output directory cannot be made or read.
    Io(PathBuf, std::io::Error),
    /// A unit file in the directory belongs to another run.
    ForeignUnit {
        /// The file.
        path: PathBuf,
        /// Its run id.
        run_id: u64,
        /// This run's id.
        expected: u64,
    },
    /// A unit file could not be written.
    Write(PathBuf, UnitFileError),
    /// An engine could not be set up.
    Engine(EngineSetupError),
    /// The plan has no such unit.
    Plan(PlanError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            RunError::ForeignUnit {
                path,
                run_id,
                expected,
            } => write!(
                f,
                "{} belongs to run {run_id:016x}, not to this run ({expected:016x}); \
                 use another directory or the same settings",
                path.display()
            ),
            RunError::Write(p, e) => write!(f, "{}: {e}", p.display()),
            RunError::Engine(e) => write!(f, "{e}"),
            RunError::Plan(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RunError {}

/// What happened so far, reported after every game and unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Units to play in this invocation.
    pub units_total: usize,
    /// Units found finished (skipped).
    pub units_skipped: usize,
    /// Units written so far.
    pub units_written: usize,
    /// Games to play in this invocation.
    pub games_total: u64,
    /// Games played so far.
    pub games_done: u64,
    /// Positions searched so far.
    pub searched: u64,
    /// Positions kept so far (before de-duplication).
    pub kept: u64,
    /// Records written so far (in finished units).
    pub written: u64,
    /// Nodes searched so far.
    pub nodes: u64,
}

/// A note for the caller besides progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// A damaged unit file was found and will be played again.
    Replaying(PathBuf, String),
    /// A unit was written.
    Written(PathBuf),
}

/// Plays the units `which` of `plan` into `dir` with `concurrency` games at once;
/// `progress` is called after every game, `note` on notable events. Returns the
/// final progress.
pub fn run(
    plan: &Plan,
    which: &[u32],
    dir: &Path,
    concurrency: usize,
    mut progress: impl FnMut(&Progress),
    mut note: impl FnMut(&Note),
) -> Result<Progress, RunError> {
    std::fs::create_dir_all(dir).map_err(|e| RunError::Io(dir.to_path_buf(), e))?;
    let id = plan.id();
    let mut todo: Vec<Unit> = Vec::new();
    let mut p = Progress {
        units_total: which.len(),
        ..Progress::default()
    };
    for &k in which {
        let unit = *plan.unit(k).map_err(RunError::Plan)?;
        let path = unit_file::path(dir, k);
        match unit_file::finished_header(&path) {
            Ok(Some(h)) if h.run_id == id && h.unit == k => {
                p.units_skipped += 1;
                p.written += h.records;
            }
            Ok(Some(h)) => {
                return Err(RunError::ForeignUnit {
                    path,
                    run_id: h.run_id,
                    expected: id,
                });
            }
            Ok(None) => todo.push(unit),
            Err(e) => {
                note(&Note::Replaying(path, e.to_string()));
                todo.push(unit);
            }
        }
    }
    p.games_total = todo.iter().map(|u| u64::from(u.games)).sum();
    progress(&p);
    if todo.is_empty() {
        return Ok(p);
    }
    // The games in order: (unit slot, game index).
    let jobs: Vec<(usize, u64)> = todo
        .iter()
        .enumerate()
        .flat_map(|(slot, u)| u.game_range().map(move |g| (slot, g)))
        .collect();
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = unbounded::<(usize, u64, Result<PlayedGame, EngineSetupError>)>();
    let mut pending: BTreeMap<usize, BTreeMap<u64, PlayedGame>> = BTreeMap::new();
    let mut outcome: Result<(), RunError> = Ok(());
    std::thread::scope(|s| {
        for _ in 0..concurrency.max(1).min(jobs.len()) {
            let tx = tx.clone();
            let (next, failed, jobs) = (&next, &failed, &jobs);
            std::thread::Builder::new()
                .name("datagen".into())
                .spawn_scoped(s, move || {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= jobs.len() || failed.load(Ordering::Relaxed) {
                            break;
                        }
                        let (slot, g) = jobs[i];
                        let r = selfplay::play(plan, g);
                        if tx.send((slot, g, r)).is_err() {
                            break;
                        }
                    }
                })
                .expect("a worker thread starts");
        }
        drop(tx);
        for (slot, g, r) in rx.iter() {
            let game = match r {
                Ok(game) => game,
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    outcome = Err(RunError::Engine(e));
                    continue;
                }
            };
            if outcome.is_err() {
                continue;
            }
            p.games_done += 1;
            p.searched += u64::from(game.searched);
            p.kept += game.samples.len() as u64;
            p.nodes += game.nodes;
            let games = pending.entry(slot).or_default();
            games.insert(g, game);
            if games.len() == todo[slot].games as usize {
                let games = pending.remove(&slot).expect("just filled");
                let data = assemble(plan, &todo[slot], games.into_values().collect());
                match data.write_atomic(dir) {
                    Ok(path) => {
                        p.units_written += 1;
                        p.written += data.records.len() as u64;
                        note(&Note::Written(path));
                    }
                    Err(e) => {
                        failed.store(true, Ordering::Relaxed);
                        outcome = Err(RunError::Write(unit_file::path(dir, todo[slot].index), e));
                    }
                }
            }
            progress(&p);
        }
    });
    outcome.map(|()| p)
}

/// A unit's file contents from its games (in game order): each position kept at
/// its first occurrence in the unit.
pub fn assemble(plan: &Plan, unit: &Unit, games: Vec<PlayedGame>) -> UnitData {
    let mut seen: HashSet<u64> = HashSet::new();
    let mut records = Vec::new();
    let mut summaries = Vec::with_capacity(games.len());
    for game in games {
        let before = records.len();
        for s in game.samples {
            if seen.insert(s.key) {
                records.push(s.record);
            }
        }
        let mut summary = game.summary;
        summary.records = (records.len() - before) as u32;
        summaries.push(summary);
    }
    UnitData {
        run_id: plan.id(),
        unit: unit.index,
        first_game: unit.first_game,
        records,
        games: summaries,
    }
}

#[cfg(test)]
mod tests {
    use super::super::filter::Filters;
    use super::super::plan::{SearchLimit, Settings};
    use super::*;
    use chuhan_engine::rules::RuleSet;

    fn plan() -> Plan {
        Plan::new(
            Settings {
                seed: 3,
                games: 6,
                games_per_unit: 3,
                limit: SearchLimit::Nodes(300),
                random_plies: 4,
                hash_mb: 1,
                rules: RuleSet::Cxa2011,
                resign: Some("moves=2 score=500".parse().unwrap()),
                draw: None,
                max_plies: 40,
                filters: Filters::default(),
            },
            Vec::new(),
        )
        .unwrap()
    }

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("chuhan-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn units_are_deterministic_and_resumable() {
        let plan = plan();
        let (a, b) = (temp_dir("dg-a"), temp_dir("dg-b"));
        let pa = run(&plan, &[0, 1], &a, 2, |_| {}, |_| {}).unwrap();
        assert_eq!((pa.units_written, pa.games_done), (2, 6));
        // The same unit, alone and on one thread, gives the same bytes.
        run(&plan, &[1], &b, 1, |_| {}, |_| {}).unwrap();
        let bytes = |d: &Path| std::fs::read(unit_file::path(d, 1)).unwrap();
        assert_eq!(bytes(&a), bytes(&b));
        let data = UnitData::read(&unit_file::path(&a, 1)).unwrap();
        assert_eq!((data.unit, data.first_game, data.games.len()), (1, 3, 3));
        let keys: HashSet<_> = data
            .records
            .iter()
            .map(|r| r.position().unwrap().key())
            .collect();
        assert_eq!(keys.len(), data.records.len(), "no duplicate within a unit");
        // A rerun skips both units without playing.
        let again = run(&plan, &[0, 1], &a, 2, |_| {}, |_| {}).unwrap();
        assert_eq!((again.units_skipped, again.games_done), (2, 0));
        assert_eq!(again.written, pa.written);
        // A damaged unit is played again; a foreign one is refused.
        std::fs::write(unit_file::path(&a, 0), b"CHUHANDG").unwrap();
        let mut notes = Vec::new();
        let fixed = run(&plan, &[0], &a, 1, |_| {}, |n| notes.push(n.clone())).unwrap();
        assert_eq!(fixed.units_written, 1);
        assert!(matches!(notes[0], Note::Replaying(..)));
        let mut other = plan.settings.clone();
        other.seed = 4;
        let other = Plan::new(other, Vec::new()).unwrap();
        assert!(matches!(
            run(&other, &[0], &a, 1, |_| {}, |_| {}),
            Err(RunError::ForeignUnit { .. })
        ));
        std::fs::remove_dir_all(&a).unwrap();
        std::fs::remove_dir_all(&b).unwrap();
    }
}
