//! Chuhan's fuzz harness on stable Rust (no nightly, no sanitizer runtime):
//! structure-aware generators and byte mutators ([`mutate`]) over seed corpora
//! ([`corpus`]) feed every parser ([`target::Target`]: the protocol's command
//! parser, FEN, move text in every notation, PGN, XQF, CCBridge, both book
//! formats and the book text, tournament configurations, and any record
//! recognised from its bytes). A panic is a crash; an input that runs longer than
//! the per-input limit is a hang; the peak memory of the process is reported.
//!
//! `make fuzz` runs ten million inputs (`chuhan-fuzz --inputs 10000000`); a short
//! budget runs in `make test` (this crate's tests).

pub mod corpus;
pub mod mutate;
pub mod target;

use chuhan_engine::core::SplitMix64;
use std::cell::RefCell;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
pub use target::Target;

/// A crashing or hanging input.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The input.
    pub input: Vec<u8>,
    /// The panic message and location, or how long it had run.
    pub message: String,
}

/// How fuzzing one target went.
#[derive(Clone, Debug)]
pub struct Report {
    /// The target.
    pub target: Target,
    /// Inputs run to the end.
    pub inputs: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Inputs that panicked.
    pub crashes: Vec<Finding>,
    /// An input that ran past the limit (fuzzing the target stops there).
    pub hang: Option<Finding>,
}

impl Report {
    /// Inputs per second.
    pub fn rate(&self) -> f64 {
        self.inputs as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The `k`-th input of a run on `target` with `seed`: deterministic, so a finding
/// is reproduced from its numbers alone.
pub fn input(target: Target, seed: u64, k: u64, seeds: &[Vec<u8>]) -> Vec<u8> {
    let t = Target::ALL.iter().position(|&x| x == target).unwrap_or(0) as u64;
    let mut rng = SplitMix64::new(SplitMix64::mix(seed ^ (t << 56) ^ k));
    if rng.below(8) == 0
        && let Some(g) = corpus::generate(target, &mut rng)
    {
        return g;
    }
    let mut x = seeds[rng.below(seeds.len())].clone();
    let other = &seeds[rng.below(seeds.len())];
    mutate::mutate(&mut rng, &mut x, other, target.is_text());
    x
}

thread_local! {
    /// Where the panic hook leaves the message of the last panic on this thread.
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Replaces the panic hook with one that records the message (with its location)
/// for [`Finding::message`] instead of printing it.
fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        LAST_PANIC.with(|p| *p.borrow_mut() = info.to_string());
    }));
}

/// Runs `inputs` inputs of `seed` on `target`. With a `hang_limit`, the inputs run
/// on a worker thread watched from this one: an input past the limit is reported
/// as a hang and the target is left (the worker is abandoned). Without one, they
/// run here.
pub fn fuzz(target: Target, inputs: u64, seed: u64, hang_limit: Option<Duration>) -> Report {
    quiet_panics();
    let seeds = Arc::new(corpus::seeds(target));
    let started = Instant::now();
    let crashes = Arc::new(Mutex::new(Vec::new()));
    let done = Arc::new(AtomicU64::new(0));
    // Nanoseconds since `started` at which the current input began; 0 = none.
    let running_since = Arc::new(AtomicU64::new(0));
    let current = Arc::new(Mutex::new(Vec::new()));
    let work = {
        let (seeds, crashes, done, running_since, current) = (
            seeds.clone(),
            crashes.clone(),
            done.clone(),
            running_since.clone(),
            current.clone(),
        );
        let watched = hang_limit.is_some();
        move || {
            for k in 0..inputs {
                let x = input(target, seed, k, &seeds);
                if watched {
                    *current.lock().unwrap_or_else(|e| e.into_inner()) = x.clone();
                    let now = started.elapsed().as_nanos() as u64;
                    running_since.store(now.max(1), Ordering::SeqCst);
                }
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| target.run(&x)));
                running_since.store(0, Ordering::SeqCst);
                if r.is_err() {
                    let message = LAST_PANIC.with(|p| p.borrow().clone());
                    crashes
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(Finding { input: x, message });
                }
                done.fetch_add(1, Ordering::SeqCst);
            }
        }
    };
    let mut hang = None;
    match hang_limit {
        None => work(),
        Some(limit) => {
            let worker = std::thread::spawn(work);
            while !worker.is_finished() {
                std::thread::sleep(Duration::from_millis(20));
                let since = running_since.load(Ordering::SeqCst);
                if since == 0 {
                    continue;
                }
                let ran = started
                    .elapsed()
                    .saturating_sub(Duration::from_nanos(since));
                if ran > limit && running_since.load(Ordering::SeqCst) == since {
                    hang = Some(Finding {
                        input: current.lock().unwrap_or_else(|e| e.into_inner()).clone(),
                        message: format!("still running after {} ms", ran.as_millis()),
                    });
                    break;
                }
            }
        }
    }
    let crashes = crashes.lock().unwrap_or_else(|e| e.into_inner()).clone();
    Report {
        target,
        inputs: done.load(Ordering::SeqCst),
        elapsed: started.elapsed(),
        crashes,
        hang,
    }
}

/// The peak resident memory of this process so far, in KiB (`VmHWM` of
/// `/proc/self/status`; `None` where there is no such file).
pub fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_reproducible_from_their_numbers() {
        for t in Target::ALL {
            let seeds = corpus::seeds(t);
            assert!(!seeds.is_empty(), "{t:?} has no seed");
            assert_eq!(input(t, 9, 123, &seeds), input(t, 9, 123, &seeds));
        }
    }

    #[test]
    fn a_panicking_target_is_reported_as_a_crash() {
        quiet_panics();
        let r = std::panic::catch_unwind(|| panic!("boom"));
        assert!(r.is_err());
        assert!(LAST_PANIC.with(|p| p.borrow().contains("boom")));
    }
}
