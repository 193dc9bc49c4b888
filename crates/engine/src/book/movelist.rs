//! Plain-text ICCS move lists, one game per line — the builder's simplest record
//! format:
//!
//! ```text
//! # a comment
//! h2e2 h9g7 h0g2 i9h9 1-0
//! [rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b] 1. b9c7 2. b0c2 1/2-1/2
//! ```
//!
//! A line is an optional start position in FEN between square brackets (default: the
//! standard start), then moves in ICCS (`h2e2` or `H2-E2`), optionally with move
//! numbers (`1.`, `12...`, ignored), then optionally a result token as the last
//! token: `1-0` (Red won), `0-1` (Black won), `1/2-1/2` (draw) or `*` (unknown; also
//! when absent). Blank lines and lines starting with `#` are skipped. Legality is
//! checked when the game is replayed.

use super::game::Game;
use crate::core::{FenError, GameResult, Move, Position};
use std::fmt;

/// Why a move-list line is not a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveListError {
    /// `[` without a closing `]`.
    UnclosedFen,
    /// The FEN in brackets is invalid.
    Fen(FenError),
    /// A token that is neither a move, a move number nor a result.
    Token(String),
    /// A result token followed by more tokens.
    ResultNotLast,
}

impl fmt::Display for MoveListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveListError::UnclosedFen => f.write_str("'[' without a closing ']'"),
            MoveListError::Fen(e) => write!(f, "{e}"),
            MoveListError::Token(t) => write!(
                f,
                "{} is not an ICCS move, a move number or a result (1-0, 0-1, 1/2-1/2, *)",
                crate::echo::echo(t)
            ),
            MoveListError::ResultNotLast => f.write_str("the result must be the last token"),
        }
    }
}

impl std::error::Error for MoveListError {}

fn is_move_number(t: &str) -> bool {
    let digits = t.trim_end_matches('.');
    digits.len() < t.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Parses one line; `Ok(None)` for a blank or comment line.
///
/// ```
/// use chuhan_engine::book::movelist::parse_line;
/// use chuhan_engine::core::GameResult;
/// let game = parse_line("1. h2e2 h9g7 2. H0-G2 0-1").unwrap().unwrap();
/// assert_eq!(game.moves.len(), 3);
/// assert_eq!(game.result, Some(GameResult::BlackWins));
/// assert!(parse_line("# comment").unwrap().is_none());
/// assert!(parse_line("h2e2 x9y9").is_err());
/// ```
pub fn parse_line(line: &str) -> Result<Option<Game>, MoveListError> {
    let mut rest = line.trim();
    if rest.is_empty() || rest.starts_with('#') {
        return Ok(None);
    }
    let mut start = Position::startpos();
    if let Some(after) = rest.strip_prefix('[') {
        let close = after.find(']').ok_or(MoveListError::UnclosedFen)?;
        start = Position::from_fen(&after[..close]).map_err(MoveListError::Fen)?;
        rest = &after[close + 1..];
    }
    let mut moves = Vec::new();
    let mut result = None;
    for token in rest.split_ascii_whitespace() {
        if result.is_some() {
            return Err(MoveListError::ResultNotLast);
        }
        if let Some(r) = GameResult::parse_pgn(token) {
            result = Some(r);
        } else if !is_move_number(token) {
            let m: Move = token
                .parse()
                .map_err(|_| MoveListError::Token(token.chars().take(24).collect()))?;
            moves.push(m);
        }
    }
    Ok(Some(Game {
        start,
        moves,
        result: result.flatten(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        let g = parse_line(
            "[rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b] 1... b9c7 *",
        )
        .unwrap()
        .unwrap();
        assert_eq!(g.moves, vec!["b9c7".parse().unwrap()]);
        assert_eq!(g.result, None);
        assert_eq!(g.start.side_to_move(), crate::core::Color::Black);
        let g = parse_line("h2e2 1/2-1/2").unwrap().unwrap();
        assert_eq!(g.result, Some(GameResult::Draw));
        assert_eq!(parse_line("h2e2").unwrap().unwrap().result, None);
        assert!(parse_line("   ").unwrap().is_none());
        assert_eq!(
            parse_line("[4k4/9 w h2e2").unwrap_err(),
            MoveListError::UnclosedFen
        );
        assert!(matches!(
            parse_line("[4k4/9] h2e2"),
            Err(MoveListError::Fen(_))
        ));
        assert_eq!(
            parse_line("h2e2 1-0 h9g7").unwrap_err(),
            MoveListError::ResultNotLast
        );
        assert!(matches!(parse_line("h2e2 ."), Err(MoveListError::Token(_))));
        assert!(matches!(parse_line("h2e2 1"), Err(MoveListError::Token(_))));
    }
}
