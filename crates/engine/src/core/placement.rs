//! [`Placement`]: where the pieces stand — a mailbox and bitboards by colour and
//! kind — and every question that needs nothing else: which pieces attack a square
//! or a king, where a piece may go, whether a move leaves its owner's king safe.
//!
//! [`Position`](super::Position) embeds one and adds the side to move, the key and
//! the history. The rules module (棋例) asks the same questions of a bare placement
//! for either side, whoever is to move (the null-move view of 捉), and plays capture
//! sequences on it with [`Placement::move_piece`] / [`Placement::unmove_piece`].
//!
//! The attacks on a king (flying general included) are written once and serve
//! checks, legality and the rules alike.

use super::attacks;
use super::bitboard::Bitboard;
use super::mv::Move;
use super::piece::{Color, Piece, PieceKind};
use super::square::Square;

/// The pieces on the board: a mailbox and bitboards by colour and kind, always in
/// step.
///
/// ```
/// use chuhan_engine::core::{Bitboard, Color, Position, Square};
/// let pos = Position::from_fen("4k4/9/9/9/4r4/9/9/9/4R4/4K4 w").unwrap();
/// let mut board = pos.placement().clone();
/// // Black's rook may take red's (whoever is to move), and red's king may take back.
/// assert!(board.pseudo_targets(Square::E5).has(Square::E1));
/// let captured = board.move_piece(Square::E5, Square::E1);
/// assert!(board.attackers(Square::E1, Color::Red, board.occupied()).any());
/// board.unmove_piece(Square::E5, Square::E1, captured);
/// assert_eq!(&board, pos.placement());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    squares: [Option<Piece>; 90],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 7],
}

/// Pieces among `theirs` (of colour `by`, kinds given by `kinds`) attacking the king
/// square `ksq` with occupancy `occ`: rooks, cannons, horses, pawns and the other
/// king along a clear file (flying general). Advisors and elephants never reach a
/// king. The one formula for attacks on a king; callers pass hypothetical kinds and
/// sets to ask "after this move".
#[inline(always)]
fn king_attackers(
    kinds: &[Bitboard; 7],
    theirs: Bitboard,
    by: Color,
    ksq: Square,
    occ: Bitboard,
) -> Bitboard {
    let rooks = kinds[PieceKind::Rook.index()] | kinds[PieceKind::King.index()];
    ((attacks::rook_attacks(ksq, occ) & rooks)
        | (attacks::cannon_attacks(ksq, occ) & kinds[PieceKind::Cannon.index()])
        | (attacks::horse_attackers(ksq, occ) & kinds[PieceKind::Horse.index()])
        | (attacks::pawn_attackers(by, ksq) & kinds[PieceKind::Pawn.index()]))
        & theirs
}

impl Default for Placement {
    fn default() -> Placement {
        Placement::EMPTY
    }
}

impl Placement {
    /// No piece on the board.
    pub const EMPTY: Placement = Placement {
        squares: [None; 90],
        by_color: [Bitboard::EMPTY; 2],
        by_kind: [Bitboard::EMPTY; 7],
    };

    /// Puts `p` on the empty square `sq`.
    pub fn put(&mut self, p: Piece, sq: Square) {
        debug_assert!(self.squares[sq.index()].is_none());
        self.squares[sq.index()] = Some(p);
        self.by_color[p.color.index()] |= sq.into();
        self.by_kind[p.kind.index()] |= sq.into();
    }

