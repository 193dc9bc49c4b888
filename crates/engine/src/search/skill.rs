//! Playing below full strength against people (UCI `Skill Level`,
//! `UCI_LimitStrength` + `UCI_Elo`; UCCI `skilllevel`, `limitstrength`, `elo`).
//!
//! A weakened search must still look like a person's play: sensible moves, chosen
//! with an error that grows as the level falls, not random blunders. So a level
//! does three things:
//!
//! 1. The search looks [`Skill::depth`] plies deep (1 + the level).
//! 2. It searches [`SKILL_LINES`] principal variations, the moves a person would
//!    consider, and only those can be played.
//! 3. Each of those lines gets a random bonus, uniform in `0..weakness`
//!    ([`Skill::weakness`]: 15 cp at level 19, 300 cp at level 0), and the line with
//!    the best score plus bonus is played. A move `x` centipawns worse than the best
//!    is chosen only if its bonus beats the best move's by `x`: small slips are
//!    common at low levels, moves more than `weakness` worse never happen, and a
//!    forced mate or a rule win in the lines is never thrown away (decided scores
//!    get no bonus and are taken first).
//!
//! Level 20 (the default) is full strength. `UCI_Elo` chooses a level with a
//! fractional part through [`LADDER`].

use crate::core::splitmix::SplitMix64;
use crate::search::score::{Value, is_decided};
use crate::search::worker::RootMove;

/// The full-strength level (no weakening).
pub const MAX_SKILL_LEVEL: u32 = 20;
/// Principal variations searched at a weakened level.
pub const SKILL_LINES: usize = 5;
/// Random bonus range per level below the top, centipawns (level 0: 20 × 15).
pub const WEAKNESS_PER_LEVEL: Value = 15;

/// A playing level below full strength, in hundredths of a level (`0..2000`;
/// level 20 and above is full strength, which is no `Skill` at all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    hundredths: u32,
}

impl Skill {
    /// The skill of `level` (0 to 20, in hundredths of a level: 1250 is level
    /// 12.5); `None` at full strength.
    ///
    /// ```
    /// use chuhan_engine::search::skill::Skill;
    /// assert!(Skill::from_hundredths(2000).is_none());
    /// assert_eq!(Skill::from_hundredths(0).unwrap().depth(), 1);
    /// assert_eq!(Skill::from_hundredths(1250).unwrap().depth(), 13);
    /// ```
    pub fn from_hundredths(hundredths: u32) -> Option<Skill> {
        (hundredths < MAX_SKILL_LEVEL * 100).then_some(Skill { hundredths })
    }

    /// The level in hundredths.
    pub fn hundredths(self) -> u32 {
        self.hundredths
    }

    /// How deep the search looks: one ply more than the whole level.
    pub fn depth(self) -> i32 {
        1 + (self.hundredths / 100) as i32
    }

    /// The range of the random bonus of each line, centipawns.
    pub fn weakness(self) -> Value {
        let below = (MAX_SKILL_LEVEL * 100 - self.hundredths) as Value;
        below * WEAKNESS_PER_LEVEL / 100
    }

    /// The line to play among `lines` (best first, as the search sorted them):
    /// the best score plus a bonus drawn from `seed` (see the module
    /// documentation). `None` if `lines` is empty.
    pub fn pick(self, lines: &[RootMove], seed: u64) -> Option<RootMove> {
        let best = lines.first()?;
        if is_decided(best.score) {
            return Some(best.clone());
        }
        let mut rng = SplitMix64::new(seed);
        let w = self.weakness().max(1) as usize;
        lines
            .iter()
            .filter(|l| !is_decided(l.score) && best.score - l.score < w as Value)
            .map(|l| (l.score + rng.below(w) as Value, l))
            .max_by_key(|&(v, _)| v)
            .map(|(_, l)| l.clone())
    }
}

/// The ladder: (level in hundredths, Elo), by level, as measured on 2026-12-05.
///
/// Every level 0–9 played 20 games against the next level up, and levels 5, 8
/// and 10 played 20 against ElephantEye 3.31; all at 10 s + 0.1 s, one thread, no
/// book, rules `axf`, refereed by `../shared/tools/xq_match.py` (pyffish), on a
/// machine running nothing else. A weighted least-squares fit of those results,
/// with ElephantEye fixed at 2000 (the scale's anchor, a convention), gives these
/// ratings (95 % intervals ±127 to ±335; the README has the table and every
/// match).
///
/// Above level 10 a 10 s + 0.1 s clock, not the depth limit, decides how deep a
/// level searches; levels 15 and 19 measured 45 % and 22.5 % against
/// Pikafish-HCE, full strength 65 %. So level 10 is the ladder's top rung and
/// `UCI_Elo`'s maximum.
pub const LADDER: [(u32, i32); 11] = [
    (0, 520),
    (100, 890),
    (200, 1060),
    (300, 1160),
    (400, 1330),
    (500, 1500),
    (600, 1790),
    (700, 1920),
    (800, 2050),
    (900, 2160),
    (1000, 2400),
];

