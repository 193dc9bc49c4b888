//! Attack tables for every piece kind.
//!
//! Each table is generated at compile time (`const fn`) from one slow reference
//! function (`*_slow`), which the tests use again as the oracle.
//!
//! **Rook and cannon.** The rook relevance mask of a square is the union of its rank
//! half (the 7 inner points of its rank) and its file half (the 8 inner points of its
//! file); points on the board edge never change the answer, for the rook or the
//! cannon. The rank half is indexed directly by a shift (its 7 bits are contiguous),
//! the file half by a magic multiplication that gathers the 8 file bits (stride 9)
//! into one byte, or by `PEXT` when compiled with BMI2 (`-C target-cpu=native` on a
//! BMI2 machine). One index serves both riders: the rook table gives the points up to
//! and including the first piece on each ray, the cannon table the points after the
//! first piece (the screen) up to and including the next one. Quiet cannon moves are
//! rook attacks on empty points; cannon captures are the cannon set on enemy pieces.
//! The tables total 2 x (9 x 128 x 2 + 10 x 256 x 16) bytes, about 85 KB, so they live
//! in L2.
//!
//! **Horse, elephant.** The four leg (eye) points are gathered into a 4-bit index from
//! a window of the occupancy around the square; the reverse horse table
//! ([`horse_attackers`]) gates each source by its leg, which is diagonal to the
//! target.

use super::bitboard::Bitboard;
use super::piece::Color;
use super::square::Square;

// ---------------------------------------------------------------------------
// Reference functions (slow, obviously correct). Used to build the tables and as
// test oracles.
// ---------------------------------------------------------------------------

