//! How the commands read a game-record file the user names (`show`, `convert`,
//! `judge`): a regular file of bounded size ([`chuhan_engine::data_file`]), every game
//! recognised by [`record::read_all_with`] (PGN, XQF, CCBridge, move lists), and
//! each game's warnings printed on standard error, naming the file and the game.

use chuhan_engine::core::{Position, Validation};
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

/// Game `n` (1 = the first) of the games read from `path`: what `--game` selects
/// in `show`, `judge` and `convert`, with the same errors everywhere (a file with
/// no game, a number outside the file's range, a game that could not be read).
pub fn pick(path: &Path, games: Vec<Result<Game, RecordError>>, n: usize) -> Result<Game, String> {
    let count = games.len();
    if count == 0 {
        return Err(format!("{}: no game in the file", path.display()));
    }
    games
        .into_iter()
        .nth(n.wrapping_sub(1))
        .ok_or_else(|| {
            format!(
                "{}: --game {n} is out of range: the file has {count} game(s), numbered 1 to {count}",
                path.display()
            )
        })?
        .map_err(|e| format!("{}: game {n}: {e}", path.display()))
        .and_then(|g| {
            if g.nothing_read() {
                Err(format!(
                    "{}: game {n}: nothing could be read ({})",
                    path.display(),
                    g.warning_text()
                ))
            } else {
                Ok(g)
            }
        })
}

/// The position after `ply` plies of `game`'s main line (`--ply` in `show`); the
/// error names the range.
pub fn position_at(path: &Path, game: &Game, ply: usize) -> Result<Position, String> {
    let plies = game.ply_count();
    game.position_at(ply).ok_or_else(|| {
        format!(
            "{}: --ply {ply} is out of range: the game has {plies} plies, 0 (the start) to {plies}",
            path.display()
        )
    })
}
