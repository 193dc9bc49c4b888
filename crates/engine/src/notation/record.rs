//! Game records of any supported kind, recognised from their bytes by the one
//! detector [`detect`]: XQF (binary, `XQ` magic), CCBridge (binary, `CCBridge`
//! magic: `.cbr` games and `.cbl` libraries), PGN (tags, comments or Chinese
//! moves) and plain move lists, one game per line ([`super::move_list`]).
//! [`read_items`] reads every game with its [`Place`] in the file (what the book
//! builder reports); [`read_all_with`] and [`read_nth`] give the games alone.

use super::ccbridge::{self, CcbridgeError};
use super::charset::decode;
use super::game::Game;
use super::move_list::{self, MoveListError};
use super::pgn::{self, PgnError};
use super::xqf::{self, XqfError};
use crate::core::Validation;
use std::fmt;
use std::path::Path;

/// The kind of a record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordKind {
    /// XQStudio binary.
    Xqf,
    /// CCBridge (象棋橋) binary: a game or a library.
    Ccbridge,
    /// PGN text, one or more games.
    Pgn,
    /// Plain move lists, one game per line (ICCS or any notation, an optional
    /// `[FEN]` or UCCI `position` start, an optional result).
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

/// Where a game is in its record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Its line (from 1), in a move-list file.
    Line(usize),
    /// Its number (from 1), in a PGN, XQF or CCBridge file.
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

/// One game read from a record file, or why it could not be read.
#[derive(Clone, Debug)]
pub struct RecordItem {
    /// Where the game is in the file.
    pub place: Place,
    /// The game (what its reading let pass is in [`Game::warnings`]).
    pub game: Result<Game, RecordError>,
}

/// Tells the kind of a record from its bytes and, when the caller has one, its
/// file name. The rules, in order (the first that applies decides):
///
/// 1. the bytes start with `XQ`: [`RecordKind::Xqf`];
/// 2. they start with a CCBridge magic ([`ccbridge::is_ccbridge`]):
///    [`RecordKind::Ccbridge`];
/// 3. `path` is given and its extension is `pgn` (any case): [`RecordKind::Pgn`],
///    whatever the text (the PGN reader recognises UTF-8, GBK and Big5);
///
/// otherwise the bytes are decoded as text ([`decode`]: a byte-order mark, else
/// UTF-8, else GBK) and, with `#` comments (to the end of their line) cut,
///
/// 4. the first word is `position`, `fen` or `startpos` (any case): a UCCI-style
///    [`RecordKind::MoveList`];
/// 5. a line (comments not cut) is a PGN tag, `[Name "value"]` (a `[`, a letter,
///    a `"`, a `]` at the end): [`RecordKind::Pgn`];
/// 6. a line starts with `[` and holds no `"` (a move list's `[FEN]` start):
///    [`RecordKind::MoveList`];
/// 7. the text holds `[`, `{`, `(`, `;` or a character outside ASCII (PGN
///    comments, variations, Chinese moves): [`RecordKind::Pgn`];
/// 8. else (plain ASCII words): [`RecordKind::MoveList`].
///
/// This joins the two detectors it replaces, the book builder's (rules 1–3, then
/// 5, else ICCS lines for UTF-8 text) and the record readers' (rules 1, 2, 4, 7,
/// 8): a file both read alike is read alike; where they differed, a line-start
/// `[FEN]` is a move list (rule 6, the builder's reading), and `[`, `{`, `(`,
/// `;` or non-ASCII text outside comments is PGN (rule 7, the readers'); a
/// non-UTF-8 text is recognised (the builder refused it).
///
/// ```
/// use chuhan_engine::notation::record::{detect, RecordKind};
/// use std::path::Path;
/// assert_eq!(detect(None, b"XQ\x0a..."), RecordKind::Xqf);
/// assert_eq!(detect(None, b"[Game \"Chinese Chess\"]\n1. h2e2 *"), RecordKind::Pgn);
/// assert_eq!(detect(None, "1. 炮二平五 馬８進７".as_bytes()), RecordKind::Pgn);
/// assert_eq!(detect(Some(Path::new("a.PGN")), b"h2e2 h9g7"), RecordKind::Pgn);
/// assert_eq!(detect(Some(Path::new("a.txt")), b"h2e2 h9g7"), RecordKind::MoveList);
/// assert_eq!(detect(None, b"position startpos moves h2e2"), RecordKind::MoveList);
/// assert_eq!(detect(None, b"[4k4/9/9/9/9/9/9/9/9/4K4 w] h0h1 1-0"), RecordKind::MoveList);
/// ```
pub fn detect(path: Option<&Path>, bytes: &[u8]) -> RecordKind {
    if bytes.starts_with(b"XQ") {
        return RecordKind::Xqf;
    }
    if ccbridge::is_ccbridge(bytes) {
        return RecordKind::Ccbridge;
    }
    let pgn_name = path
        .and_then(|p| p.extension())
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    if pgn_name {
        return RecordKind::Pgn;
    }
    detect_text(&decode(bytes).0)
}

