//! Texel tuning of the evaluation weights ([`chuhan_engine::eval::params::EvalParams`]) on
//! positions from game records labelled with the games' results (`chuhan tune`).
//!
//! 1. [`samples`] takes every position of every finished game after the opening
//!    plies that is *quiet*: the side to move is not in check and has no capture
//!    that wins material by static exchange (so the static evaluation is a fair
//!    stand-in for a quiescence search). Its label is the game's result from
//!    Red's point of view (1, ½ or 0).
//! 2. The error of a set of weights is the mean squared difference between the
//!    labels and `1 / (1 + 10^(-k·e/400))`, `e` being the static evaluation from
//!    Red's point of view ([`error`]). [`best_k`] first fits `k` to the current
//!    weights, so tuning changes weights, not the scale.
//! 3. [`tune`] is a coordinate descent: each pass tries every middlegame and
//!    endgame value of every pair one step up and one step down and keeps a change
//!    whenever the error falls. It stops after a pass without improvement or after
//!    the given number of passes. Everything is single-threaded and deterministic.
//!    `chuhan tune --validate` measures the error on held-out games after every
//!    pass and keeps the pass where it was lowest (early stopping).

use chuhan_engine::core::{GameResult, GenType, Position};
use chuhan_engine::eval::params::EvalParams;
use chuhan_engine::eval::{Knowledge, Weights, breakdown_with};
use chuhan_engine::notation::Game;
use chuhan_engine::search::see;

/// A labelled position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position (without history).
    pub pos: Position,
    /// Red's expected score: the game's result (1 win, 0.5 draw, 0 loss) or a
    /// teacher engine's estimate (see [`parse_labelled`]).
    pub result: f64,
}

/// One line of a labelled-positions file: `FEN;label`, the label being Red's
/// expected score in `0..=1`.
pub fn labelled_line(s: &Sample) -> String {
    format!("{};{}", s.pos.to_fen(), s.result)
}

/// Parses a labelled-positions file (`FEN;label` lines, as written by
/// `chuhan tune --export` and relabelled by `scripts/fsf_label.py`). Blank lines
/// and lines starting with `#` are skipped; any other bad line is an error that
/// names its line number.
pub fn parse_labelled(text: &str) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(sample) = parse_line(line).map_err(|why| format!("line {}: {why}", i + 1))? {
            out.push(sample);
        }
    }
    Ok(out)
}

/// Whether `text` looks like a labelled-positions file rather than game records:
/// its first meaningful line is `FEN;label`.
pub fn is_labelled(text: &str) -> bool {
    text.lines()
        .map(parse_line)
        .find(|r| !matches!(r, Ok(None)))
        .is_some_and(|r| r.is_ok())
}

/// One line of a labelled-positions file: `None` for a blank or `#` line.
fn parse_line(line: &str) -> Result<Option<Sample>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (fen, label) = line
        .rsplit_once(';')
        .ok_or_else(|| "expected `FEN;label`".to_string())?;
    let result: f64 = label
        .trim()
        .parse()
        .map_err(|_| format!("bad label `{}`", label.trim()))?;
    if !(0.0..=1.0).contains(&result) {
        return Err(format!("label {result} is outside 0..=1"));
    }
    let pos = Position::from_fen(fen.trim()).map_err(|e| e.to_string())?;
    Ok(Some(Sample { pos, result }))
}

/// Whether `pos` is quiet: not in check, and no capture wins material by static
/// exchange.
pub fn is_quiet(pos: &Position) -> bool {
    !pos.in_check()
        && !pos
            .generate(GenType::Captures)
            .iter()
            .any(|&m| see::see_ge(pos, m, 1))
}

/// The quiet positions of `games` after the first `skip_plies` plies, labelled with
/// their results (games without a result are skipped).
pub fn samples(games: &[Game], skip_plies: usize) -> Vec<Sample> {
    let mut out = Vec::new();
    for g in games {
        let result = match g.result {
            Some(GameResult::RedWins) => 1.0,
            Some(GameResult::BlackWins) => 0.0,
            Some(GameResult::Draw) => 0.5,
            None => continue,
        };
        let mut pos = g.start.clone();
        for (ply, m) in g.moves().into_iter().enumerate() {
            if ply >= skip_plies && is_quiet(&pos) {
                // A fresh copy without history keeps the sample small.
                if let Ok(p) = Position::from_fen(&pos.to_fen()) {
                    out.push(Sample { pos: p, result });
                }
            }
            if !pos.is_legal(m) {
                break;
            }
            pos.make_move(m);
        }
    }
    out
}

