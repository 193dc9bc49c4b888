//! CCBridge (象棋橋) records: `.cbr` single games and `.cbl` libraries, read.
//!
//! The layout as implemented here (all integers little-endian, all text UTF-16LE
//! ended by a zero code unit; see `docs/ccbridge.md`):
//!
//! * **`.cbr`**: a 2,214-byte header: the magic `"CCBridge Record\0"` (16 bytes),
//!   the title at 180 (128 bytes), the event at 692 (64), Red's name at 1076 (64),
//!   Black's at 1300 (64), the result byte at 2076 (0 unknown, 1 Red won, 2 Black
//!   won, 3 and 4 draws), the side to move at 2116 (16 bits: 1 = Red, else Black)
//!   and the board at 2120: 90 bytes, row by row from Black's back rank (rank 9)
//!   down, files a to i, `0x11`–`0x17` Red's rook, horse, elephant, advisor, king,
//!   cannon, pawn, `0x21`–`0x27` Black's. Then the body: a 32-bit flag and, when
//!   it is not zero, a 32-bit byte length and the record's opening comment; then
//!   the move records in preorder (a move's continuation first, then its
//!   alternatives): a flag byte (`0x01` = no continuation follows, `0x02` = an
//!   alternative follows, `0x04` = a comment follows), a reserved byte, the from
//!   and to points (as board indices, row × 9 + file), and for a comment its
//!   32-bit byte length and text. Four zero bytes, or the end of the data, end the
//!   records.
//! * **`.cbl`**: a header with the magic `"CCBridgeLibrary\0"`, the number of games
//!   at 60 (32 bits) and the library's name at 64 (512 bytes), an index, then the
//!   games, each a `.cbr` record starting on a 4,096-byte block boundary counted
//!   from the first game (a long game takes several blocks). An entry whose board is
//!   empty is a section heading (its title names the games that follow): skipped.

use super::charset::decode_utf16le;
use super::game::Game;
use super::tree::{TreeBuilder, TreeError, TreeNode};
use super::warning::Warning;
use crate::core::{
    Color, FenError, GameResult, Piece, PieceKind, Position, Setup, Square, Validation,
};
use std::fmt;

/// The magic of a single game (`.cbr`).
pub const RECORD_MAGIC: &[u8; 16] = b"CCBridge Record\0";
/// The magic of a library (`.cbl`).
pub const LIBRARY_MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";
/// Size of a game's header; its body starts here.
pub const HEADER_LEN: usize = 2214;
/// Games of a library start on blocks of this size.
pub const BLOCK: usize = 4096;
/// Offsets of the header fields.
pub mod offset {
    /// Title (128 bytes).
    pub const TITLE: usize = 180;
    /// Event (64 bytes).
    pub const EVENT: usize = 692;
    /// Red's name (64 bytes).
    pub const RED: usize = 1076;
    /// Black's name (64 bytes).
    pub const BLACK: usize = 1300;
    /// The result byte.
    pub const RESULT: usize = 2076;
    /// The side to move (16 bits).
    pub const SIDE: usize = 2116;
    /// The 90 board bytes.
    pub const BOARD: usize = 2120;
    /// A library's game count (32 bits).
    pub const LIBRARY_COUNT: usize = 60;
    /// A library's name (512 bytes).
    pub const LIBRARY_NAME: usize = 64;
    /// The end of a library's fixed header.
    pub const LIBRARY_HEADER: usize = 576;
}

/// Longest comment read, in bytes (a longer length is a damaged record).
pub const MAX_COMMENT: usize = 1 << 20;

/// The piece of a board byte.
fn piece(b: u8) -> Option<Piece> {
    let color = match b >> 4 {
        1 => Color::Red,
        2 => Color::Black,
        _ => return None,
    };
    let kind = match b & 0x0F {
        1 => PieceKind::Rook,
        2 => PieceKind::Horse,
        3 => PieceKind::Elephant,
        4 => PieceKind::Advisor,
        5 => PieceKind::King,
        6 => PieceKind::Cannon,
        7 => PieceKind::Pawn,
        _ => return None,
    };
    Some(Piece::new(color, kind))
}

/// The board byte of a piece (for writers of test files).
///
/// ```
/// use chuhan_engine::core::{Color, Piece, PieceKind};
/// use chuhan_engine::notation::ccbridge::piece_byte;
/// assert_eq!(piece_byte(Piece::new(Color::Black, PieceKind::King)), 0x25);
/// ```
pub fn piece_byte(p: Piece) -> u8 {
    let kind = match p.kind {
        PieceKind::Rook => 1,
        PieceKind::Horse => 2,
        PieceKind::Elephant => 3,
        PieceKind::Advisor => 4,
        PieceKind::King => 5,
        PieceKind::Cannon => 6,
        PieceKind::Pawn => 7,
    };
    let color = if p.color == Color::Red { 0x10 } else { 0x20 };
    color | kind
}

