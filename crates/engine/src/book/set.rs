//! [`BookSet`]: the books named by the engine's `bookfiles` option, consulted in
//! order.

use super::builtin::{BUILTIN_NAME, builtin};
use super::choice::{Randomness, choose};
use super::entry::BookMove;
use super::locate::locate;
use super::playable::retain_playable;
use super::{Book, BookError};
use crate::core::{Move, Position};
use rand::Rng;
use std::fmt;
use std::path::Path;

/// Splits a `bookfiles` value (`;`-separated paths) into its non-empty paths.
///
/// ```
/// let paths: Vec<&str> = chuhan_engine::book::split_list("books/chuhan.book; BOOK.DAT;;").collect();
/// assert_eq!(paths, ["books/chuhan.book", "BOOK.DAT"]);
/// ```
pub fn split_list(list: &str) -> impl Iterator<Item = &str> {
    list.split(';').map(str::trim).filter(|s| !s.is_empty())
}

/// A book of a `bookfiles` list that could not be loaded.
#[derive(Debug)]
pub struct LoadFailure {
    /// The name as the list gives it.
    pub name: String,
    /// Why it could not be loaded.
    pub error: BookError,
}

impl fmt::Display for LoadFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "book {}: {}; playing on without it",
            self.name, self.error
        )
    }
}

impl std::error::Error for LoadFailure {}

/// Several books consulted in order: the first book that has a playable move with a
/// positive weight for the position answers alone (weights of different books are
/// not on one scale, so they are never mixed).
#[derive(Clone, Debug, Default)]
pub struct BookSet {
    books: Vec<Book>,
}

impl BookSet {
    /// No books.
    pub fn new() -> BookSet {
        BookSet::default()
    }

    /// Loads the books of a `bookfiles` list (`;`-separated): [`BUILTIN_NAME`] is the
    /// built-in book, other names are files found by [`locate`] with `engine_dir`.
    /// Books that cannot be loaded are left out and come back as failures, one each.
    pub fn load(list: &str, engine_dir: Option<&Path>) -> (BookSet, Vec<LoadFailure>) {
        let mut set = BookSet::new();
        let mut failures = Vec::new();
        for name in split_list(list) {
            let book = if name == BUILTIN_NAME {
                builtin()
            } else {
                Book::open(locate(name, engine_dir))
            };
            match book {
                Ok(b) => set.push(b),
                Err(error) => failures.push(LoadFailure {
                    name: name.to_string(),
                    error,
                }),
            }
        }
        (set, failures)
    }

    /// Appends a book (consulted after those already present).
    pub fn push(&mut self, book: Book) {
        self.books.push(book);
    }

    /// The books, in the order they are consulted.
    pub fn books(&self) -> &[Book] {
        &self.books
    }

    /// Number of books.
    pub fn len(&self) -> usize {
        self.books.len()
    }

    /// True if there are no books.
    pub fn is_empty(&self) -> bool {
        self.books.is_empty()
    }

    /// The playable book moves for `pos` (legal, not in `banned`, not repeating a
    /// position of `pos`'s history) from the first book that has one with a positive
    /// weight, heaviest first; empty if no book does. The engine reports these as
    /// `info depth 0 score <weight> pv <move>`.
    pub fn candidates(&self, pos: &Position, banned: &[Move]) -> Vec<BookMove> {
        for book in &self.books {
            let mut moves = book.probe(pos);
            retain_playable(pos, &mut moves, banned);
            if moves.iter().any(|b| b.weight > 0) {
                return moves;
            }
        }
        Vec::new()
    }

    /// The book move to play in `pos`, if any: [`BookSet::candidates`] then
    /// [`choose`].
    pub fn pick<R: Rng + ?Sized>(
        &self,
        pos: &Position,
        banned: &[Move],
        randomness: Randomness,
        rng: &mut R,
    ) -> Option<BookMove> {
        choose(&self.candidates(pos, banned), randomness, rng)
    }
}
