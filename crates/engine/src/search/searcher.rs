//! [`Searcher`]: the search threads and what they keep from one search to the
//! next: the transposition table, one history per thread, the [`Settings`] and the
//! seed of the evaluation noise. [`Searcher::go`] searches a position in the
//! background (the main thread and its lazy-SMP helpers) and reports through a
//! channel of [`Event`]s, the last of which is always [`Event::BestMove`].
//!
//! The searcher knows no game, book or protocol: the engine facade
//! ([`crate::engine::Engine`]) keeps the position and the banned moves, asks the
//! books first, and hands the position to [`Searcher::go`].

use crate::core::{Move, Position};
use crate::eval::Knowledge;
use crate::eval::nnue::Network;
use crate::search::event::{self, BestMove, Event, Info, Offer};
use crate::search::history::History;
use crate::search::limits::Limits;
use crate::search::memory;
use crate::search::params::{DRAW_ACCEPT_SCORE, RESIGN_MIN_DEPTH, RESIGN_SCORE};
use crate::search::repetition::{self, RepetitionFilter};
use crate::search::score::{INFINITE, Value, mated_in};
use crate::search::settings::Settings;
use crate::search::time::TimeManager;
use crate::search::tt::{self, Bound, TranspositionTable, TtEntry};
use crate::search::worker::{Counter, RootMove, Shared, Worker};
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// Stack size of search threads (the recursion keeps a move picker per ply).
const STACK_SIZE: usize = 64 << 20;

/// Largest accepted hash size in MB.
pub const MAX_HASH_MB: usize = 32_768;
/// Largest accepted number of threads.
pub const MAX_THREADS: usize = 256;
/// Default hash size in MB.
pub const DEFAULT_HASH_MB: usize = 64;

/// Why the searcher refused a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The request needs an idle searcher and a search is running.
    Busy,
    /// A hash size or thread count is out of range.
    BadValue(String),
    /// The hash table could not be allocated; the old size is kept.
    NoMemory {
        /// Megabytes asked for.
        asked: usize,
        /// Megabytes kept (`None`: no table yet, a searcher being built).
        kept: Option<usize>,
    },
    /// The hash table would not fit in the memory available (checked before
    /// allocating, see [`memory::check_hash`]); the old size is kept.
    NotEnoughMemory {
        /// Megabytes asked for.
        asked: usize,
        /// Megabytes of memory available to the table.
        available: u64,
        /// Megabytes kept (`None`: no table yet, a searcher being built).
        kept: Option<usize>,
    },
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Busy => write!(f, "the engine is thinking; send stop first"),
            SearchError::BadValue(v) => write!(f, "bad value {}", crate::echo::echo(v)),
            SearchError::NoMemory { asked, kept } => {
                write!(f, "cannot allocate {asked} MB of hash")?;
                keeping(f, *kept)
            }
            SearchError::NotEnoughMemory {
                asked,
                available,
                kept,
            } => {
                write!(
                    f,
                    "Hash {asked} MB refused: only {available} MB of memory available \
                     ({} MB must stay free)",
                    memory::HASH_MARGIN_MB
                )?;
                keeping(f, *kept)
            }
        }
    }
}

/// The end of a hash refusal: the size kept, if there is a table.
fn keeping(f: &mut fmt::Formatter<'_>, kept: Option<usize>) -> fmt::Result {
    match kept {
        Some(mb) => write!(f, "; keeping {mb} MB"),
        None => Ok(()),
    }
}

impl std::error::Error for SearchError {}

/// A hash size in MB as asked (0: [`DEFAULT_HASH_MB`]), checked against
/// [`MAX_HASH_MB`].
fn hash_size(mb: usize) -> Result<usize, SearchError> {
    let mb = if mb == 0 { DEFAULT_HASH_MB } else { mb };
    if mb > MAX_HASH_MB {
        return Err(SearchError::BadValue(mb.to_string()));
    }
    Ok(mb)
}

/// Refuses a table of `mb` MB that the memory available would not hold once the
/// table of `freed` MB (the current one) is gone; the refusal names `kept`.
fn check_memory(mb: usize, freed: usize, kept: Option<usize>) -> Result<(), SearchError> {
    memory::check_hash(mb, freed, memory::available_mb()).map_err(|available| {
        SearchError::NotEnoughMemory {
            asked: mb,
            available,
            kept,
        }
    })
}

struct Job {
    shared: Arc<Shared>,
    handle: JoinHandle<Vec<History>>,
}

/// The search threads and their tables.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    hash_mb: usize,
    threads: usize,
    histories: Vec<History>,
    settings: Settings,
    /// Seed of the evaluation noise, fixed for a game.
    seed: u64,
    /// The loaded net (used when [`Settings::use_nnue`] is on).
    net: Option<Arc<Network>>,
    job: Option<Job>,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new()
    }
}