/// Rules 4 to 8 of [`detect`].
fn detect_text(text: &str) -> RecordKind {
    let text = text.trim_start_matches('\u{FEFF}');
    let cut = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let first = cut
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    if first == "position" || first == "fen" || first == "startpos" {
        return RecordKind::MoveList;
    }
    let tag_line = |l: &str| {
        let l = l.trim_start_matches('\u{FEFF}').trim();
        l.starts_with('[')
            && l.ends_with(']')
            && l[1..].starts_with(|c: char| c.is_ascii_alphabetic())
            && l.contains('"')
    };
    if text.lines().any(tag_line) {
        return RecordKind::Pgn;
    }
    let fen_line = |l: &str| l.trim_start().starts_with('[') && !l.contains('"');
    if cut.lines().any(fen_line) {
        return RecordKind::MoveList;
    }
    if cut.contains(['[', '{', '(', ';']) || !cut.is_ascii() {
        RecordKind::Pgn
    } else {
        RecordKind::MoveList
    }
}

/// Every game of a record file, in file order, each with its place: its line in a
/// move-list file, its number in the others. `path` is the file's name when the
/// caller has one (see [`detect`]); `validation` as in [`read_all_with`].
///
/// ```
/// use chuhan_engine::core::Validation;
/// use chuhan_engine::notation::record::{read_items, Place};
/// let items = read_items(b"# games\nh2e2 h9g7 1-0\nh2e2 zz\n", None, Validation::Lenient);
/// assert_eq!(items.len(), 2);
/// assert_eq!((items[0].place, items[1].place), (Place::Line(2), Place::Line(3)));
/// assert!(items[0].game.is_ok() && items[1].game.is_err());
/// ```
pub fn read_items(bytes: &[u8], path: Option<&Path>, validation: Validation) -> Vec<RecordItem> {
    if is_blank(bytes) {
        return Vec::new();
    }
    let numbered = |games: Vec<Result<Game, RecordError>>| {
        games
            .into_iter()
            .enumerate()
            .map(|(i, game)| RecordItem {
                place: Place::Game(i + 1),
                game,
            })
            .collect()
    };
    match detect(path, bytes) {
        RecordKind::Xqf => numbered(vec![
            xqf::read_with(bytes, validation).map_err(RecordError::Xqf),
        ]),
        RecordKind::Ccbridge => numbered(
            ccbridge::read_all(bytes, validation)
                .into_iter()
                .map(|r| r.map_err(RecordError::Ccbridge))
                .collect(),
        ),
        RecordKind::Pgn => numbered(
            pgn::read_all_with(&decode(bytes).0, validation)
                .into_iter()
                .map(|r| r.map_err(RecordError::Pgn))
                .collect(),
        ),
        RecordKind::MoveList => move_list::read_lines(&decode(bytes).0, validation)
            .into_iter()
            .map(|(line, game)| RecordItem {
                place: Place::Line(line),
                game: game.map_err(RecordError::MoveList),
            })
            .collect(),
    }
}

