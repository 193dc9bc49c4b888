//! The NNUE trainer behind `chuhan train`: a small CPU trainer written for this
//! net, using every core with `std` threads.
//!
//! Why no ML crate: the net is one hidden layer over sparse inputs (at most 32 of
//! 1,260–7,560 features active per perspective). Its forward and backward passes are
//! a few row additions and one dot product per sample, which plain Rust loops
//! vectorise well; a general tensor library would bring a large dependency, dense
//! matrices over the sparse inputs, or a GPU we do not have. The whole trainer
//! is a few hundred lines whose every step is tested here.
//!
//! | concern | module |
//! |---|---|
//! | records, train/validation split by game, the fit of `K` | [`dataset`] |
//! | a record as features, bucket, score and result | [`sample`] |
//! | the float net, forward pass, per-sample gradient | [`model`] |
//! | Adam (lazy on feature rows) and weight clipping | [`adam`] |
//! | warm-up and cosine decay of the learning rate | [`schedule`] |
//! | resumable state after each epoch | [`checkpoint`] |
//! | the integer net and its error | [`quantise`] |
//!
//! **Determinism.** A batch is cut into a fixed number of chunks (`chunks`), each
//! with its own gradient buffer, processed sample by sample; buffers are summed
//! in chunk order. Threads only decide which chunk runs where, so a run is
//! bit-identical for the same data, settings and seed whatever the thread count.

pub mod adam;
pub mod checkpoint;
pub mod dataset;
pub mod model;
pub mod quantise;
pub mod sample;
pub mod schedule;

use crate::datagen::record::{Record, result_score};
use crate::lots::Lots;
use adam::Adam;
use checkpoint::{Checkpoint, CheckpointError};
use chuhan_engine::binary::fnv1a;
use chuhan_engine::eval::nnue::network::{Architecture, NetError, Network};
use dataset::Dataset;
use model::{FloatNet, Gradient, Layout, LossShape, Scratch, sigmoid};
use quantise::{CLIP, QuantReport};
use sample::Sample;
use schedule::Schedule;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// How to train.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    /// The net's shape.
    pub arch: Architecture,
    /// Passes over the training set.
    pub epochs: u32,
    /// Positions per batch.
    pub batch: usize,
    /// Peak learning rate.
    pub lr: f32,
    /// Warm-up steps (batches).
    pub warmup: u64,
    /// The final learning rate as a fraction of the peak.
    pub final_lr: f32,
    /// Weight of the search score in the target (the rest is the game result).
    pub lambda: f32,
    /// The sigmoid scale in centipawns; fitted on the training data if `None`.
    pub k: Option<f32>,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Gradient chunks per batch (the unit of determinism; see the module docs).
    pub chunks: usize,
}

/// What the trainer reports.
#[derive(Clone, Debug, PartialEq)]
pub enum TrainEvent {
    /// Training starts (or resumes).
    Started {
        /// The sigmoid scale.
        k: f32,
        /// Whether `k` was fitted.
        fitted: bool,
        /// The first epoch to run (1-based).
        first_epoch: u32,
        /// Batches per epoch.
        batches: u64,
        /// Validation loss of the search score itself, `σ(score/K)` (a floor of
        /// sorts for the score part of the target).
        score_loss: f64,
        /// Validation loss of the hand-written static evaluation.
        hce_loss: f64,
    },
    /// A batch is done.
    Batch {
        /// The epoch (1-based).
        epoch: u32,
        /// Batches done in this epoch.
        done: u64,
        /// Batches per epoch.
        of: u64,
        /// Mean training loss so far this epoch.
        loss: f64,
        /// Positions per second so far this epoch.
        speed: f64,
    },
    /// An epoch is done.
    Epoch(EpochReport),
}

/// One epoch's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch (1-based).
    pub epoch: u32,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Validation loss after the epoch.
    pub validation_loss: f64,
    /// The learning rate at the epoch's last step.
    pub lr: f32,
    /// Training positions per second.
    pub speed: f64,
    /// Seconds for the epoch (training only).
    pub seconds: f64,
    /// The quantised net written for this epoch.
    pub net_path: PathBuf,
    /// Its quantisation error on validation positions.
    pub quantisation: QuantReport,
}