impl Searcher {
    /// An idle searcher with default settings, one thread and [`DEFAULT_HASH_MB`]
    /// of hash.
    pub fn new() -> Searcher {
        Searcher::with_table(TranspositionTable::new(DEFAULT_HASH_MB), DEFAULT_HASH_MB)
    }

    /// An idle searcher like [`Searcher::new`] but with a table of `mb` megabytes
    /// (0: [`DEFAULT_HASH_MB`]), allocated once at that size: a service running
    /// many small searchers never holds the default table first. Refused like
    /// [`Searcher::set_hash`]: beyond [`MAX_HASH_MB`] or the memory available.
    pub fn with_hash_mb(mb: usize) -> Result<Searcher, SearchError> {
        let mb = hash_size(mb)?;
        check_memory(mb, 0, None)?;
        let tt = TranspositionTable::try_new(mb).map_err(|_| SearchError::NoMemory {
            asked: mb,
            kept: None,
        })?;
        Ok(Searcher::with_table(tt, mb))
    }

    fn with_table(tt: TranspositionTable, hash_mb: usize) -> Searcher {
        Searcher {
            tt: Arc::new(tt),
            hash_mb,
            threads: 1,
            histories: vec![History::new()],
            settings: Settings::default(),
            seed: 0x2545_F491_4F6C_DD1D,
            net: None,
            job: None,
        }
    }

    /// Joins a finished search, taking its history tables back.
    fn reap(&mut self) {
        if self.job.as_ref().is_some_and(|j| j.handle.is_finished()) {
            self.wait();
        }
    }

    fn require_idle(&mut self) -> Result<(), SearchError> {
        self.reap();
        if self.job.is_some() {
            Err(SearchError::Busy)
        } else {
            Ok(())
        }
    }

    /// True while a search is running.
    pub fn is_searching(&mut self) -> bool {
        self.reap();
        self.job.is_some()
    }

    /// The settings of the next search.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The settings of the next search, to change (a running search keeps its
    /// own copy).
    pub fn settings_mut(&mut self) -> &mut Settings {
        &mut self.settings
    }

    /// Replaces the loaded net (`None`: no net) from the next search on; a
    /// running search keeps the net it started with.
    pub fn set_net(&mut self, net: Option<Arc<Network>>) {
        self.net = net;
    }

    /// The loaded net.
    pub fn net(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// The net the next search evaluates with: the loaded one when
    /// [`Settings::use_nnue`] is on at full knowledge, else `None` (the
    /// hand-written evaluation).
    pub fn active_net(&self) -> Option<&Arc<Network>> {
        self.net
            .as_ref()
            .filter(|_| self.settings.use_nnue && self.settings.knowledge == Knowledge::Full)
    }

    /// Resizes the transposition table to `mb` megabytes (0: the default), which
    /// empties it; needs an idle searcher. A larger table is first checked against
    /// the memory available ([`memory::check_hash`]): beyond it, the request is
    /// refused at once and the current table kept.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), SearchError> {
        let mb = hash_size(mb)?;
        self.require_idle()?;
        if mb == self.hash_mb {
            return Ok(());
        }
        let old = self.hash_mb;
        if mb > old {
            check_memory(mb, old, Some(old))?;
        }
        // Free the old table first so that both never coexist.
        self.tt = Arc::new(TranspositionTable::new(1));
        match TranspositionTable::try_new(mb) {
            Ok(t) => {
                self.tt = Arc::new(t);
                self.hash_mb = mb;
                Ok(())
            }
            Err(_) => {
                self.tt = Arc::new(TranspositionTable::new(old));
                Err(SearchError::NoMemory {
                    asked: mb,
                    kept: Some(old),
                })
            }
        }
    }

    /// The size of the transposition table in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Empties the transposition table; needs an idle searcher.
    pub fn clear_hash(&mut self) -> Result<(), SearchError> {
        self.require_idle()?;
        self.tt.clear();
        Ok(())
    }

    /// Sets the number of search threads (0: one per core); needs an idle
    /// searcher.
    pub fn set_threads(&mut self, n: usize) -> Result<(), SearchError> {
        let n = if n == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            n
        };
        if n > MAX_THREADS {
            return Err(SearchError::BadValue(n.to_string()));
        }
        self.require_idle()?;
        self.threads = n;
        self.histories.resize_with(n, History::new);
        Ok(())
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// A new game: clears the hash and the history tables and draws a new seed for
    /// the evaluation noise. Needs an idle searcher.
    pub fn new_game(&mut self) -> Result<(), SearchError> {
        self.require_idle()?;
        self.tt.clear();
        for h in &mut self.histories {
            h.clear();
        }
        self.seed = self
            .seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        Ok(())
    }

