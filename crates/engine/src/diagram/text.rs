//! The Unicode text board.
//!
//! Layout, for a terminal with a monospaced font where CJK characters take two
//! columns and box-drawing characters one: every point sits at a multiple of four
//! columns; a piece is drawn as its character, an empty point as a box-drawing
//! junction (╳ at the palace centres). Black's file numbers 1…9 run along the top,
//! Red's 九…一 and the ICCS letters a…i along the bottom, the ICCS ranks down the
//! right-hand side.

use super::glyph;
use crate::core::{Color, Move, Position, Square};

/// Options of [`text_with`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextOptions {
    /// Colour the pieces with ANSI escapes (red for Red, bold for Black).
    pub color: bool,
    /// With `color`, show this move's two points in inverse video.
    pub last_move: Option<Move>,
}

/// The board as Unicode text, no colour.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::diagram;
/// let t = diagram::text(&Position::startpos());
/// assert!(t.contains("車──馬──象──士──將──士──象──馬──車"));
/// assert!(t.contains("俥──傌──相──仕──帥──仕──相──傌──俥"));
/// assert!(t.contains("楚 河") && t.contains("漢 界"));
/// assert_eq!(t.lines().count(), 22);
/// ```
pub fn text(pos: &Position) -> String {
    text_with(pos, &TextOptions::default())
}

fn junction(file: usize, rank: usize) -> char {
    let edge = |left: char, mid: char, right: char| match file {
        0 => left,
        8 => right,
        _ => mid,
    };
    match rank {
        9 => edge('┌', '┬', '┐'),
        0 => edge('└', '┴', '┘'),
        5 => edge('├', '┴', '┤'),
        4 => edge('├', '┬', '┤'),
        8 | 1 if file == 4 => '╳',
        _ => edge('├', '┼', '┤'),
    }
}

/// The gap (three columns) right of `file` between `upper` and `upper - 1`: the
/// palace diagonals, or blank.
fn gap(file: usize, upper: usize) -> &'static str {
    match (upper, file) {
        (9 | 2, 3) | (8 | 1, 4) => " ╲ ",
        (9 | 2, 4) | (8 | 1, 3) => " ╱ ",
        _ => "   ",
    }
}

/// The board as Unicode text, with options.
pub fn text_with(pos: &Position, opts: &TextOptions) -> String {
    let mut s = String::with_capacity(1600);
    s.push(' ');
    for f in 1..=9 {
        s.push(char::from_digit(f, 10).unwrap_or('?'));
        if f < 9 {
            s.push_str("   ");
        }
    }
    s.push('\n');
    let marked = |sq: Square| {
        opts.color
            && opts
                .last_move
                .is_some_and(|m| m.is_some() && (m.from() == sq || m.to() == sq))
    };
    for rank in (0..10usize).rev() {
        s.push(' ');
        for file in 0..9usize {
            let sq = Square::ALL[rank * 9 + file];
            let inverse = marked(sq);
            let piece = pos.piece_at(sq);
            let colour = match piece {
                Some(p) if opts.color && p.color == Color::Red => "\x1b[31m",
                Some(_) if opts.color => "\x1b[1m",
                _ => "",
            };
            if inverse {
                s.push_str("\x1b[7m");
            }
            s.push_str(colour);
            match piece {
                Some(p) => s.push(glyph(p)),
                None => {
                    s.push(junction(file, rank));
                    s.push(if file < 8 { '─' } else { ' ' });
                }
            }
            if inverse || !colour.is_empty() {
                s.push_str("\x1b[0m");
            }
            if file < 8 {
                s.push_str("──");
            }
        }
        s.push_str("  ");
        s.push(char::from_digit(rank as u32, 10).unwrap_or('?'));
        s.push('\n');
        if rank == 0 {
            break;
        }
        s.push(' ');
        if rank == 5 {
            s.push('│');
            s.push_str("    楚 河             漢 界    ");
            s.push('│');
        } else {
            for file in 0..9usize {
                s.push('│');
                if file < 8 {
                    s.push_str(gap(file, rank));
                }
            }
        }
        s.push('\n');
    }
    s.push(' ');
    for f in 0..9u8 {
        s.push((b'a' + f) as char);
        if f < 8 {
            s.push_str("   ");
        }
    }
    s.push('\n');
    s.push(' ');
    for (i, n) in ['九', '八', '七', '六', '五', '四', '三', '二', '一']
        .iter()
        .enumerate()
    {
        s.push(*n);
        if i < 8 {
            s.push_str("  ");
        }
    }
    s.push('\n');
    s
}
