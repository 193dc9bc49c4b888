//! [`Position`]: the pieces ([`Placement`]), side to move, Zobrist key, checkers, and
//! make/unmake with a history of earlier states.

use super::attacks;
use super::bitboard::Bitboard;
use super::fen::{FenError, FenNote, FenProblem, START_FEN, Setup, Validation};
use super::mv::Move;
use super::piece::{Color, Piece, PieceKind};
use super::placement::Placement;
use super::square::Square;
use super::zobrist;

/// What changes with every move and must be restored by unmake: one entry per ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Zobrist key of the position.
    pub key: u64,
    /// The move that led to this position ([`Move::NONE`] at the root,
    /// [`Move::NULL`] after a pass).
    pub mv: Move,
    /// The piece that move captured.
    pub captured: Option<Piece>,
    /// Plies since the last capture (the 60-move counter).
    pub rule60: u32,
    /// Pieces giving check to the side to move.
    pub checkers: Bitboard,
    /// Plies since the last null move (or the root).
    pub plies_from_null: u32,
}

/// A legal xiangqi position with its move history.
///
/// Built only from a validated [`Setup`] (see [`Position::from_setup`]), so code
/// working on a `Position` may assume both kings exist, the side not to move is not
/// in check and the kings do not face each other.
///
/// ```
/// use chuhan_engine::core::Position;
/// let mut pos = Position::startpos();
/// let key = pos.key();
/// let m = "h2e2".parse().unwrap();
/// pos.make_move(m);
/// pos.unmake_move();
/// assert_eq!(pos.key(), key);
/// ```
#[derive(Clone, Debug)]
pub struct Position {
    placement: Placement,
    side: Color,
    fullmove: u32,
    st: State,
    history: Vec<State>,
}

impl State {
    /// Plies since the last capture or null move: how far back this position may
    /// have occurred before (no earlier position can recur after an irreversible
    /// move, and a pass breaks every cycle).
    #[inline(always)]
    pub fn reversible_plies(&self) -> u32 {
        self.rule60.min(self.plies_from_null)
    }
}

impl PartialEq for Position {
    /// Two positions are equal when placement, side to move and counters match
    /// (history is not compared).
    fn eq(&self, other: &Position) -> bool {
        self.placement == other.placement
            && self.side == other.side
            && self.st.rule60 == other.st.rule60
            && self.fullmove == other.fullmove
    }
}

