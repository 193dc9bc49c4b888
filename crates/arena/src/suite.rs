//! Balanced opening suites made with Chuhan's own analysis (`chuhan suite`).
//!
//! A suite line is a short random walk from the start position through moves the
//! engine itself considers reasonable, kept only if a deeper search finds the end
//! position level:
//!
//! 1. Each line gets a length between `min_plies` and `max_plies` (drawn from the
//!    seed).
//! 2. At every ply, a multi-PV search of all legal moves to `select_depth` scores
//!    each move; the candidates are the moves within `select_margin` of the best
//!    one (mate scores never qualify). One candidate is drawn uniformly. Candidate
//!    lists are cached by position, so the walks share the work near the root.
//! 3. The end position is dropped if it (or its left-right mirror image) is
//!    already in the suite, if the game is over, or if a search to `leaf_depth`
//!    scores it outside `±balance` centipawns.
//!
//! Every search starts from a cleared table with one thread, so the suite is a pure
//! function of the configuration and the engine version. Draws come from
//! [`Lots`] (SplitMix64), which is fixed across platforms and versions.

use crate::lots::Lots;
use chuhan_engine::book;
use chuhan_engine::core::{Color, Move, Position, Terminal};
use chuhan_engine::engine::{Engine, EngineError, EngineOption};
use chuhan_engine::search::Limits;
use chuhan_engine::search::event::Event;
use chuhan_engine::search::score::{Value, is_mate};
use std::collections::{HashMap, HashSet};

/// How to make a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteConfig {
    /// Number of openings wanted.
    pub count: usize,
    /// Shortest line, in plies.
    pub min_plies: usize,
    /// Longest line, in plies.
    pub max_plies: usize,
    /// Depth of the multi-PV search that picks the candidate moves.
    pub select_depth: i32,
    /// Moves within this many centipawns of the best one are candidates.
    pub select_margin: Value,
    /// Depth of the search that checks the end position.
    pub leaf_depth: i32,
    /// Largest absolute score (centipawns) of a kept end position.
    pub balance: Value,
    /// Seed of the random walks.
    pub seed: u64,
    /// Give up after this many walks.
    pub max_walks: usize,
    /// Hash size of the analysing engine, MB.
    pub hash_mb: usize,
}

impl Default for SuiteConfig {
    fn default() -> SuiteConfig {
        SuiteConfig {
            count: 100,
            min_plies: 6,
            max_plies: 10,
            select_depth: 8,
            select_margin: 30,
            leaf_depth: 12,
            balance: 50,
            seed: 1,
            max_walks: 5_000,
            hash_mb: 16,
        }
    }
}

/// One opening of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteLine {
    /// The moves from the start position.
    pub moves: Vec<Move>,
    /// The end position's score at the leaf depth, from Red's point of view.
    pub red_score: Value,
}

/// What the generator reports while it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A walk ended; `kept` tells whether its line joined the suite.
    Walk {
        /// Walks so far.
        walks: usize,
        /// Openings kept so far.
        kept: usize,
        /// The line, when kept.
        line: Option<SuiteLine>,
    },
}

/// Why a suite could not be made.
#[derive(Debug)]
pub enum SuiteGenError {
    /// The configuration is inconsistent (the text says why).
    Config(String),
    /// The analysing engine refused a request.
    Engine(EngineError),
}

impl std::fmt::Display for SuiteGenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SuiteGenError::Config(why) => write!(f, "bad suite configuration: {why}"),
            SuiteGenError::Engine(e) => write!(f, "engine: {e}"),
        }
    }
}

impl std::error::Error for SuiteGenError {}

impl From<EngineError> for SuiteGenError {
    fn from(e: EngineError) -> SuiteGenError {
        SuiteGenError::Engine(e)
    }
}

/// The analysing engine and its cache of candidate moves.
struct Analyst {
    engine: Engine,
    candidates: HashMap<u64, Vec<Move>>,
}

impl Analyst {
    fn new(hash_mb: usize) -> Result<Analyst, EngineError> {
        let mut engine = Engine::new();
        engine.set_option(EngineOption::Threads(1))?;
        engine.set_option(EngineOption::Hash(hash_mb))?;
        engine.set_option(EngineOption::UseBook(false))?;
        Ok(Analyst {
            engine,
            candidates: HashMap::new(),
        })
    }

    /// Scores of every legal move of `pos` at `depth` (side to move's view), best
    /// first.
    fn score_moves(
        &mut self,
        pos: &Position,
        depth: i32,
    ) -> Result<Vec<(Move, Value)>, EngineError> {
        let n = pos.legal_moves().len();
        self.engine.new_game()?;
        self.engine.set_option(EngineOption::MultiPv(n.max(1)))?;
        self.engine.set_position(pos.clone());
        let rx = self.engine.go(Limits::depth(depth))?;
        let mut lines: Vec<Option<(Move, Value)>> = vec![None; n];
        for e in rx.iter() {
            if let Event::Info(info) = e
                && let Some(&m) = info.pv.first()
                && (1..=n).contains(&info.multipv)
            {
                lines[info.multipv - 1] = Some((m, info.value));
            }
        }
        self.engine.wait();
        let mut scored: Vec<(Move, Value)> = lines.into_iter().flatten().collect();
        scored.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        Ok(scored)
    }