/// Why training failed.
#[derive(Debug)]
pub enum TrainError {
    /// No training positions.
    NoData,
    /// Settings the trainer cannot use.
    Settings(String),
    /// The output directory or a net file could not be written.
    Io(PathBuf, std::io::Error),
    /// A checkpoint could not be read or written.
    Checkpoint(CheckpointError),
    /// The checkpoint was made with other settings or data.
    Mismatch,
    /// The quantised net would overflow.
    Quantise(NetError),
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::NoData => f.write_str("no training positions"),
            TrainError::Settings(s) => f.write_str(s),
            TrainError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            TrainError::Checkpoint(e) => write!(f, "{e}"),
            TrainError::Mismatch => f.write_str(
                "the checkpoint was made with other settings or data; \
                 use another directory or train without --resume",
            ),
            TrainError::Quantise(e) => write!(f, "quantisation: {e}"),
        }
    }
}

impl std::error::Error for TrainError {}

/// The result of a training run.
#[derive(Clone, Debug)]
pub struct Trained {
    /// The final float net.
    pub net: FloatNet,
    /// The final quantised net.
    pub quantised: Network,
    /// Its error against the float net on (up to 20,000) validation positions.
    pub quantisation: QuantReport,
    /// The sigmoid scale.
    pub k: f32,
    /// The epochs run in this invocation.
    pub epochs: Vec<EpochReport>,
}

impl TrainConfig {
    fn check(&self) -> Result<(), TrainError> {
        let bad = |s: &str| Err(TrainError::Settings(s.into()));
        if self.epochs == 0 || self.batch == 0 || self.threads == 0 || self.chunks == 0 {
            return bad("epochs, batch, threads and chunks must be at least 1");
        }
        if !(self.lr > 0.0 && self.lr.is_finite()) {
            return bad("the learning rate must be positive");
        }
        if !(0.0..=1.0).contains(&self.lambda) || !(0.0..=1.0).contains(&self.final_lr) {
            return bad("lambda and the final learning-rate fraction must be within 0..1");
        }
        if self.k.is_some_and(|k| !(k > 0.0 && k.is_finite())) {
            return bad("K must be positive");
        }
        if self.arch.hidden == 0 || self.arch.output_buckets == 0 {
            return bad("the hidden size and output buckets must be at least 1");
        }
        Ok(())
    }

    /// The fingerprint of everything a resumed run must share with the
    /// checkpoint.
    fn fingerprint(&self, k: f32, data: &Dataset) -> u64 {
        let text = format!(
            "{:?} {} {} {} {} {} {} {} {} {} {} {}",
            self.arch,
            self.epochs,
            self.batch,
            self.lr,
            self.warmup,
            self.final_lr,
            self.lambda,
            k,
            self.seed,
            self.chunks,
            data.train.len(),
            data.validation.len()
        );
        fnv1a(text.as_bytes())
    }
}

/// Splits `data` at the element offsets `cuts` (ascending, within the slice).
fn split_at_cuts<'a>(mut data: &'a mut [f32], cuts: &[usize]) -> Vec<&'a mut [f32]> {
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut at = 0;
    for &c in cuts {
        let (a, b) = data.split_at_mut(c - at);
        out.push(a);
        data = b;
        at = c;
    }
    out.push(data);
    out
}

/// The trainer's working state.
struct Trainer<'a> {
    cfg: TrainConfig,
    layout: Layout,
    shape: LossShape,
    net: FloatNet,
    adam: Adam,
    grads: Vec<Gradient>,
    touched: Vec<bool>,
    data: &'a Dataset,
}

