//! The game a request names: a start position (FEN, or the start position) and the
//! moves played from it, in any notation (ICCS `h2e2`, WXF `C2.5`, Chinese
//! 炮二平五), or a record file sent as the body (PGN, XQF, CCBridge, move lists).
//! Everything is read in memory and replayed by [`replay`] (the one way every door
//! replays a line: a composed start position is taken with a warning); the first
//! bad move is named with its ply.

use crate::error::ApiError;
use crate::params::MAX_PLIES;
use axum::http::StatusCode;
use chuhan_engine::core::{Position, Validation};
use chuhan_engine::notation::move_list::MoveListError;
use chuhan_engine::notation::pgn::{PgnError, PgnErrorKind};
use chuhan_engine::notation::record::RecordError;
use chuhan_engine::notation::{Game, Replay, record, replay};
use chuhan_engine::rules::RuleSet;
use serde::Deserialize;

/// Moves as JSON gives them: an array of move texts, or one string of moves
/// separated by spaces or commas.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum MoveTexts {
    /// `["h2e2", "h9g7"]`.
    List(Vec<String>),
    /// `"h2e2 h9g7"`.
    Text(String),
}

impl Default for MoveTexts {
    fn default() -> MoveTexts {
        MoveTexts::List(Vec::new())
    }
}

impl MoveTexts {
    /// The move texts, one per ply.
    pub fn texts(&self) -> Vec<&str> {
        match self {
            MoveTexts::List(v) => v.iter().map(String::as_str).collect(),
            MoveTexts::Text(s) => s
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .collect(),
        }
    }
}

/// A game named in a request: `{"fen": "…", "moves": [...], "rules": "cxa2011"}`,
/// every field optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSpec {
    /// The start position (default: the standard one).
    #[serde(default)]
    pub fen: Option<String>,
    /// The moves played from it.
    #[serde(default)]
    pub moves: MoveTexts,
    /// The rule set (default CXA 2011).
    #[serde(default)]
    pub rules: RuleSet,
}

impl GameSpec {
    /// The final position, its history being the game.
    pub fn position(&self) -> Result<Position, ApiError> {
        self.replay().map(|r| r.position)
    }

    /// The game replayed: the final position and what reading its start let pass.
    pub fn replay(&self) -> Result<Replay, ApiError> {
        play(self.fen.as_deref(), &self.moves.texts())
    }
}

/// Plays `moves` (any notation) from `fen` (the start position when `None` or
/// empty) by [`replay`], as every door does: the FEN read leniently (a composed
/// position with a warning), the first bad move named with its ply and kind
/// ([`ApiError::replay`]); more than [`MAX_PLIES`] moves are a 413.
pub fn play(fen: Option<&str>, moves: &[&str]) -> Result<Replay, ApiError> {
    if moves.len() > MAX_PLIES {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("{} moves: at most {MAX_PLIES} per request", moves.len()),
        ));
    }
    let fen = fen.map(str::trim).filter(|f| !f.is_empty());
    replay(fen, moves, Validation::Lenient).map_err(|e| ApiError::replay(&e))
}

/// Reads game `number` (1 = the first) of the record `bytes`, leniently: a line is
/// kept up to a move that cannot be played, with a warning. Returns the game and
/// the number of games in the record. Refusals: 422 with the reader's reasons for
/// a record that yields no game (nothing recognisable, a broken game, a game
/// whose first move cannot be read), 413 for a game beyond [`MAX_PLIES`], 400
/// for a game number beyond the record's games.
pub fn read_record(bytes: &[u8], number: usize) -> Result<(Game, usize), ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::bad_request(
            "empty record: send the file as the body",
        ));
    }
    let unreadable = |why: String| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, why);
    let (game, count) = record::read_nth(bytes, number, Validation::Lenient);
    let game = match game {
        Some(Ok(g)) => g,
        Some(Err(e)) if is_too_long(&e) => {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("game {number}: {e}; at most {MAX_PLIES} plies per request"),
            ));
        }
        Some(Err(e)) => return Err(unreadable(format!("game {number}: {e}"))),
        None if count == 0 => {
            return Err(unreadable(
                "no game in the record: it is not PGN, XQF, CCBridge or a move list".into(),
            ));
        }
        None => {
            return Err(ApiError::bad_request(format!(
                "the record has {count} game(s), no game {number}"
            )));
        }
    };
    if game.nothing_read() {
        return Err(unreadable(format!(
            "game {number}: nothing could be read ({})",
            game.warning_text()
        )));
    }
    if game.ply_count() > MAX_PLIES {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "{} plies: at most {MAX_PLIES} per request",
                game.ply_count()
            ),
        ));
    }
    Ok((game, count))
}

/// Whether the reader gave up because the game is too long.
fn is_too_long(e: &RecordError) -> bool {
    matches!(
        e,
        RecordError::Pgn(PgnError {
            kind: PgnErrorKind::TooLong,
            ..
        }) | RecordError::MoveList(MoveListError::TooLong)
    )
}

/// The position of `game` after `ply` plies (the end when `None`).
pub fn record_position(game: &Game, ply: Option<usize>) -> Result<Position, ApiError> {
    let n = game.ply_count();
    let ply = ply.unwrap_or(n);
    if ply > n {
        return Err(ApiError::bad_request(format!(
            "ply {ply}: the game has {n} plies"
        )));
    }
    game.position_at(ply)
        .ok_or_else(|| ApiError::bad_request("the main line has an illegal move"))
}
