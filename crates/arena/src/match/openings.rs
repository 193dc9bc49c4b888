//! Opening suites: the start positions and forced moves a match cycles through,
//! each played with both colours.
//!
//! A suite file is one of:
//!
//! * **lines**, one opening per line, blank lines and `#` comments skipped:
//!   - a FEN or EPD line (recognised by its `/`): `FEN [moves m1 m2 …]`, also
//!     prefixed `fen` or `position fen`; EPD operations after the four EPD fields
//!     (`bm …; id "…";`) are ignored;
//!   - a move sequence from the start position, in ICCS or any notation the
//!     notation reader knows (`h2e2 h9g7`, `1. C2.5 H8+7`, `炮二平五 馬８進７`,
//!     `position startpos moves h2e2`);
//! * **PGN** (any line starting with `[`): each game's start position and main
//!   line is an opening;
//! * **XQF**: the game's start position and main line.

use crate::game::opening::Opening;
use chuhan_engine::core::Position;
use chuhan_engine::notation::{self, charset, move_list, pgn, xqf};
use std::fmt;
use std::path::Path;

/// Why a suite could not be read.
#[derive(Debug)]
pub enum SuiteError {
    /// The file could not be read.
    Io(std::io::Error),
    /// A line (1-based) is not an opening.
    Line {
        /// The line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// A game of a PGN or XQF file is not an opening.
    Game {
        /// The game number (1-based).
        game: usize,
        /// What is wrong.
        why: String,
    },
    /// The file holds no opening.
    Empty,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::Io(e) => write!(f, "{e}"),
            SuiteError::Line { line, why } => write!(f, "line {line}: {why}"),
            SuiteError::Game { game, why } => write!(f, "game {game}: {why}"),
            SuiteError::Empty => f.write_str("no opening in the file"),
        }
    }
}

impl std::error::Error for SuiteError {}

/// Reads a suite file.
pub fn load(path: &Path) -> Result<Vec<Opening>, SuiteError> {
    read(&std::fs::read(path).map_err(SuiteError::Io)?)
}

/// Reads a suite from the bytes of a file (UTF-8 or GBK text, or XQF).
///
/// ```
/// use chuhan_arena::r#match::openings;
/// let suite = openings::read(
///     b"# two openings\nh2e2 h9g7\n4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - bm e1f2; id \"x\";\n",
/// ).unwrap();
/// assert_eq!(suite.len(), 2);
/// assert_eq!(suite[0].moves().len(), 2);
/// assert_eq!(suite[1].fen(), "4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1");
/// ```
pub fn read(bytes: &[u8]) -> Result<Vec<Opening>, SuiteError> {
    let suite = if bytes.starts_with(b"XQ") {
        let game = xqf::read(bytes).map_err(|e| SuiteError::Game {
            game: 1,
            why: e.to_string(),
        })?;
        vec![from_game(&game).map_err(|why| SuiteError::Game { game: 1, why })?]
    } else {
        let (text, _) = charset::decode(bytes);
        if text.lines().any(|l| l.trim_start().starts_with('[')) {
            from_pgn(&text)?
        } else {
            from_lines(&text)?
        }
    };
    if suite.is_empty() {
        Err(SuiteError::Empty)
    } else {
        Ok(suite)
    }
}

fn from_game(game: &notation::Game) -> Result<Opening, String> {
    let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
    Opening::new(Some(&game.start_fen()), &moves).map_err(|e| e.to_string())
}

fn from_pgn(text: &str) -> Result<Vec<Opening>, SuiteError> {
    pgn::read_all(text)
        .into_iter()
        .enumerate()
        .map(|(i, g)| {
            let err = |why: String| SuiteError::Game { game: i + 1, why };
            let g = g.map_err(|e| err(e.to_string()))?;
            from_game(&g).map_err(err)
        })
        .collect()
}

