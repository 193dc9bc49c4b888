//! [`EngineError`]: why the engine refused (part of) a request.

use crate::book::LoadFailure;
use crate::core::Move;
use crate::eval::nnue::NetError;
use crate::search::searcher::SearchError;
use std::fmt;

/// Why the engine refused a request.
#[derive(Debug)]
pub enum EngineError {
    /// The searcher refused: busy, a value out of range, no memory for the hash.
    Search(SearchError),
    /// A move is not legal in the current position.
    IllegalMove(Move),
    /// Books of a [`super::EngineOption::BookFiles`] list that could not be
    /// loaded; the others are in use.
    Books(Vec<LoadFailure>),
    /// A net file could not be loaded; the net loaded before (if any) stays.
    Net {
        /// The file as named.
        file: String,
        /// Why it was refused.
        error: NetError,
    },
    /// The net is switched on but none is loaded: the hand-written evaluation
    /// plays until [`super::EngineOption::EvalFile`] loads one.
    NoNet,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Search(e) => e.fmt(f),
            EngineError::IllegalMove(m) => write!(f, "illegal move {m}"),
            EngineError::Net { file, error } => {
                write!(f, "cannot load net '{file}': {error}; keeping the current evaluation")
            }
            EngineError::NoNet => f.write_str(
                "UseNNUE is on but no net is loaded (set EvalFile): the hand-written evaluation plays",
            ),
            EngineError::Books(failures) => {
                for (i, failure) in failures.iter().enumerate() {
                    if i > 0 {
                        f.write_str("\n")?;
                    }
                    write!(f, "{failure}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for EngineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EngineError::Search(e) => Some(e),
            EngineError::Books(failures) => failures
                .first()
                .map(|f| &f.error as &(dyn std::error::Error + 'static)),
            EngineError::Net { error, .. } => Some(error),
            EngineError::IllegalMove(_) | EngineError::NoNet => None,
        }
    }
}

impl From<SearchError> for EngineError {
    fn from(e: SearchError) -> EngineError {
        EngineError::Search(e)
    }
}
