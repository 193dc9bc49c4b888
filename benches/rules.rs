//! Rule-judgement benchmarks: the arbiter's `judge` on a long game with several
//! repetition cycles, and the search-facing repetition test with and without a
//! repetition.

use chuhan_engine::core::{Move, PieceKind, Position, SplitMix64};
use chuhan_engine::rules::{ClassCache, RuleSet, judge_position, repetition};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// Quiet moves of pieces that can step back (not pawns), so they can make a cycle.
fn quiet_reversible(pos: &Position) -> Vec<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|m| {
            pos.piece_at(m.to()).is_none()
                && pos
                    .piece_at(m.from())
                    .is_some_and(|p| p.kind != PieceKind::Pawn)
        })
        .collect()
}

fn reverse(m: Move) -> Move {
    Move::new(m.to(), m.from())
}

/// Plays a two-move shuffle three times over (8 plies) if one can be found: the
/// position where it starts then occurs three times.
fn cycle(pos: &mut Position) -> bool {
    for a in quiet_reversible(pos) {
        pos.make_move(a);
        for b in quiet_reversible(pos) {
            pos.make_move(b);
            if pos.is_legal(reverse(a)) {
                pos.make_move(reverse(a));
                if pos.is_legal(reverse(b)) {
                    pos.make_move(reverse(b));
                    let mut ok = true;
                    for m in [a, b, reverse(a), reverse(b)] {
                        if !pos.is_legal(m) {
                            ok = false;
                            break;
                        }
                        pos.make_move(m);
                    }
                    if ok {
                        return true;
                    }
                    return false;
                }
                pos.unmake_move();
            }
            pos.unmake_move();
        }
        pos.unmake_move();
    }
    false
}

/// A 300-ply game from the start position: random moves (quiet ones preferred, so
/// material lasts), with a repetition cycle every 40 plies and one at the end when
/// `with_cycles`.
fn long_game(with_cycles: bool) -> Position {
    let mut pos = Position::startpos();
    let mut rng = SplitMix64::new(1);
    let mut cycles = 0;
    while pos.game_ply() < 292 {
        if with_cycles && pos.game_ply() % 40 == 20 && cycle(&mut pos) {
            cycles += 1;
            continue;
        }
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let quiet: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to()).is_none())
            .collect();
        let pool: &[Move] = if quiet.is_empty() || rng.below(8) == 0 {
            &legal
        } else {
            &quiet
        };
        pos.make_move(pool[rng.below(pool.len())]);
    }
    if with_cycles {
        if cycle(&mut pos) {
            cycles += 1;
        }
        assert!(cycles >= 4, "the game should hold several cycles");
    }
    pos
}

fn benches(c: &mut Criterion) {
    let game = long_game(true);
    for rules in RuleSet::ALL {
        c.bench_function(&format!("judge 300-ply game, cycles ({rules})"), |b| {
            b.iter(|| judge_position(black_box(&game), rules))
        });
    }
    let quiet = long_game(false);
    assert!(repetition(&quiet, RuleSet::Cxa2011, 2, None).is_none());
    c.bench_function("repetition: none (key scan)", |b| {
        b.iter(|| repetition(black_box(&quiet), RuleSet::Cxa2011, 2, None))
    });
    c.bench_function("repetition: 3-fold cycle (cxa2011)", |b| {
        b.iter(|| repetition(black_box(&game), RuleSet::Cxa2011, 3, None))
    });
    let mut cache = ClassCache::new();
    c.bench_function("repetition: 3-fold cycle, warm cache (cxa2011)", |b| {
        b.iter(|| repetition(black_box(&game), RuleSet::Cxa2011, 3, Some(&mut cache)))
    });
}

criterion_group!(rules_benches, benches);
criterion_main!(rules_benches);
