//! How much memory the process can still have: asked before the transposition
//! table is allocated ([`check_hash`]), so that a `Hash` beyond it is refused at
//! once rather than zeroed page by page into swap or the OOM killer while the GUI
//! waits for `readyok`.
//!
//! Where the figure comes from ([`available_mb`]):
//! - Linux: `MemAvailable` of `/proc/meminfo`, lowered to what a cgroup memory
//!   limit still allows: v2 `memory.max` − `memory.current` of the process's
//!   cgroup, its ancestors and `/sys/fs/cgroup` itself; v1
//!   `memory/memory.limit_in_bytes` − `memory/memory.usage_in_bytes`. A limit of
//!   `max` (or an unreadable file) counts as no limit.
//! - Windows: `ullAvailPhys` of `GlobalMemoryStatusEx`.
//! - Elsewhere (macOS, the BSDs, …): unknown, and no check is made.

/// Memory that must stay free beyond the table, in MB: room for the rest of the
/// engine (threads' stacks in use, the net, books) and for the error of an
/// estimate such as `MemAvailable`. A round figure, not a measurement.
pub const HASH_MARGIN_MB: u64 = 64;

/// Megabytes of memory the process can still have now, or `None` where the
/// platform does not say (see the module docs).
///
/// ```
/// let mb = chuhan_engine::search::memory::available_mb();
/// if cfg!(target_os = "linux") {
///     assert!(mb.is_some_and(|mb| mb > 0));
/// }
/// ```
pub fn available_mb() -> Option<u64> {
    available_bytes().map(|b| b >> 20)
}

/// Whether a table of `asked_mb` fits in `available_mb` (see [`available_mb`];
/// `None`: unknown, so it fits) once the table of `freed_mb` is freed, keeping
/// [`HASH_MARGIN_MB`] free. Refused: `Err` with the megabytes available to the
/// table (the figure plus the freed table).
///
/// ```
/// use chuhan_engine::search::memory::{check_hash, HASH_MARGIN_MB};
/// assert_eq!(check_hash(16_384, 64, Some(3_056)), Err(3_120));
/// assert_eq!(check_hash(1_024, 0, Some(1_024 + HASH_MARGIN_MB)), Ok(()));
/// assert_eq!(check_hash(32_768, 0, None), Ok(()));
/// ```
pub fn check_hash(asked_mb: usize, freed_mb: usize, available_mb: Option<u64>) -> Result<(), u64> {
    let Some(available) = available_mb else {
        return Ok(());
    };
    let available = available.saturating_add(freed_mb as u64);
    if (asked_mb as u64).saturating_add(HASH_MARGIN_MB) <= available {
        Ok(())
    } else {
        Err(available)
    }
}

#[cfg(target_os = "linux")]
fn available_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let available = mem_available(&meminfo)?;
    Some(cgroup_headrooms().into_iter().fold(available, u64::min))
}

/// The `MemAvailable` line of `/proc/meminfo`, in bytes.
#[cfg(target_os = "linux")]
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

/// What each cgroup memory limit over this process still allows, in bytes.
#[cfg(target_os = "linux")]
fn cgroup_headrooms() -> Vec<u64> {
    use std::path::{Path, PathBuf};
    let root = Path::new("/sys/fs/cgroup");
    let number =
        |p: PathBuf| -> Option<u64> { std::fs::read_to_string(p).ok()?.trim().parse().ok() };
    let mut places: Vec<(PathBuf, &str, &str)> = Vec::new();
    // cgroup v2: the process's own group and every group above it.
    if let Ok(text) = std::fs::read_to_string("/proc/self/cgroup") {
        for path in text.lines().filter_map(|l| l.strip_prefix("0::")) {
            let own = root.join(path.trim_start_matches('/'));
            if !path.contains("..") {
                for dir in own.ancestors().take_while(|d| d.starts_with(root)) {
                    places.push((dir.to_path_buf(), "memory.max", "memory.current"));
                }
            }
        }
    }
    places.push((root.to_path_buf(), "memory.max", "memory.current"));
    // cgroup v1 (no limit reads as a huge number).
    places.push((
        root.join("memory"),
        "memory.limit_in_bytes",
        "memory.usage_in_bytes",
    ));
    places
        .into_iter()
        .filter_map(|(dir, limit, usage)| {
            let limit = number(dir.join(limit))?;
            Some(limit.saturating_sub(number(dir.join(usage)).unwrap_or(0)))
        })
        .collect()
}

#[cfg(windows)]
fn available_bytes() -> Option<u64> {
    /// `MEMORYSTATUSEX` of the Win32 API.
    #[repr(C)]
    #[derive(Default)]
    struct MemoryStatusEx {
        length: u32,
        memory_load: u32,
        total_phys: u64,
        avail_phys: u64,
        total_page_file: u64,
        avail_page_file: u64,
        total_virtual: u64,
        avail_virtual: u64,
        avail_extended_virtual: u64,
    }
    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn GlobalMemoryStatusEx(buffer: *mut MemoryStatusEx) -> i32;
    }
    let mut status = MemoryStatusEx {
        length: std::mem::size_of::<MemoryStatusEx>() as u32,
        ..MemoryStatusEx::default()
    };
    // SAFETY: `status` is a live MEMORYSTATUSEX with `dwLength` set, as the call
    // requires; the call writes only within it.
    let ok = unsafe { GlobalMemoryStatusEx(&mut status) };
    (ok != 0).then_some(status.avail_phys)
}

#[cfg(not(any(target_os = "linux", windows)))]
fn available_bytes() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The query answers on Linux and Windows with a plausible figure.
    #[test]
    fn memory_is_known_where_the_platform_says() {
        let mb = available_mb();
        if cfg!(any(target_os = "linux", windows)) {
            assert!(mb.is_some_and(|mb| mb > 0), "{mb:?}");
        } else {
            assert_eq!(mb, None);
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn meminfo_is_read() {
        let text = "MemTotal:       24683520 kB\nMemFree:        23316480 kB\nMemAvailable:   24013824 kB\n";
        assert_eq!(mem_available(text), Some(24_013_824 * 1024));
        assert_eq!(mem_available("MemTotal: 1 kB\n"), None);
    }

    #[test]
    fn the_freed_table_and_the_margin_count() {
        assert_eq!(check_hash(100, 0, Some(100)), Err(100));
        assert_eq!(check_hash(100, 64, Some(100)), Ok(()));
        assert_eq!(check_hash(usize::MAX, 0, Some(1_000)), Err(1_000));
        assert_eq!(check_hash(0, 0, Some(HASH_MARGIN_MB)), Ok(()));
    }
}