/// Lowest `UCI_Elo`: level 0's.
pub const MIN_ELO: i32 = LADDER[0].1;
/// Highest `UCI_Elo` below full strength: the top rung's.
pub const MAX_ELO: i32 = LADDER[LADDER.len() - 1].1;

/// The level (hundredths) that plays at `elo` on the [`LADDER`], interpolated
/// between its rungs and clamped to its ends.
///
/// ```
/// use chuhan_engine::search::skill::{LADDER, MAX_ELO, MIN_ELO, level_for_elo};
/// assert_eq!(level_for_elo(MIN_ELO - 500), 0);
/// assert_eq!(level_for_elo(MAX_ELO), LADDER[LADDER.len() - 1].0);
/// assert!(level_for_elo(MIN_ELO + 10) > 0);
/// ```
pub fn level_for_elo(elo: i32) -> u32 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    for w in LADDER.windows(2) {
        let ((l0, e0), (l1, e1)) = (w[0], w[1]);
        if elo <= e1 {
            let t = f64::from(elo - e0) / f64::from((e1 - e0).max(1));
            return l0 + (t * f64::from(l1 - l0)).round() as u32;
        }
    }
    LADDER[LADDER.len() - 1].0
}

/// What the strength options ask for, as a [`Skill`]: `UCI_LimitStrength` with
/// `UCI_Elo` wins over `Skill Level`; `None` at full strength.
///
/// ```
/// use chuhan_engine::search::skill::{MAX_ELO, StrengthOptions};
/// let mut o = StrengthOptions::default();
/// assert!(o.skill().is_none());
/// o.level = 3;
/// assert_eq!(o.skill().unwrap().hundredths(), 300);
/// o.limit = true;
/// o.elo = MAX_ELO;
/// assert!(o.skill().unwrap().hundredths() > 300);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthOptions {
    /// `Skill Level`, 0 to 20.
    pub level: u32,
    /// `UCI_LimitStrength`.
    pub limit: bool,
    /// `UCI_Elo`.
    pub elo: i32,
}

impl Default for StrengthOptions {
    /// Full strength: level 20, no limit, `UCI_Elo` at its top.
    fn default() -> StrengthOptions {
        StrengthOptions {
            level: MAX_SKILL_LEVEL,
            limit: false,
            elo: MAX_ELO,
        }
    }
}

impl StrengthOptions {
    /// The skill these options ask for.
    pub fn skill(&self) -> Option<Skill> {
        if self.limit {
            Skill::from_hundredths(level_for_elo(self.elo))
        } else {
            Skill::from_hundredths(self.level.min(MAX_SKILL_LEVEL) * 100)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Move;
    use crate::search::score::mate_in;

    fn lines(scores: &[Value]) -> Vec<RootMove> {
        let moves = ["h2e2", "b2e2", "h0g2", "c3c4", "g3g4"];
        scores
            .iter()
            .zip(moves)
            .map(|(&s, m)| {
                let mut r = RootMove::new(m.parse::<Move>().unwrap());
                r.score = s;
                r
            })
            .collect()
    }

    #[test]
    fn errors_grow_as_the_level_falls_and_stay_within_the_weakness() {
        let ls = lines(&[50, 30, 0, -40, -400]);
        let mut mean_loss = Vec::new();
        for level in [0, 5, 10, 15, 19] {
            let s = Skill::from_hundredths(level * 100).unwrap();
            let mut loss = 0i64;
            for seed in 0..2000u64 {
                let p = s.pick(&ls, seed).unwrap();
                assert!(50 - p.score < s.weakness(), "{level}: {}", p.score);
                assert_ne!(p.score, -400, "{level}: a blunder");
                loss += i64::from(50 - p.score);
            }
            mean_loss.push(loss);
        }
        assert!(mean_loss.windows(2).all(|w| w[0] > w[1]), "{mean_loss:?}");
        assert!(mean_loss[4] < mean_loss[0] / 4, "{mean_loss:?}");
    }

    #[test]
    fn the_ladder_rises_in_level_and_in_elo() {
        for w in LADDER.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "{w:?}");
        }
        // Each rung's Elo maps back to its level, and between rungs the level
        // rises with the Elo.
        for &(level, elo) in &LADDER {
            assert_eq!(level_for_elo(elo), level);
        }
        assert!(level_for_elo(950) > 100 && level_for_elo(950) < 200);
    }

    #[test]
    fn a_forced_win_is_never_thrown_away() {
        let s = Skill::from_hundredths(0).unwrap();
        let ls = lines(&[mate_in(5), 900, 850]);
        for seed in 0..200 {
            assert_eq!(s.pick(&ls, seed).unwrap().score, mate_in(5));
        }
    }
}
