//! [`Bitboard`]: a set of squares packed into a `u128` (bit `i` = square index `i`).

use super::square::{File, Rank, Square};
use std::fmt;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

/// A set of squares. Bit `i` stands for the square with index `i`; bits 90..127 are
/// always zero.
///
/// `&`, `|`, `^` are intersection, union and symmetric difference, `!` is the
/// complement within the 90 squares and `-` is set difference.
///
/// ```
/// use chuhan_engine::core::{Bitboard, Square};
/// let a = Bitboard::from(Square::A0) | Square::B0.into();
/// let b = Bitboard::from(Square::B0);
/// assert_eq!((a - b).into_iter().collect::<Vec<_>>(), vec![Square::A0]);
/// assert_eq!((!a).count(), 88);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 squares.
    pub const FULL: Bitboard = Bitboard((1u128 << 90) - 1);
    /// Rank 0 (Red's back rank).
    pub const RANK_0: Bitboard = Bitboard(0x1FF);
    /// File a.
    pub const FILE_A: Bitboard = {
        let mut b = 0u128;
        let mut r = 0;
        while r < 10 {
            b |= 1u128 << (r * 9);
            r += 1;
        }
        Bitboard(b)
    };
    /// Red's half of the board (ranks 0..4).
    pub const RED_HALF: Bitboard = Bitboard((1u128 << 45) - 1);
    /// Black's half of the board (ranks 5..9).
    pub const BLACK_HALF: Bitboard = Bitboard(((1u128 << 90) - 1) ^ ((1u128 << 45) - 1));

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq as u8)
    }

    /// All squares of a rank.
    pub const fn rank(r: Rank) -> Bitboard {
        Bitboard(Self::RANK_0.0 << (9 * r.index()))
    }

    /// All squares of a file.
    pub const fn file(f: File) -> Bitboard {
        Bitboard(Self::FILE_A.0 << f.index())
    }

    /// True if no square is set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True if at least one square is set.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True if the set has more than one square.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// True if `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        (self.0 >> sq as u8) & 1 != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::from_index(self.0.trailing_zeros() as u8)
        }
    }

    /// The lowest square of a set known to be non-empty.
    #[inline(always)]
    pub fn lsb(self) -> Square {
        debug_assert!(self.any());
        Square::ALL[self.0.trailing_zeros() as usize]
    }

    /// Removes and returns the lowest square of a non-empty set.
    #[inline(always)]
    pub fn pop_lsb(&mut self) -> Square {
        let sq = self.lsb();
        self.0 &= self.0 - 1;
        sq
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | (1u128 << sq as u8))
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq as u8))
    }

    /// Left-right mirror image of the set.
    pub fn mirror(self) -> Bitboard {
        self.into_iter()
            .map(|s| Bitboard::from(s.mirror()))
            .fold(Bitboard::EMPTY, |a, b| a | b)
    }

    /// Top-bottom flip of the set.
    pub fn flip(self) -> Bitboard {
        self.into_iter()
            .map(|s| Bitboard::from(s.flip()))
            .fold(Bitboard::EMPTY, |a, b| a | b)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |b, s| b.with(s))
    }
}

macro_rules! bitop {
    ($trait:ident, $f:ident, $atrait:ident, $af:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atrait for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl SubAssign for Bitboard {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Bitboard) {
        self.0 &= !rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest index first.
pub struct BitboardIter(Bitboard);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop_lsb())
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline(always)]
    fn into_iter(self) -> BitboardIter {
        BitboardIter(self)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as a 10x9 grid, rank 9 at the top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for r in (0..10).rev() {
            for file in 0..9 {
                let sq = Square::from_coords(file, r).expect("on board");
                write!(f, "{}", if self.has(sq) { 'X' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_and_lines() {
        assert_eq!(Bitboard::RED_HALF.count(), 45);
        assert_eq!(Bitboard::BLACK_HALF.count(), 45);
        assert_eq!(Bitboard::FILE_A.count(), 10);
        assert_eq!((Bitboard::RED_HALF | Bitboard::BLACK_HALF), Bitboard::FULL);
        let e = Bitboard::file(File::new(4).unwrap());
        assert!(e.has(Square::E0) && e.has(Square::E9) && !e.has(Square::D0));
        assert_eq!(
            Bitboard::FILE_A.mirror(),
            Bitboard::file(File::new(8).unwrap())
        );
        assert_eq!(Bitboard::RED_HALF.flip(), Bitboard::BLACK_HALF);
    }

    #[test]
    fn iteration_order() {
        let b: Bitboard = [Square::I9, Square::A0, Square::E4].into_iter().collect();
        let v: Vec<_> = b.into_iter().collect();
        assert_eq!(v, vec![Square::A0, Square::E4, Square::I9]);
        assert!(b.more_than_one());
        assert!(!Bitboard::from(Square::E4).more_than_one());
    }
}
