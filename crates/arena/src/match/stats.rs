//! Match statistics: win/draw/loss tallies, game-pair (pentanomial) tallies, the
//! logistic Elo difference with its 95% error bars, and the likelihood of
//! superiority.
//!
//! With a score fraction `s` over `N` games, `Elo = −400·log10(1/s − 1)`. The
//! error bars take the per-game variance `σ²` of the results (1, ½, 0), put
//! `s ± 1.96·σ/√N` through the same formula and report half the width, as
//! cutechess does. For game pairs (the same opening with colours swapped) the
//! unit is the pair's average score (0, ¼, ½, ¾, 1), which removes the opening's
//! bias from the variance. LOS = ½·(1 + erf((W − L)/√(2(W + L)))). A sample whose
//! results are all alike (a sweep, all draws) has no measured spread: its error
//! bars are infinite.

use super::params::Z95;
use std::fmt;

/// Wins, losses and draws of one engine against another (or the field).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The score fraction (wins + draws/2) / games; `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n))
    }

    /// The same games from the opponent's side.
    pub fn reversed(&self) -> Tally {
        Tally {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

    /// Counts by outcome value: `[losses, draws, wins]` for values `[0, ½, 1]`.
    fn counts(&self) -> [(f64, f64); 3] {
        [
            (0.0, f64::from(self.losses)),
            (0.5, f64::from(self.draws)),
            (1.0, f64::from(self.wins)),
        ]
    }
}

/// Game pairs by the pair's total score for the first engine: `counts[k]` pairs
/// scored `k/2` points out of 2 (k = 0…4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial {
    /// Pairs by half points scored (0, ½, 1, 1½, 2).
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Adds a pair in which the first engine scored `half_points` half points
    /// (0–4).
    pub fn add(&mut self, half_points: u32) {
        self.counts[half_points.min(4) as usize] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Counts by per-game value of the pair: `(k/4, counts[k])`.
    fn weighted(&self) -> [(f64, f64); 5] {
        std::array::from_fn(|k| (k as f64 / 4.0, f64::from(self.counts[k])))
    }
}

/// Count, mean and variance of an outcome distribution given as `(value, count)`;
/// `None` when it is empty.
pub(crate) fn mean_variance(dist: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = dist.iter().map(|&(_, c)| c).sum();
    if n == 0.0 {
        return None;
    }
    let mean = dist.iter().map(|&(x, c)| x * c).sum::<f64>() / n;
    let var = dist
        .iter()
        .map(|&(x, c)| c * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

/// The logistic Elo difference of a score fraction (±∞ at 0 and 1).
///
/// ```
/// use chuhan_arena::r#match::stats::elo;
/// assert_eq!(elo(0.5), 0.0);
/// assert!((elo(0.75) - 190.849).abs() < 1e-3);
/// assert_eq!(elo(1.0), f64::INFINITY);
/// ```
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The score fraction expected at an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to about 1.2·10⁻⁷ (the Chebyshev fit of Numerical Recipes'
/// `erfcc`).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

/// An Elo estimate with its 95% error bars.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The Elo difference.
    pub elo: f64,
    /// Half the width of the 95% confidence interval.
    pub margin: f64,
}

impl EloEstimate {
    fn from_distribution(dist: &[(f64, f64)]) -> Option<EloEstimate> {
        let (n, mean, var) = mean_variance(dist)?;
        if var == 0.0 {
            // All results alike: the sample says nothing about its spread.
            return Some(EloEstimate {
                elo: elo(mean),
                margin: f64::INFINITY,
            });
        }
        let sd = (var / n).sqrt();
        let hi = elo(mean + Z95 * sd);
        let lo = elo(mean - Z95 * sd);
        Some(EloEstimate {
            elo: elo(mean),
            margin: (hi - lo) / 2.0,
        })
    }

    /// From game results (`None` before any game).
    ///
    /// ```
    /// use chuhan_arena::r#match::stats::{EloEstimate, Tally};
    /// let e = EloEstimate::from_tally(&Tally { wins: 10, losses: 5, draws: 5 }).unwrap();
    /// assert!((e.elo - 88.74).abs() < 0.01 && (e.margin - 143.87).abs() < 0.01);
    /// ```
    pub fn from_tally(t: &Tally) -> Option<EloEstimate> {
        if t.games() == 0 {
            return None;
        }
        EloEstimate::from_distribution(&t.counts())
    }

    /// From game pairs (`None` before any pair).
    pub fn from_pentanomial(p: &Pentanomial) -> Option<EloEstimate> {
        if p.pairs() == 0 {
            return None;
        }
        EloEstimate::from_distribution(&p.weighted())
    }
}

impl fmt::Display for EloEstimate {
    /// `88.7 +/- 143.9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `+ 0.0` turns −0 into 0.
        write!(f, "{:.1} +/- {:.1}", self.elo + 0.0, self.margin)
    }
}

/// The likelihood of superiority: the probability that the first engine is the
/// stronger, from wins and losses (draws carry no information); `None` without a
/// decisive game.
///
/// ```
/// use chuhan_arena::r#match::stats::{los, Tally};
/// let p = los(&Tally { wins: 10, losses: 5, draws: 5 }).unwrap();
/// assert!((p - 0.90165).abs() < 1e-4);
/// ```
pub fn los(t: &Tally) -> Option<f64> {
    let decisive = f64::from(t.wins + t.losses);
    (decisive > 0.0).then(|| {
        0.5 * (1.0 + erf((f64::from(t.wins) - f64::from(t.losses)) / (2.0 * decisive).sqrt()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_reference_values() {
        // Values of erf from the standard tables.
        for (x, want) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_8),
            (-1.2, -0.910_313_978_2),
            (2.5, 0.999_593_047_9),
        ] {
            assert!((erf(x) - want).abs() < 2e-7, "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    fn elo_by_hand() {
        // 10 wins, 5 losses, 5 draws: s = 12.5/20 = 0.625, Elo = 400·log10(5/3)
        // = 88.739; per-game variance (10·0.375² + 5·0.625² + 5·0.125²)/20 =
        // 0.171875, so s ± 1.96·√(0.171875/20) = 0.625 ± 0.18170, whose Elo values
        // are 248.2 and −39.5: half the width is 143.87.
        let t = Tally {
            wins: 10,
            losses: 5,
            draws: 5,
        };
        let e = EloEstimate::from_tally(&t).unwrap();
        assert!((e.elo - 400.0 * (5.0f64 / 3.0).log10()).abs() < 1e-9);
        assert!((e.margin - 143.874_852).abs() < 1e-5, "{}", e.margin);
        assert_eq!(e.to_string(), "88.7 +/- 143.9");
        assert_eq!(t.score(), Some(0.625));
        assert_eq!(t.reversed().score(), Some(0.375));
        assert!(EloEstimate::from_tally(&Tally::default()).is_none());
        assert!(
            los(&Tally {
                wins: 0,
                losses: 0,
                draws: 3
            })
            .is_none()
        );
    }

    #[test]
    fn even_results_are_zero_elo_and_even_odds() {
        let t = Tally {
            wins: 7,
            losses: 7,
            draws: 6,
        };
        let e = EloEstimate::from_tally(&t).unwrap();
        assert!(e.elo.abs() < 1e-12);
        assert!(e.margin > 0.0);
        assert!(e.to_string().starts_with("0.0 +/- "), "{e}");
        assert!((los(&t).unwrap() - 0.5).abs() < 1e-6);
        assert!((expected_score(elo(0.3)) - 0.3).abs() < 1e-12);
    }

    #[test]
    fn pentanomial_by_hand() {
        // Pairs 10/60/200/80/15: mean (60·¼ + 200·½ + 80·¾ + 15)/365 = 0.52055,
        // Elo 14.286; pair variance 0.03699 gives ±14.409.
        let p = Pentanomial {
            counts: [10, 60, 200, 80, 15],
        };
        let e = EloEstimate::from_pentanomial(&p).unwrap();
        assert!((e.elo - 14.286_221).abs() < 1e-5, "{}", e.elo);
        assert!((e.margin - 14.409_433).abs() < 1e-5, "{}", e.margin);
        let mut q = Pentanomial::default();
        q.add(4);
        q.add(9);
        assert_eq!(q.counts, [0, 0, 0, 0, 2]);
    }

    #[test]
    fn results_all_alike_have_unbounded_error_bars() {
        let sweep = Tally {
            wins: 6,
            losses: 0,
            draws: 0,
        };
        let e = EloEstimate::from_tally(&sweep).unwrap();
        assert_eq!((e.elo, e.margin), (f64::INFINITY, f64::INFINITY));
        assert_eq!(e.to_string(), "inf +/- inf");
        let draws = Tally {
            wins: 0,
            losses: 0,
            draws: 4,
        };
        let e = EloEstimate::from_tally(&draws).unwrap();
        assert_eq!((e.elo, e.margin), (0.0, f64::INFINITY));
    }
}
