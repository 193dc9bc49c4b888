//! [`Schedule`]: SPSA's gain sequences as OpenBench sets them.
//!
//! For a run of `N` iterations, with `A = 0.1·N`, `α = 0.602`, `γ = 0.101`, and for
//! each parameter its `c_end` and `r_end`:
//!
//! * `c = c_end · N^γ`, `a_end = r_end · c_end²`, `a = a_end · (A + N)^α`;
//! * at iteration `k` (from 0): `c_k = c / (k + 1)^γ` and `a_k = a / (A + k + 1)^α`,
//!
//! so the last iteration perturbs by exactly `c_end` and learns at exactly `a_end`.

use super::parameter::Parameter;

/// The exponent of the learning-rate decay.
pub const ALPHA: f64 = 0.602;
/// The exponent of the perturbation decay.
pub const GAMMA: f64 = 0.101;
/// The stability constant `A` as a share of the iterations.
pub const A_SHARE: f64 = 0.1;

/// The gains of one run, per parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// The stability constant `A`.
    pub big_a: f64,
    /// `c` of each parameter.
    pub c: Vec<f64>,
    /// `a` of each parameter.
    pub a: Vec<f64>,
}

impl Schedule {
    /// The schedule of `iterations` iterations of `params`.
    ///
    /// ```
    /// use chuhan_arena::spsa::{parameter::Parameter, schedule::Schedule};
    /// let p = Parameter { name: "X".into(), value: 0.0, min: -100, max: 100, c_end: 4.0, r_end: 0.002 };
    /// let s = Schedule::new(&[p], 1000);
    /// assert!((s.c_k(0, 999) - 4.0).abs() < 1e-9);
    /// assert!((s.a_k(0, 999) - 0.002 * 16.0).abs() < 1e-12);
    /// ```
    pub fn new(params: &[Parameter], iterations: u32) -> Schedule {
        let n = f64::from(iterations);
        let big_a = A_SHARE * n;
        Schedule {
            big_a,
            c: params.iter().map(|p| p.c_end * n.powf(GAMMA)).collect(),
            a: params
                .iter()
                .map(|p| p.r_end * p.c_end * p.c_end * (big_a + n).powf(ALPHA))
                .collect(),
        }
    }

    /// The perturbation of parameter `i` at iteration `k`.
    pub fn c_k(&self, i: usize, k: u32) -> f64 {
        self.c[i] / (f64::from(k) + 1.0).powf(GAMMA)
    }

    /// The learning rate of parameter `i` at iteration `k`.
    pub fn a_k(&self, i: usize, k: u32) -> f64 {
        self.a[i] / (self.big_a + f64::from(k) + 1.0).powf(ALPHA)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() < 1e-9 * y.abs().max(1.0)
    }

    #[test]
    fn gains_match_hand_computed_values() {
        // N = 100, c_end = 10, r_end = 0.002: A = 10, c = 10·100^0.101,
        // a_end = 0.2, a = 0.2·110^0.602 (values from Python's `**`).
        let p = Parameter {
            name: "X".into(),
            value: 0.0,
            min: 0,
            max: 100,
            c_end: 10.0,
            r_end: 0.002,
        };
        let s = Schedule::new(&[p], 100);
        assert!(close(s.big_a, 10.0));
        assert!(close(s.c[0], 15.922087270511703));
        assert!(close(s.a[0], 3.3880389316745125));
        assert!(close(s.c_k(0, 0), 15.922087270511703));
        assert!(close(s.a_k(0, 0), 0.7998894995221949));
        assert!(close(s.c_k(0, 9), 12.618275345906708));
        assert!(close(s.a_k(0, 9), 0.5581209627866086));
        assert!(close(s.c_k(0, 99), 10.0));
        assert!(close(s.a_k(0, 99), 0.2));
    }

    #[test]
    fn gains_are_per_parameter_and_decrease() {
        let p = |c_end: f64, r_end: f64| Parameter {
            name: "X".into(),
            value: 0.0,
            min: 0,
            max: 100,
            c_end,
            r_end,
        };
        let s = Schedule::new(&[p(1.0, 0.002), p(3.0, 0.004)], 50);
        assert!(close(s.c_k(1, 7), 3.0 * s.c_k(0, 7)));
        assert!(close(s.a_k(1, 7), 18.0 * s.a_k(0, 7)));
        assert!((1..50).all(|k| s.c_k(0, k) < s.c_k(0, k - 1) && s.a_k(0, k) < s.a_k(0, k - 1)));
    }
}
