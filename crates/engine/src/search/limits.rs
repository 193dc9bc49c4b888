//! What a `go` asks for: depth, nodes, time, mate, infinite or ponder search,
//! restricted root moves, and a draw offer from the opponent.

use crate::core::Move;

/// The engine's own clock for a time-controlled search, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub time_ms: u64,
    /// Increment per move (Fischer).
    pub increment_ms: u64,
    /// Moves until the next time control (`None`: sudden death or increment).
    pub moves_to_go: Option<u64>,
}

/// Limits of one search. The default is an unlimited (infinite) analysis until
/// `stop`, unless some limit is set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<i32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Exact time for this move, in milliseconds.
    pub movetime: Option<u64>,
    /// Clock-based time control.
    pub clock: Option<Clock>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Search until `stop`, whatever else is set.
    pub infinite: bool,
    /// Pondering: limits start to count only at `ponderhit`; never return before
    /// `ponderhit` or `stop`.
    pub ponder: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// The opponent offers a draw: answer it in the best move.
    pub draw_offered: bool,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(d: i32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// True if nothing but `stop` ends the search (no depth, nodes, time or mate
    /// limit, or `infinite`).
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.clock.is_none()
                && self.mate.is_none())
    }

    /// True if the clock (or a move time) decides when to stop.
    pub fn uses_time(&self) -> bool {
        !self.infinite && (self.movetime.is_some() || self.clock.is_some())
    }
}
