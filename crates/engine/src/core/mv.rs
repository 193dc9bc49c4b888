//! [`Move`]: a 16-bit `from`/`to` pair, and its ICCS text form (`h2e2`, `H2-E2`).

use super::square::Square;
use std::fmt;
use std::str::FromStr;

/// A move from one square to another, packed as `from << 7 | to` in 16 bits.
///
/// Xiangqi has no promotions, castling or en passant, so two squares say everything.
/// [`Move::NONE`] (`a0a0`) and [`Move::NULL`] (`b0b0`, written `0000`) are never
/// legal moves.
///
/// ```
/// use chuhan_engine::core::{Move, Square};
/// let m: Move = "h2e2".parse().unwrap();
/// assert_eq!((m.from(), m.to()), (Square::H2, Square::E2));
/// assert_eq!("H2-E2".parse::<Move>().unwrap(), m);
/// assert_eq!(m.to_string(), "h2e2");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move(u16);

impl Move {
    /// No move (`a0a0`); the default value.
    pub const NONE: Move = Move(0);
    /// The null move (a pass), used by search and rule probes; printed `0000`.
    pub const NULL: Move = Move(1 << 7 | 1);

    /// A move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move((from as u16) << 7 | to as u16)
    }

    /// The origin square.
    #[inline(always)]
    pub fn from(self) -> Square {
        Square::ALL[(self.0 >> 7) as usize % 90]
    }

    /// The destination square.
    #[inline(always)]
    pub fn to(self) -> Square {
        Square::ALL[(self.0 & 0x7F) as usize % 90]
    }

    /// The raw 16-bit value.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from [`Move::raw`]; `None` if a square index is off the board.
    pub fn from_raw(raw: u16) -> Option<Move> {
        let (f, t) = (raw >> 7, raw & 0x7F);
        if f < 90 && t < 90 && raw >> 14 == 0 {
            Some(Move(raw))
        } else {
            None
        }
    }

    /// True for an ordinary move (not [`Move::NONE`] or [`Move::NULL`]).
    pub fn is_some(self) -> bool {
        self.from() != self.to()
    }

    /// The same move seen in a left-right mirror.
    pub fn mirror(self) -> Move {
        Move::new(self.from().mirror(), self.to().mirror())
    }

    /// The same move with the board flipped top to bottom (colour swap).
    pub fn flip(self) -> Move {
        Move::new(self.from().flip(), self.to().flip())
    }

    /// ICCS text in upper case with a dash, e.g. `H2-E2`.
    pub fn to_iccs_dash(self) -> String {
        let s = self.to_string().to_ascii_uppercase();
        format!("{}-{}", &s[..2], &s[2..])
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Move::NULL {
            f.write_str("0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Error from parsing move text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError(pub String);

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid move {} (expected coordinates like h2e2 or H2-E2)",
            crate::echo::echo(&self.0)
        )
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses `h2e2`, `H2E2`, `H2-E2` or `0000` (the null move). Only the syntax is
    /// checked; legality needs a position.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let err = || ParseMoveError(crate::echo::keep(s));
        if s == "0000" {
            return Ok(Move::NULL);
        }
        if !s.is_ascii() {
            return Err(err());
        }
        let compact: String = match s.len() {
            4 => s.to_string(),
            5 if &s[2..3] == "-" => format!("{}{}", &s[..2], &s[3..]),
            _ => return Err(err()),
        };
        let from: Square = compact[..2].parse().map_err(|_| err())?;
        let to: Square = compact[2..].parse().map_err(|_| err())?;
        if from == to {
            return Err(err());
        }
        Ok(Move::new(from, to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        for bad in [
            "",
            "h2",
            "h2e",
            "h2e22",
            "j2e2",
            "h2h2",
            "h2_e2",
            "炮二平五",
            "h2e2 ",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
        let m = Move::new(Square::B9, Square::C7);
        assert_eq!(m.to_iccs_dash(), "B9-C7");
        assert_eq!(Move::from_raw(m.raw()), Some(m));
        assert_eq!(Move::NULL.to_string(), "0000");
        assert_eq!(m.mirror(), "h9g7".parse().unwrap());
        assert!(!Move::NONE.is_some() && !Move::NULL.is_some() && m.is_some());
    }
}
