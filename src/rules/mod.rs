//! 棋例: the repetition rules of the Chinese Xiangqi Association's 2011 competition
//! rules (chapter 6 and article 23) and of the Asian Xiangqi Federation, plus the
//! end of the game (chapter 1): checkmate, 困斃, the sixty-move limit, dead
//! positions.
//!
//! Layers, bottom up:
//! * [`board`] — a placement snapshot that answers legality for either side;
//! * [`exchange`] — what a capture wins after the exchange on its point;
//! * [`threat`] — which pieces a side threatens to win (the stuff of 捉);
//! * [`mate`] — bounded checks-only mate probes (殺);
//! * [`classify`] — one move of a cycle: 將, 殺, 捉 or 閒 (§24, §26);
//! * [`verdict`] — each side's pattern and the ruling table (§25, §26.8, AXF);
//! * [`cycle`] — finding repetitions (§23.1–23.2) and analysing them;
//! * [`repetition`] — the fast search-facing test;
//! * [`status`] — game end after a move;
//! * [`judge`](mod@judge) — the arbiter's full ruling as JSON.
//!
//! All numbers live in [`params`].

pub mod board;
pub mod classify;
pub mod cycle;
pub mod exchange;
pub mod judge;
pub mod mate;
pub mod params;
pub mod repetition;
pub mod ruleset;
pub mod status;
pub mod threat;
pub mod verdict;

pub use classify::{Label, MoveClass, classify};
pub use cycle::{Analysis, ClassCache, Cycle};
pub use judge::{JudgeError, Judgement, judge, judge_position};
pub use repetition::{Outcome, Repetition, repetition, repetition_cached};
pub use ruleset::{ParseRuleSetError, RuleSet};
pub use status::{GameStatus, Status, Winner, dead_position, game_status, sixty_moves};
