//! Fitting the win/draw/loss model of [`chuhan_engine::search::wdl`] to self-play
//! positions (`chuhan wdl`): each position's search score, the material on its
//! board and its game's result.
//!
//! The fit maximises the likelihood of the observed results (minimises the mean
//! log loss) over the eight coefficients of `a(m)` and `b(m)` by full-batch Adam
//! with the exact gradient. [`calibration`] then compares, on positions the fit
//! did not see, the mean predicted chances with the observed result frequencies
//! per score bucket.

use crate::datagen::record::{Flags, Record};
use chuhan_engine::core::PlayerResult;
use chuhan_engine::search::wdl::{self, START_MATERIAL, WdlModel};

/// One position for the fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The search score for the side to move, centipawns.
    pub score: f64,
    /// The material on the board as a fraction of the start position's.
    pub material: f64,
    /// The game's result for the side to move.
    pub result: PlayerResult,
}

impl Sample {
    /// The sample of a datagen record; `None` for a mate or rule score (the model
    /// does not cover decided scores) or a record that is not a position.
    pub fn from_record(r: &Record) -> Option<Sample> {
        if r.flags.contains(Flags::MATE) {
            return None;
        }
        let pos = r.position().ok()?;
        Some(Sample {
            score: f64::from(r.score),
            material: f64::from(wdl::material(&pos)) / f64::from(START_MATERIAL),
            result: r.result,
        })
    }
}

/// The probability the model gives to what happened, floored so that one
/// impossible-looking result cannot make the loss infinite.
fn likelihood(model: &WdlModel, s: &Sample) -> f64 {
    let (w, d, l) = model.probabilities(s.score, s.material);
    match s.result {
        PlayerResult::Win => w,
        PlayerResult::Draw => d,
        PlayerResult::Loss => l,
    }
    .max(1e-12)
}

/// The mean log loss (negative log-likelihood) of `model` on `samples`.
pub fn log_loss(model: &WdlModel, samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    -samples
        .iter()
        .map(|s| likelihood(model, s).ln())
        .sum::<f64>()
        / samples.len() as f64
}

/// The gradient of [`log_loss`] with respect to `a0…a3, b0…b3`.
fn gradient(model: &WdlModel, samples: &[Sample]) -> [f64; 8] {
    let mut g = [0.0; 8];
    for s in samples {
        let (a, b) = model.params(s.material);
        let zw = (s.score - a) / b;
        let zl = (-s.score - a) / b;
        let sw = 1.0 / (1.0 + (-zw).exp());
        let sl = 1.0 / (1.0 + (-zl).exp());
        // d(loss)/dz for the win and the loss curve.
        let (dw, dl) = match s.result {
            PlayerResult::Win => (-(1.0 - sw), 0.0),
            PlayerResult::Loss => (0.0, -(1.0 - sl)),
            PlayerResult::Draw => {
                let pd = (1.0 - sw - sl).max(1e-12);
                (sw * (1.0 - sw) / pd, sl * (1.0 - sl) / pd)
            }
        };
        let da = -(dw + dl) / b;
        let db = -(dw * zw + dl * zl) / b;
        let mut mk = 1.0;
        for k in 0..4 {
            g[k] += da * mk;
            g[4 + k] += db * mk;
            mk *= s.material.clamp(0.0, 1.0);
        }
    }
    let n = samples.len().max(1) as f64;
    g.map(|x| x / n)
}

/// Fits the model to `samples` from `start` by `epochs` full-batch Adam steps of
/// size `rate` (centipawns).
///
/// ```
/// use chuhan_arena::wdl_fit::{Sample, fit, log_loss};
/// use chuhan_engine::core::PlayerResult;
/// use chuhan_engine::search::wdl::MODEL;
/// let samples: Vec<Sample> = (-20..=20)
///     .flat_map(|i| {
///         let score = f64::from(i) * 25.0;
///         let result = if i > 4 { PlayerResult::Win } else if i < -4 { PlayerResult::Loss } else { PlayerResult::Draw };
///         [Sample { score, material: 0.5, result }]
///     })
///     .collect();
/// let fitted = fit(&samples, MODEL, 300, 2.0);
/// assert!(log_loss(&fitted, &samples) < log_loss(&MODEL, &samples));
/// ```
pub fn fit(samples: &[Sample], start: WdlModel, epochs: usize, rate: f64) -> WdlModel {
    let mut theta = [0.0; 8];
    theta[..4].copy_from_slice(&start.a);
    theta[4..].copy_from_slice(&start.b);
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let mut m = [0.0; 8];
    let mut v = [0.0; 8];
    let model_of = |t: &[f64; 8]| WdlModel {
        a: [t[0], t[1], t[2], t[3]],
        b: [t[4], t[5], t[6], t[7]],
    };
    for step in 1..=epochs {
        let g = gradient(&model_of(&theta), samples);
        for k in 0..8 {
            m[k] = beta1 * m[k] + (1.0 - beta1) * g[k];
            v[k] = beta2 * v[k] + (1.0 - beta2) * g[k] * g[k];
            let mh = m[k] / (1.0 - beta1.powi(step as i32));
            let vh = v[k] / (1.0 - beta2.powi(step as i32));
            theta[k] -= rate * mh / (vh.sqrt() + eps);
        }
    }
    model_of(&theta)
}

