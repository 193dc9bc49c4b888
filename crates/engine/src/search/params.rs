//! Every search tunable in one place. Each value notes where it came from; a tuner
//! (or a person) moves them here without touching the search logic.
//!
//! Provenance key: *std* = the usual starting value of modern alpha-beta engines
//! (widely published, re-derived here); *ours* = chosen and checked on this engine's
//! bench positions and self-play.
//!
//! The margins in centipawns (aspiration, reverse futility, null-move surplus,
//! futility, delta) were scaled ×1.3 for the gradient-tuned evaluation, whose values
//! are larger than the ones they were first set for (self-play at 5,000 nodes:
//! +22.9 ± 16.9 Elo over 1,200 games; ×1.6 gained nothing more).

use super::score::Value;
use super::tunables::tunables;

tunables! {
    /// Half-width of the first aspiration window, in centipawns (std; our evaluation's
    /// noise between iterations is about this size).
    aspiration_delta, "AspirationDelta" = 32, 10 ..= 80, step 4;
    /// Reverse futility: maximum depth and margin per ply (std shape, ours scale: see the
    /// module note on the ×1.3).
    rfp_max_depth, "RfpMaxDepth" = 8, 4 ..= 12, step 1;
    /// Reverse futility margin per ply of depth.
    rfp_margin, "RfpMargin" = 117, 50 ..= 250, step 10;
    /// Null move: base reduction (std R = 3).
    nmp_base_reduction, "NmpBaseReduction" = 3, 2 ..= 5, step 1;
    /// Null move: one more ply of reduction per this much depth (std).
    nmp_depth_divisor, "NmpDepthDivisor" = 4, 2 ..= 8, step 1;
    /// Null move: one more ply per this much static-eval surplus over beta, up to
    /// [`NMP_EVAL_MAX`] (std shape, ours scale).
    nmp_eval_divisor, "NmpEvalDivisor" = 260, 100 ..= 500, step 20;
    /// Late move reductions: the base of `base + ln(depth) · ln(moves) / divisor`,
    /// in hundredths (std 0.75).
    lmr_base_x100, "LmrBaseX100" = 75, 20 ..= 150, step 8;
    /// Late move reductions: the divisor of that formula, in hundredths (std 2.25).
    lmr_divisor_x100, "LmrDivisorX100" = 225, 150 ..= 350, step 12;
    /// History score that shifts the reduction by one ply (std shape, ours scale).
    lmr_history_divisor, "LmrHistoryDivisor" = 8192, 2048 ..= 16384, step 600;
    /// Late move pruning: moves searched at depth `d` in non-PV nodes before the
    /// remaining quiets are skipped is `(LMP_BASE + d * d) · 3/2`, doubled while
    /// improving (std shape; ours: self-play at 20k nodes/move, 40 games each: base 2
    /// scored +89 Elo against base 5, and no late move pruning at all -168; with the
    /// net, at equal time 1 s + 0.01 s, the factor 3/2 scored +21.5 ± 18.4 and
    /// +29.0 ± 18.3 Elo in two runs of 600 and 684 games against 1, half the counts
    /// −86.9 ± 34.9).
    lmp_base, "LmpBase" = 2, 0 ..= 8, step 1;
    /// Futility base margin.
    futility_base, "FutilityBase" = 104, 30 ..= 250, step 10;
    /// Futility margin per ply of (reduced) depth.
    futility_per_depth, "FutilityPerDepth" = 130, 50 ..= 250, step 10;
    /// SEE pruning thresholds: captures must not lose more than this per ply of depth,
    /// quiets more than this times depth² (std).
    see_capture_margin, "SeeCaptureMargin" = -90, -200 ..= -20, step 8;
    /// SEE quiet threshold factor.
    see_quiet_margin, "SeeQuietMargin" = -25, -80 ..= -5, step 3;
    /// Quiescence delta pruning margin (std: about two pawns).
    qs_delta_margin, "QsDeltaMargin" = 260, 100 ..= 500, step 20;
    /// ProbCut: a capture must beat beta by this much in a search
    /// [`PROBCUT_REDUCTION`] plies shallower for the node to be cut (std shape: SF's
    /// about 170 scaled ×1.3 for our evaluation, as the other margins).
    probcut_margin, "ProbCutMargin" = 220, 100 ..= 400, step 15;
    /// Checks that do not lose material (SEE ≥ 0) are extended while
    /// `ply < CheckExtPlyFactor × root depth`; 0 extends none (ours: xiangqi
    /// positions give many checks in a row; unbounded extension explodes the tree,
    /// and extending sacrificial checks too cost 11 Elo at 10,000 nodes).
    check_ext_ply_factor, "CheckExtPlyFactor" = 2, 0 ..= 4, step 1;
    /// Singular extension: the margin below the TT value, per ply of depth (std shape;
    /// ours scale).
    se_margin_per_depth, "SeMarginPerDepth" = 2, 1 ..= 6, step 1;
    /// History bonus per depth², capped at [`history_bonus_max`] (std).
    history_bonus_scale, "HistoryBonusScale" = 16, 4 ..= 40, step 2;
    /// Cap of one history update.
    history_bonus_max, "HistoryBonusMax" = 1600, 400 ..= 3200, step 150;
    /// Correction history: the sum of a position's four entries is divided by this
    /// before it is added to the static evaluation (at most ±170).
    correction_divisor, "CorrectionDivisor" = 24, 8 ..= 64, step 3;
    /// Time: moves to go assumed for sudden death, the optimum being the clock over
    /// this plus a share of the increment (ours: a xiangqi game from a middle
    /// position lasts about this many more moves).
    time_moves_to_go, "TimeMovesToGo" = 25, 10 ..= 60, step 3;
    /// Time: this share (percent) of the Fischer increment is added to the optimum
    /// (ours: all of it; 75 kept a settled search below the increment, see `time`).
    time_increment_percent, "TimeIncrementPercent" = 100, 40 ..= 150, step 8;
    /// Time: stop iterating after an iteration if this share (percent) of the
    /// optimum is used (the next iteration would not finish).
    time_iteration_percent, "TimeIterationPercent" = 80, 30 ..= 120, step 6;
    /// Time: the optimum is stretched to this (percent) after an iteration whose best
    /// move changed (std shape).
    time_unstable_percent, "TimeUnstablePercent" = 150, 100 ..= 250, step 10;
    /// Time: and shrunk to this (percent) once the best move has held for
    /// [`TIME_STABLE_ITERATIONS`] iterations.
    time_stable_percent, "TimeStablePercent" = 70, 30 ..= 100, step 6;
}