/// The win probability for Red the model gives a Red-view evaluation `e`.
pub fn sigmoid(e: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// The mean squared error of `weights` on `samples` with scale `k`.
///
/// The samples are scored in fixed-size chunks spread over the machine's cores;
/// the chunk sums are added in order, so the result does not depend on the number
/// of cores.
pub fn error(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    const CHUNK: usize = 4096;
    if samples.is_empty() {
        return 0.0;
    }
    let chunk_error = |chunk: &[Sample]| -> f64 {
        chunk
            .iter()
            .map(|s| {
                let e = breakdown_with(&s.pos, Knowledge::Full, weights).red_total();
                let d = s.result - sigmoid(e as f64, k);
                d * d
            })
            .sum()
    };
    let chunks: Vec<&[Sample]> = samples.chunks(CHUNK).collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(chunks.len());
    let per_thread = chunks.len().div_ceil(threads);
    let mut sums = vec![0.0; chunks.len()];
    std::thread::scope(|scope| {
        for (mine, out) in chunks.chunks(per_thread).zip(sums.chunks_mut(per_thread)) {
            let chunk_error = &chunk_error;
            scope.spawn(move || {
                for (chunk, slot) in mine.iter().zip(out) {
                    *slot = chunk_error(chunk);
                }
            });
        }
    });
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// The scale `k` (to 0.01, within 0.1..=3) that minimises the error of `weights`.
pub fn best_k(samples: &[Sample], weights: &Weights) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 3.0f64);
    // Golden-section search: the error is unimodal in k in practice.
    let g = (5f64.sqrt() - 1.0) / 2.0;
    while hi - lo > 0.01 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(samples, weights, a) < error(samples, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0 * 100.0).round() / 100.0
}

/// How to tune.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneConfig {
    /// The sigmoid scale.
    pub k: f64,
    /// The step tried on every value.
    pub step: i32,
    /// Most passes over all values.
    pub max_passes: usize,
    /// Tune only the pairs whose name starts with one of these (`material`,
    /// `horse_`, `tempo`); all of them when empty.
    pub only: Vec<String>,
}

/// What the tuner reports after each pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PassReport {
    /// Passes done.
    pub pass: usize,
    /// The error after it.
    pub error: f64,
    /// Values changed in it.
    pub changes: usize,
}

/// Tunes `start` on `samples`, calling `progress` with the weights after every
/// pass; returns the tuned weights and their error.
pub fn tune(
    samples: &[Sample],
    start: &EvalParams,
    cfg: &TuneConfig,
    mut progress: impl FnMut(&PassReport, &EvalParams),
) -> (EvalParams, f64) {
    let mut best = start.clone();
    let mut best_err = error(samples, &Weights::new(best.clone()), cfg.k);
    let chosen: Vec<usize> = best
        .clone()
        .entries_mut()
        .iter()
        .enumerate()
        .filter(|(_, (name, _))| {
            cfg.only.is_empty() || cfg.only.iter().any(|o| name.starts_with(o.as_str()))
        })
        .map(|(i, _)| i)
        .collect();
    for pass in 1..=cfg.max_passes {
        let mut changes = 0;
        for &i in &chosen {
            for eg in [false, true] {
                for delta in [cfg.step, -cfg.step] {
                    let trial = bumped(&best, i, eg, delta);
                    let e = error(samples, &Weights::new(trial.clone()), cfg.k);
                    if e < best_err {
                        best = trial;
                        best_err = e;
                        changes += 1;
                        break;
                    }
                }
            }
        }
        progress(
            &PassReport {
                pass,
                error: best_err,
                changes,
            },
            &best,
        );
        if changes == 0 {
            break;
        }
    }
    (best, best_err)
}

