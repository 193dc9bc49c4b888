//! Move-ordering statistics learned during search, one set per thread: the
//! butterfly history (`[side][from][to]`), capture history (`[piece][to][victim]`),
//! continuation history (`[previous piece][previous to][piece][to]`) and counter
//! moves; and correction history, which learns how far the static evaluation
//! missed the search's value for each pawn structure and each defensive structure
//! (kings, advisors, elephants). Values saturate by "gravity": an update moves a
//! value toward ±max by a share that shrinks as it approaches the bound.

use crate::core::{Color, Move, Piece, PieceKind, Position, Square};
use crate::search::params::{
    CORRECTION_DIVISOR, CORRECTION_MAX, CORRECTION_UPDATE_DIVISOR, HISTORY_BONUS_MAX,
    HISTORY_BONUS_SCALE, HISTORY_MAX,
};

/// Identifies a played move for continuation history: the moving piece and its
/// destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo {
    /// The piece that moved.
    pub piece: Piece,
    /// Where it went.
    pub to: Square,
}

impl PieceTo {
    #[inline(always)]
    fn index(self) -> usize {
        self.piece.index() * 90 + self.to.index()
    }
}

const PT: usize = 14 * 90;

/// Entries per side in each correction table.
const CORRECTION_SIZE: usize = 1 << 14;

/// The correction-table slots of a position: its pawn structure and its defensive
/// structure (kings, advisors and elephants), each hashed to a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrectionKeys([usize; 2]);

impl CorrectionKeys {
    /// The slots of `pos`.
    pub fn of(pos: &Position) -> CorrectionKeys {
        let slot = |kinds: &[PieceKind]| {
            let mut h = 0u128;
            for (i, color) in [Color::Red, Color::Black].into_iter().enumerate() {
                for &kind in kinds {
                    let bb = pos.pieces(color, kind).0;
                    h ^= bb
                        .wrapping_mul(MIX[i])
                        .rotate_left(kind.index() as u32 * 17);
                }
            }
            let h = h.wrapping_mul(MIX[2]);
            (h >> (128 - CORRECTION_SIZE.trailing_zeros())) as usize
        };
        CorrectionKeys([
            slot(&[PieceKind::Pawn]),
            slot(&[PieceKind::King, PieceKind::Advisor, PieceKind::Elephant]),
        ])
    }
}

/// Odd multipliers for hashing bitboards into correction slots.
const MIX: [u128; 3] = [
    0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835,
    0xc2b2_ae3d_27d4_eb4f_1656_67b1_9e37_79f9,
    0xd6e8_feb8_6659_fd93_a076_1d64_78bd_642f,
];

/// The history tables of one search thread.
pub struct History {
    main: Vec<i16>,
    capture: Vec<i16>,
    cont: Vec<i16>,
    counter: Vec<Move>,
    correction: Vec<i16>,
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

/// The history bonus (or malus) for a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_SCALE * depth * depth).min(HISTORY_BONUS_MAX)
}

/// Moves `e` by `bonus` (at most `max` either way), less as `e` nears ±`max`.
#[inline(always)]
fn gravity(e: &mut i16, bonus: i32, max: i32) {
    let b = bonus.clamp(-max, max);
    let v = *e as i32;
    *e = (v + b - v * b.abs() / max) as i16;
}

impl History {
    /// Empty tables.
    pub fn new() -> History {
        History {
            main: vec![0; 2 * 90 * 90],
            capture: vec![0; PT * 7],
            cont: vec![0; PT * PT],
            counter: vec![Move::NONE; PT],
            correction: vec![0; 2 * 2 * CORRECTION_SIZE],
        }
    }

    /// Resets every table to zero.
    pub fn clear(&mut self) {
        self.main.fill(0);
        self.capture.fill(0);
        self.cont.fill(0);
        self.counter.fill(Move::NONE);
        self.correction.fill(0);
    }

    #[inline(always)]
    fn correction_index(side: Color, table: usize, slot: usize) -> usize {
        (side.index() * 2 + table) * CORRECTION_SIZE + slot
    }

    /// What to add to `side`'s static evaluation of a position with `keys`.
    #[inline]
    pub fn correction(&self, side: Color, keys: CorrectionKeys) -> i32 {
        let sum: i32 = (0..2)
            .map(|t| self.correction[Self::correction_index(side, t, keys.0[t])] as i32)
            .sum();
        sum / CORRECTION_DIVISOR
    }

    /// Moves the corrections of `keys` toward a search value that missed the static
    /// evaluation by `diff` at `depth`.
    #[inline]
    pub fn update_correction(&mut self, side: Color, keys: CorrectionKeys, diff: i32, depth: i32) {
        let b = (diff * depth / CORRECTION_UPDATE_DIVISOR)
            .clamp(-CORRECTION_MAX / 4, CORRECTION_MAX / 4);
        for t in 0..2 {
            gravity(
                &mut self.correction[Self::correction_index(side, t, keys.0[t])],
                b,
                CORRECTION_MAX,
            );
        }
    }

