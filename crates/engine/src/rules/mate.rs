//! Bounded mate probes: checks-only mate searches for 殺 (§24.2: a move that means
//! to mate with the next check or a run of checks) and for "immediately mated"
//! (§24.3, §26.9).
//!
//! The attacker may play only checking moves, the defender any legal move; a
//! defender without a legal move is mated. Depth counts attacker moves and a node
//! budget bounds the work: a probe that runs out of nodes answers "no mate", so a
//! judgement can only err towards 閒, never invent a threat.

use crate::core::{MoveList, Position};

/// A checks-only mate search with a depth and a node budget.
#[derive(Clone, Copy, Debug)]
pub struct MateProbe {
    depth: u32,
    budget: u32,
    nodes: u32,
}

impl MateProbe {
    /// A probe looking `depth` attacker moves deep within `budget` nodes.
    pub fn new(depth: u32, budget: u32) -> MateProbe {
        MateProbe {
            depth,
            budget,
            nodes: 0,
        }
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u32 {
        self.nodes
    }

    /// True if the side to move mates by consecutive checks within the depth.
    ///
    /// ```
    /// use chuhan_engine::core::Position;
    /// use chuhan_engine::rules::mate::MateProbe;
    /// // b7b9 mates: a8 covers rank 8 and the red king the e-file.
    /// let mut pos = Position::from_fen("3k5/R8/1R7/9/9/9/9/9/9/4K4 w").unwrap();
    /// let before = pos.clone();
    /// assert!(MateProbe::new(1, 1000).mates(&mut pos));
    /// assert_eq!(pos, before);
    /// ```
    pub fn mates(&mut self, pos: &mut Position) -> bool {
        let d = self.depth;
        self.attack(pos, d)
    }

    /// True if, were the side to move to pass, the other side would mate by checks
    /// within the depth: the position holds a mate threat (殺) against the side to
    /// move. False when the side to move is in check (a pass would be illegal).
    pub fn threat(&mut self, pos: &mut Position) -> bool {
        if pos.in_check() {
            return false;
        }
        pos.make_null();
        let r = self.mates(pos);
        pos.unmake_null();
        r
    }

    fn attack(&mut self, pos: &mut Position, depth: u32) -> bool {
        if depth == 0 || self.nodes >= self.budget {
            return false;
        }
        let moves: MoveList = pos.legal_moves();
        for &m in moves.iter() {
            if !pos.gives_check(m) {
                continue;
            }
            self.nodes += 1;
            if self.nodes >= self.budget {
                return false;
            }
            pos.make_move(m);
            let mated = self.defend(pos, depth - 1);
            pos.unmake_move();
            if mated {
                return true;
            }
        }
        false
    }

    fn defend(&mut self, pos: &mut Position, depth: u32) -> bool {
        let moves: MoveList = pos.legal_moves();
        if moves.is_empty() {
            return true;
        }
        if depth == 0 {
            return false;
        }
        for &r in moves.iter() {
            self.nodes += 1;
            if self.nodes >= self.budget {
                return false;
            }
            pos.make_move(r);
            let mated = self.attack(pos, depth);
            pos.unmake_move();
            if !mated {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_rook_mate_needs_depth_two() {
        // Two red rooks against a bare king on e9, the red king holding the d-file:
        // Ra9+ Ke8 Ra8+ Ke7 R9a7# takes three checks.
        let fen = "4k4/9/9/9/9/9/9/R8/R8/3K5 w";
        let mut pos = Position::from_fen(fen).unwrap();
        assert!(!MateProbe::new(1, 10_000).mates(&mut pos));
        assert!(MateProbe::new(3, 100_000).mates(&mut pos));
    }

    #[test]
    fn threat_after_a_pass() {
        // Black to move, not in check; after a pass Ra7-d7 would mate (d8 covered by
        // the rook, e9 by the red king along the open e-file).
        let mut pos = Position::from_fen("3k5/9/R8/9/9/9/9/9/9/4K4 b").unwrap();
        assert!(!pos.in_check());
        let mut probe = MateProbe::new(1, 1000);
        assert!(probe.threat(&mut pos));
    }

    #[test]
    fn budget_exhaustion_means_no_mate() {
        let fen = "4k4/9/9/9/9/9/9/R8/R8/3K5 w";
        let mut pos = Position::from_fen(fen).unwrap();
        assert!(!MateProbe::new(3, 2).mates(&mut pos));
    }
}