/// How to run the gradient tuner ([`gradient`]).
#[derive(Clone, Debug, PartialEq)]
pub struct GradientConfig {
    /// The sigmoid scale.
    pub k: f64,
    /// Full passes over the samples (one Adam step each).
    pub epochs: usize,
    /// Adam's step size, in evaluation units.
    pub rate: f64,
    /// L2 pull of every piece-square correction and count-table entry back toward
    /// its start value (the formula pairs are pinned by many positions each; a
    /// correction of a rarely visited point or count is not).
    pub l2: f64,
    /// Tune only the pairs whose name starts with one of these (`pst`,
    /// `pst.horse`, `material`); all of them when empty.
    pub only: Vec<String>,
    /// Report (and check the held-out samples) every this many epochs.
    pub report_every: usize,
}

/// What the gradient tuner reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// Epochs done.
    pub epoch: usize,
    /// The linear model's error on the training samples.
    pub error: f64,
    /// The linear model's error on the held-out samples (0 without them).
    pub held_out: f64,
}

/// A sample's evaluation as a linear function of the weight changes, around the
/// start weights.
struct LinearSample {
    /// Red-view evaluation with the start weights.
    base: f64,
    /// What one unit of a middlegame value is worth in the final evaluation
    /// (phase share over the scale divisor); likewise for the endgame.
    mg_share: f64,
    eg_share: f64,
    result: f64,
    /// `(pair, middlegame count, endgame count)`: Red's count minus Black's.
    features: Vec<(u32, f32, f32)>,
}

impl LinearSample {
    fn eval(&self, delta: &[[f64; 2]]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(j, cm, ce) in &self.features {
            let d = delta[j as usize];
            mg += cm as f64 * d[0];
            eg += ce as f64 * d[1];
        }
        self.base + mg * self.mg_share + eg * self.eg_share
    }
}

/// A copy of `params` with entry `j` of [`EvalParams::all_entries_mut`] (whose
/// first entries are those of [`EvalParams::entries_mut`]) moved by `delta`, in its
/// endgame value if `eg`, else in its middlegame value.
fn bumped(params: &EvalParams, j: usize, eg: bool, delta: i32) -> EvalParams {
    let mut p = params.clone();
    {
        let mut entries = p.all_entries_mut();
        let v = &mut entries[j].1;
        if eg {
            v.eg += delta;
        } else {
            v.mg += delta;
        }
    }
    p
}

