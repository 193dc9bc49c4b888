//! [`Schedule`]: the learning rate by step — a linear warm-up, then a cosine
//! decay from the base rate to `final_fraction` of it at the last step.
//!
//! ```text
//! lr(t) = base · t / warmup                                     t < warmup
//! lr(t) = base · (f + (1 − f) · (1 + cos(π · (t − warmup) / (T − warmup))) / 2)   otherwise
//! ```

/// A learning-rate schedule over `total` steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// The peak learning rate.
    pub base: f32,
    /// Steps of linear warm-up.
    pub warmup: u64,
    /// Steps in all.
    pub total: u64,
    /// The last rate as a fraction of the base.
    pub final_fraction: f32,
}

impl Schedule {
    /// The rate at step `t` (0-based).
    ///
    /// ```
    /// use chuhan_arena::train::schedule::Schedule;
    /// let s = Schedule { base: 1e-3, warmup: 10, total: 110, final_fraction: 0.1 };
    /// assert!((s.rate(4) - 5e-4).abs() < 1e-9);
    /// assert!((s.rate(10) - 1e-3).abs() < 1e-9);
    /// assert!((s.rate(60) - 5.5e-4).abs() < 1e-7);
    /// assert!((s.rate(110) - 1e-4).abs() < 1e-9);
    /// ```
    pub fn rate(&self, t: u64) -> f32 {
        if t < self.warmup {
            return self.base * (t + 1) as f32 / self.warmup as f32;
        }
        let span = self.total.saturating_sub(self.warmup).max(1);
        let x = ((t - self.warmup) as f64 / span as f64).min(1.0);
        let cos = 0.5 * (1.0 + (std::f64::consts::PI * x).cos());
        self.base * (self.final_fraction + (1.0 - self.final_fraction) * cos as f32)
    }
}
