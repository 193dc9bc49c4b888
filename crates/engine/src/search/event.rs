//! What a running search reports: typed events that the protocol layer turns into
//! text in its own dialect.

use crate::core::Move;
use crate::search::score::Value;
use crate::search::tt::Bound;
use crossbeam_channel::Receiver;

/// One principal-variation report (a UCI/UCCI `info` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// 1-based line number with MultiPV.
    pub multipv: usize,
    /// The search value, from the side to move's view (the protocol writes it as
    /// a bare integer or as a [`crate::search::Score`]).
    pub value: Value,
    /// `Some` if the value is only a bound (aspiration fail high/low).
    pub bound: Option<Bound>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Permille of the hash table used by this search.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// What may follow the move of a `bestmove`: a draw (accepting the opponent's
/// offer, or offering one) or a resignation. The engine writes it; the arena's
/// engine client reads it from other engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Offer {
    /// `draw`: accept the opponent's draw offer (or offer one).
    Draw,
    /// `resign` (this engine: only when resigning is enabled).
    Resign,
}

/// The final answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move to play; `None` if there is no legal (unbanned) move.
    pub best: Option<Move>,
    /// The expected reply, to ponder on.
    pub ponder: Option<Move>,
    /// Draw acceptance or resignation.
    pub offer: Option<Offer>,
    /// Value of the best move (`None` without a move or from the book).
    pub value: Option<Value>,
    /// Depth of the last completed iteration (0 for a book move).
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
}

impl BestMove {
    /// The answer when there is no move to play (no legal or unbanned move).
    pub fn none() -> BestMove {
        BestMove {
            best: None,
            ponder: None,
            offer: None,
            value: None,
            depth: 0,
            nodes: 0,
        }
    }

    /// The answer `mv` found without searching (a book move): no value, depth 0,
    /// no nodes.
    pub fn unsearched(mv: Move) -> BestMove {
        BestMove {
            best: Some(mv),
            ..BestMove::none()
        }
    }
}

/// An event of a running search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A principal-variation report.
    Info(Info),
    /// The root move being searched (sent only in long searches).
    CurrMove {
        /// Iteration depth.
        depth: i32,
        /// The move.
        mv: Move,
        /// Its 1-based number in the root move list.
        number: usize,
    },
    /// The move comes from the opening book (sent by the engine facade,
    /// [`crate::engine::Engine`], instead of a search; the best move follows).
    Book {
        /// The book move.
        mv: Move,
        /// Its weight in the book.
        weight: u32,
    },
    /// The search is over; always the last event.
    BestMove(BestMove),
}

/// Reads the events of a search until its end and returns its final answer.
pub fn final_answer(events: &Receiver<Event>) -> BestMove {
    let mut last = None;
    for e in events.iter() {
        if let Event::BestMove(b) = e {
            last = Some(b);
        }
    }
    last.expect("a search always ends with a best move")
}
