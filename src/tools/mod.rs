//! Programs built on the library: the command-line tools behind `chuhan <subcommand>`.
//! These print; nothing below `protocol` and `tools` does.

pub mod judge_cmd;
pub mod perft_cmd;
