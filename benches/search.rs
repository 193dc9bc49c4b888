//! Criterion benchmarks of the search's hot parts: evaluation, SEE, the move picker
//! and a fixed-depth search.

use chuhan_engine::core::{Move, Position};
use chuhan_engine::engine::{Engine, EngineOption};
use chuhan_engine::eval::{EvalConfig, evaluate};
use chuhan_engine::search::bench::POSITIONS;
use chuhan_engine::search::history::History;
use chuhan_engine::search::picker::{MovePicker, OrderContext};
use chuhan_engine::search::{Limits, see};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn positions() -> Vec<Position> {
    POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect()
}

fn bench_eval(c: &mut Criterion) {
    let ps = positions();
    let cfg = EvalConfig::default();
    c.bench_function("eval/all bench positions", |b| {
        b.iter(|| ps.iter().map(|p| evaluate(black_box(p), &cfg)).sum::<i32>())
    });
}

fn bench_see(c: &mut Criterion) {
    let ps = positions();
    let caps: Vec<(Position, Move)> = ps
        .iter()
        .flat_map(|p| {
            p.generate(chuhan_engine::core::GenType::Captures)
                .iter()
                .map(|&m| (p.clone(), m))
                .collect::<Vec<_>>()
        })
        .collect();
    c.bench_function("see/all captures of the bench positions", |b| {
        b.iter(|| caps.iter().map(|(p, m)| see::see(p, *m)).sum::<i32>())
    });
}

fn bench_picker(c: &mut Criterion) {
    let ps = positions();
    let h = History::new();
    c.bench_function("picker/all moves of the bench positions", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &ps {
                let mut mp = MovePicker::new(p, Move::NONE, [Move::NONE; 2], Move::NONE);
                let ctx = OrderContext {
                    history: &h,
                    conts: [None, None],
                };
                while let Some(m) = mp.next(p, &ctx) {
                    n += m.raw() as usize;
                }
            }
            n
        })
    });
}

fn bench_search(c: &mut Criterion) {
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    // A fresh engine per run (created outside the timing): the search only.
    g.bench_function("startpos depth 10", |b| {
        b.iter_batched_ref(
            || {
                let mut e = Engine::new();
                e.set_option(EngineOption::Hash(16)).unwrap();
                e
            },
            |e| e.search(Limits::depth(10)).unwrap().nodes,
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group!(benches, bench_eval, bench_see, bench_picker, bench_search);
criterion_main!(benches);
