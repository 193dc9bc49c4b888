//! Static exchange evaluation: the material outcome of the capture sequence on one
//! square, each side recapturing with its least valuable piece and free to stop.
//!
//! Attackers are recomputed from the changing occupancy after every capture, so
//! cannon screens that appear or vanish and horse legs that open are seen. Pins are
//! ignored; a king recaptures only onto an undefended square.

use crate::core::{Move, PieceKind, Position};
use crate::search::params::SEE_VALUE;
use crate::search::score::Value;

/// SEE value of a piece kind.
#[inline(always)]
pub fn value(kind: PieceKind) -> Value {
    SEE_VALUE[kind.index()]
}

/// The exchange value of `m` for the side to move.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::search::see;
/// // The rook takes an undefended pawn.
/// let pos = Position::from_fen("3k5/9/9/9/6p2/9/9/9/9/4K1R2 w").unwrap();
/// assert_eq!(see::see(&pos, "g0g5".parse().unwrap()), 100);
/// ```
pub fn see(pos: &Position, m: Move) -> Value {
    let (from, to) = (m.from(), m.to());
    let Some(mover) = pos.piece_at(from) else {
        return 0;
    };
    let mut gain = [0 as Value; 40];
    gain[0] = pos.piece_at(to).map_or(0, |p| value(p.kind));
    let mut occ = pos.occupied().without(from).with(to);
    let mut on_square = mover.kind;
    let mut side = !mover.color;
    let mut d = 0;
    loop {
        d += 1;
        gain[d] = value(on_square) - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 || d + 1 >= gain.len() {
            break;
        }
        let atts = pos.attackers_to(to, occ) & pos.color(side) & occ;
        if atts.is_empty() {
            break;
        }
        // Least valuable attacker.
        let mut best: Option<(Value, PieceKind, crate::core::Square)> = None;
        for sq in atts {
            let k = pos.piece_at(sq).map_or(PieceKind::King, |p| p.kind);
            let v = value(k);
            if best.is_none_or(|b| v < b.0) {
                best = Some((v, k, sq));
            }
        }
        let (_, kind, sq) = best.expect("non-empty attackers");
        if kind == PieceKind::King {
            let defenders = pos.attackers_to(to, occ.without(sq)) & pos.color(!side) & occ;
            if defenders.any() {
                break;
            }
        }
        occ = occ.without(sq);
        on_square = kind;
        side = !side;
    }
    while d > 1 {
        d -= 1;
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
    }
    gain[0]
}

/// True if the exchange value of `m` is at least `threshold`.
#[inline]
pub fn see_ge(pos: &Position, m: Move, threshold: Value) -> bool {
    see(pos, m) >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(fen: &str, m: &str) -> Value {
        see(&Position::from_fen(fen).unwrap(), m.parse().unwrap())
    }

    #[test]
    fn exchanges() {
        // Rook takes a pawn defended by a pawn: loses the rook for a pawn.
        assert_eq!(s("3k5/9/9/9/9/4pp3/9/9/9/4KR3 w", "f0f4"), 100 - 900);
        // Cannon takes a horse over a screen; the rook may recapture but the pawn
        // would take it back, so black stops.
        assert_eq!(s("3k5/9/9/9/4r4/9/4n4/4B4/3NC4/5K3 w", "e1e3"), 420);
        // Horse takes an undefended rook.
        assert_eq!(s("5k3/9/9/9/9/9/9/5r3/9/3K2N2 w", "g0f2"), 900);
        // A quiet move onto a square attacked by a pawn loses the piece.
        assert_eq!(s("4k4/9/9/9/9/4p4/9/9/9/3K1R3 w", "f0f4"), -900 + 900 - 900);
    }

    #[test]
    fn cannon_screen_appears() {
        // The rook takes the pawn on e4; the pawn on e6 becomes the black cannon's
        // screen and the cannon recaptures.
        assert_eq!(s("5k3/4c4/9/4p4/9/4p4/9/9/9/3KR4 w", "e0e4"), 100 - 900);
        // Without the screen the cannon cannot recapture.
        assert_eq!(s("5k3/4c4/9/9/9/4p4/9/9/9/3KR4 w", "e0e4"), 100);
    }
}
