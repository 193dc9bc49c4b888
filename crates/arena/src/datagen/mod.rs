//! Self-play training data for the neural evaluation (`chuhan datagen`).
//!
//! Chuhan plays itself in-process (one search thread per game, several games at
//! once) from an opening suite plus random plies, at a fixed node count or depth;
//! every searched position that passes the [`filter`]s is stored with its search
//! score and the game's result in the compact [`record`] format, one file per work
//! unit ([`unit_file`]). A run is a [`plan::Plan`] of deterministic, idempotent
//! units: `unit-K.bin` is a pure function of the plan and the engine build, written
//! atomically, skipped when already there — the same unit a cluster driver runs
//! with `chuhan datagen --unit plan.json K --out DIR`.
//!
//! | concern | module |
//! |---|---|
//! | settings, units, seeds, plan JSON | [`plan`] |
//! | one game: opening, random plies, search, referee, adjudication | [`selfplay`] |
//! | which positions are kept | [`filter`] |
//! | a 40-byte position record | [`record`] |
//! | a unit's file: header, records, game table, atomic write | [`unit_file`] |
//! | worker threads, resume, unit assembly and de-duplication | [`runner`] |
//! | counts, results, score histogram | [`stats`] |
//!
//! The byte layouts are in `docs/datagen-format.md`.

pub mod filter;
pub mod plan;
pub mod record;
pub mod runner;
pub mod selfplay;
pub mod stats;
pub mod unit_file;
