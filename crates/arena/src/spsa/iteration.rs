//! One SPSA iteration: the random direction Δ ∈ {−1, +1}^p ([`direction`]), the
//! two settings played against each other, `θ± = θ ± c_k·Δ` clamped to each
//! range and rounded for the engine ([`perturbed`]), and the update from the
//! game pair's result `r` (θ+'s points minus θ−'s), `θ_i += a_k,i · r / (c_k,i ·
//! Δ_i)`, clamped ([`update`]).

use super::parameter::{Parameter, round_into};
use super::schedule::Schedule;
use crate::lots::Lots;

/// The direction of iteration `k` for `params` parameters: a pure function of the
/// run's seed and `k`, so every machine and every merge draws the same one.
///
/// ```
/// use chuhan_arena::spsa::iteration::direction;
/// let d = direction(1, 7, 5);
/// assert_eq!(d, direction(1, 7, 5));
/// assert!(d.iter().all(|&x| x == 1 || x == -1));
/// ```
pub fn direction(seed: u64, k: u32, params: usize) -> Vec<i8> {
    let lots = Lots::new(seed);
    (0..params)
        .map(|i| {
            if lots.coin("spsa direction", u64::from(k) * params as u64 + i as u64) {
                1
            } else {
                -1
            }
        })
        .collect()
}

/// The integer values θ+ and θ− of iteration `k` sends to the engine.
pub fn perturbed(
    params: &[Parameter],
    schedule: &Schedule,
    theta: &[f64],
    k: u32,
    delta: &[i8],
) -> (Vec<i32>, Vec<i32>) {
    let side = |sign: f64| {
        params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let step = sign * schedule.c_k(i, k) * f64::from(delta[i]);
                round_into(theta[i] + step, p.min, p.max)
            })
            .collect()
    };
    (side(1.0), side(-1.0))
}

/// Moves `theta` by iteration `k`'s result `score` (θ+'s points minus θ−'s over
/// the game pair, from −2 to 2).
pub fn update(
    params: &[Parameter],
    schedule: &Schedule,
    theta: &mut [f64],
    k: u32,
    delta: &[i8],
    score: f64,
) {
    for (i, p) in params.iter().enumerate() {
        let step = schedule.a_k(i, k) * score / (schedule.c_k(i, k) * f64::from(delta[i]));
        theta[i] = (theta[i] + step).clamp(f64::from(p.min), f64::from(p.max));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, value: f64, c_end: f64, r_end: f64) -> Parameter {
        Parameter {
            name: name.into(),
            value,
            min: -500,
            max: 500,
            c_end,
            r_end,
        }
    }

    #[test]
    fn directions_are_balanced_and_differ_between_iterations() {
        let ds: Vec<Vec<i8>> = (0..400).map(|k| direction(3, k, 4)).collect();
        let plus = ds.iter().flatten().filter(|&&x| x == 1).count();
        assert!((700..=900).contains(&plus), "{plus} of 1600");
        assert_ne!(ds[0..10], ds[10..20]);
        assert_ne!(direction(3, 0, 16), direction(4, 0, 16));
    }

    #[test]
    fn the_pair_straddles_theta_within_the_range() {
        let params = [param("A", 0.0, 5.0, 0.002), param("B", 498.0, 5.0, 0.002)];
        let s = Schedule::new(&params, 100);
        let theta = [0.0, 498.0];
        let (plus, minus) = perturbed(&params, &s, &theta, 99, &[1, 1]);
        assert_eq!((plus, minus), (vec![5, 500], vec![-5, 493]));
        let (plus, minus) = perturbed(&params, &s, &theta, 99, &[-1, 1]);
        assert_eq!((plus[0], minus[0]), (-5, 5));
    }

    #[test]
    fn the_update_follows_the_rule_and_clamps() {
        let params = [param("A", 0.0, 4.0, 0.002), param("B", 0.0, 4.0, 0.002)];
        let s = Schedule::new(&params, 100);
        let mut theta = [10.0, 10.0];
        update(&params, &s, &mut theta, 0, &[1, -1], 2.0);
        let step = s.a_k(0, 0) * 2.0 / s.c_k(0, 0);
        assert!((theta[0] - (10.0 + step)).abs() < 1e-12);
        assert!((theta[1] - (10.0 - step)).abs() < 1e-12);
        let mut theta = [499.99, -499.99];
        update(&params, &s, &mut theta, 0, &[1, -1], 2.0);
        assert_eq!(theta, [500.0, -500.0]);
    }

    /// A noiseless stand-in for a game pair: the setting nearer `target` (in
    /// squared distance, per parameter scaled by `scale`) scores more, up to a
    /// whole pair.
    fn pair_score(plus: &[i32], minus: &[i32], target: &[f64], scale: f64) -> f64 {
        let loss = |x: &[i32]| -> f64 {
            x.iter()
                .zip(target)
                .map(|(&v, t)| (f64::from(v) - t).powi(2))
                .sum()
        };
        ((loss(minus) - loss(plus)) / scale).clamp(-2.0, 2.0)
    }

    #[test]
    fn a_noiseless_objective_draws_theta_to_its_optimum() {
        let params = [
            param("A", 0.0, 4.0, 0.01),
            param("B", 200.0, 4.0, 0.01),
            param("C", -100.0, 4.0, 0.01),
        ];
        let target = [60.0, 150.0, -60.0];
        let iterations = 3000;
        let s = Schedule::new(&params, iterations);
        let mut theta: Vec<f64> = params.iter().map(|p| p.value).collect();
        let distance = |theta: &[f64]| -> f64 {
            theta
                .iter()
                .zip(&target)
                .map(|(x, t)| (x - t).abs())
                .fold(0.0, f64::max)
        };
        let before = distance(&theta);
        for k in 0..iterations {
            let d = direction(11, k, params.len());
            let (plus, minus) = perturbed(&params, &s, &theta, k, &d);
            let r = pair_score(&plus, &minus, &target, 400.0);
            update(&params, &s, &mut theta, k, &d, r);
        }
        let after = distance(&theta);
        assert!(after < 5.0, "from {before} to {after}: {theta:?}");
    }
}
