//! Search values: centipawn-like integers with mate scores at the extremes, their
//! translation to and from the transposition table, and [`Score`], the form reported
//! to the outside (centipawns or moves to mate).

/// A search value from the side to move's point of view.
pub type Value = i32;

/// Deepest ply the search ever reaches (stack size, mate-score band).
pub const MAX_PLY: usize = 128;

/// Value of giving mate at the root. Decided results count in half-plies from
/// it: mate in `n` plies is `MATE - 2n` ([`mate_in`]), and a win by the
/// repetition rules `n` plies from the root is one step less, `MATE - 2n - 1`
/// ([`rule_win_in`]). So a rule result ranks with the mates by its distance: a
/// rule loss now is worse than being mated a ply later and better than being
/// mated now, and the parity of the offset tells the two apart ([`is_rule`]).
pub const MATE: Value = 32_000;

/// Larger than any real value: the initial window bound.
pub const INFINITE: Value = 32_001;

/// Values at least this large (in absolute value) are decided: a mate or a rule
/// result within [`MAX_PLY`] plies.
pub const MATE_BOUND: Value = MATE - 2 * MAX_PLY as Value - 1;

/// The value of a drawn position.
pub const DRAW: Value = 0;

/// Static evaluations are clamped into `±EVAL_LIMIT` so they never look like mates.
pub const EVAL_LIMIT: Value = 20_000;

/// The value of giving mate `ply` plies from the root.
///
/// ```
/// use chuhan_engine::search::score::{mate_in, MATE};
/// assert_eq!(mate_in(3), MATE - 6);
/// assert!(mate_in(3) > mate_in(4));
/// ```
#[inline(always)]
pub const fn mate_in(ply: usize) -> Value {
    MATE - 2 * ply as Value
}

/// The value of being mated `ply` plies from the root.
#[inline(always)]
pub const fn mated_in(ply: usize) -> Value {
    -mate_in(ply)
}

/// The value of winning by the repetition rules (棋例) `ply` plies from the root:
/// just below mate at the same distance. Rule results depend on the path that
/// reached the position, so the transposition table never cuts off on them
/// ([`is_rule`]).
///
/// ```
/// use chuhan_engine::search::score::{is_mate, is_rule, mate_in, rule_win_in, EVAL_LIMIT};
/// assert!(is_rule(rule_win_in(7)) && !is_mate(rule_win_in(7)));
/// assert!(mate_in(7) > rule_win_in(7) && rule_win_in(7) > mate_in(8));
/// assert!(rule_win_in(100) > EVAL_LIMIT);
/// ```
#[inline(always)]
pub const fn rule_win_in(ply: usize) -> Value {
    mate_in(ply) - 1
}

/// The value of losing by the repetition rules `ply` plies from the root: worse
/// than being mated one ply later, better than being mated now. A person facing
/// a forced mate plays on rather than lose by a repetition ruling at once.
///
/// ```
/// use chuhan_engine::search::score::{mated_in, rule_loss_in};
/// assert!(rule_loss_in(3) < mated_in(20));
/// assert!(rule_loss_in(3) > mated_in(3));
/// ```
#[inline(always)]
pub const fn rule_loss_in(ply: usize) -> Value {
    -rule_win_in(ply)
}

/// True if `v` is decided: a mate or a rule result (see [`MATE`]).
#[inline(always)]
pub const fn is_decided(v: Value) -> bool {
    v.abs() >= MATE_BOUND && v.abs() <= MATE
}

/// True if `v` is a rule result (see [`rule_win_in`]): path-dependent, so never a
/// transposition-table cutoff.
#[inline(always)]
pub const fn is_rule(v: Value) -> bool {
    is_decided(v) && (MATE - v.abs()) % 2 == 1
}

/// True if `v` is a mate (or mated) score.
#[inline(always)]
pub const fn is_mate(v: Value) -> bool {
    is_decided(v) && (MATE - v.abs()) % 2 == 0
}

/// Converts a value found `ply` plies from the root into a table value, which counts
/// mates (and rule results) from the stored position rather than from the root.
#[inline(always)]
pub const fn to_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_BOUND {
        v + 2 * ply as Value
    } else if v <= -MATE_BOUND {
        v - 2 * ply as Value
    } else {
        v
    }
}

/// The inverse of [`to_tt`].
#[inline(always)]
pub const fn from_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_BOUND {
        v - 2 * ply as Value
    } else if v <= -MATE_BOUND {
        v + 2 * ply as Value
    } else {
        v
    }
}