/// One row of a calibration table: the positions whose score lies in
/// `low..high`, the model's mean chances for them and what happened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CalibrationRow {
    /// Lowest score of the bucket (inclusive).
    pub low: i32,
    /// Highest score of the bucket (exclusive).
    pub high: i32,
    /// Positions in the bucket.
    pub count: usize,
    /// Mean predicted win, draw and loss chances.
    pub predicted: [f64; 3],
    /// Observed win, draw and loss frequencies.
    pub observed: [f64; 3],
}

/// Predicted against observed results of `model` on `samples`, in score buckets
/// with the given bounds (`bounds[i]..bounds[i + 1]`); empty buckets left out.
pub fn calibration(model: &WdlModel, samples: &[Sample], bounds: &[i32]) -> Vec<CalibrationRow> {
    bounds
        .windows(2)
        .filter_map(|w| {
            let (low, high) = (w[0], w[1]);
            let inside: Vec<&Sample> = samples
                .iter()
                .filter(|s| s.score >= f64::from(low) && s.score < f64::from(high))
                .collect();
            if inside.is_empty() {
                return None;
            }
            let n = inside.len() as f64;
            let mut predicted = [0.0; 3];
            let mut observed = [0.0; 3];
            for s in &inside {
                let (pw, pd, pl) = model.probabilities(s.score, s.material);
                predicted[0] += pw / n;
                predicted[1] += pd / n;
                predicted[2] += pl / n;
                let k = match s.result {
                    PlayerResult::Win => 0,
                    PlayerResult::Draw => 1,
                    PlayerResult::Loss => 2,
                };
                observed[k] += 1.0 / n;
            }
            Some(CalibrationRow {
                low,
                high,
                count: inside.len(),
                predicted,
                observed,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples drawn from a known model: the fit finds its likelihood again.
    #[test]
    fn the_fit_recovers_a_known_model() {
        let truth = WdlModel {
            a: [80.0, 120.0, 0.0, 0.0],
            b: [60.0, 40.0, 0.0, 0.0],
        };
        // A deterministic stand-in for random draws: for each score and material,
        // results in proportion to the true chances (out of 20).
        let mut samples = Vec::new();
        for m in [0.2, 0.5, 0.9] {
            for i in -30..=30 {
                let score = f64::from(i) * 20.0;
                let (w, d, _) = truth.probabilities(score, m);
                let wins = (w * 20.0).round() as usize;
                let draws = (d * 20.0).round() as usize;
                for k in 0..20 {
                    let result = if k < wins {
                        PlayerResult::Win
                    } else if k < wins + draws {
                        PlayerResult::Draw
                    } else {
                        PlayerResult::Loss
                    };
                    samples.push(Sample {
                        score,
                        material: m,
                        result,
                    });
                }
            }
        }
        let start = WdlModel {
            a: [150.0, 0.0, 0.0, 0.0],
            b: [100.0, 0.0, 0.0, 0.0],
        };
        let fitted = fit(&samples, start, 3000, 2.0);
        let best = log_loss(&truth, &samples);
        assert!(log_loss(&fitted, &samples) < best + 0.002, "{fitted:?}");
        for m in [0.2, 0.5, 0.9] {
            let (a, b) = fitted.params(m);
            let (ta, tb) = truth.params(m);
            assert!(
                (a - ta).abs() < 15.0 && (b - tb).abs() < 15.0,
                "{m}: {a} {b} vs {ta} {tb}"
            );
        }
        // Calibrated on its own data.
        for row in calibration(&fitted, &samples, &[-700, -200, 0, 200, 700]) {
            for k in 0..3 {
                assert!((row.predicted[k] - row.observed[k]).abs() < 0.05, "{row:?}");
            }
        }
    }
}
