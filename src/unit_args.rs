//! The work-unit arguments every planned subcommand shares (`chuhan match`,
//! `tournament`, `book generate`, `datagen`, `spsa`): `--plan FILE`, `--unit PLAN
//! K` and `--merge DIR`, and which of them was given ([`Mode`]).
//!
//! `--out DIR` stays each command's own: besides the directory `--unit` writes
//! to, it is the book `book generate --merge` writes, or the run directory of a
//! local `datagen` or `spsa` run. The unit files' names are each kind's rule,
//! listed in `chuhan_arena::work_unit`.

use chuhan_arena::work_unit::UnitPlan;
use std::path::{Path, PathBuf};

/// `--plan`, `--unit` and `--merge`, flattened into a subcommand's arguments.
#[derive(clap::Args, Debug)]
pub struct UnitArgs {
    /// Write the run (its first round) as work units to FILE (JSON) and stop;
    /// play them with `--unit`, anywhere, and merge them with `--merge`.
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,
    /// Play one unit of a plan: `--unit plan.json K --out DIR` writes the unit's
    /// file into DIR atomically (nothing if a valid one is already there) and keeps
    /// a copy of the plan there as `plan.json`.
    #[arg(long, num_args = 2, value_names = ["PLAN", "K"])]
    pub unit: Vec<String>,
    /// Merge the units played into DIR (its `plan.json`): the result of the run,
    /// or (tournament, book, SPSA: exit status 3) the next round's plan in
    /// `DIR/next.json`.
    #[arg(long, value_name = "DIR")]
    pub merge: Option<PathBuf>,
}

/// Which of the work-unit arguments was given (clap lets through one at most).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode<'a> {
    /// `--unit PLAN K`.
    Unit {
        /// The plan file.
        plan: &'a Path,
        /// The unit number as given.
        k: &'a str,
    },
    /// `--merge DIR`.
    Merge(&'a Path),
    /// `--plan FILE`.
    Plan(&'a Path),
    /// None: a local run.
    Local,
}

impl UnitArgs {
    /// Which mode the arguments ask for.
    pub fn mode(&self) -> Mode<'_> {
        if let [plan, k] = self.unit.as_slice() {
            Mode::Unit {
                plan: Path::new(plan),
                k,
            }
        } else if let Some(dir) = &self.merge {
            Mode::Merge(dir)
        } else if let Some(file) = &self.plan {
            Mode::Plan(file)
        } else {
            Mode::Local
        }
    }

    /// The start of `--unit PLAN K --out DIR` for plans of kind `P`
    /// ([`UnitPlan::open_unit`]): the plan, the unit number and the directory.
    pub fn open_unit<P: UnitPlan>(&self, out: Option<&Path>) -> Result<(P, u32, PathBuf), String> {
        match self.mode() {
            Mode::Unit { plan, k } => P::open_unit(plan, k, out),
            _ => Err("give --unit PLAN K".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        units: UnitArgs,
    }

    fn mode(args: &[&str]) -> String {
        let c =
            Command::try_parse_from(std::iter::once("chuhan").chain(args.iter().copied())).unwrap();
        format!("{:?}", c.units.mode())
    }

    #[test]
    fn one_mode_from_the_arguments() {
        assert_eq!(mode(&[]), "Local");
        assert_eq!(mode(&["--plan", "p.json"]), "Plan(\"p.json\")");
        assert_eq!(mode(&["--merge", "r"]), "Merge(\"r\")");
        assert_eq!(
            mode(&["--unit", "p.json", "7"]),
            "Unit { plan: \"p.json\", k: \"7\" }"
        );
        assert!(Command::try_parse_from(["chuhan", "--unit", "p.json"]).is_err());
    }
}
