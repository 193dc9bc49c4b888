//! The transposition table: shared by every search thread without locks.
//!
//! Each entry is two `AtomicU64`s: the packed data and `key ^ data`. A reader accepts
//! an entry only if the two words still agree with the probed key, so an entry torn
//! by a concurrent writer reads as a miss, never as another position's data (the
//! classic lockless "XOR trick"). Four entries make a 64-byte bucket; the bucket is
//! chosen by the high half of `key * buckets`, so any size works.

use crate::core::Move;
use crate::search::score::Value;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the stored one (fail low).
    Upper,
    /// The true value is at least the stored one (fail high).
    Lower,
    /// The stored value is exact (a PV node).
    Exact,
}

impl Bound {
    fn bits(self) -> u64 {
        match self {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        }
    }

    fn from_bits(b: u64) -> Option<Bound> {
        match b {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }

    /// True if a value with this bound proves `value >= beta`-type cutoffs
    /// (`Lower`/`Exact`).
    pub fn is_lower(self) -> bool {
        matches!(self, Bound::Lower | Bound::Exact)
    }

    /// True if it proves `value <= alpha`-type cutoffs (`Upper`/`Exact`).
    pub fn is_upper(self) -> bool {
        matches!(self, Bound::Upper | Bound::Exact)
    }
}

/// A table hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best move found (may be [`Move::NONE`]); always check it for legality.
    pub mv: Move,
    /// Stored value (mate scores relative to the stored position: see
    /// [`crate::search::score::from_tt`]).
    pub value: Value,
    /// Static evaluation of the position.
    pub eval: Value,
    /// Depth of the search that produced the value.
    pub depth: i32,
    /// Bound type of the value.
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket([Slot; 4]);

const GEN_BITS: u64 = 6;
const GEN_MASK: u64 = (1 << GEN_BITS) - 1;

fn pack(mv: Move, value: Value, eval: Value, depth: i32, bound: Bound, generation: u8) -> u64 {
    (mv.raw() as u64)
        | ((value as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | ((depth.clamp(-100, 127) as i8 as u8 as u64) << 48)
        | (bound.bits() << 56)
        | ((generation as u64 & GEN_MASK) << 58)
}

struct Unpacked {
    entry: TtEntry,
    generation: u8,
}

fn unpack(data: u64) -> Option<Unpacked> {
    let bound = Bound::from_bits((data >> 56) & 3)?;
    Some(Unpacked {
        entry: TtEntry {
            mv: Move::from_raw(data as u16).unwrap_or(Move::NONE),
            value: (data >> 16) as u16 as i16 as Value,
            eval: (data >> 32) as u16 as i16 as Value,
            depth: (data >> 48) as u8 as i8 as i32,
            bound,
        },
        generation: ((data >> 58) & GEN_MASK) as u8,
    })
}

/// The shared, lock-free transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A cleared table of about `mb` mebibytes (at least one bucket).
    ///
    /// ```
    /// use chuhan_engine::search::tt::{Bound, TranspositionTable};
    /// use chuhan_engine::core::Move;
    /// let tt = TranspositionTable::new(1);
    /// let m: Move = "h2e2".parse().unwrap();
    /// tt.store(0xABCD, m, 25, 10, 7, Bound::Exact);
    /// let e = tt.probe(0xABCD).unwrap();
    /// assert_eq!((e.mv, e.value, e.depth, e.bound), (m, 25, 7, Bound::Exact));
    /// assert!(tt.probe(0xABCE).is_none());
    /// ```
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).expect("memory for the transposition table")
    }

