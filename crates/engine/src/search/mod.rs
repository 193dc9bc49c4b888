//! The search: a [`Searcher`] owning lazy-SMP threads that run iterative
//! deepening, aspiration windows and a principal variation search with quiescence,
//! check extension, null move, late move reductions, futility and SEE pruning,
//! ordered by the TT move, killers, counter moves and history tables, with the
//! static evaluation adjusted by correction history, sharing a lock-free
//! transposition table. A time manager decides when to stop.
//!
//! The search reads `core`, `eval` and `rules`, and nothing above: it takes typed
//! [`Settings`] and [`Limits`], and answers with typed [`Event`]s. Option names,
//! books and text belong to the engine facade ([`crate::engine`]) and the protocol
//! above it.
//!
//! Layout: [`searcher`] (the threads and their tables), [`worker`] (alpha-beta),
//! [`picker`] (staged move ordering), [`history`], [`see`], [`tt`], [`repetition`]
//! (history-dependent verdicts: the seam for the 棋例 rules), [`time`], [`limits`],
//! [`measure`] (branching factor, time to depth, mate suite), [`memory`] (what
//! the machine can give the TT),
//! [`settings`], [`event`], [`score`], [`bench`](mod@bench), and [`params`] with every
//! tunable.

pub mod bench;
pub mod event;
pub mod history;
pub mod limits;
pub mod measure;
pub mod memory;
pub mod params;
pub mod picker;
pub mod repetition;
pub mod score;
pub mod searcher;
pub mod see;
pub mod settings;
pub mod skill;
pub mod time;
pub mod tt;
pub mod tunables;
pub mod wdl;
pub mod worker;

pub use event::{BestMove, Event, Info, Offer};
pub use limits::{Clock, Limits};
pub use score::{Score, Value};
pub use searcher::{SearchError, Searcher};
pub use settings::{Pruning, Settings};
