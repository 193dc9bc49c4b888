//! [`Game`]: what the builder learns from — a start position, the moves and the
//! result (a [`GameResult`], defined in [`crate::core::result`]) — and [`RecordFormat`], the game-record files it can read.
//!
//! A record format only has to produce `Game`s: Chuhan's plain ICCS move lists
//! (one game per line, [`RecordFormat::IccsLines`]) are read here, PGN, XQF and CCBridge by
//! the notation module's readers ([`crate::notation::record::read_all`]), whose
//! games give their start position, main line and result.

use super::movelist::{self, MoveListError};
use crate::core::{GameResult, Move, Position};
use crate::notation;
use std::fmt;
use std::path::Path;

/// One game: where it started, the moves played (not yet checked for legality) and
/// how it ended.
#[derive(Clone, Debug)]
pub struct Game {
    /// The start position.
    pub start: Position,
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// The result, `None` when not known.
    pub result: Option<GameResult>,
}

/// Why a game in a record file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// A bad line of an ICCS move-list file.
    MoveList(MoveListError),
    /// A bad game of a PGN or XQF file.
    Record(notation::record::RecordError),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::MoveList(e) => write!(f, "{e}"),
            RecordError::Record(e) => write!(f, "{e}"),
        }
    }
}

/// Where a game is in its record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Its line (from 1), in an ICCS move-list file.
    Line(usize),
    /// Its number (from 1), in a PGN or XQF file.
    Game(usize),
}

impl fmt::Display for Place {
    /// What follows the file name in a warning: `:12` or ` (game 3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Line(n) => write!(f, ":{n}"),
            Place::Game(n) => write!(f, " (game {n})"),
        }
    }
}

impl std::error::Error for RecordError {}

/// One game read from a record file, or why it could not be read.
#[derive(Clone, Debug)]
pub struct RecordItem {
    /// Where the game is in the file.
    pub place: Place,
    /// The game.
    pub game: Result<Game, RecordError>,
    /// What the lenient reading of the record let pass (a line kept up to a move
    /// that cannot be played, a composed start position, skipped text).
    pub warnings: Vec<notation::Warning>,
}

/// A game-record file format the builder reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// Plain-text ICCS move lists, one game per line (see [`super::movelist`]).
    IccsLines,
    /// PGN (any notation the notation module reads), one or more games.
    Pgn,
    /// XQStudio's binary XQF, one game.
    Xqf,
    /// CCBridge's binary `.cbr` (one game) or `.cbl` (a library).
    Ccbridge,
}

impl RecordFormat {
    /// The format of a record file, from its name and content: XQF by its `XQ`
    /// magic, CCBridge by its `CCBridge` magic, PGN by the `.pgn` extension or a tag line (`[Event "..."]`), else ICCS
    /// lines if the file is UTF-8 text. `None` if it is none of them (a `.pgn` file
    /// need not be UTF-8: the PGN reader recognises GBK and Big5 too).
    ///
    /// ```
    /// use chuhan_engine::book::RecordFormat;
    /// use std::path::Path;
    /// let p = Path::new("games.txt");
    /// assert_eq!(RecordFormat::detect(p, b"h2e2 h9g7 1-0"), Some(RecordFormat::IccsLines));
    /// let pgn = b"[Event \"x\"]\n1. h2e2 h9g7 1-0\n";
    /// assert_eq!(RecordFormat::detect(p, pgn), Some(RecordFormat::Pgn));
    /// assert_eq!(RecordFormat::detect(p, b"XQ\x0a..."), Some(RecordFormat::Xqf));
    /// ```
    pub fn detect(path: &Path, data: &[u8]) -> Option<RecordFormat> {
        let pgn_ext = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
        if data.starts_with(b"XQ") {
            return Some(RecordFormat::Xqf);
        }
        if notation::ccbridge::is_ccbridge(data) {
            return Some(RecordFormat::Ccbridge);
        }
        if pgn_ext {
            return Some(RecordFormat::Pgn);
        }
        let text = std::str::from_utf8(data).ok()?;
        let tag_line = |l: &str| {
            let l = l.trim_start_matches('\u{FEFF}').trim();
            l.starts_with('[')
                && l.ends_with(']')
                && l[1..].starts_with(|c: char| c.is_ascii_alphabetic())
                && l.contains('"')
        };
        Some(if text.lines().any(tag_line) {
            RecordFormat::Pgn
        } else {
            RecordFormat::IccsLines
        })
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
                            place: Place::Line(i + 1),
                            game: game.map_err(RecordError::MoveList),
                            warnings: Vec::new(),
                        })
                })
                .collect(),
            RecordFormat::Pgn | RecordFormat::Xqf | RecordFormat::Ccbridge => {
                notation::record::read_all(data)
                    .into_iter()
                    .enumerate()
                    .map(|(i, game)| {
                        let warnings = game.as_ref().map_or(Vec::new(), |g| g.warnings.clone());
                        RecordItem {
                            place: Place::Game(i + 1),
                            game: game.map(from_record).map_err(RecordError::Record),
                            warnings,
                        }
                    })
                    .collect()
            }
        }
    }
}

/// The builder's view of a notation game: start position, main line and result.
fn from_record(g: notation::Game) -> Game {
    Game {
        moves: g.moves(),
        result: g.result,
        start: g.start,
    }
}
