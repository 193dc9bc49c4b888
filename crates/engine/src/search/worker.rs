//! One search thread: iterative deepening with aspiration windows over a principal
//! variation search with quiescence, pruning and reductions. Lazy SMP runs several
//! workers on the same root, sharing only the transposition table and the stop flag.

use crate::core::{Color, GenType, Move, MoveList, Piece, PieceKind, Position};
use crate::eval::nnue::{Accumulators, Kernel, Network};
use crate::eval::{self, EvalConfig};
use crate::search::event::{Event, Info};
use crate::search::history::{self, CorrectionKeys, History, PieceTo};
use crate::search::limits::Limits;
use crate::search::params::*;
use crate::search::picker::{MovePicker, OrderContext};
use crate::search::repetition::{self, HistoryScore, MoveLimit, RepetitionFilter, RuleMemo};
use crate::search::score::*;
use crate::search::see;
use crate::search::settings::{Pruning, Settings};
use crate::search::time::TimeManager;
use crate::search::tt::{self, Bound, TranspositionTable};
use crossbeam_channel::Sender;
#[cfg(not(feature = "tune"))]
use std::sync::LazyLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A node counter on its own cache line.
#[repr(align(64))]
#[derive(Default)]
pub struct Counter(pub AtomicU64);

/// State shared by the threads of one search.
pub struct Shared {
    /// The transposition table.
    pub tt: std::sync::Arc<TranspositionTable>,
    /// Set to end the search (by a limit, the clock or the GUI).
    pub stop: AtomicBool,
    /// Set by the GUI's `stop` only: an infinite or ponder search that reached a
    /// limit of its own still holds its answer until this (UCI: no `bestmove`
    /// before `stop` in infinite mode).
    pub released: AtomicBool,
    /// True while pondering (before `ponderhit`).
    pub pondering: AtomicBool,
    /// The opponent offers a draw (`go draw` or `ponderhit draw`).
    pub draw_offered: AtomicBool,
    /// The clock.
    pub time: TimeManager,
    /// The limits of this search.
    pub limits: Limits,
    /// Settings of this search.
    pub settings: Settings,
    /// The evaluation's configuration (from the settings and the game's seed).
    pub eval: EvalConfig,
    /// The net that evaluates, or `None` for the hand-written evaluation.
    pub net: Option<std::sync::Arc<Network>>,
    /// Nodes per thread, published every few thousand nodes.
    pub nodes: Vec<Counter>,
}

impl Shared {
    /// Nodes of all threads as last published.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|c| c.0.load(Ordering::Relaxed)).sum()
    }
}

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score in the current iteration (`-INFINITE` if not searched to a value).
    pub score: Value,
    /// Score of the previous iteration.
    pub prev_score: Value,
    /// True if `score` is only a bound (a fail high or low of the root window).
    pub bound: Option<Bound>,
    /// Deepest ply reached under this move.
    pub seldepth: usize,
    /// Its principal variation (starting with `mv`).
    pub pv: Vec<Move>,
}

impl RootMove {
    /// A root move not searched yet.
    pub fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITE,
            prev_score: -INFINITE,
            bound: None,
            seldepth: 0,
            pv: vec![mv],
        }
    }

    /// The score to report: this iteration's, or the previous one if not searched.
    pub fn best_score(&self) -> Value {
        if self.score == -INFINITE {
            self.prev_score
        } else {
            self.score
        }
    }
}

#[derive(Clone)]
struct Frame {
    static_eval: Value,
    killers: [Move; 2],
    moved: Option<PieceTo>,
    /// The move a singular-extension search leaves out at this ply.
    excluded: Move,
    pv: [Move; MAX_PLY + 1],
    pv_len: usize,
}

impl Default for Frame {
    fn default() -> Frame {
        Frame {
            static_eval: NO_EVAL,
            killers: [Move::NONE; 2],
            moved: None,
            excluded: Move::NONE,
            pv: [Move::NONE; MAX_PLY + 1],
            pv_len: 0,
        }
    }
}

const NO_EVAL: Value = -INFINITE;

/// The late move reduction of move `m` (1-based) at depth `d`, before history:
/// `base + ln(d) · ln(m) / divisor`.
fn lmr_formula(d: usize, m: usize) -> i32 {
    let base = f64::from(lmr_base_x100()) / 100.0;
    let divisor = f64::from(lmr_divisor_x100()) / 100.0;
    (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32
}

/// [`lmr_formula`] for depths and move counts up to 63, computed once (the
/// parameters are constants unless built to be tuned).
#[cfg(not(feature = "tune"))]
static LMR: LazyLock<[[i32; 64]; 64]> = LazyLock::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = lmr_formula(d, m);
        }
    }
    t
});

/// What a capture can gain in the evaluation's own units, for delta pruning: the
/// larger of the victim's middlegame and endgame material value (the SEE values
/// are on a smaller scale, which would prune captures that do raise alpha).
const DELTA_VALUE: [Value; 7] = eval::params::DEFAULT.max_material();

