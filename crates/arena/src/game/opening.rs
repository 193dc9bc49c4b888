//! [`Opening`]: a start position and forced moves, validated — one entry of a
//! match's opening suite or of a tournament's `openings`.

use chuhan_engine::core::{Move, Position};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A start position and forced moves, validated: the FEN describes a legal
/// position and every move is legal in turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    fen: String,
    moves: Vec<Move>,
}

/// Why an opening is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// The FEN does not describe a legal position.
    Fen(String),
    /// A move is not ICCS text.
    MoveSyntax(String),
    /// A move is not legal where it is played.
    IllegalMove(String),
    /// The moves end the game.
    GameOver,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Fen(e) => write!(f, "bad FEN: {e}"),
            OpeningError::MoveSyntax(m) => write!(f, "`{m}` is not a move"),
            OpeningError::IllegalMove(m) => write!(f, "`{m}` is not legal there"),
            OpeningError::GameOver => f.write_str("the opening leaves no legal move"),
        }
    }
}

impl std::error::Error for OpeningError {}

impl Opening {
    /// An opening from `fen` (the start position when `None`) and ICCS `moves`.
    pub fn new(fen: Option<&str>, moves: &[String]) -> Result<Opening, OpeningError> {
        let mut pos = match fen {
            None => Position::startpos(),
            Some(f) => Position::from_fen(f).map_err(|e| OpeningError::Fen(e.to_string()))?,
        };
        let start = pos.to_fen();
        let mut played = Vec::with_capacity(moves.len());
        for text in moves {
            let m: Move = text
                .parse()
                .map_err(|_| OpeningError::MoveSyntax(text.clone()))?;
            if !pos.legal_moves().contains(m) {
                return Err(OpeningError::IllegalMove(text.clone()));
            }
            pos.make_move(m);
            played.push(m);
        }
        if pos.legal_moves().is_empty() {
            return Err(OpeningError::GameOver);
        }
        Ok(Opening {
            fen: start,
            moves: played,
        })
    }

    /// The start position's FEN.
    pub fn fen(&self) -> &str {
        &self.fen
    }

    /// The forced moves from it.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
}

#[derive(Serialize, Deserialize)]
struct OpeningText {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

impl Serialize for Opening {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        OpeningText {
            fen: Some(self.fen.clone()),
            moves: self.moves.iter().map(|m| m.to_string()).collect(),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Opening {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Opening, D::Error> {
        let t = OpeningText::deserialize(d)?;
        Opening::new(t.fen.as_deref(), &t.moves).map_err(serde::de::Error::custom)
    }
}
