//! Plain move lists: the simplest record.
//!
//! Accepted:
//!
//! * moves separated by white space or commas, optionally numbered (`1. h2e2
//!   h9g7`), in ICCS or any other notation (recognised per move);
//! * optionally preceded by `fen <FEN>` (a line of its own, or followed by
//!   `moves`) or given as a UCCI/UCI command: `position startpos moves h2e2 h9g7`,
//!   `position fen <FEN> moves …`;
//! * `#` starts a comment to the end of the line.

use super::game::Game;
use super::move_error::MoveError;
use super::pgn::MAX_GAME_WORDS;
use super::replay::{ReplayError, replay_from};
use crate::core::{FenError, Position};
use std::fmt;

/// Why a move list could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveListError {
    /// The FEN is not a legal position.
    BadFen(FenError),
    /// A move cannot be played.
    BadMove {
        /// 1-based index of the move in the list.
        index: usize,
        /// Why.
        error: MoveError,
    },
    /// More than [`MAX_GAME_WORDS`] moves.
    TooLong,
}

impl fmt::Display for MoveListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveListError::BadFen(e) => write!(f, "move list: {e}"),
            MoveListError::BadMove { index, error } => {
                write!(f, "move list: move {index}: {error}")
            }
            MoveListError::TooLong => {
                write!(f, "move list: more than {MAX_GAME_WORDS} moves")
            }
        }
    }
}

impl std::error::Error for MoveListError {}

/// Reads a move list (see the module docs) into a game.
///
/// ```
/// use chuhan_engine::notation::move_list;
/// let g = move_list::read("position startpos moves h2e2 h9g7").unwrap();
/// assert_eq!(g.ply_count(), 2);
/// let g = move_list::read("1. h2e2, h9g7\n2. h0g2 # comment").unwrap();
/// assert_eq!(g.ply_count(), 3);
/// assert!(move_list::read("h2e2 h2e2").is_err());
/// ```
pub fn read(text: &str) -> Result<Game, MoveListError> {
    let cleaned: String = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut words: Vec<&str> = cleaned
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    if words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("position"))
    {
        words.remove(0);
    }
    let mut start = Position::startpos();
    match words.first().map(|w| w.to_ascii_lowercase()) {
        Some(w) if w == "startpos" => {
            words.remove(0);
        }
        Some(w) if w == "fen" => {
            words.remove(0);
            let end = words
                .iter()
                .position(|w| w.eq_ignore_ascii_case("moves"))
                .unwrap_or_else(|| fen_field_count(&words));
            let fen = words[..end].join(" ");
            start = Position::from_fen(&fen).map_err(MoveListError::BadFen)?;
            words.drain(..end);
        }
        _ => {}
    }
    if words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("moves"))
    {
        words.remove(0);
    }
    let moves: Vec<&str> = words
        .into_iter()
        .filter(|w| !w.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()))
        .collect();
    if moves.len() > MAX_GAME_WORDS {
        return Err(MoveListError::TooLong);
    }
    let mut game = Game::new(start.clone());
    let line = replay_from(start, &moves).map_err(|e| match e {
        ReplayError::Fen(e) => MoveListError::BadFen(e),
        ReplayError::Move { ply, error } => MoveListError::BadMove { index: ply, error },
    })?;
    for mv in line.moves {
        game.push(mv);
    }
    Ok(game)
}

/// How many leading words form a FEN when no `moves` keyword ends it: the board and
/// then up to five short fields (side, `-`, `-`, two counters).
fn fen_field_count(words: &[&str]) -> usize {
    let mut n = 1.min(words.len());
    while n < words.len() && n < 6 {
        let w = words[n];
        let field = matches!(w, "w" | "b" | "r" | "W" | "B" | "R" | "-")
            || (!w.is_empty() && w.chars().all(|c| c.is_ascii_digit()));
        if !field {
            break;
        }
        n += 1;
    }
    n
}
