//! [`KeyIndex`]: a bucket table over sorted 64-bit keys, so that a lookup is one table
//! read plus a binary search over a handful of neighbouring keys instead of ~20
//! cache-missing steps over the whole array.

/// Start offsets of key buckets: bucket `b` holds the keys whose top bits equal `b`.
/// Zobrist keys are uniform, so buckets hold about four keys each.
#[derive(Clone, Debug)]
pub(crate) struct KeyIndex {
    shift: u32,
    starts: Vec<u32>,
}

impl KeyIndex {
    /// Builds the index of `keys`, which must be sorted ascending.
    pub fn new(keys: &[u64]) -> KeyIndex {
        debug_assert!(keys.is_sorted());
        // About four keys per bucket; at most 2^24 buckets (64 MiB of offsets).
        let bits = (usize::BITS - keys.len().leading_zeros()).saturating_sub(2);
        let bits = bits.clamp(1, 24);
        let shift = 64 - bits;
        let mut starts = vec![0u32; (1usize << bits) + 1];
        for &k in keys {
            starts[(k >> shift) as usize + 1] += 1;
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        KeyIndex { shift, starts }
    }

    /// The position of `key` in `keys` (the slice the index was built from).
    #[inline]
    pub fn find(&self, keys: &[u64], key: u64) -> Option<usize> {
        let b = (key >> self.shift) as usize;
        let (lo, hi) = (self.starts[b] as usize, self.starts[b + 1] as usize);
        keys.get(lo..hi)?.binary_search(&key).ok().map(|i| lo + i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn finds_exactly_the_keys(mut keys in proptest::collection::vec(any::<u64>(), 0..300), probe in any::<u64>()) {
            keys.sort_unstable();
            keys.dedup();
            let index = KeyIndex::new(&keys);
            for (i, &k) in keys.iter().enumerate() {
                prop_assert_eq!(index.find(&keys, k), Some(i));
            }
            prop_assert_eq!(index.find(&keys, probe), keys.binary_search(&probe).ok());
        }
    }
}
