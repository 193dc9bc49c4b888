//! [`FloatNet`]: the float network the trainer optimises, its forward pass, and
//! the gradient of the loss of one sample.
//!
//! All parameters live in one flat vector, laid out as the net file lays out the
//! quantised ones: the feature weights (one row of `H` per input feature), then
//! the *dense* part — feature biases (`H`), output weights (`B × 2H`) and output
//! biases (`B`). Rows of features absent from a batch get no gradient; the
//! optimiser skips them.
//!
//! ```text
//! acc_P = b + Σ_{f ∈ F_P} W_f                    P = side to move (us), the other (them)
//! y     = v_b · [screlu(acc_us), screlu(acc_them)] + c_b      b = output bucket
//! p     = σ(y · SCALE / K)                        predicted score of the side to move
//! loss  = (p − t)²,  t = λ · σ(score / K) + (1 − λ) · result
//! ```

use super::sample::Sample;
use crate::lots::Lots;
use chuhan_engine::eval::nnue::features::{KingBuckets, MAX_ACTIVE};
use chuhan_engine::eval::nnue::network::Architecture;

/// The float net.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// The shape (its scales are used for the output and for quantisation).
    pub arch: Architecture,
    /// Every parameter, laid out as described in the module docs.
    pub params: Vec<f32>,
}

/// Offsets of the parts in the flat parameter vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Hidden size.
    pub hidden: usize,
    /// Input features (rows of feature weights).
    pub inputs: usize,
    /// Output buckets.
    pub outputs: usize,
    /// Start of the feature biases (= end of the feature rows).
    pub ft_bias: usize,
    /// Start of the output weights.
    pub out_weights: usize,
    /// Start of the output biases.
    pub out_bias: usize,
    /// Total parameters.
    pub len: usize,
}

impl Layout {
    /// The layout of `arch`.
    pub fn new(arch: &Architecture) -> Layout {
        let h = arch.hidden;
        let inputs = arch.inputs();
        let ft_bias = inputs * h;
        let out_weights = ft_bias + h;
        let out_bias = out_weights + arch.output_buckets * 2 * h;
        Layout {
            hidden: h,
            inputs,
            outputs: arch.output_buckets,
            ft_bias,
            out_weights,
            out_bias,
            len: out_bias + arch.output_buckets,
        }
    }
}

/// The squared clipped ReLU.
#[inline]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Activations kept from the forward pass for the backward pass.
#[derive(Clone, Debug)]
pub struct Scratch {
    acc: [Vec<f32>; 2],
}

impl Scratch {
    /// Buffers for hidden size `h`.
    pub fn new(h: usize) -> Scratch {
        Scratch {
            acc: [vec![0.0; h], vec![0.0; h]],
        }
    }
}

/// A gradient buffer with the rows that received gradient since it was cleared.
#[derive(Clone, Debug)]
pub struct Gradient {
    /// The gradient, laid out like the parameters.
    pub values: Vec<f32>,
    /// Which feature rows are non-zero.
    pub touched: Vec<bool>,
    /// The touched rows, in first-touch order.
    pub rows: Vec<u32>,
}

impl Gradient {
    /// A zero gradient for `layout`.
    pub fn new(layout: &Layout) -> Gradient {
        Gradient {
            values: vec![0.0; layout.len],
            touched: vec![false; layout.inputs],
            rows: Vec::new(),
        }
    }

    fn touch(&mut self, row: usize) {
        if !self.touched[row] {
            self.touched[row] = true;
            self.rows.push(row as u32);
        }
    }
}

/// The constants of the loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossShape {
    /// The sigmoid scale `K` in centipawns.
    pub k: f32,
    /// The weight of the search score in the target (the rest is the result).
    pub lambda: f32,
}

impl LossShape {
    /// The target of a position with search score `score` (centipawns) and game
    /// result `result` (0, ½, 1), both for the side to move.
    pub fn target(&self, score: i16, result: f32) -> f32 {
        self.lambda * sigmoid(f32::from(score) / self.k) + (1.0 - self.lambda) * result
    }
}

