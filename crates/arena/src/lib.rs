//! # Chuhan's arena
//!
//! Everything that drives engines, built on [`chuhan_engine`]: the match runner
//! ([`r#match`]), tournaments under the CXA 2011 competition rules ([`tournament`]),
//! opening suites ([`suite`]), evaluation tuning ([`tune`]), book generation by
//! search ([`book_generator`]), self-play training data ([`datagen`]), the
//! neural evaluation's trainer ([`train`]) and generated repetition games for
//! testing the 棋例 against other implementations ([`cycles`]) and SPSA tuning of
//! the search parameters by games ([`spsa`]). Nothing here
//! prints; the `chuhan` command does.
//!
//! Match and tournament share one vocabulary, [`game`]: engine configuration,
//! clocks and time controls, openings, the game a tournament asks for and the
//! outcome it gets back; game results and rule sets are the engine crate's. Neither
//! imports the other: `tournament → game` and `r#match → game`, the drawing of lots
//! ([`lots`]) serving both and the opening suites. The `chuhan tournament` command
//! joins them, handing the tournament the match runner's game player. Suites, tuning,
//! book generation and data generation use the engine library in process.
//!
//! Matches, data generation, book generation and tournament rounds can be split
//! into deterministic, idempotent work units ([`work_unit`], [`r#match::plan`],
//! [`datagen::plan`], [`book_generator::plan`], [`tournament::plan`],
//! [`spsa::plan`]) that
//! `crates/arena/ray/chuhan_ray.py` runs on a Ray cluster.

#![warn(missing_docs)]

pub mod book_generator;
pub mod cycles;
pub mod datagen;
pub mod game;
pub mod lots;
pub mod r#match;
pub mod spsa;
pub mod suite;
pub mod tournament;
pub mod train;
pub mod tune;
pub mod wdl_fit;
pub mod work_unit;