#[inline(always)]
fn reduction(depth: i32, move_count: usize) -> i32 {
    let (d, m) = ((depth as usize).min(63), move_count.min(63));
    #[cfg(not(feature = "tune"))]
    return LMR[d][m];
    #[cfg(feature = "tune")]
    return if d == 0 || m == 0 {
        0
    } else {
        lmr_formula(d, m)
    };
}

/// One search thread.
pub struct Worker<'a> {
    id: usize,
    sh: &'a Shared,
    pos: Position,
    filter: RepetitionFilter,
    /// Verdicts and move classifications of the repetition rules met in this search.
    referee: RuleMemo,
    hist: &'a mut History,
    stack: Vec<Frame>,
    /// The net's accumulators along the current line (with a net).
    nnue: Option<Accumulators>,
    /// Root moves, best first after each iteration.
    pub root_moves: Vec<RootMove>,
    /// At a weakened level ([`crate::search::skill`]): the principal variations of
    /// the last completed iteration, best first.
    pub lines: Vec<RootMove>,
    nodes: u64,
    seldepth: usize,
    root_depth: i32,
    pv_idx: usize,
    /// Depth of the last fully searched iteration.
    pub completed_depth: i32,
    /// Best move, score and line of the last completed iteration.
    pub best: Option<RootMove>,
    root_side: Color,
    /// When a position is drawn for want of a capture, in this search.
    move_limit: MoveLimit,
    events: Option<&'a Sender<Event>>,
    null_allowed: bool,
    best_changes: u32,
    idle_mark: Instant,
}

impl<'a> Worker<'a> {
    /// A worker for the root `pos` with the given root moves; `events` is set only
    /// for the main thread, which also keeps the clock.
    pub fn new(
        id: usize,
        sh: &'a Shared,
        pos: Position,
        root_moves: Vec<RootMove>,
        hist: &'a mut History,
        events: Option<&'a Sender<Event>>,
    ) -> Worker<'a> {
        let mut filter = RepetitionFilter::new();
        filter.init(&pos);
        let root_side = pos.side_to_move();
        let nnue = sh.net.as_ref().map(|net| {
            let mut acc = Accumulators::new(
                std::sync::Arc::clone(net),
                Kernel::for_net(net),
                MAX_PLY + 4,
            );
            acc.reset(&pos);
            acc
        });
        let mut w = Worker {
            id,
            sh,
            pos,
            filter,
            referee: RuleMemo::new(),
            hist,
            stack: vec![Frame::default(); MAX_PLY + 4],
            nnue,
            root_moves,
            lines: Vec::new(),
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            pv_idx: 0,
            completed_depth: 0,
            best: None,
            root_side,
            move_limit: MoveLimit::Counted(sh.settings.sixty_move_plies),
            events,
            null_allowed: true,
            best_changes: 0,
            idle_mark: Instant::now(),
        };
        // The side the search plays for takes the move limit that is worse for it
        // (see `MoveLimit::for_search`); whether it stands better is the root's
        // static evaluation, which only matters in quiet positions far from the
        // last capture.
        let ahead = !w.pos.in_check() && w.evaluate() > DRAW;
        w.move_limit =
            MoveLimit::for_search(sh.settings.sixty_move_plies, sh.settings.referee, ahead);
        w
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// True once the search must end. The main thread always finishes depth 1 (a
    /// fraction of a millisecond) so that it has a searched move to play.
    fn stopped(&self) -> bool {
        self.sh.stop.load(Ordering::Relaxed) && (self.root_depth > 1 || !self.is_main())
    }

