//! The `d` command's board diagram: Chinese piece names, files and ranks, then FEN,
//! key and checkers. (The notation module will supply a shared renderer later; this
//! stays one small function.)

use crate::core::{File, Position, Rank, Square};
use std::fmt::Write as _;

/// The diagram of `pos`, Black at the top, as lines of text.
///
/// ```
/// use chuhan::core::Position;
/// let d = chuhan::protocol::diagram::render(&Position::startpos());
/// assert!(d.contains("車") && d.contains("帥") && d.contains("將"));
/// assert!(d.contains("Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"));
/// ```
pub fn render(pos: &Position) -> String {
    let mut s = String::new();
    for r in (0..10u8).rev() {
        let _ = write!(s, "{r} ");
        for f in 0..9u8 {
            let sq = Square::new(
                File::new(f).expect("file < 9"),
                Rank::new(r).expect("rank < 10"),
            );
            match pos.piece_at(sq) {
                // Red pieces in brackets so the sides differ without colour.
                Some(p) if p.color == crate::core::Color::Red => {
                    let _ = write!(s, "({})", p.chinese());
                }
                Some(p) => {
                    let _ = write!(s, " {} ", p.chinese());
                }
                None => s.push_str(" ＋ "),
            }
        }
        s.push('\n');
        if r == 5 {
            s.push_str("  ~~~~~~~~~~~~ 楚 河  漢 界 ~~~~~~~~~~~~\n");
        }
    }
    s.push_str("    a   b   c   d   e   f   g   h   i\n\n");
    let _ = writeln!(s, "Fen: {}", pos.to_fen());
    let _ = writeln!(s, "Key: {:016X}", pos.key());
    let checkers: Vec<String> = pos
        .checkers()
        .into_iter()
        .map(|sq| format!("{sq}"))
        .collect();
    let _ = write!(s, "Checkers: {}", checkers.join(" "));
    s
}
