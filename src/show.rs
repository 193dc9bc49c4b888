//! `chuhan show [FEN | FILE] [--ply N] [--game N] [--svg OUT]`: a position, or a
//! game's position at a ply, as a Unicode board in the terminal and optionally as
//! an SVG diagram.

use chuhan_engine::core::{GameResult, Move, Position};
use chuhan_engine::diagram::{self, Arrow, ArrowStyle, SvgOptions, TextOptions};
use chuhan_engine::notation::{Game, Notation};
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// When to colour the text board.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorChoice {
    /// When standard output is a terminal.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Arguments of `chuhan show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// A FEN (its fields may be separate arguments), `startpos`, or a record file
    /// (PGN, XQF, CCBridge or move list). Default: the start position.
    pub input: Vec<String>,
    /// The position as FEN (instead of the positional input).
    #[arg(long)]
    pub fen: Option<String>,
    /// Which game of a multi-game file (1 = the first).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// Refuse a record with a move that cannot be played, a cut record or a
    /// composed start position, and a composed FEN (default: keep what can be
    /// read, with a warning).
    #[arg(long)]
    pub strict: bool,
    /// Ply of the game's main line to show (0 = start; default: the end).
    #[arg(long)]
    pub ply: Option<usize>,
    /// Also write the position as an SVG diagram to this file.
    #[arg(long, value_name = "OUT")]
    pub svg: Option<PathBuf>,
    /// Caption under the SVG diagram.
    #[arg(long)]
    pub caption: Option<String>,
    /// Extra arrows on the SVG diagram (moves in ICCS, e.g. h2e2; repeatable).
    #[arg(long = "arrow", value_name = "MOVE")]
    pub arrows: Vec<String>,
    /// Do not mark the move that led to the shown ply.
    #[arg(long)]
    pub no_last: bool,
    /// Notation for the move list printed under the board.
    #[arg(long, default_value = "zh")]
    pub notation: Notation,
    /// Colour the board.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

fn load(args: &ShowArgs) -> Result<(Position, Option<(Game, usize)>), String> {
    if let Some(f) = &args.fen {
        return crate::position_arg::read(f, crate::records::validation(args.strict))
            .map(|p| (p, None))
            .map_err(|e| e.to_string());
    }
    let joined = args.input.join(" ");
    let input = joined.trim();
    if input.is_empty() || input.eq_ignore_ascii_case("startpos") {
        return Ok((Position::startpos(), None));
    }
    if args.input.len() == 1 && Path::new(input).is_file() {
        let path = Path::new(input);
        let games = crate::records::read(path, crate::records::validation(args.strict))?;
        let game = crate::records::pick(path, games, args.game)?;
        let ply = args.ply.unwrap_or(game.ply_count());
        let pos = crate::records::position_at(path, &game, ply)?;
        return Ok((pos, Some((game, ply))));
    }
    crate::position_arg::read(input, crate::records::validation(args.strict))
        .map(|p| (p, None))
        .map_err(|e| format!("{e} (and no file named {input:?})"))
}

/// The main line up to `ply`, numbered, in `notation`.
fn move_list(game: &Game, ply: usize, notation: Notation) -> String {
    let mut pos = game.start.clone();
    let mut out = String::new();
    for (i, n) in game.line.nodes.iter().take(ply).enumerate() {
        let Ok(text) = notation.format(&pos, n.mv) else {
            break;
        };
        if pos.side_to_move() == chuhan_engine::core::Color::Red || i == 0 {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&pos.fullmove().to_string());
            out.push_str(if pos.side_to_move() == chuhan_engine::core::Color::Red {
                ". "
            } else {
                "... "
            });
        } else {
            out.push(' ');
        }
        out.push_str(&text);
        pos.make_move(n.mv);
    }
    out
}

/// Runs `chuhan show`.
pub fn run(args: &ShowArgs) -> ExitCode {
    let (pos, game) = match load(args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let last: Option<Move> = if args.no_last {
        None
    } else {
        game.as_ref()
            .and_then(|(g, ply)| ply.checked_sub(1).map(|i| g.line.nodes[i].mv))
    };
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => std::io::stdout().is_terminal(),
    };
    print!(
        "{}",
        diagram::text_with(
            &pos,
            &TextOptions {
                color,
                last_move: last
            }
        )
    );
    println!("FEN: {}", pos.to_fen());
    println!("To move: {}", pos.side_to_move());
    if let Some((g, ply)) = &game {
        for key in ["Event", "Date", "Red", "Black"] {
            if let Some(v) = g.tag(key) {
                println!("{key}: {v}");
            }
        }
        println!(
            "Ply {ply} of {}, result {}",
            g.ply_count(),
            GameResult::pgn_or_unknown(g.result)
        );
        if *ply > 0 {
            println!("Moves: {}", move_list(g, *ply, args.notation));
        }
    }
    if let Some(path) = &args.svg {
        let mut arrows = Vec::new();
        if let Some(m) = last {
            arrows.push(Arrow::new(m, ArrowStyle::Blue));
        }
        for a in &args.arrows {
            match a.parse::<Move>() {
                Ok(m) if m.is_some() => arrows.push(Arrow::new(m, ArrowStyle::Red)),
                _ => {
                    eprintln!("error: --arrow {a:?}: expected ICCS coordinates like h2e2");
                    return ExitCode::from(2);
                }
            }
        }
        let opts = SvgOptions {
            arrows,
            caption: args.caption.clone(),
            ..SvgOptions::default()
        };
        if let Err(e) = std::fs::write(path, diagram::svg(&pos, &opts)) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
