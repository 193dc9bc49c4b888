//! Game records of any supported kind, recognised from their bytes: XQF (binary,
//! `XQ` magic), CCBridge (binary, `CCBridge` magic: `.cbr` games and `.cbl`
//! libraries), PGN (tags, comments or Chinese moves) and plain move lists.

use super::ccbridge::{self, CcbridgeError};
use super::charset::decode;
use super::game::Game;
use super::move_list::{self, MoveListError};
use super::pgn::{self, PgnError};
use super::xqf::{self, XqfError};
use crate::core::Validation;
use std::fmt;

/// The kind of a record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordKind {
    /// XQStudio binary.
    Xqf,
    /// CCBridge (象棋橋) binary: a game or a library.
    Ccbridge,
    /// PGN text.
    Pgn,
    /// A plain list of moves (or a UCCI `position` line).
    MoveList,
}

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// From the PGN reader.
    Pgn(PgnError),
    /// From the XQF reader.
    Xqf(XqfError),
    /// From the CCBridge reader.
    Ccbridge(CcbridgeError),
    /// From the move-list reader.
    MoveList(MoveListError),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Pgn(e) => write!(f, "PGN: {e}"),
            RecordError::Xqf(e) => e.fmt(f),
            RecordError::Ccbridge(e) => e.fmt(f),
            RecordError::MoveList(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RecordError {}

/// Tells the kind of a record from its bytes.
///
/// ```
/// use chuhan_engine::notation::record::{detect, RecordKind};
/// assert_eq!(detect(b"[Game \"Chinese Chess\"]\n1. h2e2 *"), RecordKind::Pgn);
/// assert_eq!(detect("1. 炮二平五 馬８進７".as_bytes()), RecordKind::Pgn);
/// assert_eq!(detect(b"h2e2 h9g7"), RecordKind::MoveList);
/// assert_eq!(detect(b"position startpos moves h2e2"), RecordKind::MoveList);
/// ```
pub fn detect(bytes: &[u8]) -> RecordKind {
    if bytes.starts_with(b"XQ") {
        return RecordKind::Xqf;
    }
    if ccbridge::is_ccbridge(bytes) {
        return RecordKind::Ccbridge;
    }
    let (text, _) = decode(bytes);
    let t = text.trim_start_matches('\u{FEFF}').trim_start();
    let first = t
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    if first == "position" || first == "fen" || first == "startpos" {
        return RecordKind::MoveList;
    }
    if t.contains(['[', '{', '(', ';']) || !t.is_ascii() {
        RecordKind::Pgn
    } else {
        RecordKind::MoveList
    }
}

/// Reads every game of a record leniently ([`read_all_with`] and
/// [`Validation::Lenient`]).
pub fn read_all(bytes: &[u8]) -> Vec<Result<Game, RecordError>> {
    read_all_with(bytes, Validation::Lenient)
}

/// Reads every game of a record; a broken game of a PGN file or a CCBridge library
/// gives an error in its place and reading goes on. [`Validation::Lenient`] keeps
/// the part of a record (PGN, XQF, CCBridge) before a move that cannot be played
/// or a cut record, and composed start positions, each with a warning in
/// [`Game::warnings`]; [`Validation::Strict`] refuses them.
pub fn read_all_with(bytes: &[u8], validation: Validation) -> Vec<Result<Game, RecordError>> {
    if is_blank(bytes) {
        return Vec::new();
    }
    match detect(bytes) {
        RecordKind::Xqf => vec![xqf::read_with(bytes, validation).map_err(RecordError::Xqf)],
        RecordKind::Ccbridge => ccbridge::read_all(bytes, validation)
            .into_iter()
            .map(|r| r.map_err(RecordError::Ccbridge))
            .collect(),
        RecordKind::Pgn => pgn::read_all_with(&decode(bytes).0, validation)
            .into_iter()
            .map(|r| r.map_err(RecordError::Pgn))
            .collect(),
        RecordKind::MoveList => {
            vec![move_list::read(&decode(bytes).0).map_err(RecordError::MoveList)]
        }
    }
}

/// Reads game `number` (1 = the first) of a record, and counts its games: the
/// other games are read and let go one by one, so a large library costs the
/// memory of one game. `None` when there is no such game.
///
/// ```
/// use chuhan_engine::core::Validation;
/// use chuhan_engine::notation::record;
/// let two = b"[Event \"a\"]\n1. h2e2 *\n\n[Event \"b\"]\n1. b2e2 h9g7 *\n";
/// let (game, count) = record::read_nth(two, 2, Validation::Lenient);
/// assert_eq!((game.unwrap().unwrap().ply_count(), count), (2, 2));
/// assert!(record::read_nth(two, 3, Validation::Lenient).0.is_none());
/// ```
pub fn read_nth(
    bytes: &[u8],
    number: usize,
    validation: Validation,
) -> (Option<Result<Game, RecordError>>, usize) {
    if is_blank(bytes) {
        return (None, 0);
    }
    if detect(bytes) != RecordKind::Pgn {
        let all = read_all_with(bytes, validation);
        let count = all.len();
        return (all.into_iter().nth(number.wrapping_sub(1)), count);
    }
    let mut count = 0;
    let mut wanted = None;
    pgn::read_each_with(&decode(bytes).0, validation, |g| {
        count += 1;
        if count == number {
            wanted = Some(g.map_err(RecordError::Pgn));
        }
    });
    (wanted, count)
}

/// Whether `bytes` hold no record at all: nothing, or only white space (and a
/// byte-order mark). Such a file has no game, not one empty game.
fn is_blank(bytes: &[u8]) -> bool {
    decode(bytes)
        .0
        .chars()
        .all(|c| c.is_whitespace() || c == '\u{FEFF}')
}

/// Reads every game of a record, failing on the first broken one (or if there is
/// no game).
///
/// ```
/// use chuhan_engine::notation::record;
/// let games = record::read(b"h2e2 h9g7").unwrap();
/// assert_eq!(games[0].ply_count(), 2);
/// ```
pub fn read(bytes: &[u8]) -> Result<Vec<Game>, RecordError> {
    let games = read_all(bytes).into_iter().collect::<Result<Vec<_>, _>>()?;
    if games.is_empty() {
        return Err(RecordError::Pgn(PgnError {
            game: 1,
            line: 1,
            kind: pgn::PgnErrorKind::NoGame,
        }));
    }
    Ok(games)
}