const fn bit(f: i32, r: i32) -> u128 {
    if f >= 0 && f < 9 && r >= 0 && r < 10 {
        1u128 << (r * 9 + f)
    } else {
        0
    }
}

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// Rook attacks by walking each ray: every point up to and including the first
/// occupied one.
pub const fn rook_attacks_slow(sq: Square, occ: u128) -> u128 {
    let (f0, r0) = ((sq as i32) % 9, (sq as i32) / 9);
    let mut att = 0u128;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = DIRS[d];
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while on_board(f, r) {
            att |= bit(f, r);
            if occ & bit(f, r) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    att
}

/// Cannon x-ray set by walking each ray: after the first occupied point (the
/// screen), every point up to and including the next occupied one. Its occupied
/// points are the cannon's possible captures.
pub const fn cannon_attacks_slow(sq: Square, occ: u128) -> u128 {
    let (f0, r0) = ((sq as i32) % 9, (sq as i32) / 9);
    let mut att = 0u128;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = DIRS[d];
        let (mut f, mut r) = (f0 + df, r0 + dr);
        let mut screen = false;
        while on_board(f, r) {
            if screen {
                att |= bit(f, r);
                if occ & bit(f, r) != 0 {
                    break;
                }
            } else if occ & bit(f, r) != 0 {
                screen = true;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    att
}

/// The eight horse jumps as (leg, destination) offsets.
const HORSE_JUMPS: [((i32, i32), (i32, i32)); 8] = [
    ((0, 1), (-1, 2)),
    ((0, 1), (1, 2)),
    ((1, 0), (2, 1)),
    ((1, 0), (2, -1)),
    ((0, -1), (1, -2)),
    ((0, -1), (-1, -2)),
    ((-1, 0), (-2, -1)),
    ((-1, 0), (-2, 1)),
];

/// Horse moves from `sq`: a jump is possible when its leg (the point orthogonally
/// next to the horse, toward the jump) is empty.
pub const fn horse_attacks_slow(sq: Square, occ: u128) -> u128 {
    let (f0, r0) = ((sq as i32) % 9, (sq as i32) / 9);
    let mut att = 0u128;
    let mut i = 0;
    while i < 8 {
        let ((lf, lr), (tf, tr)) = HORSE_JUMPS[i];
        if on_board(f0 + tf, r0 + tr) && occ & bit(f0 + lf, r0 + lr) == 0 {
            att |= bit(f0 + tf, r0 + tr);
        }
        i += 1;
    }
    att
}

/// Squares from which a horse attacks `sq`: the reverse of [`horse_attacks_slow`]. The
/// leg of such a horse is next to the horse, i.e. diagonal to `sq`.
pub const fn horse_attackers_slow(sq: Square, occ: u128) -> u128 {
    let (f0, r0) = ((sq as i32) % 9, (sq as i32) / 9);
    let mut att = 0u128;
    let mut i = 0;
    while i < 8 {
        let ((lf, lr), (tf, tr)) = HORSE_JUMPS[i];
        // A horse at sq - t jumps to sq with its leg at sq - t + l.
        let (hf, hr) = (f0 - tf, r0 - tr);
        if on_board(hf, hr) && occ & bit(hf + lf, hr + lr) == 0 {
            att |= bit(hf, hr);
        }
        i += 1;
    }
    att
}

/// True if `(f, r)` is on `color`'s side of the river.
const fn own_half(color: u8, r: i32) -> bool {
    if color == 0 { r <= 4 } else { r >= 5 }
}

/// Elephant moves from `sq`: two points diagonally, if the eye between is empty and
/// the destination does not cross the river (the side is the half `sq` is on).
pub const fn elephant_attacks_slow(sq: Square, occ: u128) -> u128 {
    let (f0, r0) = ((sq as i32) % 9, (sq as i32) / 9);
    let color = if r0 <= 4 { 0 } else { 1 };
    let mut att = 0u128;
    let diag = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
    let mut i = 0;
    while i < 4 {
        let (df, dr) = diag[i];
        let (tf, tr) = (f0 + 2 * df, r0 + 2 * dr);
        if on_board(tf, tr) && own_half(color, tr) && occ & bit(f0 + df, r0 + dr) == 0 {
            att |= bit(tf, tr);
        }
        i += 1;
    }
    att
}

const fn in_palace(f: i32, r: i32) -> bool {
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

/// Advisor moves: one point diagonally, staying inside the palace.
pub const fn advisor_attacks_slow(sq: Square) -> u128 {
    let (f0, r0) = ((sq as i32) % 9, (sq as i32) / 9);
    let mut att = 0u128;
    let diag = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
    let mut i = 0;
    while i < 4 {
        let (tf, tr) = (f0 + diag[i].0, r0 + diag[i].1);
        if in_palace(f0, r0) && in_palace(tf, tr) && on_board(tf, tr) {
            att |= bit(tf, tr);
        }
        i += 1;
    }
    att
}

/// King moves: one point orthogonally, staying inside the palace.
pub const fn king_attacks_slow(sq: Square) -> u128 {
    let (f0, r0) = ((sq as i32) % 9, (sq as i32) / 9);
    let mut att = 0u128;
    let mut i = 0;
    while i < 4 {
        let (tf, tr) = (f0 + DIRS[i].0, r0 + DIRS[i].1);
        if in_palace(f0, r0) && in_palace(tf, tr) && on_board(tf, tr) && (tr <= 2) == (r0 <= 2) {
            att |= bit(tf, tr);
        }
        i += 1;
    }
    att
}

/// Pawn moves of `color` from `sq`: one point forward, and sideways once across the
/// river.
pub const fn pawn_attacks_slow(color: Color, sq: Square) -> u128 {
    let (f0, r0) = ((sq as i32) % 9, (sq as i32) / 9);
    let fwd = if matches!(color, Color::Red) { 1 } else { -1 };
    let crossed = !own_half(color as u8, r0);
    let mut att = bit(f0, r0 + fwd);
    if crossed {
        att |= bit(f0 - 1, r0) | bit(f0 + 1, r0);
    }
    att
}

/// Squares from which a pawn of `color` attacks `sq`.
pub const fn pawn_attackers_slow(color: Color, sq: Square) -> u128 {
    let mut att = 0u128;
    let mut i = 0;
    while i < 90 {
        if pawn_attacks_slow(color, Square::ALL[i]) & (1u128 << sq as u8) != 0 {
            att |= 1u128 << i;
        }
        i += 1;
    }
    att
}

// ---------------------------------------------------------------------------
// Tables.
// ---------------------------------------------------------------------------

/// Inner points of file a (ranks 1..8): the file half of a rook relevance mask, shifted
/// to file a.
const FILE_A_INNER: u128 = {
    let mut b = 0u128;
    let mut r = 1;
    while r <= 8 {
        b |= 1u128 << (9 * r);
        r += 1;
    }
    b
};

/// Magic multiplier gathering bits 9, 18, .., 63 (ranks 1..7 of file a) into bits
/// 57..63. Bit `9k` times `2^(56-8k)` lands on `56+k`; every cross term lands on a
/// distinct lower bit (`9j - 8k` is unique) or overflows, so no carry disturbs the
/// top seven bits.
const FILE_MAGIC: u64 = 0x0001_0101_0101_0101;

/// Low-half mask of the file gather, for PEXT.
#[cfg(target_feature = "bmi2")]
const FILE_LO_MASK: u64 = FILE_A_INNER as u64;

/// Index 0..255 of the inner occupancy of the file of `file` (bit k-1 = rank k).
#[inline(always)]
fn file_index(occ: u128, file: usize) -> usize {
    let x = (occ >> file) & FILE_A_INNER;
    #[cfg(target_feature = "bmi2")]
    {
        // SAFETY: the `bmi2` target feature is enabled for this build.
        let lo = unsafe { std::arch::x86_64::_pext_u64(x as u64, FILE_LO_MASK) };
        (lo | (((x >> 72) as u64 & 1) << 7)) as usize
    }
    #[cfg(not(target_feature = "bmi2"))]
    {
        let lo = (x as u64).wrapping_mul(FILE_MAGIC) >> 57;
        (lo | (((x >> 72) as u64 & 1) << 7)) as usize
    }
}

/// The portable file gather, kept for tests on BMI2 builds.
#[cfg(test)]
fn file_index_magic(occ: u128, file: usize) -> usize {
    let x = (occ >> file) & FILE_A_INNER;
    let lo = (x as u64).wrapping_mul(FILE_MAGIC) >> 57;
    (lo | (((x >> 72) as u64 & 1) << 7)) as usize
}

/// Occupancy of file a whose inner bits are given by `idx`.
const fn file_occ(idx: usize) -> u128 {
    let mut occ = 0u128;
    let mut k = 0;
    while k < 8 {
        if idx & (1 << k) != 0 {
            occ |= 1u128 << (9 * (k + 1));
        }
        k += 1;
    }
    occ
}

type RankTable = [[u16; 128]; 9];
type FileTable = [[u128; 256]; 10];

const fn build_rank_table(cannon: bool) -> RankTable {
    let mut t = [[0u16; 128]; 9];
    let mut f = 0;
    while f < 9 {
        let mut idx = 0;
        while idx < 128 {
            let occ = (idx as u128) << 1;
            let sq = Square::ALL[f];
            let full = if cannon {
                cannon_attacks_slow(sq, occ)
            } else {
                rook_attacks_slow(sq, occ)
            };
            t[f][idx] = (full & 0x1FF) as u16;
            idx += 1;
        }
        f += 1;
    }
    t
}

const fn build_file_table(cannon: bool) -> FileTable {
    let mut t = [[0u128; 256]; 10];
    let mut r = 0;
    while r < 10 {
        let mut idx = 0;
        while idx < 256 {
            let occ = file_occ(idx);
            let sq = Square::ALL[r * 9];
            let full = if cannon {
                cannon_attacks_slow(sq, occ)
            } else {
                rook_attacks_slow(sq, occ)
            };
            t[r][idx] = full & Bitboard::FILE_A.0;
            idx += 1;
        }
        r += 1;
    }
    t
}

static RANK_ROOK: RankTable = build_rank_table(false);
static RANK_CANNON: RankTable = build_rank_table(true);
static FILE_ROOK: FileTable = build_file_table(false);
static FILE_CANNON: FileTable = build_file_table(true);

/// Index of the rank half of the relevance mask.
#[inline(always)]
fn rank_index(occ: u128, rank: usize) -> usize {
    ((occ >> (9 * rank + 1)) & 0x7F) as usize
}

/// Rook attacks from `sq` with occupancy `occ`: every point up to and including the
/// first piece on each ray.
///
/// ```
/// use chuhan_engine::core::{attacks, Bitboard, Square};
/// let occ = Bitboard::from(Square::E5);
/// let a = attacks::rook_attacks(Square::E0, occ);
/// assert!(a.has(Square::E5) && !a.has(Square::E6) && a.has(Square::A0));
/// ```
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let (f, r) = (sq.file().index(), sq.rank().index());
    let rank = (RANK_ROOK[f][rank_index(occ.0, r)] as u128) << (9 * r);
    let file = FILE_ROOK[r][file_index(occ.0, f)] << f;
    Bitboard(rank | file)
}

/// Cannon x-ray set from `sq`: the points beyond the first piece (the screen) on each
/// ray, up to and including the next piece. `cannon_attacks(..) & enemy` are the
/// cannon's captures.
///
/// ```
/// use chuhan_engine::core::{attacks, Bitboard, Square};
/// let occ = Bitboard::from(Square::E5) | Square::E7.into();
/// let a = attacks::cannon_attacks(Square::E2, occ);
/// assert!(a.has(Square::E6) && a.has(Square::E7) && !a.has(Square::E8) && !a.has(Square::E5));
/// ```
#[inline(always)]
pub fn cannon_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let (f, r) = (sq.file().index(), sq.rank().index());
    let rank = (RANK_CANNON[f][rank_index(occ.0, r)] as u128) << (9 * r);
    let file = FILE_CANNON[r][file_index(occ.0, f)] << f;
    Bitboard(rank | file)
}

/// Rook attacks restricted to `sq`'s rank and file on an empty board.
#[inline(always)]
pub fn rook_cross(sq: Square) -> Bitboard {
    Bitboard(CROSS[sq.index()])
}

static CROSS: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = rook_attacks_slow(Square::ALL[i], 0);
        i += 1;
    }
    t
};

