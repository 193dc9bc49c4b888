//! [`Dataset`]: the records of one or more data directories, split into training
//! and validation sets by whole games (positions of one game are strongly
//! correlated; a validation position whose neighbours were trained on would
//! flatter the net), and the fit of the sigmoid scale `K`.

use crate::datagen::record::{Record, result_score};
use crate::datagen::unit_file::{self, UnitData, UnitFileError};
use crate::lots::Lots;
use chuhan_engine::core::PieceKind;
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

    /// Adds to the training set the left-right mirror of every training record
    /// with a king on the centre file, and returns how many were added.
    ///
    /// The features normalise a perspective whose king stands right of the centre
    /// by mirroring the board (see `docs/nnue.md`), so for a position with both
    /// kings off the centre file the mirror reads exactly the same and would only
    /// count the position twice; with a king on the centre file the mirror is a
    /// new, equally true position with the same score and result. Validation
    /// records are not mirrored, so validation losses stay comparable.
    pub fn add_mirrored(&mut self) -> usize {
        let before = self.train.len();
        for i in 0..before {
            let rec = self.train[i];
            let king_on_centre = rec
                .pieces()
                // File e is the one file that is its own mirror.
                .any(|(sq, p)| p.kind == PieceKind::King && sq.file() == sq.file().mirror());
            let mirror = rec.mirrored();
            if king_on_centre && mirror != rec {
                self.train.push(mirror);
            }
        }
        self.train.len() - before
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
    fn mirrors_are_added_only_where_a_king_is_on_the_centre_file() {
        let centre = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        )
        .unwrap();
        let symmetric = Position::startpos();
        let off_centre = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/5KR2 w - - 0 1").unwrap();
        let mut d = Dataset::default();
        for pos in [&centre, &symmetric, &off_centre] {
            d.train
                .push(Record::new(pos, 40, PlayerResult::Win, Flags::default()));
        }
        d.validation.push(Record::new(
            &centre,
            5,
            PlayerResult::Draw,
            Flags::default(),
        ));
        assert_eq!(d.add_mirrored(), 1);
        assert_eq!(
            d.train[3],
            Record::new(&centre.mirror(), 40, PlayerResult::Win, Flags::default())
        );
        assert_eq!(d.validation.len(), 1);
    }

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
