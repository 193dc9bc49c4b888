//! [`Board`]: a copy of a position's placement on which either side may be asked
//! what it could capture, whose turn it is notwithstanding.
//!
//! Rule judgements constantly ask "if this side were to move, could it legally take
//! that piece, and could the other side take back?" — with the side to move of the
//! real position often the other one (the null-move view of 捉). `Position` answers
//! legality for its side to move only, so this snapshot answers it for any side,
//! with the same attack tables.

use crate::core::{Bitboard, Color, Piece, PieceKind, Position, Square, attacks};

/// Placement only: a mailbox and bitboards by colour and kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    squares: [Option<Piece>; 90],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 7],
}

impl Board {
    /// The placement of `pos`.
    pub fn new(pos: &Position) -> Board {
        let mut b = Board {
            squares: [None; 90],
            by_color: [pos.color(Color::Red), pos.color(Color::Black)],
            by_kind: [Bitboard::EMPTY; 7],
        };
        for k in PieceKind::ALL {
            b.by_kind[k.index()] = pos.kind(k);
        }
        for sq in pos.occupied() {
            b.squares[sq.index()] = pos.piece_at(sq);
        }
        b
    }

    /// The piece on `sq`.
    #[inline(always)]
    pub fn piece(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, PieceKind::King).lsb()
    }

    /// Pieces of `by` that could move onto `sq` by their movement rules (captures
    /// included, checks ignored), with occupancy `occ`. The king counts only by its
    /// palace step (the flying general attacks only the other king).
    pub fn attackers(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let ours = self.by_color[by.index()] & occ;
        let k = &self.by_kind;
        ((attacks::rook_attacks(sq, occ) & k[PieceKind::Rook.index()])
            | (attacks::cannon_attacks(sq, occ) & k[PieceKind::Cannon.index()])
            | (attacks::horse_attackers(sq, occ) & k[PieceKind::Horse.index()])
            | (attacks::elephant_attacks(sq, occ) & k[PieceKind::Elephant.index()])
            | (attacks::advisor_attacks(sq) & k[PieceKind::Advisor.index()])
            | (attacks::king_attacks(sq) & k[PieceKind::King.index()])
            | (attacks::pawn_attackers(by, sq) & k[PieceKind::Pawn.index()]))
            & ours
    }

    /// Pieces of `by` (restricted to `mask`) that attack the other side's king with
    /// occupancy `occ`, the flying general included.
    pub fn checkers_of(&self, by: Color, occ: Bitboard, mask: Bitboard) -> Bitboard {
        let ksq = self.king(!by);
        let theirs = self.by_color[by.index()] & occ & mask;
        let k = &self.by_kind;
        ((attacks::rook_attacks(ksq, occ)
            & (k[PieceKind::Rook.index()] | k[PieceKind::King.index()]))
            | (attacks::cannon_attacks(ksq, occ) & k[PieceKind::Cannon.index()])
            | (attacks::horse_attackers(ksq, occ) & k[PieceKind::Horse.index()])
            | (attacks::pawn_attackers(by, ksq) & k[PieceKind::Pawn.index()]))
            & theirs
    }

    /// True if `color`'s king is attacked.
    #[inline]
    pub fn in_check(&self, color: Color) -> bool {
        self.checkers_of(!color, self.occupied(), Bitboard::FULL)
            .any()
    }

    /// True if the piece on `from` may legally move to `to` for its owner, whoever is
    /// to move, not counting attacks on its king by the enemy pieces in `ignore`
    /// (used to see threats that exist "behind" a check that must be answered
    /// first). `to` must be empty or hold an enemy piece other than the king.
    pub fn is_legal(&mut self, from: Square, to: Square, ignore: Bitboard) -> bool {
        let Some(p) = self.piece(from) else {
            return false;
        };
        if let Some(v) = self.piece(to)
            && (v.color == p.color || v.kind == PieceKind::King)
        {
            return false;
        }
        let captured = self.make(from, to);
        let safe = self
            .checkers_of(!p.color, self.occupied(), !ignore)
            .is_empty();
        self.unmake(from, to, captured);
        safe
    }

    /// True if the piece on `from` can move to `to` by its movement rules (checks
    /// ignored): the target is empty or an enemy piece and the piece reaches it.
    pub fn reaches(&self, from: Square, to: Square) -> bool {
        let Some(p) = self.piece(from) else {
            return false;
        };
        let occ = self.occupied();
        match self.piece(to) {
            Some(v) => v.color != p.color && self.attackers(to, p.color, occ).has(from),
            None if p.kind == PieceKind::Cannon => attacks::rook_attacks(from, occ).has(to),
            None => self.attackers(to, p.color, occ).has(from),
        }
    }

    /// Moves the piece on `from` to `to`, returning what it captured.
    #[inline]
    pub fn make(&mut self, from: Square, to: Square) -> Option<Piece> {
        let p = self.squares[from.index()].expect("a piece to move");
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

    /// Undoes [`Board::make`].
    #[inline]
    pub fn unmake(&mut self, from: Square, to: Square, captured: Option<Piece>) {
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
    use crate::core::Move;

    /// The board's legality agrees with the position's for the side to move, and a
    /// flipped-side question agrees with the position after a null move.
    #[test]
    fn legality_matches_position() {
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
                let mut b = Board::new(&pos);
                let us = pos.side_to_move();
                let legal = pos.legal_moves();
                for from in pos.color(us) {
                    for to in Bitboard::FULL {
                        if to == from {
                            continue;
                        }
                        let m = Move::new(from, to);
                        let expect = legal.contains(m);
                        let got = b.reaches(from, to) && b.is_legal(from, to, Bitboard::EMPTY);
                        assert_eq!(got, expect, "{fen} {m}");
                    }
                }
                assert_eq!(b.in_check(us), pos.in_check());
                if pos.in_check() {
                    break;
                }
                pos.make_null();
            }
        }
    }
}
