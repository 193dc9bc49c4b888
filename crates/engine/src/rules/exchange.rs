//! Exchange arithmetic on one point: what a capture wins once the other side has
//! taken back (§24.3 "通過完整互吃交換後…得子", §24.15 少根子, §24.16 假根, §26.5).
//!
//! Every capture in a sequence must be legal for its side (a pinned or otherwise
//! unable defender is a 假根 and simply does not take part), and each side may stop
//! exchanging when continuing would lose.
//!
//! Each function takes an `ignore` set: pieces whose attacks on a king do not count
//! when judging legality — the pieces giving check right now. A check must be
//! answered before anything is captured, so the question "is this piece protected?"
//! is asked as if the check were out of the way (XBoard's rule: the check "in real
//! life is evaded before we capture").

use super::params;
use crate::core::{Bitboard, Color, PieceKind, Placement, Square};

/// True if the piece on `from` may legally move to `to` for its owner, whoever is
/// to move, not counting attacks on its king by the enemy pieces in `ignore`. The
/// piece's movement rules are not checked (callers know it reaches `to`); a move
/// onto a piece of its own side or onto a king is never legal.
#[inline]
pub fn legal(board: &Placement, from: Square, to: Square, ignore: Bitboard) -> bool {
    let Some(p) = board.piece_at(from) else {
        return false;
    };
    if let Some(v) = board.piece_at(to)
        && (v.color == p.color || v.kind == PieceKind::King)
    {
        return false;
    }
    board.leaves_king_safe(p.color, from, to, ignore)
}

/// The rule value of the piece on `sq` (0 if empty).
#[inline]
pub fn value_at(board: &Placement, sq: Square) -> i32 {
    board.piece_at(sq).map_or(0, |p| params::value(p, sq))
}

/// The least valuable piece of `side` that can legally capture on `sq`.
pub fn least_attacker(
    board: &Placement,
    sq: Square,
    side: Color,
    ignore: Bitboard,
) -> Option<Square> {
    let mut atts = board.attackers(sq, side, board.occupied());
    let mut best: Option<(i32, Square)> = None;
    while atts.any() {
        let a = atts.pop_lsb();
        let v = value_at(board, a);
        if best.is_some_and(|(bv, _)| bv <= v) {
            continue;
        }
        if legal(board, a, sq, ignore) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a)
}

/// True if `side` has any legal capture on `sq`.
pub fn can_capture(board: &Placement, sq: Square, side: Color, ignore: Bitboard) -> bool {
    let mut atts = board.attackers(sq, side, board.occupied());
    while atts.any() {
        let a = atts.pop_lsb();
        if legal(board, a, sq, ignore) {
            return true;
        }
    }
    false
}

/// Static exchange evaluation: the best material result for `side` of capturing on
/// `sq` (the piece there belongs to the other side) and exchanging on, each side
/// taking with its least valuable legal attacker and free to stop. Never negative.
pub fn see(board: &mut Placement, sq: Square, side: Color, ignore: Bitboard) -> i32 {
    let Some(a) = least_attacker(board, sq, side, ignore) else {
        return 0;
    };
    let gain = value_at(board, sq);
    let captured = board.move_piece(a, sq);
    let rest = see(board, sq, !side, ignore);
    board.unmove_piece(a, sq, captured);
    (gain - rest).max(0)
}

/// What a capture `from`x`to` is worth to its side, three ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaptureWorth {
    /// The capturer's net if only the capturing piece takes part: the victim's value,
    /// minus the capturer's if the other side can legally take back.
    pub single: i32,
    /// The net of the full exchange on the point, every piece of both sides joining
    /// in (so two attackers against one root show a gain: 少根子, 聯合捉).
    pub joint: i32,
    /// The most the other side wins elsewhere because the capturer left its point:
    /// a piece it protected or screened is now en prise (§26.5, "做根子… 被牽子").
    pub exposure: i32,
    /// True if the other side can legally take back on the point at all (有根).
    pub rooted: bool,
}

