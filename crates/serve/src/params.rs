//! Every limit and default of the service in one place, each with where its value
//! came from. [`ServeConfig`](crate::ServeConfig) starts from these; the timeouts
//! can be changed there (the tests shorten them).

use std::time::Duration;

/// The address `chuhan serve` listens on without `--listen`: loopback only.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8080";

/// Largest request body: 2 MiB. A PGN game is a few kB, an XQF file under 10 kB, a
/// CCBridge library of a few hundred games a few hundred kB; the JSON of a
/// 1,024-ply game about 10 kB.
pub const MAX_BODY_BYTES: usize = 2 << 20;

/// Most plies in one request (the moves of a game). The longest real games run to
/// about 400 plies; the 60-move limit (§4.2.4) ends quiet play long before this.
pub const MAX_PLIES: usize = 1024;

/// Largest request head (request line and headers): 16 KiB, far above any browser's
/// and below hyper's 400 kB default, so a client cannot make the server buffer
/// much before it has sent a whole head.
pub const MAX_HEAD_BYTES: usize = 16 << 10;

/// Time a client has to send a whole request head, counted from the connection (or
/// from the end of the previous response on a kept-alive one): the slowloris guard.
/// Browsers send the head at once; 5 s leaves room for a slow phone link.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(5);

/// Time a client has to send the next piece of a request body.
pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Time the server gives one request from its head to its answer: the longest
/// analysis (queue wait included, see [`MAX_ANALYSIS_MS`] and [`ANALYSIS_QUEUE`])
/// fits well inside.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Connections served at once; further ones wait in the kernel's backlog until one
/// ends. 512 is far above an arbiters' room and well below the usual 1,024 file
/// descriptors per process.
pub const MAX_CONNECTIONS: usize = 512;

/// Threads for the rules work (judging, move lists, diagrams), which runs off the
/// I/O threads: enough to keep 2–8 cores busy.
pub const RULES_THREADS: usize = 8;

/// Engine instances for analysis: one search each at a time, one thread each.
pub const ANALYSIS_ENGINES: usize = 1;

/// Analysis requests waiting for an engine; one more is answered 503 with
/// `Retry-After`.
pub const ANALYSIS_QUEUE: usize = 4;

/// Hash table of each analysis engine, in MB: small, since analyses are short.
pub const ANALYSIS_HASH_MB: usize = 16;

/// Default analysis time when a request sets neither depth nor time, in ms.
pub const DEFAULT_ANALYSIS_MS: u64 = 1000;

/// Longest analysis a request may ask for, in ms (also the cap of a depth-limited
/// search): with [`ANALYSIS_QUEUE`] requests ahead on one engine the last answer
/// comes within 5 × 3 s = 15 s, half of [`REQUEST_TIMEOUT`].
pub const MAX_ANALYSIS_MS: u64 = 3000;

/// Deepest analysis a request may ask for (plies; still capped by
/// [`MAX_ANALYSIS_MS`]).
pub const MAX_ANALYSIS_DEPTH: i32 = 30;