    /// The candidate moves of `pos` (cached).
    fn candidates(&mut self, pos: &Position, cfg: &SuiteConfig) -> Result<Vec<Move>, EngineError> {
        if let Some(c) = self.candidates.get(&pos.key()) {
            return Ok(c.clone());
        }
        let scored = self.score_moves(pos, cfg.select_depth)?;
        let c = match scored.first() {
            Some(&(_, best)) if !is_mate(best) => scored
                .iter()
                .filter(|&&(_, v)| v >= best - cfg.select_margin && !is_mate(v))
                .map(|&(m, _)| m)
                .collect(),
            _ => Vec::new(),
        };
        self.candidates.insert(pos.key(), c.clone());
        Ok(c)
    }

    /// The score of `pos` at `depth` from Red's point of view.
    fn red_score(&mut self, pos: &Position, depth: i32) -> Result<Value, EngineError> {
        self.engine.new_game()?;
        self.engine.set_option(EngineOption::MultiPv(1))?;
        self.engine.set_position(pos.clone());
        let v = self.engine.search(Limits::depth(depth))?.value.unwrap_or(0);
        Ok(match pos.side_to_move() {
            Color::Red => v,
            Color::Black => -v,
        })
    }
}

fn check(cfg: &SuiteConfig) -> Result<(), SuiteGenError> {
    let bad = |why: &str| Err(SuiteGenError::Config(why.into()));
    if cfg.count == 0 {
        return bad("count must be positive");
    }
    if cfg.min_plies == 0 || cfg.min_plies > cfg.max_plies || cfg.max_plies > 40 {
        return bad("plies must satisfy 1 <= min <= max <= 40");
    }
    if !(1..=30).contains(&cfg.select_depth) || !(1..=30).contains(&cfg.leaf_depth) {
        return bad("depths must be 1..30");
    }
    if cfg.select_margin < 0 || cfg.balance < 0 {
        return bad("margins must not be negative");
    }
    Ok(())
}

/// Makes a suite, calling `progress` after every walk.
pub fn generate(
    cfg: &SuiteConfig,
    mut progress: impl FnMut(&Progress),
) -> Result<Vec<SuiteLine>, SuiteGenError> {
    check(cfg)?;
    let lots = Lots::new(cfg.seed);
    let mut analyst = Analyst::new(cfg.hash_mb)?;
    let mut seen = HashSet::new();
    let mut suite = Vec::new();
    let span = (cfg.max_plies - cfg.min_plies + 1) as u64;
    for walk in 0..cfg.max_walks {
        if suite.len() >= cfg.count {
            break;
        }
        let w = walk as u64;
        let plies = cfg.min_plies + (lots.value("length", w) % span) as usize;
        let mut pos = Position::startpos();
        let mut moves = Vec::with_capacity(plies);
        for ply in 0..plies {
            let c = analyst.candidates(&pos, cfg)?;
            if c.is_empty() {
                break;
            }
            let pick = lots.value("move", w * 64 + ply as u64) % c.len() as u64;
            let m = c[pick as usize];
            pos.make_move(m);
            moves.push(m);
        }
        let mut line = None;
        if moves.len() == plies
            && pos.terminal() == Terminal::Ongoing
            && seen.insert(book::fold(&pos).key)
        {
            let red_score = analyst.red_score(&pos, cfg.leaf_depth)?;
            if red_score.abs() <= cfg.balance {
                let l = SuiteLine { moves, red_score };
                suite.push(l.clone());
                line = Some(l);
            }
        }
        progress(&Progress::Walk {
            walks: walk + 1,
            kept: suite.len(),
            line,
        });
    }
    Ok(suite)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> SuiteConfig {
        SuiteConfig {
            count: 4,
            min_plies: 2,
            max_plies: 3,
            select_depth: 2,
            select_margin: 80,
            leaf_depth: 3,
            balance: 60,
            seed: 3,
            max_walks: 200,
            hash_mb: 1,
        }
    }

    #[test]
    fn lines_are_legal_balanced_distinct_and_reproducible() {
        let cfg = small();
        let a = generate(&cfg, |_| {}).unwrap();
        assert_eq!(a.len(), 4);
        let mut keys = HashSet::new();
        for l in &a {
            assert!((2..=3).contains(&l.moves.len()));
            assert!(l.red_score.abs() <= 60);
            let mut pos = Position::startpos();
            for &m in &l.moves {
                assert!(pos.is_legal(m), "{m}");
                pos.make_move(m);
            }
            assert!(keys.insert(book::fold(&pos).key), "mirror duplicate");
        }
        assert_eq!(a, generate(&cfg, |_| {}).unwrap());
    }

    #[test]
    fn a_zero_balance_keeps_only_level_lines() {
        let cfg = SuiteConfig {
            balance: 0,
            max_walks: 20,
            ..small()
        };
        for l in generate(&cfg, |_| {}).unwrap() {
            assert_eq!(l.red_score, 0);
        }
    }

    #[test]
    fn bad_configurations_are_refused() {
        for cfg in [
            SuiteConfig {
                count: 0,
                ..small()
            },
            SuiteConfig {
                min_plies: 4,
                max_plies: 3,
                ..small()
            },
            SuiteConfig {
                select_depth: 0,
                ..small()
            },
            SuiteConfig {
                balance: -1,
                ..small()
            },
        ] {
            assert!(matches!(
                generate(&cfg, |_| {}),
                Err(SuiteGenError::Config(_))
            ));
        }
    }
}
