//! Perft: counting the leaf nodes of the legal move tree, the standard test and
//! benchmark of a move generator.

use super::mv::Move;
use super::position::Position;

/// Number of leaf nodes `depth` plies below `pos`, counting the last ply in bulk.
///
/// ```
/// use chuhan_engine::core::{perft, Position};
/// let mut pos = Position::startpos();
/// assert_eq!(perft::perft(&mut pos, 2), 1920);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let moves = pos.legal_moves();
            let mut n = 0;
            for &m in moves.as_slice() {
                pos.make_move(m);
                n += perft(pos, depth - 1);
                pos.unmake_move();
            }
            n
        }
    }
}

/// Per-root-move counts (`divide`), in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    moves
        .as_slice()
        .iter()
        .map(|&m| {
            pos.make_move(m);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake_move();
            (m, n)
        })
        .collect()
}

/// Like [`divide`], splitting the root moves over `threads` threads.
pub fn divide_parallel(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = pos.legal_moves().as_slice().to_vec();
    let threads = threads.clamp(1, moves.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<(Move, u64)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let next = &next;
                let moves = &moves;
                let mut local = pos.clone();
                s.spawn(move || {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&m) = moves.get(i) else { break };
                        local.make_move(m);
                        let n = if depth <= 1 {
                            1
                        } else {
                            perft(&mut local, depth - 1)
                        };
                        local.unmake_move();
                        out.push((i, m, n));
                    }
                    out
                })
            })
            .collect();
        let mut all: Vec<(usize, Move, u64)> = handles
            .into_iter()
            .flat_map(|h| h.join().expect("perft worker panicked"))
            .collect();
        all.sort_by_key(|e| e.0);
        all.into_iter().map(|(_, m, n)| (m, n)).collect()
    });
    results.shrink_to_fit();
    results
}

/// Perft that also checks, at every node, that the incremental key equals the key
/// computed from scratch and that unmake restores the position. Slow; for tests.
pub fn perft_checked(pos: &mut Position, depth: u32) -> u64 {
    assert_eq!(
        pos.key(),
        pos.compute_key(),
        "incremental key differs in {}",
        pos.to_fen()
    );
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    let before = pos.clone();
    let mut n = 0;
    for &m in moves.as_slice() {
        pos.make_move(m);
        n += perft_checked(pos, depth - 1);
        pos.unmake_move();
        assert!(
            *pos == before && pos.key() == before.key(),
            "unmake of {m} broke {}",
            before.to_fen()
        );
    }
    n
}
