//! Quantisation: the float net to the engine's integer [`Network`], and a report
//! of what it costs on real positions.
//!
//! ```text
//! W_q = round(W · QA)   b_q = round(b · QA)           (i16)
//! v_q = round(v · QB)                                  (i16)
//! c_q = round(c · QA · QB)                             (i32)
//! ```
//!
//! `QA` is fixed (255); `QB` is chosen per net by [`output_scale`]: the largest
//! scale at which the AVX2 kernel stays exact and no output sum can leave `i32`.
//! Trained output weights are small (a median of about 0.1 in a 512-wide net),
//! so a fixed `QB` of 64 left them a few levels each: the quantised net was 14 cp
//! from the float one on average; at the scale chosen here it is a few cp.
//!
//! Training clips every feature weight and bias and every output weight to
//! ±[`CLIP`], so `QA · CLIP` = 505 and an accumulator of 32 features stays far
//! inside `i16`; values beyond the `i16` range would be clipped here and counted.

use super::model::{FloatNet, Scratch};
use super::sample::Sample;
use crate::datagen::record::Record;
use chuhan_engine::eval::nnue::network::{Architecture, NetError, Network};

/// The bound training keeps weights within.
pub const CLIP: f32 = 1.98;

/// What quantisation did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct QuantReport {
    /// The output-weight scale chosen ([`output_scale`]).
    pub qb: i32,
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

/// The largest output-weight scale `QB` for `net` (at least 1, at most
/// [`MAX_QB`]) at which, after rounding, every output weight stays within
/// [`Architecture::max_exact_output_weight`] (the AVX2 kernel's 16-bit products
/// stay exact) and every output bucket's `Σ |v_q|` within
/// [`Architecture::max_output_row_sum`] (the output sum cannot leave `i32`).
pub fn output_scale(net: &FloatNet) -> i32 {
    let l = net.layout();
    let weights = &net.params[l.out_weights..l.out_bias];
    let largest = weights
        .iter()
        .fold(0.0f64, |m, &v| m.max(f64::from(v).abs()));
    let mut qb = f64::from(MAX_QB);
    // |v| · qb ≤ w_max (an integer) keeps round(v · qb) ≤ w_max.
    if largest > 0.0 {
        qb = qb.min(f64::from(net.arch.max_exact_output_weight()) / largest);
    }
    // round(v · qb) ≤ |v| · qb + 0.5 for every weight.
    let row_limit = net.arch.max_output_row_sum() as f64;
    for row in weights.chunks_exact(2 * net.arch.hidden) {
        let sum: f64 = row.iter().map(|&v| f64::from(v).abs()).sum();
        if sum > 0.0 {
            qb = qb.min((row_limit - 0.5 * row.len() as f64) / sum);
        }
    }
    (qb.floor() as i32).max(1)
}

/// The largest output-weight scale [`output_scale`] picks.
pub const MAX_QB: i32 = 4096;

/// The integer net of `net` at the output scale of [`output_scale`], with the
/// number of clipped parameters; refused if its weights could overflow the
/// integer evaluation.
pub fn quantise(net: &FloatNet) -> Result<(Network, usize), NetError> {
    quantise_at(net, output_scale(net))
}