/// The squares where a move's departure or arrival can change whether a piece
/// other than the mover attacks a king on `ksq`: its rank and file (rook and cannon
/// lines and cannon screens) and its four diagonal neighbours (the legs of the
/// horses that attack it). A move touching neither can give check only with the
/// moved piece itself, and then only a horse can: rooks, cannons, pawns and the
/// king attack along the rank and file.
#[inline(always)]
pub fn check_zone(ksq: Square) -> Bitboard {
    Bitboard(CHECK_ZONE[ksq.index()])
}

static CHECK_ZONE: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut i = 0;
    while i < 90 {
        let sq = Square::ALL[i];
        let mut zone = rook_attacks_slow(sq, 0);
        let diagonals = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let mut d = 0;
        while d < 4 {
            if let Some(n) = sq.offset(diagonals[d].0, diagonals[d].1) {
                zone |= 1u128 << n.index();
            }
            d += 1;
        }
        t[i] = zone;
        i += 1;
    }
    t
};

/// 4-bit index of the orthogonal neighbours of `sq` (bit 0 south, 1 west, 2 east,
/// 3 north). Neighbours off the board gate only off-board jumps, so whatever bit a
/// wrapped-around point gives does not matter.
#[inline(always)]
fn orth_index(occ: u128, sq: usize) -> usize {
    let w = ((occ << 10) >> sq) as u32;
    #[cfg(target_feature = "bmi2")]
    {
        // SAFETY: the `bmi2` target feature is enabled for this build.
        unsafe {
            std::arch::x86_64::_pext_u32(w, (1 << 1) | (1 << 9) | (1 << 11) | (1 << 19)) as usize
        }
    }
    #[cfg(not(target_feature = "bmi2"))]
    {
        (((w >> 1) & 1) | ((w >> 8) & 2) | ((w >> 9) & 4) | ((w >> 16) & 8)) as usize
    }
}

