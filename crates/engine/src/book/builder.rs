//! [`BookBuilder`]: a book from game records, each move weighted by the results of
//! the games that played it.
//!
//! For every game, each position among its first `max_ply` plies is folded (stored
//! under the smaller of its key and its mirror's key) and the move played is
//! credited with the game's result from the mover's side: W wins, D draws, L losses,
//! U games without a result. A position met twice in one game counts that game once.
//! In a position that is its own mirror image, a move and its mirror image are the
//! same choice, so they share one tally and both enter the book. Moves played in
//! fewer than `min_games` games are left out. The weight is
//!
//! ```text
//! weight = max(0, 3·W + 1·D + 1·U − 1·L)
//! ```
//!
//! (coefficients in `book/params.rs`), and W, D, L are kept as the entry's statistics.

use super::entry::{BookMove, Wdl};
use super::fold::fold;
use super::own::{BookAssembler, OwnBook};
use super::packed::PackedPosition;
use super::params;
use crate::core::{Move, PlayerResult};
use crate::notation::Game;
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Limits of [`BookBuilder`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Only the first `max_ply` plies of each game are used.
    pub max_ply: u32,
    /// A move enters the book only if at least this many games played it.
    pub min_games: u32,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            max_ply: params::DEFAULT_MAX_PLY,
            min_games: params::DEFAULT_MIN_GAMES,
        }
    }
}

/// The weight the builder gives a move played in `wins + draws + losses + unknown`
/// games with those results for the mover.
///
/// ```
/// use chuhan_engine::book::builder::result_weight;
/// assert_eq!(result_weight(2, 1, 1, 0), 6);
/// assert_eq!(result_weight(0, 0, 5, 1), 0);
/// ```
pub fn result_weight(wins: u32, draws: u32, losses: u32, unknown: u32) -> u32 {
    let w = params::WIN_POINTS * wins as i64
        + params::DRAW_POINTS * draws as i64
        + params::UNKNOWN_POINTS * unknown as i64
        + params::LOSS_POINTS * losses as i64;
    w.clamp(0, u32::MAX as i64) as u32
}

#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    unknown: u32,
}

impl Tally {
    fn games(&self) -> u64 {
        self.wins as u64 + self.draws as u64 + self.losses as u64 + self.unknown as u64
    }
}

/// A game move that is not legal where it was played. The game's earlier moves were
/// used; the rest of the game was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalGameMove {
    /// Ply of the move, from 0.
    pub ply: usize,
    /// The move.
    pub mv: Move,
}

impl fmt::Display for IllegalGameMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} ({}) is illegal; the rest of the game was skipped",
            self.ply + 1,
            self.mv
        )
    }
}

impl std::error::Error for IllegalGameMove {}

/// Accumulates games, then [`BookBuilder::finish`] makes the book.
#[derive(Clone, Debug)]
pub struct BookBuilder {
    options: BuildOptions,
    tallies: HashMap<(u64, Move), Tally>,
    boards: HashMap<u64, PackedPosition>,
    games: u64,
}

impl BookBuilder {
    /// An empty builder.
    pub fn new(options: BuildOptions) -> BookBuilder {
        BookBuilder {
            options,
            tallies: HashMap::new(),
            boards: HashMap::new(),
            games: 0,
        }
    }

    /// Games added so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Distinct (folded) positions seen so far.
    pub fn positions(&self) -> usize {
        self.boards.len()
    }

    /// Replays the main line of `game` from its start and credits its moves (a
    /// game built by hand may hold an illegal move: the moves before it are
    /// credited).
    pub fn add_game(&mut self, game: &Game) -> Result<(), IllegalGameMove> {
        self.games += 1;
        let mut pos = game.start.clone();
        let mut seen = HashSet::new();
        for (ply, m) in game.line.nodes.iter().map(|n| n.mv).enumerate() {
            if ply >= self.options.max_ply as usize {
                break;
            }
            if !pos.is_legal(m) {
                return Err(IllegalGameMove { ply, mv: m });
            }
            let f = fold(&pos);
            let mut mv = if f.mirrored { m.mirror() } else { m };
            if f.symmetric {
                mv = mv.min(mv.mirror());
            }
            if seen.insert((f.key, mv)) {
                self.boards
                    .entry(f.key)
                    .or_insert_with(|| PackedPosition::new(&pos, f.mirrored));
                let t = self.tallies.entry((f.key, mv)).or_default();
                let count = match game.result.map(|r| r.for_side(pos.side_to_move())) {
                    Some(PlayerResult::Win) => &mut t.wins,
                    Some(PlayerResult::Draw) => &mut t.draws,
                    Some(PlayerResult::Loss) => &mut t.losses,
                    None => &mut t.unknown,
                };
                *count = count.saturating_add(1);
            }
            pos.make_move(m);
        }
        Ok(())
    }

    /// The book: every move played in at least `min_games` games, weighted by
    /// [`result_weight`].
    pub fn finish(self) -> OwnBook {
        let mut kept: Vec<((u64, Move), Tally)> = self
            .tallies
            .into_iter()
            .filter(|(_, t)| t.games() >= self.options.min_games as u64)
            .collect();
        kept.sort_unstable_by_key(|e| e.0);
        let mut asm = BookAssembler::new();
        let mut current = None;
        for ((key, mv), t) in kept {
            let (pos, symmetric) = match &current {
                Some((k, pos, symmetric)) if *k == key => (pos, *symmetric),
                _ => {
                    let pos = self.boards[&key]
                        .to_position()
                        .expect("the builder packs legal positions");
                    let symmetric = fold(&pos).symmetric;
                    let (_, pos, symmetric) = current.insert((key, pos, symmetric));
                    (&*pos, *symmetric)
                }
            };
            let entry = BookMove {
                mv,
                weight: result_weight(t.wins, t.draws, t.losses, t.unknown),
                wdl: Some(Wdl {
                    wins: t.wins,
                    draws: t.draws,
                    losses: t.losses,
                }),
            };
            asm.add(pos, entry)
                .expect("tallied moves are legal and unique per position");
            if symmetric && mv.mirror() != mv {
                asm.add(pos, entry.mirror())
                    .expect("a symmetric position's mirrored move is legal and new");
            }
        }
        asm.finish()
    }
}
