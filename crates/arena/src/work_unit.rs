//! What every kind of deterministic work unit shares — self-play data
//! ([`crate::datagen::plan`]), matches ([`crate::r#match::plan`]), book growth
//! ([`crate::book_generator::plan`]), tournament rounds
//! ([`crate::tournament::plan`]) and SPSA rounds ([`crate::spsa::plan`]): the
//! plan's [`Stamp`] and its check ([`PlanFile`]), the start of a `--unit` command
//! and the file-name rule ([`UnitPlan`]), the unit file of the JSON kinds
//! ([`UnitFile`], [`JsonUnits`]), the one error of playing, reading and merging
//! units ([`UnitError`]), what playing a unit did ([`Played`]) and the atomic file
//! write that makes a unit played twice harmless.
//!
//! A plan is self-contained JSON (`format`, `version`, `engine`, an id, the
//! settings, the openings and a `units` array); `--unit plan.json K --out DIR`
//! plays unit `K` anywhere and writes its file under a name fixed by the plan and
//! `K` ([`UnitPlan::unit_file_name`]), through a temporary file and a rename, so a
//! unit file either is complete or does not exist and a retry replaces it with the
//! same content.
//!
//! The names, one rule per kind (the Ray driver, `crates/arena/ray/chuhan_ray.py`,
//! `unit_file`, knows the same):
//!
//! | kind       | unit file               | why the name holds more than `K`        |
//! |------------|-------------------------|-----------------------------------------|
//! | match      | `unit-K.json`           | one plan per results directory          |
//! | datagen    | `unit-K.bin`            | one run per directory (binary body)     |
//! | book       | `ply-P-unit-K.json`     | one directory holds every ply of a run  |
//! | tournament | `unit-PLANID-K.json`    | one directory holds every round's plan  |
//! | SPSA       | `unit-PLANID-K.json`    | one directory holds every round's plan  |
//!
//! A JSON unit file is an envelope, the same for every kind, with the kind's body
//! flattened into it:
//!
//! ```json
//! { "format": "chuhan-match-unit", "version": 1, "plan_id": "9c1e…", "unit": 7,
//!   "games": [ … ] }
//! ```
//!
//! A new kind of unit is a plan type with [`PlanFile`], [`UnitPlan`] and (for a
//! JSON unit file) [`JsonUnits`] impls: the reading, checking, naming and writing
//! of its files, and its `--unit` command's start, come from here.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
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

/// What every plan starts with: its kind (`format`), the version of that kind
/// this build reads, and the engine build that made it (units are reproducible
/// only with the same build). Flattened into each plan, so plan JSON has the
/// three fields at its top level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    /// The kind of plan ([`PlanFile::FORMAT`]).
    pub format: String,
    /// Its version ([`PlanFile::VERSION`]).
    pub version: u32,
    /// The build that made the plan ([`engine_name`]).
    pub engine: String,
}

impl Stamp {
    /// The stamp this build puts on plans of kind `P`.
    pub fn of<P: PlanFile>() -> Stamp {
        Stamp {
            format: P::FORMAT.to_string(),
            version: P::VERSION,
            engine: engine_name(),
        }
    }

    /// Checks the stamp against what this build reads and writes: `format`,
    /// `version` and this engine build.
    pub fn check(&self, want_format: &str, want_version: u32) -> Result<(), PlanError> {
        let Stamp {
            format,
            version,
            engine,
        } = self;
        if format != want_format {
            return Err(PlanError::Format(format!(
                "format {format:?} is not {want_format:?}"
            )));
        }
        if *version != want_version {
            return Err(PlanError::Format(format!(
                "plan version {version}; this build reads {want_version}"
            )));
        }
        if *engine != engine_name() {
            return Err(PlanError::Format(format!(
                "the plan was made by {engine} and this is {}: units would not be reproducible",
                engine_name()
            )));
        }
        Ok(())
    }
}

/// A plan as a file: pretty JSON, read with every check, written atomically.
pub trait PlanFile: Serialize + DeserializeOwned {
    /// The `format` of this kind's plans.
    const FORMAT: &'static str;
    /// The plan version this build writes and reads.
    const VERSION: u32;

    /// The plan's stamp.
    fn stamp(&self) -> &Stamp;

    /// Checks what the stamp does not: the ids recomputed from the settings, the
    /// settings themselves, the units.
    fn check_content(&self) -> Result<(), PlanError>;

