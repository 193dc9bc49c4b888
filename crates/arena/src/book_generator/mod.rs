//! The book generator behind `chuhan book generate`: grows an opening book from
//! Chuhan's own searches.
//!
//! From the start position, ply by ply: each position of the current ply is searched
//! to a fixed depth with MultiPV, the replies within `margin` centipawns of the best
//! (at most `width` different ones) enter the book, and the positions they lead to
//! form the next ply. A reply `Δ` centipawns below the best gets the weight
//!
//! ```text
//! weight = round(1000 · 2^(−Δ / 25))      (at least 1; constants in book/params.rs)
//! ```
//!
//! so the best move weighs 1000, one 25 cp worse 500.
//!
//! * **Transpositions and mirrors** are searched once: positions are identified by
//!   their folded key (the smaller of the position's and its mirror image's key), and a
//!   position already searched or queued is not queued again. In a position that is
//!   its own mirror image (the start position) a move and its mirror image lead to one
//!   position and count as one reply; both enter the book with the same weight.
//! * **Order and budget**: each ply is searched in decreasing order of how likely a
//!   game following the book reaches the position (the product of the weight shares
//!   `weight / Σ weights` along the way, summed over transpositions), ties by folded
//!   key. `max_positions` stops the generation after that many searches, so a partly
//!   searched last ply holds its most likely positions.
//! * **Determinism**: every search starts from a fresh engine state (empty hash and
//!   history tables, one search thread) on a position without history (sixty-move
//!   counter 0), and results are merged in that fixed order, so the book depends on
//!   the options and the engine version only, not on `threads`, which only says how
//!   many positions are searched at once.
//! * **Work units**: [`Growth`] is the generation ply by ply (the positions to
//!   search now, the analyses that advance it). [`generate`] searches each ply
//!   itself; [`plan`] splits a ply into units that [`unit`](mod@unit) searches anywhere
//!   (`chuhan book generate --plan/--unit/--merge`, a Ray cluster) and merges back
//!   into the same book.

pub mod plan;
pub mod unit;

use chuhan_engine::book::{BookAssembler, BookMove, OwnBook, fold, params};
use chuhan_engine::core::{Move, Position, Setup};
use chuhan_engine::engine::{Engine, EngineOption};
use chuhan_engine::search::{Event, Limits, Value};
use crossbeam_channel::unbounded;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Book moves are searched for the first `plies` plies (positions 0 to
    /// `plies − 1` moves deep).
    pub plies: u32,
    /// Search depth of every position past the opening plies.
    pub depth: i32,
    /// The positions of the first `deep_plies` plies are searched to `deep_depth`
    /// instead (0: none): the first moves are few and decide most of a book's
    /// games, so they are worth a deeper search.
    pub deep_plies: u32,
    /// Search depth of the first `deep_plies` plies.
    pub deep_depth: i32,
    /// At most this many different replies per position.
    pub width: usize,
    /// Replies more than this many centipawns below the best are left out.
    pub margin: Value,
    /// Stop after this many searched positions (`None`: search every position of
    /// the first `plies` plies).
    pub max_positions: Option<usize>,
    /// Positions searched at once, each by a one-thread engine.
    pub threads: usize,
    /// Hash size of each engine in MB.
    pub hash_mb: usize,
}

impl Default for GenerateOptions {
    fn default() -> GenerateOptions {
        GenerateOptions {
            plies: 8,
            depth: 8,
            deep_plies: 0,
            deep_depth: 8,
            width: params::DEFAULT_GENERATE_WIDTH,
            margin: params::DEFAULT_GENERATE_MARGIN_CP,
            max_positions: None,
            threads: 1,
            hash_mb: params::DEFAULT_GENERATE_HASH_MB,
        }
    }
}

/// Options the generator cannot work with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// `plies` is 0.
    NoPlies,
    /// `depth` is below 1 or above the search's limit.
    Depth(i32),
    /// `width` is 0.
    NoWidth,
    /// `margin` is negative.
    Margin(Value),
    /// `threads` is 0.
    NoThreads,
    /// The engine refused the hash size.
    Hash(String),
    /// The start position has no legal move.
    NoMoves,
    /// Analyses handed to [`Growth::advance`] do not fit its positions.
    Analysis(String),
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::NoPlies => f.write_str("plies must be at least 1"),
            GenerateError::Depth(d) => write!(f, "depth must be from 1 to 100, not {d}"),
            GenerateError::NoWidth => f.write_str("width must be at least 1"),
            GenerateError::Margin(m) => write!(f, "margin must not be negative, not {m}"),
            GenerateError::NoThreads => f.write_str("threads must be at least 1"),
            GenerateError::Hash(e) => write!(f, "hash: {e}"),
            GenerateError::NoMoves => f.write_str("the start position has no legal move"),
            GenerateError::Analysis(e) => write!(f, "analyses do not fit: {e}"),
        }
    }
}

