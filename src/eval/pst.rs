//! Piece-square values, built once from the formulas below and the weights in
//! [`super::params`] (Red's point of view; Black's table is the vertical flip).

use super::params::*;
use super::tapered::S;
use crate::core::{Color, Piece, PieceKind, Square};
use std::sync::LazyLock;

/// The value of a red piece of `kind` on file `f`, rank `r` (Red's ranks).
fn red_value(kind: PieceKind, f: i32, r: i32) -> S {
    let mut v = S::ZERO;
    let palace_file = (3..=5).contains(&f);
    match kind {
        PieceKind::Pawn => {
            if r >= 5 {
                v += PAWN_CROSSED;
                v += PAWN_ADVANCE * (r.min(7) - 5);
                if palace_file {
                    v += PAWN_PALACE_FILE;
                }
                if r == 9 {
                    v += PAWN_BACK_RANK;
                }
            } else if f == 4 {
                v += PAWN_HOME_CENTER;
            }
        }
        PieceKind::Horse => {
            let dist = (f - 4).abs().max(((2 * r - 9).abs() - 1) / 2);
            v += HORSE_CENTER * dist;
            if f == 0 || f == 8 {
                v += HORSE_EDGE;
            }
            if r == 0 {
                v += HORSE_BACK_RANK;
            }
            if (6..=9).contains(&r) && (2..=6).contains(&f) {
                v += HORSE_NEAR_PALACE;
            }
        }
        PieceKind::Rook => {
            if r >= 5 {
                v += ROOK_ACROSS;
            }
            if r == 0 && (f == 0 || f == 8) {
                v += ROOK_UNDEVELOPED;
            }
        }
        PieceKind::Cannon => {
            if f == 4 {
                v += CANNON_CENTER_FILE;
            }
            if r >= 5 {
                v += CANNON_ACROSS;
            }
        }
        PieceKind::King => {
            v += KING_OFF_HOME * ((f - 4).abs() + r);
        }
        PieceKind::Advisor => {
            if f == 4 && r == 1 {
                v += ADVISOR_CENTER;
            }
        }
        PieceKind::Elephant => {
            if f == 4 && r == 2 {
                v += ELEPHANT_CENTER;
            }
        }
    }
    v
}

static TABLE: LazyLock<[[S; 90]; 14]> = LazyLock::new(|| {
    let mut t = [[S::ZERO; 90]; 14];
    for kind in PieceKind::ALL {
        for sq in Square::ALL {
            let (f, r) = (sq.file().index() as i32, sq.rank().index() as i32);
            let v = red_value(kind, f, r);
            t[Piece::new(Color::Red, kind).index()][sq.index()] = v;
            t[Piece::new(Color::Black, kind).index()][sq.flip().index()] = v;
        }
    }
    t
});

/// Piece-square value of `p` on `sq`, from `p`'s own point of view.
///
/// ```
/// use chuhan::core::{Color, Piece, PieceKind, Square};
/// use chuhan::eval::pst;
/// let red = Piece::new(Color::Red, PieceKind::Pawn);
/// let black = Piece::new(Color::Black, PieceKind::Pawn);
/// assert_eq!(pst::value(red, Square::E6), pst::value(black, Square::E3));
/// assert!(pst::value(red, Square::E6).mg > pst::value(red, Square::E3).mg);
/// ```
#[inline(always)]
pub fn value(p: Piece, sq: Square) -> S {
    TABLE[p.index()][sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric() {
        for kind in PieceKind::ALL {
            for sq in Square::ALL {
                let red = Piece::new(Color::Red, kind);
                assert_eq!(value(red, sq), value(red, sq.mirror()), "{kind:?} {sq:?}");
                assert_eq!(
                    value(red, sq),
                    value(Piece::new(Color::Black, kind), sq.flip())
                );
            }
        }
    }
}