/// 4-bit index of the diagonal neighbours of `sq` (bit 0 south-west, 1 south-east,
/// 2 north-west, 3 north-east).
#[inline(always)]
fn diag_index(occ: u128, sq: usize) -> usize {
    let w = ((occ << 10) >> sq) as u32;
    #[cfg(target_feature = "bmi2")]
    {
        // SAFETY: the `bmi2` target feature is enabled for this build.
        unsafe { std::arch::x86_64::_pext_u32(w, 1 | (1 << 2) | (1 << 18) | (1 << 20)) as usize }
    }
    #[cfg(not(target_feature = "bmi2"))]
    {
        ((w & 1) | ((w >> 1) & 2) | ((w >> 16) & 4) | ((w >> 17) & 8)) as usize
    }
}

/// Occupancy with the orthogonal neighbours of `sq` set as `idx` says.
const fn orth_occ(sq: usize, idx: usize) -> u128 {
    let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
    let mut occ = 0;
    if idx & 1 != 0 {
        occ |= bit(f, r - 1);
    }
    if idx & 2 != 0 {
        occ |= bit(f - 1, r);
    }
    if idx & 4 != 0 {
        occ |= bit(f + 1, r);
    }
    if idx & 8 != 0 {
        occ |= bit(f, r + 1);
    }
    occ
}

