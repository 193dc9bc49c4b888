//! Perft against the published counts in `tests/data/perft.txt` (copied from
//! `../shared/data/perft.txt`). Lines up to about 2 M nodes run by default; deeper
//! ones are `#[ignore]`d: `make perft-deep` (or `cargo test --release --test perft
//! -- --ignored`) runs them.

use chuhan_engine::core::{Position, perft};

struct Case {
    id: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../../../tests/data/perft.txt");
    let (mut id, mut fen) = (String::new(), String::new());
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("id ") {
            id = rest.to_string();
        } else if let Some(rest) = line.strip_prefix("epd ") {
            fen = rest.to_string();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace();
            let depth = it.next().unwrap().parse().unwrap();
            let nodes = it.next().unwrap().parse().unwrap();
            out.push(Case {
                id: id.clone(),
                fen: fen.clone(),
                depth,
                nodes,
            });
        }
    }
    out
}

const DEFAULT_LIMIT: u64 = 2_500_000;

fn run(filter: impl Fn(&Case) -> bool) {
    let all = cases();
    assert!(all.len() > 50, "the data file was not read");
    for c in all.iter().filter(|c| filter(c)) {
        let mut pos = Position::from_fen(&c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.id));
        assert_eq!(
            perft::perft(&mut pos, c.depth),
            c.nodes,
            "{} depth {}",
            c.id,
            c.depth
        );
    }
}

#[test]
fn perft_shallow() {
    run(|c| c.nodes <= DEFAULT_LIMIT);
}

#[test]
#[ignore = "deep perft: make perft-deep"]
fn perft_deep() {
    run(|c| c.nodes > DEFAULT_LIMIT);
}

/// The same counts through make/unmake with the incremental key checked against a
/// from-scratch key at every node (no bulk counting).
#[test]
fn perft_checked_keys() {
    for c in cases().iter().filter(|c| c.nodes <= 100_000) {
        let mut pos = Position::from_fen(&c.fen).unwrap();
        assert_eq!(
            perft::perft_checked(&mut pos, c.depth),
            c.nodes,
            "{} depth {}",
            c.id,
            c.depth
        );
    }
}

/// Left-right mirrors and colour flips have the same counts.
#[test]
fn perft_symmetry() {
    for c in cases().iter().filter(|c| c.nodes <= 300_000) {
        let pos = Position::from_fen(&c.fen).unwrap();
        assert_eq!(
            perft::perft(&mut pos.mirror(), c.depth),
            c.nodes,
            "mirror {}",
            c.id
        );
        assert_eq!(
            perft::perft(&mut pos.flip(), c.depth),
            c.nodes,
            "flip {}",
            c.id
        );
    }
}

/// Root-move splits from the reference notes: every root move and its mirror agree.
#[test]
fn startpos_divide_is_symmetric() {
    let mut pos = Position::startpos();
    let rows = perft::divide(&mut pos, 3);
    assert_eq!(rows.len(), 44);
    for (m, n) in &rows {
        let mirror = rows
            .iter()
            .find(|r| r.0 == m.mirror())
            .expect("mirror move");
        assert_eq!(*n, mirror.1, "{m}");
    }
    assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 79_666);
}
