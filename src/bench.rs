//! `chuhan bench [--depth D] [--threads T] [--hash MB] [--rules R] [--eval-file NET |
//! --hce]`: the fixed-depth search of the bench positions with the engine's default
//! evaluation (the built-in net); prints the node count (the signature) and the
//! speed (with another net or the hand-written evaluation: its speed). With `--ebf`, `--ttd` or
//! `--mates` it measures the search's shape instead (see
//! [`chuhan_engine::search::measure`]).

use chuhan_arena::r#match::client::{EngineClient, GameSoFar, Search, Timeouts};
use chuhan_arena::r#match::dialect::GoLimit;
use chuhan_arena::r#match::engine_arg;
use chuhan_engine::core::Position;
use chuhan_engine::eval::nnue::Network;
use chuhan_engine::eval::nnue::builtin::builtin as builtin_net;
use chuhan_engine::search::measure::{self, EBF_FROM_DEPTH, EBF_POSITIONS, EBF_TO_DEPTH};
use chuhan_engine::search::repetition::RepetitionRules;
use chuhan_engine::search::{SearchError, Searcher, bench};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `chuhan bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth in plies (default: 12 for the bench, 16 for --ebf and --ttd).
    #[arg(long)]
    pub depth: Option<i32>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Hash size in MB (default: 16 for the bench, 64 for --ebf, --ttd and --mates,
    /// the daemon's default).
    #[arg(long)]
    pub hash: Option<usize>,
    /// Repetition rules: cxa2011 (the default, and the signature), axf, or draw
    /// (every repetition a draw, to measure what the rules cost).
    #[arg(long, default_value_t = RepetitionRules::default())]
    pub rules: RepetitionRules,
    /// Evaluate with this net instead of the built-in one (the node count is then
    /// not the signature).
    #[arg(long, value_name = "NET", conflicts_with = "hce")]
    pub eval_file: Option<std::path::PathBuf>,
    /// Evaluate with the hand-written evaluation instead of the built-in net (the
    /// node count is then not the signature).
    #[arg(long)]
    pub hce: bool,
    /// Also print the node count and time of each position.
    #[arg(long)]
    pub verbose: bool,
    /// Effective branching factor: nodes to depth 16 over nodes to depth 10, per
    /// ply, on each of four positions (one thread, new game each) and their mean.
    /// `--depth D` measures from D − 6 to D.
    #[arg(long, conflicts_with_all = ["ttd", "mates"])]
    pub ebf: bool,
    /// With --ebf: measure this UCI engine instead (an --engine spec of `chuhan
    /// match`, e.g. "cmd=./pikafish proto=uci option.Threads=1 option.Hash=64").
    #[arg(long, requires = "ebf")]
    pub engine: Option<String>,
    /// Time to depth with --threads T (default 2) against one thread on eight
    /// positions: the median of --repeat runs each, the per-position speedups, their
    /// geometric mean and the worst.
    #[arg(long, conflicts_with = "mates")]
    pub ttd: bool,
    /// Runs per position and thread count for --ttd.
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
    /// The mate suite: each position's reported mate length against the shortest
    /// forced mate. Fails unless every one is found.
    #[arg(long)]
    pub mates: bool,
}

