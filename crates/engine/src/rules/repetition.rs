//! The search-facing repetition test: given the game and search path in a
//! [`Position`]'s history, how does the repetition ending at the current position
//! end for the side to move?
//!
//! # How a search should use it (recommendation)
//!
//! * **Filter first.** Call [`repetition`] only when the search's own cheap test
//!   (e.g. a key filter over the last `min(rule60, plies_from_null)` plies) says the
//!   current key may have occurred before. Without a repetition the call is one key
//!   comparison per two plies back to the last capture or null move; with one it
//!   classifies the cycle's moves (threat sets, bounded mate probes), typically
//!   tens of microseconds per move — use [`repetition_cached`] with one
//!   [`ClassCache`] per thread so that a cycle met again costs a few lookups.
//! * **Fold.** Pass `fold = 3` when the earlier occurrences lie at or before the
//!   root (the real game must reach the 待判局面 of §23.1) and `fold = 2` when the
//!   cycle lies wholly after the root (the opponent can always complete it), as
//!   Pikafish does.
//! * **Draws** ([`Outcome::Draw`]) score as a draw at once.
//! * **Wins** ([`Outcome::Win`]: the side that just moved completed a cycle in
//!   which it is the violator) score as a win, but *not as a mate score*: use a
//!   band just inside the mate bounds that the TT never stores as a mate (or do not
//!   store it at all), and at 2-fold only narrow the window (`alpha = max(alpha,
//!   draw)`) unless the repetition is at 3-fold — the false mate scores of
//!   `3aka3/4n4/9/9/9/9/9/7C1/7r1/3AK4 w` and `5R3/4k4/9/4r4/9/9/5p3/5A3/5K3/9 b`
//!   come from trusting 2-fold rule verdicts as exact.
//! * **Losses** ([`Outcome::Loss`]: the side to move is the violator but the other
//!   side completed the cycle) mean the side to move must now vary (§23.5.2): keep
//!   searching — the move that continues the cycle will meet a `Win` for the
//!   opponent one ply later. Only when [`Repetition::immediate`] is set (CXA
//!   unilateral 長將, §23.5.1) is the position lost at once.
//! * Rule-dependent scores depend on the path: mix a "has repeated" bit into the TT
//!   key, or do not store them.
//! * **Sixty moves**: [`super::sixty_moves`] is one comparison until 120 plies have
//!   passed without a capture; when it holds, score a draw unless the side to move
//!   has no legal move (mate and 困斃 still lose).

use super::cycle::{self, ClassCache, analyse, idle_on_both_sides};
use super::ruleset::RuleSet;
use crate::core::{Color, Position};

/// How a repetition ends, seen by the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Nobody must vary: a draw.
    Draw,
    /// The side that just moved is the violator.
    Win,
    /// The side to move is the violator.
    Loss,
}

/// The repetition ending at the current position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// How many times the position has occurred (this time included).
    pub occurrences: u32,
    /// The ruling for the side to move.
    pub outcome: Outcome,
    /// The side that must vary, if any.
    pub must_vary: Option<Color>,
    /// The violator loses at once (CXA unilateral 長將, §23.5.1).
    pub immediate: bool,
}

/// Decides the repetition ending at the current position of `pos`: `None` if the
/// position has occurred fewer than `fold` times since the last capture or null
/// move (§23.2: a position reached by a capture does not count); otherwise the
/// occurrences and the ruling from the side to move's point of view. Cycles that
/// began before the search root are judged like any other, since `pos.history()`
/// holds the game too.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::rules::{repetition, Outcome, RuleSet};
/// // Red checks with the rook forever; black's king steps up and back.
/// let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
/// assert!(repetition(&pos, RuleSet::Cxa2011, 3).is_none());
/// for m in "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9".split(' ') {
///     pos.make_move(m.parse().unwrap());
/// }
/// let r = repetition(&pos, RuleSet::Cxa2011, 3).unwrap();
/// assert_eq!(r.outcome, Outcome::Win); // black to move; red checked perpetually
/// assert!(r.immediate);
/// ```
pub fn repetition(pos: &Position, rules: RuleSet, fold: u32) -> Option<Repetition> {
    rule(pos, rules, fold, None)
}

/// [`repetition`] with a classification memo: within one search the same cycle
/// moves are met again and again, and each classification costs tens of
/// microseconds (threat sets, bounded mate probes). Keep one [`ClassCache`] per
/// search thread.
pub fn repetition_cached(
    pos: &Position,
    rules: RuleSet,
    fold: u32,
    cache: &mut ClassCache,
) -> Option<Repetition> {
    rule(pos, rules, fold, Some(cache))
}

fn rule(
    pos: &Position,
    rules: RuleSet,
    fold: u32,
    cache: Option<&mut ClassCache>,
) -> Option<Repetition> {
    let found = cycle::find(pos, fold, rules)?;
    let mut cache = cache;
    if idle_on_both_sides(pos, found, rules, cache.as_deref_mut()) {
        return Some(Repetition {
            occurrences: found.occurrences,
            outcome: Outcome::Draw,
            must_vary: None,
            immediate: false,
        });
    }
    let a = analyse(pos, found, rules, cache);
    let stm = pos.side_to_move();
    let outcome = match a.verdict.must_vary {
        None => Outcome::Draw,
        Some(c) if c == stm => Outcome::Loss,
        Some(_) => Outcome::Win,
    };
    Some(Repetition {
        occurrences: found.occurrences,
        outcome,
        must_vary: a.verdict.must_vary,
        immediate: a.verdict.immediate,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cached_and_uncached_agree() {
        let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
        let mut cache = ClassCache::new();
        for m in "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8".split(' ') {
            pos.make_move(m.parse().unwrap());
            for rules in RuleSet::ALL {
                for fold in [2, 3] {
                    assert_eq!(
                        repetition(&pos, rules, fold),
                        repetition_cached(&pos, rules, fold, &mut cache)
                    );
                }
            }
        }
        assert!(!cache.is_empty());
        // Two-fold: black to move after a8a9 the second time, red the violator.
        let r = repetition(&pos, RuleSet::Axf, 2).unwrap();
        assert_eq!((r.outcome, r.must_vary), (Outcome::Loss, Some(Color::Red)));
    }
}