/// Occupancy with the diagonal neighbours of `sq` set as `idx` says.
const fn diag_occ(sq: usize, idx: usize) -> u128 {
    let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
    let mut occ = 0;
    if idx & 1 != 0 {
        occ |= bit(f - 1, r - 1);
    }
    if idx & 2 != 0 {
        occ |= bit(f + 1, r - 1);
    }
    if idx & 4 != 0 {
        occ |= bit(f - 1, r + 1);
    }
    if idx & 8 != 0 {
        occ |= bit(f + 1, r + 1);
    }
    occ
}

type LeaperTable = [[u128; 16]; 90];

const fn build_leaper(kind: u8) -> LeaperTable {
    let mut t = [[0u128; 16]; 90];
    let mut s = 0;
    while s < 90 {
        let mut idx = 0;
        while idx < 16 {
            let sq = Square::ALL[s];
            t[s][idx] = match kind {
                0 => horse_attacks_slow(sq, orth_occ(s, idx)),
                1 => horse_attackers_slow(sq, diag_occ(s, idx)),
                _ => elephant_attacks_slow(sq, diag_occ(s, idx)),
            };
            idx += 1;
        }
        s += 1;
    }
    t
}

static HORSE: LeaperTable = build_leaper(0);
static HORSE_TO: LeaperTable = build_leaper(1);
static ELEPHANT: LeaperTable = build_leaper(2);

/// Horse moves from `sq` (leg blocking applied).
///
/// ```
/// use chuhan_engine::core::{attacks, Bitboard, Square};
/// assert_eq!(attacks::horse_attacks(Square::B0, Bitboard::EMPTY).count(), 3);
/// // A piece on c0 blocks the jump to d1 only.
/// let a = attacks::horse_attacks(Square::B0, Bitboard::from(Square::C0));
/// assert_eq!(a.count(), 2);
/// ```
#[inline(always)]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(HORSE[sq.index()][orth_index(occ.0, sq.index())])
}

/// Squares from which a horse would attack `sq` (each gated by its own leg, which is
/// diagonal to `sq`).
#[inline(always)]
pub fn horse_attackers(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(HORSE_TO[sq.index()][diag_index(occ.0, sq.index())])
}

/// Elephant moves from `sq` (eye blocking, never across the river).
#[inline(always)]
pub fn elephant_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(ELEPHANT[sq.index()][diag_index(occ.0, sq.index())])
}

static ADVISOR: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = advisor_attacks_slow(Square::ALL[i]);
        i += 1;
    }
    t
};

static KING: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = king_attacks_slow(Square::ALL[i]);
        i += 1;
    }
    t
};

