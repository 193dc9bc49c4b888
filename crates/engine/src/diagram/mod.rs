//! Board pictures: a Unicode text board for terminals ([`text`], [`text_with`]) and
//! an SVG diagram ([`svg`]) with optional move arrows and a caption, and the diagram
//! of an arbiter's ruling ([`ruling`]).
//!
//! Both follow the printed convention of the 2011 rules (art. 1.3): Red at the
//! bottom, the river 楚河 漢界 across the middle, the palaces drawn with their
//! diagonals. Every piece has its own character, so the colours can be told apart
//! without colour: Red 帥 仕 相 傌 俥 炮 兵, Black 將 士 象 馬 車 砲 卒.

mod ruling;
mod svg;
mod text;

pub use ruling::ruling;
pub use svg::{Arrow, ArrowStyle, SvgOptions, svg};
pub use text::{TextOptions, text, text_with};

use crate::core::{Color, Piece, PieceKind};

/// The character a diagram draws for `piece` (distinct for every coloured piece).
///
/// ```
/// use chuhan_engine::core::{Color, Piece, PieceKind};
/// use chuhan_engine::diagram::glyph;
/// assert_eq!(glyph(Piece::new(Color::Red, PieceKind::Rook)), '俥');
/// assert_eq!(glyph(Piece::new(Color::Black, PieceKind::Cannon)), '砲');
/// ```
pub fn glyph(piece: Piece) -> char {
    use PieceKind::*;
    match (piece.color, piece.kind) {
        (Color::Red, King) => '帥',
        (Color::Red, Advisor) => '仕',
        (Color::Red, Elephant) => '相',
        (Color::Red, Horse) => '傌',
        (Color::Red, Rook) => '俥',
        (Color::Red, Cannon) => '炮',
        (Color::Red, Pawn) => '兵',
        (Color::Black, King) => '將',
        (Color::Black, Advisor) => '士',
        (Color::Black, Elephant) => '象',
        (Color::Black, Horse) => '馬',
        (Color::Black, Rook) => '車',
        (Color::Black, Cannon) => '砲',
        (Color::Black, Pawn) => '卒',
    }
}
