//! Zobrist keys: one random 64-bit number per (piece, square) and one for the side
//! to move, generated at compile time from a fixed seed so that keys (and books
//! keyed by them) are stable across builds and machines.

use super::piece::Piece;
use super::square::Square;

/// SplitMix64 step, usable in `const` context.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Seed of the key stream: "Chuhan" in ASCII. Changing it changes every key and
/// invalidates `books/*.book`.
const SEED: u64 = 0x4368_7568_616E_0001;

static PIECE_SQUARE: [[u64; 90]; 14] = {
    let mut t = [[0u64; 90]; 14];
    let mut state = SEED;
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 90 {
            let (ns, v) = splitmix(state);
            state = ns;
            t[p][s] = v;
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
pub const SIDE_KEY: u64 = {
    let (_, v) = splitmix(SEED ^ 0xDEAD_BEEF_CAFE_F00D);
    v
};

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
