//! [`BookMove`]: one move of a book position, with its weight and optional game
//! statistics ([`Wdl`]).

use crate::core::Move;
use std::cmp::Ordering;

/// Games won, drawn and lost by the side that played a book move (the side to move
/// in the book position).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wdl {
    /// Games the mover went on to win.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the mover went on to lose.
    pub losses: u32,
}

/// One move of a book position.
///
/// The weight says how much the book likes the move: with no randomness the
/// heaviest move is played, otherwise moves are drawn with probability growing with
/// their weight (see [`super::Randomness`]). A weight of 0 keeps the move in the
/// book (and in its statistics) but it is never chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its weight.
    pub weight: u32,
    /// Game statistics, when the book records them.
    pub wdl: Option<Wdl>,
}

impl BookMove {
    /// The same entry seen in a left-right mirror.
    ///
    /// ```
    /// use chuhan_engine::book::BookMove;
    /// let b = BookMove { mv: "h2e2".parse().unwrap(), weight: 7, wdl: None };
    /// assert_eq!(b.mirror().mv, "b2e2".parse().unwrap());
    /// ```
    pub fn mirror(self) -> BookMove {
        BookMove {
            mv: self.mv.mirror(),
            ..self
        }
    }

    /// The order in which books store and report moves: heaviest first, ties by the
    /// move's raw value, so every list has exactly one canonical order.
    pub fn canonical_order(a: &BookMove, b: &BookMove) -> Ordering {
        b.weight.cmp(&a.weight).then(a.mv.cmp(&b.mv))
    }
}
