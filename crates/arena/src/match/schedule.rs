//! Which games a match plays, in which order, with which colours and openings.
//!
//! Every pairing of engines (two engines: one; more: a round robin) plays `games`
//! games. Games go in pairs: game `2k` and `2k + 1` of a pairing use the same
//! opening with colours swapped, the pairing's first engine taking Red in the
//! first of the two. Opening `k` of the suite (in file order, or shuffled by the
//! seed) serves pair `k`, cycling when the suite is shorter than the match. The
//! schedule walks the pairs round by round, so a round robin stays balanced when
//! it is stopped early.

use crate::game::opening::Opening;
use crate::lots::Lots;
use serde::{Deserialize, Serialize};

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// The game number, from 1.
    pub number: u32,
    /// The pairing's index (in [`pairings`] order).
    pub pairing: usize,
    /// Red's engine index.
    pub red: usize,
    /// Black's engine index.
    pub black: usize,
    /// The opening, if the match has a suite.
    pub opening: Option<Opening>,
    /// Games sharing an opening with colours swapped share this pair number; a
    /// lone last game of an odd count has none.
    pub pair: Option<u32>,
}

/// The pairings of `engines` engines, first engine lower: `(0,1), (0,2), …, (1,2)…`.
pub fn pairings(engines: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for a in 0..engines {
        for b in a + 1..engines {
            out.push((a, b));
        }
    }
    out
}

/// One game of a schedule before openings are attached: what a work unit of a
/// [`super::plan::Plan`] lists (the opening as an index into the plan's suite).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    /// The game number, from 1.
    pub number: u32,
    /// The pairing's index (in [`pairings`] order).
    pub pairing: usize,
    /// Red's engine index.
    pub red: usize,
    /// Black's engine index.
    pub black: usize,
    /// The opening's index in the suite, if the match has one.
    pub opening: Option<usize>,
    /// The pair number shared with the game of the same opening, colours swapped.
    pub pair: Option<u32>,
}

impl Slot {
    /// The scheduled game, with its opening taken from `openings`.
    pub fn game(&self, openings: &[Opening]) -> ScheduledGame {
        ScheduledGame {
            number: self.number,
            pairing: self.pairing,
            red: self.red,
            black: self.black,
            opening: self.opening.map(|i| openings[i].clone()),
            pair: self.pair,
        }
    }
}

/// The whole schedule.
///
/// ```
/// use chuhan_arena::r#match::schedule::schedule;
/// let s = schedule(3, 2, &[], None);
/// assert_eq!(s.len(), 6);
/// assert_eq!((s[0].red, s[0].black, s[1].red, s[1].black), (0, 1, 1, 0));
/// assert_eq!(s[0].pair, s[1].pair);
/// ```
pub fn schedule(
    engines: usize,
    games: u32,
    openings: &[Opening],
    seed: Option<u64>,
) -> Vec<ScheduledGame> {
    slots(engines, games, openings.len(), seed)
        .iter()
        .map(|s| s.game(openings))
        .collect()
}

/// The whole schedule as [`Slot`]s, for a suite of `openings` openings.
pub fn slots(engines: usize, games: u32, openings: usize, seed: Option<u64>) -> Vec<Slot> {
    let mut order: Vec<usize> = (0..openings).collect();
    if let Some(seed) = seed {
        Lots::new(seed).shuffle("openings", &mut order);
    }
    let pairs = pairings(engines);
    let mut out = Vec::new();
    let mut pair_number = 0;
    for block in 0..games.div_ceil(2) {
        for (p, &(a, b)) in pairs.iter().enumerate() {
            let opening = (!order.is_empty()).then(|| order[block as usize % order.len()]);
            let complete = 2 * block + 1 < games;
            let pair = complete.then_some(pair_number);
            if complete {
                pair_number += 1;
            }
            for k in 0..2 {
                if 2 * block + k >= games {
                    break;
                }
                let (red, black) = if k == 0 { (a, b) } else { (b, a) };
                out.push(Slot {
                    number: out.len() as u32 + 1,
                    pairing: p,
                    red,
                    black,
                    opening,
                    pair,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suite(n: usize) -> Vec<Opening> {
        let firsts = ["h2e2", "b2e2", "c3c4", "g3g4", "b0c2", "h0g2"];
        (0..n)
            .map(|i| Opening::new(None, &[firsts[i].to_string()]).unwrap())
            .collect()
    }

    #[test]
    fn each_opening_with_both_colours() {
        let s = schedule(2, 6, &suite(2), None);
        assert_eq!(s.len(), 6);
        let first = |g: &ScheduledGame| g.opening.as_ref().unwrap().moves()[0].to_string();
        let got: Vec<(usize, String)> = s.iter().map(|g| (g.red, first(g))).collect();
        assert_eq!(
            got,
            [
                (0, "h2e2".into()),
                (1, "h2e2".into()),
                (0, "b2e2".into()),
                (1, "b2e2".into()),
                (0, "h2e2".into()),
                (1, "h2e2".into())
            ]
        );
        assert_eq!(
            s.iter().map(|g| g.pair).collect::<Vec<_>>(),
            [Some(0), Some(0), Some(1), Some(1), Some(2), Some(2)]
        );
        assert!(s.iter().enumerate().all(|(i, g)| g.number == i as u32 + 1));
    }

    #[test]
    fn odd_counts_leave_the_last_game_unpaired() {
        let s = schedule(2, 3, &[], None);
        assert_eq!(s.len(), 3);
        assert_eq!(s[2].pair, None);
        assert_eq!((s[2].red, s[2].black), (0, 1));
        assert!(s.iter().all(|g| g.opening.is_none()));
    }

    #[test]
    fn round_robin_meets_everyone_with_balanced_colours() {
        let s = schedule(4, 2, &[], None);
        assert_eq!(s.len(), 12);
        for e in 0..4 {
            let reds = s.iter().filter(|g| g.red == e).count();
            let blacks = s.iter().filter(|g| g.black == e).count();
            assert_eq!((reds, blacks), (3, 3));
        }
        assert_eq!(pairings(4).len(), 6);
    }

    #[test]
    fn the_seed_shuffles_openings_reproducibly() {
        let o = suite(6);
        let firsts = |seed| -> Vec<String> {
            schedule(2, 12, &o, seed)
                .iter()
                .step_by(2)
                .map(|g| g.opening.as_ref().unwrap().moves()[0].to_string())
                .collect()
        };
        assert_eq!(firsts(Some(5)), firsts(Some(5)));
        assert_ne!(firsts(Some(5)), firsts(None));
        let mut sorted = firsts(Some(5));
        sorted.sort();
        let mut plain = firsts(None);
        plain.sort();
        assert_eq!(sorted, plain);
    }
}
