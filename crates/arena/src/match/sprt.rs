//! The sequential probability ratio test: is the first engine `elo1` stronger
//! (H1) rather than `elo0` (H0)? Stop as soon as the evidence crosses a bound.
//!
//! The log-likelihood ratio uses the usual normal (GSPRT) approximation: with the
//! sample mean `s` and per-unit variance `σ²` of `N` units (games, or game pairs
//! for the pentanomial form), and `s0`, `s1` the scores expected at `elo0` and
//! `elo1` (logistic Elo),
//!
//! `LLR = N·(s1 − s0)·(2s − s0 − s1) / (2σ²)`.
//!
//! The bounds are `A = ln(β/(1 − α))` (accept H0 at or below) and
//! `B = ln((1 − β)/α)` (accept H1 at or above).
//!
//! While every unit so far has had the same result (a sweep, all draws, every
//! pair alike) the variance is zero and the approximation meaningless: the LLR is
//! taken as 0 and the test goes on, as cutechess waits for a mixed sample.

use super::stats::{Pentanomial, Tally, expected_score, mean_variance};
use std::fmt;
use std::str::FromStr;

/// The test's hypotheses and error rates. In JSON (match plans) the text
/// `"elo0=0 elo1=5 alpha=0.05 beta=0.05"`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Sprt {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1.
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Not decided yet.
    Continue,
    /// H0 accepted: not `elo1` stronger.
    AcceptH0,
    /// H1 accepted: `elo1` stronger.
    AcceptH1,
}

/// Why SPRT settings do not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SprtError(pub String);

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SprtError {}

impl FromStr for Sprt {
    type Err = SprtError;

    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05` (spaces or commas; alpha and beta
    /// default to 0.05).
    ///
    /// ```
    /// use chuhan_arena::r#match::sprt::Sprt;
    /// let s: Sprt = "elo0=0 elo1=10".parse().unwrap();
    /// assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 10.0, 0.05, 0.05));
    /// assert!("elo0=5 elo1=5".parse::<Sprt>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
            let (k, v) = word
                .split_once('=')
                .ok_or_else(|| SprtError(format!("`{word}` is not key=value")))?;
            let v: f64 = v
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| SprtError(format!("`{word}`: the value is not a number")))?;
            match k.to_ascii_lowercase().as_str() {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                other => {
                    return Err(SprtError(format!(
                        "unknown key `{other}` (expected elo0, elo1, alpha, beta)"
                    )));
                }
            }
        }
        if s.elo0.is_nan() || s.elo1.is_nan() {
            return Err(SprtError("--sprt needs elo0=… and elo1=…".into()));
        }
        if s.elo1 <= s.elo0 {
            return Err(SprtError("--sprt needs elo1 > elo0".into()));
        }
        for (name, p) in [("alpha", s.alpha), ("beta", s.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(SprtError(format!("{name} must lie between 0 and 0.5")));
            }
        }
        Ok(s)
    }
}

impl Sprt {
    /// The lower (accept H0) and upper (accept H1) bounds on the LLR.
    ///
    /// ```
    /// use chuhan_arena::r#match::sprt::Sprt;
    /// let s: Sprt = "elo0=0 elo1=5 alpha=0.05 beta=0.05".parse().unwrap();
    /// let (a, b) = s.bounds();
    /// assert!((a + 2.944).abs() < 1e-3 && (b - 2.944).abs() < 1e-3);
    /// ```
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    fn llr_of(&self, dist: &[(f64, f64)]) -> f64 {
        let Some((n, mean, var)) = mean_variance(dist) else {
            return 0.0;
        };
        if var == 0.0 {
            return 0.0;
        }
        let s0 = expected_score(self.elo0);
        let s1 = expected_score(self.elo1);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The LLR from game results (trinomial).
    ///
    /// ```
    /// use chuhan_arena::r#match::sprt::Sprt;
    /// use chuhan_arena::r#match::stats::Tally;
    /// let s: Sprt = "elo0=0 elo1=10".parse().unwrap();
    /// let llr = s.llr_trinomial(&Tally { wins: 10, losses: 5, draws: 5 });
    /// assert!((llr - 0.19723).abs() < 1e-5);
    /// ```
    pub fn llr_trinomial(&self, t: &Tally) -> f64 {
        self.llr_of(&[
            (0.0, f64::from(t.losses)),
            (0.5, f64::from(t.draws)),
            (1.0, f64::from(t.wins)),
        ])
    }

    /// The LLR from game pairs (pentanomial).
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        let dist: [(f64, f64); 5] =
            std::array::from_fn(|k| (k as f64 / 4.0, f64::from(p.counts[k])));
        self.llr_of(&dist)
    }

