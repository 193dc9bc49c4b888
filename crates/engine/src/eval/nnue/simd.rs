//! [`Kernel`]: the two loops of NNUE inference, in portable Rust and with the
//! vector units of each processor family through `std::arch`, chosen at run time,
//! so one binary per operating system runs everywhere at full speed.
//!
//! * [`Kernel::update`]: `dst = src + Σ add − Σ sub` lane by lane in wrapping
//!   `i16` (an accumulator after a move: one row in, one or two out; or a
//!   from-scratch refresh: the biases plus every active feature's row);
//! * [`Kernel::screlu_dot`]: `Σ clamp(a, 0, QA)² · w` in wrapping `i32` (one half of
//!   the output layer).
//!
//! | kernel | registers | processors |
//! |---|---|---|
//! | `scalar` | none (plain Rust) | all; the definition the others are tested against |
//! | `sse2` | 128-bit | every x86-64 (the loops need nothing newer: SSSE3 and SSE4.1 add no instruction they use) |
//! | `avx2` | 256-bit | x86-64 since 2013 (Haswell, Zen) |
//! | `avx512` | 512-bit, AVX-512BW | Skylake-X, Ice Lake, Zen 4 and later |
//! | `neon` | 128-bit | every AArch64 (phones, Apple silicon, ARM servers) |
//!
//! [`Kernel::detect`] takes the widest one this processor runs;
//! `CHUHAN_KERNEL=scalar|sse2|avx2|avx512|neon` in the environment asks for another
//! (for measuring; an unsupported name is ignored). `compiler` and the
//! `info string` after `isready` name the kernel in use.
//!
//! Every kernel gives exactly the integers of the scalar code, which is
//! [`super::network::Network::evaluate`]'s definition: wrapping `i16` additions
//! commute, and the loader's range check ([`super::Network::check_ranges`]) keeps
//! every output sum inside `i32`, so the order of the additions does not matter.
//! The vector dot products multiply `clamp(a) · w` in `i16` first, which is exact
//! only when `QA · max |w| ≤ 32,767`; the trainer clips output weights to ±1.98,
//! i.e. ±127 with `QB` = 64, so `255 · 127 = 32,385` fits. A net outside that
//! bound, or whose hidden size is not a multiple of a kernel's lanes, runs on a
//! narrower kernel or the scalar one (`Kernel::for_net`, beside the net in
//! `network.rs`, so that this file knows no net).

/// Lanes of `i16` in one AVX2 register (the widest kernel every test net fits).
pub const AVX2_LANES: usize = 16;

/// An implementation of the inference loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain Rust (the compiler may vectorise it for the build's baseline).
    Scalar,
    /// SSE2 intrinsics: every x86-64 processor.
    Sse2,
    /// AVX2 intrinsics (x86-64 processors since 2013), detected at run time.
    Avx2,
    /// AVX-512BW intrinsics, detected at run time.
    Avx512,
    /// NEON intrinsics: every AArch64 processor.
    Neon,
}

impl Kernel {
    /// Every kernel, the portable one first, then narrow to wide.
    pub const ALL: [Kernel; 5] = [
        Kernel::Scalar,
        Kernel::Sse2,
        Kernel::Neon,
        Kernel::Avx2,
        Kernel::Avx512,
    ];

