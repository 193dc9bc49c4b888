//! The match runner's own work per move, next to the engines' thinking time:
//! reading an engine's `info` line, writing a long game's `position` line, and
//! judging the position after a move (`rules::game_status`) along a 200-ply game.

use chuhan_arena::game::engine_config::RankBase;
use chuhan_arena::r#match::dialect::{parse_line, position};
use chuhan_engine::core::{Move, Position, START_FEN};
use chuhan_engine::rules::{RuleSet, game_status};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// A 200-ply game (or until it ends) of pseudo-random legal moves.
fn long_game() -> Vec<Move> {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    while moves.len() < 200 && !game_status(&pos, RuleSet::Cxa2011).is_over() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let legal = pos.legal_moves();
        let m = legal[(seed % legal.len() as u64) as usize];
        pos.make_move(m);
        moves.push(m);
    }
    moves
}

fn bench(c: &mut Criterion) {
    let info = "info depth 24 seldepth 33 multipv 1 score cp 37 nodes 12345678 nps 1534000 \
                hashfull 412 tbhits 0 time 8050 pv h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 \
                b0c2 b7b3 h0h6 c6c5 b2b6 h7i7 h6h9 g7h9";
    c.bench_function("match: parse an info line", |b| {
        b.iter(|| parse_line(black_box(info)))
    });
    let moves = long_game();
    c.bench_function("match: position line of a 200-ply game", |b| {
        b.iter(|| position(START_FEN, black_box(&moves), RankBase::Zero))
    });
    let mut positions = Vec::new();
    let mut pos = Position::startpos();
    for &m in &moves {
        pos.make_move(m);
        positions.push(pos.clone());
    }
    c.bench_function("match: judge every position of a 200-ply game", |b| {
        b.iter(|| {
            positions
                .iter()
                .filter(|p| game_status(black_box(p), RuleSet::Cxa2011).is_over())
                .count()
        })
    });
    println!("(game length: {} plies)", moves.len());
}

criterion_group!(benches, bench);
criterion_main!(benches);
