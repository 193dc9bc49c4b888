//! Points of the board: [`Square`], [`File`] and [`Rank`].
//!
//! The board has nine files `a`..`i` (left to right from Red's side) and ten ranks
//! `0`..`9` (Red's back rank is 0). A square's index is `rank * 9 + file`, so `a0` is 0
//! and `i9` is 89.

use std::fmt;
use std::str::FromStr;

/// A file (vertical line) `a`..`i`, counted from Red's left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct File(u8);

impl File {
    /// Number of files.
    pub const COUNT: usize = 9;

    /// The file with index `i` (0 = `a`), or `None` if `i >= 9`.
    ///
    /// ```
    /// use chuhan_engine::core::File;
    /// assert_eq!(File::new(4).unwrap().to_char(), 'e');
    /// assert!(File::new(9).is_none());
    /// ```
    pub const fn new(i: u8) -> Option<File> {
        if i < 9 { Some(File(i)) } else { None }
    }

    /// Index 0..8.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The letter `a`..`i`.
    pub const fn to_char(self) -> char {
        (b'a' + self.0) as char
    }

    /// Parses a letter `a`..`i` (either case).
    pub fn from_char(c: char) -> Option<File> {
        let c = c.to_ascii_lowercase();
        if ('a'..='i').contains(&c) {
            Some(File(c as u8 - b'a'))
        } else {
            None
        }
    }

    /// The file seen in a left-right mirror (`a` <-> `i`).
    pub const fn mirror(self) -> File {
        File(8 - self.0)
    }
}

/// A rank (horizontal line) `0`..`9`, counted from Red's back rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    /// Number of ranks.
    pub const COUNT: usize = 10;

    /// The rank with index `i`, or `None` if `i >= 10`.
    ///
    /// ```
    /// use chuhan_engine::core::Rank;
    /// assert_eq!(Rank::new(9).unwrap().index(), 9);
    /// assert!(Rank::new(10).is_none());
    /// ```
    pub const fn new(i: u8) -> Option<Rank> {
        if i < 10 { Some(Rank(i)) } else { None }
    }

    /// Index 0..9.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The digit `0`..`9`.
    pub const fn to_char(self) -> char {
        (b'0' + self.0) as char
    }

    /// Parses a digit `0`..`9`.
    pub fn from_char(c: char) -> Option<Rank> {
        c.to_digit(10).map(|d| Rank(d as u8))
    }

    /// The rank seen from the other side (`0` <-> `9`).
    pub const fn flip(self) -> Rank {
        Rank(9 - self.0)
    }
}

/// One of the 90 points of the board, `a0` (index 0) to `i9` (index 89).
#[rustfmt::skip]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Square {
    A0, B0, C0, D0, E0, F0, G0, H0, I0,
    A1, B1, C1, D1, E1, F1, G1, H1, I1,
    A2, B2, C2, D2, E2, F2, G2, H2, I2,
    A3, B3, C3, D3, E3, F3, G3, H3, I3,
    A4, B4, C4, D4, E4, F4, G4, H4, I4,
    A5, B5, C5, D5, E5, F5, G5, H5, I5,
    A6, B6, C6, D6, E6, F6, G6, H6, I6,
    A7, B7, C7, D7, E7, F7, G7, H7, I7,
    A8, B8, C8, D8, E8, F8, G8, H8, I8,
    A9, B9, C9, D9, E9, F9, G9, H9, I9,
}

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 90;

    /// All squares in index order.
    pub const ALL: [Square; 90] = {
        let mut all = [Square::A0; 90];
        let mut i = 0;
        while i < 90 {
            all[i] = Square::from_index_unchecked(i as u8);
            i += 1;
        }
        all
    };

    /// The square with index `i` (`rank * 9 + file`), or `None` if `i >= 90`.
    ///
    /// ```
    /// use chuhan_engine::core::Square;
    /// assert_eq!(Square::from_index(0), Some(Square::A0));
    /// assert_eq!(Square::from_index(89), Some(Square::I9));
    /// assert_eq!(Square::from_index(90), None);
    /// ```
    pub const fn from_index(i: u8) -> Option<Square> {
        if i < 90 {
            Some(Self::from_index_unchecked(i))
        } else {
            None
        }
    }

    const fn from_index_unchecked(i: u8) -> Square {
        debug_assert!(i < 90);
        // SAFETY: `Square` is `repr(u8)` with the contiguous discriminants 0..=89 and
        // every caller passes an index below 90.
        unsafe { std::mem::transmute::<u8, Square>(i) }
    }

    /// The square on `file` and `rank`.
    ///
    /// ```
    /// use chuhan_engine::core::{File, Rank, Square};
    /// let sq = Square::new(File::new(7).unwrap(), Rank::new(2).unwrap());
    /// assert_eq!(sq, Square::H2);
    /// ```
    pub const fn new(file: File, rank: Rank) -> Square {
        Self::from_index_unchecked(rank.0 * 9 + file.0)
    }

    /// The square at file index `f` and rank index `r`, if both are on the board.
    pub const fn from_coords(f: i32, r: i32) -> Option<Square> {
        if f >= 0 && f < 9 && r >= 0 && r < 10 {
            Some(Self::from_index_unchecked((r * 9 + f) as u8))
        } else {
            None
        }
    }

    /// Index 0..89.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file of the square.
    #[inline(always)]
    pub const fn file(self) -> File {
        File(self as u8 % 9)
    }

    /// The rank of the square.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank(self as u8 / 9)
    }

    /// The square reached by moving `df` files and `dr` ranks, if it is on the board.
    ///
    /// ```
    /// use chuhan_engine::core::Square;
    /// assert_eq!(Square::E0.offset(0, 1), Some(Square::E1));
    /// assert_eq!(Square::A0.offset(-1, 0), None);
    /// ```
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Self::from_coords(self.file().0 as i32 + df, self.rank().0 as i32 + dr)
    }

    /// Left-right mirror (`a0` <-> `i0`).
    pub const fn mirror(self) -> Square {
        Square::new(self.file().mirror(), self.rank())
    }

    /// Top-bottom flip (`a0` <-> `a9`), used to swap colours.
    pub const fn flip(self) -> Square {
        Square::new(self.file(), self.rank().flip())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

/// Error from parsing a square name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid square {} (expected a0..i9)",
            crate::echo::echo(&self.0)
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `a0`..`i9` (either case).
    ///
    /// ```
    /// use chuhan_engine::core::Square;
    /// assert_eq!("h2".parse::<Square>().unwrap(), Square::H2);
    /// assert!("j2".parse::<Square>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        let (Some(fc), Some(rc), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(ParseSquareError(s.to_string()));
        };
        match (File::from_char(fc), Rank::from_char(rc)) {
            (Some(f), Some(r)) => Ok(Square::new(f, r)),
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_layout() {
        for (i, sq) in Square::ALL.iter().enumerate() {
            assert_eq!(sq.index(), i);
            assert_eq!(sq.rank().index() * 9 + sq.file().index(), i);
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), *sq);
            assert_eq!(sq.mirror().mirror(), *sq);
            assert_eq!(sq.flip().flip(), *sq);
        }
        assert_eq!(Square::E0.mirror(), Square::E0);
        assert_eq!(Square::A3.mirror(), Square::I3);
        assert_eq!(Square::E0.flip(), Square::E9);
    }
}