    /// The kernel's name, as `CHUHAN_KERNEL` and `compiler` spell it.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            Kernel::Sse2 => "sse2",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
            Kernel::Neon => "neon",
        }
    }

    /// The kernel called `name` (see [`Kernel::name`]).
    pub fn from_name(name: &str) -> Option<Kernel> {
        Kernel::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name.trim()))
    }

    /// `i16` lanes per register: the hidden size must be a multiple of it.
    pub fn lanes(self) -> usize {
        match self {
            Kernel::Scalar => 1,
            Kernel::Sse2 | Kernel::Neon => 8,
            Kernel::Avx2 => AVX2_LANES,
            Kernel::Avx512 => 32,
        }
    }

    /// True when this processor runs the kernel.
    pub fn supported(self) -> bool {
        match self {
            Kernel::Scalar => true,
            Kernel::Sse2 => cfg!(target_arch = "x86_64"),
            Kernel::Neon => cfg!(target_arch = "aarch64"),
            Kernel::Avx2 => detected::avx2(),
            Kernel::Avx512 => detected::avx512(),
        }
    }

    /// The kernel to use on this processor: the one `CHUHAN_KERNEL` names if it
    /// is supported, else the widest supported one. Read once per process.
    pub fn detect() -> Kernel {
        static CHOICE: std::sync::OnceLock<Kernel> = std::sync::OnceLock::new();
        *CHOICE.get_or_init(|| {
            std::env::var("CHUHAN_KERNEL")
                .ok()
                .and_then(|name| Kernel::from_name(&name))
                .filter(|k| k.supported())
                .unwrap_or_else(Kernel::widest)
        })
    }

    /// The widest kernel this processor runs, whatever the environment says.
    pub fn widest() -> Kernel {
        Kernel::ALL
            .into_iter()
            .rev()
            .find(|k| k.supported())
            .unwrap_or(Kernel::Scalar)
    }

    /// `dst = src + Σ add − Σ sub`, lane by lane, wrapping.
    ///
    /// # Panics
    /// If the slices differ in length, if the kernel is not
    /// [`supported`](Kernel::supported), or if the length is not a multiple of
    /// its [`lanes`](Kernel::lanes).
    #[inline]
    pub fn update(self, dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        let n = dst.len();
        assert!(src.len() == n && add.iter().chain(sub).all(|r| r.len() == n));
        if self == Kernel::Scalar {
            return update_scalar(dst, src, add, sub);
        }
        assert!(self.supported() && n.is_multiple_of(self.lanes()));
        // SAFETY: the kernel's instructions are present (checked above) and every
        // slice holds `n` elements, a multiple of its lanes (checked above).
        unsafe {
            match self {
                #[cfg(target_arch = "x86_64")]
                Kernel::Sse2 => x86::update_sse2(dst, src, add, sub),
                #[cfg(target_arch = "x86_64")]
                Kernel::Avx2 => x86::update_avx2(dst, src, add, sub),
                #[cfg(target_arch = "x86_64")]
                Kernel::Avx512 => x86::update_avx512(dst, src, add, sub),
                #[cfg(target_arch = "aarch64")]
                Kernel::Neon => arm::update(dst, src, add, sub),
                _ => unreachable!("{self:?} is not supported here"),
            }
        }
    }

    /// `Σ clamp(acc[i], 0, qa)² · weights[i]`, wrapping `i32`.
    ///
    /// # Panics
    /// If the slices differ in length, if the kernel is not supported, or for a
    /// vector kernel if the length is not a multiple of its lanes or `qa` exceeds
    /// `i16::MAX`. (The vector kernels also assume `qa · |w| ≤ i16::MAX` for every
    /// weight, as [`Kernel::fits`] checks.)
    #[inline]
    pub fn screlu_dot(self, acc: &[i16], weights: &[i16], qa: i32) -> i32 {
        assert_eq!(acc.len(), weights.len());
        if self == Kernel::Scalar {
            return screlu_dot_scalar(acc, weights, qa);
        }
        assert!(
            self.supported()
                && acc.len().is_multiple_of(self.lanes())
                && (0..=i32::from(i16::MAX)).contains(&qa)
        );
        let qa = qa as i16;
        // SAFETY: the kernel's instructions are present and both slices hold a
        // multiple of its lanes (checked above).
        unsafe {
            match self {
                #[cfg(target_arch = "x86_64")]
                Kernel::Sse2 => x86::screlu_dot_sse2(acc, weights, qa),
                #[cfg(target_arch = "x86_64")]
                Kernel::Avx2 => x86::screlu_dot_avx2(acc, weights, qa),
                #[cfg(target_arch = "x86_64")]
                Kernel::Avx512 => x86::screlu_dot_avx512(acc, weights, qa),
                #[cfg(target_arch = "aarch64")]
                Kernel::Neon => arm::screlu_dot(acc, weights, qa),
                _ => unreachable!("{self:?} is not supported here (qa {qa})"),
            }
        }
    }
}

