//! The text form of a Chuhan book, for review and diffs: one entry per line,
//! `BOARD SIDE MOVE WEIGHT [WINS DRAWS LOSSES]`, e.g.
//!
//! ```text
//! rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w h2e2 120 50 30 20
//! ```
//!
//! `BOARD SIDE` are the first two FEN fields; a full FEN with `- - CLOCK MOVE` is also
//! accepted on input. Blank lines and lines starting with `#` are ignored. Moves are
//! ICCS (`h2e2` or `H2-E2`) and must be legal. [`write()`] prints the canonical form
//! (positions in key order, folded, moves heaviest first), so
//! `parse(write(b))` rebuilds `b` exactly.

use super::entry::{BookMove, Wdl};

pub use super::error::{TextError, TextErrorKind};
use super::own::{BookAssembler, OwnBook};
use crate::core::{Move, Position};
use std::fmt::Write;

/// The first line of [`write()`]'s output.
pub const HEADER: &str =
    "# Chuhan opening book, text form: BOARD SIDE MOVE WEIGHT [WINS DRAWS LOSSES]";

impl std::error::Error for TextError {}

fn number(s: &str) -> Result<u32, TextErrorKind> {
    if s.bytes().all(|b| b.is_ascii_digit()) {
        s.parse()
            .map_err(|_| TextErrorKind::Number(s.chars().take(24).collect()))
    } else {
        Err(TextErrorKind::Number(s.chars().take(24).collect()))
    }
}

/// Parses one line; `Ok(None)` for a blank or comment line.
pub fn parse_line(line: &str) -> Result<Option<(Position, BookMove)>, TextErrorKind> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
    let fen_len = if tokens.get(2) == Some(&"-") { 6 } else { 2 };
    let rest = tokens.get(fen_len..).unwrap_or(&[]);
    if rest.len() != 2 && rest.len() != 5 {
        return Err(TextErrorKind::Fields(tokens.len()));
    }
    let pos = Position::from_fen(&tokens[..fen_len].join(" ")).map_err(TextErrorKind::Fen)?;
    let mv: Move = rest[0].parse().map_err(TextErrorKind::Move)?;
    let weight = number(rest[1])?;
    let wdl = match rest {
        [_, _, w, d, l] => Some(Wdl {
            wins: number(w)?,
            draws: number(d)?,
            losses: number(l)?,
        }),
        _ => None,
    };
    Ok(Some((pos, BookMove { mv, weight, wdl })))
}

/// Parses a whole text book (stopping at the first bad line). A leading UTF-8 byte
/// order mark is ignored.
pub fn parse(text: &str) -> Result<OwnBook, TextError> {
    let mut asm = BookAssembler::new();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, line) in text.lines().enumerate() {
        let err = |kind| TextError { line: i + 1, kind };
        if let Some((pos, entry)) = parse_line(line).map_err(err)? {
            asm.add(&pos, entry)
                .map_err(|e| err(TextErrorKind::Entry(e)))?;
        }
    }
    Ok(asm.finish())
}

/// The canonical text form of `book`: [`HEADER`], then one line per move.
pub fn write(book: &OwnBook) -> String {
    let mut out = String::with_capacity(64 * (book.move_count() + 1));
    out.push_str(HEADER);
    out.push('\n');
    for (pos, moves) in book.iter() {
        let fen = pos.to_fen();
        let mut fields = fen.split(' ');
        let board = fields.next().unwrap_or_default();
        let side = fields.next().unwrap_or_default();
        for b in moves {
            // Writing to a String cannot fail.
            let _ = write!(out, "{board} {side} {} {}", b.mv, b.weight);
            if let Some(w) = b.wdl {
                let _ = write!(out, " {} {} {}", w.wins, w.draws, w.losses);
            }
            out.push('\n');
        }
    }
    out
}
