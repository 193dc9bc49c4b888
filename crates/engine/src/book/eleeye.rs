//! Read-only support for ElephantEye's `BOOK.DAT` (layout in
//! `../shared/reference/protocol.md` §4.1).
//!
//! The file is a headerless array of 8-byte little-endian records `u32 lock`,
//! `u16 move`, `u16 weight`, sorted by lock. The lock is the position's 32-bit
//! ElephantEye `dwLock1`: the XOR of one keystream value per (piece, point), plus one
//! more when Black is to move, all drawn from RC4 keyed with four zero bytes. Moves
//! pack `from | to << 8` on a 16×16 board (`a9` = 0x33, `i0` = 0xCB). Positions are
//! folded left-right like Chuhan's own book. Only 32 bits of key are stored, so
//! different positions can share a lock: every probe keeps legal moves only.

use super::entry::BookMove;
use super::error::{BookError, Corruption};
use crate::core::{Color, File, Move, Piece, PieceKind, Position, Rank, Square};
use std::sync::LazyLock;

/// RC4 keystream generator (the cipher's key schedule and output step).
struct Rc4 {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl Rc4 {
    fn new(key: &[u8]) -> Rc4 {
        let mut s = [0u8; 256];
        for (i, v) in s.iter_mut().enumerate() {
            *v = i as u8;
        }
        let mut j = 0u8;
        for i in 0..256 {
            j = j.wrapping_add(s[i]).wrapping_add(key[i % key.len()]);
            s.swap(i, j as usize);
        }
        Rc4 { s, i: 0, j: 0 }
    }

    fn next_byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        self.j = self.j.wrapping_add(self.s[self.i as usize]);
        self.s.swap(self.i as usize, self.j as usize);
        self.s[self.s[self.i as usize].wrapping_add(self.s[self.j as usize]) as usize]
    }

    /// Four keystream bytes, little-endian.
    fn next_u32(&mut self) -> u32 {
        u32::from_le_bytes([
            self.next_byte(),
            self.next_byte(),
            self.next_byte(),
            self.next_byte(),
        ])
    }
}

/// ElephantEye's piece numbering: Red K A B N R C P = 0..6, Black 7..13.
fn eleeye_piece(p: Piece) -> usize {
    let kind = match p.kind {
        PieceKind::King => 0,
        PieceKind::Advisor => 1,
        PieceKind::Elephant => 2,
        PieceKind::Horse => 3,
        PieceKind::Rook => 4,
        PieceKind::Cannon => 5,
        PieceKind::Pawn => 6,
    };
    p.color.index() * 7 + kind
}

/// ElephantEye's 16×16 point number of a square: `(file + 3) + (row from top + 3) * 16`.
fn eleeye_square(sq: Square) -> usize {
    (sq.file().index() + 3) + (9 - sq.rank().index() + 3) * 16
}

/// The square of an ElephantEye point number, if it is on the board.
fn square_of(point: u8) -> Option<Square> {
    let (x, y) = (point & 15, point >> 4);
    let file = File::new(x.checked_sub(3)?)?;
    let row = y.checked_sub(3)?;
    let rank = Rank::new(9u8.checked_sub(row)?)?;
    Some(Square::new(file, rank))
}

/// A `BOOK.DAT` move (`from | to << 8`) as a Chuhan move.
fn decode_move(raw: u16) -> Option<Move> {
    let from = square_of(raw as u8)?;
    let to = square_of((raw >> 8) as u8)?;
    (from != to).then(|| Move::new(from, to))
}

/// The `dwLock1` half of ElephantEye's Zobrist tables, indexed by Chuhan's piece and
/// square numbers.
struct Locks {
    side: u32,
    table: [[u32; Square::COUNT]; 14],
}

static LOCKS: LazyLock<Locks> = LazyLock::new(|| {
    let mut rc4 = Rc4::new(&[0; 4]);
    // Draw order: the side key (dwKey, dwLock0, dwLock1), then for each of the 14
    // pieces and each of the 256 points its three values.
    fn draw_lock1(rc4: &mut Rc4) -> u32 {
        rc4.next_u32();
        rc4.next_u32();
        rc4.next_u32()
    }
    let side = draw_lock1(&mut rc4);
    let mut by_point = [[0u32; 256]; 14];
    for piece in by_point.iter_mut() {
        for value in piece.iter_mut() {
            *value = draw_lock1(&mut rc4);
        }
    }
    let mut table = [[0u32; Square::COUNT]; 14];
    for (i, row) in table.iter_mut().enumerate() {
        let ee = eleeye_piece(Piece::from_index(i));
        for sq in Square::ALL {
            row[sq.index()] = by_point[ee][eleeye_square(sq)];
        }
    }
    Locks { side, table }
});

fn lock_of(pos: &Position, mirrored: bool) -> u32 {
    let locks = &*LOCKS;
    let mut lock = match pos.side_to_move() {
        Color::Red => 0,
        Color::Black => locks.side,
    };
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_at(sq) {
            let at = if mirrored { sq.mirror() } else { sq };
            lock ^= locks.table[p.index()][at.index()];
        }
    }
    lock
}

/// ElephantEye's 32-bit lock (`dwLock1`) of `pos`, the key of `BOOK.DAT` records.
///
/// ```
/// use chuhan_engine::book::eleeye::lock;
/// use chuhan_engine::core::Position;
/// // The value the real BOOK.DAT files the start position under.
/// assert_eq!(lock(&Position::startpos()), 0x0526_56d5);
/// ```
pub fn lock(pos: &Position) -> u32 {
    lock_of(pos, false)
}