/// The board index (row × 9 + file, row 0 = rank 9) of a square.
///
/// ```
/// use chuhan_engine::core::Square;
/// use chuhan_engine::notation::ccbridge::board_index;
/// assert_eq!(board_index(Square::A9), 0);
/// assert_eq!(board_index(Square::I0), 89);
/// ```
pub fn board_index(sq: Square) -> u8 {
    (9 - sq.rank().index() as u8) * 9 + sq.file().index() as u8
}

fn square(index: u8) -> Result<Square, u8> {
    if index >= 90 {
        return Err(index);
    }
    let (row, file) = (index / 9, index % 9);
    Ok(Square::ALL[((9 - row) * 9 + file) as usize])
}

/// Why a CCBridge record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CcbridgeError {
    /// Shorter than a header.
    TooShort {
        /// The length.
        len: usize,
    },
    /// Neither magic.
    NotCcbridge,
    /// A board byte that is no piece.
    BadPiece {
        /// Its offset.
        offset: usize,
        /// Its value.
        value: u8,
    },
    /// The board is not a legal position.
    BadPosition(FenError),
    /// A record runs past the end of the data (strict reading only).
    Truncated {
        /// Offset of the cut record.
        offset: usize,
    },
    /// The move tree cannot be played: a point off the board or an illegal move
    /// (strict reading only), or variations nested too deep (any reading).
    Moves(TreeError),
}

