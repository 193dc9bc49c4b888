//! [`Record`]: one self-play position with its search score and the game's result,
//! packed into [`RECORD_SIZE`] bytes (layout in `docs/datagen-format.md`).
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 16 | occupancy `u128`: bit `i` set when point `i` (`a0` = 0 … `i9` = 89) holds a piece |
//! | 16 | 16 | piece codes, 4 bits each (low nibble first), one per occupied point in increasing point order: `colour · 7 + kind` (Red 0, Black 1; rook, horse, elephant, advisor, king, cannon, pawn = 0…6); unused nibbles 15 |
//! | 32 | 2 | score `i16`: the search value for the side to move, in the engine's centipawns |
//! | 34 | 1 | result for the side to move: 0 lost, 1 drawn, 2 won |
//! | 35 | 1 | side to move: 0 Red, 1 Black |
//! | 36 | 2 | ply `u16`: plies played since the game's start position |
//! | 38 | 1 | plies without a capture (the sixty-move counter) |
//! | 39 | 1 | flags: bit 0 the score was a mate or rule score, clamped; bit 1 the result came from adjudication |

use chuhan_engine::binary::Reader;
use chuhan_engine::core::PlayerResult;
use chuhan_engine::core::{Color, Piece, Position, Setup, Square};
use chuhan_engine::search::score::{MATE_BOUND, Value};
use std::fmt;

/// Bytes per record.
pub const RECORD_SIZE: usize = 40;

/// Largest absolute stored score: mate and rule scores are clamped to it (and
/// flagged with [`Flags::MATE`]); evaluations beyond it are clamped too.
pub const SCORE_LIMIT: i16 = 30_000;

/// Most pieces a record can hold (the nibbles of 16 bytes).
pub const MAX_PIECES: usize = 32;

/// Nibble of an unused piece slot.
const EMPTY_NIBBLE: u8 = 15;

/// The flag bits of a record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags(pub u8);

impl Flags {
    /// The score was a mate (or 棋例 rule) score, clamped to ±[`SCORE_LIMIT`].
    pub const MATE: Flags = Flags(1);
    /// The game's result came from adjudication, not from the rules.
    pub const ADJUDICATED: Flags = Flags(2);
    /// Every defined bit.
    pub const ALL: Flags = Flags(3);

    /// True when every bit of `other` is set.
    pub fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union.
    pub fn with(self, other: Flags) -> Flags {
        Flags(self.0 | other.0)
    }
}

