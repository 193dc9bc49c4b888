//! Finding repetitions in a game line and analysing them (§23.1–23.2).
//!
//! A position *occurs* again when its key recurs with the same side to move since
//! the last capture. §23.2: the first move of a cycle counts towards the three
//! times unless it is a capture — so a position reached by a capture (or, in
//! search, by a null move) is never counted, while the game's start position is.

use super::classify::{Label, MoveClass, classify};
use super::params;
use super::ruleset::RuleSet;
use super::verdict::{self, Identities, Pattern, Verdict};
use crate::core::{Color, Move, Position, State};
use std::collections::HashMap;

/// A repetition ending at some ply of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// Ply of the repeated position (0 = the line's first position).
    pub ply: usize,
    /// Ply of the earliest occurrence taken into account: the moves after it, up to
    /// `ply`, are the ones judged.
    pub start: usize,
    /// How many times the position has occurred, this time included.
    pub occurrences: u32,
}

/// The state of position `j` of a line whose states are `history` followed by
/// `current`.
#[inline(always)]
fn state_at<'a>(history: &'a [State], current: &'a State, j: usize) -> &'a State {
    if j == history.len() {
        current
    } else {
        &history[j]
    }
}

/// The repetition ending at ply `n` of the line (`history` then `current`), if the
/// position there has occurred at least `fold` times under `rules`' counting; the
/// judged moves span the last `fold` occurrences. Costs one key comparison per two
/// plies back to the last capture or null move.
pub fn find_at(
    history: &[State],
    current: &State,
    n: usize,
    fold: u32,
    rules: RuleSet,
) -> Option<Cycle> {
    let st = state_at(history, current, n);
    let window = (st.rule60.min(st.plies_from_null) as usize).min(n);
    if window < 4 {
        return None;
    }
    let low = n - window;
    let mut found = 1u32;
    let mut start = n;
    let mut j = n - 4;
    loop {
        let s = state_at(history, current, j);
        let counted = s.mv != Move::NULL && (s.captured.is_none() || rules == RuleSet::Axf);
        if s.key == st.key && counted {
            found += 1;
            if found <= fold.max(2) {
                start = j;
            }
        }
        if j < low + 2 {
            break;
        }
        j -= 2;
    }
    (found >= fold.max(2)).then_some(Cycle {
        ply: n,
        start,
        occurrences: found,
    })
}

/// The repetition ending at the current position of `pos` (see [`find_at`]).
pub fn find(pos: &Position, fold: u32, rules: RuleSet) -> Option<Cycle> {
    find_at(pos.history(), pos.state(), pos.game_ply(), fold, rules)
}

/// Memo of move classifications, keyed by the two positions before the move, the
/// move and the rule set (a classification looks back one ply, for §26.1.2). It
/// holds at most [`params::CLASS_CACHE_ENTRIES`] entries and starts afresh when
/// full, so a search thread can keep one for its whole life.
#[derive(Default, Debug)]
pub struct ClassCache {
    map: HashMap<(u64, u64, Move, RuleSet), MoveClass>,
}

impl ClassCache {
    /// An empty cache.
    pub fn new() -> ClassCache {
        ClassCache::default()
    }

    /// Number of classifications held.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True if nothing is held.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    fn get(&self, key: &(u64, u64, Move, RuleSet)) -> Option<&MoveClass> {
        self.map.get(key)
    }

    fn insert(&mut self, key: (u64, u64, Move, RuleSet), class: MoveClass) {
        if self.map.len() >= params::CLASS_CACHE_ENTRIES {
            self.map.clear();
        }
        self.map.insert(key, class);
    }
}

/// The classification of `m`, played in `line` (the position before it), from
/// `cache` if there (the key is the previous position, this one, the move and the
/// rule set: a classification looks back one ply, for §26.1.2).
fn classify_cached(
    line: &mut Position,
    m: Move,
    rules: RuleSet,
    cache: Option<&mut ClassCache>,
) -> MoveClass {
    let prev = line
        .history()
        .last()
        .map_or(0, |s: &State| s.key ^ u64::from(s.mv.raw()));
    let key = (prev, line.key(), m, rules);
    match cache {
        Some(cache) => match cache.get(&key) {
            Some(c) => c.clone(),
            None => {
                let c = classify(line, m, rules);
                cache.insert(key, c.clone());
                c
            }
        },
        None => classify(line, m, rules),
    }
}