impl fmt::Display for CcbridgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CCBridge: ")?;
        match self {
            CcbridgeError::TooShort { len } => write!(
                f,
                "the record has {len} bytes, fewer than the {HEADER_LEN} of a header"
            ),
            CcbridgeError::NotCcbridge => f.write_str("not a CCBridge record or library"),
            CcbridgeError::BadPiece { offset, value } => {
                write!(f, "board byte {value:#04x} at offset {offset} is no piece")
            }
            CcbridgeError::BadPosition(e) => write!(f, "the board: {e}"),
            CcbridgeError::Truncated { offset } => {
                write!(f, "the record is cut short at offset {offset:#x}")
            }
            CcbridgeError::Moves(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CcbridgeError {}

impl From<TreeError> for CcbridgeError {
    fn from(e: TreeError) -> CcbridgeError {
        CcbridgeError::Moves(e)
    }
}

/// True if `bytes` start like a CCBridge game or library.
pub fn is_ccbridge(bytes: &[u8]) -> bool {
    bytes.starts_with(RECORD_MAGIC) || bytes.starts_with(LIBRARY_MAGIC)
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// A zero-ended UTF-16LE string field.
fn text(h: &[u8], at: usize, len: usize) -> String {
    decode_utf16le(&h[at..at + len]).trim().to_string()
}

/// Reads the move records of a body from `at`.
fn read_moves(
    b: &[u8],
    mut at: usize,
    root_comment: Option<String>,
    validation: Validation,
    warnings: &mut Vec<Warning>,
) -> Result<TreeBuilder, CcbridgeError> {
    let first = b.get(at..at + 4).is_some_and(|r| r != [0, 0, 0, 0]);
    let mut tree = TreeBuilder::new(root_comment, first);
    while tree.wants_more() {
        let start = at;
        let truncated = |warnings: &mut Vec<Warning>| match validation {
            Validation::Strict => Err(CcbridgeError::Truncated { offset: start }),
            Validation::Lenient => {
                warnings.push(Warning::Truncated { offset: start });
                Ok(())
            }
        };
        let Some(r) = b.get(at..at + 4) else {
            truncated(warnings)?;
            break;
        };
        if r == [0, 0, 0, 0] {
            break;
        }
        let (flags, from, to) = (r[0], r[2], r[3]);
        at += 4;
        let mut comment = None;
        if flags & 0x04 != 0 {
            let len = u32_at(b, at).map(|l| l as usize);
            let Some(len) = len.filter(|&l| l <= MAX_COMMENT && at + 4 + l <= b.len()) else {
                truncated(warnings)?;
                break;
            };
            let t = decode_utf16le(&b[at + 4..at + 4 + len]).trim().to_string();
            comment = (!t.is_empty()).then_some(t);
            at += 4 + len;
        }
        tree.push(
            TreeNode::new(square(from), square(to), comment),
            flags & 0x01 == 0,
            flags & 0x02 != 0,
        );
    }
    Ok(tree)
}

/// Reads one game (`.cbr`, or one game of a library).
pub fn read_game(b: &[u8], validation: Validation) -> Result<Game, CcbridgeError> {
    if b.len() < HEADER_LEN {
        return Err(CcbridgeError::TooShort { len: b.len() });
    }
    if !b.starts_with(RECORD_MAGIC) {
        return Err(CcbridgeError::NotCcbridge);
    }
    let mut board = [None; 90];
    for i in 0..90 {
        let v = b[offset::BOARD + i];
        if v == 0 {
            continue;
        }
        let p = piece(v).ok_or(CcbridgeError::BadPiece {
            offset: offset::BOARD + i,
            value: v,
        })?;
        let sq = square(i as u8).expect("below 90");
        board[sq.index()] = Some(p);
    }
    let side = if u16::from_le_bytes([b[offset::SIDE], b[offset::SIDE + 1]]) == 1 {
        Color::Red
    } else {
        Color::Black
    };
    let setup = Setup {
        board,
        side,
        rule60: 0,
        fullmove: 1,
    };
    let mut warnings = Vec::new();
    let (start, notes) =
        Position::from_setup_with(&setup, validation).map_err(CcbridgeError::BadPosition)?;
    warnings.extend(notes.into_iter().map(Warning::Position));
    // The opening comment.
    let mut at = HEADER_LEN;
    let mut root_comment = None;
    if u32_at(b, at).is_some_and(|f| f != 0) {
        match u32_at(b, at + 4).map(|l| l as usize) {
            Some(len) if len <= MAX_COMMENT && at + 8 + len <= b.len() => {
                let t = decode_utf16le(&b[at + 8..at + 8 + len]).trim().to_string();
                root_comment = (!t.is_empty()).then_some(t);
                at += 8 + len;
            }
            _ if validation == Validation::Strict => {
                return Err(CcbridgeError::Truncated { offset: at });
            }
            _ => {
                warnings.push(Warning::Truncated { offset: at });
                at = b.len();
            }
        }
    } else {
        at += 4;
    }
    let tree = read_moves(b, at, root_comment, validation, &mut warnings)?;
    let mut game = Game::new(start);
    game.line = tree.line(&game.start, validation, &mut warnings)?;
    game.result = match b[offset::RESULT] {
        1 => Some(GameResult::RedWins),
        2 => Some(GameResult::BlackWins),
        3 | 4 => Some(GameResult::Draw),
        _ => None,
    };
    let title = text(b, offset::TITLE, 128);
    let event = text(b, offset::EVENT, 64);
    for (k, v) in [
        (
            "Event",
            if event.is_empty() {
                title.clone()
            } else {
                event
            },
        ),
        ("Title", title),
        ("Red", text(b, offset::RED, 64)),
        ("Black", text(b, offset::BLACK, 64)),
    ] {
        if !v.is_empty() {
            game.tags.push((k.to_string(), v));
        }
    }
    game.warnings = warnings;
    Ok(game)
}

/// Reads every game of a CCBridge file: one for a `.cbr`, each game of a `.cbl`
/// in order (a broken game gives an error in its place).
pub fn read_all(b: &[u8], validation: Validation) -> Vec<Result<Game, CcbridgeError>> {
    if !b.starts_with(LIBRARY_MAGIC) {
        return vec![read_game(b, validation)];
    }
    if b.len() < offset::LIBRARY_HEADER {
        return vec![Err(CcbridgeError::TooShort { len: b.len() })];
    }
    let Some(first) = b[offset::LIBRARY_HEADER..]
        .windows(RECORD_MAGIC.len())
        .position(|w| w == RECORD_MAGIC)
        .map(|p| p + offset::LIBRARY_HEADER)
    else {
        return Vec::new();
    };
    (first..b.len())
        .step_by(BLOCK)
        .filter(|&at| b[at..].starts_with(RECORD_MAGIC) && !is_heading(&b[at..]))
        .map(|at| read_game(&b[at..], validation))
        .collect()
}

/// True for a library entry with an empty board: a section heading (its title
/// names the games that follow, e.g. 男子组20局), not a game.
fn is_heading(b: &[u8]) -> bool {
    b.get(offset::BOARD..offset::BOARD + 90)
        .is_some_and(|board| board.iter().all(|&v| v == 0))
}

/// The name of a library (`.cbl`), if `b` is one.
pub fn library_name(b: &[u8]) -> Option<String> {
    if !b.starts_with(LIBRARY_MAGIC) || b.len() < offset::LIBRARY_HEADER {
        return None;
    }
    Some(text(b, offset::LIBRARY_NAME, 512))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Move, START_FEN, Setup};

    /// UTF-16LE bytes of `s`.
    fn utf16(s: &str) -> Vec<u8> {
        s.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    /// A game header on the position of `fen` with `title` and `result`.
    fn header(fen: &str, title: &str, result: u8) -> Vec<u8> {
        let setup = Setup::parse(fen).unwrap();
        let mut b = vec![0u8; HEADER_LEN];
        b[..16].copy_from_slice(RECORD_MAGIC);
        let t = utf16(title);
        b[offset::TITLE..offset::TITLE + t.len()].copy_from_slice(&t);
        b[offset::RESULT] = result;
        b[offset::SIDE] = u8::from(setup.side == Color::Red);
        for sq in Square::ALL {
            if let Some(p) = setup.board[sq.index()] {
                b[offset::BOARD + board_index(sq) as usize] = piece_byte(p);
            }
        }
        b
    }

    /// One move record: `flags`, the move, and a comment if any.
    fn record(flags: u8, mv: &str, comment: Option<&str>) -> Vec<u8> {
        let m: Move = mv.parse().unwrap();
        let mut r = vec![
            flags | if comment.is_some() { 0x04 } else { 0 },
            0,
            board_index(m.from()),
            board_index(m.to()),
        ];
        if let Some(c) = comment {
            let t = utf16(c);
            r.extend_from_slice(&(t.len() as u32).to_le_bytes());
            r.extend_from_slice(&t);
        }
        r
    }

    /// h2e2 (alternative b2e2 h7e7), h9g7 (comment), h0g2: main line of three
    /// moves, one variation of two, an opening comment.
    fn sample() -> Vec<u8> {
        let mut b = header(START_FEN, "測試", 1);
        let opening = utf16("開局");
        b.extend_from_slice(&1u32.to_le_bytes());
        b.extend_from_slice(&(opening.len() as u32).to_le_bytes());
        b.extend_from_slice(&opening);
        b.extend(record(0x02, "h2e2", None));
        b.extend(record(0, "h9g7", Some("馬８進７")));
        b.extend(record(0x01, "h0g2", None));
        b.extend(record(0, "b2e2", None));
        b.extend(record(0x01, "h7e7", None));
        b.extend_from_slice(&[0, 0, 0, 0]);
        b
    }

    #[test]
    fn a_game_with_a_variation_and_comments() {
        let g = read_game(&sample(), Validation::Strict).unwrap();
        let moves: Vec<String> = g.moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(g.line.comment.as_deref(), Some("開局"));
        assert_eq!(g.line.nodes[1].comment.as_deref(), Some("馬８進７"));
        let var = &g.line.nodes[0].variations;
        assert_eq!(var.len(), 1);
        assert_eq!(var[0].moves().len(), 2);
        assert_eq!(g.tag("Title"), Some("測試"));
        assert_eq!(g.result, Some(GameResult::RedWins));
        assert!(g.warnings.is_empty());
    }

    #[test]
    fn a_bad_move_keeps_the_prefix_unless_strict() {
        let mut b = header(START_FEN, "", 0);
        b.extend_from_slice(&0u32.to_le_bytes());
        b.extend(record(0, "h2e2", None));
        b.extend(record(0, "h9g7", None));
        b.extend(record(0x01, "a0a5", None));
        let g = read_game(&b, Validation::Lenient).unwrap();
        assert_eq!(g.moves().len(), 2);
        assert!(matches!(g.warnings[..], [Warning::BadMove { ply: 3, .. }]));
        assert!(g.warnings[0].to_string().starts_with("ply 3: "));
        assert!(matches!(
            read_game(&b, Validation::Strict),
            Err(CcbridgeError::Moves(TreeError::IllegalMove { ply: 3, .. }))
        ));
    }

    #[test]
    fn damaged_records_never_panic() {
        let good = sample();
        for cut in 0..good.len() {
            let _ = read_all(&good[..cut], Validation::Lenient);
            let _ = read_all(&good[..cut], Validation::Strict);
        }
        let mut rng = crate::core::SplitMix64::new(7);
        for _ in 0..2000 {
            let mut b = good.clone();
            for _ in 0..4 {
                let i = (rng.next_u64() as usize) % b.len();
                b[i] = rng.next_u64() as u8;
            }
            let _ = read_all(&b, Validation::Lenient);
        }
    }

    #[test]
    fn a_library_holds_games_on_block_boundaries() {
        let mut lib = vec![0u8; offset::LIBRARY_HEADER + 100];
        lib[..16].copy_from_slice(LIBRARY_MAGIC);
        let name = utf16("棋譜庫");
        lib[offset::LIBRARY_NAME..offset::LIBRARY_NAME + name.len()].copy_from_slice(&name);
        for i in 0..4 {
            let mut g = if i == 0 {
                header("9/9/9/9/9/9/9/9/9/9 w", "第一組", 0)
            } else {
                sample()
            };
            g.resize(BLOCK, 0);
            lib.extend(g);
        }
        let games = read_all(&lib, Validation::Strict);
        assert_eq!(games.len(), 3);
        assert!(games.iter().all(|g| g.as_ref().unwrap().moves().len() == 3));
        assert_eq!(library_name(&lib).as_deref(), Some("棋譜庫"));
    }
}