/// Run-time feature detection, false off x86-64.
mod detected {
    pub fn avx2() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx2")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    pub fn avx512() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx512bw")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }
}

fn update_scalar(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    dst.copy_from_slice(src);
    for row in add {
        for (d, &w) in dst.iter_mut().zip(*row) {
            *d = d.wrapping_add(w);
        }
    }
    for row in sub {
        for (d, &w) in dst.iter_mut().zip(*row) {
            *d = d.wrapping_sub(w);
        }
    }
}

fn screlu_dot_scalar(acc: &[i16], weights: &[i16], qa: i32) -> i32 {
    let mut sum: i32 = 0;
    for (&a, &w) in acc.iter().zip(weights) {
        let c = i32::from(a).clamp(0, qa);
        sum = sum.wrapping_add((c * c).wrapping_mul(i32::from(w)));
    }
    sum
}

/// The x86-64 kernels. Each loop is written once, over a register type, by
/// `update_with!` and `dot_with!`.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// `dst = src + Σ add − Σ sub`, `$lanes` at a time, with the register type's
    /// load, add, sub and store.
    macro_rules! update_with {
        ($dst:ident, $src:ident, $add:ident, $sub:ident, $lanes:expr,
         $load:ident, $addi:ident, $subi:ident, $store:ident) => {{
            let n = $dst.len();
            let mut i = 0;
            while i < n {
                // SAFETY: i + lanes ≤ n for every slice (the caller's contract);
                // unaligned loads and stores.
                unsafe {
                    let mut v = $load($src.as_ptr().add(i).cast());
                    for row in $add {
                        v = $addi(v, $load(row.as_ptr().add(i).cast()));
                    }
                    for row in $sub {
                        v = $subi(v, $load(row.as_ptr().add(i).cast()));
                    }
                    $store($dst.as_mut_ptr().add(i).cast(), v);
                }
                i += $lanes;
            }
        }};
    }

    /// `Σ clamp(a, 0, qa)² · w` into a register of `i32` sums, `$lanes` at a time:
    /// `c · w` fits `i16` (`Kernel::fits`), and `madd` adds `c · (c · w)` in pairs.
    macro_rules! dot_with {
        ($acc:ident, $weights:ident, $qa:ident, $lanes:expr, $load:ident, $zero:ident,
         $set1:ident, $max:ident, $min:ident, $mullo:ident, $madd:ident, $add32:ident) => {{
            let zero = $zero();
            let top = $set1($qa);
            let mut sum = $zero();
            let mut i = 0;
            while i < $acc.len() {
                // SAFETY: i + lanes ≤ len for both slices (the caller's contract).
                let (a, w) = unsafe {
                    (
                        $load($acc.as_ptr().add(i).cast()),
                        $load($weights.as_ptr().add(i).cast()),
                    )
                };
                let c = $min($max(a, zero), top);
                sum = $add32(sum, $madd($mullo(c, w), c));
                i += $lanes;
            }
            sum
        }};
    }

    /// The four `i32` lanes of `v` added, wrapping.
    #[target_feature(enable = "sse2")]
    fn sum128(v: __m128i) -> i32 {
        let pairs = _mm_add_epi32(v, _mm_shuffle_epi32::<0b01_00_11_10>(v));
        let one = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b10_11_00_01>(pairs));
        _mm_cvtsi128_si32(one)
    }

    /// # Safety
    /// Every slice must hold `dst.len()` elements, a multiple of 8.
    #[target_feature(enable = "sse2")]
    pub unsafe fn update_sse2(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        update_with!(
            dst,
            src,
            add,
            sub,
            8,
            _mm_loadu_si128,
            _mm_add_epi16,
            _mm_sub_epi16,
            _mm_storeu_si128
        )
    }

    /// # Safety
    /// Both slices must hold the same multiple of 8 elements.
    #[target_feature(enable = "sse2")]
    pub unsafe fn screlu_dot_sse2(acc: &[i16], weights: &[i16], qa: i16) -> i32 {
        let sum = dot_with!(
            acc,
            weights,
            qa,
            8,
            _mm_loadu_si128,
            _mm_setzero_si128,
            _mm_set1_epi16,
            _mm_max_epi16,
            _mm_min_epi16,
            _mm_mullo_epi16,
            _mm_madd_epi16,
            _mm_add_epi32
        );
        sum128(sum)
    }

    /// # Safety
    /// AVX2 must be available; every slice must hold `dst.len()` elements, a
    /// multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update_avx2(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        update_with!(
            dst,
            src,
            add,
            sub,
            16,
            _mm256_loadu_si256,
            _mm256_add_epi16,
            _mm256_sub_epi16,
            _mm256_storeu_si256
        )
    }

    /// # Safety
    /// AVX2 must be available; both slices must hold the same multiple of 16
    /// elements.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot_avx2(acc: &[i16], weights: &[i16], qa: i16) -> i32 {
        let sum = dot_with!(
            acc,
            weights,
            qa,
            16,
            _mm256_loadu_si256,
            _mm256_setzero_si256,
            _mm256_set1_epi16,
            _mm256_max_epi16,
            _mm256_min_epi16,
            _mm256_mullo_epi16,
            _mm256_madd_epi16,
            _mm256_add_epi32
        );
        sum128(_mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        ))
    }

    /// # Safety
    /// AVX-512BW must be available; every slice must hold `dst.len()` elements,
    /// a multiple of 32.
    #[target_feature(enable = "avx512bw")]
    pub unsafe fn update_avx512(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        update_with!(
            dst,
            src,
            add,
            sub,
            32,
            _mm512_loadu_si512,
            _mm512_add_epi16,
            _mm512_sub_epi16,
            _mm512_storeu_si512
        )
    }

    /// # Safety
    /// AVX-512BW must be available; both slices must hold the same multiple of
    /// 32 elements.
    #[target_feature(enable = "avx512bw")]
    pub unsafe fn screlu_dot_avx512(acc: &[i16], weights: &[i16], qa: i16) -> i32 {
        let sum = dot_with!(
            acc,
            weights,
            qa,
            32,
            _mm512_loadu_si512,
            _mm512_setzero_si512,
            _mm512_set1_epi16,
            _mm512_max_epi16,
            _mm512_min_epi16,
            _mm512_mullo_epi16,
            _mm512_madd_epi16,
            _mm512_add_epi32
        );
        _mm512_reduce_add_epi32(sum)
    }
}

