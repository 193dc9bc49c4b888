//! Legal move generation: all moves, captures only, quiets only, check evasions,
//! and a bulk counter for perft.
//!
//! Outside check, legality is decided by masks computed once per position:
//!
//! * **pins** — our piece that is the only one between our king and an enemy rook or
//!   the enemy king (flying general) may move only along that line or capture the
//!   pinner; our piece on the leg of an enemy horse that would otherwise attack our
//!   king may only capture that horse; when exactly two pieces stand between our king
//!   and an enemy cannon, each of ours among them may only move to an *empty* point
//!   between (the count stays two) or capture the cannon. Several pins intersect.
//! * **screen danger** — the empty points between our king and an enemy cannon with
//!   nothing in between: a piece moving there would become the cannon's screen.
//! * King steps get a full attack test with the king moved.
//!
//! In check, candidate moves (king steps, captures of the checker, blocks, moving a
//! cannon's screen away; everything in a double check) each get the full test
//! [`Position::leaves_king_safe`].

use super::attacks;
use super::bitboard::Bitboard;
use super::mv::Move;
use super::piece::PieceKind;
use super::position::Position;
use super::square::Square;

/// Upper bound on the number of legal moves in any xiangqi position (the record is
/// well under 150).
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        // Never write out of bounds even if the bound were wrong.
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if there are no moves.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// True if `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Keeps only the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if f(self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenType {
    /// Every legal move.
    All,
    /// Legal captures only.
    Captures,
    /// Legal non-captures only.
    Quiets,
}

/// Receives generated moves, either one at a time or as a from-square with a set of
/// destinations (which a counter can add up with one popcount).
trait Sink {
    fn targets(&mut self, from: Square, to: Bitboard);
    fn one(&mut self, m: Move);
}

