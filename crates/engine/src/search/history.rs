//! Move-ordering statistics learned during search, one set per thread: the
//! butterfly history (`[side][from][to]`), capture history (`[piece][to][victim]`),
//! continuation history (`[previous piece][previous to][piece][to]`) and counter
//! moves; and correction history, which learns how far the static evaluation
//! missed the search's value for each pawn structure, each defensive structure
//! (kings, advisors, elephants) and each side's attacking pieces (rooks, horses,
//! cannons). Values saturate by "gravity": an update moves a value toward ±max by
//! a share that shrinks as it approaches the bound.

use crate::core::{Color, Move, Piece, PieceKind, Position, Square};
use crate::search::params::{
    CORRECTION_MAX, CORRECTION_UPDATE_DIVISOR, HISTORY_MAX, correction_divisor, history_bonus_max,
    history_bonus_scale,
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

/// Correction tables per side: pawns, defenders, Red's attackers, Black's attackers.
const CORRECTION_TABLES: usize = 4;

/// The correction-table slots of a position: its pawn structure, its defensive
/// structure (kings, advisors and elephants) and each side's attacking pieces
/// (rooks, horses and cannons), each hashed to a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrectionKeys([usize; CORRECTION_TABLES]);

impl CorrectionKeys {
    /// The slots of `pos`.
    pub fn of(pos: &Position) -> CorrectionKeys {
        let slot = |colors: &[Color], kinds: &[PieceKind]| {
            let mut h = 0u128;
            for &color in colors {
                for &kind in kinds {
                    let bb = pos.pieces(color, kind).0;
                    h ^= bb
                        .wrapping_mul(MIX[color.index()])
                        .rotate_left(kind.index() as u32 * 17);
                }
            }
            let h = h.wrapping_mul(MIX[2]);
            (h >> (128 - CORRECTION_SIZE.trailing_zeros())) as usize
        };
        let both = [Color::Red, Color::Black];
        let attackers = [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon];
        CorrectionKeys([
            slot(&both, &[PieceKind::Pawn]),
            slot(
                &both,
                &[PieceKind::King, PieceKind::Advisor, PieceKind::Elephant],
            ),
            slot(&[Color::Red], &attackers),
            slot(&[Color::Black], &attackers),
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
    (history_bonus_scale() * depth * depth).min(history_bonus_max())
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
            correction: vec![0; 2 * CORRECTION_TABLES * CORRECTION_SIZE],
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
        (side.index() * CORRECTION_TABLES + table) * CORRECTION_SIZE + slot
    }

    /// What to add to `side`'s static evaluation of a position with `keys`.
    #[inline]
    pub fn correction(&self, side: Color, keys: CorrectionKeys) -> i32 {
        let sum: i32 = (0..CORRECTION_TABLES)
            .map(|t| self.correction[Self::correction_index(side, t, keys.0[t])] as i32)
            .sum();
        sum / correction_divisor()
    }

    /// Moves the corrections of `keys` toward a search value that missed the static
    /// evaluation by `diff` at `depth`.
    #[inline]
    pub fn update_correction(&mut self, side: Color, keys: CorrectionKeys, diff: i32, depth: i32) {
        let b = (diff * depth / CORRECTION_UPDATE_DIVISOR)
            .clamp(-CORRECTION_MAX / 4, CORRECTION_MAX / 4);
        for t in 0..CORRECTION_TABLES {
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
    fn correction_keys_follow_their_structures() {
        let start = Position::startpos();
        let k = CorrectionKeys::of(&start);
        // The tables whose slots differ between two positions.
        let differing = |a: CorrectionKeys, b: CorrectionKeys| {
            (0..CORRECTION_TABLES)
                .filter(|&t| a.0[t] != b.0[t])
                .collect::<Vec<_>>()
        };
        // Which slots a move from the start position changes.
        let changed = |mv: &str| {
            let mut pos = start.clone();
            pos.make_move(mv.parse().unwrap());
            differing(CorrectionKeys::of(&pos), k)
        };
        assert_eq!(changed("c3c4"), [0], "a pawn");
        assert_eq!(changed("c0e2"), [1], "an elephant");
        assert_eq!(changed("e0e1"), [1], "the king");
        assert_eq!(changed("h2e2"), [2], "a Red cannon");
        assert_eq!(changed("b0c2"), [2], "a Red horse");
        let mut pos = start.clone();
        pos.make_move("h2e2".parse().unwrap());
        let before = CorrectionKeys::of(&pos);
        pos.make_move("h9g7".parse().unwrap());
        assert_eq!(
            differing(CorrectionKeys::of(&pos), before),
            [3],
            "a Black horse"
        );
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
        let max = CORRECTION_TABLES as i32 * CORRECTION_MAX / correction_divisor();
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
