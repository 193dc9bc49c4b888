//! XQF, the game file of XQStudio (象棋演播室): read, every version.
//!
//! Layout (XQF 1.0 spec, xqbase/eleeye `XQFTOOLS/XQF.TXT`; the header struct of
//! `XQFTOOLS/xqffile.h`):
//!
//! * a 0x400-byte header: `XQ`, the version byte (10 = XQF 1.0; 11 and later are
//!   encrypted), the key bytes (3 = mask, 8..11 = "or" keys, 12 = key sum, 13 =
//!   placement key, 14 = move-origin key, 15 = move-target key), 32 bytes of initial
//!   placement at 0x10 (one byte `X*10+Y` per piece, X = file from Red's left, Y =
//!   rank from Red's side, 90 and above = not on the board; order Red R N B A K A B
//!   N R C C P P P P P, then Black the same), the side to move at 0x32, the result
//!   at 0x33 (1 red won, 2 black won, 3 draw), the game type at 0x40, then
//!   length-prefixed GBK strings: title 0x50, event 0xD0, date 0x110, site 0x120,
//!   red 0x130, black 0x140, time rule 0x150, red time 0x190, black time 0x1A0,
//!   annotator 0x1D0, author 0x1E0;
//! * move records from 0x400, the first being an empty root: origin byte
//!   (`X*10+Y + 0x18`), target byte (`+ 0x20`), a tag byte, a reserved byte, and a
//!   comment. Version 10 and older always store a 32-bit little-endian comment
//!   length; tag bits 0xF0 = "a move follows", 0x0F = "a variation follows".
//!   Version 11 and later: 0x80 = a move follows, 0x40 = a variation follows, 0x20 =
//!   a comment length follows. Records are the move tree in preorder: a record's
//!   continuation comes next, then its alternatives.
//!
//! Encryption, versions 11 and later (xqbase/eleeye `XQFTOOLS/xqf2pgn.cpp`, which
//! follows XQStudio's `XQFileRW.pas`; several independent readers agree): with
//! `f(b, s) = (54*b*b + 221) * s mod 256`, the placement key is `f(h13, h13)`, the
//! origin key `f(h14, placement key)`, the target key `f(h15, origin key)`, and the
//! comment-length key `(h12*256 + h13) mod 32000 + 767`. Placement bytes are
//! stored plus the placement key (and from version 12 also rotated: stored byte `i`
//! belongs to piece `(i + placement key + 1) mod 32`). Every byte from 0x400 on is
//! stored plus `K[offset mod 32]`, where `K[i]` = the i-th byte of
//! `"[(C) Copyright Mr. Dong Shiwei.]"` AND `(h[12 + i%4] AND h3) OR h[8 + i%4]`;
//! move squares are further offset by the origin and target keys, comment lengths by
//! the comment-length key.
//!
//! The side to move is that of the piece making the first move (as xqf2pgn does),
//! or the header's side byte when there is no move. The header checksum
//! (`h12+h13+h14+h15 = 0 mod 256`) is not enforced.

use super::charset::decode_gbk;
use super::game::Game;
use super::tree::{TreeBuilder, TreeError, TreeNode};
use super::warning::Warning;
use crate::core::{
    Color, FenError, File, GameResult, Piece, PieceKind, Position, Rank, Setup, Square, Validation,
};
use std::fmt;

/// Size of the header; move records start here.
pub const HEADER_LEN: usize = 0x400;

const KEY_MASK: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// Why an XQF file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XqfError {
    /// Shorter than the header plus the smallest root record.
    TooShort {
        /// The file's length.
        len: usize,
    },
    /// Does not start with `XQ`.
    NotXqf,
    /// Two pieces placed on one point.
    DuplicateSquare(Square),
    /// The placement is not a legal position.
    BadPosition(FenError),
    /// A move record or comment runs past the end of the file.
    Truncated {
        /// Offset of the record or comment that is cut.
        offset: usize,
    },
    /// The move tree cannot be played (a point off the board, an illegal move,
    /// variations nested too deep).
    Moves(TreeError),
}

