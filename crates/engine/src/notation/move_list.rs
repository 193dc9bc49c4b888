//! Plain move lists: the simplest record. A move-list file holds one game per line
//! ([`read_lines`], what [`super::record`] reads); [`read`] takes a text that is one
//! game (a `position` line, an opening of a suite).
//!
//! ```text
//! # a comment
//! h2e2 h9g7 h0g2 i9h9 1-0
//! [rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b] 1... b9c7 2. b0c2 1/2-1/2
//! position startpos moves h2e2 h9g7
//! ```
//!
//! A game is:
//!
//! * optionally a start position: a FEN between square brackets (`[FEN] …`), or a
//!   UCCI/UCI `position` command's words: `position startpos moves …`,
//!   `position fen <FEN> moves …`, `fen <FEN> …` (default: the standard start);
//! * moves separated by white space or commas, in ICCS (`h2e2`, `H2-E2`) or any other
//!   notation ([`super::parse_move`], recognised per move), optionally numbered
//!   (`1.`, `12...`: digits and at least one dot, ignored);
//! * optionally a result as the last word: `1-0` (Red won), `0-1` (Black won),
//!   `1/2-1/2` (draw) or `*` (unknown; also when absent).
//!
//! `#` starts a comment to the end of the line; a line that is blank or only a
//! comment holds no game.
//!
//! A word that is no move text at all (`zz`, `1`, `.`: a
//! [`MoveErrorKind::Syntax`] error) is an error of its game. A move that cannot
//! be played is an error under [`Validation::Strict`]; [`Validation::Lenient`]
//! keeps the game up to the move before, with a [`Warning::BadMove`] (as the PGN,
//! XQF and CCBridge readers do), and takes a composed start position with a
//! [`Warning::Position`].

use super::game::Game;
use super::move_error::{MoveError, MoveErrorKind};
use super::pgn::MAX_GAME_WORDS;
use super::warning::Warning;
use crate::core::{FenError, GameResult, Position, Validation};
use std::fmt;

/// Why a move list could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveListError {
    /// `[` without a closing `]`.
    UnclosedFen,
    /// The FEN is not a legal position.
    BadFen(FenError),
    /// A move cannot be read or played.
    BadMove {
        /// 1-based index of the move in the list.
        index: usize,
        /// Why.
        error: MoveError,
    },
    /// A result word followed by more words.
    ResultNotLast,
    /// More than [`MAX_GAME_WORDS`] moves.
    TooLong,
}

impl fmt::Display for MoveListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveListError::UnclosedFen => f.write_str("move list: '[' without a closing ']'"),
            MoveListError::BadFen(e) => write!(f, "move list: {e}"),
            MoveListError::BadMove { index, error } => {
                write!(f, "move list: move {index}: {error}")
            }
            MoveListError::ResultNotLast => {
                f.write_str("move list: the result (1-0, 0-1, 1/2-1/2, *) must be the last word")
            }
            MoveListError::TooLong => {
                write!(f, "move list: more than {MAX_GAME_WORDS} moves")
            }
        }
    }
}

impl std::error::Error for MoveListError {}

/// Reads a text that is one game (see the module docs; its lines are joined),
/// strictly: every move must be playable and the start position reachable.
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
    read_with(text, Validation::Strict)
}

/// Reads a text that is one game (its lines joined) with `validation`.
pub fn read_with(text: &str, validation: Validation) -> Result<Game, MoveListError> {
    let cleaned = text.lines().map(cut_comment).collect::<Vec<_>>().join("\n");
    parse(&cleaned, validation)
}

/// Reads one line of a move-list file: `None` for a blank or comment line.
///
/// ```
/// use chuhan_engine::core::{GameResult, Validation};
/// use chuhan_engine::notation::move_list::read_line;
/// let game = read_line("1. h2e2 h9g7 2. H0-G2 0-1", Validation::Lenient).unwrap().unwrap();
/// assert_eq!(game.ply_count(), 3);
/// assert_eq!(game.result, Some(GameResult::BlackWins));
/// assert!(read_line("# comment", Validation::Lenient).is_none());
/// assert!(read_line("h2e2 x9y9", Validation::Lenient).unwrap().is_err());
/// ```
pub fn read_line(line: &str, validation: Validation) -> Option<Result<Game, MoveListError>> {
    let line = cut_comment(line);
    if line
        .trim_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}')
        .is_empty()
    {
        return None;
    }
    Some(parse(line, validation))
}

/// Reads a move-list file, one game per line: each game with its line number
/// (from 1); blank and comment lines are skipped.
///
/// ```
/// use chuhan_engine::core::Validation;
/// use chuhan_engine::notation::move_list::read_lines;
/// let games = read_lines("# two games\nh2e2 h9g7 1-0\n\nh2e2 zz\n", Validation::Lenient);
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].0, 2);
/// assert_eq!(games[1].0, 4);
/// assert!(games[1].1.is_err());
/// ```
pub fn read_lines(text: &str, validation: Validation) -> Vec<(usize, Result<Game, MoveListError>)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| read_line(line, validation).map(|g| (i + 1, g)))
        .collect()
}

