//! Time management: how long to think for one move.
//!
//! From the limits the manager derives an *optimum* (checked after each iteration:
//! don't start what cannot finish) and a *maximum* (checked every few thousand
//! nodes: stop at once). Both stay below the time left minus the move overhead, so a
//! move is always sent in time, even at 1 s + 0.01 s per move. A fixed move time
//! (`go movetime N`) has no optimum: the search uses all of it (less the move
//! overhead, so that the answer arrives in time) unless a mate is proven. While
//! pondering the clock does not count; `ponderhit` restarts it.
//!
//! In sudden death the optimum is the usable clock over
//! [`time_moves_to_go`] (25) plus the whole increment, and an iteration is not
//! started once [`time_iteration_percent`] (80 %) of the optimum, stretched or shrunk
//! by the best move's stability, has passed. These values spend the bank: with the
//! earlier 30 moves, 75 % of the increment and 60 %, a settled search stopped so early
//! that at 10 s + 0.1 s the engine kept about 5 s to the end of every game while
//! Pikafish-HCE went below 1 s (self-play at 5 s + 0.05 s: +27.0 ± 19.9 Elo for the
//! new values, CHANGELOG). All five are tunables (options of a `tune` build).

use crate::search::limits::Limits;
use crate::search::params::{
    TIME_LAST_MOVE_SHARE_PERCENT, TIME_MAX_FACTOR, TIME_MAX_MOVES_TO_GO, TIME_MAX_SHARE_PERCENT,
    TIME_PONDER_PERCENT, time_increment_percent, time_iteration_percent, time_moves_to_go,
};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Time budget of one search.
#[derive(Debug)]
pub struct TimeManager {
    start: Instant,
    /// Milliseconds after `start` from which the clock counts (set at ponderhit).
    origin_ms: AtomicU64,
    optimum_ms: Option<u64>,
    maximum_ms: Option<u64>,
}

/// Optimum and maximum thinking time in milliseconds for `limits`, or `None` if
/// time does not limit the search.
///
/// ```
/// use chuhan_engine::search::limits::{Clock, Limits};
/// use chuhan_engine::search::time::budget;
/// let l = Limits { clock: Some(Clock { time_ms: 1000, increment_ms: 10, moves_to_go: None }), ..Limits::default() };
/// let (opt, max) = budget(&l, 30, false).unwrap();
/// assert!(opt >= 1 && opt <= max && max < 1000 - 30);
/// ```
pub fn budget(limits: &Limits, overhead_ms: u64, ponder_option: bool) -> Option<(u64, u64)> {
    if limits.infinite {
        return None;
    }
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(overhead_ms.min(mt / 2)).max(1);
        return Some((t, t));
    }
    let clock = limits.clock?;
    let mtg = clock
        .moves_to_go
        .unwrap_or(time_moves_to_go() as u64)
        .clamp(1, TIME_MAX_MOVES_TO_GO);
    let usable = clock.time_ms.saturating_sub(overhead_ms);
    // Saturating: a GUI may send any clock up to u64::MAX milliseconds.
    let percent = |ms: u64, p: u64| ms.saturating_mul(p) / 100;
    let cap = if mtg == 1 {
        percent(usable, TIME_LAST_MOVE_SHARE_PERCENT)
    } else {
        percent(usable, TIME_MAX_SHARE_PERCENT)
    };
    let inc = if clock.moves_to_go.is_some() {
        0
    } else {
        percent(clock.increment_ms, time_increment_percent() as u64)
    };
    let mut opt = (usable / mtg).saturating_add(inc);
    if ponder_option {
        opt = percent(opt, TIME_PONDER_PERCENT);
    }
    let opt = opt.min(cap).max(1);
    let max = opt.saturating_mul(TIME_MAX_FACTOR).min(cap).max(opt);
    Some((opt, max))
}

impl TimeManager {
    /// Starts the clock for `limits`.
    pub fn new(limits: &Limits, overhead_ms: u64, ponder_option: bool) -> TimeManager {
        let b = budget(limits, overhead_ms, ponder_option);
        TimeManager {
            start: Instant::now(),
            origin_ms: AtomicU64::new(0),
            optimum_ms: b.filter(|_| limits.movetime.is_none()).map(|b| b.0),
            maximum_ms: b.map(|b| b.1),
        }
    }

