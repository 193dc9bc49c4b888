//! The network's inputs: which features are active in a position, seen from one
//! side (a *perspective*). The trainer and the engine both index features here, so
//! a net trained on data means the same thing in the search.
//!
//! For perspective `P` every piece becomes a feature
//!
//! ```text
//! index = bucket · 1260 + (relative colour · 7 + kind) · 90 + point
//! ```
//!
//! * **point**: the piece's point `rank · 9 + file` after two normalisations:
//!   for Black the ranks are flipped (`a0 ↔ a9`), so that `P`'s side is always at
//!   the bottom; then, if `P`'s king stands on files f–i (`f`, the only palace file
//!   right of the centre), the files are mirrored (`a ↔ i`), so that `P`'s king is
//!   always on file d or e. Both are symmetries of xiangqi, so the net learns each
//!   pattern once instead of two or four times.
//! * **relative colour**: 0 for `P`'s pieces, 1 for the opponent's.
//! * **kind**: rook, horse, elephant, advisor, king, cannon, pawn = 0 … 6.
//! * **bucket**: where `P`'s king stands after the normalisation, by
//!   [`KingBuckets`]: one bucket (none), three (its rank 0, 1, 2 in the palace) or
//!   six (each of the palace's points on files d and e). Buckets let the weights of
//!   every piece depend on the king's place, at the price of more weights to learn.
//!
//! A position has at most 32 active features per perspective. The output layer is
//! chosen by the number of pieces on the board ([`output_bucket`]).

use crate::core::{Color, Piece, PieceKind, Position, Square};
use std::fmt;

/// Features of one king bucket: 90 points × 7 kinds × 2 colours.
pub const PIECE_FEATURES: usize = 90 * 7 * 2;

/// Most active features per perspective (every piece on the board).
pub const MAX_ACTIVE: usize = 32;

/// How the king's place splits the features into buckets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KingBuckets {
    /// One bucket: plain piece-square features.
    One,
    /// Three buckets: the king's rank in the palace (0, 1, 2 from its own side).
    Ranks,
    /// Six buckets: each palace point on files d and e.
    Points,
}

impl KingBuckets {
    /// Every layout.
    pub const ALL: [KingBuckets; 3] = [KingBuckets::One, KingBuckets::Ranks, KingBuckets::Points];

    /// The number of buckets (also the layout's code in net files).
    pub const fn count(self) -> usize {
        match self {
            KingBuckets::One => 1,
            KingBuckets::Ranks => 3,
            KingBuckets::Points => 6,
        }
    }

    /// The layout with `n` buckets.
    pub fn from_count(n: usize) -> Option<KingBuckets> {
        KingBuckets::ALL.into_iter().find(|k| k.count() == n)
    }

    /// The input size per perspective.
    pub const fn inputs(self) -> usize {
        self.count() * PIECE_FEATURES
    }

    /// The bucket of a king on the normalised point `king` (files d or e, ranks
    /// 0–2; other points, which legal positions never produce, are clamped).
    pub fn bucket(self, king: Square) -> usize {
        let rank = king.rank().index().min(2);
        match self {
            KingBuckets::One => 0,
            KingBuckets::Ranks => rank,
            KingBuckets::Points => rank * 2 + usize::from(king.file().index() >= 4),
        }
    }
}

impl fmt::Display for KingBuckets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KingBuckets::One => "none",
            KingBuckets::Ranks => "ranks",
            KingBuckets::Points => "points",
        })
    }
}

impl std::str::FromStr for KingBuckets {
    type Err = String;

    /// `none`, `ranks` or `points` (or the counts 1, 3, 6).
    fn from_str(s: &str) -> Result<KingBuckets, String> {
        match s {
            "none" | "1" => Ok(KingBuckets::One),
            "ranks" | "3" => Ok(KingBuckets::Ranks),
            "points" | "6" => Ok(KingBuckets::Points),
            _ => Err(format!(
                "unknown king buckets `{s}` (expected none, ranks or points)"
            )),
        }
    }
}

/// The normalisation of points for one perspective: a rank flip for Black and a
/// file mirror when the king stands right of the centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    perspective: Color,
    mirror: bool,
    bucket: usize,
}

impl View {
    /// The view of `perspective`, whose king stands on `king` (board point).
    pub fn new(layout: KingBuckets, perspective: Color, king: Square) -> View {
        let oriented = match perspective {
            Color::Red => king,
            Color::Black => king.flip(),
        };
        let mirror = oriented.file().index() > 4;
        let normal = if mirror { oriented.mirror() } else { oriented };
        View {
            perspective,
            mirror,
            bucket: layout.bucket(normal),
        }
    }

    /// True when files are mirrored in this view.
    pub fn mirrored(&self) -> bool {
        self.mirror
    }

    /// The king bucket of this view.
    pub fn bucket(&self) -> usize {
        self.bucket
    }

    /// The feature index of `piece` on `sq`.
    #[inline]
    pub fn index(&self, sq: Square, piece: Piece) -> usize {
        let mut s = match self.perspective {
            Color::Red => sq,
            Color::Black => sq.flip(),
        };
        if self.mirror {
            s = s.mirror();
        }
        let colour = usize::from(piece.color != self.perspective);
        self.bucket * PIECE_FEATURES + (colour * 7 + piece.kind.index()) * 90 + s.index()
    }
}

