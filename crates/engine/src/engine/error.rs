//! [`EngineError`]: why the engine refused (part of) a request.

use crate::book::LoadFailure;
use crate::core::Move;
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
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Search(e) => e.fmt(f),
            EngineError::IllegalMove(m) => write!(f, "illegal move {m}"),
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
            EngineError::IllegalMove(_) => None,
        }
    }
}

impl From<SearchError> for EngineError {
    fn from(e: SearchError) -> EngineError {
        EngineError::Search(e)
    }
}
