//! Move-ordering statistics learned during search, one set per thread: the
//! butterfly history (`[side][from][to]`), capture history (`[piece][to][victim]`),
//! continuation history (`[previous piece][previous to][piece][to]`) and counter
//! moves. Values saturate by "gravity": an update moves a value toward ±max by a
//! share that shrinks as it approaches the bound.

use crate::core::{Color, Move, Piece, PieceKind, Square};
use crate::search::params::{HISTORY_BONUS_MAX, HISTORY_BONUS_SCALE, HISTORY_MAX};

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

/// The history tables of one search thread.
pub struct History {
    main: Vec<i16>,
    capture: Vec<i16>,
    cont: Vec<i16>,
    counter: Vec<Move>,
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

#[inline(always)]
fn gravity(e: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = *e as i32;
    *e = (v + b - v * b.abs() / HISTORY_MAX) as i16;
}

impl History {
    /// Empty tables.
    pub fn new() -> History {
        History {
            main: vec![0; 2 * 90 * 90],
            capture: vec![0; PT * 7],
            cont: vec![0; PT * PT],
            counter: vec![Move::NONE; PT],
        }
    }

    /// Resets every table to zero.
    pub fn clear(&mut self) {
        self.main.fill(0);
        self.capture.fill(0);
        self.cont.fill(0);
        self.counter.fill(Move::NONE);
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
        gravity(&mut self.cont[prev.index() * PT + now.index()], bonus);
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
}
