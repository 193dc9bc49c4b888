//! [`Engine`]: the facade between the protocol and the search. It owns the game
//! position, the options, the transposition table and the search threads; a search
//! runs in the background and reports through a channel of [`Event`]s.

use crate::book::{BookMove, Randomness};
use crate::core::{Move, Position, SplitMix64};
use crate::eval::Knowledge;
use crate::search::event::{BestMove, Event, Info, Offer};
use crate::search::history::History;
use crate::search::limits::Limits;
use crate::search::params::{DRAW_ACCEPT_SCORE, RESIGN_MIN_DEPTH, RESIGN_SCORE};
use crate::search::repetition::{self, RepetitionRules};
use crate::search::score::{Score, Value, mated_in};
use crate::search::settings::{MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV, Pruning, Settings};
use crate::search::time::TimeManager;
use crate::search::tt::{self, TranspositionTable, TtEntry};
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

/// A setting of the engine, typed (the protocol translates option text into these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineOption {
    /// Transposition table size in MB (0 = default); only while idle.
    Hash(usize),
    /// Empty the transposition table; only while idle.
    ClearHash,
    /// Search threads (0 = one per core); only while idle.
    Threads(usize),
    /// Number of principal variations (clamped to 1 ..= [`MAX_MULTIPV`]).
    MultiPv(usize),
    /// Milliseconds kept in reserve per move for communication (at most
    /// [`MAX_MOVE_OVERHEAD_MS`]).
    MoveOverhead(u64),
    /// The GUI may ponder: plan a little more time per move.
    Ponder(bool),
    /// Consult the opening book.
    UseBook(bool),
    /// How book moves are chosen among several.
    BookRandomness(Randomness),
    /// How much the search prunes.
    Pruning(Pruning),
    /// Which evaluation terms count.
    Knowledge(Knowledge),
    /// Amplitude of the noise added to every evaluation (0: none).
    EvalNoise(i32),
    /// Draw value for the side that starts a search (positive: draws welcome).
    DrawValue(Value),
    /// Share of time (percent) each thread sleeps.
    IdlePercent(u32),
    /// Resign hopeless positions.
    Resign(bool),
    /// How repeated positions are scored: the 棋例 of a rule set (default CXA
    /// 2011), or every repetition a draw.
    Rules(RepetitionRules),
}

