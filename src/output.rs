//! Output files of the commands that work long before they write (`book build`,
//! `book generate`, `suite`, `tune`): checked before the work starts, so that an
//! hour of searching does not end in "cannot write".

use std::fs::OpenOptions;
use std::path::Path;

/// Checks that `path` can be written: not a directory, its directory exists, and a
/// file can be created there (an existing file is opened for appending and left as
/// it is; a file the check created is removed again). The error names the file.
pub fn check_writable(path: &Path) -> Result<(), String> {
    let name = path.display();
    if path.is_dir() {
        return Err(format!("{name}: is a directory, not a file to write"));
    }
    let existed = path.exists();
    OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("{name}: cannot be written: {e}"))?;
    if !existed {
        std::fs::remove_file(path).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writable_paths_pass_and_leave_no_trace() {
        let dir = std::env::temp_dir().join(format!("chuhan-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let new = dir.join("new.book");
        check_writable(&new).unwrap();
        assert!(!new.exists(), "the check must not leave a file behind");
        let old = dir.join("old.book");
        std::fs::write(&old, b"keep").unwrap();
        check_writable(&old).unwrap();
        assert_eq!(std::fs::read(&old).unwrap(), b"keep");
        let e = check_writable(&dir).unwrap_err();
        assert!(e.contains("is a directory"), "{e}");
        let e = check_writable(&dir.join("no/such/dir/x.book")).unwrap_err();
        assert!(e.contains("no/such/dir/x.book: cannot be written"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
