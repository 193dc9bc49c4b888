//! The search: an [`Engine`] facade over lazy-SMP threads running iterative
//! deepening, aspiration windows and a principal variation search with quiescence,
//! check extension, null move, late move reductions, futility and SEE pruning,
//! ordered by the TT move, killers, counter moves and history tables, with the
//! static evaluation adjusted by correction history, sharing a lock-free
//! transposition table. A time manager decides when to stop.
//!
//! Layout: [`engine`] (facade, threads), [`worker`] (alpha-beta), [`picker`] (staged
//! move ordering), [`history`], [`see`], [`tt`], [`repetition`] (history-dependent
//! verdicts: the seam for the 棋例 rules), [`time`], [`limits`], [`event`],
//! [`score`], [`bench`], and [`params`] with every tunable.

pub mod bench;
pub mod engine;
pub mod event;
pub mod history;
pub mod limits;
pub mod params;
pub mod picker;
pub mod repetition;
pub mod score;
pub mod see;
pub mod settings;
pub mod time;
pub mod tt;
pub mod worker;

pub use engine::{Engine, EngineError, EngineOption, OpeningBook};
pub use event::{BestMove, Event, Info, Offer};
pub use limits::{Clock, Limits};
pub use score::{Score, Value};
pub use settings::{Pruning, Settings};
