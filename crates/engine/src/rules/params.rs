//! Every number the rules module uses, in one place: the material scale on which
//! "winning material" (得子) is judged, the bounds of the mate probes, and the
//! natural-limit counts.

use crate::core::{Color, Piece, PieceKind, Square};

/// Rook (車). §1.2: one rook is worth two horses, two cannons or a horse and a cannon.
pub const ROOK: i32 = 10;
/// Horse (馬); §1.2: horse and cannon are of equal value.
pub const HORSE: i32 = 5;
/// Cannon (炮).
pub const CANNON: i32 = 5;
/// Advisor (仕); §1.2: advisors and elephants are equal "weak pieces".
pub const ADVISOR: i32 = 2;
/// Elephant (相).
pub const ELEPHANT: i32 = 2;
/// A pawn across the river. §26.6: its value floats below a rook; a strong piece
/// traded for crossed pawns is no gain, a pawn given for a rook is. With 2 a pawn
/// for a rook nets 8, a strong piece for a pawn loses 3 and a weak piece for a pawn
/// is even, which is how the clause reads.
pub const PAWN_CROSSED: i32 = 2;
/// A pawn on its own side of the river: never a target (§26.6), but it still takes
/// part in exchanges as a defender.
pub const PAWN_HOME: i32 = 1;
/// The king never enters an exchange as material; the value only orders attackers.
pub const KING: i32 = 1000;

/// Depth of the 殺 probe in moves of the attacking side (a checks-only mate search
/// after a pass). 4 catches the deepest mate threat in the rule cases (AXF-OR016,
/// a four-check mate); the rules-notes study found depth 2 enough for most diagrams.
pub const MATE_PROBE_DEPTH: u32 = 4;
/// Node budget of one 殺 probe; a probe that runs out reports "no mate threat".
pub const MATE_PROBE_NODES: u32 = 40_000;
/// Depth (attacker moves) of the "immediately mated" tests: §24.3 (a capture after
/// which the capturer is mated at once is no gain) and §26.9 (accepting an exchange
/// offer and being mated).
pub const IMMEDIATE_MATE_DEPTH: u32 = 1;

/// Most classifications a [`super::ClassCache`] holds before it starts afresh
/// (each is a few hundred bytes).
pub const CLASS_CACHE_ENTRIES: usize = 4096;

/// §4.2.4: sixty moves (120 plies) without a capture is a draw.
pub const SIXTY_MOVE_PLIES: u32 = 120;
/// §22.2: of the claimant's checks at most ten count towards the sixty moves.
pub const COUNTED_CHECKS: u32 = 10;
/// The move rule that Fairy-Stockfish, pyffish and the GUIs and match tools built
/// on them apply to xiangqi: fifty moves (100 plies) without a capture is a draw,
/// less two plies for each check beyond ten by the side that checked more
/// ([`crate::search::repetition::MoveLimit::Gui`]).
pub const FIFTY_MOVE_PLIES: u32 = 100;

/// The value of `piece` standing on `sq` on the rule scale.
///
/// ```
/// use chuhan_engine::core::{Color, Piece, PieceKind, Square};
/// use chuhan_engine::rules::params;
/// let pawn = Piece::new(Color::Red, PieceKind::Pawn);
/// assert_eq!(params::value(pawn, Square::E3), params::PAWN_HOME);
/// assert_eq!(params::value(pawn, Square::E5), params::PAWN_CROSSED);
/// ```
pub fn value(piece: Piece, sq: Square) -> i32 {
    match piece.kind {
        PieceKind::Rook => ROOK,
        PieceKind::Horse => HORSE,
        PieceKind::Cannon => CANNON,
        PieceKind::Advisor => ADVISOR,
        PieceKind::Elephant => ELEPHANT,
        PieceKind::King => KING,
        PieceKind::Pawn => {
            if crossed(piece.color, sq) {
                PAWN_CROSSED
            } else {
                PAWN_HOME
            }
        }
    }
}

/// True if a `color` piece on `sq` stands across the river.
pub fn crossed(color: Color, sq: Square) -> bool {
    match color {
        Color::Red => sq.rank().index() >= 5,
        Color::Black => sq.rank().index() <= 4,
    }
}
