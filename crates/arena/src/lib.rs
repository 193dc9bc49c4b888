//! # Chuhan's arena
//!
//! Everything that drives engines, built on [`chuhan_engine`]: the match runner
//! ([`r#match`]), tournaments under the CXA 2011 competition rules ([`tournament`]),
//! opening suites ([`suite`]), evaluation tuning ([`tune`]) and book generation by
//! search ([`book_generator`]). Nothing here prints; the `chuhan` command does.

#![warn(missing_docs)]

pub mod book_generator;
pub mod r#match;
pub mod suite;
pub mod tournament;
pub mod tune;