    /// Like [`TranspositionTable::new`], but reports a failed allocation instead
    /// of aborting (a GUI may ask for more memory than the machine has).
    pub fn try_new(mb: usize) -> Result<TranspositionTable, std::collections::TryReserveError> {
        let count = ((mb.max(1) << 20) / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count)?;
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Empties every entry (the table must not be in use by a search).
    pub fn clear(&self) {
        for b in &self.buckets {
            for s in &b.0 {
                s.check.store(0, Ordering::Relaxed);
                s.data.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let g = (self.generation.load(Ordering::Relaxed) as u64 + 1) & GEN_MASK;
        self.generation.store(g as u8, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Hints the CPU to fetch the bucket of `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint; `p` points into our live bucket
            // vector, and the instruction never faults.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks up `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for s in &self.bucket(key).0 {
            let data = s.data.load(Ordering::Relaxed);
            if s.check.load(Ordering::Relaxed) ^ data == key
                && let Some(u) = unpack(data)
            {
                return Some(u.entry);
            }
        }
        None
    }

    /// Stores a search result. An entry for the same key is overwritten unless it
    /// is a deeper non-exact result of this search; otherwise the shallowest, oldest
    /// entry of the bucket is replaced. A missing move keeps the old move.
    pub fn store(&self, key: u64, mv: Move, value: Value, eval: Value, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut victim_worth = i32::MAX;
        for s in &bucket.0 {
            let data = s.data.load(Ordering::Relaxed);
            let old = unpack(data);
            if s.check.load(Ordering::Relaxed) ^ data == key
                && let Some(old) = old
            {
                if bound != Bound::Exact
                    && old.generation == generation
                    && old.entry.depth > depth + 3
                {
                    return;
                }
                let mv = if mv.is_some() { mv } else { old.entry.mv };
                let d = pack(mv, value, eval, depth, bound, generation);
                s.data.store(d, Ordering::Relaxed);
                s.check.store(key ^ d, Ordering::Relaxed);
                return;
            }
            let worth = match old {
                None => i32::MIN,
                Some(o) => {
                    let age = (generation as i32 - o.generation as i32).rem_euclid(64);
                    o.entry.depth - 8 * age
                }
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = s;
            }
        }
        let d = pack(mv, value, eval, depth, bound, generation);
        victim.data.store(d, Ordering::Relaxed);
        victim.check.store(key ^ d, Ordering::Relaxed);
    }

    /// Permille of a sample of entries filled by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for s in &b.0 {
                if let Some(u) = unpack(s.data.load(Ordering::Relaxed))
                    && u.generation == generation
                {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

/// The table key of a position: its Zobrist key, salted with a 60-move-rule bucket
/// once the counter is high and with a flag when the position may repeat, so that
/// values that depend on the game history are never shared with the same placement
/// reached afresh.
#[inline(always)]
pub fn table_key(pos: &crate::core::Position, maybe_repeated: bool) -> u64 {
    use crate::search::params::{RULE60_TT_BUCKET, RULE60_TT_START};
    let mut k = pos.key();
    let r = pos.rule60();
    if r >= RULE60_TT_START {
        let bucket = ((r - RULE60_TT_START) / RULE60_TT_BUCKET) as u64 + 1;
        k ^= bucket.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
    }
    if maybe_repeated {
        k ^= 0xD6E8_FEB8_6659_FD93;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trip() {
        let m: Move = "b2e2".parse().unwrap();
        for (v, e, d, b) in [
            (0, 0, 0, Bound::Upper),
            (-31_990, 1200, -1, Bound::Lower),
            (31_999, -20_000, 99, Bound::Exact),
        ] {
            let u = unpack(pack(m, v, e, d, b, 63)).unwrap();
            assert_eq!(
                u.entry,
                TtEntry {
                    mv: m,
                    value: v,
                    eval: e,
                    depth: d,
                    bound: b
                }
            );
            assert_eq!(u.generation, 63);
        }
    }

    #[test]
    fn replacement_keeps_deep_entries_and_moves() {
        let tt = TranspositionTable::new(1);
        let m: Move = "h2e2".parse().unwrap();
        tt.store(42, m, 10, 0, 12, Bound::Lower);
        tt.store(42, Move::NONE, 20, 0, 2, Bound::Upper);
        assert_eq!(
            tt.probe(42).unwrap().depth,
            12,
            "a shallow bound must not replace"
        );
        tt.store(42, Move::NONE, 30, 0, 11, Bound::Upper);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.value, e.mv), (30, m), "the old move survives");
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn hashfull_counts_current_generation() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                Move::NONE,
                0,
                0,
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