/// Runs the bench (or a measurement) and prints its results.
pub fn run(args: &BenchArgs) -> ExitCode {
    let depth = args.depth.unwrap_or(if args.ebf {
        EBF_TO_DEPTH
    } else if args.ttd {
        measure::TTD_DEFAULT_DEPTH
    } else {
        bench::DEFAULT_DEPTH
    });
    let measuring = args.ebf || args.ttd || args.mates;
    let hash = args.hash.unwrap_or(if measuring { 64 } else { 16 });
    if !(1..=64).contains(&depth) || args.threads == 0 || hash == 0 || args.repeat == 0 {
        eprintln!("error: depth must be 1..64, threads, hash and repeat at least 1");
        return ExitCode::from(2);
    }
    if args.ebf && depth <= EBF_TO_DEPTH - EBF_FROM_DEPTH {
        eprintln!("error: --ebf needs a depth above 6");
        return ExitCode::from(2);
    }
    if let Some(spec) = &args.engine {
        return ebf_external(spec, depth);
    }
    let net = if args.hce {
        None
    } else {
        let loaded = match &args.eval_file {
            Some(file) => Network::load(file).map(Arc::new),
            None => builtin_net(),
        };
        match loaded {
            Ok(net) => Some(net),
            Err(e) => {
                eprintln!("error: cannot load net: {e}");
                return ExitCode::from(2);
            }
        }
    };
    let setup = Setup {
        hash,
        rules: args.rules,
        net,
    };
    let result = if args.ebf {
        ebf(depth, &setup)
    } else if args.ttd {
        ttd(depth, args.threads.max(2), &setup, args.repeat)
    } else if args.mates {
        mates(&setup)
    } else {
        signature(depth, args.threads, &setup, args.verbose)
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// What every searcher of a bench run is set up with.
struct Setup {
    /// Hash size in MB.
    hash: usize,
    /// Repetition rules.
    rules: RepetitionRules,
    /// The net, or `None` for the hand-written evaluation.
    net: Option<Arc<Network>>,
}

fn signature(
    depth: i32,
    threads: usize,
    setup: &Setup,
    verbose: bool,
) -> Result<ExitCode, SearchError> {
    let r = bench::run_with(depth, threads, setup.hash, setup.rules, setup.net.clone())?;
    if verbose {
        for (i, (fen, n)) in bench::POSITIONS.iter().zip(&r.nodes).enumerate() {
            println!("{:>2} {:>10}  {fen}", i + 1, n);
        }
    }
    println!("Time: {:.3} s", r.elapsed.as_secs_f64());
    println!("Nodes searched: {}", r.total_nodes);
    println!("Nodes/second: {}", r.nps());
    Ok(ExitCode::SUCCESS)
}

fn searcher(threads: usize, setup: &Setup) -> Result<Searcher, SearchError> {
    let mut s = Searcher::new();
    s.settings_mut().rules = setup.rules;
    s.settings_mut().use_nnue = setup.net.is_some();
    s.set_net(setup.net.clone());
    s.set_threads(threads)?;
    s.set_hash(setup.hash)?;
    Ok(s)
}

/// Prints one position's line of the branching-factor table and returns its
/// factor.
fn ebf_line(i: usize, from: u64, to: u64, plies: i32) -> f64 {
    let f = measure::ebf(from, to, plies);
    println!("{:>2} {:>12} {:>12} {:>7.3}", i + 1, from, to, f);
    f
}

fn ebf_header(depth: i32) {
    let from = depth - (EBF_TO_DEPTH - EBF_FROM_DEPTH);
    println!(
        "{:>2} {:>12} {:>12} {:>7}",
        "#",
        format!("nodes d{from}"),
        format!("nodes d{depth}"),
        "ebf"
    );
}

fn ebf_mean(factors: &[f64]) -> ExitCode {
    let mean = factors.iter().sum::<f64>() / factors.len().max(1) as f64;
    println!("Mean effective branching factor: {mean:.3}");
    ExitCode::SUCCESS
}

fn ebf(depth: i32, setup: &Setup) -> Result<ExitCode, SearchError> {
    let plies = EBF_TO_DEPTH - EBF_FROM_DEPTH;
    let mut s = searcher(1, setup)?;
    ebf_header(depth);
    let mut factors = Vec::new();
    for (i, fen) in EBF_POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("measurement positions are legal");
        let it = measure::nodes_per_iteration(&mut s, &pos, depth)?;
        let (Some(from), Some(to)) = (
            measure::nodes_at(&it, depth - plies),
            measure::nodes_at(&it, depth),
        ) else {
            println!("{:>2} the search ended before depth {depth}", i + 1);
            continue;
        };
        factors.push(ebf_line(i, from, to, plies));
    }
    Ok(ebf_mean(&factors))
}

/// The branching factor of another engine, searched through its protocol with
/// `go depth D` from `ucinewgame` (UCCI: `setoption newgame`) on each position.
fn ebf_external(spec: &str, depth: i32) -> ExitCode {
    let plies = EBF_TO_DEPTH - EBF_FROM_DEPTH;
    let config = match engine_arg::parse(spec) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: --engine: {e}");
            return ExitCode::from(2);
        }
    };
    let mut client = EngineClient::new(config, "engine", Timeouts::default(), None);
    ebf_header(depth);
    let mut factors = Vec::new();
    for (i, fen) in EBF_POSITIONS.iter().enumerate() {
        if let Err(e) = client.new_game() {
            eprintln!("error: the engine: {e}");
            return ExitCode::from(2);
        }
        let search = Search {
            game: GameSoFar {
                start_fen: fen,
                moves: &[],
                reset_fen: fen,
                reset_at: 0,
            },
            limit: GoLimit::Depth(depth as u32),
            draw_offer: false,
            banned: &[],
            deadline: Duration::from_secs(3_600),
        };
        let thought = client.think(&search);
        let nodes_at = |d: i32| {
            thought
                .iterations
                .iter()
                .rev()
                .find(|l| l.depth == Some(d as u32) && l.nodes.is_some())
                .and_then(|l| l.nodes)
        };
        match (nodes_at(depth - plies), nodes_at(depth)) {
            (Some(from), Some(to)) => factors.push(ebf_line(i, from, to, plies)),
            _ => println!(
                "{:>2} no info line with nodes at depth {} and {depth}",
                i + 1,
                depth - plies
            ),
        }
    }
    client.shutdown();
    ebf_mean(&factors)
}

