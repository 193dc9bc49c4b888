//! Drawing of lots (抽籤): starting numbers, bracket places and first-game colours.
//!
//! The draw must come out the same on every machine and in every future version, so
//! that a tournament resumed from its results file (or re-run from its config) sees
//! the same draw. The generator is therefore fixed here (SplitMix64, a public-domain
//! 64-bit mixer) rather than borrowed from a crate whose default generator may change
//! between releases. Every lot is a pure function of the event seed and a label, so
//! no generator state needs saving.

/// A source of lots for one event, keyed by its seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lots {
    seed: u64,
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Lots {
    /// Lots for the event with this seed.
    pub fn new(seed: u64) -> Lots {
        Lots { seed }
    }

    /// The `index`-th 64-bit lot of the draw named `label`.
    pub fn value(&self, label: &str, index: u64) -> u64 {
        let mut h = mix(self.seed);
        for b in label.bytes() {
            h = mix(h ^ u64::from(b));
        }
        mix(h ^ index)
    }

    /// A fair coin for the draw named `label` (`index` distinguishes repeated draws).
    pub fn coin(&self, label: &str, index: u64) -> bool {
        self.value(label, index) >> 63 == 1
    }

    /// Shuffles `items` (Fisher–Yates) with the draw named `label`.
    ///
    /// ```
    /// use chuhan_arena::tournament::lots::Lots;
    /// let mut a = [1, 2, 3, 4, 5];
    /// let mut b = a;
    /// Lots::new(7).shuffle("numbers", &mut a);
    /// Lots::new(7).shuffle("numbers", &mut b);
    /// assert_eq!(a, b);
    /// let mut sorted = a;
    /// sorted.sort();
    /// assert_eq!(sorted, [1, 2, 3, 4, 5]);
    /// ```
    pub fn shuffle<T>(&self, label: &str, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            // Multiply-shift gives an unbiased-enough index for the small ranges used
            // here (at most a few hundred entrants).
            let j = ((u128::from(self.value(label, i as u64)) * (i as u128 + 1)) >> 64) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_differ_by_seed_and_label() {
        let a = Lots::new(1);
        assert_ne!(a.value("x", 0), Lots::new(2).value("x", 0));
        assert_ne!(a.value("x", 0), a.value("y", 0));
        assert_ne!(a.value("x", 0), a.value("x", 1));
        assert_eq!(a.value("x", 3), Lots::new(1).value("x", 3));
    }

    #[test]
    fn coins_are_roughly_fair() {
        let lots = Lots::new(99);
        let heads = (0..10_000).filter(|&i| lots.coin("c", i)).count();
        assert!((4_700..5_300).contains(&heads), "{heads}");
    }

    #[test]
    fn shuffles_reach_every_position() {
        let mut seen = [[false; 6]; 6];
        for seed in 0..400 {
            let mut v = [0, 1, 2, 3, 4, 5];
            Lots::new(seed).shuffle("s", &mut v);
            for (pos, &x) in v.iter().enumerate() {
                seen[x][pos] = true;
            }
        }
        assert!(seen.iter().all(|r| r.iter().all(|&b| b)));
    }
}
