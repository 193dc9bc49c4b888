//! # Chuhan (楚漢)
//!
//! A xiangqi (Chinese chess) engine: a magic-bitboard move generator on a 90-point
//! board, a multithreaded alpha-beta search, the repetition rules (棋例) of the
//! Chinese Xiangqi Association's 2011 competition rules and the Asian rules, opening
//! books, notations and game records. The `chuhan` binary speaks
//! UCCI and UCI on stdin/stdout.
//!
//! Module map: [`core`] holds the rules of movement and knows nothing of the rest;
//! [`eval`] scores positions; [`search`] finds moves with its threads; [`book`]
//! reads, probes and builds opening books; [`engine`] is the facade above both (the
//! game, the books, the searcher: see its data flow); [`protocol`] speaks UCCI and
//! UCI over the facade, and is the only module that prints. The tools that drive engines
//! (matches, tournaments, tuning) live in the `chuhan_arena` crate, the command line
//! in the `chuhan` package.
//! [`notation`] reads and writes moves (ICCS, WXF, Chinese), game records (PGN, XQF)
//! and draws boards (text, SVG).
//! [`rules`] holds the repetition rules (棋例) and the end of the game.
//! [`binary`] reads the little-endian fields of Chuhan's binary files.

#![warn(missing_docs)]

pub mod binary;
pub mod book;
pub mod core;
pub mod engine;
pub mod eval;
pub mod notation;
pub mod protocol;
pub mod rules;
pub mod search;
