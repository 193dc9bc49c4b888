//! [`S`]: a middlegame/endgame pair of values, blended by the game phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A tapered value: what a term is worth in the middlegame and in the endgame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

/// Shorthand constructor for [`S`].
///
/// ```
/// use chuhan_engine::eval::tapered::{s, S};
/// assert_eq!(s(3, 4) + s(1, -1), S { mg: 4, eg: 3 });
/// assert_eq!(s(3, 4) * 2, s(6, 8));
/// assert_eq!(s(100, 0).taper(24, 48), 50);
/// ```
pub const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

impl S {
    /// The zero pair.
    pub const ZERO: S = S { mg: 0, eg: 0 };

    /// The blend for `phase` out of `max_phase` (max = pure middlegame).
    #[inline(always)]
    pub fn taper(self, phase: i32, max_phase: i32) -> i32 {
        (self.mg * phase + self.eg * (max_phase - phase)) / max_phase
    }
}

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}

impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        s(self.mg * k, self.eg * k)
    }
}

impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        s(-self.mg, -self.eg)
    }
}
