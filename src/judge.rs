//! `chuhan judge [--fen FEN] [--moves "m1 m2 …" | --pgn FILE [--game N]]
//! [--rules cxa2011|axf] [--json] [--svg OUT]`: rules on a game — status, winner,
//! the latest three-fold repetition with every cycle move classified (將/殺/捉/閒)
//! and the articles applied, and a verdict (`none`/`draw`/`ban`) for each legal move
//! of the side to move. The game comes from a FEN and moves, or from a record (PGN,
//! XQF or move list, read by [`record::read_all`]); `--svg` draws the ruled cycle.

use chuhan_engine::core::{FenNote, Position};
use chuhan_engine::diagram;
use chuhan_engine::notation::replay;
use chuhan_engine::rules::{Judgement, RuleSet, judge_position};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `chuhan judge`.
#[derive(clap::Args, Debug)]
pub struct JudgeArgs {
    /// Starting position in FEN (default: the start position).
    #[arg(long, conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// The moves played from it, separated by spaces, in any notation (ICCS
    /// `h2e2`, WXF `C2.5`, Chinese 炮二平五; a line may mix them).
    #[arg(long, default_value = "", conflicts_with = "pgn")]
    pub moves: String,
    /// Judge the main line of a game record instead (PGN, XQF, CCBridge or a move list).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Which game of a multi-game record (1 = the first).
    #[arg(long, default_value_t = 1, requires = "pgn")]
    pub game: usize,
    /// Refuse a record with a move that cannot be played, a cut record or a
    /// composed start position, and a composed `--fen` (default: keep what can be
    /// read, with a warning).
    #[arg(long)]
    pub strict: bool,
    /// Rule set: cxa2011 (the Chinese Xiangqi Association's 2011 rules) or axf.
    #[arg(long, default_value_t = RuleSet::Cxa2011)]
    pub rules: RuleSet,
    /// Print the ruling as one line of JSON instead of a readable report.
    #[arg(long)]
    pub json: bool,
    /// Also draw the ruled cycle as an SVG diagram into this file: the position
    /// where its last period starts, the period's moves as arrows numbered in order
    /// (the violator's in red, moves between the same two points sharing one label
    /// such as `1/3`) and the ruling as the caption; without a cycle, the final
    /// position with the last move.
    #[arg(long, value_name = "OUT")]
    pub svg: Option<PathBuf>,
}

/// Why the game could not be judged: the message, the ply at fault (0 when no
/// move is to blame) and, for a line that cannot be replayed, its kind
/// ([`chuhan_engine::notation::ReplayError::kind`]).
struct Failure {
    message: String,
    ply: usize,
    kind: Option<&'static str>,
}

impl Failure {
    fn new(message: String) -> Failure {
        Failure {
            message,
            ply: 0,
            kind: None,
        }
    }
}

/// The final position of the game to judge (its history is the game) and the
/// ruling.
fn load(args: &JudgeArgs) -> Result<(Position, Judgement, Vec<FenNote>), Failure> {
    let Some(path) = &args.pgn else {
        let moves: Vec<&str> = args.moves.split_whitespace().collect();
        let validation = crate::records::validation(args.strict);
        let line = replay(args.fen.as_deref(), &moves, validation).map_err(|e| Failure {
            message: e.to_string(),
            ply: e.ply(),
            kind: Some(e.kind()),
        })?;
        crate::position_arg::warn(&line.warnings);
        let j = judge_position(&line.position, args.rules);
        return Ok((line.position, j, line.warnings));
    };
    // Every game is read (a broken one elsewhere in the file does not matter).
    let games = crate::records::read(path, crate::records::validation(args.strict))
        .map_err(Failure::new)?;
    let game = crate::records::pick(path, games, args.game).map_err(Failure::new)?;
    let pos = crate::records::position_at(path, &game, game.ply_count()).map_err(Failure::new)?;
    let j = judge_position(&pos, args.rules);
    Ok((pos, j, Vec::new()))
}

/// Judges the game and prints the ruling. A game that cannot be read or played
/// prints `{"error": "…", "ply": N}` (with `"kind"` for a `--fen`/`--moves` line
/// that cannot be replayed, as [`chuhan_engine::notation::ReplayError::to_json`])
/// and exits with code 2.
pub fn run(args: &JudgeArgs) -> ExitCode {
    let (end, j, warnings) = match load(args) {
        Ok(x) => x,
        Err(f) => {
            let mut v = serde_json::json!({"error": f.message, "ply": f.ply});
            if let Some(kind) = f.kind {
                v["kind"] = kind.into();
            }
            println!("{v}");
            if !args.json {
                eprintln!("error: {}", f.message);
            }
            return ExitCode::from(2);
        }
    };
    if let Some(path) = &args.svg
        && let Err(e) = std::fs::write(path, diagram::ruling(&end, &j))
    {
        eprintln!("error: {}: {e}", path.display());
        return ExitCode::from(2);
    }
    if args.json {
        println!("{}", j.to_json_line_warning(&warnings));
    } else {
        for line in j.report_lines() {
            println!("{line}");
        }
    }
    ExitCode::SUCCESS
}