    /// Milliseconds since the search started.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Milliseconds on the clock (since the start, or since `ponderhit`).
    pub fn clock_ms(&self) -> u64 {
        self.elapsed_ms()
            .saturating_sub(self.origin_ms.load(Ordering::Relaxed))
    }

    /// Restarts the clock (the opponent played the expected move).
    pub fn ponderhit(&self) {
        self.origin_ms.store(self.elapsed_ms(), Ordering::Relaxed);
    }

    /// True if the hard limit is reached: stop now.
    pub fn out_of_time(&self) -> bool {
        self.maximum_ms.is_some_and(|m| self.clock_ms() >= m)
    }

    /// True if another iteration should not start; `scale_percent` stretches the
    /// optimum (an unstable best move wants more time).
    pub fn stop_iterating(&self, scale_percent: u64) -> bool {
        match (self.optimum_ms, self.maximum_ms) {
            (Some(opt), Some(max)) => {
                let target = (opt.saturating_mul(scale_percent) / 100).min(max);
                self.clock_ms() >= target.saturating_mul(time_iteration_percent() as u64) / 100
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Clock;
    use crate::search::params::time_stable_percent;

    fn sd(time_ms: u64, inc: u64, mtg: Option<u64>) -> Limits {
        Limits {
            clock: Some(Clock {
                time_ms,
                increment_ms: inc,
                moves_to_go: mtg,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn never_plans_beyond_the_clock() {
        // Up to the largest clock a GUI can send (no overflow).
        for t in [
            0u64,
            1,
            5,
            29,
            30,
            31,
            50,
            100,
            1000,
            60_000,
            3_600_000,
            u64::MAX,
        ] {
            for inc in [0, 10, 1000, u64::MAX] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let (opt, max) = budget(&sd(t, inc, mtg), 30, true).unwrap();
                    assert!(opt >= 1 && opt <= max, "{t} {inc} {mtg:?}");
                    assert!(
                        max <= t.saturating_sub(30).max(1),
                        "{t} {inc} {mtg:?}: {max}"
                    );
                }
            }
        }
    }

    #[test]
    fn movetime_and_unlimited() {
        let l = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        assert_eq!(budget(&l, 30, false), Some((970, 970)));
        assert_eq!(budget(&Limits::depth(5), 30, false), None);
        let mut l = sd(1000, 0, None);
        l.infinite = true;
        assert_eq!(budget(&l, 30, false), None);
    }

    #[test]
    fn a_move_time_is_used_to_the_end() {
        // Once the whole budget has passed (a sleep lasts at least as long as
        // asked), a clock stops iterating and a move time does not: only its hard
        // limit ends the search.
        let fixed = TimeManager::new(
            &Limits {
                movetime: Some(2),
                ..Limits::default()
            },
            0,
            false,
        );
        let clock = TimeManager::new(&sd(4, 0, Some(1)), 0, false);
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert!(fixed.out_of_time());
        assert!(!fixed.stop_iterating(100) && !fixed.stop_iterating(1));
        assert!(clock.stop_iterating(100));
    }

    /// The iteration threshold (ms) of a search whose best move has been stable:
    /// the shortest a move may take once the search has settled.
    fn settled_threshold(clock_ms: u64, inc: u64) -> u64 {
        let (opt, _) = budget(&sd(clock_ms, inc, None), 30, false).unwrap();
        opt * time_stable_percent() as u64 / 100 * time_iteration_percent() as u64 / 100
    }

    #[test]
    fn a_low_clock_still_spends_its_increment() {
        // The clock is there to be used. With 3 s left at 10 s + 0.1 s, even a move
        // whose best move has held for several iterations may take its increment:
        // an engine that stops sooner keeps seconds in hand to the end of the game
        // (the defaults before this test held 5 s while Pikafish-HCE went below 1 s).
        assert!(settled_threshold(3_000, 100) >= 100);
        // And it still spends the bank faster while there is one.
        assert!(settled_threshold(9_000, 100) > settled_threshold(3_000, 100));
    }

    #[test]
    fn increment_is_used() {
        let (a, _) = budget(&sd(10_000, 0, None), 30, false).unwrap();
        let (b, _) = budget(&sd(10_000, 2_000, None), 30, false).unwrap();
        assert!(b > a);
    }
}
