//! Engine analysis behind a bounded queue: a small pool of [`Engine`]s, each on its
//! own thread, takes jobs from one queue of fixed capacity. A request that finds
//! the queue full is not kept: it is answered 503 with `Retry-After` at once, so a
//! flood of analysis requests costs the server nothing but the refusals.
//!
//! A job whose client has gone (the connection closed, so its request was
//! dropped) is skipped if it is still waiting and stopped within
//! [`params::CANCEL_POLL`] if it is running, so abandoned requests do not keep the
//! engines busy.
//!
//! Each search is bounded (time, and depth if asked) and played by the request's
//! rule set; the search leaves out at the root the moves the rules ban
//! ([`forbidden_moves`], as every search does), and the answer lists them.

use crate::error::ApiError;
use crate::params;
use axum::http::StatusCode;
use chuhan_engine::core::{Move, Position};
use chuhan_engine::engine::{Engine, EngineOption};
use chuhan_engine::rules::{RuleSet, forbidden_moves};
use chuhan_engine::search::event::{BestMove, Event};
use chuhan_engine::search::limits::Limits;
use chuhan_engine::search::repetition::RepetitionRules;
use chuhan_engine::search::score::Score;
use crossbeam_channel::{RecvTimeoutError, Sender, unbounded};
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::oneshot;

/// How long and how deep to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Time in milliseconds (at most [`params::MAX_ANALYSIS_MS`]).
    pub movetime_ms: u64,
    /// Depth in plies, if limited.
    pub depth: Option<i32>,
}

impl Budget {
    /// The budget a request asks for, checked: time 1..=[`params::MAX_ANALYSIS_MS`]
    /// ms (default [`params::DEFAULT_ANALYSIS_MS`], or the maximum when only a
    /// depth is given), depth 1..=[`params::MAX_ANALYSIS_DEPTH`].
    pub fn new(movetime_ms: Option<u64>, depth: Option<i32>) -> Result<Budget, ApiError> {
        if let Some(t) = movetime_ms
            && !(1..=params::MAX_ANALYSIS_MS).contains(&t)
        {
            return Err(ApiError::bad_request(format!(
                "movetime_ms {t}: from 1 to {}",
                params::MAX_ANALYSIS_MS
            )));
        }
        if let Some(d) = depth
            && !(1..=params::MAX_ANALYSIS_DEPTH).contains(&d)
        {
            return Err(ApiError::bad_request(format!(
                "depth {d}: from 1 to {}",
                params::MAX_ANALYSIS_DEPTH
            )));
        }
        let movetime_ms = movetime_ms.unwrap_or(if depth.is_some() {
            params::MAX_ANALYSIS_MS
        } else {
            params::DEFAULT_ANALYSIS_MS
        });
        Ok(Budget { movetime_ms, depth })
    }
}

/// The answer of an analysis.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// The best move in ICCS (`null` when the side to move has no move to play).
    pub bestmove: Option<String>,
    /// Its score from the side to move's view: `{"cp": 35}` or `{"mate": 3}`.
    pub score: Option<serde_json::Value>,
    /// Depth of the last completed iteration.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation in ICCS.
    pub pv: Vec<String>,
    /// The moves banned at the root by the repetition rules.
    pub banned: Vec<String>,
    /// The rule set searched by.
    pub rules: RuleSet,
}

/// A place among the analyses admitted (running or waiting), held by the request
/// and given back when it is answered or dropped (its client gone).
struct Ticket(Arc<AtomicUsize>);