/// ElephantEye's lock of the left-right mirror of `pos`.
pub fn mirror_lock(pos: &Position) -> u32 {
    lock_of(pos, true)
}

/// A loaded ElephantEye `BOOK.DAT`.
#[derive(Clone, Debug)]
pub struct EleeyeBook {
    locks: Vec<u32>,
    moves: Vec<(Move, u16)>,
}

impl EleeyeBook {
    /// Reads a `BOOK.DAT` image, checking that the size is a whole number of records,
    /// the locks are sorted and every move is between two points of the board.
    pub fn from_bytes(data: &[u8]) -> Result<EleeyeBook, BookError> {
        if data.is_empty() {
            return Err(BookError::Empty);
        }
        if !data.len().is_multiple_of(8) {
            return Err(BookError::Corrupt {
                offset: (data.len() - data.len() % 8) as u64,
                reason: Corruption::RecordSize,
            });
        }
        let n = data.len() / 8;
        let mut locks = Vec::with_capacity(n);
        let mut moves = Vec::with_capacity(n);
        for (i, r) in data.chunks_exact(8).enumerate() {
            let lock = u32::from_le_bytes([r[0], r[1], r[2], r[3]]);
            if locks.last().is_some_and(|&prev| lock < prev) {
                return Err(BookError::Corrupt {
                    offset: 8 * i as u64,
                    reason: Corruption::KeyOrder,
                });
            }
            let mv = decode_move(u16::from_le_bytes([r[4], r[5]])).ok_or(BookError::Corrupt {
                offset: 8 * i as u64 + 4,
                reason: Corruption::Move,
            })?;
            locks.push(lock);
            moves.push((mv, u16::from_le_bytes([r[6], r[7]])));
        }
        Ok(EleeyeBook { locks, moves })
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.locks.len()
    }

    /// True if the book has no records (never true for a loaded book).
    pub fn is_empty(&self) -> bool {
        self.locks.is_empty()
    }

    fn records(&self, lock: u32) -> &[(Move, u16)] {
        let lo = self.locks.partition_point(|&l| l < lock);
        let hi = lo + self.locks[lo..].partition_point(|&l| l == lock);
        &self.moves[lo..hi]
    }

    /// The book's legal moves for `pos`, heaviest first, weights as stored. Records
    /// under the position's lock are used; if none of them is legal here, those under
    /// its mirror image's lock, mirrored back (ElephantEye's own lookup order). Records
    /// whose move is illegal (another position with the same 32-bit lock) are
    /// dropped, and a move listed twice keeps its larger weight.
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let direct = lock(pos);
        let mut out = self.legal_records(pos, direct, false);
        if out.is_empty() {
            let mirror = mirror_lock(pos);
            if mirror != direct {
                out = self.legal_records(pos, mirror, true);
            }
        }
        out.sort_by(BookMove::canonical_order);
        out
    }

    fn legal_records(&self, pos: &Position, lock: u32, mirrored: bool) -> Vec<BookMove> {
        let mut out: Vec<BookMove> = Vec::new();
        for &(mv, weight) in self.records(lock) {
            let mv = if mirrored { mv.mirror() } else { mv };
            if !pos.is_legal(mv) {
                continue;
            }
            match out.iter_mut().find(|b| b.mv == mv) {
                Some(b) => b.weight = b.weight.max(weight as u32),
                None => out.push(BookMove {
                    mv,
                    weight: weight as u32,
                    wdl: None,
                }),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rc4_matches_the_published_test_vector() {
        // RFC 6229, key 0x0102030405: keystream starts b2 39 63 05.
        let mut rc4 = Rc4::new(&[1, 2, 3, 4, 5]);
        let bytes: Vec<u8> = (0..4).map(|_| rc4.next_byte()).collect();
        assert_eq!(bytes, [0xb2, 0x39, 0x63, 0x05]);
    }

    #[test]
    fn points_and_moves() {
        assert_eq!(eleeye_square(Square::A9), 0x33);
        assert_eq!(eleeye_square(Square::I9), 0x3B);
        assert_eq!(eleeye_square(Square::A0), 0xC3);
        assert_eq!(eleeye_square(Square::I0), 0xCB);
        for sq in Square::ALL {
            assert_eq!(square_of(eleeye_square(sq) as u8), Some(sq));
        }
        assert_eq!(square_of(0x32), None);
        assert_eq!(square_of(0x3C), None);
        assert_eq!(square_of(0x23), None);
        assert_eq!(square_of(0xD3), None);
        // h2e2: h2 = (7+3) + (7+3)*16 = 0xAA, e2 = 0xA7.
        assert_eq!(decode_move(0xA7AA), Some("h2e2".parse().unwrap()));
        assert_eq!(decode_move(0xAAAA), None);
    }

    #[test]
    fn start_position_locks() {
        // protocol.md §4.1: the shipped BOOK.DAT files the start position under
        // 0x052656d5; it is symmetric, so the mirror lock is the same.
        let start = Position::startpos();
        assert_eq!(lock(&start), 0x0526_56d5);
        assert_eq!(mirror_lock(&start), 0x0526_56d5);
        let mut pos = start.clone();
        pos.make_move("h2e2".parse().unwrap());
        assert_eq!(mirror_lock(&pos), lock(&pos.mirror()));
        assert_ne!(mirror_lock(&pos), lock(&pos));
    }
}
