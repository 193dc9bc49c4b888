//! 棋例: the repetition rules of the Chinese Xiangqi Association's 2011 competition
//! rules (chapter 6 and article 23) and of the Asian Xiangqi Federation, plus the
//! end of the game (chapter 1): checkmate, 困斃, the sixty-move limit, dead
//! positions.
//!
//! # Where each concept lives
//!
//! Bottom up; each file holds one concept and each concept one file. Placement and
//! legality for either side come from `core`'s [`Placement`](crate::core::Placement).
//!
//! | file | concept | main items |
//! |---|---|---|
//! | [`ruleset`] | which rules govern a game | [`RuleSet`] |
//! | [`policy`] | every CXA 2011 / AXF difference, each with its article | [`Policy`], [`RuleSet::policy`] |
//! | [`params`] | every number: the material scale, probe bounds, natural limits | [`params::value`] |
//! | [`exchange`] | legal captures for either side, exchange arithmetic on a point | [`exchange::see`], [`exchange::CaptureWorth`] |
//! | [`threat`] | which pieces a side threatens to win: the stuff of 捉 (§24.3) | [`threat::Threat`], [`threat::ChaseKind`] |
//! | [`mate`] | bounded checks-only mate probes: 殺 (§24.2) | [`mate::MateProbe`] |
//! | [`classify`](mod@classify) | one move of a cycle: 將, 殺, 捉 or 閒 (§24, §26), and the memo of classifications | [`MoveClass`], [`Label`], [`ClassCache`] |
//! | [`cycle`] | finding repetitions and counting occurrences (§23.1–23.2) | [`Cycle`], [`cycle::find`] |
//! | [`verdict`] | each side's pattern and the ruling tables (§24.9–24.14, §25, §26.8; AXF) | [`verdict::Pattern`], [`verdict::Verdict`], [`verdict::Article`], [`verdict::CXA_TABLE`], [`verdict::AXF_TABLE`] |
//! | [`repetition`](mod@repetition) | the ruling on a repetition: the full analysis, the verdict alone, forbidden moves | [`Analysis`], [`repetition()`], [`forbidden_moves`], [`MoveRuling`] |
//! | [`status`] | how the game stands after a move (chapter 1, §22.2, §23) | [`GameStatus`], [`game_status`], [`sixty_moves`] |
//! | [`judge`](mod@judge) | the arbiter's ruling on a game, typed and serialised | [`Judgement`], [`judge()`], [`judge_position`], [`move_verdicts`] |
//!
//! The search keeps only what is its own (`crate::search::repetition`: a key filter
//! in front of [`repetition()`], the choice of fold, a memo per cycle and the
//! mapping of a [`verdict::Verdict`] to a score).
//!
//! # Data flow of a `judge` request
//!
//! `chuhan judge` and the daemon's `judge` command call [`judge()`] (a FEN and
//! moves, each checked) or [`judge_position`] (a [`Position`](crate::core::Position)
//! whose history is the game). One [`ClassCache`] serves the whole request.
//!
//! 1. **Status** ([`status::status_with`]): checkmate or 困斃 from `core`; else
//!    [`cycle::find`] looks for a third occurrence of the final position, counting
//!    as [`Policy::counts_capture_positions`] says; if found,
//!    [`repetition::analyse`] classifies every judged move with [`classify()`]
//!    (threat sets before and after the move from [`threat`] over [`exchange`],
//!    殺 probes from [`mate`], the policy's switches), sums each side's moves up in
//!    a [`verdict::Pattern`] (following pieces for AXF's "same piece"), and
//!    [`Policy::verdict`] rules: who must vary, at once or not, under which
//!    [`verdict::Clause`]. [`verdict::Verdict::loser`] turns that into the winner
//!    (or none while the violator may still vary). Else the sixty-move limit and
//!    dead positions.
//! 2. **The latest repetition**: if the final position is not a third occurrence,
//!    the latest earlier one is analysed the same way.
//! 3. **Every legal move** is played and, if it completes a cycle for the third
//!    time, that cycle is analysed: [`MoveRuling::of`] makes it `ban` (the mover is
//!    the violator), `draw` or `none`, with the reason.
//! 4. The typed [`Judgement`] is written by serde as one line of JSON (`--json`,
//!    the daemon's `judgeok`) or by [`Judgement::report_lines`] as text.
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
//!   (§24.17, 少根子 by count, §24.15).
//! * **§26.5** is read from the capturer's side: a capturer that is the only root
//!   of another piece, or screens one, has what it leaves behind counted; an even
//!   trade then counts as 捉, a losing one as 閒.
//! * **§26.8**: the §26.8.1 patterns are the "serious" ones (every 捉 move
//!   chasing some piece by a single piece — a move is judged by its heaviest
//!   chase, §26.4 — of a rook or an unrooted piece, or a mate threat); exactly one
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
//!   CXA only: the AXF chase "threatens to capture a piece in the next move", and
//!   a win that needs a check first is not that (settled by the differential run
//!   against Fairy-Stockfish, issue 23; the CXA 1999 diagram 3 is a draw under AXF).
//! * **AXF** (see [`Policy`] for each difference): perpetual check outranks
//!   perpetual chase; a chase is perpetual when one piece (followed as it moves) is
//!   newly chased by every move of the side, checking moves included.
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
pub mod referee;
pub mod repetition;
pub mod ruleset;
pub mod status;
pub mod threat;
pub mod verdict;

pub use classify::{ClassCache, Label, MoveClass, classify};
pub use cycle::Cycle;
pub use judge::{Judgement, judge_position, move_verdicts};
pub use policy::Policy;
pub use referee::{ParseRefereeError, Referee};
pub use repetition::{Analysis, MoveRuling, Repetition, forbidden_moves, repetition};
pub use ruleset::{ParseRuleSetError, RuleSet};
pub use status::{
    GameStatus, Status, dead_position, game_status, sixty_moves, sixty_moves_after, status_under,
    status_with,
};