impl fmt::Display for XqfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("XQF: ")?;
        match self {
            XqfError::TooShort { len } => write!(
                f,
                "the file has {len} bytes, fewer than the {} of a header and a root record",
                HEADER_LEN + 4
            ),
            XqfError::NotXqf => f.write_str("not an XQF file (it does not start with \"XQ\")"),
            XqfError::DuplicateSquare(sq) => write!(f, "two pieces are placed on {sq}"),
            XqfError::BadPosition(e) => write!(f, "the initial placement: {e}"),
            XqfError::Truncated { offset } => {
                write!(
                    f,
                    "the file is cut short in the record at offset {offset:#x}"
                )
            }
            XqfError::Moves(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for XqfError {}

/// The decryption keys of one file (all zero for versions 10 and older).
struct Keys {
    placement: u8,
    origin: u8,
    target: u8,
    comment: i32,
    stream: [u8; 32],
    encrypted: bool,
}

fn derive(b: u8, seed: u8) -> u8 {
    let b = b as u32;
    ((54 * b * b + 221).wrapping_mul(seed as u32) & 0xFF) as u8
}

fn keys(h: &[u8]) -> Keys {
    if h[2] <= 10 {
        return Keys {
            placement: 0,
            origin: 0,
            target: 0,
            comment: 0,
            stream: [0; 32],
            encrypted: false,
        };
    }
    let placement = derive(h[13], h[13]);
    let origin = derive(h[14], placement);
    let target = derive(h[15], origin);
    let comment = (h[12] as i32 * 256 + h[13] as i32) % 32000 + 767;
    let mut stream = [0u8; 32];
    for (i, k) in stream.iter_mut().enumerate() {
        let key = (h[12 + i % 4] & h[3]) | h[8 + i % 4];
        *k = KEY_MASK[i] & key;
    }
    Keys {
        placement,
        origin,
        target,
        comment,
        stream,
        encrypted: true,
    }
}

const PLACEMENT_ORDER: [PieceKind; 16] = {
    use PieceKind::*;
    [
        Rook, Horse, Elephant, Advisor, King, Advisor, Elephant, Horse, Rook, Cannon, Cannon, Pawn,
        Pawn, Pawn, Pawn, Pawn,
    ]
};

/// The point of an XQF coordinate byte `X*10+Y`, if on the board.
fn point(v: u8) -> Option<Square> {
    if v >= 90 {
        return None;
    }
    Some(Square::new(File::new(v / 10)?, Rank::new(v % 10)?))
}

struct Reader<'a> {
    bytes: &'a [u8],
    keys: Keys,
    old: bool,
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize, record: usize) -> Result<Vec<u8>, XqfError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(XqfError::Truncated { offset: record })?;
        let out = (self.at..end)
            .map(|p| self.bytes[p].wrapping_sub(self.keys.stream[p % 32]))
            .collect();
        self.at = end;
        Ok(out)
    }

    /// Reads one record: (origin, target, has continuation, has alternative, comment).
    fn record(&mut self) -> Result<(u8, u8, bool, bool, Option<String>), XqfError> {
        let start = self.at;
        let r = self.take(4, start)?;
        let (next, sibling, len) = if self.old {
            let l = self.take(4, start)?;
            (
                r[2] & 0xF0 != 0,
                r[2] & 0x0F != 0,
                i32::from_le_bytes([l[0], l[1], l[2], l[3]]) as i64,
            )
        } else {
            let len = if r[2] & 0x20 != 0 {
                let l = self.take(4, start)?;
                i32::from_le_bytes([l[0], l[1], l[2], l[3]]) as i64 - self.keys.comment as i64
            } else {
                0
            };
            (r[2] & 0x80 != 0, r[2] & 0x40 != 0, len)
        };
        let comment = if len > 0 {
            let text = self.take(len as usize, start)?;
            let s = decode_gbk(&text).trim_end_matches('\0').trim().to_string();
            (!s.is_empty()).then_some(s)
        } else {
            None
        };
        let origin = r[0].wrapping_sub(0x18).wrapping_sub(self.keys.origin);
        let target = r[1].wrapping_sub(0x20).wrapping_sub(self.keys.target);
        Ok((origin, target, next, sibling, comment))
    }
}

/// A length-prefixed GBK string of at most `size` bytes (length byte included).
fn header_string(h: &[u8], at: usize, size: usize) -> String {
    let len = (h[at] as usize).min(size - 1);
    decode_gbk(&h[at + 1..at + 1 + len])
        .trim_end_matches('\0')
        .trim()
        .to_string()
}

impl From<TreeError> for XqfError {
    fn from(e: TreeError) -> XqfError {
        XqfError::Moves(e)
    }
}

