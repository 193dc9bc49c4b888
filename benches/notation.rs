//! Speed of the notation layer: writing and reading every legal move of a set of
//! positions in each notation, PGN reading and writing, and board pictures.

use chuhan_engine::core::{Move, Position};
use chuhan_engine::diagram;
use chuhan_engine::notation::pgn::{self, WriteOptions};
use chuhan_engine::notation::{Game, IccsStyle, Notation, Script, parse_move};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// Positions along a deterministic pseudo-random playout.
fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    let mut p = Position::startpos();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..80 {
        let legal = p.legal_moves();
        if legal.is_empty() {
            break;
        }
        out.push(p.clone());
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        p.make_move(legal[(seed % legal.len() as u64) as usize]);
    }
    out
}

fn game(seed: u64) -> Game {
    let mut g = Game::new(Position::startpos());
    let mut p = g.start.clone();
    let mut s = seed | 1;
    for _ in 0..120 {
        let legal = p.legal_moves();
        if legal.is_empty() {
            break;
        }
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let m = legal[(s % legal.len() as u64) as usize];
        p.make_move(m);
        g.push(m);
    }
    g
}

fn moves(c: &mut Criterion) {
    let ps = positions();
    let total: usize = ps.iter().map(|p| p.legal_moves().len()).sum();
    let notations = [
        ("iccs", Notation::Iccs(IccsStyle::Compact)),
        ("wxf", Notation::Wxf),
        ("zh", Notation::Chinese(Script::Traditional)),
    ];
    for (name, n) in notations {
        let texts: Vec<Vec<(Move, String)>> = ps
            .iter()
            .map(|p| {
                p.legal_moves()
                    .iter()
                    .map(|&m| (m, n.format(p, m).unwrap()))
                    .collect()
            })
            .collect();
        c.bench_function(&format!("format_{name}_{total}_moves"), |b| {
            b.iter(|| {
                for p in &ps {
                    for &m in p.legal_moves().iter() {
                        black_box(n.format(p, m).unwrap());
                    }
                }
            })
        });
        c.bench_function(&format!("parse_{name}_{total}_moves"), |b| {
            b.iter(|| {
                for (p, list) in ps.iter().zip(&texts) {
                    for (_, t) in list {
                        black_box(parse_move(p, t).unwrap());
                    }
                }
            })
        });
    }
}

fn records(c: &mut Criterion) {
    let games: Vec<Game> = (1..=100).map(|s| game(s * 7919)).collect();
    let plies: usize = games.iter().map(Game::ply_count).sum();
    let text = pgn::write_all(&games, &WriteOptions::default()).unwrap();
    c.bench_function(&format!("pgn_read_100_games_{plies}_plies"), |b| {
        b.iter(|| black_box(pgn::read(&text).unwrap()))
    });
    c.bench_function(&format!("pgn_write_100_games_{plies}_plies"), |b| {
        b.iter(|| black_box(pgn::write_all(&games, &WriteOptions::default()).unwrap()))
    });
    let p = Position::startpos();
    c.bench_function("diagram_text", |b| b.iter(|| black_box(diagram::text(&p))));
    c.bench_function("diagram_svg", |b| {
        b.iter(|| black_box(diagram::svg(&p, &diagram::SvgOptions::default())))
    });
}

criterion_group!(benches, moves, records);
criterion_main!(benches);
