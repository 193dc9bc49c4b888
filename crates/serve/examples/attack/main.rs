//! The attack harness of `chuhan serve` (`make attack`, and `make attack-short` in
//! CI; issue 46): starts the given `chuhan` binary as `chuhan serve` on an ephemeral
//! loopback port and attacks it as a hostile client would, in six phases, each with
//! a hard deadline. Each phase prints one line: its name, its measured figures, its
//! bound, and PASS or FAIL. The program exits non-zero if any phase fails or the
//! server dies; the server is killed at the end whatever happens.
//!
//! | phase | attack | bound |
//! |---|---|---|
//! | slow-client | 520 keep-alive connections sending a tiny GET every 4 s, 700 silent reconnecting sockets; 22 ordinary clients judge on a new connection each | ordinary p99 ≤ 1 s, 0 failures |
//! | slow-read | 512 connections pipelining requests with large answers and never reading | all closed within 15 s (write timeout + 5 s); ordinary p99 ≤ 1 s, 0 failures |
//! | big-upload | 300 clients post a 2 MB PGN at once | peak RSS ≤ 200 MB, ≤ 60 MB 10 s after (looked at again for up to 5 s more) |
//! | abandoned-analysis | 5 clients ask for 3 s analyses and hang up | the next analysis answered 200 within 200 ms |
//! | unreadable-records | random bytes, Big5 and UTF-32 text as records | 422 with `{"error": …}` |
//! | fuzz | mutated requests (methods, headers, lengths, chunks, paths, JSON, bytes) | no 5xx, every refusal with a body is JSON, health answered after |
//!
//! Every attacker has a loopback address of its own (127.0.0.2–7: Linux routes all
//! of 127/8 to `lo`), so a server limiting per client can tell them from the
//! ordinary clients on 127.0.0.1. A 429 is a fine answer to an attacker; an
//! ordinary client must never be refused. `--size short` scales the counts down
//! about six times and shortens the phases (CI).
//!
//! ```text
//! cargo run --release -p chuhan-serve --example attack -- --chuhan target/release/chuhan [--size full|short] [--phase NAME]...
//! ```

#[cfg(target_os = "linux")]
#[path = "../measure/mod.rs"]
mod measure;

#[cfg(target_os = "linux")]
mod linux;

#[cfg(target_os = "linux")]
fn main() -> std::process::ExitCode {
    linux::main()
}

/// The harness reads `/proc`, raises `rlimit` and routes all of 127/8 to `lo`:
/// Linux only. Elsewhere it says so and fails.
#[cfg(not(target_os = "linux"))]
fn main() -> std::process::ExitCode {
    eprintln!("the attack harness runs on Linux only (it reads /proc and binds 127.0.0.2-7)");
    std::process::ExitCode::FAILURE
}