fn ttd(depth: i32, threads: usize, setup: &Setup, repeat: usize) -> Result<ExitCode, SearchError> {
    let mut one = searcher(1, setup)?;
    let mut many = searcher(threads, setup)?;
    println!("Time to depth {depth}, median of {repeat} runs: 1 thread against {threads}");
    println!(
        "{:>2} {:>10} {:>10} {:>8}",
        "#",
        "1 thread",
        format!("{threads} threads"),
        "speedup"
    );
    let mut speedups = Vec::new();
    for (i, fen) in measure::TTD_POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("measurement positions are legal");
        let mut t1 = Vec::new();
        let mut tn = Vec::new();
        // Interleaved, so that a change in the machine's load hits both alike.
        for _ in 0..repeat {
            t1.push(measure::time_to_depth(&mut one, &pos, depth)?);
            tn.push(measure::time_to_depth(&mut many, &pos, depth)?);
        }
        let (t1, tn) = (measure::median(&mut t1), measure::median(&mut tn));
        let speedup = t1.as_secs_f64() / tn.as_secs_f64().max(1e-6);
        println!(
            "{:>2} {:>8.0}ms {:>8.0}ms {:>8.2}",
            i + 1,
            t1.as_secs_f64() * 1e3,
            tn.as_secs_f64() * 1e3,
            speedup
        );
        speedups.push(speedup);
    }
    let worst = speedups.iter().copied().fold(f64::INFINITY, f64::min);
    println!(
        "Speedup: geometric mean {:.2}, worst {:.2}",
        measure::geometric_mean(&speedups),
        worst
    );
    Ok(ExitCode::SUCCESS)
}

fn mates(setup: &Setup) -> Result<ExitCode, SearchError> {
    let mut s = searcher(1, setup)?;
    let mut solved = 0;
    for (fen, n) in measure::MATES {
        let pos = Position::from_fen(fen).expect("mate positions are legal");
        let found = measure::reported_mate(&mut s, &pos, *n)?;
        let ok = found == Some(*n as i32);
        solved += ok as usize;
        let shown = found.map_or("none".to_string(), |m| format!("mate {m}"));
        println!(
            "{} mate {n:<2} found {shown:<8} {fen}",
            if ok { "ok  " } else { "FAIL" }
        );
    }
    println!("Mates solved: {solved} of {}", measure::MATES.len());
    Ok(if solved == measure::MATES.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
