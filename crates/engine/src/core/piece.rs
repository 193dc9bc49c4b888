//! [`Color`], [`PieceKind`] and [`Piece`].

use std::fmt;
use std::ops::Not;

/// A side: Red moves first and sits at the bottom (ranks 0..4); Black at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Color {
    /// 紅方, written `w` (or `r`) in FEN, upper-case pieces.
    Red = 0,
    /// 黑方, written `b` in FEN, lower-case pieces.
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// 0 for Red, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The name used in JSON and reports: `red` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }

    /// Rank direction of "forward" for this side: +1 for Red, -1 for Black.
    pub const fn forward(self) -> i32 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The seven kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum PieceKind {
    /// 車, FEN `R`.
    Rook = 0,
    /// 馬, FEN `N` (WXF `H`).
    Horse = 1,
    /// 相/象, FEN `B` (WXF `E`).
    Elephant = 2,
    /// 仕/士, FEN `A`.
    Advisor = 3,
    /// 帥/將, FEN `K`.
    King = 4,
    /// 炮/砲, FEN `C`.
    Cannon = 5,
    /// 兵/卒, FEN `P`.
    Pawn = 6,
}

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::Rook,
        PieceKind::Horse,
        PieceKind::Elephant,
        PieceKind::Advisor,
        PieceKind::King,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// Index 0..6.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Upper-case FEN letter (`R N B A K C P`).
    pub const fn fen_char(self) -> char {
        match self {
            PieceKind::Rook => 'R',
            PieceKind::Horse => 'N',
            PieceKind::Elephant => 'B',
            PieceKind::Advisor => 'A',
            PieceKind::King => 'K',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// Parses a FEN letter of either case; also accepts the WXF letters `H` and `E`.
    pub fn from_fen_char(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'R' => PieceKind::Rook,
            'N' | 'H' => PieceKind::Horse,
            'B' | 'E' => PieceKind::Elephant,
            'A' => PieceKind::Advisor,
            'K' => PieceKind::King,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        })
    }

    /// English name, lower case.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::Rook => "rook",
            PieceKind::Horse => "horse",
            PieceKind::Elephant => "elephant",
            PieceKind::Advisor => "advisor",
            PieceKind::King => "king",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        }
    }

    /// How many of this kind a side has at the start (and at most).
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }
}

/// A coloured piece. Its index is `color * 7 + kind` (0..13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    /// The side owning the piece.
    pub color: Color,
    /// What kind of piece it is.
    pub kind: PieceKind,
}

impl Piece {
    /// Builds a piece.
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// Index 0..13 (`color * 7 + kind`).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color as usize * 7 + self.kind as usize
    }

    /// The piece with index 0..13.
    pub const fn from_index(i: usize) -> Piece {
        let color = if i < 7 { Color::Red } else { Color::Black };
        Piece {
            color,
            kind: PieceKind::ALL[i % 7],
        }
    }

    /// FEN letter: upper case for Red, lower case for Black.
    ///
    /// ```
    /// use chuhan_engine::core::{Color, Piece, PieceKind};
    /// assert_eq!(Piece::new(Color::Black, PieceKind::Cannon).fen_char(), 'c');
    /// ```
    pub const fn fen_char(self) -> char {
        let c = self.kind.fen_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Parses a FEN letter (`RNBAKCP`/`rnbakcp`, also WXF `H`/`E`).
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = PieceKind::from_fen_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }

    /// The traditional Chinese character for the piece (帥 仕 相 傌 俥 炮 兵 / 將 士 象 馬 車 砲 卒
    /// with the plain red forms 馬 車 炮).
    pub const fn chinese(self) -> char {
        match (self.color, self.kind) {
            (Color::Red, PieceKind::King) => '帥',
            (Color::Red, PieceKind::Advisor) => '仕',
            (Color::Red, PieceKind::Elephant) => '相',
            (Color::Red, PieceKind::Horse) => '馬',
            (Color::Red, PieceKind::Rook) => '車',
            (Color::Red, PieceKind::Cannon) => '炮',
            (Color::Red, PieceKind::Pawn) => '兵',
            (Color::Black, PieceKind::King) => '將',
            (Color::Black, PieceKind::Advisor) => '士',
            (Color::Black, PieceKind::Elephant) => '象',
            (Color::Black, PieceKind::Horse) => '馬',
            (Color::Black, PieceKind::Rook) => '車',
            (Color::Black, PieceKind::Cannon) => '砲',
            (Color::Black, PieceKind::Pawn) => '卒',
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_round_trip() {
        for i in 0..14 {
            let p = Piece::from_index(i);
            assert_eq!(p.index(), i);
            assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
        }
        assert_eq!(
            Piece::from_fen_char('H'),
            Some(Piece::new(Color::Red, PieceKind::Horse))
        );
        assert_eq!(
            Piece::from_fen_char('e'),
            Some(Piece::new(Color::Black, PieceKind::Elephant))
        );
        assert_eq!(Piece::from_fen_char('x'), None);
    }
}
