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
//! [`notation`] reads and writes moves (ICCS, WXF, Chinese) and game records (PGN,
//! XQF, CCBridge, move lists); [`diagram`] draws boards (text, SVG) and rulings.
//! [`rules`] holds the repetition rules (棋例) and the end of the game.
//! [`echo`] is how every message repeats user text (cut, control characters
//! readable); [`data_file`] reads the files users name (regular files of bounded size
//! only).
//! [`binary`] reads the little-endian fields of Chuhan's binary files.
//!
//! # One vocabulary
//!
//! Each concept is defined once, in the lowest module that every user can depend on
//! (`core` < `rules` < `eval` < `search` < `engine` < `protocol`, with `notation`
//! on `core`, `diagram` (board pictures) on `core` and `rules`, and `book` on
//! `notation`, all under `engine`; no arrow runs upward),
//! and the arena uses the same types:
//!
//! | concept | type | module |
//! |---|---|---|
//! | how a game ended; one side's result | [`GameResult`](core::GameResult), [`PlayerResult`](core::PlayerResult) | [`core::result`] |
//! | the seeded random generator | [`SplitMix64`](core::SplitMix64) | [`core::splitmix`] |
//! | the pieces on the board, the position | [`Placement`](core::Placement), [`Position`](core::Position) | [`core::placement`], [`core::position`] |
//! | the rule set (CXA 2011, AXF) and its policy | [`RuleSet`](rules::RuleSet), [`Policy`](rules::policy::Policy) | [`rules::ruleset`], [`rules::policy`] |
//! | the game's state after a move; the arbiter's ruling | [`GameStatus`](rules::GameStatus), [`Judgement`](rules::Judgement) | [`rules::status`], [`rules::judge`](mod@rules::judge) |
//! | a line replayed from a FEN and move texts (any notation), or the ply that failed | [`Replay`](notation::Replay), [`ReplayError`](notation::ReplayError) | [`notation::replay`] |
//! | a search value; a score as an engine reports it (cp or mate) | [`Value`](search::score::Value), [`Score`](search::score::Score) | [`search::score`] |
//! | what may follow a `bestmove` (draw, resign) | [`Offer`](search::event::Offer) | [`search::event`] |
//! | the engine facade | [`Engine`](engine::Engine), [`EngineError`](engine::EngineError) | [`engine`] |
//! | the protocol dialect (UCCI, UCI) | [`Dialect`](protocol::dialect::Dialect) | [`protocol::dialect`] |
//! | a game record (also what the book builder learns from); a record file's kind, a game's place in it | [`notation::Game`]; [`RecordKind`](notation::record::RecordKind), [`Place`](notation::record::Place) | [`notation::game`]; [`notation::record`] |
//!
//! The arena's own vocabulary (engine configuration, clocks, openings, the game seam)
//! is `chuhan_arena::game`; its client of engine processes is
//! `chuhan_arena::r#match::client::EngineClient`.

#![warn(missing_docs)]

pub mod binary;
pub mod book;
pub mod build_info;
pub mod core;
pub mod data_file;
pub mod diagram;
pub mod echo;
pub mod engine;
pub mod eval;
pub mod notation;
pub mod protocol;
pub mod rules;
pub mod search;
