//! Which searched positions become training records.
//!
//! A static evaluation is asked to judge quiet positions; the search score of a
//! position in the middle of a tactic (a check to answer, a capture to make or to
//! recapture) says little about what a static look can see, and near-mate scores
//! say nothing about material or placement. By default a position is dropped when:
//!
//! * the side to move is in check;
//! * the search's best move is a capture;
//! * the move that led to it was a capture;
//! * the absolute score exceeds `max_score` centipawns (mates included).
//!
//! Within a unit, a position (by Zobrist key, which includes the side to move) is
//! kept once: its first occurrence in game order.

use serde::{Deserialize, Serialize};

/// The filter settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Filters {
    /// Drop positions where the side to move is in check.
    pub skip_in_check: bool,
    /// Drop positions whose best move is a capture.
    pub skip_capture_best: bool,
    /// Drop positions reached by a capture.
    pub skip_after_capture: bool,
    /// Drop positions whose absolute score is above this (centipawns).
    pub max_score: i32,
}

impl Default for Filters {
    fn default() -> Filters {
        Filters {
            skip_in_check: true,
            skip_capture_best: true,
            skip_after_capture: true,
            max_score: 3_000,
        }
    }
}

/// What is known of a searched position when deciding whether to keep it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The side to move is in check.
    pub in_check: bool,
    /// The best move captures.
    pub best_is_capture: bool,
    /// The last move captured.
    pub after_capture: bool,
    /// The search value (side to move's view; mate values are large).
    pub score: i32,
}

impl Filters {
    /// True when the position is kept.
    ///
    /// ```
    /// use chuhan_arena::datagen::filter::{Candidate, Filters};
    /// let quiet = Candidate { in_check: false, best_is_capture: false, after_capture: false, score: 40 };
    /// let f = Filters::default();
    /// assert!(f.keeps(&quiet));
    /// assert!(!f.keeps(&Candidate { in_check: true, ..quiet }));
    /// assert!(!f.keeps(&Candidate { score: -5_000, ..quiet }));
    /// ```
    pub fn keeps(&self, c: &Candidate) -> bool {
        !(self.skip_in_check && c.in_check
            || self.skip_capture_best && c.best_is_capture
            || self.skip_after_capture && c.after_capture
            || c.score.unsigned_abs() > self.max_score.unsigned_abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_filter_drops_only_its_case() {
        let quiet = Candidate {
            in_check: false,
            best_is_capture: false,
            after_capture: false,
            score: 0,
        };
        let cases = [
            Candidate {
                in_check: true,
                ..quiet
            },
            Candidate {
                best_is_capture: true,
                ..quiet
            },
            Candidate {
                after_capture: true,
                ..quiet
            },
            Candidate {
                score: 3_001,
                ..quiet
            },
        ];
        let all = Filters::default();
        let none = Filters {
            skip_in_check: false,
            skip_capture_best: false,
            skip_after_capture: false,
            max_score: i32::MAX,
        };
        for c in &cases {
            assert!(!all.keeps(c), "{c:?}");
            assert!(none.keeps(c), "{c:?}");
        }
        assert!(all.keeps(&Candidate {
            score: -3_000,
            ..quiet
        }));
        let only_check = Filters {
            skip_in_check: true,
            ..none
        };
        assert_eq!(
            cases
                .iter()
                .map(|c| only_check.keeps(c))
                .collect::<Vec<_>>(),
            [false, true, true, true]
        );
    }
}
