//! Opening books: Chuhan's own format (binary, and a text form for review), read-only
//! ElephantEye `BOOK.DAT`, probing and move choice for the engine, and a builder
//! from game records ([`crate::notation::Game`]s, read from any record file by
//! [`crate::notation::record::read_items`]).
//!
//! The engine's path: the facade ([`crate::engine::Engine`]) loads the books its
//! `BookFiles` option names with [`BookSet::load`] (the [`builtin`] book, files
//! found by [`locate`], formats recognised by content); per `go` it calls
//! [`BookSet::pick`]: [`BookSet::candidates`] (legal, not banned, not repeating a
//! position) and [`choose`] by the book randomness. The search never sees a book.
//!
//! ```
//! use chuhan_engine::book::{Book, BookAssembler, BookMove, BookSet, Randomness};
//! use chuhan_engine::core::Position;
//! use rand::{SeedableRng, rngs::SmallRng};
//!
//! let start = Position::startpos();
//! let mut asm = BookAssembler::new();
//! for (mv, weight) in [("h2e2", 90), ("c3c4", 30)] {
//!     asm.add(&start, BookMove { mv: mv.parse().unwrap(), weight, wdl: None }).unwrap();
//! }
//! let bytes = asm.finish().to_bytes(); // what `chuhan book compile` writes
//! let mut books = BookSet::new();
//! books.push(Book::from_bytes(&bytes).unwrap());
//! let mut rng = SmallRng::seed_from_u64(7);
//! let pick = books.pick(&start, &[], Randomness::None, &mut rng).unwrap();
//! assert_eq!(pick.mv.to_string(), "h2e2");
//! ```

pub mod builder;
pub mod builtin;
mod choice;
pub mod eleeye;
mod entry;
mod error;
mod fold;
mod format;
mod index;
pub mod locate;
pub mod own;
mod packed;
pub mod params;
mod playable;
mod set;
pub mod text;

pub use builder::{BookBuilder, BuildOptions};
pub use choice::{ParseRandomnessError, Randomness, choose};
pub use eleeye::EleeyeBook;
pub use entry::{BookMove, Wdl};
pub use error::{BookError, Corruption};
pub use fold::{Fold, fold, mirror_key};
pub use own::{BookAssembler, EntryError, OwnBook};
pub use playable::{key_after, repeats, retain_playable};
pub use set::{BookSet, LoadFailure, split_list};

use crate::core::Position;
use std::fmt;
use std::path::Path;

/// The file formats [`Book::from_bytes`] recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BookFormat {
    /// Chuhan's binary book (magic `CHUHANBK`).
    Chuhan,
    /// Chuhan's text form (UTF-8 lines `BOARD SIDE MOVE WEIGHT [W D L]`).
    ChuhanText,
    /// ElephantEye's `BOOK.DAT`.
    ElephantEye,
}

impl fmt::Display for BookFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BookFormat::Chuhan => "Chuhan book",
            BookFormat::ChuhanText => "Chuhan text book",
            BookFormat::ElephantEye => "ElephantEye BOOK.DAT",
        })
    }
}

/// A loaded opening book of any supported format.
#[derive(Clone, Debug)]
pub enum Book {
    /// From a Chuhan binary file.
    Chuhan(OwnBook),
    /// From a Chuhan text file (compiled in memory when loaded).
    ChuhanText(OwnBook),
    /// From an ElephantEye `BOOK.DAT`.
    ElephantEye(EleeyeBook),
}

impl Book {
    /// Reads and recognises a book file.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        Book::from_bytes(&crate::data_file::read(
            path,
            crate::data_file::MAX_BOOK_BYTES,
        )?)
    }

    /// Recognises a book by its content: the `CHUHANBK` magic, else UTF-8 text
    /// without NUL bytes (Chuhan's text form), else a `BOOK.DAT` image. A file that
    /// is none of them gives [`BookError::UnknownFormat`]; a recognised but damaged
    /// one a specific error.
    pub fn from_bytes(data: &[u8]) -> Result<Book, BookError> {
        if data.is_empty() {
            return Err(BookError::Empty);
        }
        if data.starts_with(&own::MAGIC) {
            return OwnBook::from_bytes(data).map(Book::Chuhan);
        }
        if data.len() < own::MAGIC.len() && own::MAGIC.starts_with(data) {
            return Err(BookError::Truncated {
                expected: own::MAGIC.len() as u64,
                actual: data.len() as u64,
            });
        }
        if let Ok(text) = std::str::from_utf8(data)
            && !text.contains('\0')
        {
            return Ok(Book::ChuhanText(text::parse(text)?));
        }
        let whole = data.len() - data.len() % 8;
        match EleeyeBook::from_bytes(&data[..whole]) {
            Ok(book) if whole == data.len() => Ok(Book::ElephantEye(book)),
            Ok(_) => Err(BookError::Truncated {
                expected: whole as u64 + 8,
                actual: data.len() as u64,
            }),
            Err(BookError::Corrupt { offset, reason }) => {
                Err(BookError::UnknownFormat { offset, reason })
            }
            Err(_) => Err(BookError::UnknownFormat {
                offset: 0,
                reason: Corruption::RecordSize,
            }),
        }
    }

    /// The file format the book came from.
    pub fn format(&self) -> BookFormat {
        match self {
            Book::Chuhan(_) => BookFormat::Chuhan,
            Book::ChuhanText(_) => BookFormat::ChuhanText,
            Book::ElephantEye(_) => BookFormat::ElephantEye,
        }
    }

    /// Number of entries (moves, or `BOOK.DAT` records).
    pub fn len(&self) -> usize {
        match self {
            Book::Chuhan(b) | Book::ChuhanText(b) => b.move_count(),
            Book::ElephantEye(b) => b.len(),
        }
    }

    /// True if the book has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Chuhan's book, if this is one (binary or text).
    pub fn own(&self) -> Option<&OwnBook> {
        match self {
            Book::Chuhan(b) | Book::ChuhanText(b) => Some(b),
            Book::ElephantEye(_) => None,
        }
    }

    /// The book's legal moves for `pos`, heaviest first, found whether the book
    /// filed the position or its mirror image. Banned and repeating moves are not filtered here: see
    /// [`retain_playable`] and [`BookSet::candidates`].
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        match self {
            Book::Chuhan(b) | Book::ChuhanText(b) => b.probe(pos),
            Book::ElephantEye(b) => b.probe(pos),
        }
    }
}
