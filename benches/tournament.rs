//! Pairing speed: the 定位編排 Swiss pairing of a late round, the 附錄一 table.

use chuhan_arena::lots::Lots;
use chuhan_arena::tournament::config::FirstRound;
use chuhan_arena::tournament::player::PlayerId;
use chuhan_arena::tournament::round_robin::RoundRobinTable;
use chuhan_arena::tournament::swiss::{SwissPlayer, first_round, pair_round};
use chuhan_engine::core::Color;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// A Swiss field of `n` after `played` rounds with seeded random results.
fn field(n: u16, played: u32, rounds: u32) -> Vec<SwissPlayer> {
    let lots = Lots::new(u64::from(n));
    let mut players: Vec<SwissPlayer> = (0..n).map(|i| SwissPlayer::new(PlayerId(i))).collect();
    let mut k = 0;
    for round in 1..=played {
        let r = if round == 1 {
            first_round(
                &players.iter().map(|p| p.id).collect::<Vec<_>>(),
                FirstRound::Adjacent,
            )
        } else {
            pair_round(&players, round, rounds).expect("pairable")
        };
        if let Some(b) = r.bye {
            players[b.index()].byes += 1;
            players[b.index()].score += 2;
        }
        for pair in &r.pairs {
            let (red, black) = (pair.red.index(), pair.black.index());
            k += 1;
            let (sr, sb) = match lots.value("result", k) % 3 {
                0 => (2, 0),
                1 => (1, 1),
                _ => (0, 2),
            };
            players[red].score += sr;
            players[black].score += sb;
            players[red].colours.push(Color::Red);
            players[black].colours.push(Color::Black);
            players[red].opponents.push(pair.black);
            players[black].opponents.push(pair.red);
        }
    }
    players
}

fn pairing(c: &mut Criterion) {
    for (n, played, rounds) in [(16u16, 4u32, 7u32), (64, 6, 9), (200, 8, 11)] {
        let players = field(n, played, rounds);
        c.bench_function(&format!("swiss pair round {} of {n}", played + 1), |b| {
            b.iter(|| pair_round(black_box(&players), played + 1, rounds).expect("pairable"))
        });
    }
    c.bench_function("round robin table of 40", |b| {
        b.iter(|| RoundRobinTable::new(black_box(40)))
    });
}

criterion_group!(benches, pairing);
criterion_main!(benches);