/// Builds the linear model of every sample: the counts of the formula pairs and
/// count-table entries by finite differences of the evaluation (the terms are
/// linear in their weights but for integer rounding), the piece-square corrections
/// by counting pieces.
fn linearize(samples: &[Sample], start: &EvalParams) -> Vec<LinearSample> {
    use chuhan_engine::core::Color;
    use chuhan_engine::eval::params::{MAX_PHASE, pst_index};
    const D: i32 = 64;
    let n_formula = start.clone().entries_mut().len();
    // Where each piece-square correction sits in `all_entries_mut`.
    let mut pst_pair = [[u32::MAX; chuhan_engine::eval::params::PST_POINTS]; 7];
    {
        let mut next = n_formula as u32;
        for (k, row) in pst_pair.iter_mut().enumerate() {
            for (i, slot) in row.iter_mut().enumerate() {
                if chuhan_engine::eval::params::pst_point_used(k, i) {
                    *slot = next;
                    next += 1;
                }
            }
        }
    }
    let n_pst = pst_pair
        .iter()
        .flatten()
        .filter(|&&j| j != u32::MAX)
        .count();
    let n_all = start.clone().all_entries_mut().len();
    let base_weights = Weights::new(start.clone());
    // Every pair but the piece-square corrections, by finite differences: one set
    // of weights with the entry's middlegame value raised by `D`, one with its
    // endgame value raised.
    let trials: Vec<(u32, Weights, Weights)> = (0..n_formula)
        .chain(n_formula + n_pst..n_all)
        .map(|j| {
            let mg = Weights::new(bumped(start, j, false, D));
            let eg = Weights::new(bumped(start, j, true, D));
            (j as u32, mg, eg)
        })
        .collect();
    let sum = |b: &chuhan_engine::eval::Breakdown| {
        b.terms
            .iter()
            .fold(chuhan_engine::eval::tapered::S::ZERO, |acc, t| {
                acc + (t[0] - t[1])
            })
    };
    let one = |s: &Sample| -> LinearSample {
        let b = breakdown_with(&s.pos, Knowledge::Full, &base_weights);
        let base_sum = sum(&b);
        let phase = b.phase.min(MAX_PHASE) as f64;
        let scale = b.scale_divisor.max(1) as f64;
        let mut counts: Vec<(u32, f32, f32)> = Vec::new();
        for (j, mg_bumped, eg_bumped) in &trials {
            let mg = sum(&breakdown_with(&s.pos, Knowledge::Full, mg_bumped)).mg - base_sum.mg;
            let eg = sum(&breakdown_with(&s.pos, Knowledge::Full, eg_bumped)).eg - base_sum.eg;
            if mg != 0 || eg != 0 {
                counts.push((*j, mg as f32 / D as f32, eg as f32 / D as f32));
            }
        }
        let mut pst: Vec<(u32, f32)> = Vec::new();
        for sq in s.pos.occupied() {
            let p = s.pos.piece_at(sq).expect("occupied");
            let red_view = if p.color == Color::Red { sq } else { sq.flip() };
            let (f, r) = (
                red_view.file().index() as i32,
                red_view.rank().index() as i32,
            );
            let j = pst_pair[p.kind.index()][pst_index(f, r)];
            let sign = if p.color == Color::Red { 1.0 } else { -1.0 };
            match pst.iter_mut().find(|e| e.0 == j) {
                Some(e) => e.1 += sign,
                None => pst.push((j, sign)),
            }
        }
        counts.extend(
            pst.into_iter()
                .filter(|e| e.1 != 0.0)
                .map(|(j, c)| (j, c, c)),
        );
        LinearSample {
            base: b.red_total() as f64,
            mg_share: phase / MAX_PHASE as f64 / scale,
            eg_share: (MAX_PHASE as f64 - phase) / MAX_PHASE as f64 / scale,
            result: s.result,
            features: counts,
        }
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per = samples.len().div_ceil(threads).max(1);
    let mut out: Vec<Vec<LinearSample>> = Vec::new();
    std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(per)
            .map(|chunk| scope.spawn(move || chunk.iter().map(one).collect::<Vec<_>>()))
            .collect();
        for h in handles {
            out.push(h.join().expect("linearize thread"));
        }
    });
    out.into_iter().flatten().collect()
}

/// The mean squared error of the linear model with the changes `delta`.
fn linear_error(samples: &[LinearSample], delta: &[[f64; 2]], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|s| {
            let d = s.result - sigmoid(s.eval(delta), k);
            d * d
        })
        .sum::<f64>()
        / samples.len() as f64
}

