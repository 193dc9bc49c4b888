//! [`SplitMix64`]: the one seeded pseudo-random generator of the project.
//!
//! Where a random stream must be the same on every machine and in every future
//! version — the Zobrist keys (and so every book keyed by them), the arena's
//! drawing of lots, the playouts of tests and benchmarks — it comes from here
//! rather than from a crate whose generators may change between releases. (Book
//! choices, which need no reproducibility, draw from `rand`.) SplitMix64 (Steele, Lea and Flood, 2014; public domain)
//! is a 64-bit counter passed through a mixing function: small, fast, and usable
//! at compile time (every method is a `const fn`).

/// The golden-ratio increment of the SplitMix64 counter.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// A SplitMix64 generator.
///
/// ```
/// use chuhan_engine::core::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert_ne!(a.next_u64(), SplitMix64::new(8).next_u64());
/// assert!(a.below(6) < 6);
/// assert_eq!(SplitMix64::mix(7), SplitMix64::new(7).next_u64());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next number of the sequence.
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The first number of the sequence seeded with `x`: a stateless 64-bit hash,
    /// for streams keyed by a label rather than drawn in order.
    pub const fn mix(x: u64) -> u64 {
        SplitMix64::new(x).next_u64()
    }

    /// A number in `0..n` (`n` > 0), by multiply-shift of the next number (unbiased
    /// enough for the small ranges of shuffles and playouts).
    pub const fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_sequence() {
        // The first outputs for seed 0 of the reference implementation
        // (Vigna's splitmix64.c).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut r = SplitMix64::new(42);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let v = r.below(7);
            assert!(v < 7);
            seen[v] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