/// Plies to the end of a decided value (a mate or a rule result), signed: positive
/// when the side to move wins; `None` for an evaluation.
#[inline(always)]
pub const fn plies_to_end(v: Value) -> Option<i32> {
    if !is_decided(v) {
        None
    } else if v > 0 {
        Some((MATE - v) / 2)
    } else {
        Some(-((MATE + v) / 2))
    }
}

/// A score in the form a GUI is told it (the protocol writes it as text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// An evaluation in centipawn-like units (a pawn on its own side is about 100,
    /// a horse about 400).
    Cp(i32),
    /// Mate in this many moves (positive: the side to move mates; negative: it is
    /// mated). Moves, not plies, as in UCI.
    Mate(i32),
}

impl Score {
    /// The reported form of a search value.
    ///
    /// ```
    /// use chuhan_engine::search::score::{mate_in, mated_in, Score};
    /// assert_eq!(Score::from_value(mate_in(1)), Score::Mate(1));
    /// assert_eq!(Score::from_value(mate_in(3)), Score::Mate(2));
    /// assert_eq!(Score::from_value(mated_in(2)), Score::Mate(-1));
    /// assert_eq!(Score::from_value(35), Score::Cp(35));
    /// ```
    pub fn from_value(v: Value) -> Score {
        match plies_to_end(v) {
            Some(p) if p > 0 => Score::Mate((p + 1) / 2),
            Some(p) => Score::Mate(p / 2),
            None => Score::Cp(v),
        }
    }

    /// Plies to a checkmate (signed like [`Score::Mate`]); `None` for an
    /// evaluation or a rule result (which [`Score::from_value`] still reports as a
    /// mate: under the referees GUIs use, it ends the game just the same).
    pub fn mate_plies(value: Value) -> Option<i32> {
        if is_mate(value) {
            plies_to_end(value)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tt_round_trip() {
        for ply in [0usize, 1, 7, 60] {
            for v in [0, 150, -900, mate_in(ply + 3), mated_in(ply + 4)] {
                assert_eq!(from_tt(to_tt(v, ply), ply), v);
            }
        }
        // A mate found 5 plies from the root, 2 plies below a node at ply 3, is
        // stored as "mate in 2 from here".
        assert_eq!(to_tt(mate_in(5), 3), mate_in(2));
        assert_eq!(to_tt(rule_loss_in(5), 3), rule_loss_in(2));
    }

    #[test]
    fn mate_reporting() {
        assert_eq!(Score::from_value(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_value(mated_in(4)), Score::Mate(-2));
        assert_eq!(Score::from_value(mate_in(5)), Score::Mate(3));
        assert!(is_mate(mate_in(100)) && !is_mate(EVAL_LIMIT));
    }

    #[test]
    fn rule_results_rank_with_mates_by_distance() {
        for ply in [0, 1, MAX_PLY - 1] {
            for v in [rule_win_in(ply), rule_loss_in(ply)] {
                assert!(is_rule(v) && !is_mate(v) && is_decided(v), "{v}");
                assert!(v.abs() > EVAL_LIMIT && v.abs() < MATE && v.abs() >= MATE_BOUND);
                assert_eq!(from_tt(to_tt(v, 9), 9), v);
                assert!(matches!(Score::from_value(v), Score::Mate(_)));
                assert_eq!(Score::mate_plies(v), None);
            }
            assert!(is_mate(mate_in(ply)) && is_mate(mated_in(ply)) && !is_rule(mate_in(ply)));
        }
        assert!(!is_rule(EVAL_LIMIT) && !is_rule(0) && !is_decided(EVAL_LIMIT));
        assert!(rule_win_in(3) > rule_win_in(4), "quicker rule wins first");
        // The table counts from the stored position and keeps the parity.
        assert!(is_rule(to_tt(rule_win_in(20), 9)) && is_rule(to_tt(rule_loss_in(20), 9)));
        assert_eq!(to_tt(rule_win_in(20), 9), rule_win_in(11));
        // A rule loss at once is worse than a mate 2 plies later, better than mate now.
        assert!(rule_loss_in(4) < mated_in(6) && rule_loss_in(4) > mated_in(4));
        assert!(mate_in(4) > rule_win_in(4) && rule_win_in(4) > mate_in(5));
        assert_eq!(Score::from_value(rule_loss_in(4)), Score::Mate(-2));
        assert_eq!(Score::from_value(rule_win_in(3)), Score::Mate(2));
        assert_eq!(plies_to_end(rule_win_in(3)), Some(3));
        assert_eq!(plies_to_end(rule_loss_in(3)), Some(-3));
    }
}
