//! Programs built on the library: the command-line tools behind `chuhan <subcommand>`.
//! These print; nothing below `protocol` and `tools` does.

pub mod perft_cmd;
pub mod tournament;