static PAWN: [[u128; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut i = 0;
    while i < 90 {
        t[0][i] = pawn_attacks_slow(Color::Red, Square::ALL[i]);
        t[1][i] = pawn_attacks_slow(Color::Black, Square::ALL[i]);
        i += 1;
    }
    t
};

static PAWN_TO: [[u128; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut i = 0;
    while i < 90 {
        t[0][i] = pawn_attackers_slow(Color::Red, Square::ALL[i]);
        t[1][i] = pawn_attackers_slow(Color::Black, Square::ALL[i]);
        i += 1;
    }
    t
};

/// Advisor moves from `sq` (inside the palace).
#[inline(always)]
pub fn advisor_attacks(sq: Square) -> Bitboard {
    Bitboard(ADVISOR[sq.index()])
}

/// King moves from `sq` (inside the palace; facing kings are handled as rook attacks
/// between the kings).
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Pawn moves of a `color` pawn on `sq`.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Squares from which a `color` pawn attacks `sq`.
#[inline(always)]
pub fn pawn_attackers(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_TO[color.index()][sq.index()])
}

// ---------------------------------------------------------------------------
// Geometry: between, line, horse legs, check blocks.
// ---------------------------------------------------------------------------

const fn between_slow(a: usize, b: usize) -> u128 {
    let (fa, ra, fb, rb) = (
        (a % 9) as i32,
        (a / 9) as i32,
        (b % 9) as i32,
        (b / 9) as i32,
    );
    if a == b || (fa != fb && ra != rb) {
        return 0;
    }
    let df = if fb > fa {
        1
    } else if fb < fa {
        -1
    } else {
        0
    };
    let dr = if rb > ra {
        1
    } else if rb < ra {
        -1
    } else {
        0
    };
    let (mut f, mut r) = (fa + df, ra + dr);
    let mut out = 0u128;
    while f != fb || r != rb {
        out |= bit(f, r);
        f += df;
        r += dr;
    }
    out
}

const fn line_slow(a: usize, b: usize) -> u128 {
    let (fa, ra, fb, rb) = (
        (a % 9) as i32,
        (a / 9) as i32,
        (b % 9) as i32,
        (b / 9) as i32,
    );
    if a == b {
        0
    } else if fa == fb {
        Bitboard::FILE_A.0 << fa
    } else if ra == rb {
        Bitboard::RANK_0.0 << (9 * ra)
    } else {
        0
    }
}

/// Leg square of a horse jumping from `from` to `to`, if that is a horse jump.
pub const fn horse_leg_slow(from: usize, to: usize) -> Option<usize> {
    let (ff, fr, tf, tr) = (
        (from % 9) as i32,
        (from / 9) as i32,
        (to % 9) as i32,
        (to / 9) as i32,
    );
    let (df, dr) = (tf - ff, tr - fr);
    let (lf, lr) = if (df == 1 || df == -1) && (dr == 2 || dr == -2) {
        (ff, fr + dr / 2)
    } else if (df == 2 || df == -2) && (dr == 1 || dr == -1) {
        (ff + df / 2, fr)
    } else {
        return None;
    };
    Some((lr * 9 + lf) as usize)
}

type PairTable = [[u128; 90]; 90];

static BETWEEN: PairTable = {
    let mut t = [[0u128; 90]; 90];
    let mut a = 0;
    while a < 90 {
        let mut b = 0;
        while b < 90 {
            t[a][b] = between_slow(a, b);
            b += 1;
        }
        a += 1;
    }
    t
};

static LINE: PairTable = {
    let mut t = [[0u128; 90]; 90];
    let mut a = 0;
    while a < 90 {
        let mut b = 0;
        while b < 90 {
            t[a][b] = line_slow(a, b);
            b += 1;
        }
        a += 1;
    }
    t
};

/// `BLOCK[target][attacker]`: the squares where a piece stops a rook/king/horse/pawn
/// attack from `attacker` on `target`, including capturing `attacker` itself. For a
/// line it is the squares strictly between plus `attacker`; for a horse a jump away,
/// the horse's leg plus the horse.
static BLOCK: PairTable = {
    let mut t = [[0u128; 90]; 90];
    let mut a = 0;
    while a < 90 {
        let mut b = 0;
        while b < 90 {
            let mut m = between_slow(a, b) | (1u128 << b);
            if let Some(leg) = horse_leg_slow(b, a) {
                m |= 1u128 << leg;
            }
            if a == b {
                m = 0;
            }
            t[a][b] = m;
            b += 1;
        }
        a += 1;
    }
    t
};

/// Squares strictly between `a` and `b` when they share a rank or file; empty
/// otherwise.
///
/// ```
/// use chuhan_engine::core::{attacks, Square};
/// assert_eq!(attacks::between(Square::E0, Square::E3).count(), 2);
/// assert!(attacks::between(Square::E0, Square::F3).is_empty());
/// ```
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The whole rank or file through `a` and `b`, empty if they are not aligned.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index()][b.index()])
}

/// Squares that stop an attack by `attacker` on `target` (see the table's notes):
/// between plus the attacker for lines, leg plus the horse for a horse jump.
#[inline(always)]
pub fn block(target: Square, attacker: Square) -> Bitboard {
    Bitboard(BLOCK[target.index()][attacker.index()])
}