/// Gradient tuning of every pair, the piece-square corrections included
/// ([`EvalParams::all_entries_mut`]): each sample's evaluation is linearised around
/// `start` (see `linearize`), then Adam minimises the mean squared error of the
/// linear model, with an L2 pull of the piece-square corrections and count tables
/// toward `start`.
/// Calls `progress` every
/// `report_every` epochs; with held-out samples, the changes of the report where
/// their error was lowest are kept. Returns the rounded weights. Deterministic.
pub fn gradient(
    samples: &[Sample],
    held_out: &[Sample],
    start: &EvalParams,
    cfg: &GradientConfig,
    mut progress: impl FnMut(&EpochReport),
) -> EvalParams {
    let train = linearize(samples, start);
    let check = linearize(held_out, start);
    let mut names_owner = start.clone();
    let names: Vec<String> = names_owner
        .all_entries_mut()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let is_pst: Vec<bool> = names
        .iter()
        .map(|n| n.starts_with("pst.") || n.starts_with("table."))
        .collect();
    let free: Vec<bool> = names
        .iter()
        .map(|n| cfg.only.is_empty() || cfg.only.iter().any(|o| n.starts_with(o.as_str())))
        .collect();
    let n = names.len();
    let mut delta = vec![[0.0f64; 2]; n];
    let mut m = vec![[0.0f64; 2]; n];
    let mut v = vec![[0.0f64; 2]; n];
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let scale = std::f64::consts::LN_10 * cfg.k / 400.0;
    let mut best = (f64::INFINITY, delta.clone());
    let every = cfg.report_every.max(1);
    for epoch in 1..=cfg.epochs {
        let mut grad = vec![[0.0f64; 2]; n];
        for s in &train {
            let p = sigmoid(s.eval(&delta), cfg.k);
            let g = (p - s.result) * p * (1.0 - p) * scale;
            for &(j, cm, ce) in &s.features {
                let e = &mut grad[j as usize];
                e[0] += g * cm as f64 * s.mg_share;
                e[1] += g * ce as f64 * s.eg_share;
            }
        }
        let count = train.len().max(1) as f64;
        let t = epoch as i32;
        for j in 0..n {
            if !free[j] {
                continue;
            }
            for c in 0..2 {
                let pull = if is_pst[j] { cfg.l2 * delta[j][c] } else { 0.0 };
                let g = 2.0 * grad[j][c] / count + pull;
                m[j][c] = b1 * m[j][c] + (1.0 - b1) * g;
                v[j][c] = b2 * v[j][c] + (1.0 - b2) * g * g;
                let mh = m[j][c] / (1.0 - b1.powi(t));
                let vh = v[j][c] / (1.0 - b2.powi(t));
                delta[j][c] -= cfg.rate * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % every == 0 || epoch == cfg.epochs {
            let report = EpochReport {
                epoch,
                error: linear_error(&train, &delta, cfg.k),
                held_out: linear_error(&check, &delta, cfg.k),
            };
            progress(&report);
            let score = if check.is_empty() {
                report.error
            } else {
                report.held_out
            };
            if score < best.0 {
                best = (score, delta.clone());
            }
        }
    }
    let mut out = start.clone();
    for ((_, value), d) in out.all_entries_mut().into_iter().zip(&best.1) {
        value.mg += d[0].round() as i32;
        value.eg += d[1].round() as i32;
    }
    out
}

/// `source` (the text of `crates/engine/src/eval/params.rs`) with the body of its `DEFAULT`
/// literal replaced by `params`; `None` if the literal is not found.
pub fn rewrite_params_source(source: &str, params: &EvalParams) -> Option<String> {
    const OPEN: &str = "pub const DEFAULT: EvalParams = EvalParams {\n";
    let start = source.find(OPEN)? + OPEN.len();
    let end = start + source[start..].find("\n};")? + 1;
    Some(format!(
        "{}{}{}",
        &source[..start],
        params.rust_fields(),
        &source[end..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhan_engine::eval::DEFAULT_WEIGHTS;
    use chuhan_engine::eval::params::DEFAULT;
    use chuhan_engine::eval::tapered::s;

    fn game(moves: &str, result: Option<GameResult>) -> Game {
        let mut g = Game::new(Position::startpos());
        for m in moves.split_whitespace() {
            g.push(m.parse().unwrap());
        }
        g.result = result;
        g
    }

    #[test]
    fn labelled_positions_round_trip_and_bad_lines_are_named() {
        let samples = samples(&[game("h2e2 h9g7 h0g2 i9h9", Some(GameResult::RedWins))], 0);
        assert!(!samples.is_empty());
        let text: String = samples.iter().map(|s| labelled_line(s) + "\n").collect();
        assert!(is_labelled(&text));
        let back = parse_labelled(&text).unwrap();
        assert_eq!(back.len(), samples.len());
        for (a, b) in back.iter().zip(&samples) {
            assert_eq!(a.pos.to_fen(), b.pos.to_fen());
            assert_eq!(a.result, b.result);
        }
        let fen = Position::startpos().to_fen();
        assert!(!is_labelled("[Event \"x\"]\n1. h2e2 h9g7 *\n"));
        assert_eq!(
            parse_labelled(&format!("# comment\n\n{fen};0.25\n{fen};1.5\n")).unwrap_err(),
            "line 4: label 1.5 is outside 0..=1"
        );
        assert!(
            parse_labelled(&format!("{fen} 0.5\n"))
                .unwrap_err()
                .starts_with("line 1:")
        );
        assert!(
            parse_labelled("xyz;0.5\n")
                .unwrap_err()
                .starts_with("line 1:")
        );
    }

    #[test]
    fn samples_are_quiet_labelled_and_skip_the_opening() {
        let g = game("h2e2 h9g7 h0g2 i9h9 e2e6 d9e8", Some(GameResult::RedWins));
        let all = samples(std::slice::from_ref(&g), 0);
        assert!(!all.is_empty());
        assert!(all.iter().all(|s| s.result == 1.0 && is_quiet(&s.pos)));
        let later = samples(std::slice::from_ref(&g), 2);
        assert!(later.len() < all.len());
        let unknown = game("h2e2 h9g7", None);
        assert!(samples(&[unknown], 0).is_empty());
        let draw = game("h2e2 h9g7", Some(GameResult::Draw));
        assert!(samples(&[draw], 0).iter().all(|s| s.result == 0.5));
    }

    #[test]
    fn a_capture_that_wins_material_is_not_quiet() {
        // Red's rook can take an undefended black horse.
        let pos = Position::from_fen("3k5/9/9/9/4n4/9/9/9/9/R3K4 w").unwrap();
        assert!(is_quiet(&pos));
        let pos = Position::from_fen("3k5/9/9/9/n8/9/9/9/9/R3K4 w").unwrap();
        assert!(!is_quiet(&pos));
    }

    fn rook_up_samples() -> Vec<Sample> {
        let fens = [
            ("3k5/9/9/9/9/9/9/9/9/R3K4 w", 1.0),
            ("3k5/9/9/9/9/9/9/9/9/R3K4 b", 1.0),
            ("r2k5/9/9/9/9/9/9/9/9/4K4 w", 0.0),
            ("4k4/9/9/9/9/9/9/9/4A4/3AK4 w", 0.5),
        ];
        fens.iter()
            .map(|&(f, r)| Sample {
                pos: Position::from_fen(f).unwrap(),
                result: r,
            })
            .collect()
    }

    #[test]
    fn error_matches_the_formula() {
        let set = rook_up_samples();
        let w = &*DEFAULT_WEIGHTS;
        let mut want = 0.0;
        for x in &set {
            let e = breakdown_with(&x.pos, Knowledge::Full, w).red_total() as f64;
            want += (x.result - sigmoid(e, 1.0)).powi(2);
        }
        assert!((error(&set, w, 1.0) - want / 4.0).abs() < 1e-12);
        assert!((sigmoid(0.0, 1.0) - 0.5).abs() < 1e-12);
        assert!(sigmoid(400.0, 1.0) > 0.9);
    }

    #[test]
    fn tuning_never_raises_the_error_and_is_deterministic() {
        let set = rook_up_samples();
        // Start from a rook worth far too little: the tuner must raise it.
        let mut start = DEFAULT.clone();
        start.material[0] = s(100, 100);
        let cfg = TuneConfig {
            k: 1.0,
            step: 20,
            max_passes: 3,
            only: Vec::new(),
        };
        let before = error(&set, &Weights::new(start.clone()), cfg.k);
        let mut reports = Vec::new();
        let (tuned, after) = tune(&set, &start, &cfg, |r, _| reports.push(*r));
        assert!(after < before);
        assert!(reports.windows(2).all(|w| w[1].error <= w[0].error));
        assert!(tuned.material[0].mg + tuned.material[0].eg > 200);
        assert_eq!(tune(&set, &start, &cfg, |_, _| {}).0, tuned);
        // Restricted to the tempo, the rook stays where it was.
        let only = TuneConfig {
            only: vec!["tempo".into()],
            ..cfg
        };
        let (t2, _) = tune(&set, &start, &only, |_, _| {});
        assert_eq!(t2.material, start.material);
    }

    /// The index of the pair called `name` in `all_entries_mut`.
    fn pair(name: &str) -> usize {
        DEFAULT
            .clone()
            .all_entries_mut()
            .iter()
            .position(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no pair {name}"))
    }

    #[test]
    fn the_linear_model_matches_the_evaluation() {
        let fens = [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R b",
            "3k5/4a4/4b4/9/2n6/9/P3R4/4K4/4A4/9 w",
            "4k4/9/9/9/9/9/9/9/4A4/3AK4 w",
        ];
        let set: Vec<Sample> = fens
            .iter()
            .map(|f| Sample {
                pos: Position::from_fen(f).unwrap(),
                result: 0.5,
            })
            .collect();
        let model = linearize(&set, &DEFAULT);
        let mut changed = DEFAULT.clone();
        let mut delta = vec![[0.0; 2]; changed.all_entries_mut().len()];
        for (name, mg, eg) in [
            ("material.horse", 30, -20),
            ("rook_mobility", 3, 5),
            ("tempo", -11, 37),
            ("pst.horse.c2", 40, 10),
            ("pst.rook.a0", -25, 15),
            ("pst.pawn.e6", 9, -9),
            ("table.palace_attack.0", 12, -4),
            ("table.horse_mobility.4", -6, 8),
            ("table.rook_mobility.9", 5, 5),
        ] {
            let j = pair(name);
            delta[j] = [mg as f64, eg as f64];
            let mut entries = changed.all_entries_mut();
            entries[j].1.mg += mg;
            entries[j].1.eg += eg;
        }
        let w = Weights::new(changed);
        for (sample, lin) in set.iter().zip(&model) {
            let real = breakdown_with(&sample.pos, Knowledge::Full, &w).red_total() as f64;
            let base = breakdown_with(&sample.pos, Knowledge::Full, &DEFAULT_WEIGHTS).red_total();
            assert_ne!(real, base as f64, "{}", sample.pos.to_fen());
            // Tapering rounds each evaluation to an integer.
            assert!(
                (lin.eval(&delta) - real).abs() <= 1.0,
                "{}",
                sample.pos.to_fen()
            );
        }
    }

    #[test]
    fn gradient_tuning_lowers_the_error_and_keeps_pinned_pairs() {
        let set = rook_up_samples();
        let mut start = DEFAULT.clone();
        start.material[0] = s(100, 100);
        let cfg = GradientConfig {
            k: 1.0,
            epochs: 200,
            rate: 5.0,
            l2: 0.0,
            only: Vec::new(),
            report_every: 50,
        };
        let before = error(&set, &Weights::new(start.clone()), cfg.k);
        let mut reports = Vec::new();
        let tuned = gradient(&set, &[], &start, &cfg, |r| reports.push(*r));
        assert_eq!(reports.len(), 4);
        assert!(error(&set, &Weights::new(tuned.clone()), cfg.k) < before);
        assert!(tuned.material[0].mg + tuned.material[0].eg > 300);
        assert_eq!(gradient(&set, &[], &start, &cfg, |_| {}), tuned);
        // Only the piece-square corrections: the formula pairs stay.
        let only = GradientConfig {
            only: vec!["pst".into()],
            ..cfg
        };
        let t2 = gradient(&set, &[], &start, &only, |_| {});
        assert_eq!(t2.material, start.material);
        assert_eq!(t2.tempo, start.tempo);
        assert_ne!(t2.pst_delta, start.pst_delta);
    }

    #[test]
    fn rewriting_the_params_file_changes_only_the_values() {
        let source = include_str!("../../engine/src/eval/params.rs");
        let mut p = DEFAULT.clone();
        p.tempo = s(21, 11);
        let out = rewrite_params_source(source, &p).unwrap();
        assert!(out.contains("    tempo: s(21, 11),\n"));
        assert!(out.contains("/// Bonus for the side to move."));
        assert_eq!(
            out.lines().count(),
            rewrite_params_source(source, &DEFAULT)
                .unwrap()
                .lines()
                .count()
        );
        assert!(rewrite_params_source("no literal here", &p).is_none());
        // The file holds exactly what the tuner writes for the engine's weights.
        assert_eq!(rewrite_params_source(source, &DEFAULT).unwrap(), source);
        p.pst_delta[1] = [s(0, 0); chuhan_engine::eval::params::PST_POINTS];
        p.pst_delta[1][12] = s(-7, 3);
        let out = rewrite_params_source(source, &p).unwrap();
        assert!(out.contains("s(0, 0), s(0, 0), s(-7, 3), s(0, 0), s(0, 0),"));
    }
}
