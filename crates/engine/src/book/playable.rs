//! Which book moves may be played now: not banned (UCCI `banmoves`) and not
//! repeating an earlier position of the game.

use super::entry::BookMove;
use crate::core::zobrist::{SIDE_KEY, piece_key};
use crate::core::{Move, Position};

/// The Zobrist key of the position after the legal move `m`, without making it.
///
/// ```
/// use chuhan_engine::book::key_after;
/// use chuhan_engine::core::Position;
/// let mut pos = Position::startpos();
/// let m = "h2h9".parse().unwrap();
/// let key = key_after(&pos, m);
/// pos.make_move(m);
/// assert_eq!(pos.key(), key);
/// ```
pub fn key_after(pos: &Position, m: Move) -> u64 {
    let mut key = pos.key() ^ SIDE_KEY;
    if let Some(p) = pos.piece_at(m.from()) {
        key ^= piece_key(p, m.from()) ^ piece_key(p, m.to());
    }
    if let Some(c) = pos.piece_at(m.to()) {
        key ^= piece_key(c, m.to());
    }
    key
}

/// True if playing `m` in `pos` would recreate a position of `pos`'s history (the
/// moves made on `pos` since it was set up).
pub fn repeats(pos: &Position, m: Move) -> bool {
    let key = key_after(pos, m);
    pos.history().iter().any(|s| s.key == key)
}

/// Drops from `moves` the banned ones and those that would repeat a position of
/// `pos`'s history, so that what is left may be played.
///
/// ```
/// use chuhan_engine::book::{BookMove, retain_playable};
/// use chuhan_engine::core::{Move, Position};
/// let mut pos = Position::startpos();
/// for m in ["h0g2", "h9g7", "g2h0"] {
///     pos.make_move(m.parse().unwrap());
/// }
/// let bm = |m: &str| BookMove { mv: m.parse().unwrap(), weight: 1, wdl: None };
/// let mut moves = vec![bm("g7h9"), bm("b9c7"), bm("b7e7")];
/// let banned: [Move; 1] = ["b9c7".parse().unwrap()];
/// retain_playable(&pos, &mut moves, &banned);
/// assert_eq!(moves, vec![bm("b7e7")]); // g7h9 returns to the start position
/// ```
pub fn retain_playable(pos: &Position, moves: &mut Vec<BookMove>, banned: &[Move]) {
    moves.retain(|b| !banned.contains(&b.mv) && !repeats(pos, b.mv));
}
