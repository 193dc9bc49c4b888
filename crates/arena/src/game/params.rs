//! The tunables every engine game shares, each with where its value came from.

use std::time::Duration;

/// Default clock tolerance: pipe and scheduling latency forgiven beyond the clock
/// (or the `movetime`) before a move counts as late (engines answer over pipes;
/// §21.5 leaves clock faults to the arbiter). The same for `chuhan match`
/// (`--tolerance`) and a tournament (`"tolerance_ms"`), so both judge flag fall
/// alike.
pub const TOLERANCE: Duration = Duration::from_millis(100);