    /// Butterfly history of `m` for `side`.
    #[inline(always)]
    pub fn main(&self, side: Color, m: Move) -> i32 {
        self.main[side.index() * 8100 + m.from().index() * 90 + m.to().index()] as i32
    }

    /// Updates the butterfly history.
    #[inline]
    pub fn update_main(&mut self, side: Color, m: Move, bonus: i32) {
        gravity(
            &mut self.main[side.index() * 8100 + m.from().index() * 90 + m.to().index()],
            bonus,
            HISTORY_MAX,
        );
    }

    /// Capture history of `piece` taking a `victim` on `to`.
    #[inline(always)]
    pub fn capture(&self, piece: Piece, to: Square, victim: PieceKind) -> i32 {
        self.capture[(piece.index() * 90 + to.index()) * 7 + victim.index()] as i32
    }

    /// Updates the capture history.
    #[inline]
    pub fn update_capture(&mut self, piece: Piece, to: Square, victim: PieceKind, bonus: i32) {
        gravity(
            &mut self.capture[(piece.index() * 90 + to.index()) * 7 + victim.index()],
            bonus,
            HISTORY_MAX,
        );
    }

    /// Continuation history: how good `now` was after `prev`.
    #[inline(always)]
    pub fn cont(&self, prev: PieceTo, now: PieceTo) -> i32 {
        self.cont[prev.index() * PT + now.index()] as i32
    }

    /// Updates the continuation history.
    #[inline]
    pub fn update_cont(&mut self, prev: PieceTo, now: PieceTo, bonus: i32) {
        gravity(
            &mut self.cont[prev.index() * PT + now.index()],
            bonus,
            HISTORY_MAX,
        );
    }

    /// The move that last refuted `prev`.
    #[inline(always)]
    pub fn counter(&self, prev: PieceTo) -> Move {
        self.counter[prev.index()]
    }

    /// Records the refutation of `prev`.
    #[inline]
    pub fn set_counter(&mut self, prev: PieceTo, m: Move) {
        self.counter[prev.index()] = m;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_saturates() {
        let mut h = History::new();
        let m: Move = "h2e2".parse().unwrap();
        for _ in 0..1000 {
            h.update_main(Color::Red, m, bonus(20));
        }
        let v = h.main(Color::Red, m);
        assert!(v > HISTORY_MAX * 9 / 10 && v <= HISTORY_MAX, "{v}");
        assert_eq!(h.main(Color::Black, m), 0);
        for _ in 0..1000 {
            h.update_main(Color::Red, m, -bonus(20));
        }
        assert!(h.main(Color::Red, m) < -HISTORY_MAX * 9 / 10);
    }

    fn keys(fen: &str) -> CorrectionKeys {
        CorrectionKeys::of(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn correction_keys_follow_pawns_and_defenders_only() {
        let start = Position::startpos();
        let k = CorrectionKeys::of(&start);
        // A cannon move keeps both structures.
        let mut pos = start.clone();
        pos.make_move("h2e2".parse().unwrap());
        assert_eq!(CorrectionKeys::of(&pos), k);
        // A pawn move changes the pawn slot only.
        let mut pos = start.clone();
        pos.make_move("c3c4".parse().unwrap());
        let p = CorrectionKeys::of(&pos);
        assert_ne!(p.0[0], k.0[0]);
        assert_eq!(p.0[1], k.0[1]);
        // An elephant move changes the defender slot only.
        let mut pos = start.clone();
        pos.make_move("c0e2".parse().unwrap());
        let d = CorrectionKeys::of(&pos);
        assert_eq!(d.0[0], k.0[0]);
        assert_ne!(d.0[1], k.0[1]);
        // Colours matter: the same pawn on either side's file gives another slot.
        assert_ne!(
            keys("4k4/9/9/9/9/4p4/9/9/9/4K4 w").0[0],
            keys("4k4/9/9/9/9/4P4/9/9/9/4K4 w").0[0]
        );
    }

    #[test]
    fn correction_moves_toward_the_search_and_saturates() {
        let mut h = History::new();
        let k = CorrectionKeys::of(&Position::startpos());
        assert_eq!(h.correction(Color::Red, k), 0);
        h.update_correction(Color::Red, k, 200, 8);
        let once = h.correction(Color::Red, k);
        assert!(once > 0, "{once}");
        assert_eq!(h.correction(Color::Black, k), 0);
        for _ in 0..1000 {
            h.update_correction(Color::Red, k, 5_000, 20);
        }
        let max = 2 * CORRECTION_MAX / CORRECTION_DIVISOR;
        let v = h.correction(Color::Red, k);
        assert!(v > max * 9 / 10 && v <= max, "{v} of {max}");
        for _ in 0..1000 {
            h.update_correction(Color::Red, k, -5_000, 20);
        }
        assert!(h.correction(Color::Red, k) < -max * 9 / 10);
        h.clear();
        assert_eq!(h.correction(Color::Red, k), 0);
    }
}
