//! Choosing one book move: [`Randomness`] (the UCCI option's levels) and [`choose`].

use super::entry::BookMove;
use super::params;
use rand::{Rng, RngExt};
use std::fmt;
use std::str::FromStr;

/// How adventurous book play is: UCCI's `randomness` option values.
///
/// `None` always plays the heaviest move. The other levels draw a move with
/// probability proportional to `weight^(1/T)` for a temperature `T` that grows from
/// `tiny` to `huge` (values in `book/params.rs`); `medium` is plain proportional
/// choice, as ElephantEye does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Randomness {
    /// Always the heaviest move (ties: the first in canonical order).
    #[default]
    None,
    /// `p ∝ weight⁴`.
    Tiny,
    /// `p ∝ weight²`.
    Small,
    /// `p ∝ weight`.
    Medium,
    /// `p ∝ √weight`.
    Large,
    /// `p ∝ weight^¼`.
    Huge,
}

impl Randomness {
    /// Every level, from none to huge.
    pub const ALL: [Randomness; 6] = [
        Randomness::None,
        Randomness::Tiny,
        Randomness::Small,
        Randomness::Medium,
        Randomness::Large,
        Randomness::Huge,
    ];

    /// The option value (`none`, `tiny`, `small`, `medium`, `large`, `huge`).
    pub const fn name(self) -> &'static str {
        match self {
            Randomness::None => "none",
            Randomness::Tiny => "tiny",
            Randomness::Small => "small",
            Randomness::Medium => "medium",
            Randomness::Large => "large",
            Randomness::Huge => "huge",
        }
    }

    /// The temperature, or `None` for deterministic choice.
    pub fn temperature(self) -> Option<f64> {
        match self {
            Randomness::None => None,
            Randomness::Tiny => Some(params::TEMPERATURE_TINY),
            Randomness::Small => Some(params::TEMPERATURE_SMALL),
            Randomness::Medium => Some(params::TEMPERATURE_MEDIUM),
            Randomness::Large => Some(params::TEMPERATURE_LARGE),
            Randomness::Huge => Some(params::TEMPERATURE_HUGE),
        }
    }
}

impl fmt::Display for Randomness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `randomness` value that is not one of the six level names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRandomnessError(pub String);

impl fmt::Display for ParseRandomnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid randomness {} (expected none, tiny, small, medium, large or huge)",
            crate::echo::echo(&self.0)
        )
    }
}

impl std::error::Error for ParseRandomnessError {}

impl FromStr for Randomness {
    type Err = ParseRandomnessError;

    /// Parses a level name, ignoring case.
    fn from_str(s: &str) -> Result<Randomness, ParseRandomnessError> {
        Randomness::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseRandomnessError(crate::echo::keep(s)))
    }
}

/// Picks one move of `moves` (any order) by `randomness`, drawing from `rng`. Moves of
/// weight 0 are never picked; `None` if no move has a positive weight.
///
/// ```
/// use chuhan_engine::book::{BookMove, Randomness, choose};
/// use rand::{SeedableRng, rngs::SmallRng};
/// let moves = [
///     BookMove { mv: "b2e2".parse().unwrap(), weight: 5, wdl: None },
///     BookMove { mv: "h2e2".parse().unwrap(), weight: 9, wdl: None },
/// ];
/// let mut rng = SmallRng::seed_from_u64(1);
/// assert_eq!(choose(&moves, Randomness::None, &mut rng).unwrap().weight, 9);
/// assert!(choose(&moves, Randomness::Huge, &mut rng).is_some());
/// ```
pub fn choose<R: Rng + ?Sized>(
    moves: &[BookMove],
    randomness: Randomness,
    rng: &mut R,
) -> Option<BookMove> {
    let candidates = moves.iter().filter(|b| b.weight > 0);
    let Some(t) = randomness.temperature() else {
        return candidates
            .min_by(|a, b| BookMove::canonical_order(a, b))
            .copied();
    };
    let scores: Vec<(BookMove, f64)> = candidates
        .map(|b| (*b, (b.weight as f64).powf(1.0 / t)))
        .collect();
    let total: f64 = scores.iter().map(|s| s.1).sum();
    let mut x = rng.random::<f64>() * total;
    for &(b, s) in &scores {
        if x < s {
            return Some(b);
        }
        x -= s;
    }
    // Rounding left a sliver past the last score.
    scores.last().map(|s| s.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    fn bm(mv: &str, weight: u32) -> BookMove {
        BookMove {
            mv: mv.parse().unwrap(),
            weight,
            wdl: None,
        }
    }

    #[test]
    fn names_round_trip() {
        for r in Randomness::ALL {
            assert_eq!(r.name().parse::<Randomness>(), Ok(r));
            assert_eq!(r.to_string().to_uppercase().parse::<Randomness>(), Ok(r));
        }
        assert!("wild".parse::<Randomness>().is_err());
    }

    #[test]
    fn none_takes_the_heaviest_and_skips_zero() {
        let mut rng = SmallRng::seed_from_u64(0);
        let moves = [bm("b2e2", 3), bm("h2e2", 3), bm("c3c4", 1), bm("g3g4", 0)];
        let pick = choose(&moves, Randomness::None, &mut rng).unwrap();
        assert_eq!(pick.mv, moves[0].mv.min(moves[1].mv));
        assert_eq!(choose(&[bm("g3g4", 0)], Randomness::Medium, &mut rng), None);
        assert_eq!(choose(&[], Randomness::None, &mut rng), None);
        for _ in 0..200 {
            assert_ne!(
                choose(&moves, Randomness::Huge, &mut rng).unwrap().weight,
                0
            );
        }
    }

    #[test]
    fn frequencies_follow_the_temperature() {
        // Weights 1 and 4: medium picks the heavy move 80% of the time, tiny
        // (w^4: 1 vs 256) ~99.6%, huge (w^0.25: 1 vs 1.41) ~58.6%.
        let moves = [bm("b2e2", 1), bm("h2e2", 4)];
        let share = |r: Randomness| {
            let mut rng = SmallRng::seed_from_u64(42);
            let n = 20_000;
            let heavy = (0..n)
                .filter(|_| choose(&moves, r, &mut rng).unwrap().weight == 4)
                .count();
            heavy as f64 / n as f64
        };
        assert!((share(Randomness::Medium) - 0.8).abs() < 0.02);
        assert!(share(Randomness::Tiny) > 0.98);
        assert!((share(Randomness::Huge) - 0.586).abs() < 0.02);
        assert!(share(Randomness::Small) > share(Randomness::Medium));
        assert!(share(Randomness::Large) < share(Randomness::Medium));
    }
}
