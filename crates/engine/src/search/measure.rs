//! Measurements of the search's shape, for `chuhan bench --ebf`, `--ttd` and
//! `--mates`: the effective branching factor (how many times more nodes each
//! further ply costs), the time to reach a depth with several threads against one,
//! and the mate suite (positions whose shortest forced mate is known).
//!
//! All three search from a new game each time (cleared table and histories), with
//! no book: the searcher knows none.

use crate::core::Position;
use crate::search::event::Event;
use crate::search::limits::Limits;
use crate::search::score::Score;
use crate::search::searcher::{SearchError, Searcher};
use std::time::{Duration, Instant};

/// The positions of the effective branching factor (`../shared/reference/strength.md`):
/// the start position and three middlegames. The last one is written there with a
/// third red advisor (`…/9/4A4/2BAKAB2`), which is not a legal position; this is the
/// same structure with the two advisors it can have.
pub const EBF_POSITIONS: [&str; 4] = [
    crate::core::START_FEN,
    "r1bakabr1/9/1cn3nc1/p1p1p2Rp/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB2 b - - 9 5",
    "r2akab1r/9/1cn1b1n2/p1p1p1p1p/9/2P6/P3P1P1P/1CN1B1N2/9/R2AKAB1R w - - 0 1",
    "3akab2/9/4b4/p3p3p/2p3p2/9/P1P1P1P1P/9/9/2BAKAB2 w - - 0 1",
];

/// The effective branching factor is measured from this depth ...
pub const EBF_FROM_DEPTH: i32 = 10;
/// ... to this one.
pub const EBF_TO_DEPTH: i32 = 16;

/// The positions of the time-to-depth measurement: the four of the branching
/// factor, two sharp middlegames and two endgames of the bench.
pub const TTD_POSITIONS: [&str; 8] = [
    EBF_POSITIONS[0],
    EBF_POSITIONS[1],
    EBF_POSITIONS[2],
    EBF_POSITIONS[3],
    "1nbakab2/r8/6nc1/p1p1C1pCp/9/9/P1P1P1P1P/Rc3r3/4A4/1NB1KABNR b - - 6 7",
    "2bakab2/9/2n4R1/pRp3p1p/9/4C4/P1P1P1P1P/9/4K4/1NB2rr2 b - - 1 16",
    "3aka3/9/4b4/4P4/2b6/9/9/9/9/3K1R3 w - - 0 1",
    "4k4/4a4/3a5/9/9/4P4/9/9/4N4/5K3 w - - 0 1",
];

/// The default depth of the time-to-depth measurement (about a second per position
/// on one thread of this project's machine class).
pub const TTD_DEFAULT_DEPTH: i32 = 16;

/// The mate suite: positions and the length in moves of their shortest forced mate
/// (stalemate, 困斃, also wins). `tests/search.rs` checks each length by brute
/// force and that the engine finds it and plays a move that keeps it.
pub const MATES: &[(&str, u32)] = &[
    // Two rooks: the king is boxed on the back rank (the flying general covers e9).
    ("3k5/R8/9/9/9/9/9/9/9/R3K4 w", 1),
    // Rook and cannon against two advisors.
    ("4ka3/4a4/9/9/9/9/9/9/9/2R1K1C2 w", 1),
    // Two rooks from afar.
    ("4k4/9/9/9/9/9/9/9/9/RR1K5 w", 2),
    // Cannon and rook.
    ("5k3/9/9/9/9/9/9/9/4C4/R2K5 w", 2),
    ("3k5/4a4/9/9/9/9/9/9/4C4/R3K4 w", 3),
    // Mate in two by stalemate (困斃 loses): a quiet rook move boxes the king in.
    ("5k3/9/9/9/9/9/9/9/9/R2K5 w", 2),
    // A rook against two advisors, with the king's help.
    ("4ka3/4a4/9/9/9/9/9/9/9/R2K5 w", 3),
    // Rook and cannon against advisors.
    ("4k4/4a4/9/9/9/9/9/9/9/R2K1C3 w", 4),
    ("3aka3/9/9/9/9/9/9/9/9/R2K1C3 w", 4),
    ("4k4/9/3a5/9/9/9/9/9/4C4/R2K5 w", 4),
];

/// The depth at which the mate suite searches a mate in `moves` moves.
pub fn mate_depth(moves: u32) -> i32 {
    2 * moves as i32 + 12
}