/// Evaluates the capture `from`x`to` (which must be legal for its side).
pub fn worth(board: &mut Placement, from: Square, to: Square, ignore: Bitboard) -> CaptureWorth {
    let side = board.piece_at(from).expect("a capturer").color;
    let them = !side;
    let victim = value_at(board, to);
    let attacker = value_at(board, from);
    // Pieces of ours the capture might expose: everything but the king and the
    // capturer, looked at only where their attackers change.
    let occ_before = board.occupied();
    let captured = board.move_piece(from, to);
    let occ_after = board.occupied();
    let rooted = can_capture(board, to, them, ignore);
    let joint = victim - see(board, to, them, ignore);
    let single = if rooted { victim - attacker } else { victim };
    let mut after = Vec::new();
    for p in board.color(side) - board.pieces(side, PieceKind::King) - Bitboard::from(to) {
        let changed = board.attackers(p, them, occ_after) != board.attackers(p, them, occ_before)
            || board.attackers(p, side, occ_after) != board.attackers(p, side, occ_before);
        if changed || aligned(from, p) {
            let s = see(board, p, them, ignore);
            if s > 0 {
                after.push((p, s));
            }
        }
    }
    board.unmove_piece(from, to, captured);
    let mut exposure = 0;
    for (p, s) in after {
        if s > exposure {
            let before = see(board, p, them, ignore);
            exposure = exposure.max(s - before);
        }
    }
    CaptureWorth {
        single,
        joint,
        exposure,
        rooted,
    }
}

/// True if `p` shares a rank or file with `from`: the piece leaving `from` may have
/// pinned or screened it, which changes legality without changing attacker sets.
fn aligned(from: Square, p: Square) -> bool {
    crate::core::attacks::line(from, p).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Position;

    fn board(fen: &str) -> Placement {
        Position::from_fen(fen).unwrap().placement().clone()
    }

    #[test]
    fn see_counts_roots_and_attackers() {
        // A black cannon on e5 protected by the rook on e9; red rook e3 takes it and
        // is taken back: a loss, so SEE is 0.
        let mut b = board("3kr4/9/9/9/4c4/9/4R4/9/9/5K3 w");
        assert_eq!(see(&mut b, Square::E5, Color::Red, Bitboard::EMPTY), 0);
        // Unprotected cannon: SEE = 5.
        let mut b = board("3k5/9/9/9/4c4/9/4R4/9/9/5K3 w");
        assert_eq!(
            see(&mut b, Square::E5, Color::Red, Bitboard::EMPTY),
            params::CANNON
        );
        // Horse takes a protected rook: 10 - 5.
        let mut b = board("3k5/4r4/9/9/4r4/9/3N5/9/9/5K3 w");
        let o = worth(&mut b, Square::D3, Square::E5, Bitboard::EMPTY);
        assert_eq!(o.single, params::ROOK - params::HORSE);
        assert!(o.rooted);
    }

    #[test]
    fn pinned_defender_is_a_false_root() {
        // The black horse on e7 "protects" d5 but is pinned against its king by the
        // red rook on e0 (moving it would expose e9 to the rook): 假根.
        let mut b = board("4k4/9/4n4/9/3c5/9/3R5/9/9/4RK3 w");
        let o = worth(&mut b, Square::D3, Square::D5, Bitboard::EMPTY);
        assert!(!o.rooted);
        assert_eq!(o.single, params::CANNON);
    }

    #[test]
    fn two_attackers_against_one_root() {
        // Black horse d6 protected once (rook d9), attacked by red rook d2 and
        // red cannon d0 behind... use two rooks doubled on the file.
        let mut b = board("3r1k3/9/9/3n5/9/9/9/3R5/3R5/4K4 w");
        let o = worth(&mut b, Square::D2, Square::D6, Bitboard::EMPTY);
        assert_eq!(o.single, params::HORSE - params::ROOK);
        assert_eq!(o.joint, params::HORSE - params::ROOK + params::ROOK);
    }
}
