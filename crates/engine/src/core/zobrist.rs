//! Zobrist keys: one random 64-bit number per (piece, square) and one for the side
//! to move, generated at compile time from a fixed seed so that keys (and books
//! keyed by them) are stable across builds and machines.

use super::piece::Piece;
use super::splitmix::SplitMix64;
use super::square::Square;

/// Seed of the key stream: "Chuhan" in ASCII. Changing it changes every key and
/// invalidates `books/*.book`.
const SEED: u64 = 0x4368_7568_616E_0001;

static PIECE_SQUARE: [[u64; 90]; 14] = {
    let mut t = [[0u64; 90]; 14];
    let mut rng = SplitMix64::new(SEED);
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 90 {
            t[p][s] = rng.next_u64();
            s += 1;
        }
        p += 1;
    }
    t
};

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.index()][sq.index()]
}

/// XORed into the key when Black is to move.
pub const SIDE_KEY: u64 = SplitMix64::mix(SEED ^ 0xDEAD_BEEF_CAFE_F00D);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = PIECE_SQUARE.iter().flatten().copied().collect();
        all.push(SIDE_KEY);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