impl Eq for Position {}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// Parses and validates FEN text.
    ///
    /// ```
    /// use chuhan_engine::core::{FenProblemKind, Position};
    /// let err = Position::from_fen("4k4/9/9/9/9/9/9/4n4/3A5/3K5 w").unwrap_err();
    /// assert!(err.has(FenProblemKind::Misplaced));
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_setup(&Setup::parse(fen)?)
    }

    /// Parses FEN text as GUIs send it ([`Setup::parse_noted`]) and validates it
    /// with `validation`; the notes name every liberty taken.
    ///
    /// ```
    /// use chuhan_engine::core::{FenNote, Position, Validation};
    /// // A composed position: Red's pawn behind its starting rank.
    /// let fen = "4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 0 1";
    /// assert!(Position::from_fen_with(fen, Validation::Strict).is_err());
    /// let (_, notes) = Position::from_fen_with(fen, Validation::Lenient).unwrap();
    /// assert!(matches!(notes[..], [FenNote::Composed { .. }]));
    /// ```
    pub fn from_fen_with(
        fen: &str,
        validation: Validation,
    ) -> Result<(Position, Vec<FenNote>), FenError> {
        let (setup, mut notes) = Setup::parse_noted(fen)?;
        let (pos, more) = Position::from_setup_with(&setup, validation)?;
        notes.extend(more);
        Ok((pos, notes))
    }

    /// Validates a setup strictly (positions play can reach), naming every problem
    /// found.
    pub fn from_setup(setup: &Setup) -> Result<Position, FenError> {
        Position::from_setup_with(setup, Validation::Strict).map(|(p, _)| p)
    }

    /// Validates a setup. [`Validation::Lenient`] also accepts composed positions
    /// (排局): a pawn anywhere, an elephant or an advisor off its points but on its
    /// own side of the river, each with a [`FenNote::Composed`]. Everything else is
    /// checked as strictly as ever: piece counts, kings in their palaces and not
    /// facing, the side not to move not in check. (An elephant or advisor across the
    /// river could attack the other king in ways the check rules do not look for.)
    pub fn from_setup_with(
        setup: &Setup,
        validation: Validation,
    ) -> Result<(Position, Vec<FenNote>), FenError> {
        let mut problems = Vec::new();
        let mut notes = Vec::new();
        let mut counts = [0u32; 14];
        for (i, p) in setup.board.iter().enumerate() {
            let Some(p) = *p else { continue };
            counts[p.index()] += 1;
            let sq = Square::ALL[i];
            if !attacks::regions::allowed(p.kind, p.color).has(sq) {
                let own_half = (sq.rank().index() <= 4) == (p.color == Color::Red);
                let composable = match p.kind {
                    PieceKind::Pawn => true,
                    PieceKind::Elephant | PieceKind::Advisor => own_half,
                    _ => false,
                };
                if validation == Validation::Lenient && composable {
                    notes.push(FenNote::Composed {
                        piece: p,
                        square: sq,
                    });
                } else {
                    problems.push(FenProblem::Misplaced {
                        piece: p,
                        square: sq,
                    });
                }
            }
        }
        for (i, &count) in counts.iter().enumerate() {
            let piece = Piece::from_index(i);
            if count > piece.kind.max_count() {
                problems.push(FenProblem::TooMany { piece, count });
            }
        }
        for c in Color::ALL {
            if counts[Piece::new(c, PieceKind::King).index()] == 0 {
                problems.push(FenProblem::MissingKing(c));
            }
        }
        if !problems.is_empty() {
            return Err(FenError(problems));
        }
        let mut pos = Position {
            placement: Placement::EMPTY,
            side: setup.side,
            fullmove: setup.fullmove.max(1),
            st: State {
                key: 0,
                mv: Move::NONE,
                captured: None,
                rule60: setup.rule60,
                checkers: Bitboard::EMPTY,
                plies_from_null: 0,
            },
            history: Vec::with_capacity(256),
        };
        for (i, p) in setup.board.iter().enumerate() {
            if let Some(p) = *p {
                pos.placement.put(p, Square::ALL[i]);
            }
        }
        pos.st.key = pos.compute_key();
        let (rk, bk) = (pos.king_square(Color::Red), pos.king_square(Color::Black));
        if rk.file() == bk.file() && (attacks::between(rk, bk) & pos.occupied()).is_empty() {
            problems.push(FenProblem::KingsFacing);
        } else if pos
            .king_attackers(pos.king_square(!pos.side), pos.side, pos.occupied())
            .any()
        {
            problems.push(FenProblem::SideNotToMoveInCheck);
        }
        if !problems.is_empty() {
            return Err(FenError(problems));
        }
        pos.st.checkers = pos.king_attackers(pos.king_square(pos.side), !pos.side, pos.occupied());
        Ok((pos, notes))
    }

    /// The position as an unvalidated [`Setup`] (what FEN would say).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: *self.placement.squares(),
            side: self.side,
            rule60: self.st.rule60,
            fullmove: self.fullmove,
        }
    }

    /// FEN text with all six fields.
    pub fn to_fen(&self) -> String {
        self.to_setup().to_fen()
    }

    /// The key computed from scratch (the incremental key must always equal it).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for sq in self.occupied() {
            k ^= zobrist::piece_key(self.placement.piece_at(sq).expect("occupied"), sq);
        }
        if self.side == Color::Black {
            k ^= zobrist::SIDE_KEY;
        }
        k
    }

    // ------------------------------------------------------------------
    // Accessors.
    // ------------------------------------------------------------------

    /// Where the pieces stand.
    #[inline(always)]
    pub fn placement(&self) -> &Placement {
        &self.placement
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.placement.piece_at(sq)
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn color(&self, color: Color) -> Bitboard {
        self.placement.color(color)
    }

    /// All pieces of `kind`, both colours.
    #[inline(always)]
    pub fn kind(&self, kind: PieceKind) -> Bitboard {
        self.placement.kind(kind)
    }

    /// Pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.placement.pieces(color, kind)
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.placement.occupied()
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist key (includes the side to move).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.st.key
    }

    /// Pieces checking the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.st.checkers
    }

    /// True if the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.st.checkers.any()
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.placement.king_square(color)
    }

    /// Plies since the last capture.
    #[inline(always)]
    pub fn rule60(&self) -> u32 {
        self.st.rule60
    }

    /// The full-move number.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// The current state (key, last move, counters, checkers).
    #[inline(always)]
    pub fn state(&self) -> &State {
        &self.st
    }

    /// States of the earlier positions, oldest first; `history()[i]` is the position
    /// before the `i`-th move made on this `Position`.
    #[inline(always)]
    pub fn history(&self) -> &[State] {
        &self.history
    }

    /// Number of moves made since this `Position` was built.
    #[inline(always)]
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        if self.history.is_empty() {
            None
        } else {
            Some(self.st.mv)
        }
    }

    /// Forgets the move history (the current position becomes the root). Used when a
    /// long game no longer needs unmaking and to bound memory.
    pub fn clear_history(&mut self) {
        self.history.clear();
        self.st.mv = Move::NONE;
    }

    // ------------------------------------------------------------------
    // Attacks (the placement's, for the side to move).
    // ------------------------------------------------------------------

    /// Pieces of colour `by` that attack the king square `ksq` with occupancy `occ`
    /// ([`Placement::king_attackers`]).
    #[inline(always)]
    pub fn king_attackers(&self, ksq: Square, by: Color, occ: Bitboard) -> Bitboard {
        self.placement.king_attackers(ksq, by, occ)
    }

    /// All pieces (both colours) attacking `sq` with occupancy `occ`
    /// ([`Placement::attackers_to`]).
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.placement.attackers_to(sq, occ)
    }

    /// Destinations (empty or enemy) of the piece on `sq` ignoring checks
    /// ([`Placement::pseudo_targets`]).
    #[inline(always)]
    pub fn pseudo_targets(&self, sq: Square) -> Bitboard {
        self.placement.pseudo_targets(sq)
    }

    /// True if the king of the side to move would be safe after moving `from` ->
    /// `to` (a full test: works for any pseudo-legal move, in or out of check).
    #[inline(always)]
    pub fn leaves_king_safe(&self, from: Square, to: Square) -> bool {
        self.placement
            .leaves_king_safe(self.side, from, to, Bitboard::EMPTY)
    }

    /// True if `m` is a pseudo-legal move here: a piece of the side to move on `from`
    /// that can reach `to` by its movement rules (checks ignored).
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        if !m.is_some() {
            return false;
        }
        match self.piece_at(m.from()) {
            Some(p) if p.color == self.side => self.pseudo_targets(m.from()).has(m.to()),
            _ => false,
        }
    }

    /// True if `m` is a legal move here.
    ///
    /// ```
    /// use chuhan_engine::core::Position;
    /// let pos = Position::startpos();
    /// assert!(pos.is_legal("h2e2".parse().unwrap()));
    /// assert!(pos.is_legal("h2h9".parse().unwrap())); // cannon takes the horse
    /// assert!(!pos.is_legal("e0e2".parse().unwrap()));
    /// ```
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.leaves_king_safe(m.from(), m.to())
    }

    /// True if the (legal) move `m` checks the opponent.
    ///
    /// ```
    /// use chuhan_engine::core::Position;
    /// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K1R3 w").unwrap();
    /// assert!(pos.gives_check("f0e0".parse().unwrap())); // along the open e-file
    /// assert!(!pos.gives_check("f0f1".parse().unwrap()));
    /// ```
    pub fn gives_check(&self, m: Move) -> bool {
        self.placement.gives_check(self.side, m)
    }

    // ------------------------------------------------------------------
    // Make / unmake.
    // ------------------------------------------------------------------

    /// Plays a legal move. Playing an illegal move is a logic error (checked only in
    /// debug builds).
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        debug_assert!(self.is_legal(m), "illegal move {m} in {}", self.to_fen());
        let (from, to) = (m.from(), m.to());
        let p = self
            .placement
            .piece_at(from)
            .expect("a piece on the from square");
        self.history.push(self.st);
        let mut key = self.st.key
            ^ zobrist::SIDE_KEY
            ^ zobrist::piece_key(p, from)
            ^ zobrist::piece_key(p, to);
        let captured = self.placement.move_piece(from, to);
        if let Some(c) = captured {
            key ^= zobrist::piece_key(c, to);
            self.st.rule60 = 0;
        } else {
            self.st.rule60 += 1;
        }
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = !self.side;
        self.st.key = key;
        self.st.mv = m;
        self.st.captured = captured;
        self.st.plies_from_null += 1;
        self.st.checkers =
            self.king_attackers(self.king_square(self.side), !self.side, self.occupied());
    }

    /// Takes back the last move made with [`Position::make_move`].
    #[inline]
    pub fn unmake_move(&mut self) {
        let m = self.st.mv;
        let captured = self.st.captured;
        self.st = self.history.pop().expect("a move to unmake");
        self.side = !self.side;
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        self.placement.unmove_piece(m.from(), m.to(), captured);
    }

    /// Passes the turn (a null move). Must not be called while in check.
    pub fn make_null(&mut self) {
        debug_assert!(!self.in_check());
        self.history.push(self.st);
        self.st.key ^= zobrist::SIDE_KEY;
        self.st.mv = Move::NULL;
        self.st.captured = None;
        self.st.rule60 += 1;
        self.st.plies_from_null = 0;
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = !self.side;
        self.st.checkers =
            self.king_attackers(self.king_square(self.side), !self.side, self.occupied());
    }

    /// Takes back a null move.
    pub fn unmake_null(&mut self) {
        debug_assert_eq!(self.st.mv, Move::NULL);
        self.st = self.history.pop().expect("a null move to unmake");
        self.side = !self.side;
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
    }

    /// The left-right mirror image of this position (history dropped).
    pub fn mirror(&self) -> Position {
        let mut s = self.to_setup();
        for sq in Square::ALL {
            s.board[sq.mirror().index()] = self.placement.piece_at(sq);
        }
        // Lenient: the mirror of a composed position is composed too.
        Position::from_setup_with(&s, Validation::Lenient)
            .expect("the mirror of a legal position is legal")
            .0
    }

    /// The colour-swapped position: the board flipped top to bottom, colours
    /// exchanged, the other side to move (history dropped).
    pub fn flip(&self) -> Position {
        let mut s = self.to_setup();
        for sq in Square::ALL {
            s.board[sq.flip().index()] = self
                .placement
                .piece_at(sq)
                .map(|p| Piece::new(!p.color, p.kind));
        }
        s.side = !self.side;
        Position::from_setup_with(&s, Validation::Lenient)
            .expect("the flip of a legal position is legal")
            .0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fen::FenProblemKind;

    #[test]
    fn start_position() {
        let pos = Position::startpos();
        assert_eq!(pos.occupied().count(), 32);
        assert_eq!(pos.king_square(Color::Red), Square::E0);
        assert_eq!(pos.king_square(Color::Black), Square::E9);
        assert!(!pos.in_check());
        assert_eq!(pos.key(), pos.compute_key());
        assert_eq!(pos.to_fen(), START_FEN);
    }

    #[test]
    fn invalid_positions() {
        let cases = [
            ("4k4/9/9/9/9/9/9/4n4/3A5/3K5 w", FenProblemKind::Misplaced),
            (
                "4k4/9/9/9/9/9/9/9/4R4/4K4 w",
                FenProblemKind::SideNotToMoveInCheck,
            ),
            ("4k4/9/9/9/9/9/9/9/9/4K4 w", FenProblemKind::KingsFacing),
            ("3k5/9/9/9/9/9/9/9/9/9 w", FenProblemKind::MissingKing),
            ("3k5/9/9/9/9/PPPPPP3/9/9/9/4K4 w", FenProblemKind::TooMany),
            (
                "rnbakabnr/9/4c4/p1p1C1p1p/9/9/P1P3P1P/1C5c1/9/RNBAKABNR b",
                FenProblemKind::SideNotToMoveInCheck,
            ),
        ];
        for (fen, kind) in cases {
            let e = Position::from_fen(fen).unwrap_err();
            assert!(e.has(kind), "{fen}: {e}");
        }
    }

    #[test]
    fn checks_detected() {
        // Cannon check through a screen.
        let pos =
            Position::from_fen("4k4/9/9/9/4c4/9/9/9/4A4/3K5 w").unwrap_or_else(|e| panic!("{e}"));
        assert!(!pos.in_check());
        let pos =
            Position::from_fen("1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1")
                .unwrap();
        assert_eq!(pos.checkers(), Bitboard::from(Square::F5));
    }
}
