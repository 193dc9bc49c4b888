//! The ruling on a repetition (§23.5, §25, §26.8): the judged moves of a cycle
//! classified one by one ([`classify`](mod@super::classify)), each side's
//! [`Pattern`] and the verdict of the rule set's table
//! ([`Policy::verdict`](super::Policy::verdict)).
//!
//! * [`analyse`] gives the full account (the arbiter's [`judge`](mod@super::judge),
//!   [`game_status`](super::game_status));
//! * [`repetition`] gives the verdict alone on the repetition ending at the current
//!   position, with a shortcut for the commonest cycle (both sides idle) — what the
//!   search asks;
//! * [`forbidden_moves`] lists the moves that would complete a cycle their mover
//!   must vary (what `judge` marks `ban`, [`MoveRuling::Ban`]).
//!
//! # How a search uses it
//!
//! * **Filter first.** [`repetition`] scans back one key comparison per two plies
//!   to the last capture or null move, so a search calls it only when its own key
//!   filter says the position may have occurred before. With a repetition it
//!   classifies the cycle's moves (threat sets, bounded mate probes), typically tens
//!   of microseconds per move: keep one [`ClassCache`] per search thread so that a
//!   cycle met again costs a few lookups.
//! * **Fold.** `fold = 3` when the earlier occurrences lie at or before the root
//!   (the real game must reach the 待判局面 of §23.1), `fold = 2` when the cycle lies
//!   wholly after the root (the opponent can always complete it), as Pikafish does.
//! * **Scores.** A draw scores as a draw. A cycle completed by its violator
//!   ([`Verdict::loser`] is the side that just moved) is a win for the side to move
//!   — not a mate score, and at two-fold only a floor of a draw: trusting two-fold
//!   verdicts as exact gives false mates (`3aka3/4n4/9/9/9/9/9/7C1/7r1/3AK4 w`,
//!   `5R3/4k4/9/4r4/9/9/5p3/5A3/5K3/9 b`). A violator to move must vary
//!   (§23.5.2): play goes on, unless its violation loses at once (CXA unilateral
//!   長將, §23.5.1). Rule-dependent scores depend on the path: keep them out of the
//!   transposition table or salt its key. [`crate::search::repetition`] does all
//!   this.

use super::classify::{ClassCache, Label, MoveClass, classify_cached};
use super::cycle::{self, Cycle};
use super::ruleset::RuleSet;
use super::verdict::{Identities, Pattern, Verdict};
use crate::core::{Color, Move, Position};
use std::fmt;

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

impl Analysis {
    /// The pattern of `side`.
    pub fn pattern(&self, side: Color) -> &Pattern {
        match side {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }
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
    let verdict = (rules.policy().verdict)(&red, &black);
    Analysis {
        cycle,
        to_move: pos.side_to_move(),
        moves,
        red,
        black,
        verdict,
    }
}

/// A repetition ending at the current position, ruled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// Where the cycle lies and how often the position has occurred.
    pub cycle: Cycle,
    /// The ruling.
    pub verdict: Verdict,
}

