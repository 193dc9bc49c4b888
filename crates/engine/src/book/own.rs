//! Chuhan's own book: [`OwnBook`] in memory, its versioned binary file, and
//! [`BookAssembler`], which folds mirrored positions and checks entries on the way in.
//!
//! Binary layout, version 1 (all integers little-endian; `books/README.md` has the
//! same table for people who write tools):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `CHUHANBK` |
//! | 8 | 2 | version (1) |
//! | 10 | 2 | flags (0) |
//! | 12 | 4 | number of positions `P` |
//! | 16 | 4 | number of moves `M` |
//! | 20 | 4 | reserved (0) |
//! | 24 | 8 | FNV-1a 64 checksum of every byte after the header |
//! | 32 | 56·P | positions, keys strictly ascending: key `u64`, move count `u16`, packed board (46 bytes: 90 nibbles, side) |
//! | 32+56·P | 20·M | moves, grouped by position in position order: move `u16` (Chuhan's raw `from << 7 \| to`), flags `u16` (bit 0: statistics present), weight `u32`, wins, draws, losses `u32` |

use super::entry::{BookMove, Wdl};
pub use super::error::EntryError;
use super::error::{BookError, Corruption};
use super::fold::{fold, mirror_key};
use super::index::KeyIndex;
use super::packed::PackedPosition;
use crate::binary::fnv1a;
use crate::core::{Move, Position};
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// First bytes of every Chuhan binary book.
pub const MAGIC: [u8; 8] = *b"CHUHANBK";
pub use super::format::VERSION;

const HEADER_SIZE: usize = 32;
const POSITION_SIZE: usize = 8 + 2 + PackedPosition::SIZE;
const MOVE_SIZE: usize = 20;
const HAS_WDL: u16 = 1;

fn u16_at(d: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([d[at], d[at + 1]])
}

fn u32_at(d: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]])
}

fn u64_at(d: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&d[at..at + 8]);
    u64::from_le_bytes(b)
}

/// A Chuhan book in memory: positions sorted by folded Zobrist key, each with its
/// moves in canonical order, probed through a bucket index and binary search.
///
/// ```
/// use chuhan_engine::book::{BookAssembler, BookMove, OwnBook};
/// use chuhan_engine::core::Position;
/// let start = Position::startpos();
/// let mut asm = BookAssembler::new();
/// asm.add(&start, BookMove { mv: "h2e2".parse().unwrap(), weight: 10, wdl: None }).unwrap();
/// let book = OwnBook::from_bytes(&asm.finish().to_bytes()).unwrap();
/// assert_eq!(book.probe(&start)[0].mv.to_string(), "h2e2");
/// ```
#[derive(Clone, Debug)]
pub struct OwnBook {
    keys: Vec<u64>,
    boards: Vec<PackedPosition>,
    /// `moves[starts[i]..starts[i + 1]]` are the moves of position `i`.
    starts: Vec<u32>,
    moves: Vec<BookMove>,
    index: KeyIndex,
}

impl OwnBook {
    fn from_parts(
        keys: Vec<u64>,
        boards: Vec<PackedPosition>,
        starts: Vec<u32>,
        moves: Vec<BookMove>,
    ) -> OwnBook {
        let index = KeyIndex::new(&keys);
        OwnBook {
            keys,
            boards,
            starts,
            moves,
            index,
        }
    }

    /// Number of positions.
    pub fn position_count(&self) -> usize {
        self.keys.len()
    }

    /// Number of moves (entries) over all positions.
    pub fn move_count(&self) -> usize {
        self.moves.len()
    }

    fn moves_of(&self, i: usize) -> &[BookMove] {
        &self.moves[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// The stored moves under folded key `key`, as stored (not mirrored back, not
    /// checked against any position); empty if the key is absent.
    pub fn lookup(&self, key: u64) -> &[BookMove] {
        match self.index.find(&self.keys, key) {
            Some(i) => self.moves_of(i),
            None => &[],
        }
    }

    /// The book's moves for `pos` in canonical order (heaviest first), all legal.
    ///
    /// Looks up the position's own key and, failing that, its mirror image's key
    /// (mirroring the moves back): a folded book files a position under exactly one of
    /// the two. A key is accepted only if the stored board is `pos`'s board, so a
    /// 64-bit key collision returns nothing rather than another position's moves;
    /// and since every stored move was checked legal on its board when the book was
    /// loaded or assembled, the moves need no further legality test.
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let key = pos.key();
        if let Some(i) = self.index.find(&self.keys, key)
            && self.boards[i] == PackedPosition::new(pos, false)
        {
            return self.moves_of(i).to_vec();
        }
        let mirror = mirror_key(pos);
        if mirror != key
            && let Some(i) = self.index.find(&self.keys, mirror)
            && self.boards[i] == PackedPosition::new(pos, true)
        {
            let mut out: Vec<BookMove> = self.moves_of(i).iter().map(|b| b.mirror()).collect();
            out.sort_by(BookMove::canonical_order);
            return out;
        }
        Vec::new()
    }

    /// Every position (in its stored, folded orientation) with its moves, in key
    /// order: the order of the binary file and of the text dump.
    pub fn iter(&self) -> impl Iterator<Item = (Position, &[BookMove])> + '_ {
        self.boards.iter().enumerate().map(|(i, b)| {
            let pos = b
                .to_position()
                .expect("boards are validated when a book is loaded or assembled");
            (pos, self.moves_of(i))
        })
    }

