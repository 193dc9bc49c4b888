//! Where a book file named in `bookfiles` is looked for, as ElephantEye's
//! `LocatePath` does: an absolute path is used as it is; a relative one is taken
//! relative to the directory of the engine's executable, and, if no file is there,
//! relative to the current directory.

use std::path::{Path, PathBuf};

/// The directory of the running executable, if the system says.
pub fn engine_dir() -> Option<PathBuf> {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
}

/// The file `name` stands for, with `engine_dir` the executable's directory.
///
/// ```
/// use chuhan_engine::book::locate::locate;
/// use std::path::Path;
/// let dir = std::env::temp_dir();
/// std::fs::write(dir.join("chuhan-locate-doctest.book"), b"x").unwrap();
/// assert_eq!(
///     locate("chuhan-locate-doctest.book", Some(&dir)),
///     dir.join("chuhan-locate-doctest.book")
/// );
/// // Not in the engine's directory: relative to the current directory.
/// assert_eq!(locate("no/such.book", Some(&dir)), Path::new("no/such.book"));
/// ```
pub fn locate(name: &str, engine_dir: Option<&Path>) -> PathBuf {
    let path = Path::new(name);
    if path.is_absolute() {
        return path.to_path_buf();
    }
    match engine_dir.map(|d| d.join(path)) {
        Some(there) if there.is_file() => there,
        _ => path.to_path_buf(),
    }
}