/// Depth from which aspiration windows are used (std).
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// After a fail high or low the window's half-width grows by `1 / this` of itself,
/// i.e. ×1.5 per retry (std; first version, not tuned here).
pub const ASPIRATION_GROWTH_DIVISOR: Value = 2;

/// Correction history: the saturation bound of an entry (std).
pub const CORRECTION_MAX: i32 = 1_024;
/// Correction history: an update moves an entry by the search's miss times the
/// depth divided by this, at most a quarter of [`CORRECTION_MAX`] (std).
pub const CORRECTION_UPDATE_DIVISOR: i32 = 8;

/// ProbCut: from this depth on (std).
pub const PROBCUT_MIN_DEPTH: i32 = 5;
/// ProbCut: the verifying search is this many plies shallower than the node (std).
pub const PROBCUT_REDUCTION: i32 = 4;

/// Null move: minimum depth (std).
pub const NMP_MIN_DEPTH: i32 = 3;
/// Cap of the eval-surplus term.
pub const NMP_EVAL_MAX: i32 = 3;
/// Null move verification search from this depth on (std: cheap insurance against
/// zugzwang at high depth; shallow nodes rely on the material guard).
pub const NMP_VERIFY_DEPTH: i32 = 12;

/// Root moves are announced (`currmove`) once a search has run this long, ms (std).
pub const CURRMOVE_AFTER_MS: u64 = 3_000;

/// Internal iterative reduction: reduce by one ply without a TT move from this depth
/// (std).
pub const IIR_MIN_DEPTH: i32 = 4;

/// Late move reductions apply from this depth on (std; first version, not tuned
/// here).
pub const LMR_MIN_DEPTH: i32 = 3;

/// Depth up to which late move pruning applies (std).
pub const LMP_MAX_DEPTH: i32 = 8;

/// Futility pruning of quiet moves: depth limit, base and per-ply margin (std shape).
pub const FUTILITY_MAX_DEPTH: i32 = 8;

/// Depth up to which SEE pruning applies.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;

/// Singular extension: from this depth on (ours: at 1 s + 0.01 s, +18.3 ± 26.2 Elo
/// over 400 games against no singular extension, LOS 91.5 %).
pub const SE_MIN_DEPTH: i32 = 6;
/// Singular extension: the TT entry must be at most this many plies shallower than
/// the node (std).
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// Singular extension: only while `ply < SE_PLY_FACTOR * root_depth`, the same
/// bound on the tree's growth as checks have (ours: the check bound's default,
/// [`check_ext_ply_factor`], taken with singular extensions and not tuned apart).
pub const SE_PLY_FACTOR: usize = 2;

/// History tables saturate at this magnitude (std).
pub const HISTORY_MAX: i32 = 16_384;