    /// The decision at `llr`.
    pub fn state(&self, llr: f64) -> SprtState {
        let (a, b) = self.bounds();
        if llr >= b {
            SprtState::AcceptH1
        } else if llr <= a {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

impl From<Sprt> for String {
    fn from(s: Sprt) -> String {
        s.to_string()
    }
}

impl TryFrom<String> for Sprt {
    type Error = SprtError;

    fn try_from(text: String) -> Result<Sprt, SprtError> {
        text.parse()
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(text: &str) -> Sprt {
        text.parse().unwrap()
    }

    #[test]
    fn llr_by_hand() {
        // Trinomial, 1030 games: L 300, D 400, W 330. s = (330 + 200)/1030 =
        // 0.514563; σ² = (300·s² + 400·(½ − s)² + 330·(1 − s)²)/1030 = 0.152701;
        // s0 = ½, s1 = 1/(1 + 10^(−5/400)) = 0.507195; LLR = 1030·0.007195·
        // (1.029126 − 1.007195)/(2·0.152701) = 0.53219.
        let s = sprt("elo0=0 elo1=5");
        let t = Tally {
            wins: 330,
            losses: 300,
            draws: 400,
        };
        assert!((s.llr_trinomial(&t) - 0.532_186).abs() < 1e-5);
        // Pentanomial, 365 pairs 10/60/200/80/15: LLR 1.09445.
        let p = Pentanomial {
            counts: [10, 60, 200, 80, 15],
        };
        assert!((s.llr_pentanomial(&p) - 1.094_448).abs() < 1e-5);
        assert_eq!(s.llr_trinomial(&Tally::default()), 0.0);
    }

    #[test]
    fn decisions_at_the_bounds() {
        let s = sprt("elo0=0 elo1=5 alpha=0.05 beta=0.1");
        let (a, b) = s.bounds();
        assert!((a - (0.1f64 / 0.95).ln()).abs() < 1e-12);
        assert!((b - (0.9f64 / 0.05).ln()).abs() < 1e-12);
        assert_eq!(s.state(b), SprtState::AcceptH1);
        assert_eq!(s.state(a), SprtState::AcceptH0);
        assert_eq!(s.state(0.0), SprtState::Continue);
    }

    #[test]
    fn a_clearly_stronger_engine_is_accepted_and_a_weaker_one_rejected() {
        let s = sprt("elo0=0 elo1=10");
        let strong = Tally {
            wins: 400,
            losses: 200,
            draws: 400,
        };
        assert_eq!(s.state(s.llr_trinomial(&strong)), SprtState::AcceptH1);
        assert_eq!(
            s.state(s.llr_trinomial(&strong.reversed())),
            SprtState::AcceptH0
        );
        // A sweep has no spread yet: no evidence either way.
        let sweep = Tally {
            wins: 30,
            losses: 0,
            draws: 0,
        };
        assert_eq!(s.llr_trinomial(&sweep), 0.0);
        let one_draw = Tally { draws: 1, ..sweep };
        assert_eq!(s.state(s.llr_trinomial(&one_draw)), SprtState::AcceptH1);
    }

    #[test]
    fn settings_are_checked() {
        for bad in [
            "",
            "elo0=0",
            "elo0=5 elo1=0",
            "elo0=0 elo1=5 alpha=0",
            "elo0=0 elo1=5 beta=0.7",
            "elo0=0 elo1=x",
            "elo0=0 elo1=5 gamma=1",
            "elo0=0 elo1=inf",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
        assert_eq!(sprt("elo0=-1.5, elo1=3.5").elo0, -1.5);
    }
}
