//! [`Adam`]: the optimiser, applied row by row so that feature rows without
//! gradient in a batch are skipped (lazy, "sparse" Adam: their moments do not
//! decay while they are absent, as in TensorFlow's `LazyAdam`), followed by weight
//! clipping to keep every weight quantisable.

/// Adam's moments and constants.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// First moments, laid out like the parameters.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
    /// Steps taken (for the bias correction).
    pub step: u64,
}

/// Exponential decay of the first moment.
pub const BETA1: f32 = 0.9;
/// Exponential decay of the second moment.
pub const BETA2: f32 = 0.999;
/// Added to the denominator.
pub const EPSILON: f32 = 1e-8;

impl Adam {
    /// Zero moments for `len` parameters.
    pub fn new(len: usize) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
            step: 0,
        }
    }

    /// The bias-corrected step size for learning rate `lr` at the current step
    /// (call after incrementing `step`).
    pub fn step_size(&self, lr: f32) -> f32 {
        let t = self.step.max(1) as i32;
        lr * (1.0 - BETA2.powi(t)).sqrt() / (1.0 - BETA1.powi(t))
    }

    /// Updates `params[at..at+len]` with the gradient `grad` (same length) and
    /// clips the results to `±clip`.
    pub fn update(
        m: &mut [f32],
        v: &mut [f32],
        params: &mut [f32],
        grad: &[f32],
        step_size: f32,
        clip: f32,
    ) {
        for (((p, m), v), &g) in params.iter_mut().zip(m).zip(v).zip(grad) {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p = (*p - step_size * *m / (v.sqrt() + EPSILON)).clamp(-clip, clip);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimises_a_quadratic_and_clips() {
        let mut adam = Adam::new(2);
        let mut p = vec![3.0f32, -0.5];
        for _ in 0..2000 {
            adam.step += 1;
            let g: Vec<f32> = p.iter().map(|&x| 2.0 * (x - 1.5)).collect();
            let s = adam.step_size(0.01);
            Adam::update(&mut adam.m, &mut adam.v, &mut p, &g, s, 1.0);
        }
        // The minimum 1.5 lies beyond the clip: both end at the clip.
        assert!(
            (p[0] - 1.0).abs() < 1e-6 && (p[1] - 1.0).abs() < 1e-6,
            "{p:?}"
        );
        let mut adam = Adam::new(1);
        let mut q = vec![2.0f32];
        for _ in 0..3000 {
            adam.step += 1;
            let g = [2.0 * (q[0] - 0.25)];
            let s = adam.step_size(0.01);
            Adam::update(&mut adam.m, &mut adam.v, &mut q, &g, s, 5.0);
        }
        assert!((q[0] - 0.25).abs() < 0.01, "{q:?}");
    }
}