impl std::error::Error for GenerateError {}

/// Where the generation is, reported after every searched position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The ply being searched (0 = the start position).
    pub ply: u32,
    /// Positions of this ply searched so far.
    pub done_in_ply: usize,
    /// Positions of this ply that will be searched.
    pub ply_size: usize,
    /// Positions searched in all.
    pub searched: usize,
    /// The most positions that will be searched in all (from `max_positions`), if
    /// known.
    pub budget: Option<usize>,
    /// Nodes searched in all.
    pub nodes: u64,
}

/// The result of [`generate`].
#[derive(Clone, Debug)]
pub struct Generated {
    /// The book.
    pub book: OwnBook,
    /// Positions searched.
    pub searched: usize,
    /// Plies reached (positions were searched at plies `0..plies_reached`).
    pub plies_reached: u32,
    /// Nodes searched by all engines.
    pub nodes: u64,
}

/// The weight of a reply `delta` centipawns below the best move of its position.
///
/// ```
/// use chuhan_arena::book_generator::weight;
/// assert_eq!(weight(0), 1000);
/// assert_eq!(weight(25), 500);
/// assert_eq!(weight(50), 250);
/// assert_eq!(weight(10_000), 1); // never 0: every kept reply stays playable
/// ```
pub fn weight(delta: Value) -> u32 {
    let w = params::GENERATED_TOP_WEIGHT
        * (-(delta.max(0) as f64) / params::GENERATED_HALF_LIFE_CP).exp2();
    (w.round() as u32).max(1)
}

/// One line of a MultiPV search: the first move and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line's first move.
    pub mv: Move,
    /// Its value, from the side to move's point of view.
    pub value: Value,
}

/// What the search of one position gave: its MultiPV lines of the deepest
/// completed iteration, best first, and the nodes searched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// The lines, best first.
    pub lines: Vec<Line>,
    /// Nodes searched.
    pub nodes: u64,
}

/// The replies kept for a position, with their weights.
fn select(pos: &Position, lines: &[Line], options: &GenerateOptions) -> Vec<BookMove> {
    let Some(best) = lines.first().map(|l| l.value) else {
        return Vec::new();
    };
    let symmetric = fold(pos).symmetric;
    let mut kept: Vec<BookMove> = Vec::new();
    let mut children: Vec<u64> = Vec::new();
    for line in lines {
        let delta = best.saturating_sub(line.value);
        if delta > options.margin {
            break;
        }
        if kept.iter().any(|b| b.mv == line.mv) {
            continue;
        }
        let mut child = pos.clone();
        child.make_move(line.mv);
        let key = fold(&child).key;
        if !children.contains(&key) {
            if children.len() == options.width {
                continue;
            }
            children.push(key);
        }
        let entry = BookMove {
            mv: line.mv,
            weight: weight(delta),
            wdl: None,
        };
        kept.push(entry);
        // In a symmetric position the mirror image of a move is the same choice.
        if symmetric
            && line.mv.mirror() != line.mv
            && !kept.iter().any(|b| b.mv == line.mv.mirror())
        {
            kept.push(entry.mirror());
        }
    }
    kept
}

/// A fresh one-thread engine without a book for the generator.
fn engine(options: &GenerateOptions) -> Result<Engine, GenerateError> {
    let mut e = Engine::new();
    e.set_option(EngineOption::UseBook(false))
        .and_then(|()| e.set_option(EngineOption::Threads(1)))
        .and_then(|()| e.set_option(EngineOption::Hash(options.hash_mb)))
        .map_err(|err| GenerateError::Hash(err.to_string()))?;
    Ok(e)
}