    /// The transposition-table entry of `pos`, if any (allowed while thinking).
    pub fn probe(&self, pos: &Position) -> Option<TtEntry> {
        let mut f = RepetitionFilter::new();
        f.init(pos);
        self.tt
            .probe(tt::table_key(pos, f.maybe_repeated(pos.key())))
    }

    /// The root moves of a search of `pos` with `limits`: legal, not in `banned`,
    /// among `searchmoves` if any are given, and not forbidden by the repetition
    /// rules (moves completing a cycle the mover must vary, see
    /// [`repetition::forbidden_moves`]) unless nothing else is left.
    pub fn root_moves(&self, pos: &Position, banned: &[Move], limits: &Limits) -> Vec<Move> {
        let allowed: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| !banned.contains(m))
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .collect();
        let forbidden = repetition::forbidden_moves(pos, self.settings.rules);
        if forbidden.is_empty() {
            return allowed;
        }
        let varied: Vec<Move> = allowed
            .iter()
            .copied()
            .filter(|m| !forbidden.contains(m))
            .collect();
        if varied.is_empty() { allowed } else { varied }
    }

    /// Starts a search of `pos` (with its move history) over its
    /// [`Searcher::root_moves`] and returns its events; the last event is always
    /// [`Event::BestMove`]. Fails if a search is running.
    pub fn go(
        &mut self,
        pos: &Position,
        banned: &[Move],
        limits: Limits,
    ) -> Result<Receiver<Event>, SearchError> {
        self.require_idle()?;
        let (tx, rx) = unbounded();
        let moves = self.root_moves(pos, banned, &limits);
        if moves.is_empty() {
            if pos.legal_moves().is_empty() {
                let v = mated_in(0);
                let _ = tx.send(Event::Info(Info {
                    depth: 0,
                    seldepth: 0,
                    multipv: 1,
                    value: v,
                    bound: None,
                    nodes: 0,
                    nps: 0,
                    time_ms: 0,
                    hashfull: 0,
                    pv: Vec::new(),
                }));
            }
            let _ = tx.send(Event::BestMove(BestMove::none()));
            return Ok(rx);
        }
        self.tt.new_search();
        let threads = self.threads.max(1);
        self.histories.resize_with(threads, History::new);
        let shared = Arc::new(Shared {
            tt: Arc::clone(&self.tt),
            stop: AtomicBool::new(false),
            released: AtomicBool::new(false),
            pondering: AtomicBool::new(limits.ponder),
            draw_offered: AtomicBool::new(limits.draw_offered),
            time: TimeManager::new(
                &limits,
                self.settings.move_overhead_ms,
                self.settings.ponder,
            ),
            limits,
            settings: self.settings,
            eval: self.settings.eval_config(self.seed),
            net: self.active_net().cloned(),
            nodes: (0..threads).map(|_| Counter::default()).collect(),
        });
        let histories = std::mem::take(&mut self.histories);
        let pos = pos.clone();
        let sh = Arc::clone(&shared);
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(STACK_SIZE)
            .spawn(move || run_search(&sh, pos, moves, histories, tx))
            .expect("the search thread starts");
        self.job = Some(Job { shared, handle });
        Ok(rx)
    }

    /// Asks a running search to stop (it still reports its best move).
    pub fn stop(&self) {
        if let Some(j) = &self.job {
            j.shared.released.store(true, Ordering::Relaxed);
            j.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The opponent played the expected move (and perhaps offers a draw): a ponder
    /// search becomes a normal timed search from now on.
    pub fn ponderhit(&self, draw_offered: bool) {
        if let Some(j) = &self.job {
            if draw_offered {
                j.shared.draw_offered.store(true, Ordering::Relaxed);
            }
            j.shared.time.ponderhit();
            j.shared.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// Waits for the running search (if any) to finish.
    pub fn wait(&mut self) {
        if let Some(job) = self.job.take() {
            match job.handle.join() {
                Ok(h) => self.histories = h,
                Err(_) => self.histories = (0..self.threads).map(|_| History::new()).collect(),
            }
        }
    }

    /// Searches `pos` synchronously (no banned moves) and returns the final answer
    /// (bench, tests).
    pub fn search(&mut self, pos: &Position, limits: Limits) -> Result<BestMove, SearchError> {
        let rx = self.go(pos, &[], limits)?;
        let best = event::final_answer(&rx);
        self.wait();
        Ok(best)
    }
}

impl Drop for Searcher {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// The main thread's answer once it stops: the move, its line, the depth and
/// whether the score is only a bound. `first` is the best root move as the last
/// (perhaps unfinished) iteration left them, `finished` the best of the last
/// finished iteration, at `completed` plies.
///
/// A move that beat the finished iteration's best in an unfinished iteration is
/// played, but its score is only what it was searched to: at least that much
/// (`Bound::Lower`), one ply deeper. Otherwise the finished iteration answers, with
/// its exact score: an unfinished iteration's fail high or low is never passed off
/// as a score.
fn answer(
    first: &RootMove,
    finished: Option<&RootMove>,
    completed: i32,
) -> (RootMove, i32, Option<Bound>) {
    match finished {
        Some(f)
            if first.mv == f.mv
                || first.score == -INFINITE
                || first.bound == Some(Bound::Upper) =>
        {
            (f.clone(), completed, None)
        }
        Some(_) => (first.clone(), completed + 1, Some(Bound::Lower)),
        None => (first.clone(), completed.max(1), first.bound),
    }
}

fn run_search(
    sh: &Shared,
    pos: Position,
    moves: Vec<Move>,
    mut histories: Vec<History>,
    tx: Sender<Event>,
) -> Vec<History> {
    let root_moves: Vec<RootMove> = moves.iter().map(|&m| RootMove::new(m)).collect();
    let (main_hist, helper_hists) = histories.split_first_mut().expect("one thread");
    let (chosen, depth, bound, reported) = std::thread::scope(|s| {
        let helpers: Vec<_> = helper_hists
            .iter_mut()
            .enumerate()
            .map(|(i, h)| {
                let pos = pos.clone();
                let rms = root_moves.clone();
                std::thread::Builder::new()
                    .stack_size(STACK_SIZE)
                    .spawn_scoped(s, move || {
                        let mut w = Worker::new(i + 1, sh, pos, rms, h, None);
                        w.iterate();
                        (w.completed_depth, w.best.clone())
                    })
                    .expect("a helper thread starts")
            })
            .collect();
        let mut w = Worker::new(0, sh, pos.clone(), root_moves.clone(), main_hist, Some(&tx));
        w.iterate();
        // An infinite or ponder search never answers before stop/ponderhit.
        while !sh.released.load(Ordering::Relaxed)
            && (sh.limits.infinite || sh.pondering.load(Ordering::Relaxed))
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        sh.stop.store(true, Ordering::Relaxed);
        let (mut chosen, mut depth, mut bound) =
            answer(&w.root_moves[0], w.best.as_ref(), w.completed_depth);
        // A weakened level plays one of the lines of its last completed iteration.
        let skilled = sh
            .settings
            .skill
            .and_then(|s| s.pick(&w.lines, pos.key() ^ sh.eval.seed));
        let last_reported = w.best.clone();
        let reported_depth = w.completed_depth;
        for h in helpers {
            if let Ok((d, Some(rm))) = h.join()
                && d > depth
                && (rm.best_score() >= chosen.best_score() || sh.limits.depth == Some(d))
            {
                chosen = rm;
                depth = d;
                bound = None;
            }
        }
        if let Some(line) = skilled {
            chosen = line;
            depth = w.completed_depth;
            bound = None;
        }
        // The main thread already reported this line unless the search was cut
        // short inside an iteration or a helper's line was chosen (a helper's
        // deeper line may be the same moves with the same score: it is still
        // reported, at its depth).
        let reported = bound.is_none()
            && depth == reported_depth
            && last_reported.is_some_and(|b| {
                b.mv == chosen.mv && b.pv == chosen.pv && b.best_score() == chosen.best_score()
            });
        (chosen, depth, bound, reported)
    });
    let value = chosen.best_score();
    let nodes = sh.total_nodes();
    let time_ms = sh.time.elapsed_ms();
    if !reported {
        let _ = tx.send(Event::Info(Info {
            depth: depth.max(1),
            seldepth: chosen.seldepth.max(1),
            multipv: 1,
            value,
            bound,
            nodes,
            nps: nodes * 1000 / time_ms.max(1),
            time_ms,
            hashfull: sh.tt.hashfull(),
            pv: chosen.pv.clone(),
        }));
    }
    let ponder = chosen.pv.get(1).copied().or_else(|| {
        let mut p = pos.clone();
        p.make_move(chosen.mv);
        sh.tt
            .probe(tt::table_key(&p, false))
            .map(|e| e.mv)
            .filter(|&m| m.is_some() && p.is_legal(m))
    });
    let offer = if sh.draw_offered.load(Ordering::Relaxed) && value <= DRAW_ACCEPT_SCORE {
        Some(Offer::Draw)
    } else if sh.settings.resign && value <= RESIGN_SCORE && depth >= RESIGN_MIN_DEPTH {
        Some(Offer::Resign)
    } else {
        None
    };
    let _ = tx.send(Event::BestMove(BestMove {
        best: Some(chosen.mv),
        ponder,
        offer,
        value: Some(value as Value),
        depth,
        nodes,
    }));
    histories
}