impl Drop for Ticket {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// One admitted analysis.
struct Job {
    pos: Position,
    rules: RuleSet,
    budget: Budget,
    reply: oneshot::Sender<Analysis>,
}

/// The engines and their queue.
pub struct Pool {
    jobs: Sender<Job>,
    /// Analyses admitted and not yet finished.
    admitted: Arc<AtomicUsize>,
    queue: usize,
    engines: usize,
}

impl Pool {
    /// Starts `engines` engine threads (at least one) sharing a queue of `queue`
    /// waiting jobs. The threads end when the pool is dropped (after their
    /// current search).
    pub fn new(engines: usize, queue: usize) -> Pool {
        let engines = engines.max(1);
        // Admission is counted (engines + queue at most, by the requests still
        // waiting for an answer), so the channel holds at most `queue` live jobs;
        // the jobs of clients gone are skipped when their turn comes.
        let (tx, rx) = unbounded::<Job>();
        for i in 0..engines {
            let rx = rx.clone();
            std::thread::Builder::new()
                .name(format!("analysis-{i}"))
                .spawn(move || {
                    // The small table at once (never the default one first), or the
                    // default when even that much memory is not free now.
                    let mut engine = Engine::with_hash_mb(params::ANALYSIS_HASH_MB)
                        .unwrap_or_else(|_| Engine::new());
                    // A fresh engine takes this option; an error would leave the
                    // default, which serves as well.
                    let _ = engine.set_option(EngineOption::UseBook(false));
                    for job in rx.iter() {
                        // A client that went away while its job waited is not
                        // searched for.
                        if job.reply.is_closed() {
                            continue;
                        }
                        let answer = search(&mut engine, &job);
                        let _ = job.reply.send(answer);
                    }
                })
                .expect("the system can start a thread");
        }
        Pool {
            jobs: tx,
            admitted: Arc::new(AtomicUsize::new(0)),
            queue,
            engines,
        }
    }

    /// Queues an analysis of `pos` (its history is the game) and waits for it; a
    /// full queue is a 503 with `Retry-After`.
    pub async fn analyse(
        &self,
        pos: Position,
        rules: RuleSet,
        budget: Budget,
    ) -> Result<Analysis, ApiError> {
        let capacity = self.engines + self.queue;
        if self.admitted.fetch_add(1, Ordering::AcqRel) >= capacity {
            self.admitted.fetch_sub(1, Ordering::AcqRel);
            // Everything running and waiting must finish first.
            let secs =
                (capacity as u64 * params::MAX_ANALYSIS_MS).div_ceil(self.engines as u64 * 1000);
            let mut e = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "all {} engine(s) busy and {} analyses waiting: try again later",
                    self.engines, self.queue
                ),
            );
            e.retry_after = Some(secs.max(1));
            return Err(e);
        }
        let ticket = Ticket(self.admitted.clone());
        let (reply, answer) = oneshot::channel();
        let job = Job {
            pos,
            rules,
            budget,
            reply,
        };
        if self.jobs.send(job).is_err() {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the analysis engines have stopped",
            ));
        }
        let answer = answer.await.map_err(|_| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the analysis engine stopped before answering",
            )
        });
        drop(ticket);
        answer
    }
}

/// Runs one job on `engine`.
fn search(engine: &mut Engine, job: &Job) -> Analysis {
    // The moves the rules ban, asked of the rules as the search asks them: the
    // search itself leaves them out at the root under the same rule set (and plays
    // one only when nothing else is left), so they are only reported here.
    let banned: Vec<Move> = forbidden_moves(&job.pos, job.rules, None);
    let _ = engine.set_option(EngineOption::Rules(RepetitionRules::Judged(job.rules)));
    engine.set_position(job.pos.clone());
    let limits = Limits {
        depth: job.budget.depth,
        movetime: Some(job.budget.movetime_ms),
        ..Limits::default()
    };
    let mut pv = Vec::new();
    let best = match engine.go(limits) {
        Ok(events) => {
            let mut best = BestMove::none();
            let mut stopped = false;
            loop {
                match events.recv_timeout(params::CANCEL_POLL) {
                    Ok(Event::Info(info)) if info.multipv <= 1 => pv = info.pv.clone(),
                    Ok(Event::BestMove(b)) => best = b,
                    Ok(_) => {}
                    // The search ended: its sender is gone.
                    Err(RecvTimeoutError::Disconnected) => break,
                    Err(RecvTimeoutError::Timeout) => {}
                }
                // The client went away (its connection closed and the request
                // was dropped): nobody waits for this search any more.
                if !stopped && job.reply.is_closed() {
                    engine.stop();
                    stopped = true;
                }
            }
            engine.wait();
            best
        }
        Err(_) => BestMove::none(),
    };
    if best.best.is_some() && pv.first() != best.best.as_ref() {
        pv = best.best.into_iter().collect();
    }
    Analysis {
        bestmove: best.best.map(|m| m.to_string()),
        score: best.value.map(|v| match Score::from_value(v) {
            Score::Cp(cp) => serde_json::json!({"cp": cp}),
            Score::Mate(n) => serde_json::json!({"mate": n}),
        }),
        depth: best.depth,
        nodes: best.nodes,
        pv: pv.iter().map(Move::to_string).collect(),
        banned: banned.iter().map(Move::to_string).collect(),
        rules: job.rules,
    }
}
