//! [`Game`]: what the builder learns from — a start position, the moves and the
//! result — and [`RecordFormat`], the game-record files it can read.
//!
//! This is the seam to the notation module's readers: a record format only has to
//! produce `Game`s. Today the only format is [`RecordFormat::IccsLines`]; PGN and XQF
//! become one more variant each in [`RecordFormat`] and one more arm in
//! [`RecordFormat::detect`] and [`RecordFormat::read`].

use super::movelist::{self, MoveListError};
use crate::core::{Color, Move, Position};
use std::fmt;
use std::path::Path;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Red won (`1-0`).
    RedWins,
    /// Black won (`0-1`).
    BlackWins,
    /// Drawn (`1/2-1/2`).
    Draw,
    /// Not known (`*`, or not recorded).
    Unknown,
}

/// A game result as seen by one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// That side won.
    Win,
    /// Drawn.
    Draw,
    /// That side lost.
    Loss,
    /// Not known.
    Unknown,
}

impl GameResult {
    /// The result from `side`'s point of view.
    ///
    /// ```
    /// use chuhan::book::{GameResult, Outcome};
    /// use chuhan::core::Color;
    /// assert_eq!(GameResult::BlackWins.for_side(Color::Red), Outcome::Loss);
    /// ```
    pub fn for_side(self, side: Color) -> Outcome {
        match (self, side) {
            (GameResult::Draw, _) => Outcome::Draw,
            (GameResult::Unknown, _) => Outcome::Unknown,
            (GameResult::RedWins, Color::Red) | (GameResult::BlackWins, Color::Black) => {
                Outcome::Win
            }
            _ => Outcome::Loss,
        }
    }

    /// The PGN result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub const fn token(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Parses a PGN result token.
    pub fn from_token(s: &str) -> Option<GameResult> {
        [
            GameResult::RedWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unknown,
        ]
        .into_iter()
        .find(|r| r.token() == s)
    }
}

/// One game: where it started, the moves played (not yet checked for legality) and
/// how it ended.
#[derive(Clone, Debug)]
pub struct Game {
    /// The start position.
    pub start: Position,
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// The result.
    pub result: GameResult,
}

/// Why a game in a record file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// A bad line of an ICCS move-list file.
    MoveList(MoveListError),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::MoveList(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// One game read from a record file, or why it could not be read.
#[derive(Clone, Debug)]
pub struct RecordItem {
    /// Where the game is in the file: its line (from 1) for line-based formats.
    pub line: usize,
    /// The game.
    pub game: Result<Game, RecordError>,
}

/// A game-record file format the builder reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// Plain-text ICCS move lists, one game per line (see [`super::movelist`]).
    IccsLines,
}

impl RecordFormat {
    /// The format of a record file, from its name and content; `None` if unsupported.
    pub fn detect(path: &Path, data: &[u8]) -> Option<RecordFormat> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("pgn" | "xqf") => None,
            _ if std::str::from_utf8(data).is_ok() => Some(RecordFormat::IccsLines),
            _ => None,
        }
    }

    /// Every game in `data`, in file order.
    pub fn read(self, data: &[u8]) -> Vec<RecordItem> {
        match self {
            RecordFormat::IccsLines => String::from_utf8_lossy(data)
                .lines()
                .enumerate()
                .filter_map(|(i, line)| {
                    movelist::parse_line(line)
                        .transpose()
                        .map(|game| RecordItem {
                            line: i + 1,
                            game: game.map_err(RecordError::MoveList),
                        })
                })
                .collect(),
        }
    }
}