/// Reads every game of a record leniently ([`read_all_with`] and
/// [`Validation::Lenient`]).
pub fn read_all(bytes: &[u8]) -> Vec<Result<Game, RecordError>> {
    read_all_with(bytes, Validation::Lenient)
}

/// Reads every game of a record; a broken game of a PGN file, a CCBridge library
/// or a move-list file gives an error in its place and reading goes on.
/// [`Validation::Lenient`] keeps the part of a game before a move that cannot be
/// played or a cut record, and composed start positions, each with a warning in
/// [`Game::warnings`]; [`Validation::Strict`] refuses them.
pub fn read_all_with(bytes: &[u8], validation: Validation) -> Vec<Result<Game, RecordError>> {
    read_items(bytes, None, validation)
        .into_iter()
        .map(|item| item.game)
        .collect()
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
    if detect(None, bytes) != RecordKind::Pgn {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind, from bytes alone and with a file name, under each rule of
    /// [`detect`].
    #[test]
    fn each_kind_is_detected_by_the_one_detector() {
        let txt = Some(Path::new("games.txt"));
        let pgn = Some(Path::new("games.PGN"));
        let cases: &[(&[u8], RecordKind)] = &[
            (b"XQ\x0a\x00\x00", RecordKind::Xqf),
            (ccbridge::RECORD_MAGIC, RecordKind::Ccbridge),
            (ccbridge::LIBRARY_MAGIC, RecordKind::Ccbridge),
            (
                b"position fen 4k4/9/9/9/9/9/9/9/9/4K4 w moves e0e1",
                RecordKind::MoveList,
            ),
            (
                b"# (a comment; with [brackets])\nstartpos moves h2e2",
                RecordKind::MoveList,
            ),
            (b"[Event \"x\"]\n1. h2e2 *", RecordKind::Pgn),
            (
                b"\xEF\xBB\xBF[Game \"Chinese Chess\"]\n1. h2e2 *",
                RecordKind::Pgn,
            ),
            (
                b"[4k4/9/9/9/9/9/9/9/9/4K4 w] e0e1 1-0\nh2e2 *",
                RecordKind::MoveList,
            ),
            (b"1. h2e2 {a comment} h9g7 *", RecordKind::Pgn),
            (b"1. h2e2 (1. c3c4) h9g7 *", RecordKind::Pgn),
            ("1. 炮二平五 馬８進７".as_bytes(), RecordKind::Pgn),
            (
                b"h2e2 h9g7 1-0\n# \xE4\xB8\xAD\nb2e2 b9c7 0-1",
                RecordKind::MoveList,
            ),
            (b"1. C2.5 H8+7\n", RecordKind::MoveList),
        ];
        for (bytes, kind) in cases {
            let shown = String::from_utf8_lossy(bytes);
            assert_eq!(detect(None, bytes), *kind, "{shown}");
            assert_eq!(detect(txt, bytes), *kind, "{shown}");
        }
        // A `.pgn` name makes any text PGN, even GBK or a move list; binary magics
        // still win.
        let gbk = super::super::charset::encode_gbk("1. 炮二平五 馬８進７");
        assert_eq!(detect(pgn, &gbk), RecordKind::Pgn);
        assert_eq!(detect(None, &gbk), RecordKind::Pgn);
        assert_eq!(detect(pgn, b"h2e2 h9g7"), RecordKind::Pgn);
        assert_eq!(detect(pgn, b"XQ\x0a"), RecordKind::Xqf);
        assert_eq!(detect(pgn, ccbridge::RECORD_MAGIC), RecordKind::Ccbridge);
        // What each kind reads: a move list one game per line.
        let items = read_items(b"h2e2 h9g7\nh0g2 1-0\n", txt, Validation::Lenient);
        assert_eq!(items.len(), 2);
        assert_eq!(items[1].game.as_ref().unwrap().ply_count(), 1);
        let items = read_items(b"h2e2 h9g7\nh0g2 1-0\n", pgn, Validation::Lenient);
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].place, Place::Game(1));
    }
}