/// The effective branching factor between two iterations: `(to / from)` per ply.
///
/// ```
/// use chuhan_engine::search::measure::ebf;
/// assert!((ebf(1_000, 64_000, 6) - 2.0).abs() < 1e-9);
/// ```
pub fn ebf(nodes_from: u64, nodes_to: u64, plies: i32) -> f64 {
    (nodes_to as f64 / nodes_from.max(1) as f64).powf(1.0 / plies.max(1) as f64)
}

/// Searches `pos` to `depth` from a new game and returns the nodes searched by the
/// end of each iteration, as `(depth, nodes)` in increasing depth.
pub fn nodes_per_iteration(
    searcher: &mut Searcher,
    pos: &Position,
    depth: i32,
) -> Result<Vec<(i32, u64)>, SearchError> {
    searcher.new_game()?;
    let events = searcher.go(pos, &[], Limits::depth(depth))?;
    let mut out: Vec<(i32, u64)> = Vec::new();
    for e in events.iter() {
        if let Event::Info(i) = e
            && i.multipv == 1
            && i.bound.is_none()
        {
            match out.last_mut() {
                Some(last) if last.0 == i.depth => last.1 = i.nodes,
                _ => out.push((i.depth, i.nodes)),
            }
        }
    }
    searcher.wait();
    Ok(out)
}

/// The nodes at the end of iteration `depth`, if it was reported.
pub fn nodes_at(iterations: &[(i32, u64)], depth: i32) -> Option<u64> {
    iterations
        .iter()
        .rev()
        .find(|(d, _)| *d == depth)
        .map(|(_, n)| *n)
}

/// Time to finish iteration `depth` of `pos` from a new game with the searcher's
/// threads.
pub fn time_to_depth(
    searcher: &mut Searcher,
    pos: &Position,
    depth: i32,
) -> Result<Duration, SearchError> {
    searcher.new_game()?;
    let start = Instant::now();
    searcher.search(pos, Limits::depth(depth))?;
    Ok(start.elapsed())
}

/// The mate length the engine reports for `pos` at [`mate_depth`]`(moves)` from a
/// new game (`None`: no mate score).
pub fn reported_mate(
    searcher: &mut Searcher,
    pos: &Position,
    moves: u32,
) -> Result<Option<i32>, SearchError> {
    searcher.new_game()?;
    let best = searcher.search(pos, Limits::depth(mate_depth(moves)))?;
    Ok(best.value.and_then(|v| match Score::from_value(v) {
        Score::Mate(m) => Some(m),
        Score::Cp(_) => None,
    }))
}

/// The geometric mean of positive numbers (1 for none).
///
/// ```
/// use chuhan_engine::search::measure::geometric_mean;
/// assert!((geometric_mean(&[1.0, 4.0]) - 2.0).abs() < 1e-9);
/// ```
pub fn geometric_mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 1.0;
    }
    (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp()
}

/// The median of some durations (the lower middle one of an even count).
pub fn median(xs: &mut [Duration]) -> Duration {
    xs.sort();
    xs.get(xs.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_legal() {
        for fen in EBF_POSITIONS.iter().chain(&TTD_POSITIONS) {
            Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        }
        for (fen, _) in MATES {
            Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        }
    }

    #[test]
    fn iterations_count_up_to_the_depth() {
        let mut s = Searcher::new();
        let it = nodes_per_iteration(&mut s, &Position::startpos(), 6).unwrap();
        let depths: Vec<i32> = it.iter().map(|x| x.0).collect();
        assert_eq!(depths, (1..=6).collect::<Vec<_>>());
        assert!(it.windows(2).all(|w| w[0].1 <= w[1].1), "{it:?}");
        // Deterministic with one thread, and the same as a second run.
        assert_eq!(
            nodes_per_iteration(&mut s, &Position::startpos(), 6).unwrap(),
            it
        );
        assert_eq!(nodes_at(&it, 6), Some(it[5].1));
        assert_eq!(nodes_at(&it, 7), None);
    }

    #[test]
    fn median_of_durations() {
        let ms = Duration::from_millis;
        assert_eq!(median(&mut [ms(3), ms(1), ms(2)]), ms(2));
        assert_eq!(median(&mut [ms(4), ms(1), ms(2), ms(3)]), ms(2));
        assert_eq!(median(&mut []), Duration::ZERO);
    }
}