impl Sink for MoveList {
    #[inline(always)]
    fn targets(&mut self, from: Square, to: Bitboard) {
        for t in to {
            self.push(Move::new(from, t));
        }
    }
    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

struct Counter(usize);

impl Sink for Counter {
    #[inline(always)]
    fn targets(&mut self, _from: Square, to: Bitboard) {
        self.0 += to.count() as usize;
    }
    #[inline(always)]
    fn one(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// Pinned pieces of the side to move and where each may still go.
struct Pins {
    pinned: Bitboard,
    squares: [Square; 12],
    masks: [Bitboard; 12],
    len: usize,
}

impl Pins {
    #[inline(always)]
    fn add(&mut self, sq: Square, mask: Bitboard) {
        if self.pinned.has(sq) {
            for i in 0..self.len {
                if self.squares[i] == sq {
                    self.masks[i] &= mask;
                    return;
                }
            }
        }
        if self.len < self.squares.len() {
            self.pinned |= sq.into();
            self.squares[self.len] = sq;
            self.masks[self.len] = mask;
            self.len += 1;
        }
    }

    #[inline(always)]
    fn mask(&self, sq: Square) -> Bitboard {
        for i in 0..self.len {
            if self.squares[i] == sq {
                return self.masks[i];
            }
        }
        Bitboard::FULL
    }
}

impl Position {
    /// Pins of the side to move and the screen-danger points (see module docs).
    #[inline(always)]
    fn pins_and_danger(&self) -> (Pins, Bitboard) {
        let us = self.side_to_move();
        let them = !us;
        let ksq = self.king_square(us);
        let occ = self.occupied();
        let ours = self.color(us);
        let mut pins = Pins {
            pinned: Bitboard::EMPTY,
            squares: [Square::A0; 12],
            masks: [Bitboard::EMPTY; 12],
            len: 0,
        };
        let mut danger = Bitboard::EMPTY;
        let cross = attacks::rook_cross(ksq);
        let snipers =
            cross & (self.pieces(them, PieceKind::Rook) | self.pieces(them, PieceKind::King));
        for s in snipers {
            let line = attacks::between(ksq, s);
            let b = line & occ;
            if !b.more_than_one() && (b & ours).any() {
                pins.add(b.lsb(), line.with(s));
            }
        }
        for c in cross & self.pieces(them, PieceKind::Cannon) {
            let line = attacks::between(ksq, c);
            let b = line & occ;
            match b.count() {
                0 => danger |= line,
                2 => {
                    let mask = (line - occ).with(c);
                    for p in b & ours {
                        pins.add(p, mask);
                    }
                }
                _ => {}
            }
        }
        let horses =
            attacks::horse_attackers(ksq, Bitboard::EMPTY) & self.pieces(them, PieceKind::Horse);
        for h in horses {
            let leg = attacks::block(ksq, h).without(h);
            if (leg & ours).any() {
                pins.add(leg.lsb(), h.into());
            }
        }
        (pins, danger)
    }

    /// Pieces of the side to move whose moves are restricted because they shield
    /// their king: the only piece between the king and an enemy rook or the enemy
    /// king, a piece on the leg of an enemy horse aimed at the king, and our pieces
    /// among exactly two between the king and an enemy cannon.
    ///
    /// ```
    /// use chuhan_engine::core::{Bitboard, Position, Square};
    /// // The red horse on e3 and the red pawn on e4 both stand between the king and the
    /// // cannon on e7: moving either away would leave a single screen, a check.
    /// let pos = Position::from_fen("3k5/9/4c4/9/9/4P4/4N4/9/9/4K4 w").unwrap();
    /// assert_eq!(pos.pinned(), Bitboard::from(Square::E3) | Square::E4.into());
    /// ```
    pub fn pinned(&self) -> Bitboard {
        self.pins_and_danger().0.pinned
    }

    /// Empty points where a piece of the side to move may not go because it would
    /// become the screen of an enemy cannon facing the king with nothing between.
    pub fn screen_danger(&self) -> Bitboard {
        self.pins_and_danger().1
    }

    /// Generates every move of the side to move whose destination is in `target`,
    /// legal when the side to move is not in check.
    #[inline(always)]
    fn gen_quiet_position<S: Sink>(&self, target: Bitboard, sink: &mut S) {
        let us = self.side_to_move();
        let occ = self.occupied();
        let theirs = self.color(!us);
        let (pins, danger) = self.pins_and_danger();
        let safe = target - danger;
        let mut emit = |from: Square, to: Bitboard| {
            let to = if pins.pinned.has(from) {
                to & pins.mask(from)
            } else {
                to
            };
            sink.targets(from, to & safe);
        };
        for from in self.pieces(us, PieceKind::Rook) {
            emit(from, attacks::rook_attacks(from, occ));
        }
        for from in self.pieces(us, PieceKind::Cannon) {
            emit(
                from,
                (attacks::rook_attacks(from, occ) - occ)
                    | (attacks::cannon_attacks(from, occ) & theirs),
            );
        }
        for from in self.pieces(us, PieceKind::Horse) {
            emit(from, attacks::horse_attacks(from, occ));
        }
        for from in self.pieces(us, PieceKind::Pawn) {
            emit(from, attacks::pawn_attacks(us, from));
        }
        for from in self.pieces(us, PieceKind::Elephant) {
            emit(from, attacks::elephant_attacks(from, occ));
        }
        for from in self.pieces(us, PieceKind::Advisor) {
            emit(from, attacks::advisor_attacks(from));
        }
        let ksq = self.king_square(us);
        for to in attacks::king_attacks(ksq) & target {
            if self.leaves_king_safe(ksq, to) {
                sink.one(Move::new(ksq, to));
            }
        }
    }

    /// Generates the legal moves out of check whose destination is in `target`.
    fn gen_evasions<S: Sink>(&self, target: Bitboard, sink: &mut S) {
        let us = self.side_to_move();
        let occ = self.occupied();
        let ours = self.color(us);
        let ksq = self.king_square(us);
        let checkers = self.checkers();
        // Destinations that can possibly resolve the check, and pieces that may move
        // anywhere (a cannon's screen).
        let (dest, free_movers) = if checkers.more_than_one() {
            (Bitboard::FULL, ours)
        } else {
            let c = checkers.lsb();
            if self.piece_at(c).map(|p| p.kind) == Some(PieceKind::Cannon) {
                let line = attacks::between(ksq, c);
                ((line - occ).with(c), line & ours)
            } else {
                (attacks::block(ksq, c), Bitboard::EMPTY)
            }
        };
        let movers = ours - self.pieces(us, PieceKind::King);
        for from in movers {
            let mut to = self.pseudo_targets(from) & target;
            if !free_movers.has(from) {
                to &= dest;
            }
            for t in to {
                if self.leaves_king_safe(from, t) {
                    sink.one(Move::new(from, t));
                }
            }
        }
        for t in attacks::king_attacks(ksq) & (target - ours) {
            if self.leaves_king_safe(ksq, t) {
                sink.one(Move::new(ksq, t));
            }
        }
    }

    #[inline(always)]
    fn generate_into<S: Sink>(&self, kind: GenType, sink: &mut S) {
        let us = self.side_to_move();
        let target = match kind {
            GenType::All => !self.color(us),
            GenType::Captures => self.color(!us),
            GenType::Quiets => !self.occupied(),
        };
        if self.in_check() {
            self.gen_evasions(target, sink);
        } else {
            self.gen_quiet_position(target, sink);
        }
    }

    /// Legal moves of the requested type.
    ///
    /// ```
    /// use chuhan_engine::core::{GenType, Position};
    /// let pos = Position::startpos();
    /// assert_eq!(pos.generate(GenType::All).len(), 44);
    /// assert_eq!(pos.generate(GenType::Captures).len(), 2);
    /// assert_eq!(pos.generate(GenType::Quiets).len(), 42);
    /// ```
    pub fn generate(&self, kind: GenType) -> MoveList {
        let mut list = MoveList::new();
        self.generate_into(kind, &mut list);
        list
    }

    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.generate(GenType::All)
    }

    /// Appends the legal moves of the requested type to `list`.
    pub fn generate_to(&self, kind: GenType, list: &mut MoveList) {
        self.generate_into(kind, list);
    }

    /// Number of legal moves, counted in bulk (no move list is built).
    #[inline]
    pub fn count_legal(&self) -> usize {
        let mut c = Counter(0);
        self.generate_into(GenType::All, &mut c);
        c.0
    }

    /// True if the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// How the game stands for the side to move, by movement rules alone.
    ///
    /// ```
    /// use chuhan_engine::core::{Position, Terminal};
    /// assert_eq!(Position::startpos().terminal(), Terminal::Ongoing);
    /// // Black's king on d9: d8 is covered by the rook, e9 would face the red king.
    /// let pos = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 b").unwrap();
    /// assert_eq!(pos.terminal(), Terminal::Stalemate);
    /// ```
    pub fn terminal(&self) -> Terminal {
        if self.has_legal_move() {
            Terminal::Ongoing
        } else if self.in_check() {
            Terminal::Checkmate
        } else {
            Terminal::Stalemate
        }
    }
}

/// Whether the side to move can move: in xiangqi both checkmate and 困斃 (no legal
/// move while not in check) lose for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terminal {
    /// At least one legal move.
    Ongoing,
    /// In check with no legal move (將死).
    Checkmate,
    /// Not in check, no legal move (困斃).
    Stalemate,
}

/// Reference generator for tests: every pseudo-legal move filtered by a slow
/// legality test that makes the move on a copy and looks for any capture of the king
/// or facing kings.
pub fn legal_moves_reference(pos: &Position) -> Vec<Move> {
    let us = pos.side_to_move();
    let mut out = Vec::new();
    for from in pos.color(us) {
        for to in pos.pseudo_targets(from) {
            let m = Move::new(from, to);
            if reference_is_legal(pos, m) {
                out.push(m);
            }
        }
    }
    out.sort();
    out
}

/// Slow legality: after the move, can any enemy piece move onto our king's square
/// (using the slow ray walks), or do the kings face each other?
fn reference_is_legal(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let mut board: [Option<crate::core::Piece>; 90] = [None; 90];
    for sq in Square::ALL {
        board[sq.index()] = pos.piece_at(sq);
    }
    board[m.to().index()] = board[m.from().index()];
    board[m.from().index()] = None;
    let occ: u128 = board
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_some())
        .fold(0, |a, (i, _)| a | 1u128 << i);
    let ksq = Square::ALL
        .into_iter()
        .find(|s| board[s.index()] == Some(crate::core::Piece::new(us, PieceKind::King)));
    let Some(ksq) = ksq else { return false };
    let kbit = 1u128 << ksq.index();
    for sq in Square::ALL {
        let Some(p) = board[sq.index()] else { continue };
        if p.color == us {
            continue;
        }
        let hits = match p.kind {
            PieceKind::Rook => attacks::rook_attacks_slow(sq, occ),
            PieceKind::Cannon => attacks::cannon_attacks_slow(sq, occ),
            PieceKind::Horse => attacks::horse_attacks_slow(sq, occ),
            PieceKind::Pawn => attacks::pawn_attacks_slow(p.color, sq),
            // Flying general: the enemy king "sees" ours along a clear file.
            PieceKind::King => {
                let r = attacks::rook_attacks_slow(sq, occ);
                if sq.file() == ksq.file() { r } else { 0 }
            }
            _ => 0,
        };
        if hits & kbit != 0 {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_counts() {
        let pos = Position::startpos();
        assert_eq!(pos.count_legal(), 44);
        let mut a: Vec<Move> = pos.legal_moves().as_slice().to_vec();
        a.sort();
        assert_eq!(a, legal_moves_reference(&pos));
    }

    #[test]
    fn stalemate_and_mate() {
        // Black to move, black king on d9 boxed by a red rook on the 8th rank and the
        // facing kings rule: 困斃 or mate depending on check.
        let pos = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 b").unwrap();
        // d9 -> e9 faces the red king on e0 (illegal); d8 attacked by the rook; f9 not
        // reachable in one step from d9. Black has no move but is not in check.
        assert_eq!(pos.terminal(), Terminal::Stalemate);
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap();
        let mut pos = pos;
        pos.make_move("a0a9".parse().unwrap());
        // d9 in check from the rook on a9; d8 is free.
        assert_eq!(pos.terminal(), Terminal::Ongoing);
        // Rooks on a9 and a8: check along the 9th rank, d8 and e8 covered, e9 faces
        // the red king.
        let pos = Position::from_fen("R2k5/R8/9/9/9/9/9/9/9/4K4 b").unwrap();
        assert_eq!(pos.terminal(), Terminal::Checkmate);
    }
}
