//! Piece-square values, built once from the formulas below and the weights in
//! [`super::params`], plus the per-point corrections
//! [`EvalParams::pst_delta`] (Red's point of view; Black's table is the vertical
//! flip).

use super::params::{DEFAULT, EvalParams, pst_index};
use super::tapered::S;
use crate::core::{Color, Piece, PieceKind, Square};
use std::sync::LazyLock;

/// The value of a red piece of `kind` on file `f`, rank `r` (Red's ranks).
fn red_value(p: &EvalParams, kind: PieceKind, f: i32, r: i32) -> S {
    let mut v = S::ZERO;
    let palace_file = (3..=5).contains(&f);
    match kind {
        PieceKind::Pawn => {
            if r >= 5 {
                v += p.pawn_crossed;
                v += p.pawn_advance * (r.min(7) - 5);
                if palace_file {
                    v += p.pawn_palace_file;
                }
                if r == 9 {
                    v += p.pawn_back_rank;
                }
            } else if f == 4 {
                v += p.pawn_home_center;
            }
        }
        PieceKind::Horse => {
            let dist = (f - 4).abs().max(((2 * r - 9).abs() - 1) / 2);
            v += p.horse_center * dist;
            if f == 0 || f == 8 {
                v += p.horse_edge;
            }
            if r == 0 {
                v += p.horse_back_rank;
            }
            if (6..=9).contains(&r) && (2..=6).contains(&f) {
                v += p.horse_near_palace;
            }
        }
        PieceKind::Rook => {
            if r >= 5 {
                v += p.rook_across;
            }
            if r == 0 && (f == 0 || f == 8) {
                v += p.rook_undeveloped;
            }
        }
        PieceKind::Cannon => {
            if f == 4 {
                v += p.cannon_center_file;
            }
            if r >= 5 {
                v += p.cannon_across;
            }
        }
        PieceKind::King => {
            v += p.king_off_home * ((f - 4).abs() + r);
        }
        PieceKind::Advisor => {
            if f == 4 && r == 1 {
                v += p.advisor_center;
            }
        }
        PieceKind::Elephant => {
            if f == 4 && r == 2 {
                v += p.elephant_center;
            }
        }
    }
    v
}

/// A full piece-square table built from a set of weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pst([[S; 90]; 14]);

impl Pst {
    /// Builds the table for the weights `p`.
    pub fn new(p: &EvalParams) -> Pst {
        let mut t = [[S::ZERO; 90]; 14];
        for kind in PieceKind::ALL {
            for sq in Square::ALL {
                let (f, r) = (sq.file().index() as i32, sq.rank().index() as i32);
                let v = red_value(p, kind, f, r) + p.pst_delta[kind.index()][pst_index(f, r)];
                t[Piece::new(Color::Red, kind).index()][sq.index()] = v;
                t[Piece::new(Color::Black, kind).index()][sq.flip().index()] = v;
            }
        }
        Pst(t)
    }

    /// Piece-square value of `p` on `sq`, from `p`'s own point of view.
    #[inline(always)]
    pub fn get(&self, p: Piece, sq: Square) -> S {
        self.0[p.index()][sq.index()]
    }
}

static TABLE: LazyLock<Pst> = LazyLock::new(|| Pst::new(&DEFAULT));

/// Piece-square value of `p` on `sq` with the engine's weights, from `p`'s own
/// point of view.
///
/// ```
/// use chuhan_engine::core::{Color, Piece, PieceKind, Square};
/// use chuhan_engine::eval::pst;
/// let red = Piece::new(Color::Red, PieceKind::Pawn);
/// let black = Piece::new(Color::Black, PieceKind::Pawn);
/// assert_eq!(pst::value(red, Square::E6), pst::value(black, Square::E3));
/// assert!(pst::value(red, Square::E6).mg > pst::value(red, Square::E3).mg);
/// ```
#[inline(always)]
pub fn value(p: Piece, sq: Square) -> S {
    TABLE.get(p, sq)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_correction_moves_one_point_and_its_mirror_images() {
        let mut p = DEFAULT.clone();
        // Horse on c2 (Red's view), index 2 * 5 + 2.
        p.pst_delta[PieceKind::Horse.index()][12] += S { mg: 50, eg: -30 };
        let (old, new) = (Pst::new(&DEFAULT), Pst::new(&p));
        let pieces = Color::ALL
            .into_iter()
            .flat_map(|c| PieceKind::ALL.map(|k| Piece::new(c, k)));
        for piece in pieces {
            for sq in Square::ALL {
                let d = new.get(piece, sq) - old.get(piece, sq);
                let red_view = if piece.color == Color::Red {
                    sq
                } else {
                    sq.flip()
                };
                let hit = piece.kind == PieceKind::Horse
                    && red_view.rank().index() == 2
                    && matches!(red_view.file().index(), 2 | 6);
                let want = if hit { S { mg: 50, eg: -30 } } else { S::ZERO };
                assert_eq!(d, want, "{piece:?} {sq:?}");
            }
        }
    }

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