/// The active features of one perspective, in the order the pieces are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActiveFeatures {
    indices: [u16; MAX_ACTIVE],
    len: usize,
}

impl ActiveFeatures {
    /// The indices.
    pub fn as_slice(&self) -> &[u16] {
        &self.indices[..self.len]
    }
}

/// The active features of `perspective` for the pieces `pieces` (at most
/// [`MAX_ACTIVE`]; further pieces are ignored), where that side's king stands on
/// `king`.
pub fn active_features(
    layout: KingBuckets,
    perspective: Color,
    king: Square,
    pieces: impl IntoIterator<Item = (Square, Piece)>,
) -> ActiveFeatures {
    let view = View::new(layout, perspective, king);
    let mut out = ActiveFeatures {
        indices: [0; MAX_ACTIVE],
        len: 0,
    };
    for (sq, p) in pieces.into_iter().take(MAX_ACTIVE) {
        out.indices[out.len] = view.index(sq, p) as u16;
        out.len += 1;
    }
    out
}

/// The pieces of a position with their points, in point order.
pub fn pieces(pos: &Position) -> impl Iterator<Item = (Square, Piece)> + '_ {
    let mut occ = pos.occupied();
    std::iter::from_fn(move || {
        if occ.is_empty() {
            None
        } else {
            let sq = occ.pop_lsb();
            Some((sq, pos.piece_at(sq).expect("occupied")))
        }
    })
}

/// The active features of `perspective` in `pos`.
///
/// ```
/// use chuhan_engine::core::{Color, Position};
/// use chuhan_engine::eval::nnue::features::{KingBuckets, position_features};
/// let pos = Position::startpos();
/// let red = position_features(&pos, KingBuckets::One, Color::Red);
/// let black = position_features(&pos, KingBuckets::One, Color::Black);
/// assert_eq!(red.as_slice().len(), 32);
/// // The start position looks the same from both sides.
/// let (mut r, mut b) = (red.as_slice().to_vec(), black.as_slice().to_vec());
/// r.sort();
/// b.sort();
/// assert_eq!(r, b);
/// ```
pub fn position_features(
    pos: &Position,
    layout: KingBuckets,
    perspective: Color,
) -> ActiveFeatures {
    active_features(
        layout,
        perspective,
        pos.king_square(perspective),
        pieces(pos),
    )
}

/// The output bucket of a position with `pieces` pieces (2 to 32) among
/// `buckets`: `(pieces − 2) · buckets / 31`, so the buckets split the piece counts
/// evenly from the bare kings to the full board.
///
/// ```
/// use chuhan_engine::eval::nnue::features::output_bucket;
/// assert_eq!(output_bucket(32, 1), 0);
/// assert_eq!(output_bucket(2, 4), 0);
/// assert_eq!(output_bucket(32, 4), 3);
/// assert_eq!(output_bucket(17, 4), 1);
/// ```
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let p = pieces.clamp(2, 32) as usize - 2;
    (p * buckets / 31).min(buckets.saturating_sub(1))
}

/// The kind of a feature (for reports).
pub fn feature_kind(index: usize) -> PieceKind {
    PieceKind::ALL[(index % PIECE_FEATURES) / 90 % 7]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(f: ActiveFeatures) -> Vec<u16> {
        let mut v = f.as_slice().to_vec();
        v.sort_unstable();
        v
    }

    #[test]
    fn colour_flip_swaps_perspectives() {
        for fen in [
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let flipped = pos.flip();
            for layout in KingBuckets::ALL {
                assert_eq!(
                    sorted(position_features(&pos, layout, Color::Red)),
                    sorted(position_features(&flipped, layout, Color::Black)),
                    "{fen}"
                );
                // The mirror image looks the same from each side (up to the
                // centre-king case, where no mirroring happens).
                let m = pos.mirror();
                for c in Color::ALL {
                    if pos.king_square(c).file().index() != 4 {
                        assert_eq!(
                            sorted(position_features(&pos, layout, c)),
                            sorted(position_features(&m, layout, c)),
                            "{fen}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn indices_stay_in_range_and_buckets_follow_the_king() {
        let pos = Position::from_fen("3k5/4a4/9/9/9/9/9/9/4A4/5K3 w - - 0 1").unwrap();
        for layout in KingBuckets::ALL {
            for c in Color::ALL {
                for &i in position_features(&pos, layout, c).as_slice() {
                    assert!((i as usize) < layout.inputs());
                }
            }
        }
        // Red's king on f0 is mirrored to d0: bucket 0 of six; Black's king on
        // d9 is d0 in Black's view.
        let red = View::new(KingBuckets::Points, Color::Red, Square::F0);
        assert!(red.mirrored());
        assert_eq!(red.bucket(), 0);
        let red_up = View::new(KingBuckets::Points, Color::Red, Square::E1);
        assert_eq!(red_up.bucket(), 3);
        let black = View::new(KingBuckets::Ranks, Color::Black, Square::D8);
        assert_eq!(black.bucket(), 1);
        assert!(!black.mirrored());
        assert_eq!(
            red.index(Square::F0, Piece::new(Color::Red, PieceKind::King)),
            (4 * 90) + Square::D0.index()
        );
        assert_eq!(
            feature_kind(red.index(Square::A5, Piece::new(Color::Black, PieceKind::Pawn))),
            PieceKind::Pawn
        );
    }
}
