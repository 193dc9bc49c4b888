//! Quantisation: the float net to the engine's integer [`Network`], and a report
//! of what it costs on real positions.
//!
//! ```text
//! W_q = round(W · QA)   b_q = round(b · QA)           (i16)
//! v_q = round(v · QB)                                  (i16)
//! c_q = round(c · QA · QB)                             (i32)
//! ```
//!
//! Training clips every feature weight and bias and every output weight to
//! ±[`CLIP`], so `QA · CLIP` = 505 and an accumulator of 32 features stays far
//! inside `i16`; values beyond the `i16` range would be clipped here and counted.

use super::model::{FloatNet, Scratch};
use super::sample::Sample;
use crate::datagen::record::Record;
use chuhan_engine::eval::nnue::network::{NetError, Network};

/// The bound training keeps weights within.
pub const CLIP: f32 = 1.98;

/// What quantisation did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct QuantReport {
    /// Parameters clipped to the integer range.
    pub clipped: usize,
    /// Positions compared.
    pub positions: usize,
    /// Mean absolute difference between the float and the integer evaluation, cp.
    pub mean_abs_cp: f64,
    /// Largest absolute difference, cp.
    pub max_abs_cp: f64,
    /// Mean absolute float evaluation, cp (the scale the error compares with).
    pub mean_abs_eval_cp: f64,
}

fn round_to(x: f32, scale: f32, lo: f32, hi: f32, clipped: &mut usize) -> f32 {
    let v = (x * scale).round();
    if v < lo || v > hi {
        *clipped += 1;
    }
    v.clamp(lo, hi)
}

/// The integer net of `net`, with the number of clipped parameters; refused if
/// its weights could overflow the integer evaluation.
pub fn quantise(net: &FloatNet) -> Result<(Network, usize), NetError> {
    let l = net.layout();
    let a = net.arch;
    let (qa, qb) = (a.qa as f32, a.qb as f32);
    let (lo, hi) = (f32::from(i16::MIN), f32::from(i16::MAX));
    let mut clipped = 0;
    let p = &net.params;
    let mut q = Network::zeroed(a);
    for (d, &x) in q.ft_weights.iter_mut().zip(&p[..l.ft_bias]) {
        *d = round_to(x, qa, lo, hi, &mut clipped) as i16;
    }
    for (d, &x) in q.ft_bias.iter_mut().zip(&p[l.ft_bias..l.out_weights]) {
        *d = round_to(x, qa, lo, hi, &mut clipped) as i16;
    }
    for (d, &x) in q.out_weights.iter_mut().zip(&p[l.out_weights..l.out_bias]) {
        *d = round_to(x, qb, lo, hi, &mut clipped) as i16;
    }
    for (d, &x) in q.out_bias.iter_mut().zip(&p[l.out_bias..]) {
        let v = (f64::from(x) * f64::from(qa) * f64::from(qb)).round();
        let c = v.clamp(f64::from(i32::MIN), f64::from(i32::MAX));
        if c != v {
            clipped += 1;
        }
        *d = c as i32;
    }
    q.check_ranges()?;
    Ok((q, clipped))
}

/// The integer evaluation of a sample (centipawns, side to move's view).
pub fn integer_eval(q: &Network, s: &Sample) -> i32 {
    let h = q.arch.hidden;
    let mut us = vec![0i16; h];
    let mut them = vec![0i16; h];
    q.accumulate(s.features(0), &mut us);
    q.accumulate(s.features(1), &mut them);
    q.output(&us, &them, s.bucket as usize)
}

/// Compares the float and integer evaluations on `records`.
pub fn compare(net: &FloatNet, q: &Network, records: &[Record], clipped: usize) -> QuantReport {
    let mut scratch = Scratch::new(net.arch.hidden);
    let (mut sum, mut max, mut size) = (0.0f64, 0.0f64, 0.0f64);
    for r in records {
        let s = Sample::new(r, net.arch.king_buckets, net.arch.output_buckets);
        let f = f64::from(net.evaluate(&s, &mut scratch));
        let i = f64::from(integer_eval(q, &s));
        let d = (f - i).abs();
        sum += d;
        max = max.max(d);
        size += f.abs();
    }
    QuantReport {
        clipped,
        positions: records.len(),
        mean_abs_cp: sum / records.len().max(1) as f64,
        max_abs_cp: max,
        mean_abs_eval_cp: size / records.len().max(1) as f64,
    }
}