/// Good captures are those whose SEE is at least this (std: not losing).
pub const GOOD_CAPTURE_SEE: Value = 0;

/// Time: the hard limit is at most this multiple of the optimum (std).
pub const TIME_MAX_FACTOR: u64 = 5;
/// Time: never plan to use more than this share (percent) of the remaining clock in
/// one move (ours; leaves room for the rest of the game).
pub const TIME_MAX_SHARE_PERCENT: u64 = 40;
/// Time: with pondering on, the optimum is scaled by this (percent; the
/// opponent's time is partly ours).
pub const TIME_PONDER_PERCENT: u64 = 125;
/// Time: default move overhead (network, GUI latency), ms.
pub const MOVE_OVERHEAD_MS: u64 = 30;
/// Nodes between clock checks (the clock is read by the main thread only).
pub const CLOCK_CHECK_NODES: u64 = 2_048;
/// Time: moves to go are taken as at most this many (a GUI's `movestogo 200`
/// would otherwise plan too little per move; first version, not tuned here).
pub const TIME_MAX_MOVES_TO_GO: u64 = 50;
/// Time: with one move to go, the cap on one move's time is this share (percent) of
/// the usable clock instead of [`TIME_MAX_SHARE_PERCENT`] (ours; first version, not
/// tuned here).
pub const TIME_LAST_MOVE_SHARE_PERCENT: u64 = 80;
/// Time: iterations without a change of best move that count as stable.
pub const TIME_STABLE_ITERATIONS: u32 = 4;
/// Time: the count of best-move changes is divided by this after each iteration,
/// so that old instability fades (std: halving).
pub const TIME_BEST_CHANGES_DECAY: u32 = 2;

/// Draw offers: accept (or offer back) a draw when the best score is at most this.
pub const DRAW_ACCEPT_SCORE: Value = -40;
/// Resign (when enabled) when the best score is at most this.
pub const RESIGN_SCORE: Value = -2_500;
/// ... and the last completed iteration is at least this deep (ours, first version:
/// a very shallow score is not trusted with the game).
pub const RESIGN_MIN_DEPTH: i32 = 4;

/// Contempt for the `style` option: the draw value for the side that started the
/// search is `-CONTEMPT` with `risky`, `+CONTEMPT` with `solid` (ours).
pub const CONTEMPT: Value = 25;

/// `go mate N` without another limit searches to `MATE_PLIES_PER_MOVE * N +
/// MATE_EXTRA_PLIES` plies (ours: a mate in N moves shows up well within that many
/// plies of iterative deepening, checks being extended), with N taken as at most
/// [`MATE_MAX_MOVES`].
pub const MATE_PLIES_PER_MOVE: i32 = 4;
/// Extra plies of a bounded `go mate N`.
pub const MATE_EXTRA_PLIES: i32 = 4;
/// Largest N of `go mate N` taken into that product (larger N run to the deepest
/// iteration anyway: 4 · 30 + 4 plies is beyond it).
pub const MATE_MAX_MOVES: u32 = 30;

/// Lazy SMP depth skipping for helper threads: helper `i` skips depth `d` when
/// `(d + SMP_SKIP_PHASE[i]) / SMP_SKIP_SIZE[i]` is odd (std: the classic pattern of
/// sizes 1, 1, 2, 2, 2, 2, 3, ... with staggered phases, so that the threads spread
/// over neighbouring depths).
pub const SMP_SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
/// Phases of [`SMP_SKIP_SIZE`].
pub const SMP_SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Idle ([`super::Settings::idle_percent`]): the largest share (percent) of time a thread
/// sleeps, whatever is asked (ours: the search must still move).
pub const IDLE_MAX_PERCENT: u32 = 90;
/// Idle: the longest single sleep, in microseconds (ours: keeps `stop` and the
/// clock checks responsive).
pub const IDLE_MAX_SLEEP_US: u128 = 50_000;

/// TT key salt: positions with at least this many plies since the last capture get
/// a 60-move-rule bucket mixed into their table key, so that scores that depend on
/// the counter are not shared with fresh positions (ours, after Pikafish's idea).
pub const RULE60_TT_START: u32 = 80;
/// Width of one 60-move-rule bucket in plies.
pub const RULE60_TT_BUCKET: u32 = 8;

/// Piece values for static exchange evaluation, by [`crate::core::PieceKind`] index
/// (Rook, Horse, Elephant, Advisor, King, Cannon, Pawn). Ours: the rule of thumb
/// rook = 2 horses = 2 cannons, advisor = elephant = 2 pawns.
pub const SEE_VALUE: [Value; 7] = [900, 420, 200, 200, 20_000, 450, 100];
