//! `chuhan train`: trains the neural evaluation on `chuhan datagen` data (see
//! [`chuhan_arena::train`] and `docs/nnue.md`).
//!
//! ```text
//! chuhan train /work/data/gen0 --out runs/gen0 --net gen0.nnue --epochs 20
//! chuhan train /work/data/gen5 --init nets/chuhan.nnue --lr 0.0001 --out runs/gen5 --net gen5.nnue
//! ```
//!
//! Prints the fitted `K`, the validation loss of the search score and of the
//! hand-written evaluation for comparison, then per epoch the training and
//! validation loss, the learning rate, positions per second and the
//! quantisation error; writes `checkpoint.bin` and `epoch-N.nnue` into `--out`
//! after every epoch (`--resume` continues from there) and the final net to
//! `--net`.

use crate::hms::hms;
use chuhan_arena::train::dataset::Dataset;
use chuhan_arena::train::quantise::{QuantReport, dequantise};
use chuhan_arena::train::{self, TrainConfig, TrainEvent};
use chuhan_engine::eval::nnue::KingBuckets;
use chuhan_engine::eval::nnue::network::{Architecture, Network, QA, QB, SCALE};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Arguments of `chuhan train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Data: directories of unit files (`chuhan datagen --out`) or unit files.
    #[arg(required = true, value_name = "DATA")]
    pub data: Vec<PathBuf>,
    /// Directory for the checkpoint and the per-epoch nets.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Write the final quantised net here (also `DIR/final.nnue`).
    #[arg(long, value_name = "FILE")]
    pub net: Option<PathBuf>,
    /// Passes over the training data.
    #[arg(long, default_value_t = 20)]
    pub epochs: u32,
    /// Positions per batch.
    #[arg(long, default_value_t = 16_384)]
    pub batch: usize,
    /// Peak learning rate (Adam).
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Warm-up batches (linear from 0 to the peak).
    #[arg(long, default_value_t = 100)]
    pub warmup: u64,
    /// Final learning rate as a fraction of the peak (cosine decay).
    #[arg(long, default_value_t = 0.05)]
    pub final_lr: f32,
    /// Weight of the search score in the target; the game result gets the rest.
    #[arg(long, default_value_t = 0.75)]
    pub lambda: f32,
    /// Sigmoid scale in centipawns (fitted on the training data without it).
    #[arg(long)]
    pub k: Option<f32>,
    /// Start from this net's weights (a `.nnue` file, e.g. the shipped
    /// `nets/chuhan.nnue`) instead of random ones: the next generation fine-tuned
    /// on new data. The shape is the net's.
    #[arg(long, value_name = "NET", conflicts_with_all = ["hidden", "king_buckets", "output_buckets"])]
    pub init: Option<PathBuf>,
    /// Hidden neurons per perspective.
    #[arg(long, default_value_t = 256)]
    pub hidden: usize,
    /// King buckets: none, ranks (3) or points (6).
    #[arg(long, default_value = "none")]
    pub king_buckets: KingBuckets,
    /// Output buckets by piece count.
    #[arg(long, default_value_t = 1)]
    pub output_buckets: usize,
    /// Share of games held out for validation.
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Use at most this many positions (units in order).
    #[arg(long)]
    pub max_positions: Option<usize>,
    /// Also train on the left-right mirror of every training position with a
    /// king on the centre file (validation positions are not mirrored).
    #[arg(long)]
    pub mirror: bool,
    /// Seed of the initial weights, the shuffles and the validation split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Gradient chunks per batch: results are identical for the same chunks,
    /// whatever the thread count.
    #[arg(long, default_value_t = 16)]
    pub chunks: usize,
    /// Continue from `DIR/checkpoint.bin` (same data and settings).
    #[arg(long)]
    pub resume: bool,
    /// Stop after this epoch (resume later with `--resume`).
    #[arg(long)]
    pub stop_after: Option<u32>,
}

/// Runs `chuhan train`.
pub fn run(args: &TrainArgs) -> ExitCode {
    match train(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn train(args: &TrainArgs) -> Result<(), String> {
    let started = Instant::now();
    let threads = if args.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        args.threads
    };
    let mut data = Dataset::load(&args.data, args.validation, args.seed, args.max_positions)
        .map_err(|(p, e)| format!("{}: {e}", p.display()))?;
    let mirrored = if args.mirror { data.add_mirrored() } else { 0 };
    let init = match &args.init {
        Some(path) => {
            let net = Network::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
            if net.arch.qa != QA || net.arch.scale != SCALE {
                return Err(format!(
                    "{}: QA {} and scale {}, where this trainer uses {QA} and {SCALE}",
                    path.display(),
                    net.arch.qa,
                    net.arch.scale
                ));
            }
            Some(dequantise(&net, QB))
        }
        None => None,
    };
    let arch = match &init {
        Some(net) => net.arch,
        None => Architecture {
            king_buckets: args.king_buckets,
            hidden: args.hidden,
            output_buckets: args.output_buckets,
            qa: QA,
            qb: QB,
            scale: SCALE,
        },
    };
    let mirror_note = if args.mirror {
        format!(" ({mirrored} of them mirrors)")
    } else {
        String::new()
    };
    println!(
        "data: {} units, {} games, {} training{mirror_note} and {} validation positions (loaded in {:.1} s)",
        data.units,
        data.games,
        data.train.len(),
        data.validation.len(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "net: {}, QA {}, QB per net, scale {}; {threads} threads, {} chunks{}",
        arch.shape(),
        arch.qa,
        arch.scale,
        args.chunks,
        args.init.as_ref().map_or(String::new(), |p| format!(
            "; starting from {}",
            p.display()
        ))
    );
    let cfg = TrainConfig {
        arch,
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        warmup: args.warmup,
        final_lr: args.final_lr,
        lambda: args.lambda,
        k: args.k,
        seed: args.seed,
        threads,
        chunks: args.chunks,
    };
    let terminal = std::io::stderr().is_terminal();
    let mut last_line = Instant::now();
    let trained = train::train_from(
        init.as_ref(),
        &cfg,
        &data,
        &args.out,
        args.resume,
        args.stop_after,
        |e| match e {
            TrainEvent::Started {
                k,
                fitted,
                first_epoch,
                batches,
                score_loss,
                hce_loss,
            } => {
                println!(
                    "K = {k:.1} cp{}; lambda {}; {batches} batches of {} per epoch; \
                     validation loss of the search score {score_loss:.5}, of the \
                     hand-written evaluation {hce_loss:.5}",
                    if *fitted { " (fitted)" } else { "" },
                    cfg.lambda,
                    cfg.batch
                );
                if *first_epoch > 1 {
                    println!("resuming at epoch {first_epoch}");
                }
            }
            TrainEvent::Batch {
                epoch,
                done,
                of,
                loss,
                speed,
            } => {
                if terminal && last_line.elapsed() > Duration::from_millis(300) {
                    last_line = Instant::now();
                    eprint!(
                        "\repoch {epoch}: batch {done}/{of}, loss {loss:.5}, {speed:.0} pos/s\x1b[K"
                    );
                }
            }
            TrainEvent::Epoch(r) => {
                if terminal {
                    eprint!("\r\x1b[K");
                }
                let q = &r.quantisation;
                println!(
                    "epoch {:>3}: train {:.5}  validation {:.5}  lr {:.2e}  {:.0} pos/s  {:.1} s  \
                     | quantised: {}  {}",
                    r.epoch,
                    r.train_loss,
                    r.validation_loss,
                    r.lr,
                    r.speed,
                    r.seconds,
                    quantisation(q),
                    r.net_path.display()
                );
            }
        },
    )
    .map_err(|e| e.to_string())?;
    let bytes = trained.quantised.to_bytes();
    let final_path = args.out.join("final.nnue");
    std::fs::write(&final_path, &bytes).map_err(|e| format!("{}: {e}", final_path.display()))?;
    if let Some(p) = &args.net {
        std::fs::write(p, &bytes).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    if let Some(best) = trained
        .epochs
        .iter()
        .min_by(|a, b| a.validation_loss.total_cmp(&b.validation_loss))
    {
        println!(
            "best validation loss {:.5} at epoch {} ({})",
            best.validation_loss,
            best.epoch,
            best.net_path.display()
        );
    }
    println!(
        "final net: {} ({} bytes, quantised: {}){}; {}",
        final_path.display(),
        bytes.len(),
        quantisation(&trained.quantisation),
        args.net
            .as_ref()
            .map_or(String::new(), |p| format!(", also {}", p.display())),
        hms(started.elapsed())
    );
    Ok(())
}

/// `QB …, mean |Δ| … cp, max … cp (mean |eval| … cp)[, N clipped]`: the output
/// scale chosen and how far the integer net is from the float one.
fn quantisation(q: &QuantReport) -> String {
    let clipped = if q.clipped > 0 {
        format!(", {} clipped", q.clipped)
    } else {
        String::new()
    };
    format!(
        "QB {}, mean |Δ| {:.2} cp, max {:.1} cp (mean |eval| {:.0} cp){clipped}",
        q.qb, q.mean_abs_cp, q.max_abs_cp, q.mean_abs_eval_cp
    )
}