/// Why the engine refused a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The request needs an idle engine and a search is running.
    Busy,
    /// A move is not legal in the current position.
    IllegalMove(Move),
    /// An option value is out of range or unknown.
    BadValue(String),
    /// The hash table could not be allocated; the old size is kept.
    NoMemory {
        /// Megabytes asked for.
        asked: usize,
        /// Megabytes kept.
        kept: usize,
    },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Busy => write!(f, "the engine is thinking; send stop first"),
            EngineError::IllegalMove(m) => write!(f, "illegal move {m}"),
            EngineError::BadValue(v) => write!(f, "bad value '{v}'"),
            EngineError::NoMemory { asked, kept } => {
                write!(f, "cannot allocate {asked} MB of hash; keeping {kept} MB")
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// A source of opening moves, consulted before searching when `usebook` is on.
/// [`crate::book::BookSet`] implements it; the engine only asks for a move.
pub trait OpeningBook: Send {
    /// A book move for `pos` with its weight, if the book has one that may be
    /// played: legal, not in `banned`, not recreating a position of `pos`'s history.
    /// `randomness` says how to choose among several; `seed` is a fresh random
    /// number for that choice.
    fn pick(
        &self,
        pos: &Position,
        banned: &[Move],
        randomness: Randomness,
        seed: u64,
    ) -> Option<BookMove>;
}

#[derive(Clone, Copy, Debug)]
struct Options {
    threads: usize,
    hash_mb: usize,
    use_book: bool,
    book_randomness: Randomness,
}

struct Job {
    shared: Arc<Shared>,
    handle: JoinHandle<Vec<History>>,
}

/// The engine facade.
pub struct Engine {
    position: Position,
    banned: Vec<Move>,
    tt: Arc<TranspositionTable>,
    histories: Vec<History>,
    options: Options,
    settings: Settings,
    seed: u64,
    book: Option<Box<dyn OpeningBook>>,
    /// The random sequence behind book choices: seeded from the clock, so that
    /// separate runs with `randomness` on do not all open alike.
    book_draws: SplitMix64,
    job: Option<Job>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An idle engine on the start position with default options (one thread,
    /// [`DEFAULT_HASH_MB`] of hash).
    pub fn new() -> Engine {
        Engine {
            position: Position::startpos(),
            banned: Vec::new(),
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MB)),
            histories: vec![History::new()],
            options: Options {
                threads: 1,
                hash_mb: DEFAULT_HASH_MB,
                use_book: true,
                book_randomness: Randomness::None,
            },
            settings: Settings::default(),
            seed: 0x2545_F491_4F6C_DD1D,
            book: None,
            book_draws: SplitMix64::new(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64),
            ),
            job: None,
        }
    }

    /// Joins a finished search, taking its history tables back.
    fn reap(&mut self) {
        if self.job.as_ref().is_some_and(|j| j.handle.is_finished()) {
            self.wait();
        }
    }

    fn require_idle(&mut self) -> Result<(), EngineError> {
        self.reap();
        if self.job.is_some() {
            Err(EngineError::Busy)
        } else {
            Ok(())
        }
    }

    /// True while a search is running.
    pub fn is_searching(&mut self) -> bool {
        self.reap();
        self.job.is_some()
    }

    /// The current position (with its move history).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Sets the position for the next search and clears the banned moves. Allowed
    /// while thinking (the running search keeps its own copy).
    pub fn set_position(&mut self, pos: Position) {
        self.position = pos;
        self.banned.clear();
    }

    /// Forbids root moves for the next search of the current position (until the
    /// next [`Engine::set_position`]). Every move must be legal; otherwise nothing
    /// changes.
    pub fn set_banned_moves(&mut self, moves: &[Move]) -> Result<(), EngineError> {
        if let Some(&m) = moves.iter().find(|&&m| !self.position.is_legal(m)) {
            return Err(EngineError::IllegalMove(m));
        }
        self.banned = moves.to_vec();
        Ok(())
    }

    /// The moves banned at the root.
    pub fn banned_moves(&self) -> &[Move] {
        &self.banned
    }

    /// Installs (or removes) the opening book consulted before searching. Allowed
    /// while thinking (a running search does not consult the book).
    pub fn set_book(&mut self, book: Option<Box<dyn OpeningBook>>) {
        self.book = book;
    }

    /// Changes a setting. Hash, Threads and ClearHash need an idle engine.
    pub fn set_option(&mut self, opt: EngineOption) -> Result<(), EngineError> {
        let s = &mut self.settings;
        match opt {
            EngineOption::Hash(mb) => {
                let mb = if mb == 0 { DEFAULT_HASH_MB } else { mb };
                if mb > MAX_HASH_MB {
                    return Err(EngineError::BadValue(mb.to_string()));
                }
                self.require_idle()?;
                if mb != self.options.hash_mb {
                    // Free the old table first so that both never coexist.
                    self.tt = Arc::new(TranspositionTable::new(1));
                    match TranspositionTable::try_new(mb) {
                        Ok(t) => {
                            self.tt = Arc::new(t);
                            self.options.hash_mb = mb;
                        }
                        Err(_) => {
                            let old = self.options.hash_mb;
                            self.tt = Arc::new(TranspositionTable::new(old));
                            return Err(EngineError::NoMemory {
                                asked: mb,
                                kept: old,
                            });
                        }
                    }
                }
            }
            EngineOption::ClearHash => {
                self.require_idle()?;
                self.tt.clear();
            }
            EngineOption::Threads(n) => {
                let n = if n == 0 {
                    std::thread::available_parallelism().map_or(1, |n| n.get())
                } else {
                    n
                };
                if n > MAX_THREADS {
                    return Err(EngineError::BadValue(n.to_string()));
                }
                self.require_idle()?;
                self.options.threads = n;
                self.histories.resize_with(n, History::new);
            }
            EngineOption::MultiPv(n) => s.multipv = n.clamp(1, MAX_MULTIPV),
            EngineOption::MoveOverhead(ms) => s.move_overhead_ms = ms.min(MAX_MOVE_OVERHEAD_MS),
            EngineOption::Ponder(b) => s.ponder = b,
            EngineOption::Pruning(p) => s.pruning = p,
            EngineOption::Knowledge(k) => s.knowledge = k,
            EngineOption::EvalNoise(n) => s.eval_noise = n,
            EngineOption::DrawValue(v) => s.draw_value = v,
            EngineOption::IdlePercent(p) => s.idle_percent = p,
            EngineOption::Resign(b) => s.resign = b,
            EngineOption::Rules(r) => s.rules = r,
            EngineOption::UseBook(b) => self.options.use_book = b,
            EngineOption::BookRandomness(r) => self.options.book_randomness = r,
        }
        Ok(())
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.options.threads
    }

    /// A new game: clears the hash and the history tables and draws a new seed for
    /// randomness. Needs an idle engine.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
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
        let mut f = crate::search::repetition::RepetitionFilter::new();
        f.init(pos);
        self.tt
            .probe(tt::table_key(pos, f.maybe_repeated(pos.key())))
    }

    /// The search settings in force (changed by [`Engine::set_option`]).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The root moves of a search with `limits`: legal, not banned, among
    /// `searchmoves` if any are given, and not forbidden by the repetition rules
    /// (moves completing a cycle the mover must vary, see
    /// [`repetition::forbidden_moves`]) unless nothing else is left.
    pub fn root_moves(&self, limits: &Limits) -> Vec<Move> {
        let allowed: Vec<Move> = self
            .position
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| !self.banned.contains(m))
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .collect();
        let forbidden = repetition::forbidden_moves(&self.position, self.settings.rules);
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

    /// Starts a search of the current position and returns its events; the last
    /// event is always [`Event::BestMove`]. Fails if a search is running.
    pub fn go(&mut self, limits: Limits) -> Result<Receiver<Event>, EngineError> {
        self.require_idle()?;
        let (tx, rx) = unbounded();
        let moves = self.root_moves(&limits);
        if moves.is_empty() {
            if self.position.legal_moves().is_empty() {
                let v = mated_in(0);
                let _ = tx.send(Event::Info(Info {
                    depth: 0,
                    seldepth: 0,
                    multipv: 1,
                    value: v,
                    score: Score::from_value(v),
                    bound: None,
                    nodes: 0,
                    nps: 0,
                    time_ms: 0,
                    hashfull: 0,
                    pv: Vec::new(),
                }));
            }
            let _ = tx.send(Event::BestMove(BestMove {
                best: None,
                ponder: None,
                offer: None,
                value: None,
                depth: 0,
                nodes: 0,
            }));
            return Ok(rx);
        }
        // The opening book answers before any search (not when analysing).
        if self.options.use_book
            && !limits.infinite
            && !limits.ponder
            && limits.searchmoves.is_empty()
            && let Some(book) = &self.book
            && let Some(b) = book.pick(
                &self.position,
                &self.banned,
                self.options.book_randomness,
                self.book_draws.next_u64(),
            )
            && moves.contains(&b.mv)
        {
            let _ = tx.send(Event::Book {
                mv: b.mv,
                weight: b.weight,
            });
            let _ = tx.send(Event::BestMove(BestMove {
                best: Some(b.mv),
                ponder: None,
                offer: None,
                value: None,
                depth: 0,
                nodes: 0,
            }));
            return Ok(rx);
        }
        self.tt.new_search();
        let threads = self.options.threads.max(1);
        self.histories.resize_with(threads, History::new);
        let shared = Arc::new(Shared {
            tt: Arc::clone(&self.tt),
            stop: AtomicBool::new(false),
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
            nodes: (0..threads).map(|_| Counter::default()).collect(),
        });
        let histories = std::mem::take(&mut self.histories);
        let pos = self.position.clone();
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
                Err(_) => {
                    self.histories = (0..self.options.threads).map(|_| History::new()).collect()
                }
            }
        }
    }

    /// Searches synchronously and returns the final answer (tests, bench).
    pub fn search(&mut self, limits: Limits) -> Result<BestMove, EngineError> {
        let rx = self.go(limits)?;
        let mut last = None;
        for e in rx.iter() {
            if let Event::BestMove(b) = e {
                last = Some(b);
            }
        }
        self.wait();
        Ok(last.expect("a search always ends with a best move"))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
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
    let (chosen, depth, reported) = std::thread::scope(|s| {
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
        while !sh.stop.load(Ordering::Relaxed)
            && (sh.limits.infinite || sh.pondering.load(Ordering::Relaxed))
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        sh.stop.store(true, Ordering::Relaxed);
        let mut chosen = w.root_moves[0].clone();
        let mut depth = w.completed_depth;
        let last_reported = w.best.clone();
        for h in helpers {
            if let Ok((d, Some(rm))) = h.join()
                && d > depth
                && rm.best_score() >= chosen.best_score()
            {
                chosen = rm;
                depth = d;
            }
        }
        // The main thread already reported this line unless the search was cut
        // short inside an iteration or a helper's line was chosen.
        let reported = last_reported.is_some_and(|b| {
            b.mv == chosen.mv && b.pv == chosen.pv && b.best_score() == chosen.best_score()
        });
        (chosen, depth, reported)
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
            score: Score::from_value(value),
            bound: None,
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
