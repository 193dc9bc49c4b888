//! The `chuhan` binary. With no arguments it is the UCCI/UCI daemon on
//! stdin/stdout; with a subcommand it runs one of the tools in [`chuhan::tools`].

use chuhan::tools;
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
    Perft(tools::perft_cmd::PerftArgs),
    /// Search the bench positions to a fixed depth: node count (signature) and speed.
    Bench(tools::bench_cmd::BenchArgs),
    /// Convert moves between ICCS, WXF and Chinese notation, or records (PGN, XQF) to PGN.
    Convert(tools::convert_cmd::ConvertArgs),
    /// Show a position, or a record's position at a ply, as a board (and as SVG).
    Show(tools::show_cmd::ShowArgs),
    /// Opening books: compile, dump, build from games, generate by search, probe.
    Book(tools::book_cmd::BookArgs),
    /// Rule on a game: status, repetition verdict (棋例, CXA 2011 or AXF), legal moves.
    Judge(tools::judge_cmd::JudgeArgs),
    /// Play engines (UCCI or UCI) against each other, refereed by Chuhan's rules:
    /// Elo, SPRT, PGN.
    Match(Box<tools::match_cmd::MatchArgs>),
    /// Run (or resume) an engine tournament from a JSON configuration.
    Tournament(tools::tournament_cmd::TournamentArgs),
    /// Make a balanced opening suite for matches with Chuhan's own analysis.
    Suite(tools::suite_cmd::SuiteArgs),
    /// Tune the evaluation weights on game records (Texel's method).
    Tune(tools::tune_cmd::TuneArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            chuhan::protocol::run_stdio();
            ExitCode::SUCCESS
        }
        Some(Command::Perft(args)) => tools::perft_cmd::run(&args),
        Some(Command::Bench(args)) => tools::bench_cmd::run(&args),
        Some(Command::Convert(args)) => tools::convert_cmd::run(&args),
        Some(Command::Show(args)) => tools::show_cmd::run(&args),
        Some(Command::Book(args)) => tools::book_cmd::run(&args),
        Some(Command::Judge(args)) => tools::judge_cmd::run(&args),
        Some(Command::Match(args)) => tools::match_cmd::run(&args),
        Some(Command::Tournament(args)) => tools::tournament_cmd::run(&args),
        Some(Command::Suite(args)) => tools::suite_cmd::run(&args),
        Some(Command::Tune(args)) => tools::tune_cmd::run(&args),
    }
}