/// Reads an XQF file strictly: any move that cannot be played, a cut record or a
/// composed start position refuses the whole file.
///
/// ```
/// use chuhan_engine::notation::xqf::{self, XqfError};
/// assert_eq!(xqf::read(b"XQ"), Err(XqfError::TooShort { len: 2 }));
/// let bytes = vec![0u8; 0x408];
/// assert_eq!(xqf::read(&bytes), Err(XqfError::NotXqf));
/// ```
pub fn read(bytes: &[u8]) -> Result<Game, XqfError> {
    read_with(bytes, Validation::Strict)
}

/// Reads an XQF file. [`Validation::Lenient`] keeps a line up to a move that
/// cannot be played, the moves before a cut record and a composed start position,
/// each with a [`Warning`] in [`Game::warnings`].
pub fn read_with(bytes: &[u8], validation: Validation) -> Result<Game, XqfError> {
    if bytes.len() < HEADER_LEN + 4 {
        return Err(XqfError::TooShort { len: bytes.len() });
    }
    let h = &bytes[..HEADER_LEN];
    if &h[..2] != b"XQ" {
        return Err(XqfError::NotXqf);
    }
    let version = h[2];
    let keys = keys(h);

    // Placement.
    let mut raw = [0u8; 32];
    raw.copy_from_slice(&h[0x10..0x30]);
    if version >= 12 {
        let mut rotated = [0u8; 32];
        for (i, &b) in raw.iter().enumerate() {
            rotated[(i + keys.placement as usize + 1) % 32] = b;
        }
        raw = rotated;
    }
    let mut board = [None; 90];
    for (i, &b) in raw.iter().enumerate() {
        let v = b.wrapping_sub(keys.placement);
        let Some(sq) = point(v) else { continue };
        let color = if i < 16 { Color::Red } else { Color::Black };
        let piece = Piece::new(color, PLACEMENT_ORDER[i % 16]);
        if board[sq.index()].is_some() {
            return Err(XqfError::DuplicateSquare(sq));
        }
        board[sq.index()] = Some(piece);
    }

    // Moves.
    let mut reader = Reader {
        bytes,
        old: !keys.encrypted,
        keys,
        at: HEADER_LEN,
    };
    let mut warnings = Vec::new();
    let (_, _, root_next, _, root_comment) = reader.record()?;
    let mut tree = TreeBuilder::new(root_comment, root_next);
    while tree.wants_more() {
        match reader.record() {
            Ok((origin, target, next, sibling, comment)) => tree.push(
                TreeNode::new(
                    point(origin).ok_or(origin),
                    point(target).ok_or(target),
                    comment,
                ),
                next,
                sibling,
            ),
            Err(XqfError::Truncated { offset }) if validation == Validation::Lenient => {
                warnings.push(Warning::Truncated { offset });
                break;
            }
            Err(e) => return Err(e),
        }
    }
    let side = match tree.first_from() {
        Some(sq) => board[sq.index()].map_or(Color::Red, |p| p.color),
        None if h[0x32] == 1 => Color::Black,
        None => Color::Red,
    };
    let setup = Setup {
        board,
        side,
        rule60: 0,
        fullmove: 1,
    };
    let (start, notes) =
        Position::from_setup_with(&setup, validation).map_err(XqfError::BadPosition)?;
    warnings.extend(notes.into_iter().map(Warning::Position));
    let mut game = Game::new(start);
    game.result = match h[0x33] {
        1 => Some(GameResult::RedWins),
        2 => Some(GameResult::BlackWins),
        3 => Some(GameResult::Draw),
        _ => None,
    };
    let title = header_string(h, 0x50, 64);
    let event = header_string(h, 0xD0, 64);
    let fields = [
        (
            "Event",
            if event.is_empty() {
                title.clone()
            } else {
                event
            },
        ),
        ("Title", title),
        ("Date", header_string(h, 0x110, 16)),
        ("Site", header_string(h, 0x120, 16)),
        ("Red", header_string(h, 0x130, 16)),
        ("Black", header_string(h, 0x140, 16)),
        ("TimeControl", header_string(h, 0x150, 64)),
        ("RedTime", header_string(h, 0x190, 16)),
        ("BlackTime", header_string(h, 0x1A0, 16)),
        ("Annotator", header_string(h, 0x1D0, 16)),
        ("Author", header_string(h, 0x1E0, 16)),
    ];
    for (k, v) in fields {
        if !v.is_empty() {
            game.tags.push((k.to_string(), v));
        }
    }
    game.line = tree.line(&game.start, validation, &mut warnings)?;
    game.warnings = warnings;
    Ok(game)
}