/// Searches `pos` from a fresh engine state and returns its MultiPV lines of the
/// deepest completed iteration, best first, and the nodes searched.
fn analyse(e: &mut Engine, pos: &Position, options: &GenerateOptions, depth: i32) -> Analysis {
    let symmetric = fold(pos).symmetric;
    let multipv = if symmetric {
        2 * options.width
    } else {
        options.width
    };
    // The engine is idle between searches, so neither call can fail.
    let _ = e.new_game();
    let _ = e.set_option(EngineOption::MultiPv(multipv));
    e.set_position(pos.clone());
    let Ok(rx) = e.go(Limits::depth(depth)) else {
        return Analysis::default();
    };
    let mut depth = 0;
    let mut lines: Vec<(usize, Line)> = Vec::new();
    let mut nodes = 0;
    for event in rx.iter() {
        match event {
            Event::Info(i) if i.bound.is_none() && !i.pv.is_empty() && i.depth >= depth => {
                if i.depth > depth {
                    depth = i.depth;
                    lines.clear();
                }
                let line = Line {
                    mv: i.pv[0],
                    value: i.value,
                };
                match lines.iter_mut().find(|(k, _)| *k == i.multipv) {
                    Some(slot) => slot.1 = line,
                    None => lines.push((i.multipv, line)),
                }
            }
            Event::BestMove(b) => nodes = b.nodes,
            _ => {}
        }
    }
    e.wait();
    lines.sort_by_key(|(k, _)| *k);
    let mut out: Vec<Line> = lines.into_iter().map(|(_, l)| l).collect();
    // Lines are reported best first; keep that order stable if two tie.
    out.sort_by_key(|l| std::cmp::Reverse(l.value));
    Analysis { lines: out, nodes }
}

/// A position waiting to be searched.
#[derive(Clone, Debug)]
struct Queued {
    pos: Position,
    key: u64,
    reach: f64,
}

/// `pos` without its history and with the sixty-move counter at 0, so that a
/// search of it depends on the board and the side to move only.
fn normalized(pos: &Position) -> Position {
    let setup = Setup {
        rule60: 0,
        fullmove: 1,
        ..pos.to_setup()
    };
    Position::from_setup(&setup).expect("a legal position stays legal without its counters")
}

/// One-thread engines for `options`, `count` of them (positions searched at once).
pub(crate) fn engines(
    options: &GenerateOptions,
    count: usize,
) -> Result<Vec<Engine>, GenerateError> {
    (0..count.max(1)).map(|_| engine(options)).collect()
}

