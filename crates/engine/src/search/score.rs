//! Search values: centipawn-like integers with mate scores at the extremes, their
//! translation to and from the transposition table, and [`Score`], the form reported
//! to the outside (centipawns or moves to mate).

/// A search value from the side to move's point of view.
pub type Value = i32;

/// Deepest ply the search ever reaches (stack size, mate-score band).
pub const MAX_PLY: usize = 128;

/// Value of being mated at the root; mate in `n` plies is `MATE - n`.
pub const MATE: Value = 32_000;

/// Larger than any real value: the initial window bound.
pub const INFINITE: Value = 32_001;

/// Values at least this large (in absolute value) are mate scores.
pub const MATE_BOUND: Value = MATE - MAX_PLY as Value;

/// The value of a drawn position.
pub const DRAW: Value = 0;

/// Static evaluations are clamped into `±EVAL_LIMIT` so they never look like mates.
pub const EVAL_LIMIT: Value = 20_000;

/// Value of winning by the repetition rules (棋例) at the root; a rule win `n` plies
/// from the root is `RULE_WIN - n`. Rule results live in their own band, between
/// every evaluation and every mate: they outrank any material gain, they are never
/// reported or stored as mates, and the transposition table never cuts off on them
/// (they depend on the path that reached the position; see [`is_rule`]).
pub const RULE_WIN: Value = 25_000;

/// Values at least this large in absolute value, and below [`MATE_BOUND`], are rule
/// results.
pub const RULE_BOUND: Value = RULE_WIN - MAX_PLY as Value;

/// The value of giving mate `ply` plies from the root.
///
/// ```
/// use chuhan_engine::search::score::{mate_in, MATE};
/// assert_eq!(mate_in(3), MATE - 3);
/// ```
#[inline(always)]
pub const fn mate_in(ply: usize) -> Value {
    MATE - ply as Value
}

/// The value of being mated `ply` plies from the root.
#[inline(always)]
pub const fn mated_in(ply: usize) -> Value {
    -MATE + ply as Value
}

/// The value of winning by the repetition rules `ply` plies from the root.
///
/// ```
/// use chuhan_engine::search::score::{is_mate, is_rule, rule_win_in, EVAL_LIMIT};
/// assert!(is_rule(rule_win_in(7)) && !is_mate(rule_win_in(7)));
/// assert!(rule_win_in(100) > EVAL_LIMIT);
/// ```
#[inline(always)]
pub const fn rule_win_in(ply: usize) -> Value {
    RULE_WIN - ply as Value
}

/// The value of losing by the repetition rules `ply` plies from the root.
#[inline(always)]
pub const fn rule_loss_in(ply: usize) -> Value {
    -RULE_WIN + ply as Value
}

/// True if `v` is a rule result (see [`RULE_WIN`]): path-dependent, so never a
/// transposition-table cutoff.
#[inline(always)]
pub const fn is_rule(v: Value) -> bool {
    (v >= RULE_BOUND && v < MATE_BOUND) || (v <= -RULE_BOUND && v > -MATE_BOUND)
}

/// True if `v` is a mate (or mated) score.
#[inline(always)]
pub const fn is_mate(v: Value) -> bool {
    v >= MATE_BOUND || v <= -MATE_BOUND
}

/// Converts a value found `ply` plies from the root into a table value, which counts
/// mates from the stored position rather than from the root.
#[inline(always)]
pub const fn to_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_BOUND {
        v + ply as Value
    } else if v <= -MATE_BOUND {
        v - ply as Value
    } else {
        v
    }
}

/// The inverse of [`to_tt`].
#[inline(always)]
pub const fn from_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_BOUND {
        v - ply as Value
    } else if v <= -MATE_BOUND {
        v + ply as Value
    } else {
        v
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
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }

    /// Plies to mate (signed like [`Score::Mate`]), `None` for an evaluation.
    pub fn mate_plies(value: Value) -> Option<i32> {
        if value >= MATE_BOUND {
            Some(MATE - value)
        } else if value <= -MATE_BOUND {
            Some(-(MATE + value))
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
    }

    #[test]
    fn mate_reporting() {
        assert_eq!(Score::from_value(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_value(mated_in(4)), Score::Mate(-2));
        assert_eq!(Score::from_value(mate_in(5)), Score::Mate(3));
        assert!(is_mate(mate_in(100)) && !is_mate(EVAL_LIMIT));
    }

    #[test]
    fn rule_band_lies_between_evaluations_and_mates() {
        for ply in [0, 1, MAX_PLY - 1] {
            for v in [rule_win_in(ply), rule_loss_in(ply)] {
                assert!(is_rule(v) && !is_mate(v), "{v}");
                assert!(v.abs() > EVAL_LIMIT && v.abs() < MATE_BOUND);
                assert_eq!(from_tt(to_tt(v, 9), 9), v);
                assert!(matches!(Score::from_value(v), Score::Cp(_)));
            }
        }
        assert!(!is_rule(EVAL_LIMIT) && !is_rule(mate_in(MAX_PLY)) && !is_rule(0));
        assert!(rule_win_in(3) > rule_win_in(4), "quicker rule wins first");
    }
}