/// The line up to its `#` comment.
fn cut_comment(line: &str) -> &str {
    line.split('#').next().unwrap_or("")
}

/// A move number: digits, then at least one dot (`1.`, `12...`).
fn is_move_number(t: &str) -> bool {
    let digits = t.trim_end_matches('.');
    digits.len() < t.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Reads one game from comment-free text.
fn parse(text: &str, validation: Validation) -> Result<Game, MoveListError> {
    let mut rest = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
    let mut fen = None;
    if let Some(after) = rest.strip_prefix('[') {
        let close = after.find(']').ok_or(MoveListError::UnclosedFen)?;
        fen = Some(after[..close].trim().to_string());
        rest = &after[close + 1..];
    }
    let mut words: Vec<&str> = rest
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    if fen.is_none() {
        if words
            .first()
            .is_some_and(|w| w.eq_ignore_ascii_case("position"))
        {
            words.remove(0);
        }
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
                fen = Some(words[..end].join(" "));
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
    }
    let mut moves = Vec::new();
    let mut result = None;
    for w in words {
        if result.is_some() {
            return Err(MoveListError::ResultNotLast);
        }
        if let Some(r) = GameResult::parse_pgn(w) {
            result = Some(r);
        } else if !is_move_number(w) {
            moves.push(w);
        }
    }
    if moves.len() > MAX_GAME_WORDS {
        return Err(MoveListError::TooLong);
    }
    let (start, notes) = match fen {
        None => (Position::startpos(), Vec::new()),
        Some(f) => Position::from_fen_with(&f, validation).map_err(MoveListError::BadFen)?,
    };
    let mut game = Game::new(start);
    game.result = result.flatten();
    game.warnings
        .extend(notes.into_iter().map(Warning::Position));
    let mut pos = game.start.clone();
    for (i, text) in moves.iter().enumerate() {
        match super::parse_move(&pos, text) {
            Ok(mv) => {
                pos.make_move(mv);
                game.push(mv);
            }
            Err(error) if validation == Validation::Lenient && !is_not_move_text(&error) => {
                game.warnings.push(Warning::BadMove {
                    ply: i + 1,
                    variation: false,
                    why: error.to_string(),
                });
                break;
            }
            Err(error) => {
                return Err(MoveListError::BadMove {
                    index: i + 1,
                    error,
                });
            }
        }
    }
    Ok(game)
}

/// Whether the error says the word is no move text at all (rather than a move
/// that cannot be played where it stands).
fn is_not_move_text(e: &MoveError) -> bool {
    matches!(e.kind, MoveErrorKind::Syntax(_) | MoveErrorKind::Empty)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Color;

    fn line(text: &str) -> Option<Result<Game, MoveListError>> {
        read_line(text, Validation::Lenient)
    }

    /// The lines of the book builder's former ICCS move-list reader, asserting
    /// what they asserted there.
    #[test]
    fn lines() {
        let g = line("[rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b] 1... b9c7 *")
            .unwrap()
            .unwrap();
        assert_eq!(g.moves(), vec!["b9c7".parse().unwrap()]);
        assert_eq!(g.result, None);
        assert_eq!(g.start.side_to_move(), Color::Black);
        let g = line("h2e2 1/2-1/2").unwrap().unwrap();
        assert_eq!(g.result, Some(GameResult::Draw));
        assert_eq!(line("h2e2").unwrap().unwrap().result, None);
        assert!(line("   ").is_none());
        assert_eq!(
            line("[4k4/9 w h2e2").unwrap().unwrap_err(),
            MoveListError::UnclosedFen
        );
        assert!(matches!(
            line("[4k4/9] h2e2").unwrap(),
            Err(MoveListError::BadFen(_))
        ));
        assert_eq!(
            line("h2e2 1-0 h9g7").unwrap().unwrap_err(),
            MoveListError::ResultNotLast
        );
        assert!(matches!(
            line("h2e2 .").unwrap(),
            Err(MoveListError::BadMove { index: 2, .. })
        ));
        assert!(matches!(
            line("h2e2 1").unwrap(),
            Err(MoveListError::BadMove { index: 2, .. })
        ));
    }

    #[test]
    fn an_unplayable_move_is_kept_up_to_when_lenient_and_refused_when_strict() {
        let g = line("h2e2 h2h3 h0g2 1-0").unwrap().unwrap();
        assert_eq!(g.ply_count(), 1);
        assert_eq!(g.result, Some(GameResult::RedWins));
        assert!(matches!(g.warnings[..], [Warning::BadMove { ply: 2, .. }]));
        assert!(matches!(
            read_line("h2e2 h2h3", Validation::Strict).unwrap(),
            Err(MoveListError::BadMove { index: 2, .. })
        ));
        // Other notations, commas and a `position` command.
        let g = line("炮二平五, H8+7 position").unwrap();
        assert!(g.is_err(), "{g:?}");
        let g = line("position startpos moves 炮二平五, H8+7 # c")
            .unwrap()
            .unwrap();
        assert_eq!(g.ply_count(), 2);
    }
}