/// Searches `positions` (of ply `ply`, which decides the depth) with `engines` (one
/// position each at a time), calling `progress` after each; the results come back
/// in `positions`' order.
pub(crate) fn search_positions(
    engines: &mut [Engine],
    positions: &[Position],
    options: &GenerateOptions,
    ply: u32,
    mut progress: impl FnMut(usize, u64),
) -> Vec<Analysis> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = unbounded();
    let depth = options.depth_at(ply);
    let mut results: Vec<Option<Analysis>> = vec![None; positions.len()];
    std::thread::scope(|s| {
        for e in engines.iter_mut() {
            let tx = tx.clone();
            let (next, failed) = (&next, &failed);
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= positions.len() || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let r = analyse(e, &positions[i], options, depth);
                    if tx.send((i, r)).is_err() {
                        failed.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
        drop(tx);
        let mut done = 0;
        for (i, r) in rx.iter() {
            done += 1;
            progress(done, r.nodes);
            results[i] = Some(r);
        }
    });
    results
        .into_iter()
        .map(|r| r.expect("every queued position is searched"))
        .collect()
}

impl GenerateOptions {
    /// The search depth of the positions of ply `ply` (0 = the start position).
    pub fn depth_at(&self, ply: u32) -> i32 {
        if ply < self.deep_plies {
            self.deep_depth
        } else {
            self.depth
        }
    }

    /// Checks the options the generator cannot work with (all but the hash size,
    /// which the engine judges).
    pub fn check(&self) -> Result<(), GenerateError> {
        if self.plies == 0 {
            return Err(GenerateError::NoPlies);
        }
        if !(1..=100).contains(&self.depth) {
            return Err(GenerateError::Depth(self.depth));
        }
        if self.deep_plies > 0 && !(1..=100).contains(&self.deep_depth) {
            return Err(GenerateError::Depth(self.deep_depth));
        }
        if self.width == 0 {
            return Err(GenerateError::NoWidth);
        }
        if self.margin < 0 {
            return Err(GenerateError::Margin(self.margin));
        }
        if self.threads == 0 {
            return Err(GenerateError::NoThreads);
        }
        Ok(())
    }
}

/// A generation in progress, ply by ply: the positions of the current ply to
/// search ([`Growth::pending`]), and the book so far. [`generate`] searches each
/// ply itself; the work units of [`plan`] have the plies searched anywhere and
/// feed the same analyses to [`Growth::advance`], so both build the same book.
#[derive(Debug)]
pub struct Growth {
    options: GenerateOptions,
    asm: BookAssembler,
    seen: HashSet<u64>,
    current: Vec<Queued>,
    ply: u32,
    searched: usize,
    nodes: u64,
    plies_reached: u32,
}

impl Growth {
    /// A generation from `start` (normalised: no history, counters reset), before
    /// its first search.
    pub fn new(start: &Position, options: &GenerateOptions) -> Result<Growth, GenerateError> {
        options.check()?;
        let start = normalized(start);
        if start.legal_moves().is_empty() {
            return Err(GenerateError::NoMoves);
        }
        let key = fold(&start).key;
        let mut growth = Growth {
            options: *options,
            asm: BookAssembler::new(),
            seen: HashSet::from([key]),
            current: vec![Queued {
                key,
                pos: start,
                reach: 1.0,
            }],
            ply: 0,
            searched: 0,
            nodes: 0,
            plies_reached: 0,
        };
        growth.trim();
        Ok(growth)
    }

    /// Cuts the current ply to the plies and the position budget left.
    fn trim(&mut self) {
        if self.ply >= self.options.plies {
            self.current.clear();
        } else {
            let budget = self.options.max_positions.unwrap_or(usize::MAX);
            self.current.truncate(budget - self.searched);
        }
    }

    /// The ply whose positions are pending (0 = the start position).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The positions to search now, in order (empty once the generation is over).
    pub fn pending(&self) -> Vec<Position> {
        self.current.iter().map(|q| q.pos.clone()).collect()
    }

    /// Whether every ply has been searched (or the budget is spent).
    pub fn is_finished(&self) -> bool {
        self.current.is_empty()
    }

    /// Positions searched so far.
    pub fn searched(&self) -> usize {
        self.searched
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Takes the analyses of the pending positions (in [`Growth::pending`]'s
    /// order): their replies enter the book, and the positions they lead to,
    /// ordered by how likely a game following the book reaches them, become the
    /// next ply. Refuses analyses that do not fit (a wrong count, an illegal
    /// move), leaving the generation as it was.
    pub fn advance(&mut self, results: &[Analysis]) -> Result<(), GenerateError> {
        if results.len() != self.current.len() {
            return Err(GenerateError::Analysis(format!(
                "{} analyses for {} positions",
                results.len(),
                self.current.len()
            )));
        }
        for (q, a) in self.current.iter().zip(results) {
            if let Some(line) = a.lines.iter().find(|l| !q.pos.is_legal(l.mv)) {
                return Err(GenerateError::Analysis(format!(
                    "{} is illegal in {}",
                    line.mv,
                    q.pos.to_fen()
                )));
            }
        }
        self.plies_reached = self.ply + 1;
        self.searched += self.current.len();
        self.nodes += results.iter().map(|a| a.nodes).sum::<u64>();
        let mut next: Vec<Queued> = Vec::new();
        let mut index: HashMap<u64, usize> = HashMap::new();
        for (q, a) in self.current.iter().zip(results) {
            let moves = select(&q.pos, &a.lines, &self.options);
            let total: u64 = moves.iter().map(|b| b.weight as u64).sum();
            for b in &moves {
                self.asm
                    .add(&q.pos, *b)
                    .expect("legal moves, distinct in select, positions searched once");
                let mut child = q.pos.clone();
                child.make_move(b.mv);
                let child = normalized(&child);
                let key = fold(&child).key;
                let share = q.reach * b.weight as f64 / total as f64;
                if let Some(&at) = index.get(&key) {
                    next[at].reach += share;
                } else if self.seen.insert(key) && !child.legal_moves().is_empty() {
                    index.insert(key, next.len());
                    next.push(Queued {
                        pos: child,
                        key,
                        reach: share,
                    });
                }
            }
        }
        next.sort_by(|a, b| b.reach.total_cmp(&a.reach).then(a.key.cmp(&b.key)));
        self.current = next;
        self.ply += 1;
        self.trim();
        Ok(())
    }

    /// The book and its statistics (the book so far, if called before the end).
    pub fn finish(self) -> Generated {
        Generated {
            book: self.asm.finish(),
            searched: self.searched,
            plies_reached: self.plies_reached,
            nodes: self.nodes,
        }
    }
}

/// Grows a book from `start` (normally the start position) by Chuhan's own
/// searches; `progress` is called after every searched position.
pub fn generate(
    start: &Position,
    options: &GenerateOptions,
    mut progress: impl FnMut(&Progress),
) -> Result<Generated, GenerateError> {
    let mut growth = Growth::new(start, options)?;
    let mut engines = engines(options, options.threads)?;
    while !growth.is_finished() {
        let (ply, searched, before) = (growth.ply(), growth.searched(), growth.nodes());
        let positions = growth.pending();
        let ply_size = positions.len();
        let mut nodes = before;
        let results = search_positions(&mut engines, &positions, options, ply, |done, n| {
            nodes += n;
            progress(&Progress {
                ply,
                done_in_ply: done,
                ply_size,
                searched: searched + done,
                budget: options.max_positions,
                nodes,
            });
        });
        growth.advance(&results)?;
    }
    Ok(growth.finish())
}
