//! Left-right mirror folding: a position and its mirror image are stored once, under
//! the smaller of their two Zobrist keys, with the moves mirrored to match.

use crate::core::zobrist::{SIDE_KEY, piece_key};
use crate::core::{Color, Position};

/// Chuhan's Zobrist key of the left-right mirror of `pos`, computed without building
/// the mirrored position.
///
/// ```
/// use chuhan_engine::book::mirror_key;
/// use chuhan_engine::core::Position;
/// let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b").unwrap();
/// assert_eq!(mirror_key(&pos), pos.mirror().key());
/// // The start position is its own mirror image.
/// let start = Position::startpos();
/// assert_eq!(mirror_key(&start), start.key());
/// ```
pub fn mirror_key(pos: &Position) -> u64 {
    let mut key = match pos.side_to_move() {
        Color::Red => 0,
        Color::Black => SIDE_KEY,
    };
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_at(sq) {
            key ^= piece_key(p, sq.mirror());
        }
    }
    key
}

/// Where a position is filed in a folded book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fold {
    /// The smaller of the position's key and its mirror's key.
    pub key: u64,
    /// True if `key` is the mirror's key: the position is stored mirrored and its
    /// moves must be mirrored on the way in and out.
    pub mirrored: bool,
    /// True if the position is its own mirror image (both keys equal).
    pub symmetric: bool,
}

/// How `pos` is filed in a folded book.
///
/// ```
/// use chuhan_engine::book::fold;
/// use chuhan_engine::core::Position;
/// let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b").unwrap();
/// let (a, b) = (fold(&pos), fold(&pos.mirror()));
/// assert_eq!(a.key, b.key);
/// assert_ne!(a.mirrored, b.mirrored);
/// ```
pub fn fold(pos: &Position) -> Fold {
    let key = pos.key();
    let mirror = mirror_key(pos);
    Fold {
        key: key.min(mirror),
        mirrored: mirror < key,
        symmetric: mirror == key,
    }
}