/// The leg of a horse jump `from` -> `to`, if it is one.
pub fn horse_leg(from: Square, to: Square) -> Option<Square> {
    horse_leg_slow(from.index(), to.index()).map(|i| Square::ALL[i])
}

/// Squares a piece of the given kind and colour can ever stand on (used to validate
/// positions): palace for king/advisor points, elephant points, pawn points.
pub mod regions {
    use super::*;
    use crate::core::piece::PieceKind;

    const fn build(kind: u8, color: u8) -> u128 {
        let mut b = 0u128;
        let mut r = 0;
        while r < 10 {
            let mut f = 0;
            while f < 9 {
                let rr = if color == 0 { r } else { 9 - r };
                let ok = match kind {
                    // King: the palace.
                    0 => f >= 3 && f <= 5 && rr <= 2,
                    // Advisor: the five palace points on the diagonals.
                    1 => (f == 3 || f == 5) && (rr == 0 || rr == 2) || (f == 4 && rr == 1),
                    // Elephant: seven points.
                    2 => {
                        ((f == 2 || f == 6) && (rr == 0 || rr == 4))
                            || ((f == 0 || f == 4 || f == 8) && rr == 2)
                    }
                    // Pawn: start rank or its file's next point on ranks 3-4 ... any point
                    // across the river, and files a, c, e, g, i on ranks 3 and 4.
                    _ => rr >= 5 || (rr >= 3 && f % 2 == 0),
                };
                if ok {
                    b |= 1u128 << (r * 9 + f);
                }
                f += 1;
            }
            r += 1;
        }
        b
    }

    static TABLE: [[u128; 2]; 4] = [
        [build(0, 0), build(0, 1)],
        [build(1, 0), build(1, 1)],
        [build(2, 0), build(2, 1)],
        [build(3, 0), build(3, 1)],
    ];

    /// Squares where a `color` piece of `kind` may stand in a legal position.
    ///
    /// ```
    /// use chuhan_engine::core::{attacks::regions, Color, PieceKind, Square};
    /// assert!(regions::allowed(PieceKind::Advisor, Color::Red).has(Square::E1));
    /// assert!(!regions::allowed(PieceKind::Advisor, Color::Red).has(Square::D1));
    /// ```
    pub fn allowed(kind: PieceKind, color: Color) -> Bitboard {
        let c = color.index();
        Bitboard(match kind {
            PieceKind::King => TABLE[0][c],
            PieceKind::Advisor => TABLE[1][c],
            PieceKind::Elephant => TABLE[2][c],
            PieceKind::Pawn => TABLE[3][c],
            _ => Bitboard::FULL.0,
        })
    }

