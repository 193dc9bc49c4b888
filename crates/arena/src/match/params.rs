//! The match runner's tunables, each with where its value came from.

use std::time::Duration;

/// How long an engine may take to answer the UCCI handshake (`ucci` → `ucciok`)
/// when the protocol is detected, before the runner tries `uci`. ElephantEye,
/// Fairy-Stockfish and Chuhan answer within milliseconds; a UCI-only engine that
/// prints nothing for an unknown command costs this much once per start. tchess
/// waits 1 s per probe (`protocol.md` §3); 2 s leaves room for slow starters such as
/// Node-hosted WASM builds, which print their banner first.
pub const DETECT_TIMEOUT: Duration = Duration::from_secs(2);

/// How long an engine may take to finish its handshake once its protocol is known,
/// and to answer `isready` (loading networks and hash tables). The UCCI League
/// simulator waits 10 s for `ucciok` (`protocol.md` §3); NNUE engines load a
/// 50 MB net in well under that.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// After a search overran its deadline the runner sends `stop` and waits this long
/// for the `bestmove` before it declares the engine hung and kills it. The UCCI
/// League forfeits about 0.2 s after its `stop`; the engine has already lost, so the
/// wait only decides whether the process can be reused.
pub const STOP_GRACE: Duration = Duration::from_millis(500);

/// After `quit` an engine may take this long to exit before it is killed. The
/// UCCI League waits 1 s for `bye`.
pub const QUIT_GRACE: Duration = Duration::from_secs(1);

/// A search limited by depth or nodes has no clock, so a hung engine is caught by
/// this guard instead (override with `--hang-timeout`). Generous on purpose: a
/// fixed-depth search of a slow engine may legitimately take many seconds.
pub const HANG_TIMEOUT: Duration = Duration::from_secs(60);

/// Consecutive failed engine starts after which a match gives up instead of
/// forfeiting game after game (a wrong command line, a missing network file).
pub const MAX_START_FAILURES: u32 = 3;

/// The 95% two-sided normal quantile used for the error bars.
pub const Z95: f64 = 1.959_963_984_540_054;