impl FloatNet {
    /// A net of `arch` initialised from `seed`: feature weights uniform in ±0.09
    /// (so that an accumulator of ~30 features spreads about ±0.3), output weights
    /// uniform in ±1/√(2H), biases 0.
    pub fn new(arch: Architecture, seed: u64) -> FloatNet {
        let l = Layout::new(&arch);
        let lots = Lots::new(seed);
        let uniform = |i: usize, a: f32| {
            let z = lots.value("nnue init", i as u64);
            ((z >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a
        };
        let mut params = vec![0.0f32; l.len];
        for (i, p) in params[..l.ft_bias].iter_mut().enumerate() {
            *p = uniform(i, 0.09);
        }
        let out = 1.0 / ((2 * l.hidden) as f32).sqrt();
        for (i, p) in params[l.out_weights..l.out_bias].iter_mut().enumerate() {
            *p = uniform(l.out_weights + i, out);
        }
        FloatNet { arch, params }
    }

    /// The layout of the parameters.
    pub fn layout(&self) -> Layout {
        Layout::new(&self.arch)
    }

    /// The king-bucket layout.
    pub fn king_buckets(&self) -> KingBuckets {
        self.arch.king_buckets
    }

    fn accumulate(&self, l: &Layout, features: &[u16], acc: &mut [f32]) {
        let h = l.hidden;
        acc.copy_from_slice(&self.params[l.ft_bias..l.ft_bias + h]);
        for &f in features {
            let row = &self.params[f as usize * h..(f as usize + 1) * h];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The raw output `y` of a sample (centipawns = `y · SCALE`), leaving the
    /// accumulators in `scratch`.
    pub fn forward(&self, s: &Sample, scratch: &mut Scratch) -> f32 {
        let l = self.layout();
        let h = l.hidden;
        let [us, them] = &mut scratch.acc;
        self.accumulate(&l, s.features(0), us);
        self.accumulate(&l, s.features(1), them);
        let b = s.bucket as usize;
        let v = &self.params[l.out_weights + b * 2 * h..l.out_weights + (b + 1) * 2 * h];
        let mut y = self.params[l.out_bias + b];
        for (acc, w) in [(&*us, &v[..h]), (&*them, &v[h..])] {
            y += acc.iter().zip(w).map(|(&a, &w)| screlu(a) * w).sum::<f32>();
        }
        y
    }

    /// The evaluation of a sample in centipawns (side to move's view).
    pub fn evaluate(&self, s: &Sample, scratch: &mut Scratch) -> f32 {
        self.forward(s, scratch) * self.arch.scale as f32
    }

    /// The loss of one sample.
    pub fn loss(&self, s: &Sample, shape: &LossShape, scratch: &mut Scratch) -> f32 {
        let y = self.forward(s, scratch);
        let p = sigmoid(y * self.arch.scale as f32 / shape.k);
        let d = p - shape.target(s.score, s.result);
        d * d
    }

    /// Adds `weight ×` the gradient of one sample's loss to `grad` and returns the
    /// loss.
    pub fn backward(
        &self,
        s: &Sample,
        shape: &LossShape,
        weight: f32,
        scratch: &mut Scratch,
        grad: &mut Gradient,
    ) -> f32 {
        let l = self.layout();
        let h = l.hidden;
        let y = self.forward(s, scratch);
        let c = self.arch.scale as f32 / shape.k;
        let p = sigmoid(y * c);
        let d = p - shape.target(s.score, s.result);
        let dy = weight * 2.0 * d * p * (1.0 - p) * c;
        let b = s.bucket as usize;
        let v_at = l.out_weights + b * 2 * h;
        grad.values[l.out_bias + b] += dy;
        for side in 0..2 {
            let acc = &scratch.acc[side];
            let v = &self.params[v_at + side * h..v_at + (side + 1) * h];
            // Output weights.
            let gv = &mut grad.values[v_at + side * h..v_at + (side + 1) * h];
            for (g, &a) in gv.iter_mut().zip(acc) {
                *g += dy * screlu(a);
            }
            // The accumulator's gradient, kept in place of the activations.
            let dacc: &mut Vec<f32> = &mut scratch.acc[side];
            for (a, &w) in dacc.iter_mut().zip(v) {
                *a = if *a > 0.0 && *a < 1.0 {
                    dy * w * 2.0 * *a
                } else {
                    0.0
                };
            }
            let dacc = &scratch.acc[side];
            let gb = &mut grad.values[l.ft_bias..l.ft_bias + h];
            for (g, &d) in gb.iter_mut().zip(dacc) {
                *g += d;
            }
            for &f in s.features(side) {
                let f = f as usize;
                grad.touch(f);
                let row = &mut grad.values[f * h..(f + 1) * h];
                for (g, &d) in row.iter_mut().zip(dacc) {
                    *g += d;
                }
            }
        }
        d * d
    }
}

/// A cheap check of the feature count invariant the sample type relies on.
const _: () = assert!(MAX_ACTIVE <= 32);

#[cfg(test)]
pub(crate) mod tests {
    use super::super::sample::Sample;
    use super::*;
    use crate::datagen::record::{Flags, Record};
    use chuhan_engine::core::PlayerResult;
    use chuhan_engine::core::Position;
    use chuhan_engine::eval::nnue::network::{QA, QB, SCALE};

    pub(crate) fn tiny_arch(buckets: KingBuckets, hidden: usize, outputs: usize) -> Architecture {
        Architecture {
            king_buckets: buckets,
            hidden,
            output_buckets: outputs,
            qa: QA,
            qb: QB,
            scale: SCALE,
        }
    }

    fn samples() -> Vec<Sample> {
        let mut pos = Position::startpos();
        let mut out = Vec::new();
        for (i, m) in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]
            .iter()
            .enumerate()
        {
            let rec = Record::new(
                &pos,
                (i as i16 - 2) * 70,
                PlayerResult::Win,
                Flags::default(),
            );
            out.push(Sample::new(&rec, KingBuckets::Ranks, 2));
            pos.make_move(m.parse().unwrap());
        }
        out
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let mut net = FloatNet::new(tiny_arch(KingBuckets::Ranks, 4, 2), 9);
        let l = net.layout();
        // Keep accumulators inside (0, 1), away from the activation's kinks.
        for p in &mut net.params[..l.ft_bias] {
            *p *= 0.1;
        }
        for p in &mut net.params[l.ft_bias..l.out_weights] {
            *p = 0.5;
        }
        for (i, p) in net.params[l.out_weights..].iter_mut().enumerate() {
            *p = 0.3 + 0.05 * (i % 7) as f32;
        }
        let shape = LossShape {
            k: 200.0,
            lambda: 0.6,
        };
        let data = samples();
        let mut scratch = Scratch::new(4);
        let mut grad = Gradient::new(&l);
        for s in &data {
            net.backward(s, &shape, 1.0, &mut scratch, &mut grad);
        }
        let total = |net: &FloatNet, scratch: &mut Scratch| -> f64 {
            data.iter()
                .map(|s| f64::from(net.loss(s, &shape, scratch)))
                .sum()
        };
        let mut checked = 0;
        let rows: Vec<usize> = grad.rows.iter().map(|&r| r as usize * 4).collect();
        let probes = rows.iter().copied().chain([
            l.ft_bias,
            l.ft_bias + 3,
            l.out_weights + 1,
            l.out_weights + 9,
            l.out_bias + 1,
        ]);
        for i in probes {
            let eps = 1e-3f32;
            let keep = net.params[i];
            net.params[i] = keep + eps;
            let up = total(&net, &mut scratch);
            net.params[i] = keep - eps;
            let down = total(&net, &mut scratch);
            net.params[i] = keep;
            let numeric = (up - down) / (2.0 * f64::from(eps));
            let analytic = f64::from(grad.values[i]);
            let tol = 2e-3 * numeric.abs().max(analytic.abs()) + 2e-5;
            assert!(
                (numeric - analytic).abs() <= tol,
                "parameter {i}: numeric {numeric}, analytic {analytic}"
            );
            checked += 1;
        }
        assert!(checked > 10);
        // Untouched rows have no gradient.
        for f in 0..l.inputs {
            if !grad.touched[f] {
                assert!(grad.values[f * 4..(f + 1) * 4].iter().all(|&g| g == 0.0));
            }
        }
    }
}