impl Trainer<'_> {
    /// Mean loss of `records` (chunked and summed in order, so deterministic).
    fn loss(&self, records: &[Record]) -> f64 {
        if records.is_empty() {
            return 0.0;
        }
        let chunk = records.len().div_ceil(self.cfg.chunks);
        let parts: Vec<&[Record]> = records.chunks(chunk).collect();
        let mut sums = vec![0.0f64; parts.len()];
        let next = AtomicUsize::new(0);
        let results: Vec<(usize, f64)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..self.cfg.threads.min(parts.len()))
                .map(|_| {
                    let (next, parts) = (&next, &parts);
                    s.spawn(move || {
                        let mut out = Vec::new();
                        let mut scratch = Scratch::new(self.layout.hidden);
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= parts.len() {
                                break;
                            }
                            let sum: f64 = parts[i]
                                .iter()
                                .map(|r| {
                                    let s = self.sample(r);
                                    f64::from(self.net.loss(&s, &self.shape, &mut scratch))
                                })
                                .sum();
                            out.push((i, sum));
                        }
                        out
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("a loss worker does not panic"))
                .collect()
        });
        for (i, s) in results {
            sums[i] = s;
        }
        sums.iter().sum::<f64>() / records.len() as f64
    }

    fn sample(&self, r: &Record) -> Sample {
        Sample::new(r, self.cfg.arch.king_buckets, self.cfg.arch.output_buckets)
    }

    /// One optimisation step on `batch`; returns the summed loss.
    fn step(&mut self, batch: &[&Record], lr: f32) -> f64 {
        let n = batch.len();
        let chunk = n.div_ceil(self.cfg.chunks);
        let weight = 1.0 / n as f32;
        let per_thread = self.cfg.chunks.div_ceil(self.cfg.threads);
        let net = &self.net;
        let shape = self.shape;
        let (layout, cfg) = (self.layout, self.cfg);
        // Gradients, chunk by chunk.
        let losses: Vec<f64> = std::thread::scope(|s| {
            let handles: Vec<_> = self
                .grads
                .chunks_mut(per_thread)
                .enumerate()
                .map(|(t, group)| {
                    s.spawn(move || {
                        let mut scratch = Scratch::new(layout.hidden);
                        let mut out = Vec::with_capacity(group.len());
                        for (j, grad) in group.iter_mut().enumerate() {
                            let c = t * per_thread + j;
                            let lo = (c * chunk).min(n);
                            let hi = ((c + 1) * chunk).min(n);
                            let mut sum = 0.0f64;
                            for r in &batch[lo..hi] {
                                let s =
                                    Sample::new(r, cfg.arch.king_buckets, cfg.arch.output_buckets);
                                sum +=
                                    f64::from(net.backward(&s, &shape, weight, &mut scratch, grad));
                            }
                            out.push(sum);
                        }
                        out
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("a gradient worker does not panic"))
                .collect()
        });
        // Touched feature rows, over all chunks.
        for g in &mut self.grads {
            for &r in &g.rows {
                self.touched[r as usize] = true;
                g.touched[r as usize] = false;
            }
            g.rows.clear();
        }
        self.adam.step += 1;
        let step_size = self.adam.step_size(lr);
        // Reduce and update, in parallel over ranges of rows plus the dense part.
        let h = layout.hidden;
        let threads = self.cfg.threads;
        let rows_per = layout.inputs.div_ceil(threads);
        let mut cuts: Vec<usize> = (1..threads)
            .map(|t| (t * rows_per).min(layout.inputs) * h)
            .collect();
        cuts.push(layout.ft_bias);
        let params = split_at_cuts(&mut self.net.params, &cuts);
        let ms = split_at_cuts(&mut self.adam.m, &cuts);
        let vs = split_at_cuts(&mut self.adam.v, &cuts);
        let mut per_range: Vec<Vec<&mut [f32]>> = (0..=cuts.len()).map(|_| Vec::new()).collect();
        for g in &mut self.grads {
            for (k, part) in split_at_cuts(&mut g.values, &cuts).into_iter().enumerate() {
                per_range[k].push(part);
            }
        }
        let touched = &self.touched;
        let dense = cuts.len();
        std::thread::scope(|s| {
            for (k, (((p, m), v), mut gs)) in params
                .into_iter()
                .zip(ms)
                .zip(vs)
                .zip(per_range)
                .enumerate()
            {
                s.spawn(move || {
                    let mut sum = vec![0.0f32; h];
                    if k == dense {
                        // The dense part: feature biases, output weights (clipped),
                        // output biases (not clipped).
                        let mut total = vec![0.0f32; p.len()];
                        for g in gs.iter_mut() {
                            for (t, x) in total.iter_mut().zip(g.iter_mut()) {
                                *t += *x;
                                *x = 0.0;
                            }
                        }
                        let split = layout.out_bias - layout.ft_bias;
                        let (p1, p2) = p.split_at_mut(split);
                        let (m1, m2) = m.split_at_mut(split);
                        let (v1, v2) = v.split_at_mut(split);
                        Adam::update(m1, v1, p1, &total[..split], step_size, CLIP);
                        Adam::update(m2, v2, p2, &total[split..], step_size, f32::MAX);
                        return;
                    }
                    let first_row = k * rows_per;
                    for local in 0..p.len() / h {
                        if !touched[first_row + local] {
                            continue;
                        }
                        let at = local * h;
                        sum.iter_mut().for_each(|x| *x = 0.0);
                        for g in gs.iter_mut() {
                            for (t, x) in sum.iter_mut().zip(&mut g[at..at + h]) {
                                *t += *x;
                                *x = 0.0;
                            }
                        }
                        Adam::update(
                            &mut m[at..at + h],
                            &mut v[at..at + h],
                            &mut p[at..at + h],
                            &sum,
                            step_size,
                            CLIP,
                        );
                    }
                });
            }
        });
        self.touched.iter_mut().for_each(|t| *t = false);
        losses.iter().sum()
    }

    fn checkpoint(&self, epochs_done: u32, fingerprint: u64) -> Checkpoint {
        Checkpoint {
            net: self.net.clone(),
            adam: self.adam.clone(),
            epochs_done,
            k: self.shape.k,
            fingerprint,
        }
    }

    /// The integer net of the current weights and its error against them on
    /// the first 20,000 validation positions.
    fn quantise(&self) -> Result<(Network, QuantReport), TrainError> {
        let (q, clipped) = quantise::quantise(&self.net).map_err(TrainError::Quantise)?;
        let probe = &self.data.validation[..self.data.validation.len().min(20_000)];
        let report = quantise::compare(&self.net, &q, probe, clipped);
        Ok((q, report))
    }
}

/// The validation loss a predictor `cp(record)` would have.
fn predictor_loss(records: &[Record], shape: &LossShape, cp: impl Fn(&Record) -> f64) -> f64 {
    let sum: f64 = records
        .iter()
        .map(|r| {
            let p = f64::from(sigmoid((cp(r) / f64::from(shape.k)) as f32));
            let d = p - f64::from(shape.target(r.score, result_score(r.result)));
            d * d
        })
        .sum();
    sum / records.len().max(1) as f64
}

/// The hand-written static evaluation of a record's position (side to move's
/// view), 0 if the record is no legal position.
fn hce(r: &Record) -> f64 {
    r.position().map_or(0.0, |p| {
        f64::from(chuhan_engine::eval::evaluate(
            &p,
            &chuhan_engine::eval::EvalConfig::default(),
        ))
    })
}

/// Trains on `data`, writing `checkpoint.bin` and `epoch-N.nnue` into `dir` after
/// every epoch; with `resume`, continues from `dir/checkpoint.bin` if it exists;
/// with `until`, stops after that epoch (a later run with `resume` goes on).
pub fn train(
    cfg: &TrainConfig,
    data: &Dataset,
    dir: &Path,
    resume: bool,
    until: Option<u32>,
    events: impl FnMut(&TrainEvent),
) -> Result<Trained, TrainError> {
    train_from(None, cfg, data, dir, resume, until, events)
}

/// [`train`] starting from the weights of `init` instead of random ones (a net of
/// an earlier generation, [`quantise::dequantise`]d: fine-tuning on new data). Its
/// shape must be `cfg`'s; the optimiser starts afresh, with the warm-up. A
/// checkpoint remembers the starting net: resuming with another one is refused.
pub fn train_from(
    init: Option<&FloatNet>,
    cfg: &TrainConfig,
    data: &Dataset,
    dir: &Path,
    resume: bool,
    until: Option<u32>,
    mut events: impl FnMut(&TrainEvent),
) -> Result<Trained, TrainError> {
    cfg.check()?;
    if let Some(n) = init
        && (n.arch != cfg.arch || n.params.len() != Layout::new(&cfg.arch).len)
    {
        return Err(TrainError::Settings(format!(
            "the starting net is {}, the run's shape {}",
            n.arch.shape(),
            cfg.arch.shape()
        )));
    }
    if data.train.is_empty() {
        return Err(TrainError::NoData);
    }
    std::fs::create_dir_all(dir).map_err(|e| TrainError::Io(dir.to_path_buf(), e))?;
    let fitted = cfg.k.is_none();
    let k = cfg.k.unwrap_or_else(|| dataset::fit_k(&data.train) as f32);
    let mut fingerprint = cfg.fingerprint(k, data);
    if let Some(n) = init {
        let bytes: Vec<u8> = n.params.iter().flat_map(|p| p.to_le_bytes()).collect();
        fingerprint ^= fnv1a(&bytes).rotate_left(1);
    }
    let layout = Layout::new(&cfg.arch);
    let ckpt_path = dir.join("checkpoint.bin");
    let mut first_epoch = 1;
    let (net, adam) = match resume.then(|| ckpt_path.exists()) {
        Some(true) => {
            let c = Checkpoint::read(&ckpt_path).map_err(TrainError::Checkpoint)?;
            if c.fingerprint != fingerprint || c.net.arch != cfg.arch {
                return Err(TrainError::Mismatch);
            }
            first_epoch = c.epochs_done + 1;
            (c.net, c.adam)
        }
        _ => (
            init.cloned()
                .unwrap_or_else(|| FloatNet::new(cfg.arch, cfg.seed)),
            Adam::new(layout.len),
        ),
    };
    let shape = LossShape {
        k,
        lambda: cfg.lambda,
    };
    let batches = data.train.len().div_ceil(cfg.batch) as u64;
    let schedule = Schedule {
        base: cfg.lr,
        warmup: cfg.warmup,
        total: batches * u64::from(cfg.epochs),
        final_fraction: cfg.final_lr,
    };
    events(&TrainEvent::Started {
        k,
        fitted,
        first_epoch,
        batches,
        score_loss: predictor_loss(&data.validation, &shape, |r| f64::from(r.score)),
        hce_loss: predictor_loss(&data.validation, &shape, hce),
    });
    let mut t = Trainer {
        cfg: *cfg,
        layout,
        shape,
        net,
        adam,
        grads: (0..cfg.chunks).map(|_| Gradient::new(&layout)).collect(),
        touched: vec![false; layout.inputs],
        data,
    };
    let mut reports = Vec::new();
    let mut last = None;
    let lots = Lots::new(cfg.seed);
    let last_epoch = until.map_or(cfg.epochs, |u| u.min(cfg.epochs));
    for epoch in first_epoch..=last_epoch {
        let started = Instant::now();
        let mut order: Vec<u32> = (0..t.data.train.len() as u32).collect();
        lots.shuffle(&format!("epoch {epoch}"), &mut order);
        let mut loss_sum = 0.0f64;
        let mut seen = 0usize;
        let mut lr = cfg.lr;
        for (b, idx) in order.chunks(cfg.batch).enumerate() {
            let step = u64::from(epoch - 1) * batches + b as u64;
            lr = schedule.rate(step);
            let batch: Vec<&Record> = idx.iter().map(|&i| &t.data.train[i as usize]).collect();
            loss_sum += t.step(&batch, lr);
            seen += batch.len();
            events(&TrainEvent::Batch {
                epoch,
                done: b as u64 + 1,
                of: batches,
                loss: loss_sum / seen as f64,
                speed: seen as f64 / started.elapsed().as_secs_f64().max(1e-9),
            });
        }
        let seconds = started.elapsed().as_secs_f64();
        let validation_loss = t.loss(&t.data.validation);
        t.checkpoint(epoch, fingerprint)
            .write(&ckpt_path)
            .map_err(TrainError::Checkpoint)?;
        let (q, quantisation) = t.quantise()?;
        let net_path = dir.join(format!("epoch-{epoch}.nnue"));
        std::fs::write(&net_path, q.to_bytes()).map_err(|e| TrainError::Io(net_path.clone(), e))?;
        last = Some((q, quantisation));
        let report = EpochReport {
            epoch,
            train_loss: loss_sum / seen.max(1) as f64,
            validation_loss,
            lr,
            speed: seen as f64 / seconds.max(1e-9),
            seconds,
            net_path,
            quantisation,
        };
        events(&TrainEvent::Epoch(report.clone()));
        reports.push(report);
    }
    // The last epoch's integer net is the final one; a run resumed with no
    // epoch left to train quantises its checkpoint here.
    let (quantised, quantisation) = match last {
        Some(done) => done,
        None => t.quantise()?,
    };
    Ok(Trained {
        net: t.net,
        quantised,
        quantisation,
        k,
        epochs: reports,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::record::Flags;
    use chuhan_engine::core::PlayerResult;
    use chuhan_engine::core::Position;
    use chuhan_engine::eval::nnue::KingBuckets;
    use chuhan_engine::eval::nnue::network::{QA, QB, SCALE};
    use chuhan_engine::eval::{EvalConfig, Knowledge, evaluate};

    /// Positions of random walks labelled by material: the score is the
    /// material-only evaluation, the result follows its sign.
    pub(crate) fn synthetic(n: usize, seed: u64) -> Vec<Record> {
        let lots = Lots::new(seed);
        let cfg = EvalConfig {
            knowledge: Knowledge::Material,
            ..EvalConfig::default()
        };
        let mut out = Vec::new();
        let mut walk = 0u64;
        while out.len() < n {
            let mut pos = Position::startpos();
            let plies = 10 + lots.value("plies", walk) % 70;
            for ply in 0..plies {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let k = lots.value("move", walk * 1000 + ply) as usize % legal.len();
                pos.make_move(legal[k]);
            }
            walk += 1;
            if pos.legal_moves().is_empty() {
                continue;
            }
            let score = evaluate(&pos, &cfg).clamp(-2000, 2000);
            let result = match score {
                s if s > 150 => PlayerResult::Win,
                s if s < -150 => PlayerResult::Loss,
                _ => PlayerResult::Draw,
            };
            out.push(Record::new(&pos, score as i16, result, Flags::default()));
        }
        out
    }

    fn config(threads: usize, epochs: u32) -> TrainConfig {
        TrainConfig {
            arch: Architecture {
                king_buckets: KingBuckets::One,
                hidden: 16,
                output_buckets: 2,
                qa: QA,
                qb: QB,
                scale: SCALE,
            },
            epochs,
            batch: 128,
            lr: 0.01,
            warmup: 5,
            final_lr: 0.1,
            lambda: 0.7,
            k: Some(250.0),
            seed: 3,
            threads,
            chunks: 4,
        }
    }

    fn data() -> Dataset {
        let all = synthetic(5000, 1);
        Dataset {
            train: all[..4500].to_vec(),
            validation: all[4500..].to_vec(),
            games: 0,
            units: 0,
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("chuhan-train-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn loss_falls_and_runs_are_reproducible() {
        let d = data();
        let dir = temp_dir("falls");
        let mut start = None;
        let one = train(&config(1, 6), &d, &dir, false, None, |e| {
            if let TrainEvent::Started { .. } = e {
                start = Some(());
            }
        })
        .unwrap();
        assert!(start.is_some());
        let initial = {
            let t = FloatNet::new(config(1, 6).arch, 3);
            let shape = LossShape {
                k: 250.0,
                lambda: 0.7,
            };
            let mut scratch = Scratch::new(16);
            d.validation
                .iter()
                .map(|r| {
                    let s = Sample::new(r, KingBuckets::One, 2);
                    f64::from(t.loss(&s, &shape, &mut scratch))
                })
                .sum::<f64>()
                / d.validation.len() as f64
        };
        let last = one.epochs.last().unwrap();
        assert!(
            last.validation_loss < 0.6 * initial,
            "validation loss {} from {initial}",
            last.validation_loss
        );
        assert!(one.epochs[0].train_loss > last.train_loss);
        // Three threads give the same bits as one.
        let three = train(&config(3, 6), &d, &temp_dir("three"), false, None, |_| {}).unwrap();
        assert_eq!(three.net, one.net);
        // The quantised net agrees with the float net within the error
        // docs/nnue.md gives: a few percent of the evaluations' size.
        let q = last.quantisation;
        assert!(q.positions > 0);
        assert!(
            q.mean_abs_cp < 0.03 * q.mean_abs_eval_cp && q.max_abs_cp < 50.0,
            "{q:?}"
        );
        let file = Network::load(&last.net_path).unwrap();
        assert_eq!(file, one.quantised);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_run_from_a_trained_net_goes_on_from_it() {
        let d = data();
        let first = train(&config(2, 4), &d, &temp_dir("gen-a"), false, None, |_| {}).unwrap();
        let trained_loss = first.epochs.last().unwrap().validation_loss;
        // The next generation starts from the shipped (integer) net.
        let init = quantise::dequantise(&first.quantised, QB);
        let one = config(2, 1);
        let dir = temp_dir("gen-b");
        let mut start_loss = None;
        let tuned = train_from(Some(&init), &one, &d, &dir, false, None, |e| {
            if let TrainEvent::Epoch(r) = e {
                start_loss = Some(r.train_loss);
            }
        })
        .unwrap();
        let fresh = train(&one, &d, &temp_dir("gen-c"), false, None, |_| {}).unwrap();
        let tuned_loss = tuned.epochs[0].validation_loss;
        assert!(
            tuned_loss < fresh.epochs[0].validation_loss,
            "from the net {tuned_loss}, from scratch {}",
            fresh.epochs[0].validation_loss
        );
        assert!(
            tuned_loss < 1.2 * trained_loss,
            "from the net {tuned_loss}, the net itself {trained_loss}"
        );
        // The run reports its epochs, and its first epoch already fits the
        // data better than a first epoch from random weights.
        let start_loss = start_loss.expect("an epoch event");
        assert_eq!(start_loss, tuned.epochs[0].train_loss);
        assert!(
            start_loss < fresh.epochs[0].train_loss,
            "from the net {start_loss}, from scratch {}",
            fresh.epochs[0].train_loss
        );
        // A checkpoint remembers where the run started.
        let other = FloatNet::new(one.arch, 9);
        assert!(matches!(
            train_from(Some(&other), &one, &d, &dir, true, None, |_| {}),
            Err(TrainError::Mismatch)
        ));
        // A net of another shape is refused.
        let mut wide = config(2, 1);
        wide.arch.hidden = 32;
        assert!(matches!(
            train_from(
                Some(&init),
                &wide,
                &d,
                &temp_dir("gen-d"),
                false,
                None,
                |_| {}
            ),
            Err(TrainError::Settings(_))
        ));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_resumed_run_ends_where_a_straight_run_ends() {
        let d = data();
        let mut cfg = config(2, 3);
        let straight = train(&cfg, &d, &temp_dir("straight"), false, None, |_| {}).unwrap();
        let dir = temp_dir("resumed");
        let first = train(&cfg, &d, &dir, false, Some(2), |_| {}).unwrap();
        assert_eq!(first.epochs.len(), 2);
        let mut epochs = Vec::new();
        let resumed = train(&cfg, &d, &dir, true, None, |e| {
            if let TrainEvent::Epoch(r) = e {
                epochs.push(r.epoch);
            }
        })
        .unwrap();
        assert_eq!(epochs, [3]);
        assert_eq!(resumed.net, straight.net);
        // Other settings refuse the checkpoint.
        cfg.lr = 0.02;
        assert!(matches!(
            train(&cfg, &d, &dir, true, None, |_| {}),
            Err(TrainError::Mismatch)
        ));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