/// Rules on the repetition ending at the current position of `pos`: `None` if the
/// position has occurred fewer than `fold` times since the last capture or null
/// move (counted by the rule set, §23.2); otherwise the cycle and its verdict.
/// Cycles that began before a search root are judged like any other, since
/// `pos.history()` holds the game too. `cache`, if given, remembers classifications
/// across calls.
///
/// ```
/// use chuhan_engine::core::{Color, Position};
/// use chuhan_engine::rules::{repetition, RuleSet};
/// // Red checks with the rook forever; black's king steps up and back.
/// let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
/// assert!(repetition(&pos, RuleSet::Cxa2011, 3, None).is_none());
/// for m in "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9".split(' ') {
///     pos.make_move(m.parse().unwrap());
/// }
/// let r = repetition(&pos, RuleSet::Cxa2011, 3, None).unwrap();
/// assert_eq!(r.cycle.occurrences, 3);
/// // Black to move; red, the perpetual checker, completed the cycle and loses.
/// assert_eq!(r.verdict.loser(Color::Black), Some(Color::Red));
/// assert!(r.verdict.immediate);
/// ```
pub fn repetition(
    pos: &Position,
    rules: RuleSet,
    fold: u32,
    mut cache: Option<&mut ClassCache>,
) -> Option<Repetition> {
    let cycle = cycle::find(pos, fold, rules)?;
    let verdict = if idle_on_both_sides(pos, cycle, rules, cache.as_deref_mut()) {
        // Each side's pattern holds an idle move, so neither is forbidden, checks
        // perpetually or chases one piece with every move: the table rules on
        // that alone.
        let idle = Pattern {
            moves: 1,
            idles: 1,
            ..Pattern::default()
        };
        (rules.policy().verdict)(&idle, &idle)
    } else {
        analyse(pos, cycle, rules, cache).verdict
    };
    Some(Repetition { cycle, verdict })
}

/// What playing a move does under the repetition rules (ChessDB's `queryrule`
/// answers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveRuling {
    /// It completes no cycle ruled against anybody: nothing to say.
    None,
    /// It completes, for the third time, a cycle ruled a draw.
    Draw,
    /// It completes, for the third time, a cycle in which its mover is the violator:
    /// forbidden.
    Ban,
}

impl MoveRuling {
    /// The name used in JSON and reports: `none`, `draw` or `ban`.
    pub const fn name(self) -> &'static str {
        match self {
            MoveRuling::None => "none",
            MoveRuling::Draw => "draw",
            MoveRuling::Ban => "ban",
        }
    }

    /// The ruling on a move of `mover` that completes a cycle ruled `verdict`
    /// (`None`: it completes none).
    pub fn of(verdict: Option<&Verdict>, mover: Color) -> MoveRuling {
        match verdict.map(|v| v.must_vary) {
            None => MoveRuling::None,
            Some(None) => MoveRuling::Draw,
            Some(Some(v)) if v == mover => MoveRuling::Ban,
            Some(Some(_)) => MoveRuling::None,
        }
    }
}

impl fmt::Display for MoveRuling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The legal moves of the side to move that the rules forbid
/// ([`MoveRuling::Ban`]): each would complete, for the third time, a cycle in which
/// the mover is the violator.
///
/// ```
/// use chuhan_engine::core::{Move, Position};
/// use chuhan_engine::rules::{forbidden_moves, RuleSet};
/// let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
/// for m in "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9".split(' ') {
///     pos.make_move(m.parse().unwrap());
/// }
/// // The fifth check in a row would bring the position after a0a9 back a third time.
/// let a8a9: Move = "a8a9".parse().unwrap();
/// assert_eq!(forbidden_moves(&pos, RuleSet::Cxa2011, None), vec![a8a9]);
/// ```
pub fn forbidden_moves(
    pos: &Position,
    rules: RuleSet,
    mut cache: Option<&mut ClassCache>,
) -> Vec<Move> {
    let mover = pos.side_to_move();
    let mut line = pos.clone();
    let mut out = Vec::new();
    for &m in pos.legal_moves().iter() {
        line.make_move(m);
        let r = repetition(&line, rules, 3, cache.as_deref_mut());
        if MoveRuling::of(r.as_ref().map(|r| &r.verdict), mover) == MoveRuling::Ban {
            out.push(m);
        }
        line.unmake_move();
    }
    out
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
                        repetition(&pos, rules, fold, None),
                        repetition(&pos, rules, fold, Some(&mut cache))
                    );
                }
            }
        }
        assert!(!cache.is_empty());
        // Two-fold: red to move after e9e8 the second time, red the violator, who
        // must vary.
        let r = repetition(&pos, RuleSet::Axf, 2, None).unwrap();
        assert_eq!(r.verdict.must_vary, Some(Color::Red));
        assert_eq!(r.verdict.loser(Color::Red), None);
    }
}
