//! [`PackedPosition`]: placement and side to move in 46 bytes, the position record of
//! Chuhan's binary book and the builder's compact store.

use crate::core::{Color, Piece, Position, Setup, Square};

/// Placement and side to move in 46 bytes: 90 four-bit points in square-index order
/// (low nibble first; 0 = empty, `1 + Piece::index()` otherwise), then the side to
/// move (0 = Red, 1 = Black). Move counters are not part of a book position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PackedPosition([u8; PackedPosition::SIZE]);

impl PackedPosition {
    /// Size in bytes.
    pub const SIZE: usize = 46;

    /// Packs `pos`, or its left-right mirror image when `mirrored`.
    pub fn new(pos: &Position, mirrored: bool) -> PackedPosition {
        let mut b = [0u8; Self::SIZE];
        for sq in pos.occupied() {
            if let Some(p) = pos.piece_at(sq) {
                let at = if mirrored { sq.mirror() } else { sq };
                let i = at.index();
                b[i / 2] |= (p.index() as u8 + 1) << (4 * (i % 2));
            }
        }
        b[45] = match pos.side_to_move() {
            Color::Red => 0,
            Color::Black => 1,
        };
        PackedPosition(b)
    }

    /// Wraps raw bytes (validated by [`PackedPosition::to_position`]).
    pub fn from_bytes(bytes: [u8; Self::SIZE]) -> PackedPosition {
        PackedPosition(bytes)
    }

    /// The raw bytes.
    pub fn as_bytes(&self) -> &[u8; Self::SIZE] {
        &self.0
    }

    /// Unpacks into a validated position; `None` if a nibble or the side byte is out
    /// of range or the placement is not a legal position.
    pub fn to_position(self) -> Option<Position> {
        let side = match self.0[45] {
            0 => Color::Red,
            1 => Color::Black,
            _ => return None,
        };
        let mut board = [None; Square::COUNT];
        for (i, point) in board.iter_mut().enumerate() {
            let nibble = (self.0[i / 2] >> (4 * (i % 2))) & 0xF;
            *point = match nibble {
                0 => None,
                1..=14 => Some(Piece::from_index(nibble as usize - 1)),
                _ => return None,
            };
        }
        let setup = Setup {
            board,
            side,
            rule60: 0,
            fullmove: 1,
        };
        Position::from_setup(&setup).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_mirror() {
        let pos = Position::from_fen(
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
        )
        .unwrap();
        let back = PackedPosition::new(&pos, false).to_position().unwrap();
        assert_eq!(back.to_fen(), pos.to_fen().replace(" 2 2", " 0 1"));
        let mirrored = PackedPosition::new(&pos, true).to_position().unwrap();
        assert_eq!(mirrored.key(), pos.mirror().key());
    }

    #[test]
    fn rejects_bad_bytes() {
        let good = *PackedPosition::new(&Position::startpos(), false).as_bytes();
        let mut side = good;
        side[45] = 2;
        assert!(PackedPosition::from_bytes(side).to_position().is_none());
        let mut nibble = good;
        nibble[20] |= 0xF0;
        assert!(PackedPosition::from_bytes(nibble).to_position().is_none());
        assert!(PackedPosition::from_bytes([0; 46]).to_position().is_none());
    }
}