    /// The nine palace points of `color`.
    pub fn palace(color: Color) -> Bitboard {
        Bitboard(TABLE[0][color.index()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::piece::PieceKind;

    /// A small deterministic generator for random occupancies.
    fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    fn random_occ(seed: &mut u64) -> u128 {
        let a = rng(seed) as u128 | (rng(seed) as u128) << 64;
        let b = rng(seed) as u128 | (rng(seed) as u128) << 64;
        // Density about 1/4.
        a & b & Bitboard::FULL.0
    }

    #[test]
    fn sliders_match_ray_walk() {
        let mut seed = 0x1234_5678_9abc_def1;
        for _ in 0..20_000 {
            let occ = random_occ(&mut seed);
            for sq in Square::ALL {
                assert_eq!(
                    rook_attacks(sq, Bitboard(occ)).0,
                    rook_attacks_slow(sq, occ),
                    "{sq}"
                );
                assert_eq!(
                    cannon_attacks(sq, Bitboard(occ)).0,
                    cannon_attacks_slow(sq, occ),
                    "{sq}"
                );
            }
        }
    }

    #[test]
    fn file_gather_magic_matches_bit_walk() {
        let mut seed = 99;
        for _ in 0..10_000 {
            let occ = random_occ(&mut seed);
            for f in 0..9 {
                let mut idx = 0;
                for k in 0..8 {
                    if occ >> (9 * (k + 1) + f) & 1 != 0 {
                        idx |= 1 << k;
                    }
                }
                assert_eq!(file_index_magic(occ, f), idx);
                assert_eq!(file_index(occ, f), idx);
            }
        }
    }

    #[test]
    fn leapers_match_reference() {
        let mut seed = 77;
        for _ in 0..5_000 {
            let occ = random_occ(&mut seed);
            for sq in Square::ALL {
                assert_eq!(
                    horse_attacks(sq, Bitboard(occ)).0,
                    horse_attacks_slow(sq, occ)
                );
                assert_eq!(
                    horse_attackers(sq, Bitboard(occ)).0,
                    horse_attackers_slow(sq, occ)
                );
                assert_eq!(
                    elephant_attacks(sq, Bitboard(occ)).0,
                    elephant_attacks_slow(sq, occ)
                );
            }
        }
    }

    #[test]
    fn horse_reverse_is_consistent() {
        // h attacks t with occupancy occ <=> h is among the attackers of t.
        let mut seed = 5;
        for _ in 0..2_000 {
            let occ = random_occ(&mut seed);
            for h in Square::ALL {
                for t in horse_attacks(h, Bitboard(occ)) {
                    assert!(horse_attackers(t, Bitboard(occ)).has(h));
                }
            }
            for t in Square::ALL {
                for h in horse_attackers(t, Bitboard(occ)) {
                    assert!(horse_attacks(h, Bitboard(occ)).has(t));
                }
            }
        }
    }

    #[test]
    fn reverse_leg_is_diagonal_to_target() {
        // A horse on c2 attacking e3 has its leg on d2, which is diagonal to e3.
        let occ = Bitboard::from(Square::D2);
        assert!(!horse_attackers(Square::E3, occ).has(Square::C2));
        assert!(horse_attackers(Square::E3, Bitboard::EMPTY).has(Square::C2));
        // A piece next to the target (d3) does not block it.
        assert!(horse_attackers(Square::E3, Bitboard::from(Square::D3)).has(Square::C2));
        assert_eq!(horse_leg(Square::C2, Square::E3), Some(Square::D2));
    }

    #[test]
    fn small_pieces() {
        assert_eq!(advisor_attacks(Square::E1).count(), 4);
        assert_eq!(advisor_attacks(Square::D0).0, Bitboard::from(Square::E1).0);
        assert_eq!(king_attacks(Square::E0).count(), 3);
        assert_eq!(king_attacks(Square::D2).count(), 2);
        assert_eq!(
            pawn_attacks(Color::Red, Square::E3).0,
            Bitboard::from(Square::E4).0
        );
        assert_eq!(pawn_attacks(Color::Red, Square::E5).count(), 3);
        assert_eq!(
            pawn_attacks(Color::Black, Square::E5).0,
            Bitboard::from(Square::E4).0
        );
        assert_eq!(pawn_attacks(Color::Red, Square::E9).count(), 2);
        assert_eq!(elephant_attacks(Square::C4, Bitboard::EMPTY).count(), 2);
        assert_eq!(elephant_attacks(Square::C5, Bitboard::EMPTY).count(), 2);
        assert!(!elephant_attacks(Square::E2, Bitboard::from(Square::D3)).has(Square::C4));
        assert_eq!(
            regions::allowed(PieceKind::Elephant, Color::Black).count(),
            7
        );
        assert_eq!(
            regions::allowed(PieceKind::Advisor, Color::Black).count(),
            5
        );
        assert_eq!(
            regions::allowed(PieceKind::Pawn, Color::Red).count(),
            45 + 10
        );
        for sq in Square::ALL {
            for c in Color::ALL {
                for t in pawn_attacks(c, sq) {
                    assert!(pawn_attackers(c, t).has(sq));
                }
            }
        }
    }

    #[test]
    fn block_sets() {
        assert_eq!(block(Square::E0, Square::E5).count(), 5);
        assert_eq!(
            block(Square::E0, Square::D2).0,
            (Bitboard::from(Square::D1) | Square::D2.into()).0
        );
        assert!(
            block(Square::E0, Square::A7).is_empty()
                || block(Square::E0, Square::A7) == Square::A7.into()
        );
        assert_eq!(line(Square::A0, Square::A9), Bitboard::FILE_A);
    }
}