    /// The binary file (version [`VERSION`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let size = HEADER_SIZE + POSITION_SIZE * self.keys.len() + MOVE_SIZE * self.moves.len();
        let mut out = Vec::with_capacity(size);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&(self.keys.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.moves.len() as u32).to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes());
        for (i, (key, board)) in self.keys.iter().zip(&self.boards).enumerate() {
            let count = self.starts[i + 1] - self.starts[i];
            out.extend_from_slice(&key.to_le_bytes());
            out.extend_from_slice(&(count as u16).to_le_bytes());
            out.extend_from_slice(board.as_bytes());
        }
        for b in &self.moves {
            let flags = if b.wdl.is_some() { HAS_WDL } else { 0 };
            let wdl = b.wdl.unwrap_or_default();
            out.extend_from_slice(&b.mv.raw().to_le_bytes());
            out.extend_from_slice(&flags.to_le_bytes());
            for v in [b.weight, wdl.wins, wdl.draws, wdl.losses] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        let sum = fnv1a(&out[HEADER_SIZE..]);
        out[24..32].copy_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads and fully validates a binary book: header, size, checksum, key order,
    /// every board (a legal position whose folded key is the stored key) and every
    /// move (legal in its position, canonical order).
    pub fn from_bytes(data: &[u8]) -> Result<OwnBook, BookError> {
        let corrupt = |offset: usize, reason| BookError::Corrupt {
            offset: offset as u64,
            reason,
        };
        if !data.starts_with(&MAGIC) {
            return Err(BookError::UnknownFormat {
                offset: 0,
                reason: Corruption::Magic,
            });
        }
        if data.len() < HEADER_SIZE {
            return Err(BookError::Truncated {
                expected: HEADER_SIZE as u64,
                actual: data.len() as u64,
            });
        }
        let version = u16_at(data, 8);
        if version != VERSION {
            return Err(BookError::UnsupportedVersion(version));
        }
        if u16_at(data, 10) != 0 {
            return Err(corrupt(10, Corruption::HeaderFields));
        }
        if u32_at(data, 20) != 0 {
            return Err(corrupt(20, Corruption::HeaderFields));
        }
        let npos = u32_at(data, 12) as usize;
        let nmoves = u32_at(data, 16) as usize;
        let expected = HEADER_SIZE as u64
            + POSITION_SIZE as u64 * npos as u64
            + MOVE_SIZE as u64 * nmoves as u64;
        let actual = data.len() as u64;
        if actual < expected {
            return Err(BookError::Truncated { expected, actual });
        }
        if actual > expected {
            return Err(corrupt(expected as usize, Corruption::TrailingBytes));
        }
        if fnv1a(&data[HEADER_SIZE..]) != u64_at(data, 24) {
            return Err(corrupt(24, Corruption::Checksum));
        }
        let moves_at = HEADER_SIZE + POSITION_SIZE * npos;
        let mut keys = Vec::with_capacity(npos);
        let mut boards = Vec::with_capacity(npos);
        let mut starts = Vec::with_capacity(npos + 1);
        let mut moves = Vec::with_capacity(nmoves);
        starts.push(0u32);
        for i in 0..npos {
            let at = HEADER_SIZE + POSITION_SIZE * i;
            let key = u64_at(data, at);
            if keys.last().is_some_and(|&prev| key <= prev) {
                return Err(corrupt(at, Corruption::KeyOrder));
            }
            let count = u16_at(data, at + 8) as usize;
            if count == 0 || moves.len() + count > nmoves {
                return Err(corrupt(at + 8, Corruption::MoveCount));
            }
            let mut raw = [0u8; PackedPosition::SIZE];
            raw.copy_from_slice(&data[at + 10..at + POSITION_SIZE]);
            let board = PackedPosition::from_bytes(raw);
            let pos = board
                .to_position()
                .ok_or_else(|| corrupt(at + 10, Corruption::Board))?;
            if pos.key() != key || mirror_key(&pos) < key {
                return Err(corrupt(at, Corruption::Key));
            }
            let first = moves.len();
            for _ in 0..count {
                let mat = moves_at + MOVE_SIZE * moves.len();
                let mv = Move::from_raw(u16_at(data, mat))
                    .filter(|&m| pos.is_legal(m))
                    .ok_or_else(|| corrupt(mat, Corruption::Move))?;
                let flags = u16_at(data, mat + 2);
                let weight = u32_at(data, mat + 4);
                let wdl = Wdl {
                    wins: u32_at(data, mat + 8),
                    draws: u32_at(data, mat + 12),
                    losses: u32_at(data, mat + 16),
                };
                let wdl = match flags {
                    HAS_WDL => Some(wdl),
                    0 if wdl == Wdl::default() => None,
                    _ => return Err(corrupt(mat + 2, Corruption::MoveFlags)),
                };
                let b = BookMove { mv, weight, wdl };
                if moves.len() > first
                    && BookMove::canonical_order(&moves[moves.len() - 1], &b).is_ge()
                {
                    return Err(corrupt(mat, Corruption::MoveOrder));
                }
                moves.push(b);
            }
            keys.push(key);
            boards.push(board);
            starts.push(moves.len() as u32);
        }
        if moves.len() != nmoves {
            return Err(corrupt(16, Corruption::MoveCount));
        }
        Ok(OwnBook::from_parts(keys, boards, starts, moves))
    }
}

