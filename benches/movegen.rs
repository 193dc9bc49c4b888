//! Move-generator benchmarks: legal generation over a fixed position list,
//! make/unmake, bulk-counted perft 4 from the start position, and the slider lookups.

use chuhan_engine::core::{Bitboard, Position, Square, attacks, perft};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn positions() -> Vec<Position> {
    include_str!("../tests/data/perft.txt")
        .lines()
        .filter_map(|l| l.strip_prefix("epd "))
        .map(|fen| Position::from_fen(fen).expect("valid FEN"))
        .collect()
}

fn bench_generation(c: &mut Criterion) {
    let list = positions();
    c.bench_function("legal_moves/13 positions", |b| {
        b.iter(|| {
            list.iter()
                .map(|p| black_box(p).legal_moves().len())
                .sum::<usize>()
        })
    });
    c.bench_function("count_legal/13 positions", |b| {
        b.iter(|| {
            list.iter()
                .map(|p| black_box(p).count_legal())
                .sum::<usize>()
        })
    });
}

fn bench_make_unmake(c: &mut Criterion) {
    let list = positions();
    let moves: Vec<_> = list.iter().map(|p| p.legal_moves()).collect();
    c.bench_function("make_unmake/all moves of 13 positions", |b| {
        let mut work: Vec<Position> = list.clone();
        b.iter(|| {
            for (p, ms) in work.iter_mut().zip(&moves) {
                for &m in ms.iter() {
                    p.make_move(m);
                    p.unmake_move();
                }
            }
        })
    });
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    group.bench_function("startpos depth 4", |b| {
        let mut pos = Position::startpos();
        b.iter(|| assert_eq!(perft::perft(&mut pos, 4), 3_290_240))
    });
    group.finish();
}

fn bench_sliders(c: &mut Criterion) {
    let occs: Vec<Bitboard> = positions().iter().map(|p| p.occupied()).collect();
    c.bench_function("rook+cannon attacks/90 squares x 13 boards", |b| {
        b.iter(|| {
            let mut acc = 0u128;
            for &occ in &occs {
                for sq in Square::ALL {
                    acc ^= attacks::rook_attacks(sq, black_box(occ)).0
                        ^ attacks::cannon_attacks(sq, occ).0;
                }
            }
            acc
        })
    });
}

criterion_group!(
    benches,
    bench_generation,
    bench_make_unmake,
    bench_perft,
    bench_sliders
);
criterion_main!(benches);