    /// The mailbox, indexed by [`Square::index`].
    #[inline(always)]
    pub fn squares(&self) -> &[Option<Piece>; 90] {
        &self.squares
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// All pieces of `kind`, both colours.
    #[inline(always)]
    pub fn kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of `color`'s king (the board must have one).
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, PieceKind::King).lsb()
    }

    // ------------------------------------------------------------------
    // Attacks.
    // ------------------------------------------------------------------

    /// Pieces of colour `by` that attack the king square `ksq` with occupancy `occ`,
    /// counting the flying-general rule (a king attacks the other king along a clear
    /// file). Only pieces inside `occ` are counted.
    #[inline(always)]
    pub fn king_attackers(&self, ksq: Square, by: Color, occ: Bitboard) -> Bitboard {
        king_attackers(&self.by_kind, self.by_color[by.index()] & occ, by, ksq, occ)
    }

    /// All pieces (both colours) attacking `sq` with occupancy `occ`. Kings attack
    /// only their palace neighbours here (the flying-general rule concerns only king
    /// squares; see [`Placement::king_attackers`]).
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let k = &self.by_kind;
        let mut att = (attacks::rook_attacks(sq, occ) & k[PieceKind::Rook.index()])
            | (attacks::cannon_attacks(sq, occ) & k[PieceKind::Cannon.index()])
            | (attacks::horse_attackers(sq, occ) & k[PieceKind::Horse.index()])
            | (attacks::king_attacks(sq) & k[PieceKind::King.index()])
            | (attacks::advisor_attacks(sq) & k[PieceKind::Advisor.index()])
            | (attacks::elephant_attacks(sq, occ) & k[PieceKind::Elephant.index()]);
        for c in Color::ALL {
            att |= attacks::pawn_attackers(c, sq)
                & k[PieceKind::Pawn.index()]
                & self.by_color[c.index()];
        }
        att & occ
    }

    /// Pieces of `by` attacking `sq` with occupancy `occ` (see
    /// [`Placement::attackers_to`]).
    #[inline]
    pub fn attackers(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        self.attackers_to(sq, occ) & self.by_color[by.index()]
    }

    /// Squares a piece of kind `p` standing on `sq` attacks with occupancy `occ`
    /// (for a cannon: its capture x-ray set).
    pub fn piece_attacks(p: Piece, sq: Square, occ: Bitboard) -> Bitboard {
        match p.kind {
            PieceKind::Rook => attacks::rook_attacks(sq, occ),
            PieceKind::Cannon => attacks::cannon_attacks(sq, occ),
            PieceKind::Horse => attacks::horse_attacks(sq, occ),
            PieceKind::Elephant => attacks::elephant_attacks(sq, occ),
            PieceKind::Advisor => attacks::advisor_attacks(sq),
            PieceKind::King => attacks::king_attacks(sq),
            PieceKind::Pawn => attacks::pawn_attacks(p.color, sq),
        }
    }

    /// Destinations (empty or enemy) of the piece on `sq` ignoring checks: the
    /// pseudo-legal moves of that piece, whoever is to move.
    pub fn pseudo_targets(&self, sq: Square) -> Bitboard {
        let Some(p) = self.piece_at(sq) else {
            return Bitboard::EMPTY;
        };
        let occ = self.occupied();
        let ours = self.color(p.color);
        match p.kind {
            PieceKind::Cannon => {
                (attacks::rook_attacks(sq, occ) - occ)
                    | (attacks::cannon_attacks(sq, occ) & self.color(!p.color))
            }
            _ => Placement::piece_attacks(p, sq, occ) - ours,
        }
    }

    /// True if `us`'s king would be safe after `us` moves the piece on `from` to
    /// `to` (a full test: works for any pseudo-legal move, in or out of check),
    /// not counting attacks by the enemy pieces in `ignore`.
    #[inline(always)]
    pub fn leaves_king_safe(&self, us: Color, from: Square, to: Square, ignore: Bitboard) -> bool {
        let occ = (self.occupied() - from.into()) | to.into();
        let ksq = if self.by_kind[PieceKind::King.index()].has(from) {
            to
        } else {
            self.king_square(us)
        };
        let them = !us;
        let theirs = self.by_color[them.index()] - to.into() - ignore;
        king_attackers(&self.by_kind, theirs, them, ksq, occ).is_empty()
    }

    /// True if `us` moving `m` (a legal move) checks the other king.
    pub fn gives_check(&self, us: Color, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(p) = self.piece_at(from) else {
            return false;
        };
        let eksq = self.king_square(!us);
        let occ = (self.occupied() - from.into()) | to.into();
        let zone = attacks::check_zone(eksq);
        if !zone.has(from) && !zone.has(to) {
            return p.kind == PieceKind::Horse && attacks::horse_attacks(to, occ).has(eksq);
        }
        let ours = (self.by_color[us.index()] - from.into()) | to.into();
        let mut k = self.by_kind;
        if let Some(c) = self.piece_at(to) {
            k[c.kind.index()] -= to.into();
        }
        k[p.kind.index()] = (k[p.kind.index()] - from.into()) | to.into();
        king_attackers(&k, ours, us, eksq, occ).any()
    }

    // ------------------------------------------------------------------
    // Moving pieces.
    // ------------------------------------------------------------------

    /// Moves the piece on `from` to `to`, returning what it captured. No rule is
    /// checked.
    #[inline(always)]
    pub fn move_piece(&mut self, from: Square, to: Square) -> Option<Piece> {
        let p = self.squares[from.index()].expect("a piece on the from square");
        let captured = self.squares[to.index()];
        let to_bb = Bitboard::from(to);
        if let Some(c) = captured {
            self.by_color[c.color.index()] ^= to_bb;
            self.by_kind[c.kind.index()] ^= to_bb;
        }
        let from_to = Bitboard::from(from) | to_bb;
        self.by_color[p.color.index()] ^= from_to;
        self.by_kind[p.kind.index()] ^= from_to;
        self.squares[from.index()] = None;
        self.squares[to.index()] = Some(p);
        captured
    }

    /// Takes back [`Placement::move_piece`]`(from, to)`, which captured `captured`.
    #[inline(always)]
    pub fn unmove_piece(&mut self, from: Square, to: Square, captured: Option<Piece>) {
        let p = self.squares[to.index()].expect("the moved piece");
        let to_bb = Bitboard::from(to);
        let from_to = Bitboard::from(from) | to_bb;
        self.by_color[p.color.index()] ^= from_to;
        self.by_kind[p.kind.index()] ^= from_to;
        self.squares[from.index()] = Some(p);
        self.squares[to.index()] = captured;
        if let Some(c) = captured {
            self.by_color[c.color.index()] ^= to_bb;
            self.by_kind[c.kind.index()] ^= to_bb;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Position;

    /// Legality for either side from the bare placement agrees with the position's for
    /// its side to move, before and after a pass.
    #[test]
    fn legality_for_either_side_matches_the_position() {
        let fens = [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "3akr3/5c3/1P2b4/4R4/9/9/9/9/9/4CK3 w",
            "4k4/9/9/9/4n4/9/5C3/9/4N4/4K4 w",
            "5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w",
            "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w",
        ];
        for fen in fens {
            let mut pos = Position::from_fen(fen).unwrap();
            for _ in 0..2 {
                let b = pos.placement();
                let us = pos.side_to_move();
                let legal = pos.legal_moves();
                for from in b.color(us) {
                    for to in Bitboard::FULL {
                        let m = Move::new(from, to);
                        let got = b.pseudo_targets(from).has(to)
                            && b.leaves_king_safe(us, from, to, Bitboard::EMPTY);
                        assert_eq!(got, to != from && legal.contains(m), "{fen} {m}");
                    }
                }
                if pos.in_check() {
                    break;
                }
                pos.make_null();
            }
        }
    }

    #[test]
    fn move_and_unmove_restore_the_board() {
        let pos = Position::from_fen("4k4/9/9/9/4c4/9/9/9/4R4/3K5 w").unwrap();
        let mut b = pos.placement().clone();
        let captured = b.move_piece(Square::E1, Square::E5);
        assert_eq!(captured.map(|p| p.kind), Some(PieceKind::Cannon));
        assert_eq!(b.occupied().count(), 3);
        assert!(b.pieces(Color::Black, PieceKind::Cannon).is_empty());
        b.unmove_piece(Square::E1, Square::E5, captured);
        assert_eq!(&b, pos.placement());
    }
}
