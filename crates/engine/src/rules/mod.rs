//! 棋例: the repetition rules of the Chinese Xiangqi Association's 2011 competition
//! rules (chapter 6 and article 23) and of the Asian Xiangqi Federation, plus the
//! end of the game (chapter 1): checkmate, 困斃, the sixty-move limit, dead
//! positions.
//!
//! Layers, bottom up (on `core`'s [`Board`](crate::core::Board), which answers
//! legality for either side):
//! * [`exchange`] — what a capture wins after the exchange on its point;
//! * [`threat`] — which pieces a side threatens to win (the stuff of 捉);
//! * [`mate`] — bounded checks-only mate probes (殺);
//! * [`classify`](mod@classify) — one move of a cycle: 將, 殺, 捉 or 閒 (§24, §26);
//! * [`verdict`] — each side's pattern and the ruling table (§25, §26.8, AXF);
//! * [`cycle`] — finding repetitions (§23.1–23.2) and analysing them;
//! * [`repetition`](mod@repetition) — the fast search-facing test;
//! * [`status`] — game end after a move;
//! * [`judge`](mod@judge) — the arbiter's full ruling as JSON.
//!
//! All numbers live in [`params`].
//!
//! # Readings chosen where the text is terse
//!
//! * **Counting (§23.1–23.2).** A position reached by a capture is not counted
//!   under CXA ("首著為吃子應予扣除"); AXF counts it, as the AXF test suites do.
//!   The judged moves are those between the earliest of the last three
//!   occurrences and the repeated position.
//! * **捉 (§24.3)** is a *new* threat: a piece the mover could win after the move
//!   (were it to move again) that it could not win before — by any piece, so
//!   discovered attacks and undermined protection count (§26.1.1). Checks are set
//!   aside on both sides of the question: a capture that waits behind a check the
//!   mover must first answer already existed, and a piece is not unprotected just
//!   because its side is in check.
//! * **Winning material** is decided by exchange arithmetic over legal captures
//!   ([`exchange`]) on the scale R 10, H = C 5, A = B 2, crossed pawn 2, pawn at
//!   home 1 (§1.2, §26.6). A win that needs two of the mover's pieces is 聯合捉
//!   (§24.17, 少根子 by count, §24.15); CXA only.
//! * **§26.5** is read from the capturer's side: a capturer that is the only root
//!   of another piece, or screens one, has what it leaves behind counted; an even
//!   trade then counts as 捉, a losing one as 閒.
//! * **§26.8**: the §26.8.1 patterns are the "serious" ones (every chase by a
//!   single piece, of a rook or an unrooted piece, or a mate threat); exactly one
//!   side serious → it varies; §26.8.2/26.8.3 single against joint chases; else a
//!   draw ([`verdict::CXA_TABLE`]).
//! * **§26.9**: an exchange offer is a chase if accepting it loses material (the
//!   offerer's best reply, counting pieces the acceptance leaves unprotected) or
//!   is mated at once. **§26.10.2**: a protected piece that can itself trade with
//!   the same-kind attacker evenly is offered an exchange, whatever else touches it.
//! * **§26.6**: a pawn that has just crossed is no target for the move that
//!   answers the crossing; a pawn going for a rook chases. **§26.7**: a pawn's
//!   capture counts when it unmasks a check; a pawn move never makes a chase by
//!   combination. **§26.2**: judged by material only (one attacking piece against
//!   several; victims advisors or elephants).
//! * **§26.1.2/§26.3**: a king move answering check is 閒; another piece answering
//!   check makes a 殺 only if the threat did not stand before the check and does
//!   not also follow a king step answering it (自斃).
//! * **§24.3 by check** (連續將軍得子, 抽吃): after a pass, a quiet check after
//!   which every answer leaves a winning capture that was not available at once.
//!   Both rule sets (the CXA 1999 diagram 3 and its AXF expectation need it).
//! * **AXF**: perpetual check outranks perpetual chase; a chase is perpetual when
//!   one piece (followed as it moves) is newly chased by every move of the side,
//!   checking moves included; no 殺, no joint chases, an offer is never a chase;
//!   a threat that only undermines a protection does not count while the opponent
//!   is pressing (checked or chased with its last move) — H. G. Muller's reading of
//!   AXF diagrams 39–41 against the appendix diagram.
//! * **Rulings** ([`status`]): the violator loses when it completes the cycle (it
//!   did not vary); if the violator is to move the game goes on and it must vary
//!   (§23.5.2); unilateral 長將 loses at once under CXA (§23.5.1).

pub mod classify;
pub mod cycle;
pub mod exchange;
pub mod judge;
pub mod mate;
pub mod params;
pub mod policy;
pub mod repetition;
pub mod ruleset;
pub mod status;
pub mod threat;
pub mod verdict;

pub use classify::{ClassCache, Label, MoveClass, classify};
pub use cycle::Cycle;
pub use judge::{JudgeError, Judgement, judge, judge_position};
pub use policy::Policy;
pub use repetition::{Analysis, MoveRuling, Repetition, forbidden_moves, repetition};
pub use ruleset::{ParseRuleSetError, RuleSet};
pub use status::{GameStatus, Status, dead_position, game_status, sixty_moves};
