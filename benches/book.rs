//! Book probing speed: one probe of a 1,000,000-entry Chuhan book (target: under
//! 1 µs), hits filed directly and under the mirror, a miss, and the ElephantEye
//! reader on a small book.

use chuhan_engine::book::{Book, BookAssembler, BookMove, BookSet, OwnBook, fold};
use chuhan_engine::core::Position;
use criterion::{Criterion, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::hint::black_box;

const ENTRIES: usize = 1_000_000;
const PROBES: usize = 8192;

/// A book of exactly `ENTRIES` moves over the positions of random games from the
/// start position (up to four moves per position).
fn big_book() -> OwnBook {
    let mut rng = SmallRng::seed_from_u64(0xB00C);
    let mut asm = BookAssembler::new();
    while asm.len() < ENTRIES {
        let mut pos = Position::startpos();
        for _ in 0..60 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            for _ in 0..4 {
                if asm.len() == ENTRIES {
                    break;
                }
                let mv = legal[rng.random_range(0..legal.len())];
                let weight = rng.random_range(1..10_000);
                let _ = asm.add(
                    &pos,
                    BookMove {
                        mv,
                        weight,
                        wdl: None,
                    },
                );
            }
            pos.make_move(legal[rng.random_range(0..legal.len())]);
        }
    }
    asm.finish()
}

fn probe(c: &mut Criterion) {
    let book = big_book();
    eprintln!(
        "book: {} moves in {} positions, {} bytes",
        book.move_count(),
        book.position_count(),
        book.to_bytes().len()
    );
    // Stored positions spread over the whole book, and their mirror images.
    let step = book.position_count() / PROBES;
    let stored: Vec<Position> = book
        .iter()
        .step_by(step)
        .take(PROBES)
        .map(|p| p.0)
        .collect();
    let mirrored: Vec<Position> = stored
        .iter()
        .filter(|p| !fold(p).symmetric)
        .map(|p| p.mirror())
        .collect();
    let mut rng = SmallRng::seed_from_u64(9);
    let misses: Vec<Position> = stored
        .iter()
        .map(|p| {
            let mut p = p.clone();
            for _ in 0..6 {
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                p.make_move(legal[rng.random_range(0..legal.len())]);
            }
            p
        })
        .filter(|p| book.probe(p).is_empty())
        .collect();

    let mut group = c.benchmark_group("book_probe_1M");
    for (name, set) in [
        ("hit", &stored),
        ("hit_mirror", &mirrored),
        ("miss", &misses),
    ] {
        let mut i = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                i = (i + 1) % set.len();
                black_box(book.probe(black_box(&set[i])))
            })
        });
    }
    let keys: Vec<u64> = stored.iter().map(|p| fold(p).key).collect();
    let mut i = 0;
    group.bench_function("lookup_key", |b| {
        b.iter(|| {
            i = (i + 1) % keys.len();
            black_box(book.lookup(black_box(keys[i])).len())
        })
    });
    let mut books = BookSet::new();
    books.push(Book::Chuhan(book.clone()));
    let mut i = 0;
    group.bench_function("candidates", |b| {
        b.iter(|| {
            i = (i + 1) % stored.len();
            black_box(books.candidates(black_box(&stored[i]), &[]))
        })
    });
    group.finish();

    // ElephantEye's reader on a BOOK.DAT-sized book (about 12,000 records).
    let mut records: Vec<[u8; 8]> = Vec::new();
    for p in stored.iter().take(3000) {
        let lock = chuhan_engine::book::eleeye::lock(p);
        for b in book.probe(p) {
            let point = |sq: chuhan_engine::core::Square| {
                (sq.file().index() + 3) as u16 + ((9 - sq.rank().index() + 3) as u16) * 16
            };
            let wmv = point(b.mv.from()) | point(b.mv.to()) << 8;
            let mut r = [0u8; 8];
            r[..4].copy_from_slice(&lock.to_le_bytes());
            r[4..6].copy_from_slice(&wmv.to_le_bytes());
            r[6..].copy_from_slice(&((b.weight % 60_000) as u16).to_le_bytes());
            records.push(r);
        }
    }
    records.sort_by_key(|r| u32::from_le_bytes(r[..4].try_into().unwrap()));
    let ee = Book::from_bytes(&records.concat()).expect("a valid BOOK.DAT");
    eprintln!("BOOK.DAT: {} records", ee.len());
    let mut i = 0;
    c.bench_function("book_probe_eleeye_12k", |b| {
        b.iter(|| {
            i = (i + 1) % 3000;
            black_box(ee.probe(black_box(&stored[i])))
        })
    });
}

fn load(c: &mut Criterion) {
    let bytes = big_book().to_bytes();
    let mut group = c.benchmark_group("book_load_1M");
    group.sample_size(10);
    group.measurement_time(std::time::Duration::from_secs(20));
    group.bench_function("from_bytes", |b| {
        b.iter(|| black_box(Book::from_bytes(black_box(&bytes)).map(|b| b.len())))
    });
    group.finish();
}

criterion_group!(benches, probe, load);
criterion_main!(benches);
