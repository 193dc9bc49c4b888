//! Drawing of lots (抽籤): starting numbers, bracket places and first-game colours.
//!
//! The draw must come out the same on every machine and in every future version, so
//! that a tournament resumed from its results file (or re-run from its config) sees
//! the same draw. The generator is therefore the engine's fixed [`SplitMix64`]
//! rather than one borrowed from a crate whose default generator may change between
//! releases. Every lot is a pure function of the event seed and a label, so no
//! generator state needs saving.

use chuhan_engine::core::SplitMix64;

/// A source of lots for one event, keyed by its seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lots {
    seed: u64,
}

impl Lots {
    /// Lots for the event with this seed.
    pub fn new(seed: u64) -> Lots {
        Lots { seed }
    }

    /// The `index`-th 64-bit lot of the draw named `label`.
    pub fn value(&self, label: &str, index: u64) -> u64 {
        self.draw(label, index).next_u64()
    }

    /// The generator whose first number is the `index`-th lot of `label`.
    fn draw(&self, label: &str, index: u64) -> SplitMix64 {
        let mut h = SplitMix64::mix(self.seed);
        for b in label.bytes() {
            h = SplitMix64::mix(h ^ u64::from(b));
        }
        SplitMix64::new(h ^ index)
    }

    /// A fair coin for the draw named `label` (`index` distinguishes repeated draws).
    pub fn coin(&self, label: &str, index: u64) -> bool {
        self.value(label, index) >> 63 == 1
    }

    /// Shuffles `items` (Fisher–Yates) with the draw named `label`.
    ///
    /// ```
    /// use chuhan_arena::lots::Lots;
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
            let j = self.draw(label, i as u64).below(i + 1);
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
    fn draws_never_change() {
        // Pinned: a resumed event must see the draw it was started with.
        assert_eq!(Lots::new(2024).value("numbers", 0), 0x3841_33CA_1EF1_C1C9);
        assert_eq!(Lots::new(1).value("x", 3), 0x231C_321E_5647_003D);
        let mut v = [1, 2, 3, 4, 5, 6, 7, 8];
        Lots::new(7).shuffle("numbers", &mut v);
        assert_eq!(v, [5, 7, 8, 3, 1, 2, 6, 4]);
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
