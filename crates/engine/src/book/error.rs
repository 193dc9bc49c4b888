//! The book errors: [`BookError`] (why a book file could not be loaded), and the
//! errors of its parts: [`EntryError`] (an entry the assembler refused) and
//! [`TextError`] (a bad line of a text book).

use crate::core::{FenError, Move, ParseMoveError};
use std::fmt;
use std::io;

/// What is wrong inside a book file whose format was recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corruption {
    /// The file does not start with the format's magic bytes.
    Magic,
    /// Header flags or reserved fields this version does not define.
    HeaderFields,
    /// Bytes after the last record the header announces.
    TrailingBytes,
    /// The checksum in the header does not match the records.
    Checksum,
    /// The per-position move counts do not add up to the header's move count, or a
    /// position has no moves.
    MoveCount,
    /// Keys not strictly ascending (the binary search needs them sorted).
    KeyOrder,
    /// A stored board is not a legal position.
    Board,
    /// A stored key is not the key of its board, or not its folded (smaller) key.
    Key,
    /// A move is not a legal move of its position (or not a move at all).
    Move,
    /// A move record's flags are undefined, or statistics are set on a move whose
    /// flags say it has none.
    MoveFlags,
    /// A position's moves are not in canonical order (heaviest first, then by move),
    /// or one is listed twice.
    MoveOrder,
    /// The file size is not a multiple of the record size.
    RecordSize,
}

impl fmt::Display for Corruption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Corruption::Magic => "no CHUHANBK magic",
            Corruption::HeaderFields => "undefined header flags or reserved fields",
            Corruption::TrailingBytes => "extra bytes after the last record",
            Corruption::Checksum => "checksum mismatch",
            Corruption::MoveCount => "move counts do not add up",
            Corruption::KeyOrder => "keys out of order",
            Corruption::Board => "invalid board",
            Corruption::Key => "key does not match its board",
            Corruption::Move => "invalid or illegal move",
            Corruption::MoveFlags => "invalid move flags",
            Corruption::MoveOrder => "moves out of canonical order or repeated",
            Corruption::RecordSize => "size is not a whole number of records",
        })
    }
}

/// Why a book could not be loaded. Every malformed input gives one of these; none
/// panics.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be read.
    Io(io::Error),
    /// The file is empty.
    Empty,
    /// Not a book of the expected format (from [`super::Book::from_bytes`]: neither a
    /// Chuhan book, binary or text, nor an ElephantEye `BOOK.DAT`, with the reason
    /// it is not the last candidate).
    UnknownFormat {
        /// Byte offset of the first thing that is not ElephantEye book data.
        offset: u64,
        /// What was wrong there.
        reason: Corruption,
    },
    /// A Chuhan binary book of a version this build does not read.
    UnsupportedVersion(u16),
    /// The file ends before the data its format requires.
    Truncated {
        /// Bytes the format requires.
        expected: u64,
        /// Bytes present.
        actual: u64,
    },
    /// The format was recognised but the data is damaged.
    Corrupt {
        /// Byte offset of the damaged field.
        offset: u64,
        /// What is wrong.
        reason: Corruption,
    },
    /// A Chuhan text book with a bad line.
    Text(TextError),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "cannot read the book: {e}"),
            BookError::Empty => f.write_str("the book file is empty"),
            BookError::UnknownFormat { offset, reason } => write!(
                f,
                "not a book (Chuhan binary or text, or ElephantEye BOOK.DAT): \
                 {reason} at byte {offset}"
            ),
            BookError::UnsupportedVersion(v) => write!(
                f,
                "Chuhan book format version {v} is not supported (this build reads version {})",
                super::format::VERSION
            ),
            BookError::Truncated { expected, actual } => write!(
                f,
                "the book is truncated: {actual} bytes, expected {expected}"
            ),
            BookError::Corrupt { offset, reason } => {
                write!(f, "the book is corrupt: {reason} at byte {offset}")
            }
            BookError::Text(e) => write!(f, "bad text book: {e}"),
        }
    }
}

impl std::error::Error for BookError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BookError::Io(e) => Some(e),
            BookError::Text(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for BookError {
    fn from(e: io::Error) -> BookError {
        BookError::Io(e)
    }
}

impl From<TextError> for BookError {
    fn from(e: TextError) -> BookError {
        BookError::Text(e)
    }
}

/// Why [`BookAssembler::add`](super::BookAssembler::add) refused an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryError {
    /// The move is not legal in the position.
    IllegalMove(Move),
    /// The position (or its mirror image) already has this move.
    DuplicateMove(Move),
    /// A different position has the same 64-bit key (astronomically rare; reported
    /// rather than silently merged).
    KeyCollision,
}

impl fmt::Display for EntryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntryError::IllegalMove(m) => write!(f, "{m} is not a legal move in this position"),
            EntryError::DuplicateMove(m) => write!(
                f,
                "{m} is already in the book for this position (or its mirror image)"
            ),
            EntryError::KeyCollision => {
                f.write_str("another position in the book has the same Zobrist key")
            }
        }
    }
}

impl std::error::Error for EntryError {}

/// What is wrong with a line of a text book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextErrorKind {
    /// Not `BOARD SIDE MOVE WEIGHT` optionally followed by three counts.
    Fields(usize),
    /// The position is not valid FEN.
    Fen(FenError),
    /// The move is not ICCS.
    Move(ParseMoveError),
    /// A weight or count is not a non-negative 32-bit integer.
    Number(String),
    /// The entry was refused (illegal, duplicate, key collision).
    Entry(EntryError),
}

/// A bad line of a text book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: TextErrorKind,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            TextErrorKind::Fields(n) => write!(
                f,
                "{n} fields; expected BOARD SIDE MOVE WEIGHT [WINS DRAWS LOSSES]"
            ),
            TextErrorKind::Fen(e) => write!(f, "{e}"),
            TextErrorKind::Move(e) => write!(f, "{e}"),
            TextErrorKind::Number(s) => write!(
                f,
                "{} is not a count (0 to 4294967295)",
                crate::echo::echo(s)
            ),
            TextErrorKind::Entry(e) => write!(f, "{e}"),
        }
    }
}