/// True if both sides play an idle move (閒) somewhere in `cycle` (which ends at
/// the current position of `pos`): then neither side's moves are all forbidden or
/// all checks (CXA §25.2), nor does either chase one piece with every move (AXF),
/// so the cycle is a draw under both rule sets without classifying the rest. Walks
/// back from the end and stops as soon as the answer is known — the search's
/// shortcut for the commonest cycle, two sides shuffling.
pub fn idle_on_both_sides(
    pos: &Position,
    cycle: Cycle,
    rules: RuleSet,
    mut cache: Option<&mut ClassCache>,
) -> bool {
    debug_assert_eq!(cycle.ply, pos.game_ply());
    let mut line = pos.clone();
    let mut idle = [false; 2];
    for _ in cycle.start..cycle.ply {
        let m = line.state().mv;
        line.unmake_move();
        let class = classify_cached(&mut line, m, rules, cache.as_deref_mut());
        if class.label() == Label::Idle {
            idle[class.side.index()] = true;
            if idle == [true, true] {
                return true;
            }
        }
    }
    false
}

/// A cycle with every judged move classified and the ruling.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Where the cycle lies.
    pub cycle: Cycle,
    /// Side to move at the repeated position.
    pub to_move: Color,
    /// The judged moves: the ply each one leads to, and its classification.
    pub moves: Vec<(usize, MoveClass)>,
    /// Red's pattern.
    pub red: Pattern,
    /// Black's pattern.
    pub black: Pattern,
    /// The ruling.
    pub verdict: Verdict,
}

/// Classifies the moves of `cycle` (which ends at the current position of `pos`)
/// and rules on it.
pub fn analyse(
    pos: &Position,
    cycle: Cycle,
    rules: RuleSet,
    mut cache: Option<&mut ClassCache>,
) -> Analysis {
    debug_assert_eq!(cycle.ply, pos.game_ply());
    let mut line = pos.clone();
    for _ in cycle.start..cycle.ply {
        line.unmake_move();
    }
    let mut ids = Identities::new(line.occupied());
    let mut moves = Vec::with_capacity(cycle.ply - cycle.start);
    let mut patterns = [Pattern::default(), Pattern::default()];
    for j in cycle.start + 1..=cycle.ply {
        let m = pos.history().get(j).map_or(pos.state().mv, |s| s.mv);
        let class = classify_cached(&mut line, m, rules, cache.as_deref_mut());
        patterns[class.side.index()].add(&class);
        ids.record(class.side, m.from(), m.to(), class.victims());
        line.make_move(m);
        moves.push((j, class));
    }
    for c in Color::ALL {
        patterns[c.index()].same_piece_chased = ids.same_piece(c);
    }
    let [red, black] = patterns;
    let verdict = match rules {
        RuleSet::Cxa2011 => verdict::cxa(&red, &black),
        RuleSet::Axf => verdict::axf(&red, &black),
    };
    Analysis {
        cycle,
        to_move: pos.side_to_move(),
        moves,
        red,
        black,
        verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(fen: &str, moves: &str) -> Position {
        let mut pos = Position::from_fen(fen).unwrap();
        for m in moves.split_whitespace() {
            pos.make_move(m.parse().unwrap());
        }
        pos
    }

    #[test]
    fn counts_occurrences_and_spans() {
        let fen = "3k5/9/9/9/9/9/9/9/4A4/3AK4 w";
        let pos = play(fen, "e1f2 d9d8 f2e1 d8d9 e1f2 d9d8 f2e1 d8d9");
        let c = find(&pos, 3, RuleSet::Cxa2011).unwrap();
        assert_eq!(
            c,
            Cycle {
                ply: 8,
                start: 0,
                occurrences: 3
            }
        );
        let c = find(&pos, 2, RuleSet::Cxa2011).unwrap();
        assert_eq!((c.start, c.occurrences), (4, 3));
        let pos = play(fen, "e1f2 d9d8 f2e1 d8d9");
        assert_eq!(find(&pos, 3, RuleSet::Cxa2011), None);
        assert_eq!(find(&pos, 2, RuleSet::Cxa2011).map(|c| c.start), Some(0));
    }

    #[test]
    fn capture_as_first_move_is_not_counted() {
        // §23.2: red's first move takes a pawn; the position it reaches is not
        // counted, so the third "occurrence" is only the second counted one.
        let fen = "4k4/9/9/9/9/9/9/p8/4A4/R2AK4 w";
        let pos = play(fen, "a0a2 e9f9 a2a1 f9e9 a1a2 e9f9 a2a1 f9e9 a1a2");
        assert_eq!(find(&pos, 3, RuleSet::Cxa2011).map(|c| c.occurrences), None);
        assert_eq!(
            find(&pos, 2, RuleSet::Cxa2011).map(|c| c.occurrences),
            Some(2)
        );
        assert_eq!(find(&pos, 3, RuleSet::Axf).map(|c| c.occurrences), Some(3));
    }
}