/// Why bytes are not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Fewer than [`RECORD_SIZE`] bytes.
    Short,
    /// A point above 89 is marked occupied.
    Occupancy,
    /// More than [`MAX_PIECES`] occupied points.
    TooManyPieces(u32),
    /// A piece code above 13.
    PieceCode(u8),
    /// The result byte is not 0, 1 or 2.
    Result(u8),
    /// The side byte is not 0 or 1.
    Side(u8),
    /// Undefined flag bits are set.
    Flags(u8),
    /// The board is not a legal position.
    Position(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Short => write!(f, "a record needs {RECORD_SIZE} bytes"),
            RecordError::Occupancy => f.write_str("occupancy marks a point beyond i9"),
            RecordError::TooManyPieces(n) => write!(f, "{n} pieces (at most {MAX_PIECES})"),
            RecordError::PieceCode(c) => write!(f, "piece code {c} (expected 0 to 13)"),
            RecordError::Result(r) => write!(f, "result {r} (expected 0, 1 or 2)"),
            RecordError::Side(s) => write!(f, "side to move {s} (expected 0 or 1)"),
            RecordError::Flags(b) => write!(f, "unknown flag bits {b:#04x}"),
            RecordError::Position(e) => write!(f, "not a legal position: {e}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// Occupied points, bit `i` for point `i`.
    pub occupancy: u128,
    /// Piece codes of the occupied points in increasing point order, two per byte
    /// (low nibble first).
    pub pieces: [u8; 16],
    /// Search score for the side to move (centipawns).
    pub score: i16,
    /// The game's result for the side to move.
    pub result: PlayerResult,
    /// The side to move.
    pub side: Color,
    /// Plies since the game's start position.
    pub ply: u16,
    /// Plies without a capture.
    pub rule60: u8,
    /// Flag bits.
    pub flags: Flags,
}

/// The byte of a result in a record: 0 lost, 1 drawn, 2 won.
pub fn result_code(r: PlayerResult) -> u8 {
    match r {
        PlayerResult::Loss => 0,
        PlayerResult::Draw => 1,
        PlayerResult::Win => 2,
    }
}

/// The result of a record's byte.
pub fn result_from_code(c: u8) -> Option<PlayerResult> {
    match c {
        0 => Some(PlayerResult::Loss),
        1 => Some(PlayerResult::Draw),
        2 => Some(PlayerResult::Win),
        _ => None,
    }
}

/// A result as a training target: 0, ½ or 1.
pub fn result_score(r: PlayerResult) -> f32 {
    f32::from(result_code(r)) / 2.0
}

/// A search value as stored: clamped to ±[`SCORE_LIMIT`], with [`Flags::MATE`] for
/// mate and rule scores (which are clamped to the limit itself).
///
/// ```
/// use chuhan_arena::datagen::record::{Flags, SCORE_LIMIT, stored_score};
/// use chuhan_engine::search::score::mate_in;
/// assert_eq!(stored_score(35), (35, Flags::default()));
/// assert_eq!(stored_score(mate_in(3)), (SCORE_LIMIT, Flags::MATE));
/// assert_eq!(stored_score(-mate_in(3)), (-SCORE_LIMIT, Flags::MATE));
/// ```
pub fn stored_score(v: Value) -> (i16, Flags) {
    let decided = v.abs() >= MATE_BOUND;
    if decided {
        let s = if v > 0 { SCORE_LIMIT } else { -SCORE_LIMIT };
        (s, Flags::MATE)
    } else {
        let lim = i32::from(SCORE_LIMIT);
        (v.clamp(-lim, lim) as i16, Flags::default())
    }
}

/// The occupancy and packed piece codes of a board given point by point.
fn encode_board(piece_at: impl Fn(Square) -> Option<Piece>) -> (u128, [u8; 16]) {
    let mut occupancy = 0u128;
    let mut pieces = [EMPTY_NIBBLE | (EMPTY_NIBBLE << 4); 16];
    let mut n = 0usize;
    for sq in Square::ALL {
        if let Some(p) = piece_at(sq) {
            occupancy |= 1u128 << sq.index();
            let code = p.index() as u8;
            let byte = &mut pieces[n / 2];
            if n.is_multiple_of(2) {
                *byte = (*byte & 0xF0) | code;
            } else {
                *byte = (*byte & 0x0F) | (code << 4);
            }
            n += 1;
        }
    }
    (occupancy, pieces)
}

impl Record {
    /// The record of `pos` (at most [`MAX_PIECES`] pieces, which every legal
    /// position satisfies) with a stored score, result and flags.
    pub fn new(pos: &Position, score: i16, result: PlayerResult, flags: Flags) -> Record {
        let (occupancy, pieces) = encode_board(|sq| pos.piece_at(sq));
        Record {
            occupancy,
            pieces,
            score,
            result,
            side: pos.side_to_move(),
            ply: pos.game_ply().min(u16::MAX as usize) as u16,
            rule60: pos.rule60().min(u8::MAX as u32) as u8,
            flags,
        }
    }

    /// The same position mirrored left to right (file a ↔ file i), with the same
    /// score, result and counters: the game is symmetric under this mirror, so it
    /// is an equally true training position.
    ///
    /// ```
    /// use chuhan_arena::datagen::record::{Flags, Record};
    /// use chuhan_engine::core::{PlayerResult, Position};
    /// let pos = Position::from_fen(
    ///     "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    /// )
    /// .unwrap();
    /// let rec = Record::new(&pos, 12, PlayerResult::Draw, Flags::default());
    /// assert_eq!(rec.mirrored(), Record::new(&pos.mirror(), 12, PlayerResult::Draw, Flags::default()));
    /// assert_eq!(rec.mirrored().mirrored(), rec);
    /// ```
    pub fn mirrored(&self) -> Record {
        let mut board = [None; 90];
        for (sq, p) in self.pieces() {
            board[sq.mirror().index()] = Some(p);
        }
        let (occupancy, pieces) = encode_board(|sq| board[sq.index()]);
        Record {
            occupancy,
            pieces,
            ..*self
        }
    }

    /// The pieces with their points, in increasing point order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut occ = self.occupancy;
        (0..self.occupancy.count_ones() as usize).map(move |k| {
            let i = occ.trailing_zeros() as u8;
            occ &= occ - 1;
            let code = (self.pieces[k / 2] >> (4 * (k % 2))) & 0x0F;
            (
                Square::from_index(i).expect("validated occupancy"),
                Piece::from_index(code as usize),
            )
        })
    }

    /// Number of pieces on the board.
    pub fn piece_count(&self) -> u32 {
        self.occupancy.count_ones()
    }

    /// The position (board, side to move, sixty-move counter; no move history).
    pub fn position(&self) -> Result<Position, RecordError> {
        let mut board = [None; 90];
        for (sq, p) in self.pieces() {
            board[sq.index()] = Some(p);
        }
        let setup = Setup {
            board,
            side: self.side,
            rule60: u32::from(self.rule60),
            fullmove: u32::from(self.ply) / 2 + 1,
        };
        Position::from_setup(&setup).map_err(|e| RecordError::Position(e.to_string()))
    }

    /// The 40 bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut out = [0u8; RECORD_SIZE];
        out[0..16].copy_from_slice(&self.occupancy.to_le_bytes());
        out[16..32].copy_from_slice(&self.pieces);
        out[32..34].copy_from_slice(&self.score.to_le_bytes());
        out[34] = result_code(self.result);
        out[35] = self.side.index() as u8;
        out[36..38].copy_from_slice(&self.ply.to_le_bytes());
        out[38] = self.rule60;
        out[39] = self.flags.0;
        out
    }

    /// Reads and checks a record (the board's legality is not checked here; see
    /// [`Record::position`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Record, RecordError> {
        let mut r = Reader::new(bytes);
        let occupancy = r.u128().ok_or(RecordError::Short)?;
        let pieces: [u8; 16] = r
            .bytes(16)
            .ok_or(RecordError::Short)?
            .try_into()
            .expect("16 bytes");
        let score = r.i16().ok_or(RecordError::Short)?;
        let result = r.u8().ok_or(RecordError::Short)?;
        let side = r.u8().ok_or(RecordError::Short)?;
        let ply = r.u16().ok_or(RecordError::Short)?;
        let rule60 = r.u8().ok_or(RecordError::Short)?;
        let flags = r.u8().ok_or(RecordError::Short)?;
        if occupancy >> Square::COUNT != 0 {
            return Err(RecordError::Occupancy);
        }
        let n = occupancy.count_ones();
        if n as usize > MAX_PIECES {
            return Err(RecordError::TooManyPieces(n));
        }
        for k in 0..n as usize {
            let code = (pieces[k / 2] >> (4 * (k % 2))) & 0x0F;
            if code > 13 {
                return Err(RecordError::PieceCode(code));
            }
        }
        let result = result_from_code(result).ok_or(RecordError::Result(result))?;
        let side = match side {
            0 => Color::Red,
            1 => Color::Black,
            s => return Err(RecordError::Side(s)),
        };
        if flags & !Flags::ALL.0 != 0 {
            return Err(RecordError::Flags(flags));
        }
        Ok(Record {
            occupancy,
            pieces,
            score,
            result,
            side,
            ply,
            rule60,
            flags: Flags(flags),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhan_engine::core::PieceKind;
    use proptest::prelude::*;

    /// A position reached by `moves` pseudo-random legal moves from the start.
    fn walk(seed: u64, moves: usize) -> Position {
        let mut pos = Position::startpos();
        let mut s = seed;
        for _ in 0..moves {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = legal[(s >> 33) as usize % legal.len()];
            pos.make_move(m);
        }
        pos
    }

    proptest! {
        #[test]
        fn round_trip(seed in any::<u64>(), moves in 0usize..120, score in any::<i16>(),
                      result in 0u8..3, flags in 0u8..4) {
            let pos = walk(seed, moves);
            let rec = Record::new(&pos, score, result_from_code(result).unwrap(), Flags(flags));
            let bytes = rec.to_bytes();
            let back = Record::from_bytes(&bytes).unwrap();
            prop_assert_eq!(back, rec);
            let p = back.position().unwrap();
            prop_assert_eq!(p.to_fen(), pos.to_fen());
            prop_assert_eq!(back.ply as usize, pos.game_ply());
            prop_assert_eq!(back.piece_count(), pos.occupied().count());
        }

        #[test]
        fn damaged_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..48)) {
            if let Ok(r) = Record::from_bytes(&bytes) {
                prop_assert_eq!(Record::from_bytes(&r.to_bytes()).unwrap(), r);
                let _ = r.position();
            }
        }
    }

    #[test]
    fn bad_fields_are_refused() {
        let rec = Record::new(
            &Position::startpos(),
            10,
            PlayerResult::Draw,
            Flags::default(),
        );
        let good = rec.to_bytes();
        let with = |at: usize, v: u8| {
            let mut b = good;
            b[at] = v;
            Record::from_bytes(&b)
        };
        assert_eq!(with(34, 3), Err(RecordError::Result(3)));
        assert_eq!(with(35, 2), Err(RecordError::Side(2)));
        assert_eq!(with(39, 8), Err(RecordError::Flags(8)));
        assert_eq!(with(15, 0x80), Err(RecordError::Occupancy));
        assert_eq!(with(16, 0x0E), Err(RecordError::PieceCode(14)));
        assert_eq!(Record::from_bytes(&good[..39]), Err(RecordError::Short));
        // The start position: Red's rook on a0 first, 32 pieces.
        let first = rec.pieces().next().unwrap();
        assert_eq!(first, (Square::A0, Piece::new(Color::Red, PieceKind::Rook)));
        assert_eq!(rec.piece_count(), 32);
    }

    #[test]
    fn results_per_side() {
        for r in [PlayerResult::Loss, PlayerResult::Draw, PlayerResult::Win] {
            assert_eq!(result_from_code(result_code(r)), Some(r));
        }
        assert_eq!(result_from_code(3), None);
        assert_eq!(result_score(PlayerResult::Win), 1.0);
        assert_eq!(result_score(PlayerResult::Draw), 0.5);
    }
}
