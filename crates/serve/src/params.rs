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

/// Connections one client (an IPv4 address or an IPv6 /64) may hold open at once;
/// more are closed as soon as they are accepted. A browser opens at most 6 per
/// server; 64 leaves room for a tournament hall behind one router, and keeps 8
/// clients from filling [`MAX_CONNECTIONS`].
pub const CLIENT_CONNECTIONS: usize = 64;

/// Requests per second one client may send, on average; more are answered 429
/// with `Retry-After`. Bursts of twice as many pass (loading the page, a batch of
/// rulings). An arbiter's page sends a few per move; a tournament program
/// judging every move of 50 boards about 50 per second.
pub const CLIENT_RATE: u32 = 200;

/// Time the server waits for a client to take the next piece of an answer; a
/// client that reads nothing for this long (or pipelines requests and never reads)
/// is disconnected. 10 s is far beyond any working link.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// Bodies above this size share [`BODY_BUDGET_BYTES`]; smaller ones (every JSON
/// request, a game's PGN) never wait for it.
pub const SMALL_BODY_BYTES: usize = 64 << 10;

/// Large bodies being read and parsed at once, in bytes together: 8 MiB, four of
/// the largest size. Reading a record takes some 20 times its size while it is
/// parsed, so this keeps many large uploads at once near 200 MB. A large request waits for its share up to
/// [`BODY_BUDGET_WAIT`], and is answered 503 with `Retry-After` after that.
pub const BODY_BUDGET_BYTES: usize = 8 << 20;

/// How long a large body waits for its share of [`BODY_BUDGET_BYTES`].
pub const BODY_BUDGET_WAIT: Duration = Duration::from_secs(5);

/// Threads for the rules work (judging, move lists, diagrams), which runs off the
/// I/O threads: enough to keep 2–8 cores busy.
pub const RULES_THREADS: usize = 8;

/// Engine instances for analysis: one search each at a time, one thread each.
pub const ANALYSIS_ENGINES: usize = 1;

/// Analysis requests waiting for an engine; one more is answered 503 with
/// `Retry-After`.
pub const ANALYSIS_QUEUE: usize = 4;

/// Most analysis engines `--engines` may ask for: 32 engines of
/// [`ANALYSIS_HASH_MB`] each take about 600 MB, and more engines than cores only
/// share the same cores.
pub const MAX_ANALYSIS_ENGINES: usize = 32;

/// Most analysis requests `--queue` may let wait: with [`MAX_ANALYSIS_MS`] each,
/// a longer queue would outlast [`REQUEST_TIMEOUT`] anyway.
pub const MAX_ANALYSIS_QUEUE: usize = 256;

/// Hash table of each analysis engine, in MB: small, since analyses are short.
pub const ANALYSIS_HASH_MB: usize = 16;

/// How often a running analysis looks whether its client is still there.
pub const CANCEL_POLL: Duration = Duration::from_millis(20);

/// Default analysis time when a request sets neither depth nor time, in ms.
pub const DEFAULT_ANALYSIS_MS: u64 = 1000;

/// Longest analysis a request may ask for, in ms (also the cap of a depth-limited
/// search): with [`ANALYSIS_QUEUE`] requests ahead on one engine the last answer
/// comes within 5 × 3 s = 15 s, half of [`REQUEST_TIMEOUT`].
pub const MAX_ANALYSIS_MS: u64 = 3000;

/// Deepest analysis a request may ask for (plies; still capped by
/// [`MAX_ANALYSIS_MS`]).
pub const MAX_ANALYSIS_DEPTH: i32 = 30;

/// After the last large upload, freed memory is returned to the system at once and
/// again this much later (what writing the answer and closing the connections
/// freed meanwhile). Measured by `make attack`'s big-upload phase: with one trim
/// only, 2 of 6 short runs held 63–73 MB 15 s after the uploads (bound 60).
pub const TRIM_AGAIN_AFTER: Duration = Duration::from_secs(2);

/// glibc's allocator arenas the server may use (glibc's default is eight per core,
/// each keeping its own freed memory).
pub const MALLOC_ARENAS: i32 = 2;

/// Heap blocks of at least this many bytes are mapped apart and returned to the
/// system when freed (glibc's dynamic threshold would otherwise climb to 2 MB after
/// the first large body).
pub const MMAP_FROM_BYTES: i32 = 256 << 10;