    /// Checks a plan just parsed (stamp, then content) and returns it.
    fn checked(self) -> Result<Self, PlanError> {
        self.stamp().check(Self::FORMAT, Self::VERSION)?;
        self.check_content()?;
        Ok(self)
    }

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
/// holds a copy of the plan: every kind.
pub trait UnitPlan: PlanFile {
    /// What the run id names, for messages ("plan", "book run", "event").
    const RUN: &'static str;

    /// The id that tells the runs apart: units of two runs never share a directory.
    fn run_id(&self) -> &str;

    /// `Ok` if the plan has unit `k`.
    fn check_unit(&self, k: u32) -> Result<(), PlanError>;

    /// The file name of unit `k` (the kind's rule, in the table of this module's
    /// doc): unique among the units a results directory may hold.
    fn unit_file_name(&self, k: u32) -> String;

    /// The path of unit `k`'s file in `dir`.
    fn unit_path(&self, dir: &Path, k: u32) -> PathBuf {
        dir.join(self.unit_file_name(k))
    }

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

/// A plan whose units leave JSON files ([`UnitFile`]): the kind's unit format, its
/// body and how a body is checked against the unit it claims to be.
pub trait JsonUnits: UnitPlan {
    /// The `format` field of its unit files.
    const UNIT_FORMAT: &'static str;
    /// The unit file version this build writes and reads.
    const UNIT_VERSION: u32;
    /// What a unit file holds besides the envelope (flattened into it).
    type Body: Serialize + DeserializeOwned;

    /// The id its unit files carry as `plan_id`.
    fn unit_plan_id(&self) -> &str;

    /// Checks that `body`, found in a file of unit `k` of this plan, is that
    /// unit's (its games or positions, its iteration): `Err` says why not.
    fn check_body(&self, k: u32, body: &Self::Body) -> Result<(), String>;

    /// Writes `body` as unit `k`'s file in `dir`, atomically.
    fn write_unit(&self, dir: &Path, k: u32, body: Self::Body) -> Result<Played, UnitError> {
        UnitFile {
            format: Self::UNIT_FORMAT.to_string(),
            version: Self::UNIT_VERSION,
            plan_id: self.unit_plan_id().to_string(),
            unit: k,
            body,
        }
        .write(&self.unit_path(dir, k))?;
        Ok(Played::Written)
    }

    /// Whether `dir` already holds a valid file of unit `k` (one directory never
    /// plays a unit twice).
    fn has_unit(&self, dir: &Path, k: u32) -> bool {
        let path = self.unit_path(dir, k);
        path.exists() && UnitFile::read(&path, self, k).is_ok()
    }
}

/// A unit file of a JSON kind: the envelope every kind shares (`format`,
/// `version`, `plan_id`, `unit`) with the kind's body flattened into it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitFile<B> {
    /// Always the kind's [`JsonUnits::UNIT_FORMAT`].
    pub format: String,
    /// Always the kind's [`JsonUnits::UNIT_VERSION`].
    pub version: u32,
    /// The id of the plan the unit belongs to ([`JsonUnits::unit_plan_id`]).
    pub plan_id: String,
    /// The unit index `K`.
    pub unit: u32,
    /// What the unit left.
    #[serde(flatten)]
    pub body: B,
}

impl<B: Serialize + DeserializeOwned> UnitFile<B> {
    /// Reads a unit file of the kind of `P` and checks its format and version
    /// only (a merge over a directory with the units of several plans).
    pub fn read_kind<P: JsonUnits<Body = B>>(path: &Path) -> Result<UnitFile<B>, UnitError> {
        let text = std::fs::read_to_string(path).map_err(|e| UnitError::Io(path.into(), e))?;
        let r: UnitFile<B> =
            serde_json::from_str(&text).map_err(|e| UnitError::Json(path.into(), e))?;
        if r.format != P::UNIT_FORMAT || r.version != P::UNIT_VERSION {
            return Err(UnitError::Format(
                path.into(),
                format!(
                    "format {:?} version {}; this build reads {:?} version {}",
                    r.format,
                    r.version,
                    P::UNIT_FORMAT,
                    P::UNIT_VERSION
                ),
            ));
        }
        Ok(r)
    }

