//! The staged move picker: yields the legal moves of a position one at a time, best
//! guesses first, generating each class of moves only when the previous ones did not
//! cut the node off.
//!
//! Main search: TT move, good captures (MVV plus capture history, SEE ≥ 0), two
//! killers, the counter move, quiets by history, then the losing captures. In check:
//! TT move, then every evasion (captures first). Quiescence: TT move if a capture,
//! then captures (or all evasions in check). Every move is yielded exactly once and
//! only if legal.

use crate::core::{GenType, MAX_MOVES, Move, MoveList, Position};
use crate::search::history::{History, PieceTo};
use crate::search::params::GOOD_CAPTURE_SEE;
use crate::search::see;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    EvasionTt,
    GenEvasions,
    Evasions,
    QsTt,
    QsGenCaptures,
    QsCaptures,
    Done,
}

#[derive(Clone, Copy, Default)]
struct Scored {
    mv: Move,
    score: i32,
}

/// What the picker needs to know about the search state to order quiet moves.
#[derive(Clone, Copy)]
pub struct OrderContext<'a> {
    /// The thread's history tables.
    pub history: &'a History,
    /// The moves one and two plies before, for continuation history.
    pub conts: [Option<PieceTo>; 2],
}

/// A staged move picker for one node.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    moves: [Scored; MAX_MOVES],
    cur: usize,
    end: usize,
    bad: [Move; MAX_MOVES],
    bad_len: usize,
    bad_cur: usize,
    skip_quiets: bool,
}

impl MovePicker {
    fn with_stage(stage: Stage, tt_move: Move, killers: [Move; 2], counter: Move) -> MovePicker {
        MovePicker {
            stage,
            tt_move,
            killers,
            counter,
            moves: [Scored::default(); MAX_MOVES],
            cur: 0,
            end: 0,
            bad: [Move::NONE; MAX_MOVES],
            bad_len: 0,
            bad_cur: 0,
            skip_quiets: false,
        }
    }

    /// A picker for a main-search node.
    pub fn new(pos: &Position, tt_move: Move, killers: [Move; 2], counter: Move) -> MovePicker {
        let stage = if pos.in_check() {
            Stage::EvasionTt
        } else {
            Stage::TtMove
        };
        MovePicker::with_stage(stage, tt_move, killers, counter)
    }

    /// A picker for a quiescence node: captures, or every evasion when in check.
    pub fn new_qsearch(pos: &Position, tt_move: Move) -> MovePicker {
        if pos.in_check() {
            MovePicker::with_stage(Stage::EvasionTt, tt_move, [Move::NONE; 2], Move::NONE)
        } else {
            let tt = if tt_move.is_some() && pos.piece_at(tt_move.to()).is_some() {
                tt_move
            } else {
                Move::NONE
            };
            MovePicker::with_stage(Stage::QsTt, tt, [Move::NONE; 2], Move::NONE)
        }
    }

