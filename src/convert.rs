//! `chuhan convert`: move text from one notation to another, or whole records.
//!
//! * `chuhan convert [--fen FEN] --to iccs|wxf|zh|zh-hans MOVE…` plays the moves
//!   (each in any notation, recognised per move; several may share one argument)
//!   from the position and prints each in the target notation, one per line.
//! * `chuhan convert --pgn IN [--out OUT] [--format iccs|wxf|zh|zh-hans]` reads a
//!   record (PGN, XQF, CCBridge or a move list, recognised from its bytes; UTF-8 or GBK) and
//!   writes PGN (UTF-8, or GBK with `--gbk`).

use chuhan_engine::core::Position;
use chuhan_engine::notation::pgn::{self, WriteOptions};
use chuhan_engine::notation::{self, Notation, Script, charset};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `chuhan convert`.
#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// Moves to convert, in any notation (h2e2, H2-E2, C2.5, 炮二平五...).
    pub moves: Vec<String>,
    /// Position the moves are played from (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Notation to write: iccs, iccs-dash, wxf, zh (traditional) or zh-hans.
    #[arg(long)]
    pub to: Option<Notation>,
    /// A record to convert (PGN, XQF, CCBridge or a move list) instead of moves.
    #[arg(long, value_name = "IN")]
    pub pgn: Option<PathBuf>,
    /// Convert only this game of a multi-game record (1 = the first; default: all).
    #[arg(long, requires = "pgn")]
    pub game: Option<usize>,
    /// Where to write the converted PGN (default or `-`: standard output).
    #[arg(long, value_name = "OUT")]
    pub out: Option<PathBuf>,
    /// Move notation inside the written PGN (default zh; `--to` also works).
    #[arg(long)]
    pub format: Option<Notation>,
    /// Write the PGN in GBK (for older Chinese tools) instead of UTF-8.
    #[arg(long)]
    pub gbk: bool,
    /// Leave comments out of the written PGN.
    #[arg(long)]
    pub no_comments: bool,
    /// Leave variations out of the written PGN.
    #[arg(long)]
    pub no_variations: bool,
    /// Refuse a record with a move that cannot be played, a cut record or a
    /// composed start position, and a composed `--fen` (default: keep what can be
    /// read, with a warning).
    #[arg(long)]
    pub strict: bool,
}

/// Runs `chuhan convert`.
pub fn run(args: &ConvertArgs) -> ExitCode {
    match &args.pgn {
        Some(path) => convert_record(args, path),
        None => convert_moves(args),
    }
}

fn convert_moves(args: &ConvertArgs) -> ExitCode {
    let mut pos = match &args.fen {
        None => Position::startpos(),
        Some(f) => match crate::position_arg::read(f, crate::records::validation(args.strict)) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let to = args
        .to
        .or(args.format)
        .unwrap_or(Notation::Iccs(notation::IccsStyle::Compact));
    if args.moves.is_empty() {
        eprintln!("error: no moves given (or use --pgn FILE to convert a record)");
        return ExitCode::from(2);
    }
    let words = args
        .moves
        .iter()
        .flat_map(|a| a.split(|c: char| c.is_whitespace() || c == ','))
        .filter(|w| !w.is_empty() && !w.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (i, w) in words.enumerate() {
        let mv = match notation::parse_move(&pos, w) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("error: move {}: {e}", i + 1);
                return ExitCode::from(1);
            }
        };
        match to.format(&pos, mv) {
            Ok(text) => {
                if writeln!(out, "{text}").is_err() {
                    return ExitCode::from(2);
                }
            }
            Err(e) => {
                eprintln!("error: move {}: {e}", i + 1);
                return ExitCode::from(1);
            }
        }
        pos.make_move(mv);
    }
    ExitCode::SUCCESS
}

fn convert_record(args: &ConvertArgs, path: &Path) -> ExitCode {
    let read = match crate::records::read(path, crate::records::validation(args.strict)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(n) = args.game {
        return match crate::records::pick(path, read, n) {
            Ok(game) => write_games(args, &[game], 0),
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        };
    }
    if read.is_empty() {
        eprintln!("error: {}: no game in the file", path.display());
        return ExitCode::from(2);
    }
    let mut games = Vec::new();
    let mut failed = 0;
    for (i, r) in read.into_iter().enumerate() {
        match r {
            Ok(g) => games.push(g),
            Err(e) => {
                failed += 1;
                eprintln!("error: {}: game {}: {e}", path.display(), i + 1);
            }
        }
    }
    if games.is_empty() {
        return ExitCode::from(2);
    }
    write_games(args, &games, failed)
}

/// Writes `games` as PGN where `--out` says; `failed` games of the record could
/// not be read (exit status 1 when there are any).
fn write_games(args: &ConvertArgs, games: &[notation::Game], failed: usize) -> ExitCode {
    let opts = WriteOptions {
        notation: args
            .format
            .or(args.to)
            .unwrap_or(Notation::Chinese(Script::Traditional)),
        comments: !args.no_comments,
        variations: !args.no_variations,
    };
    let text = match pgn::write_all(games, &opts) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let bytes = if args.gbk {
        charset::encode_gbk(&text)
    } else {
        text.into_bytes()
    };
    let written = match &args.out {
        Some(p) if p.as_os_str() != "-" => std::fs::write(p, &bytes),
        _ => std::io::stdout().lock().write_all(&bytes),
    };
    if let Err(e) = written {
        match &args.out {
            Some(p) if p.as_os_str() != "-" => eprintln!("error: {}: {e}", p.display()),
            _ => eprintln!("error: standard output: {e}"),
        }
        return ExitCode::from(2);
    }
    eprintln!(
        "{} game(s) converted{}",
        games.len(),
        if failed > 0 {
            format!(", {failed} could not be read")
        } else {
            String::new()
        }
    );
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
