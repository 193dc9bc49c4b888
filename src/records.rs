//! How the commands read a game-record file the user names (`show`, `convert`,
//! `judge`): a regular file of bounded size ([`chuhan_engine::data_file`]), every game
//! recognised by [`record::read_all_with`] (PGN, XQF, CCBridge, move lists), and
//! each game's warnings printed on standard error, naming the file and the game.

use chuhan_engine::core::Validation;
use chuhan_engine::data_file::{self, MAX_RECORD_BYTES};
use chuhan_engine::notation::Game;
use chuhan_engine::notation::record::{self, RecordError};
use std::path::Path;

/// How to read records: `--strict` refuses what the lenient reading keeps with a
/// warning (a move that cannot be played and the rest of its line, a cut record, a
/// composed start position).
pub fn validation(strict: bool) -> Validation {
    if strict {
        Validation::Strict
    } else {
        Validation::Lenient
    }
}

/// Every game of the record file `path`, read with `validation`; the warnings of the
/// games read are printed on standard error. `Err` names the file and why it could
/// not be read at all.
pub fn read(path: &Path, validation: Validation) -> Result<Vec<Result<Game, RecordError>>, String> {
    let bytes =
        data_file::read(path, MAX_RECORD_BYTES).map_err(|e| format!("{}: {e}", path.display()))?;
    let games = record::read_all_with(&bytes, validation);
    for (i, g) in games.iter().enumerate() {
        if let Ok(g) = g {
            for w in &g.warnings {
                eprintln!("warning: {}: game {}: {w}", path.display(), i + 1);
            }
        }
    }
    Ok(games)
}