    /// From now on, skip the remaining quiet moves (late move pruning). Captures and
    /// evasions are still yielded.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    fn score_captures(&mut self, pos: &Position, ctx: &OrderContext) {
        for s in &mut self.moves[self.cur..self.end] {
            let victim = pos.piece_at(s.mv.to()).map(|p| p.kind);
            let mover = pos.piece_at(s.mv.from());
            s.score = match (victim, mover) {
                (Some(v), Some(p)) => {
                    16 * see::value(v) + ctx.history.capture(p, s.mv.to(), v) / 16
                        - see::value(p.kind) / 8
                }
                _ => 0,
            };
        }
    }

    fn score_quiets(&mut self, pos: &Position, ctx: &OrderContext) {
        let side = pos.side_to_move();
        for s in &mut self.moves[self.cur..self.end] {
            let mut v = ctx.history.main(side, s.mv);
            if let Some(p) = pos.piece_at(s.mv.from()) {
                let now = PieceTo {
                    piece: p,
                    to: s.mv.to(),
                };
                for prev in ctx.conts.iter().flatten() {
                    v += ctx.history.cont(*prev, now);
                }
            }
            s.score = v;
        }
    }

    fn score_evasions(&mut self, pos: &Position, ctx: &OrderContext) {
        let side = pos.side_to_move();
        for s in &mut self.moves[self.cur..self.end] {
            s.score = match pos.piece_at(s.mv.to()) {
                Some(v) => {
                    (1 << 24) + 16 * see::value(v.kind)
                        - pos
                            .piece_at(s.mv.from())
                            .map_or(0, |p| see::value(p.kind) / 8)
                }
                None => ctx.history.main(side, s.mv),
            };
        }
    }

    fn load(&mut self, list: &MoveList, skip: &[Move]) {
        self.cur = 0;
        self.end = 0;
        for &m in list.as_slice() {
            if !skip.contains(&m) {
                self.moves[self.end] = Scored { mv: m, score: 0 };
                self.end += 1;
            }
        }
    }

    /// Index of the best remaining move, swapped to `cur`.
    fn select_best(&mut self) -> Option<Move> {
        if self.cur >= self.end {
            return None;
        }
        let mut best = self.cur;
        for i in self.cur + 1..self.end {
            if self.moves[i].score > self.moves[best].score {
                best = i;
            }
        }
        self.moves.swap(self.cur, best);
        self.cur += 1;
        Some(self.moves[self.cur - 1].mv)
    }

    fn sort_rest(&mut self) {
        self.moves[self.cur..self.end].sort_unstable_by_key(|m| std::cmp::Reverse(m.score));
    }

    fn quiet_candidate(&self, pos: &Position, m: Move) -> bool {
        m.is_some() && m != self.tt_move && pos.piece_at(m.to()).is_none() && pos.is_legal(m)
    }

    /// The next move, or `None` when all are done.
    pub fn next(&mut self, pos: &Position, ctx: &OrderContext) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove | Stage::EvasionTt | Stage::QsTt => {
                    self.stage = match self.stage {
                        Stage::TtMove => Stage::GenCaptures,
                        Stage::EvasionTt => Stage::GenEvasions,
                        _ => Stage::QsGenCaptures,
                    };
                    if self.tt_move.is_some() && pos.is_legal(self.tt_move) {
                        return Some(self.tt_move);
                    }
                    self.tt_move = Move::NONE;
                }
                Stage::GenCaptures | Stage::QsGenCaptures => {
                    let list = pos.generate(GenType::Captures);
                    self.load(&list, &[self.tt_move]);
                    self.score_captures(pos, ctx);
                    self.stage = if self.stage == Stage::GenCaptures {
                        Stage::GoodCaptures
                    } else {
                        Stage::QsCaptures
                    };
                }
                Stage::GoodCaptures => match self.select_best() {
                    Some(m) => {
                        if see::see_ge(pos, m, GOOD_CAPTURE_SEE) {
                            return Some(m);
                        }
                        self.bad[self.bad_len] = m;
                        self.bad_len += 1;
                    }
                    None => self.stage = Stage::Killer1,
                },
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let (m, next) = match self.stage {
                        Stage::Killer1 => (self.killers[0], Stage::Killer2),
                        Stage::Killer2 => (self.killers[1], Stage::Counter),
                        _ => (self.counter, Stage::GenQuiets),
                    };
                    self.stage = next;
                    let repeat = match next {
                        Stage::Killer2 => false,
                        Stage::Counter => m == self.killers[0],
                        _ => m == self.killers[0] || m == self.killers[1],
                    };
                    if !self.skip_quiets && !repeat && self.quiet_candidate(pos, m) {
                        return Some(m);
                    }
                }
                Stage::GenQuiets => {
                    self.stage = Stage::Quiets;
                    if !self.skip_quiets {
                        let list = pos.generate(GenType::Quiets);
                        let skip = [self.tt_move, self.killers[0], self.killers[1], self.counter];
                        self.load(&list, &skip);
                        self.score_quiets(pos, ctx);
                        self.sort_rest();
                    } else {
                        self.cur = 0;
                        self.end = 0;
                    }
                }
                Stage::Quiets => {
                    if !self.skip_quiets && self.cur < self.end {
                        self.cur += 1;
                        return Some(self.moves[self.cur - 1].mv);
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.bad_cur < self.bad_len {
                        self.bad_cur += 1;
                        return Some(self.bad[self.bad_cur - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    let list = pos.generate(GenType::All);
                    self.load(&list, &[self.tt_move]);
                    self.score_evasions(pos, ctx);
                    self.sort_rest();
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    if self.cur < self.end {
                        self.cur += 1;
                        return Some(self.moves[self.cur - 1].mv);
                    }
                    self.stage = Stage::Done;
                }
                Stage::QsCaptures => match self.select_best() {
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Perft through the picker, with arbitrary (possibly illegal) TT moves, killers
    /// and counters taken from elsewhere in the tree.
    fn perft_picker(pos: &mut Position, depth: u32, h: &History, junk: &mut Vec<Move>) -> u64 {
        if depth == 0 {
            return 1;
        }
        let n = junk.len();
        let pick = |i: usize| {
            if n == 0 {
                Move::NONE
            } else {
                junk[(i * 7 + depth as usize) % n]
            }
        };
        let mut picker = MovePicker::new(pos, pick(1), [pick(2), pick(3)], pick(4));
        let ctx = OrderContext {
            history: h,
            conts: [None, None],
        };
        let mut seen = Vec::new();
        let mut nodes = 0;
        while let Some(m) = picker.next(pos, &ctx) {
            assert!(!seen.contains(&m), "{m} yielded twice in {}", pos.to_fen());
            seen.push(m);
            junk.push(m);
            pos.make_move(m);
            nodes += perft_picker(pos, depth - 1, h, junk);
            pos.unmake_move();
        }
        assert_eq!(seen.len(), pos.count_legal(), "{}", pos.to_fen());
        nodes
    }

    #[test]
    fn picker_yields_exactly_the_legal_moves() {
        let h = History::new();
        let mut junk = Vec::new();
        for (fen, d, n) in [
            (crate::core::START_FEN, 3, 79_666),
            (
                "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
                3,
                8_620,
            ),
        ] {
            let mut pos = Position::from_fen(fen).unwrap();
            assert_eq!(perft_picker(&mut pos, d, &h, &mut junk), n, "{fen}");
        }
    }

    #[test]
    fn qsearch_picker_yields_captures_or_evasions() {
        let h = History::new();
        let ctx = OrderContext {
            history: &h,
            conts: [None, None],
        };
        let pos = Position::startpos();
        let mut p = MovePicker::new_qsearch(&pos, "h2e2".parse().unwrap());
        let mut n = 0;
        while let Some(m) = p.next(&pos, &ctx) {
            assert!(pos.piece_at(m.to()).is_some());
            n += 1;
        }
        assert_eq!(n, 2);
    }
}