fn from_lines(text: &str) -> Result<Vec<Opening>, SuiteError> {
    let mut suite = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let opening = if line.contains('/') {
            fen_line(line)
        } else {
            move_list::read(line)
                .map_err(|e| e.to_string())
                .and_then(|g| from_game(&g))
        };
        suite.push(opening.map_err(|why| SuiteError::Line { line: i + 1, why })?);
    }
    Ok(suite)
}

/// `[position] [fen] FEN-or-EPD [moves …]`.
fn fen_line(line: &str) -> Result<Opening, String> {
    let mut words: Vec<&str> = line.split_whitespace().collect();
    if words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("position"))
    {
        words.remove(0);
    }
    if words.first().is_some_and(|w| w.eq_ignore_ascii_case("fen")) {
        words.remove(0);
    }
    let mut fen_end = 1.min(words.len());
    if words
        .get(1)
        .is_some_and(|w| matches!(*w, "w" | "b" | "r" | "W" | "B" | "R"))
    {
        fen_end = 2;
        while fen_end < words.len().min(6)
            && (words[fen_end] == "-" || words[fen_end].parse::<u32>().is_ok())
        {
            fen_end += 1;
        }
    }
    let fen = words[..fen_end].join(" ");
    let mut pos = Position::from_fen(&fen).map_err(|e| format!("bad FEN: {e}"))?;
    let mut moves = Vec::new();
    if words
        .get(fen_end)
        .is_some_and(|w| w.eq_ignore_ascii_case("moves"))
    {
        for text in &words[fen_end + 1..] {
            let m = notation::parse_move(&pos, text).map_err(|e| e.to_string())?;
            pos.make_move(m);
            moves.push(m.to_string());
        }
    }
    Opening::new(Some(&fen), &moves).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_form() {
        let text = "\
# comment line
h2e2 h9g7   # trailing comment

1. C2.5 H8+7 2. H2+3
炮二平五 馬８進７
position startpos moves b2e2
fen 3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1 moves e1f2 d9d8
position fen 3k5/9/9/9/9/9/9/9/4A4/3AK4 b
rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - bm h2e2; id \"start\";
";
        let suite = read(text.as_bytes()).unwrap();
        assert_eq!(suite.len(), 7);
        let moves =
            |i: usize| -> Vec<String> { suite[i].moves().iter().map(|m| m.to_string()).collect() };
        assert_eq!(moves(0), ["h2e2", "h9g7"]);
        assert_eq!(moves(1), ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(moves(2), ["h2e2", "h9g7"]);
        assert_eq!(moves(3), ["b2e2"]);
        assert_eq!(moves(4), ["e1f2", "d9d8"]);
        assert!(suite[5].fen().contains(" b "));
        assert!(moves(6).is_empty());
        assert_eq!(suite[6].fen(), chuhan_engine::core::START_FEN);
    }

    #[test]
    fn pgn_suites() {
        let text = "[Game \"Chinese Chess\"]\n1. 炮二平五 馬８進７ *\n\n\
                    [Game \"Chinese Chess\"]\n[FEN \"3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1\"]\n1. e1f2 *\n";
        let suite = read(text.as_bytes()).unwrap();
        assert_eq!(suite.len(), 2);
        assert_eq!(suite[0].moves().len(), 2);
        assert_eq!(suite[1].moves()[0].to_string(), "e1f2");
    }

    #[test]
    fn errors_name_the_line() {
        let err = read(b"h2e2\nh2e2 h2e2\n").unwrap_err();
        assert!(matches!(err, SuiteError::Line { line: 2, .. }), "{err}");
        let err = read(b"9/9/9 w\n").unwrap_err();
        assert!(matches!(err, SuiteError::Line { line: 1, .. }), "{err}");
        assert!(matches!(read(b"# nothing\n\n"), Err(SuiteError::Empty)));
        // A mated position is no opening.
        let err = read(b"3k5/R8/1R7/9/9/9/9/9/9/4K4 w moves b7b9\n").unwrap_err();
        assert!(err.to_string().contains("no legal move"), "{err}");
    }
}