    /// Counts a node and, every few thousand nodes, publishes the count, checks
    /// the limits (main thread) and idles if asked to.
    #[inline(always)]
    fn tick(&mut self) {
        self.nodes += 1;
        if let Some(limit) = self.sh.limits.nodes
            && self.is_main()
        {
            let others: u64 = self.sh.total_nodes() - self.sh.nodes[0].0.load(Ordering::Relaxed);
            if self.nodes + others >= limit {
                self.sh.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.nodes.is_multiple_of(CLOCK_CHECK_NODES) {
            self.sh.nodes[self.id]
                .0
                .store(self.nodes, Ordering::Relaxed);
            if self.is_main()
                && !self.sh.pondering.load(Ordering::Relaxed)
                && self.sh.time.out_of_time()
            {
                self.sh.stop.store(true, Ordering::Relaxed);
            }
            let idle = self.sh.settings.idle_percent.min(IDLE_MAX_PERCENT) as u128;
            if idle > 0 {
                let busy = self.idle_mark.elapsed().as_micros();
                std::thread::sleep(Duration::from_micros(
                    (busy * idle / (100 - idle)).min(IDLE_MAX_SLEEP_US) as u64,
                ));
                self.idle_mark = Instant::now();
            }
        }
    }

    fn draw_value(&self) -> Value {
        if self.pos.side_to_move() == self.root_side {
            self.sh.settings.draw_value
        } else {
            -self.sh.settings.draw_value
        }
    }

    fn evaluate(&self) -> Value {
        let v = match &self.nnue {
            Some(acc) => acc.evaluate(&self.pos) + eval::noise(self.pos.key(), &self.sh.eval),
            None => eval::evaluate(&self.pos, &self.sh.eval),
        };
        v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The static evaluation `raw` with this thread's correction history applied.
    #[inline]
    fn corrected(&self, raw: Value, keys: CorrectionKeys) -> Value {
        (raw + self.hist.correction(self.pos.side_to_move(), keys)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// What the repetition verdict at this node means for the search: `Err(value)`
    /// ends the node with `value`; `Ok(floor)` goes on, with `alpha` raised to the
    /// floor when the opponent completed a two-fold as the violator (`-INFINITE`
    /// when nothing repeats).
    fn repetition_floor(
        &mut self,
        ply: usize,
        alpha: &mut Value,
        beta: Value,
    ) -> Result<Value, Value> {
        match self.judge_history(ply) {
            None => Ok(-INFINITE),
            Some(HistoryScore::Draw) => Err(self.draw_value()),
            Some(HistoryScore::Mated) => Err(mated_in(ply)),
            Some(HistoryScore::RuleWin) => Err(rule_win_in(ply)),
            Some(HistoryScore::RuleLoss) => Err(rule_loss_in(ply)),
            Some(HistoryScore::AtLeastDraw) => {
                let floor = self.draw_value() - 1;
                *alpha = (*alpha).max(floor);
                if *alpha >= beta {
                    Err(*alpha)
                } else {
                    Ok(floor)
                }
            }
        }
    }

    /// The history rules' verdict at this node (see [`repetition::judge`]).
    fn judge_history(&mut self, ply: usize) -> Option<HistoryScore> {
        repetition::judge(
            &self.pos,
            &self.filter,
            ply,
            self.sh.settings.rules,
            self.sh.settings.referee,
            self.move_limit,
            &mut self.referee,
        )
    }

    fn tt_key(&self) -> u64 {
        tt::table_key(&self.pos, self.filter.maybe_repeated(self.pos.key()))
    }

    #[inline(always)]
    fn make(&mut self, m: Move, piece: Piece, ply: usize) {
        self.stack[ply].moved = Some(PieceTo { piece, to: m.to() });
        let captured = self.pos.piece_at(m.to());
        self.pos.make_move(m);
        self.filter.push(self.pos.key());
        // The child's table line (by its salted key, as the child will probe it) is
        // fetched while the accumulator is updated.
        self.sh.tt.prefetch(self.tt_key());
        if let Some(acc) = &mut self.nnue {
            acc.push(&self.pos, m, piece, captured);
        }
    }

    #[inline(always)]
    fn unmake(&mut self) {
        self.filter.pop(self.pos.key());
        self.pos.unmake_move();
        if let Some(acc) = &mut self.nnue {
            acc.pop();
        }
    }

    fn conts(&self, ply: usize) -> [Option<PieceTo>; 2] {
        [
            if ply >= 1 {
                self.stack[ply - 1].moved
            } else {
                None
            },
            if ply >= 2 {
                self.stack[ply - 2].moved
            } else {
                None
            },
        ]
    }

    fn has_major(&self, c: Color) -> bool {
        (self.pos.pieces(c, PieceKind::Rook)
            | self.pos.pieces(c, PieceKind::Horse)
            | self.pos.pieces(c, PieceKind::Cannon))
        .any()
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.stack.split_at_mut(ply + 1);
        let child = &tail[0];
        let f = &mut head[ply];
        f.pv[0] = m;
        let n = child.pv_len.min(MAX_PLY);
        f.pv[1..=n].copy_from_slice(&child.pv[..n]);
        f.pv_len = n + 1;
    }

    /// Iterative deepening over the root moves until a limit or `stop`.
    pub fn iterate(&mut self) {
        // `go mate N` alone is bounded too (see MATE_PLIES_PER_MOVE).
        let mate_depth = self
            .sh
            .limits
            .mate
            .map(|m| MATE_PLIES_PER_MOVE * m.min(MATE_MAX_MOVES) as i32 + MATE_EXTRA_PLIES);
        let max_depth = match (self.sh.limits.depth, mate_depth) {
            (Some(d), _) => d,
            (None, Some(m)) if !self.sh.limits.infinite && !self.sh.limits.uses_time() => m,
            _ => MAX_PLY as i32 - 8,
        }
        .clamp(1, MAX_PLY as i32 - 8)
        .min(self.sh.settings.skill.map_or(i32::MAX, |s| s.depth()));
        let multipv = self.sh.settings.lines().clamp(1, self.root_moves.len());
        let mut last_best = Move::NONE;
        let mut stable_iterations = 0u32;
        for depth in 1..=max_depth {
            // Helpers skip some iterations so that the threads spread over
            // neighbouring depths instead of repeating each other's work.
            if self.id > 0 && depth > 1 && depth < max_depth {
                let i = (self.id - 1) % SMP_SKIP_SIZE.len();
                if ((depth + SMP_SKIP_PHASE[i]) / SMP_SKIP_SIZE[i]) % 2 == 1 {
                    continue;
                }
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
                rm.score = -INFINITE;
                rm.bound = None;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = aspiration_delta();
                let (mut alpha, mut beta) =
                    if depth >= ASPIRATION_MIN_DEPTH && prev > -INFINITE && !is_decided(prev) {
                        ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                    } else {
                        (-INFINITE, INFINITE)
                    };
                loop {
                    let v = self.search(alpha, beta, depth, 0, false);
                    self.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
                    if self.stopped() {
                        break;
                    }
                    if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-INFINITE);
                        self.root_moves[pv_idx].bound = Some(Bound::Upper);
                    } else if v >= beta {
                        beta = (v + delta).min(INFINITE);
                        self.root_moves[pv_idx].bound = Some(Bound::Lower);
                    } else {
                        self.root_moves[pv_idx].bound = None;
                        break;
                    }
                    delta += delta / ASPIRATION_GROWTH_DIVISOR;
                }
                self.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            if self.stopped() {
                break;
            }
            self.completed_depth = depth;
            self.best = Some(self.root_moves[0].clone());
            if self.sh.settings.skill.is_some() {
                self.lines = self.root_moves[..multipv].to_vec();
            }
            self.sh.nodes[self.id]
                .0
                .store(self.nodes, Ordering::Relaxed);
            if !self.is_main() {
                // A helper that finished the depth asked for answers the search:
                // the main thread need not finish that iteration too.
                if self.sh.limits.depth == Some(depth)
                    && !self.sh.limits.infinite
                    && !self.sh.pondering.load(Ordering::Relaxed)
                {
                    self.sh.stop.store(true, Ordering::Relaxed);
                }
                continue;
            }
            self.report(multipv);
            let best = &self.root_moves[0];
            if best.mv == last_best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
                last_best = best.mv;
            }
            if let Some(m) = self.sh.limits.mate
                && 2 * m as usize <= MAX_PLY
                && best.score >= mate_in(2 * m as usize)
            {
                break;
            }
            if self.sh.limits.movetime.is_some() {
                // UCI: `go movetime N` searches that long unless a mate is proven (the
                // time manager never stops iterating early for it).
                if proven_mate(best.score, best.bound, self.completed_depth) {
                    break;
                }
            } else if self.sh.limits.uses_time() && !self.sh.pondering.load(Ordering::Relaxed) {
                if self.root_moves.len() == 1 {
                    break;
                }
                let scale = if self.best_changes > 0 {
                    time_unstable_percent() as u64
                } else if stable_iterations >= TIME_STABLE_ITERATIONS {
                    time_stable_percent() as u64
                } else {
                    100
                };
                self.best_changes /= TIME_BEST_CHANGES_DECAY;
                if self.sh.time.stop_iterating(scale) {
                    break;
                }
            }
        }
        self.sh.nodes[self.id]
            .0
            .store(self.nodes, Ordering::Relaxed);
    }

    /// Sends the info lines of the last iteration (main thread).
    fn report(&self, multipv: usize) {
        let Some(tx) = self.events else { return };
        let time_ms = self.sh.time.elapsed_ms();
        let nodes = self.sh.total_nodes().max(self.nodes);
        let hashfull = self.sh.tt.hashfull();
        for (i, rm) in self.root_moves.iter().take(multipv).enumerate() {
            let value = rm.best_score();
            let _ = tx.send(Event::Info(Info {
                depth: self.completed_depth,
                seldepth: rm.seldepth.max(1),
                multipv: i + 1,
                value,
                bound: rm.bound,
                nodes,
                nps: nodes * 1000 / time_ms.max(1),
                time_ms,
                hashfull,
                pv: rm.pv.clone(),
            }));
        }
    }

    fn search(
        &mut self,
        mut alpha: Value,
        mut beta: Value,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Value {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, pv_node, true);
        }
        self.stack[ply].pv_len = 0;
        self.tick();
        if self.stopped() && !root {
            return DRAW;
        }
        if ply + 1 > self.seldepth {
            self.seldepth = ply + 1;
        }
        let in_check = self.pos.in_check();
        // A two-fold the opponent completed as the violator: at least a draw here.
        let mut floor = -INFINITE;
        if !root {
            match self.repetition_floor(ply, &mut alpha, beta) {
                Ok(f) => floor = f,
                Err(value) => return value,
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { DRAW } else { self.evaluate() };
            }
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Set while this node is searched again without its TT move (singular
        // extension): no cut-offs or pruning from the table or the static
        // evaluation, and nothing stored, since the node is not the real one.
        let excluded = self.stack[ply].excluded;
        let key = self.tt_key();
        let tte = self.sh.tt.probe(key);
        let tt_move = if root {
            self.root_moves[self.pv_idx].mv
        } else {
            tte.map_or(Move::NONE, |e| e.mv)
        };
        if !pv_node
            && excluded == Move::NONE
            && let Some(e) = tte
            && e.depth >= depth
            && !is_rule(e.value)
        {
            let v = from_tt(e.value, ply);
            if (e.bound.is_lower() && v >= beta) || (e.bound.is_upper() && v <= alpha) {
                return v.max(floor);
            }
        }

        let pruning = self.sh.settings.pruning;
        let us = self.pos.side_to_move();
        let raw_eval;
        let static_eval;
        let eval;
        // The correction slots, only where there is a static evaluation to correct.
        let corr_keys = (!in_check).then(|| CorrectionKeys::of(&self.pos));
        if let Some(keys) = corr_keys {
            raw_eval = match tte {
                Some(e) => e.eval,
                None => self.evaluate(),
            };
            static_eval = self.corrected(raw_eval, keys);
            eval = match tte {
                Some(e) if !is_rule(e.value) => {
                    let v = from_tt(e.value, ply);
                    if (e.bound.is_lower() && v > static_eval)
                        || (e.bound.is_upper() && v < static_eval)
                    {
                        v
                    } else {
                        static_eval
                    }
                }
                _ => static_eval,
            };
        } else {
            raw_eval = NO_EVAL;
            static_eval = NO_EVAL;
            eval = NO_EVAL;
        }
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != NO_EVAL
            && static_eval > self.stack[ply - 2].static_eval;
        self.stack[ply + 2].killers = [Move::NONE; 2];

        if !in_check
            && !pv_node
            && excluded == Move::NONE
            && pruning != Pruning::None
            && !is_decided(beta)
        {
            // Reverse futility: far above beta at low depth.
            if depth <= rfp_max_depth()
                && eval - rfp_margin() * (depth - improving as i32) >= beta
                && eval < MATE_BOUND
            {
                return eval;
            }
            // Null move, only with a rook, horse or cannon (zugzwang guard).
            if pruning == Pruning::Full
                && self.null_allowed
                && eval >= beta
                && depth >= NMP_MIN_DEPTH
                && ply >= 1
                && self.stack[ply - 1].moved.is_some()
                && self.has_major(us)
            {
                let r = nmp_base_reduction()
                    + depth / nmp_depth_divisor()
                    + ((eval - beta) / nmp_eval_divisor()).min(NMP_EVAL_MAX);
                self.stack[ply].moved = None;
                self.pos.make_null();
                self.filter.push(self.pos.key());
                let v = -self.search(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.filter.pop(self.pos.key());
                self.pos.unmake_null();
                if self.stopped() {
                    return DRAW;
                }
                if v >= beta {
                    let v = if v >= MATE_BOUND { beta } else { v };
                    if depth < NMP_VERIFY_DEPTH {
                        return v;
                    }
                    self.null_allowed = false;
                    let w = self.search(beta - 1, beta, depth - r, ply, false);
                    self.null_allowed = true;
                    if w >= beta {
                        return v;
                    }
                }
            }
        }

        // ProbCut: a good capture whose reduced search beats beta by a margin makes
        // this node's full search very likely to fail high too. Skipped when the
        // table already knows, deep enough, that the margin is not reached.
        let probcut_beta = beta + probcut_margin();
        if !in_check
            && !pv_node
            && excluded == Move::NONE
            && pruning == Pruning::Full
            && depth >= PROBCUT_MIN_DEPTH
            && !is_decided(beta)
            && probcut_beta < MATE_BOUND
            && !tte.is_some_and(|e| {
                e.depth > depth - PROBCUT_REDUCTION
                    && !is_rule(e.value)
                    && from_tt(e.value, ply) < probcut_beta
            })
        {
            let conts = self.conts(ply);
            let mut picker = MovePicker::new_qsearch(&self.pos, tt_move);
            while let Some(m) = picker.next(
                &self.pos,
                &OrderContext {
                    history: self.hist,
                    conts,
                },
            ) {
                if !see::see_ge(&self.pos, m, probcut_beta - static_eval) {
                    continue;
                }
                let piece = self.pos.piece_at(m.from()).expect("a piece moves");
                self.make(m, piece, ply);
                let mut v = -self.qsearch(-probcut_beta, -probcut_beta + 1, ply + 1, false, true);
                if v >= probcut_beta {
                    v = -self.search(
                        -probcut_beta,
                        -probcut_beta + 1,
                        depth - PROBCUT_REDUCTION,
                        ply + 1,
                        !cut_node,
                    );
                }
                self.unmake();
                if self.stopped() {
                    return DRAW;
                }
                if v >= probcut_beta && !is_decided(v) {
                    self.sh.tt.store(
                        key,
                        m,
                        to_tt(v, ply),
                        raw_eval,
                        depth - PROBCUT_REDUCTION + 1,
                        Bound::Lower,
                    );
                    return (v - (probcut_beta - beta)).max(floor);
                }
            }
        }

        let mut depth = depth;
        if !root && tt_move == Move::NONE && depth >= IIR_MIN_DEPTH && (pv_node || cut_node) {
            depth -= 1;
        }

        let conts = self.conts(ply);
        let counter = conts[0].map_or(Move::NONE, |p| self.hist.counter(p));
        let killers = self.stack[ply].killers;
        let mut picker = MovePicker::new(&self.pos, tt_move, killers, counter);
        let mut best_value = -INFINITE;
        let mut best_move = Move::NONE;
        let mut move_count = 0usize;
        let mut quiets = [Move::NONE; 64];
        let mut n_quiets = 0;
        let mut captures = [Move::NONE; 32];
        let mut n_captures = 0;

        while let Some(m) = picker.next(
            &self.pos,
            &OrderContext {
                history: self.hist,
                conts,
            },
        ) {
            if (root && !self.root_moves[self.pv_idx..].iter().any(|r| r.mv == m)) || m == excluded
            {
                continue;
            }
            move_count += 1;
            let piece = self.pos.piece_at(m.from()).expect("a piece moves");
            let capture = self.pos.piece_at(m.to()).is_some();
            let gives_check = self.pos.gives_check(m);
            if root
                && self.is_main()
                && let Some(tx) = self.events
                && self.sh.time.elapsed_ms() > CURRMOVE_AFTER_MS
            {
                let _ = tx.send(Event::CurrMove {
                    depth,
                    mv: m,
                    number: move_count + self.pv_idx,
                });
            }
            let hist_score = if capture {
                0
            } else {
                let now = PieceTo { piece, to: m.to() };
                self.hist.main(us, m)
                    + conts
                        .iter()
                        .flatten()
                        .map(|p| self.hist.cont(*p, now))
                        .sum::<i32>()
            };

            // No move pruning while a mate is at stake: quiet moves that leave the
            // opponent without a move (困斃) win in xiangqi.
            if !root
                && !pv_node
                && pruning != Pruning::None
                && best_value > -MATE_BOUND
                && alpha.abs() < MATE_BOUND
            {
                if !capture && !gives_check {
                    if depth <= LMP_MAX_DEPTH
                        && move_count as i32
                            >= (lmp_base() + depth * depth) * (if improving { 6 } else { 3 }) / 2
                    {
                        picker.skip_quiets();
                        continue;
                    }
                    let lmr_depth = (depth - 1 - reduction(depth, move_count)).max(0);
                    if !in_check
                        && lmr_depth <= FUTILITY_MAX_DEPTH
                        && eval + futility_base() + futility_per_depth() * lmr_depth <= alpha
                    {
                        continue;
                    }
                    if lmr_depth <= SEE_PRUNE_MAX_DEPTH
                        && !see::see_ge(&self.pos, m, see_quiet_margin() * lmr_depth * lmr_depth)
                    {
                        continue;
                    }
                } else if capture
                    // Captures that give check are never pruned by SEE: a rook given
                    // for an advisor with check is how many xiangqi mates begin, and
                    // the exchange SEE counts never happens when the check is mate.
                    && !gives_check
                    && depth <= SEE_PRUNE_MAX_DEPTH
                    && !see::see_ge(&self.pos, m, see_capture_margin() * depth)
                {
                    continue;
                }
            }

            // Checks are extended unless the checking move loses material.
            let mut extension = (gives_check
                && ply < check_ext_ply_factor() as usize * self.root_depth as usize
                && see::see_ge(&self.pos, m, 0)) as i32;
            // Singular extension: a TT move whose stored lower bound no other move
            // comes near (a reduced search without it fails low below that bound
            // minus a margin) is extended. If another move also reaches the margin
            // and that margin is at least beta, two moves beat beta: cut (multi-cut).
            // If only the table says beta is beaten, the TT move is less certain
            // to be the only good one and is searched a ply shallower.
            if !root
                && m == tt_move
                && excluded == Move::NONE
                && pruning == Pruning::Full
                && depth >= SE_MIN_DEPTH
                && ply < SE_PLY_FACTOR * self.root_depth as usize
                && let Some(e) = tte
                && e.depth >= depth - SE_TT_DEPTH_MARGIN
                && e.bound.is_lower()
                && !is_rule(e.value)
                && from_tt(e.value, ply).abs() < MATE_BOUND
            {
                let tt_value = from_tt(e.value, ply);
                let singular_beta = tt_value - se_margin_per_depth() * depth;
                self.stack[ply].excluded = m;
                let v = self.search(
                    singular_beta - 1,
                    singular_beta,
                    (depth - 1) / 2,
                    ply,
                    cut_node,
                );
                self.stack[ply].excluded = Move::NONE;
                if self.stopped() {
                    return DRAW;
                }
                if v < singular_beta {
                    extension = 1;
                } else if singular_beta >= beta {
                    return singular_beta;
                } else if tt_value >= beta {
                    extension = -1;
                }
            }
            let new_depth = depth - 1 + extension;
            let reduce = depth >= LMR_MIN_DEPTH
                && move_count > 1 + pv_node as usize
                && pruning != Pruning::None
                && (!capture || !see::see_ge(&self.pos, m, 0));
            self.make(m, piece, ply);
            let mut value = -INFINITE;
            if reduce {
                let mut r = reduction(depth, move_count);
                if cut_node {
                    r += 1;
                }
                if improving {
                    r -= 1;
                }
                if m == killers[0] || m == killers[1] || m == counter {
                    r -= 1;
                }
                if gives_check {
                    r -= 1;
                }
                r -= hist_score / lmr_history_divisor();
                let d = (new_depth - r).clamp(1, new_depth.max(1));
                value = -self.search(-alpha - 1, -alpha, d, ply + 1, true);
                if value > alpha && d < new_depth {
                    value = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
            } else if !pv_node || move_count > 1 {
                value = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            }
            if pv_node && (move_count == 1 || value > alpha) {
                value = -self.search(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.unmake();
            if self.stopped() {
                return DRAW;
            }

            if root {
                let pv_len = self.stack[1].pv_len;
                let child_pv: Vec<Move> = self.stack[1].pv[..pv_len].to_vec();
                let seldepth = self.seldepth;
                let main = self.is_main();
                let idx = self
                    .root_moves
                    .iter()
                    .position(|r| r.mv == m)
                    .expect("root move listed");
                let rm = &mut self.root_moves[idx];
                if move_count == 1 || value > alpha {
                    rm.score = value;
                    rm.bound = if value >= beta {
                        Some(Bound::Lower)
                    } else if value <= alpha {
                        Some(Bound::Upper)
                    } else {
                        None
                    };
                    rm.seldepth = seldepth;
                    rm.pv.clear();
                    rm.pv.push(m);
                    rm.pv.extend_from_slice(&child_pv);
                    if move_count > 1 && main {
                        self.best_changes += 1;
                    }
                } else {
                    rm.score = -INFINITE;
                }
            }

            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = m;
                    if pv_node && !root {
                        self.update_pv(ply, m);
                    }
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                }
            }
            if m != best_move {
                if capture {
                    if n_captures < captures.len() {
                        captures[n_captures] = m;
                        n_captures += 1;
                    }
                } else if n_quiets < quiets.len() {
                    quiets[n_quiets] = m;
                    n_quiets += 1;
                }
            }
        }

        if move_count == 0 {
            // Checkmate, and in xiangqi stalemate too, loses.
            return mated_in(ply);
        }
        best_value = best_value.max(floor);

        if best_move.is_some() && best_value >= beta {
            self.update_histories(
                best_move,
                depth,
                ply,
                &quiets[..n_quiets],
                &captures[..n_captures],
            );
        }

        if !(root && self.pv_idx > 0) && excluded == Move::NONE {
            let bound = node_bound(best_value, beta, pv_node, best_move.is_some());
            // Correction history learns from results without a capturing best move
            // whose bound says on which side of the static evaluation the truth lies:
            // an exact value, a fail high above it or a fail low below it.
            let quiet_best = best_move == Move::NONE || self.pos.piece_at(best_move.to()).is_none();
            let informative = match bound {
                Bound::Exact => true,
                Bound::Lower => best_value > static_eval,
                Bound::Upper => best_value < static_eval,
            };
            if let Some(keys) = corr_keys
                && quiet_best
                && informative
                && best_value.abs() < MATE_BOUND
                && !is_rule(best_value)
            {
                self.hist
                    .update_correction(us, keys, best_value - static_eval, depth);
            }
            self.sh.tt.store(
                key,
                best_move,
                to_tt(best_value, ply),
                if in_check { 0 } else { raw_eval },
                depth,
                bound,
            );
        }
        best_value
    }

    fn update_histories(
        &mut self,
        best: Move,
        depth: i32,
        ply: usize,
        quiets: &[Move],
        captures: &[Move],
    ) {
        let us = self.pos.side_to_move();
        let b = history::bonus(depth);
        let conts = self.conts(ply);
        let piece_to = |pos: &Position, m: Move| {
            pos.piece_at(m.from())
                .map(|piece| PieceTo { piece, to: m.to() })
        };
        if let Some(victim) = self.pos.piece_at(best.to()) {
            if let Some(p) = self.pos.piece_at(best.from()) {
                self.hist.update_capture(p, best.to(), victim.kind, b);
            }
        } else {
            let f = &mut self.stack[ply];
            if f.killers[0] != best {
                f.killers[1] = f.killers[0];
                f.killers[0] = best;
            }
            if let Some(prev) = conts[0] {
                self.hist.set_counter(prev, best);
            }
            self.hist.update_main(us, best, b);
            if let Some(now) = piece_to(&self.pos, best) {
                for prev in conts.iter().flatten() {
                    self.hist.update_cont(*prev, now, b);
                }
            }
            for &q in quiets {
                self.hist.update_main(us, q, -b);
                if let Some(now) = piece_to(&self.pos, q) {
                    for prev in conts.iter().flatten() {
                        self.hist.update_cont(*prev, now, -b);
                    }
                }
            }
        }
        for &c in captures {
            if let (Some(p), Some(v)) = (self.pos.piece_at(c.from()), self.pos.piece_at(c.to())) {
                self.hist.update_capture(p, c.to(), v.kind, -b);
            }
        }
    }

    /// The quiescence search: captures (all evasions in check), and with `checks`
    /// (its first ply, called from the main search) also quiet moves that give
    /// check and do not lose material.
    fn qsearch(
        &mut self,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        pv_node: bool,
        checks: bool,
    ) -> Value {
        self.stack[ply].pv_len = 0;
        self.tick();
        if self.stopped() {
            return DRAW;
        }
        if ply + 1 > self.seldepth {
            self.seldepth = ply + 1;
        }
        let in_check = self.pos.in_check();
        // Quiet checks and their evasions can repeat a position inside the
        // quiescence search: the position after an evasion may be the third
        // occurrence of a cycle whose violator is to move (lost for it under a
        // strict referee). Captures cannot repeat, and the filter makes this one
        // table load almost everywhere.
        let floor = match self.repetition_floor(ply, &mut alpha, beta) {
            Ok(f) => f,
            Err(value) => return value,
        };
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.evaluate() };
        }
        let key = self.tt_key();
        let tte = self.sh.tt.probe(key);
        if !pv_node
            && let Some(e) = tte
            && !is_rule(e.value)
        {
            let v = from_tt(e.value, ply);
            if (e.bound.is_lower() && v >= beta) || (e.bound.is_upper() && v <= alpha) {
                return v.max(floor);
            }
        }
        let tt_move = tte.map_or(Move::NONE, |e| e.mv);
        let mut best_value;
        let raw_eval;
        if in_check {
            best_value = -INFINITE;
            raw_eval = 0;
        } else {
            raw_eval = match tte {
                Some(e) => e.eval,
                None => self.evaluate(),
            };
            best_value = self.corrected(raw_eval, CorrectionKeys::of(&self.pos));
            if best_value >= beta {
                if tte.is_none() {
                    self.sh.tt.store(
                        key,
                        Move::NONE,
                        to_tt(best_value, ply),
                        raw_eval,
                        -1,
                        Bound::Lower,
                    );
                }
                return best_value;
            }
            alpha = alpha.max(best_value);
        }
        let mut picker = MovePicker::new_qsearch(&self.pos, tt_move);
        let mut best_move = Move::NONE;
        let mut move_count = 0;
        let conts = self.conts(ply);
        let mut quiets: Option<MoveList> = None;
        let mut next_quiet = 0;
        loop {
            let m = if let Some(m) = picker.next(
                &self.pos,
                &OrderContext {
                    history: self.hist,
                    conts,
                },
            ) {
                m
            } else if checks && !in_check {
                // The captures are done: quiet checks.
                let pos = &self.pos;
                let list = quiets.get_or_insert_with(|| pos.generate(GenType::Quiets));
                let found = list[next_quiet..].iter().position(|&q| pos.gives_check(q));
                match found {
                    Some(i) => {
                        next_quiet += i + 1;
                        list[next_quiet - 1]
                    }
                    None => break,
                }
            } else {
                break;
            };
            move_count += 1;
            let piece = self.pos.piece_at(m.from()).expect("a piece moves");
            if !in_check {
                let gain = self
                    .pos
                    .piece_at(m.to())
                    .map_or(0, |v| DELTA_VALUE[v.kind.index()]);
                if best_value + gain + qs_delta_margin() <= alpha && !self.pos.gives_check(m) {
                    continue;
                }
                if !see::see_ge(&self.pos, m, 0) {
                    continue;
                }
            }
            self.make(m, piece, ply);
            let v = -self.qsearch(-beta, -alpha, ply + 1, pv_node, false);
            self.unmake();
            if self.stopped() {
                return DRAW;
            }
            if v > best_value {
                best_value = v;
                if v > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        if in_check && move_count == 0 {
            return mated_in(ply);
        }
        best_value = best_value.max(floor);
        let bound = node_bound(best_value, beta, pv_node, best_move.is_some());
        self.sh
            .tt
            .store(key, best_move, to_tt(best_value, ply), raw_eval, -1, bound);
        best_value
    }
}

/// True if an iteration finished to `depth` proves the mate its exact `score`
/// claims (for either side): the mate lies within the plies searched.
///
/// ```
/// use chuhan_engine::search::score::{mate_in, mated_in};
/// use chuhan_engine::search::tt::Bound;
/// use chuhan_engine::search::worker::proven_mate;
/// assert!(proven_mate(mate_in(3), None, 3));
/// assert!(proven_mate(mated_in(4), None, 5));
/// assert!(!proven_mate(mate_in(5), None, 4));
/// assert!(!proven_mate(mate_in(1), Some(Bound::Lower), 9));
/// assert!(!proven_mate(120, None, 30));
/// ```
pub fn proven_mate(score: Value, bound: Option<Bound>, depth: i32) -> bool {
    bound.is_none() && Score::mate_plies(score).is_some_and(|p| depth >= p.abs())
}

/// The TT bound of a finished node: a fail high is a lower bound, a PV node that
/// raised alpha with a move is exact, anything else an upper bound.
fn node_bound(best_value: Value, beta: Value, pv_node: bool, has_move: bool) -> Bound {
    if best_value >= beta {
        Bound::Lower
    } else if pv_node && has_move {
        Bound::Exact
    } else {
        Bound::Upper
    }
}
