//! Finding repetitions in a game line (§23.1–23.2): where a position occurred
//! before and which moves a ruling judges. Classifying and ruling are
//! [`super::repetition`](mod@super::repetition)'s.
//!
//! A position *occurs* again when its key recurs with the same side to move since
//! the last capture. §23.2: the first move of a cycle counts towards the three
//! times unless it is a capture — so a position reached by a capture (or, in
//! search, by a null move) is never counted, while the game's start position is.

use super::ruleset::RuleSet;
use crate::core::{Move, Position, State};

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
    let window = (st.reversible_plies() as usize).min(n);
    if window < 4 {
        return None;
    }
    let low = n - window;
    let counts_captures = rules.policy().counts_capture_positions;
    let mut found = 1u32;
    let mut start = n;
    let mut j = n - 4;
    loop {
        let s = state_at(history, current, j);
        let counted = s.mv != Move::NULL && (s.captured.is_none() || counts_captures);
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