/// Collects `(position, move)` entries into an [`OwnBook`]: folds each position onto
/// the smaller of its own and its mirror's key (mirroring the move with it), and
/// refuses illegal and duplicate moves.
#[derive(Clone, Debug, Default)]
pub struct BookAssembler {
    positions: HashMap<u64, (PackedPosition, Vec<BookMove>)>,
    moves: usize,
}

impl BookAssembler {
    /// An empty assembler.
    pub fn new() -> BookAssembler {
        BookAssembler::default()
    }

    /// Number of entries added so far.
    pub fn len(&self) -> usize {
        self.moves
    }

    /// True if nothing was added.
    pub fn is_empty(&self) -> bool {
        self.moves == 0
    }

    /// Adds one move of `pos`.
    pub fn add(&mut self, pos: &Position, entry: BookMove) -> Result<(), EntryError> {
        if !pos.is_legal(entry.mv) {
            return Err(EntryError::IllegalMove(entry.mv));
        }
        let f = fold(pos);
        let entry = if f.mirrored { entry.mirror() } else { entry };
        let board = PackedPosition::new(pos, f.mirrored);
        match self.positions.entry(f.key) {
            Entry::Vacant(v) => {
                v.insert((board, vec![entry]));
            }
            Entry::Occupied(mut o) => {
                let (stored, list) = o.get_mut();
                if *stored != board {
                    return Err(EntryError::KeyCollision);
                }
                if list.iter().any(|b| b.mv == entry.mv) {
                    return Err(EntryError::DuplicateMove(entry.mv));
                }
                list.push(entry);
            }
        }
        self.moves += 1;
        Ok(())
    }

    /// The finished book.
    pub fn finish(self) -> OwnBook {
        let mut positions: Vec<(u64, (PackedPosition, Vec<BookMove>))> =
            self.positions.into_iter().collect();
        positions.sort_unstable_by_key(|p| p.0);
        let mut keys = Vec::with_capacity(positions.len());
        let mut boards = Vec::with_capacity(positions.len());
        let mut starts = Vec::with_capacity(positions.len() + 1);
        let mut moves = Vec::with_capacity(self.moves);
        starts.push(0);
        for (key, (board, mut list)) in positions {
            list.sort_by(BookMove::canonical_order);
            keys.push(key);
            boards.push(board);
            moves.extend(list);
            starts.push(moves.len() as u32);
        }
        OwnBook::from_parts(keys, boards, starts, moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_collision_returns_nothing() {
        // Another position's board under the start position's key, as a 64-bit
        // collision would have it: the probe must not hand out that position's moves.
        let start = Position::startpos();
        let mut other = start.clone();
        other.make_move("h2e2".parse().unwrap());
        other.make_move("h9g7".parse().unwrap());
        let entry = BookMove {
            mv: "h0g2".parse().unwrap(),
            weight: 1,
            wdl: None,
        };
        let book = OwnBook::from_parts(
            vec![start.key()],
            vec![PackedPosition::new(&other, false)],
            vec![0, 1],
            vec![entry],
        );
        assert_eq!(book.lookup(start.key()), &[entry]);
        assert!(book.probe(&start).is_empty());
        let honest = OwnBook::from_parts(
            vec![start.key()],
            vec![PackedPosition::new(&start, false)],
            vec![0, 1],
            vec![entry],
        );
        assert_eq!(honest.probe(&start), vec![entry]);
    }
}
