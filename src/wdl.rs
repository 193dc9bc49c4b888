//! `chuhan wdl`: fit the win/draw/loss model (UCI `UCI_ShowWDL`) to self-play data
//! (see [`chuhan_arena::wdl_fit`] and `docs/wdl.md`).
//!
//! ```text
//! chuhan wdl data/wdl                 # fit on all but the last unit, check on it
//! chuhan wdl data/wdl --holdout 3     # keep the last three units for the check
//! ```

use chuhan_arena::datagen::unit_file::{self, UnitData};
use chuhan_arena::wdl_fit::{self, Sample};
use chuhan_engine::search::wdl::{MODEL, WdlModel};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `chuhan wdl`.
#[derive(clap::Args, Debug)]
pub struct WdlArgs {
    /// Directories of datagen unit files (`unit-K.bin`).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Units (the last ones of each directory) kept out of the fit to check it on.
    #[arg(long, default_value_t = 1)]
    pub holdout: usize,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 3_000)]
    pub epochs: usize,
    /// Adam's step size, centipawns.
    #[arg(long, default_value_t = 2.0)]
    pub rate: f64,
}

/// Score buckets of the calibration table.
const BOUNDS: [i32; 12] = [
    -3000, -600, -300, -150, -75, -25, 25, 75, 150, 300, 600, 3001,
];

/// Runs `chuhan wdl`.
pub fn run(args: &WdlArgs) -> ExitCode {
    let mut fit_on = Vec::new();
    let mut check_on = Vec::new();
    let mut games = 0usize;
    for dir in &args.data {
        let units = match unit_file::list(dir) {
            Ok(u) => u,
            Err(e) => {
                eprintln!("error: {}: {e}", dir.display());
                return ExitCode::from(2);
            }
        };
        let held_from = units.len().saturating_sub(args.holdout);
        for (i, (_, path)) in units.iter().enumerate() {
            let unit = match UnitData::read(path) {
                Ok(u) => u,
                Err(e) => {
                    eprintln!("error: {}: {e}", path.display());
                    return ExitCode::from(2);
                }
            };
            games += unit.games.len();
            let samples = unit.records.iter().filter_map(Sample::from_record);
            if i >= held_from {
                check_on.extend(samples);
            } else {
                fit_on.extend(samples);
            }
        }
    }
    if fit_on.is_empty() {
        eprintln!(
            "error: no positions to fit on (each directory keeps its last {} unit(s) for the check)",
            args.holdout
        );
        return ExitCode::from(2);
    }
    println!(
        "{games} games: {} positions to fit on, {} held out",
        fit_on.len(),
        check_on.len()
    );
    let fitted = wdl_fit::fit(&fit_on, MODEL, args.epochs, args.rate);
    println!("fitted (paste into crates/engine/src/search/wdl.rs):");
    println!("{}", rust_const(&fitted));
    for (name, model) in [("in use", &MODEL), ("fitted", &fitted)] {
        println!(
            "log loss, {name}: {:.4} on the fit's positions, {:.4} held out",
            wdl_fit::log_loss(model, &fit_on),
            wdl_fit::log_loss(model, &check_on)
        );
    }
    println!("held out, fitted model: predicted vs observed W/D/L (%)");
    println!(
        "{:>13} {:>7} | {:>17} | {:>17}",
        "score", "n", "predicted", "observed"
    );
    for row in wdl_fit::calibration(&fitted, &check_on, &BOUNDS) {
        let pct = |v: [f64; 3]| {
            format!(
                "{:>5.1} {:>5.1} {:>5.1}",
                v[0] * 100.0,
                v[1] * 100.0,
                v[2] * 100.0
            )
        };
        println!(
            "{:>6}..{:<6} {:>7} | {} | {}",
            row.low,
            row.high,
            row.count,
            pct(row.predicted),
            pct(row.observed)
        );
    }
    ExitCode::SUCCESS
}

/// The model as the `MODEL` constant's Rust text.
fn rust_const(m: &WdlModel) -> String {
    let list = |c: &[f64; 4]| {
        c.iter()
            .map(|x| format!("{x:.3}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "pub const MODEL: WdlModel = WdlModel {{\n    a: [{}],\n    b: [{}],\n}};",
        list(&m.a),
        list(&m.b)
    )
}
