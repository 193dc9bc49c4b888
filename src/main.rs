//! The `chuhan` binary. With no arguments it is the UCCI/UCI daemon on
//! stdin/stdout; with a subcommand it runs one of the tools, one module per subcommand.
//! The engine lives in the `chuhan_engine` crate, everything that drives engines in
//! `chuhan_arena`; this crate only parses arguments and prints.

mod bench;
mod book;
mod convert;
mod cycles;
mod datagen;
mod hms;
mod judge;
mod limit_args;
mod r#match;
mod output;
mod perft;
mod position_arg;
mod records;
mod serve;
mod show;
mod spsa;
mod suite;
mod tournament;
mod train;
mod tune;
mod unit_args;
mod wdl;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "chuhan",
    version,
    about = "Chuhan (楚漢), a xiangqi engine. Without a subcommand: the UCCI/UCI daemon."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (move-generator test and benchmark).
    Perft(perft::PerftArgs),
    /// Search the bench positions to a fixed depth: node count (signature) and speed.
    Bench(bench::BenchArgs),
    /// Convert moves between ICCS, WXF and Chinese notation, or records (PGN, XQF, CCBridge) to PGN.
    Convert(convert::ConvertArgs),
    /// Show a position, or a record's position at a ply, as a board (and as SVG).
    Show(show::ShowArgs),
    /// Opening books: compile, dump, build from games, generate by search, probe.
    Book(book::BookArgs),
    /// Rule on a game: status, repetition verdict (棋例, CXA 2011 or AXF), legal moves.
    Judge(judge::JudgeArgs),
    /// Generate repetition games ruled under both rule sets, as JSON lines (for
    /// differential testing of the 棋例).
    Cycles(cycles::CyclesArgs),
    /// The HTTP rules service and web page for arbiters (JSON API, diagrams,
    /// analysis, the cloud database's queryrule).
    Serve(serve::ServeArgs),
    /// Play engines (UCCI or UCI) against each other, refereed by Chuhan's rules:
    /// Elo, SPRT, PGN.
    Match(Box<r#match::MatchArgs>),
    /// Run (or resume) an engine tournament from a JSON configuration.
    Tournament(tournament::TournamentArgs),
    /// Make a balanced opening suite for matches with Chuhan's own analysis.
    Suite(suite::SuiteArgs),
    /// Tune the evaluation weights on game records (Texel's method).
    Tune(tune::TuneArgs),
    /// Tune the search parameters by games between two settings of one engine (SPSA).
    Spsa(Box<spsa::SpsaArgs>),
    /// Self-play training data for the neural evaluation, in resumable work units.
    Datagen(Box<datagen::DatagenArgs>),
    /// Train the neural evaluation (NNUE) on datagen data, on every core.
    Train(Box<train::TrainArgs>),
    /// Fit the win/draw/loss model (UCI_ShowWDL) to datagen data.
    Wdl(wdl::WdlArgs),
}

/// Lets a tool that only writes its results end quietly when the reader of its output
/// goes away (`chuhan datagen --stats gen4 | head`), as Unix tools do, instead of
/// panicking or reporting the broken pipe. Rust starts every program with SIGPIPE
/// ignored; this puts back the default action. The daemon, `serve`, `bench` (which can
/// drive another engine), `match`, `tournament` and `spsa` keep it ignored: they write to
/// engines and clients that may go away and handle those errors themselves.
/// Off Unix there is no SIGPIPE: a closed pipe is an error the writer sees.
fn end_quietly_on_closed_output() {
    // SAFETY: called once at start-up, before any other thread exists; setting a
    // signal's action to its default has no other effect on the program's state.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if matches!(
        cli.command,
        Some(
            Command::Perft(_)
                | Command::Convert(_)
                | Command::Show(_)
                | Command::Book(_)
                | Command::Judge(_)
                | Command::Cycles(_)
                | Command::Suite(_)
                | Command::Tune(_)
                | Command::Datagen(_)
                | Command::Train(_)
                | Command::Wdl(_)
        )
    ) {
        end_quietly_on_closed_output();
    }
    match cli.command {
        None => {
            chuhan_engine::protocol::run_stdio();
            ExitCode::SUCCESS
        }
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Convert(args)) => convert::run(&args),
        Some(Command::Show(args)) => show::run(&args),
        Some(Command::Book(args)) => book::run(&args),
        Some(Command::Judge(args)) => judge::run(&args),
        Some(Command::Cycles(args)) => cycles::run(&args),
        Some(Command::Serve(args)) => serve::run(&args),
        Some(Command::Match(args)) => r#match::run(&args),
        Some(Command::Tournament(args)) => tournament::run(&args),
        Some(Command::Suite(args)) => suite::run(&args),
        Some(Command::Tune(args)) => tune::run(&args),
        Some(Command::Spsa(args)) => spsa::run(&args),
        Some(Command::Datagen(args)) => datagen::run(&args),
        Some(Command::Train(args)) => train::run(&args),
        Some(Command::Wdl(args)) => wdl::run(&args),
    }
}
