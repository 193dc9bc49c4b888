//! The bench: a fixed-depth search of fixed positions whose total node count is the
//! engine's signature (deterministic with one thread: no time-dependent behaviour
//! under a depth limit), and whose speed is the engine's nodes per second.

use crate::core::Position;
use crate::eval::nnue::Network;
use crate::search::limits::Limits;
use crate::search::repetition::RepetitionRules;
use crate::search::searcher::{SearchError, Searcher};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Default bench depth.
pub const DEFAULT_DEPTH: i32 = 12;

/// The bench positions: the start position, the perft positions of the Chinese
/// Chess Programming Wiki list and our perft suite, and middlegames and endgames
/// taken from the engine's own games.
pub const POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    // Openings: central cannon vs screen horses, same-direction cannons, pawn
    // opening, cannon-to-the-palace-corner, elephant opening, rook lines.
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4",
    "rnbakabr1/9/1c2c1n2/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4",
    "rnbakab1r/9/1c4nc1/p1p1p3p/6p2/2P6/P3P1P1P/1CN4C1/9/R1BAKABNR w - - 4 3",
    "1rbakabnr/9/1cn4c1/p3p1p1p/2p6/9/P1P1P1P1P/2N1C2C1/9/1RBAKABNR w - - 6 4",
    "r1bakab1r/9/1cn3nc1/p3p1p1p/2p6/6P2/P1P1P3P/1CN3NC1/9/R1BAKAB1R w - - 6 4",
    "r1bakabnr/9/1cn2c3/p1p1p1p1p/9/6P2/P1P1P3P/1C4NC1/9/RNBAKAB1R w - - 4 3",
    "rnbakabr1/9/1c2c1n2/p1p1p1p1p/9/9/P1P1P1P1P/1C2B1NC1/9/RN1AKABR1 w - - 6 4",
    "1rbakab1r/9/1cn3n1c/p3p1R1p/2p6/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB2 w - - 1 6",
    "r1bakabr1/9/1cn3n2/p3p1p1p/2p6/9/P1P1P1PcP/2NC2NC1/9/1RBAKABR1 w - - 10 6",
    // Sharp middlegames from the engine's own games.
    "1nbakab2/r8/6nc1/p1p1C1pCp/9/9/P1P1P1P1P/Rc3r3/4A4/1NB1KABNR b - - 6 7",
    "2bakab2/9/2n4R1/pRp3p1p/9/4C4/P1P1P1P1P/9/4K4/1NB2rr2 b - - 1 16",
    "2bakab2/2R6/2n6/p1p3p1p/9/1R2Cr3/P3r3P/B2K5/9/1N7 b - - 9 27",
    "2b1kab2/4a4/9/p1p1R3p/9/1R2C4/8P/4K4/5r3/r8 w - - 9 40",
    "5ab2/9/3Rk4/p7p/9/9/8P/5r3/3K5/9 b - - 10 51",
    // Endgames: rook and pawn against the full defence, horse and pawn against
    // advisors, cannon and pawns against elephants, rook against horse and
    // advisors.
    "3aka3/9/4b4/4P4/2b6/9/9/9/9/3K1R3 w - - 0 1",
    "4k4/4a4/3a5/9/9/4P4/9/9/4N4/5K3 w - - 0 1",
    "2b1k4/9/4b4/9/2P3P2/9/9/3C5/9/4K4 w - - 0 1",
    "3ak4/4a4/4n4/9/9/9/9/9/9/4K1R2 w - - 0 1",
];

/// Result of a bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes per position.
    pub nodes: Vec<u64>,
    /// Total nodes: the signature.
    pub total_nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.total_nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Runs the bench: every position searched to `depth` from a cleared table, with
/// the engine's defaults: the built-in net and the CXA 2011 repetition rules.
pub fn run(depth: i32, threads: usize, hash_mb: usize) -> Result<BenchResult, SearchError> {
    let net = crate::eval::nnue::builtin::builtin().ok();
    run_with(depth, threads, hash_mb, RepetitionRules::default(), net)
}

/// [`run`] with the given repetition rules (to measure what the 棋例 cost against
/// [`RepetitionRules::AllDraws`]) and evaluation: the hand-written one, or `net`
/// (to measure the neural evaluation's speed; another signature).
pub fn run_with(
    depth: i32,
    threads: usize,
    hash_mb: usize,
    rules: RepetitionRules,
    net: Option<Arc<Network>>,
) -> Result<BenchResult, SearchError> {
    let mut searcher = Searcher::new();
    searcher.settings_mut().rules = rules;
    searcher.settings_mut().use_nnue = net.is_some();
    searcher.set_net(net);
    searcher.set_threads(threads)?;
    searcher.set_hash(hash_mb)?;
    let mut nodes = Vec::with_capacity(POSITIONS.len());
    let start = Instant::now();
    for fen in POSITIONS {
        searcher.new_game()?;
        let pos = Position::from_fen(fen).expect("bench positions are legal");
        let best = searcher.search(&pos, Limits::depth(depth))?;
        nodes.push(best.nodes);
    }
    let elapsed = start.elapsed();
    Ok(BenchResult {
        total_nodes: nodes.iter().sum(),
        nodes,
        elapsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Terminal;

    #[test]
    fn positions_are_legal_and_playable() {
        assert!(POSITIONS.len() >= 30, "{}", POSITIONS.len());
        for fen in POSITIONS {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(pos.terminal(), Terminal::Ongoing, "{fen}");
        }
        let mut sorted: Vec<_> = POSITIONS.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), POSITIONS.len(), "duplicates");
    }

    #[test]
    fn bench_is_deterministic() {
        let a = run(4, 1, 4).unwrap();
        let b = run(4, 1, 4).unwrap();
        assert_eq!(a.nodes, b.nodes);
    }
}
