//! Where a book file named in `bookfiles` is looked for, as ElephantEye's
//! `LocatePath` does: an absolute path is used as it is; a relative one is taken
//! relative to the directory of the engine's executable, and, if no file is there,
//! relative to the current directory.
//!
//! A GUI on a Chinese Windows sends its paths in GBK, and the daemon's input decodes
//! them (see `protocol::input`), so a name arrives as text. On Unix a file copied
//! from such a machine may keep a GBK-encoded name on disk; when the UTF-8 name is
//! not found, the same name encoded in GBK is looked for too.

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
    let found = |path: &Path| -> Option<PathBuf> {
        if path.is_absolute() {
            return path.is_file().then(|| path.to_path_buf());
        }
        engine_dir
            .map(|d| d.join(path))
            .filter(|there| there.is_file())
            .or_else(|| path.is_file().then(|| path.to_path_buf()))
    };
    let path = Path::new(name);
    found(path)
        .or_else(|| gbk_name(name).and_then(|gbk| found(&gbk)))
        .unwrap_or_else(|| path.to_path_buf())
}

/// `name` encoded in GBK as a Unix file name, when that differs from its UTF-8.
#[cfg(unix)]
fn gbk_name(name: &str) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = crate::notation::charset::encode_gbk_exact(name)?;
    (bytes != name.as_bytes()).then(|| PathBuf::from(std::ffi::OsStr::from_bytes(&bytes)))
}

/// Windows file names are Unicode: the text is the name.
#[cfg(not(unix))]
fn gbk_name(_name: &str) -> Option<PathBuf> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_gbk_named_file_is_found_by_its_text_name() {
        use std::os::unix::ffi::OsStrExt;
        let dir = std::env::temp_dir().join(format!("chuhan-locate-gbk-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (gbk, _, _) = encoding_rs::GBK.encode("象棋.obk");
        let on_disk = dir.join(std::ffi::OsStr::from_bytes(&gbk));
        std::fs::write(&on_disk, b"x").unwrap();
        assert_eq!(locate("象棋.obk", Some(&dir)), on_disk);
        let absolute = dir.join("象棋.obk");
        assert_eq!(locate(absolute.to_str().unwrap(), None), on_disk);
        // A name found nowhere comes back as given.
        assert_eq!(locate("无.obk", Some(&dir)), Path::new("无.obk"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
