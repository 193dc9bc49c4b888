//! [`Dataset`]: the records of one or more data directories, split into training
//! and validation sets by whole games (positions of one game are strongly
//! correlated; a validation position whose neighbours were trained on would
//! flatter the net), and the fit of the sigmoid scale `K`.

use crate::datagen::record::{Record, result_score};
use crate::datagen::unit_file::{self, UnitData, UnitFileError};
use crate::lots::Lots;
use std::path::{Path, PathBuf};

/// Training and validation records.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// Records trained on.
    pub train: Vec<Record>,
    /// Held-out records.
    pub validation: Vec<Record>,
    /// Games read.
    pub games: u64,
    /// Unit files read.
    pub units: usize,
}

/// The unit files of `paths` (directories of unit files, or single files), in
/// path and unit order.
pub fn unit_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, (PathBuf, UnitFileError)> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let list = unit_file::list(p).map_err(|e| (p.clone(), UnitFileError::Io(e)))?;
            out.extend(list.into_iter().map(|(_, f)| f));
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

impl Dataset {
    /// Reads the units of `paths`; a game goes to validation when the draw for
    /// its (run, unit, game) from `seed` falls below `validation` (a fraction),
    /// so the split does not depend on which directories are read or in what
    /// order. At most `limit` records are kept (units in order), if given.
    pub fn load(
        paths: &[PathBuf],
        validation: f64,
        seed: u64,
        limit: Option<usize>,
    ) -> Result<Dataset, (PathBuf, UnitFileError)> {
        let mut d = Dataset::default();
        let lots = Lots::new(seed);
        let threshold = (validation.clamp(0.0, 1.0) * u64::MAX as f64) as u64;
        for path in unit_files(paths)? {
            if limit.is_some_and(|n| d.train.len() + d.validation.len() >= n) {
                break;
            }
            let unit = UnitData::read(&path).map_err(|e| (path.clone(), e))?;
            d.add_unit(&unit, &lots, threshold);
        }
        if let Some(n) = limit {
            let over = (d.train.len() + d.validation.len()).saturating_sub(n);
            d.train.truncate(d.train.len().saturating_sub(over));
        }
        Ok(d)
    }

    fn add_unit(&mut self, unit: &UnitData, lots: &Lots, threshold: u64) {
        self.units += 1;
        let mut at = 0usize;
        for (g, game) in unit.games.iter().enumerate() {
            let n = game.records as usize;
            let key = unit.run_id ^ (u64::from(unit.unit) << 32) ^ g as u64;
            let held_out = lots.value("validation", key) < threshold;
            let set = if held_out {
                &mut self.validation
            } else {
                &mut self.train
            };
            set.extend_from_slice(&unit.records[at..at + n]);
            at += n;
            self.games += 1;
        }
    }

    /// Reads one unit file into a dataset with no validation set (tests, tools).
    pub fn from_unit(path: &Path) -> Result<Dataset, UnitFileError> {
        let unit = UnitData::read(path)?;
        let mut d = Dataset::default();
        d.add_unit(&unit, &Lots::new(0), 0);
        Ok(d)
    }
}

/// The mean squared error of `σ(score / k)` against the results of `records`.
pub fn score_error(records: &[Record], k: f64) -> f64 {
    let sum: f64 = records
        .iter()
        .map(|r| {
            let p = 1.0 / (1.0 + (-f64::from(r.score) / k).exp());
            let d = p - f64::from(result_score(r.result));
            d * d
        })
        .sum();
    sum / records.len().max(1) as f64
}

/// The `K` (centipawns, from 20 to 2000) that makes `σ(score / K)` the best
/// predictor of the results of `records` in mean squared error, by golden-section
/// search on a deterministic sample of at most 200,000 records.
pub fn fit_k(records: &[Record]) -> f64 {
    let step = (records.len() / 200_000).max(1);
    let sample: Vec<Record> = records.iter().step_by(step).copied().collect();
    let (mut a, mut b) = (20.0f64, 2000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (score_error(&sample, c), score_error(&sample, d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = score_error(&sample, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = score_error(&sample, d);
        }
    }
    (a + b) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::record::Flags;
    use chuhan_engine::core::PlayerResult;
    use chuhan_engine::core::Position;

    #[test]
    fn k_fit_recovers_the_scale_of_the_data() {
        // Results drawn so that P(win) = σ(score / 300) exactly in expectation.
        let pos = Position::startpos();
        let mut recs = Vec::new();
        for s in (-900..=900).step_by(30) {
            let p = 1.0 / (1.0 + (-(s as f64) / 300.0).exp());
            let wins = (p * 1000.0).round() as usize;
            for i in 0..1000 {
                let r = if i < wins {
                    PlayerResult::Win
                } else {
                    PlayerResult::Loss
                };
                recs.push(Record::new(&pos, s as i16, r, Flags::default()));
            }
        }
        let k = fit_k(&recs);
        assert!((k - 300.0).abs() < 10.0, "{k}");
        assert!(score_error(&recs, k) <= score_error(&recs, 150.0));
    }
}
