//! Reading a file the user named (a book, a game record, a net): only a regular
//! file of bounded size is read. A named pipe would block the reader until some
//! writer comes (the daemon would stop answering), and a device such as
//! `/dev/zero` never ends; both, directories and files over the limit are refused
//! with one clear error before anything is read.
//!
//! The errors are [`std::io::Error`]s (so that callers keep their I/O error paths)
//! carrying a [`DataFileError`], which [`DataFileError::of`] finds again.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Largest opening book read (a ten-million-position Chuhan book is about 160 MB).
pub const MAX_BOOK_BYTES: u64 = 1 << 30;
/// Largest net file read (a net of the largest architecture is well under 100 MB).
pub const MAX_NET_BYTES: u64 = 1 << 30;
/// Largest game-record file read (PGN collections, XQF, CCBridge libraries).
pub const MAX_RECORD_BYTES: u64 = 512 << 20;

/// Why a file was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataFileError {
    /// The path names something other than a regular file.
    NotRegular {
        /// What it is ("a named pipe (FIFO)", "a directory", ...).
        what: &'static str,
    },
    /// The file is larger than the limit.
    TooLarge {
        /// Its size in bytes (at least).
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
}

impl fmt::Display for DataFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataFileError::NotRegular { what } => {
                write!(
                    f,
                    "not a regular file but {what}; only regular files are read"
                )
            }
            DataFileError::TooLarge { size, limit } => write!(
                f,
                "the file has {size} bytes, more than the {limit} read at most"
            ),
        }
    }
}

impl std::error::Error for DataFileError {}

impl DataFileError {
    /// The [`DataFileError`] inside an I/O error from [`read`], if it is one.
    pub fn of(e: &io::Error) -> Option<&DataFileError> {
        e.get_ref()?.downcast_ref()
    }
}

impl From<DataFileError> for io::Error {
    fn from(e: DataFileError) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidInput, e)
    }
}

/// What a non-regular file is, for the error.
fn kind_name(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// Reads the whole of `path` if it is a regular file of at most `limit` bytes.
///
/// ```
/// use chuhan_engine::data_file::{DataFileError, read};
/// let e = read("/dev/zero", 1 << 20).unwrap_err();
/// assert!(matches!(DataFileError::of(&e), Some(DataFileError::NotRegular { .. })));
/// assert!(read("/", 1 << 20).is_err());
/// ```
pub fn read(path: impl AsRef<Path>, limit: u64) -> io::Result<Vec<u8>> {
    let path = path.as_ref();
    // `metadata` does not open the file: opening a FIFO would block.
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(DataFileError::NotRegular {
            what: kind_name(meta.file_type()),
        }
        .into());
    }
    if meta.len() > limit {
        return Err(DataFileError::TooLarge {
            size: meta.len(),
            limit,
        }
        .into());
    }
    let file = File::open(path)?;
    // The file may have been swapped or grown since: read at most one byte more
    // than the limit to know.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(DataFileError::TooLarge {
            size: bytes.len() as u64,
            limit,
        }
        .into());
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_within_the_limit_only() {
        let dir = std::env::temp_dir().join(format!("chuhan-data-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("ten");
        std::fs::write(&f, [7u8; 10]).unwrap();
        assert_eq!(read(&f, 10).unwrap(), vec![7u8; 10]);
        let e = read(&f, 9).unwrap_err();
        assert_eq!(
            DataFileError::of(&e),
            Some(&DataFileError::TooLarge { size: 10, limit: 9 })
        );
        let e = read(&dir, 100).unwrap_err();
        assert_eq!(
            DataFileError::of(&e),
            Some(&DataFileError::NotRegular {
                what: "a directory"
            })
        );
        assert!(e.to_string().contains("only regular files"));
        let e = read(dir.join("missing"), 100).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
