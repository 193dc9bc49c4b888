//! Programs built on the library: the command-line tools behind `chuhan <subcommand>`.
//! These print; nothing below `protocol` and `tools` does.

pub mod bench_cmd;
pub mod book_cmd;
pub mod book_generator;
pub mod convert_cmd;
pub mod judge_cmd;
pub mod r#match;
pub mod match_cmd;
pub mod perft_cmd;
pub mod show_cmd;
pub mod suite;
pub mod suite_cmd;
pub mod tournament;
pub mod tournament_cmd;
pub mod tune;
pub mod tune_cmd;