/// [`quantise`] at the output scale `qb`.
pub fn quantise_at(net: &FloatNet, qb: i32) -> Result<(Network, usize), NetError> {
    let l = net.layout();
    let a = Architecture { qb, ..net.arch };
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

/// The float net an integer net stands for: every weight divided by the scale
/// [`quantise_at`] multiplied it by, so that quantising the result at the net's
/// own output scale gives `q` back exactly. A trained net shipped as a file can so
/// be the starting point of further training (`chuhan train --init`); the float
/// net's [`Architecture`] keeps `q`'s shape and takes the trainer's `qb`.
pub fn dequantise(q: &Network, trainer_qb: i32) -> FloatNet {
    let arch = Architecture {
        qb: trainer_qb,
        ..q.arch
    };
    let (qa, qb) = (f64::from(q.arch.qa), f64::from(q.arch.qb));
    let scaled = |x: f64, by: f64| (x / by) as f32;
    let mut params = Vec::with_capacity(super::model::Layout::new(&arch).len);
    params.extend(q.ft_weights.iter().map(|&w| scaled(f64::from(w), qa)));
    params.extend(q.ft_bias.iter().map(|&b| scaled(f64::from(b), qa)));
    params.extend(q.out_weights.iter().map(|&v| scaled(f64::from(v), qb)));
    params.extend(q.out_bias.iter().map(|&c| scaled(f64::from(c), qa * qb)));
    FloatNet { arch, params }
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
        qb: q.arch.qb,
        clipped,
        positions: records.len(),
        mean_abs_cp: sum / records.len().max(1) as f64,
        max_abs_cp: max,
        mean_abs_eval_cp: size / records.len().max(1) as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::model::tests::tiny_arch;
    use chuhan_engine::core::{PlayerResult, Position};
    use chuhan_engine::eval::nnue::KingBuckets;
    use chuhan_engine::eval::nnue::network::{QA, QB};

    /// A 32-wide net with output weights of size about `size`.
    fn net(size: f32) -> FloatNet {
        let mut net = FloatNet::new(tiny_arch(KingBuckets::One, 32, 1), 3);
        let l = net.layout();
        for (i, p) in net.params[l.out_weights..l.out_bias].iter_mut().enumerate() {
            *p = size
                * (0.2 + 0.8 * ((i * 37 % 64) as f32 / 63.0))
                * if i % 3 == 0 { -1.0 } else { 1.0 };
        }
        net
    }

    fn records() -> Vec<Record> {
        let mut pos = Position::startpos();
        let mut out = Vec::new();
        for m in [
            "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "c6c5",
        ] {
            out.push(Record::new(&pos, 0, PlayerResult::Draw, Default::default()));
            pos.make_move(m.parse().unwrap());
        }
        out
    }

    #[test]
    fn the_output_scale_is_the_largest_the_kernel_and_the_sums_allow() {
        for size in [0.01f32, 0.1, 0.5, 1.0, CLIP] {
            let n = net(size);
            let (q, clipped) = quantise(&n).unwrap();
            assert_eq!(clipped, 0);
            let qb = q.arch.qb;
            assert_eq!(qb, output_scale(&n));
            let largest = q
                .out_weights
                .iter()
                .map(|&w| i32::from(w).abs())
                .max()
                .unwrap();
            // The AVX2 kernel's products stay exact ...
            assert!(QA * largest <= i32::from(i16::MAX), "size {size}: QB {qb}");
            // ... and the scale is as fine as that allows (or MAX_QB).
            let exact_limit = f64::from(i32::from(i16::MAX) / QA) / f64::from(size);
            assert!(
                qb == MAX_QB || f64::from(qb + 1) > exact_limit,
                "size {size}: QB {qb}"
            );
        }
        // Weights at the training clip keep the scale every earlier net had.
        assert_eq!(output_scale(&net(CLIP)), QB);
        assert!(output_scale(&net(0.1)) > 10 * QB);
    }

    #[test]
    fn a_dequantised_net_quantises_back_to_itself() {
        let recs = records();
        for size in [0.05f32, 0.5, CLIP] {
            let n = net(size);
            let (q, _) = quantise(&n).unwrap();
            let back = dequantise(&q, QB);
            assert_eq!(back.arch, n.arch);
            assert_eq!(back.params.len(), n.params.len());
            // Each weight is within half a quantisation step of the original.
            let step = 0.5 / q.arch.qa as f32 + 1e-6;
            let l = n.layout();
            for (a, b) in back.params[..l.out_weights]
                .iter()
                .zip(&n.params[..l.out_weights])
            {
                assert!((a - b).abs() <= step, "{a} against {b}");
            }
            let (again, clipped) = quantise_at(&back, q.arch.qb).unwrap();
            assert_eq!(clipped, 0);
            assert_eq!(again, q, "size {size}");
            // And it evaluates as the integer net does, within rounding.
            let err = compare(&back, &q, &recs, 0);
            assert!(err.max_abs_cp < 2.0, "{err:?}");
        }
    }

    #[test]
    fn a_finer_output_scale_brings_the_integer_net_closer() {
        let n = net(0.05);
        let recs = records();
        let (fine, _) = quantise(&n).unwrap();
        let (coarse, _) = quantise_at(&n, QB).unwrap();
        let fine_err = compare(&n, &fine, &recs, 0);
        let coarse_err = compare(&n, &coarse, &recs, 0);
        assert!(fine.arch.qb > QB);
        assert_eq!(fine_err.qb, fine.arch.qb);
        assert!(
            fine_err.mean_abs_cp < coarse_err.mean_abs_cp,
            "{fine_err:?} against {coarse_err:?}"
        );
    }
}