    /// Reads a unit file and checks that it is unit `k` of `plan`: format,
    /// version, plan id, unit number, then the body ([`JsonUnits::check_body`]).
    pub fn read<P: JsonUnits<Body = B>>(
        path: &Path,
        plan: &P,
        k: u32,
    ) -> Result<UnitFile<B>, UnitError> {
        let r = Self::read_kind::<P>(path)?;
        if r.plan_id != plan.unit_plan_id() {
            return Err(UnitError::OtherPlan {
                path: path.into(),
                found: r.plan_id,
                want: plan.unit_plan_id().to_string(),
            });
        }
        if r.unit != k {
            return Err(UnitError::OtherUnit {
                path: path.into(),
                found: r.unit,
                want: k,
            });
        }
        plan.check_body(k, &r.body)
            .map_err(|why| UnitError::Mismatch(path.into(), why))?;
        Ok(r)
    }

    /// Writes the file to `path` atomically (compact JSON).
    pub fn write(&self, path: &Path) -> Result<(), UnitError> {
        let json = serde_json::to_string(self).expect("a unit file serialises");
        write_atomic(path, json.as_bytes()).map_err(|e| UnitError::Io(path.into(), e))
    }
}

/// Why a unit cannot be played, read or merged (every kind; datagen's binary
/// files have their own reading errors, [`crate::datagen::unit_file`]).
#[derive(Debug)]
pub enum UnitError {
    /// Reading or writing failed.
    Io(PathBuf, std::io::Error),
    /// Not valid JSON of a unit file (a torn or foreign file).
    Json(PathBuf, serde_json::Error),
    /// A unit file of another kind, or of a version this build does not read.
    Format(PathBuf, String),
    /// A unit file of another plan (another run, round or ply).
    OtherPlan {
        /// The file.
        path: PathBuf,
        /// The plan id it holds.
        found: String,
        /// The plan id it should hold.
        want: String,
    },
    /// A unit file of another unit of the plan.
    OtherUnit {
        /// The file.
        path: PathBuf,
        /// The unit it holds.
        found: u32,
        /// The unit it should hold.
        want: u32,
    },
    /// A file or plan that does not fit (other games or positions, another event,
    /// a bad move or PGN, no such unit).
    Mismatch(PathBuf, String),
    /// The unit was not finished: an engine could not be started here (a cluster
    /// plays it again elsewhere), the player failed, the engines could not be made.
    Aborted(String),
    /// A merge could not go on (a tournament's results file, configuration or
    /// report).
    Merge(Box<dyn std::error::Error + Send + Sync>),
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            UnitError::Json(p, e) => write!(f, "{}: not a unit file: {e}", p.display()),
            UnitError::Format(p, why) => write!(f, "{}: {why}", p.display()),
            UnitError::OtherPlan { path, found, want } => write!(
                f,
                "{}: a unit of plan {found}, not of plan {want}",
                path.display()
            ),
            UnitError::OtherUnit { path, found, want } => {
                write!(f, "{}: unit {found}, not unit {want}", path.display())
            }
            UnitError::Mismatch(p, why) => write!(f, "{}: {why}", p.display()),
            UnitError::Aborted(why) => write!(f, "the unit was not finished: {why}"),
            UnitError::Merge(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for UnitError {}

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

    fn stamp(format: &str, version: u32, engine: &str) -> Stamp {
        Stamp {
            format: format.into(),
            version,
            engine: engine.into(),
        }
    }

    #[test]
    fn stamps_are_checked() {
        let me = engine_name();
        assert!(stamp("a", 1, &me).check("a", 1).is_ok());
        assert!(stamp("b", 1, &me).check("a", 1).is_err());
        assert!(stamp("a", 2, &me).check("a", 1).is_err());
        assert!(stamp("a", 1, "chuhan 0.0.0-other").check("a", 1).is_err());
    }

    /// A kind of unit made for the test: a plan of `units` units, each of
    /// which leaves a number that must be twice its index.
    #[derive(Serialize, Deserialize)]
    struct Doubles {
        #[serde(flatten)]
        stamp: Stamp,
        plan_id: String,
        units: u32,
    }

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Double {
        value: u32,
    }

    impl PlanFile for Doubles {
        const FORMAT: &'static str = "test-doubles-plan";
        const VERSION: u32 = 1;

        fn stamp(&self) -> &Stamp {
            &self.stamp
        }

        fn check_content(&self) -> Result<(), PlanError> {
            Ok(())
        }
    }

    impl UnitPlan for Doubles {
        const RUN: &'static str = "plan";

        fn run_id(&self) -> &str {
            &self.plan_id
        }

        fn check_unit(&self, k: u32) -> Result<(), PlanError> {
            if k < self.units {
                Ok(())
            } else {
                Err(PlanError::NoUnit(k))
            }
        }

        fn unit_file_name(&self, k: u32) -> String {
            format!("double-{k}.json")
        }
    }

    impl JsonUnits for Doubles {
        const UNIT_FORMAT: &'static str = "test-doubles-unit";
        const UNIT_VERSION: u32 = 2;
        type Body = Double;

        fn unit_plan_id(&self) -> &str {
            &self.plan_id
        }

        fn check_body(&self, k: u32, body: &Double) -> Result<(), String> {
            if body.value == 2 * k {
                Ok(())
            } else {
                Err(format!("{} is not twice {k}", body.value))
            }
        }
    }

    fn doubles(plan_id: &str) -> Doubles {
        Doubles {
            stamp: Stamp::of::<Doubles>(),
            plan_id: plan_id.into(),
            units: 4,
        }
    }

    #[test]
    fn a_plan_stamp_is_flattened_into_the_plan() {
        let plan = doubles("ab12");
        let json: serde_json::Value = serde_json::from_str(&plan.to_json()).unwrap();
        assert_eq!(json["format"], "test-doubles-plan");
        assert_eq!(json["version"], 1);
        assert_eq!(json["engine"], engine_name().as_str());
        assert_eq!(json["plan_id"], "ab12");
        assert!(Doubles::from_json(&plan.to_json()).is_ok());
        let old = plan.to_json().replace("\"version\": 1", "\"version\": 0");
        assert!(matches!(
            Doubles::from_json(&old),
            Err(PlanError::Format(_))
        ));
    }

    #[test]
    fn the_unit_envelope_is_checked_field_by_field() {
        let dir = std::env::temp_dir().join(format!("chuhan-envelope-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let plan = doubles("ab12");
        assert!(!plan.has_unit(&dir, 3));
        let played = plan.write_unit(&dir, 3, Double { value: 6 }).unwrap();
        assert_eq!(played, Played::Written);
        assert!(plan.has_unit(&dir, 3));
        let path = plan.unit_path(&dir, 3);
        assert_eq!(path, dir.join("double-3.json"));
        // The envelope and the body side by side at the top level.
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            r#"{"format":"test-doubles-unit","version":2,"plan_id":"ab12","unit":3,"value":6}"#
        );
        let read = UnitFile::read(&path, &plan, 3).unwrap();
        assert_eq!((read.unit, read.body), (3, Double { value: 6 }));

        // A unit file of another plan.
        let other = doubles("cd34");
        match UnitFile::read(&path, &other, 3) {
            Err(UnitError::OtherPlan { found, want, .. }) => {
                assert_eq!((found.as_str(), want.as_str()), ("ab12", "cd34"))
            }
            other => panic!("{other:?}"),
        }
        // Of another unit number.
        assert!(matches!(
            UnitFile::read(&path, &plan, 2),
            Err(UnitError::OtherUnit {
                found: 3,
                want: 2,
                ..
            })
        ));
        // Of another format, or another version.
        let rewrite = |from: &str, to: &str| {
            std::fs::write(&path, text.replace(from, to)).unwrap();
            UnitFile::read(&path, &plan, 3)
        };
        let e = rewrite("test-doubles-unit", "test-halves-unit").unwrap_err();
        assert!(matches!(e, UnitError::Format(..)), "{e:?}");
        assert!(
            e.to_string().contains("\"test-halves-unit\" version 2"),
            "{e}"
        );
        let e = rewrite("\"version\":2", "\"version\":1").unwrap_err();
        assert!(matches!(e, UnitError::Format(..)), "{e:?}");
        // With a body that is not the unit's.
        let e = rewrite("\"value\":6", "\"value\":7").unwrap_err();
        assert!(matches!(e, UnitError::Mismatch(..)), "{e:?}");
        assert!(e.to_string().contains("7 is not twice 3"), "{e}");
        // Torn.
        let e = rewrite("\"value\":6}", "\"value\":").unwrap_err();
        assert!(matches!(e, UnitError::Json(..)), "{e:?}");
        assert!(!plan.has_unit(&dir, 3));
        // A missing file.
        assert!(matches!(
            UnitFile::read(&plan.unit_path(&dir, 0), &plan, 0),
            Err(UnitError::Io(..))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