/// The AArch64 kernels (NEON is part of every AArch64 processor).
#[cfg(target_arch = "aarch64")]
mod arm {
    use std::arch::aarch64::*;

    /// # Safety
    /// Every slice must hold `dst.len()` elements, a multiple of 8.
    #[target_feature(enable = "neon")]
    pub unsafe fn update(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        let n = dst.len();
        let mut i = 0;
        while i < n {
            // SAFETY: i + 8 ≤ n for every slice (the caller's contract).
            unsafe {
                let mut v = vld1q_s16(src.as_ptr().add(i));
                for row in add {
                    v = vaddq_s16(v, vld1q_s16(row.as_ptr().add(i)));
                }
                for row in sub {
                    v = vsubq_s16(v, vld1q_s16(row.as_ptr().add(i)));
                }
                vst1q_s16(dst.as_mut_ptr().add(i), v);
            }
            i += 8;
        }
    }

    /// # Safety
    /// Both slices must hold the same multiple of 8 elements.
    #[target_feature(enable = "neon")]
    pub unsafe fn screlu_dot(acc: &[i16], weights: &[i16], qa: i16) -> i32 {
        let zero = vdupq_n_s16(0);
        let top = vdupq_n_s16(qa);
        let mut sum = vdupq_n_s32(0);
        let mut i = 0;
        while i < acc.len() {
            // SAFETY: i + 8 ≤ len for both slices (the caller's contract).
            let (a, w) = unsafe {
                (
                    vld1q_s16(acc.as_ptr().add(i)),
                    vld1q_s16(weights.as_ptr().add(i)),
                )
            };
            let c = vminq_s16(vmaxq_s16(a, zero), top);
            // c · w fits i16 (Kernel::fits); widen c · (c · w) into i32 lanes.
            let cw = vmulq_s16(c, w);
            sum = vmlal_s16(sum, vget_low_s16(c), vget_low_s16(cw));
            sum = vmlal_high_s16(sum, c, cw);
            i += 8;
        }
        vaddvq_s32(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::SplitMix64;

    fn random(rng: &mut SplitMix64, n: usize, bound: i16) -> Vec<i16> {
        (0..n)
            .map(|_| (rng.next_u64() % (2 * bound as u64 + 1)) as i64 - i64::from(bound))
            .map(|v| v as i16)
            .collect()
    }

    /// Every supported kernel gives the scalar kernel's integers, including
    /// wrapping additions and accumulators beyond the clamp on both sides.
    #[test]
    fn kernels_agree_with_scalar() {
        let mut rng = SplitMix64::new(22);
        let kernels: Vec<Kernel> = Kernel::ALL.into_iter().filter(|k| k.supported()).collect();
        for n in [8, 16, 32, 256] {
            for _ in 0..200 {
                let src = random(&mut rng, n, i16::MAX);
                let rows: Vec<Vec<i16>> = (0..4).map(|_| random(&mut rng, n, 20_000)).collect();
                let add = [&rows[0][..], &rows[1][..]];
                let sub = [&rows[2][..], &rows[3][..]];
                let mut want = vec![0; n];
                Kernel::Scalar.update(&mut want, &src, &add, &sub);
                let acc = random(&mut rng, n, 600);
                let weights = random(&mut rng, n, 127);
                let dot = Kernel::Scalar.screlu_dot(&acc, &weights, 255);
                for &k in kernels.iter().filter(|k| n.is_multiple_of(k.lanes())) {
                    let mut got = vec![0; n];
                    k.update(&mut got, &src, &add, &sub);
                    assert_eq!(got, want, "{k:?} update");
                    assert_eq!(k.screlu_dot(&acc, &weights, 255), dot, "{k:?} dot");
                }
            }
        }
        assert!(kernels.contains(&Kernel::Scalar));
        // The vector kernel of each family is always there.
        #[cfg(target_arch = "x86_64")]
        assert!(kernels.contains(&Kernel::Sse2));
        #[cfg(target_arch = "aarch64")]
        assert!(kernels.contains(&Kernel::Neon));
    }

    #[test]
    fn names_round_trip_and_the_choice_is_supported() {
        for k in Kernel::ALL {
            assert_eq!(Kernel::from_name(k.name()), Some(k));
        }
        assert_eq!(Kernel::from_name(" AVX2 "), Some(Kernel::Avx2));
        assert_eq!(Kernel::from_name("mmx"), None);
        assert!(Kernel::detect().supported() && Kernel::widest().supported());
        assert!(Kernel::widest().lanes() >= Kernel::detect().lanes());
    }

    #[test]
    fn scalar_update_wraps() {
        let mut d = [0i16; 2];
        Kernel::Scalar.update(&mut d, &[i16::MAX, 0], &[&[1, 1]], &[&[0, 2]]);
        assert_eq!(d, [i16::MIN, -1]);
        assert_eq!(
            Kernel::Scalar.screlu_dot(&[-5, 10, 300], &[3, -2, 1], 255),
            -200 + 255 * 255
        );
    }
}
