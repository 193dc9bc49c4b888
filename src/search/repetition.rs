//! Game-history verdicts inside the search: repetitions and the 60-move rule.
//!
//! This is the one place that decides what a repeated position is worth. For now
//! every repetition is a draw (two-fold when the earlier occurrence lies inside the
//! search tree, three-fold when it needs positions from before the root). The 棋例
//! work (perpetual check and chase under the CXA/AXF rules) plugs its verdicts in
//! here: [`judge`] already answers from the side to move's point of view with
//! [`Verdict::Win`] / [`Verdict::Loss`] as well as [`Verdict::Draw`], and the search
//! turns a win or loss into a mate-like score at this ply.
//!
//! The scan back through the history runs only when the [`RepetitionFilter`] says
//! the key occurred before (a small counting table of key bits, maintained on every
//! make/unmake), so almost every node pays one table load.

use crate::core::Position;

/// The result of a history-dependent rule for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The game is drawn here (repetition, or the 60-move rule).
    Draw,
    /// The side to move wins here (its opponent broke a repetition rule).
    Win,
    /// The side to move loses here (it broke a repetition rule, or it has no legal
    /// move when the 60-move limit is reached).
    Loss,
}

const FILTER_BITS: u32 = 14;

/// Counts of positions on the current game-plus-search path by low key bits: a key
/// whose count is below 2 cannot be a repetition (the current position counts once).
pub struct RepetitionFilter {
    counts: Vec<u8>,
}

impl Default for RepetitionFilter {
    fn default() -> RepetitionFilter {
        RepetitionFilter::new()
    }
}

impl RepetitionFilter {
    /// An empty filter.
    pub fn new() -> RepetitionFilter {
        RepetitionFilter {
            counts: vec![0; 1 << FILTER_BITS],
        }
    }

    #[inline(always)]
    fn slot(key: u64) -> usize {
        (key >> (64 - FILTER_BITS)) as usize
    }

    /// Fills the filter from a position and the part of its history that matters
    /// (since the last capture or null move).
    pub fn init(&mut self, pos: &Position) {
        self.counts.fill(0);
        let hist = pos.history();
        let back = (pos.rule60().min(pos.state().plies_from_null) as usize).min(hist.len());
        for st in &hist[hist.len() - back..] {
            self.push(st.key);
        }
        self.push(pos.key());
    }

    /// Records a position entered by a move.
    #[inline(always)]
    pub fn push(&mut self, key: u64) {
        let c = &mut self.counts[Self::slot(key)];
        *c = c.saturating_add(1);
    }

    /// Forgets a position left by unmaking its move.
    #[inline(always)]
    pub fn pop(&mut self, key: u64) {
        let c = &mut self.counts[Self::slot(key)];
        *c = c.saturating_sub(1);
    }

    /// True if `key` may have occurred before on the path (false positives only).
    #[inline(always)]
    pub fn maybe_repeated(&self, key: u64) -> bool {
        self.counts[Self::slot(key)] >= 2
    }
}

/// The verdict of the history rules for the side to move of `pos`, `ply` plies below
/// the search root, or `None` if play goes on.
///
/// * A position that occurred before, strictly after the root (a two-fold
///   repetition inside the tree), or twice before (a three-fold repetition counting
///   the game before the root), is a draw.
/// * After 120 plies without a capture (checks beyond a side's first ten not
///   counted for it: [`crate::rules::sixty_moves`]) the game is drawn, unless the
///   side to move has no legal move: then it loses.
pub fn judge(pos: &Position, filter: &RepetitionFilter, ply: usize) -> Option<Verdict> {
    if crate::rules::sixty_moves(pos) {
        return Some(if pos.has_legal_move() {
            Verdict::Draw
        } else {
            Verdict::Loss
        });
    }
    if !filter.maybe_repeated(pos.key()) {
        return None;
    }
    let hist = pos.history();
    let key = pos.key();
    let end = (pos.rule60().min(pos.state().plies_from_null) as usize).min(hist.len());
    let mut seen = 0;
    let mut i = 4;
    while i <= end {
        if hist[hist.len() - i].key == key {
            if i < ply {
                return Some(Verdict::Draw);
            }
            seen += 1;
            if seen == 2 {
                return Some(Verdict::Draw);
            }
        }
        i += 2;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(pos: &mut Position, filter: &mut RepetitionFilter, moves: &str) {
        for m in moves.split_whitespace() {
            pos.make_move(m.parse().unwrap());
            filter.push(pos.key());
        }
    }

    #[test]
    fn twofold_inside_threefold_outside() {
        let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w").unwrap();
        let mut f = RepetitionFilter::new();
        f.init(&pos);
        play(&mut pos, &mut f, "a1a2 e9f9 a2a1 f9e9");
        // Back at the start position after 4 plies: a draw inside a search whose
        // root was before the first occurrence; not when the first occurrence is
        // the root itself or before it (only a two-fold).
        assert_eq!(judge(&pos, &f, 5), Some(Verdict::Draw));
        assert_eq!(judge(&pos, &f, 4), None);
        assert_eq!(judge(&pos, &f, 0), None);
        play(&mut pos, &mut f, "a1a2 e9f9 a2a1 f9e9");
        assert_eq!(judge(&pos, &f, 0), Some(Verdict::Draw), "three-fold");
    }

    #[test]
    fn sixty_move_rule() {
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 120 80").unwrap();
        let f = RepetitionFilter::new();
        assert_eq!(judge(&pos, &f, 3), Some(Verdict::Draw));
        // No legal move at the limit still loses.
        let pos = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 120 80").unwrap();
        assert_eq!(judge(&pos, &f, 3), Some(Verdict::Loss));
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80").unwrap();
        assert_eq!(judge(&pos, &f, 3), None);
    }

    #[test]
    fn init_counts_history() {
        let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w").unwrap();
        for m in "a1a2 e9f9 a2a1 f9e9".split_whitespace() {
            pos.make_move(m.parse().unwrap());
        }
        let mut f = RepetitionFilter::new();
        f.init(&pos);
        assert!(f.maybe_repeated(pos.key()));
    }
}
