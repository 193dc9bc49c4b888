//! What every kind of deterministic work unit shares — self-play data
//! ([`crate::datagen::plan`]), matches ([`crate::r#match::plan`]), book growth
//! ([`crate::book_generator::plan`]) and tournament rounds
//! ([`crate::tournament::plan`]): the plan's error type, the engine build a plan is
//! stamped with, its check, the start of a `--unit` command ([`UnitPlan`]), what
//! playing a unit did ([`Played`]) and the atomic file write that makes a unit
//! played twice harmless.
//!
//! A plan is self-contained JSON (`format`, `version`, `engine`, an id, the
//! settings, the openings and a `units` array); `--unit plan.json K --out DIR`
//! plays unit `K` anywhere and writes its file under a name fixed by `K`, through
//! a temporary file and a rename, so a unit file either is complete or does not
//! exist and a retry replaces it with the same content.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a plan cannot be made or used.
#[derive(Debug)]
pub enum PlanError {
    /// Reading or writing the plan failed.
    Io(std::io::Error),
    /// The plan is not valid JSON of a plan.
    Json(serde_json::Error),
    /// Not a plan of this kind, or a version this build does not read.
    Format(String),
    /// The settings are unusable.
    Settings(String),
    /// The run id does not match the settings (an edited plan).
    RunId,
    /// No such unit.
    NoUnit(u32),
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::Io(e) => write!(f, "{e}"),
            PlanError::Json(e) => write!(f, "not a plan: {e}"),
            PlanError::Format(s) => f.write_str(s),
            PlanError::Settings(s) => f.write_str(s),
            PlanError::RunId => f.write_str("the run id does not match the plan's settings"),
            PlanError::NoUnit(k) => write!(f, "the plan has no unit {k}"),
        }
    }
}

impl std::error::Error for PlanError {}

/// How playing (for a book unit, searching) one unit went: what each kind's
/// `play` returns, so the `--unit` commands can say whether they did the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// The unit was played and its file written.
    Written,
    /// A valid file of it was already there, so it was not played again (one
    /// directory never plays a unit twice).
    AlreadyThere,
}

/// The engine build, as recorded in plans.
pub fn engine_name() -> String {
    format!("chuhan {}", env!("CARGO_PKG_VERSION"))
}

/// A plan as a file: pretty JSON, read with every check, written atomically.
pub trait PlanFile: serde::Serialize + serde::de::DeserializeOwned {
    /// Checks a plan just parsed (stamp, id, units) and returns it.
    fn checked(self) -> Result<Self, PlanError>;

    /// The plan as pretty JSON.
    fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a plan serialises")
    }

    /// Parses and checks a plan.
    fn from_json(text: &str) -> Result<Self, PlanError> {
        serde_json::from_str::<Self>(text)
            .map_err(PlanError::Json)?
            .checked()
    }

    /// Reads a plan file.
    fn read(path: &Path) -> Result<Self, PlanError> {
        Self::from_json(&std::fs::read_to_string(path).map_err(PlanError::Io)?)
    }

    /// Writes the plan to a file atomically.
    fn write(&self, path: &Path) -> Result<(), PlanError> {
        write_atomic(path, self.to_json().as_bytes()).map_err(PlanError::Io)
    }
}

/// A plan whose units are played into a results directory of their own, which
/// holds a copy of the plan (matches, book growth, tournament rounds).
pub trait UnitPlan: PlanFile {
    /// What the run id names, for messages ("plan", "book run", "event").
    const RUN: &'static str;

    /// The id that tells the runs apart: units of two runs never share a directory.
    fn run_id(&self) -> &str;

    /// `Ok` if the plan has unit `k`.
    fn check_unit(&self, k: u32) -> Result<(), PlanError>;

    /// The start of every `--unit PLAN K --out DIR` command: reads the plan, checks
    /// that `k` (as given on the command line) is one of its units, and claims the
    /// directory: keeps a copy of the plan there as `plan.json`, or, when a copy is
    /// already there, checks that it is of the same run.
    fn open_unit(plan: &Path, k: &str, out: Option<&Path>) -> Result<(Self, u32, PathBuf), String> {
        let this = Self::read(plan).map_err(|e| format!("{}: {e}", plan.display()))?;
        let k = k
            .parse::<u32>()
            .map_err(|_| format!("`{k}` is not a unit number"))?;
        this.check_unit(k).map_err(|e| e.to_string())?;
        let dir = out.ok_or("--unit needs --out DIR")?;
        let copy = dir.join("plan.json");
        match Self::read(&copy) {
            Ok(there) if there.run_id() != this.run_id() => {
                return Err(format!(
                    "{} holds {} {}, not {}; use another directory",
                    dir.display(),
                    Self::RUN,
                    there.run_id(),
                    this.run_id()
                ));
            }
            Ok(_) => {}
            Err(_) => this
                .write(&copy)
                .map_err(|e| format!("{}: {e}", copy.display()))?,
        }
        Ok((this, k, dir.to_path_buf()))
    }
}

/// The error for units that do not match the units the settings make.
pub fn check_units<T: PartialEq>(expected: &[T], found: &[T]) -> Result<(), PlanError> {
    if expected == found {
        Ok(())
    } else {
        Err(PlanError::Format(
            "the units do not match the settings".into(),
        ))
    }
}

/// Checks a plan's `format`, `version` and `engine` stamp against what this build
/// reads and writes.
pub fn check_stamp(
    (format, version, engine): (&str, u32, &str),
    (want_format, want_version): (&str, u32),
) -> Result<(), PlanError> {
    if format != want_format {
        return Err(PlanError::Format(format!(
            "format {format:?} is not {want_format:?}"
        )));
    }
    if version != want_version {
        return Err(PlanError::Format(format!(
            "plan version {version}; this build reads {want_version}"
        )));
    }
    if engine != engine_name() {
        return Err(PlanError::Format(format!(
            "the plan was made by {engine} and this is {}: units would not be reproducible",
            engine_name()
        )));
    }
    Ok(())
}

/// Writes `bytes` to `path` atomically: to a temporary file beside it (named with
/// this process's id, so two processes writing the same unit do not collide),
/// flushed to disk, then renamed over `path`. Creates the parent directory.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)?;
    }
    let name = path
        .file_name()
        .map_or_else(|| "unit".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir
        .map_or_else(PathBuf::new, Path::to_path_buf)
        .join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_writes_replace_and_leave_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("chuhan-work-unit-{}", std::process::id()));
        let path = dir.join("sub").join("unit-3.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("unit-3.json")]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn stamps_are_checked() {
        let me = engine_name();
        assert!(check_stamp(("a", 1, &me), ("a", 1)).is_ok());
        assert!(check_stamp(("b", 1, &me), ("a", 1)).is_err());
        assert!(check_stamp(("a", 2, &me), ("a", 1)).is_err());
        assert!(check_stamp(("a", 1, "chuhan 0.0.0-other"), ("a", 1)).is_err());
    }
}
