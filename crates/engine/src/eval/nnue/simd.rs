//! [`Kernel`]: the two loops of NNUE inference, in portable Rust and with AVX2
//! through `std::arch`, chosen at run time.
//!
//! * [`Kernel::update`]: `dst = src + Σ add − Σ sub` lane by lane in wrapping
//!   `i16` (an accumulator after a move: one row in, one or two out; or a
//!   from-scratch refresh: the biases plus every active feature's row);
//! * [`Kernel::screlu_dot`]: `Σ clamp(a, 0, QA)² · w` in wrapping `i32` (one half of
//!   the output layer).
//!
//! Both kernels give exactly the integers of the scalar code, which is
//! [`super::network::Network::evaluate`]'s definition: wrapping `i16` additions
//! commute, and the loader's range check ([`super::Network::check_ranges`]) keeps
//! every output sum inside `i32`, so the order of the additions does not matter.
//! The AVX2 dot product multiplies `clamp(a) · w` in `i16` first
//! (`_mm256_mullo_epi16`), which is exact only when `QA · max |w| ≤ 32,767`; the
//! trainer clips output weights to ±1.98, i.e. ±127 with `QB` = 64, so `255 · 127 =
//! 32,385` fits. A net outside that bound, or whose hidden size is not a multiple of
//! 16, runs on the scalar kernel ([`Kernel::for_net`]).

use super::network::Network;

/// Lanes of `i16` in one AVX2 register.
pub const AVX2_LANES: usize = 16;

/// An implementation of the inference loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain Rust (the compiler may vectorise it for the build's baseline).
    Scalar,
    /// AVX2 intrinsics (x86-64 processors since 2013), detected at run time.
    Avx2,
}

impl Kernel {
    /// Every kernel, the portable one first.
    pub const ALL: [Kernel; 2] = [Kernel::Scalar, Kernel::Avx2];

    /// True when this processor runs the kernel.
    pub fn supported(self) -> bool {
        match self {
            Kernel::Scalar => true,
            Kernel::Avx2 => avx2_detected(),
        }
    }

    /// The fastest kernel this processor runs.
    pub fn detect() -> Kernel {
        if Kernel::Avx2.supported() {
            Kernel::Avx2
        } else {
            Kernel::Scalar
        }
    }

    /// The fastest kernel that computes `net` exactly on this processor: AVX2 when
    /// detected, the hidden size is a multiple of [`AVX2_LANES`] and
    /// `QA · max |output weight| ≤ i16::MAX`; otherwise scalar.
    pub fn for_net(net: &Network) -> Kernel {
        let max_w = net
            .out_weights
            .iter()
            .map(|&w| i32::from(w).abs())
            .max()
            .unwrap_or(0);
        let fits = net.arch.hidden.is_multiple_of(AVX2_LANES)
            && net.arch.qa <= i32::from(i16::MAX)
            && max_w <= net.arch.max_exact_output_weight();
        if fits {
            Kernel::detect()
        } else {
            Kernel::Scalar
        }
    }

    /// `dst = src + Σ add − Σ sub`, lane by lane, wrapping.
    ///
    /// # Panics
    /// If the slices differ in length, if the kernel is not
    /// [`supported`](Kernel::supported), or for AVX2 if the length is not a
    /// multiple of [`AVX2_LANES`].
    #[inline]
    pub fn update(self, dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        let n = dst.len();
        assert!(src.len() == n && add.iter().chain(sub).all(|r| r.len() == n));
        match self {
            Kernel::Scalar => update_scalar(dst, src, add, sub),
            Kernel::Avx2 => {
                assert!(avx2_detected() && n.is_multiple_of(AVX2_LANES));
                #[cfg(target_arch = "x86_64")]
                // SAFETY: AVX2 is present (checked above) and every slice holds
                // `n` elements, a multiple of 16 (checked above).
                unsafe {
                    avx2::update(dst, src, add, sub)
                }
            }
        }
    }

    /// `Σ clamp(acc[i], 0, qa)² · weights[i]`, wrapping `i32`.
    ///
    /// # Panics
    /// If the slices differ in length, if the kernel is not supported, or for
    /// AVX2 if the length is not a multiple of [`AVX2_LANES`] or `qa` exceeds
    /// `i16::MAX`. (AVX2 also assumes `qa · |w| ≤ i16::MAX` for every weight, as
    /// [`Kernel::for_net`] checks.)
    #[inline]
    pub fn screlu_dot(self, acc: &[i16], weights: &[i16], qa: i32) -> i32 {
        assert_eq!(acc.len(), weights.len());
        match self {
            Kernel::Scalar => screlu_dot_scalar(acc, weights, qa),
            Kernel::Avx2 => {
                assert!(
                    avx2_detected()
                        && acc.len().is_multiple_of(AVX2_LANES)
                        && (0..=i32::from(i16::MAX)).contains(&qa)
                );
                #[cfg(target_arch = "x86_64")]
                // SAFETY: AVX2 is present and both slices hold a multiple of 16
                // elements (checked above).
                unsafe {
                    avx2::screlu_dot(acc, weights, qa as i16)
                }
                #[cfg(not(target_arch = "x86_64"))]
                unreachable!()
            }
        }
    }
}

fn avx2_detected() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
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

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// See [`super::Kernel::update`].
    ///
    /// # Safety
    /// AVX2 must be available; every slice must hold `dst.len()` elements, a
    /// multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        let n = dst.len();
        let mut i = 0;
        while i < n {
            // SAFETY: i + 16 ≤ n for every slice (the caller's contract);
            // unaligned loads and stores.
            unsafe {
                let mut v = _mm256_loadu_si256(src.as_ptr().add(i).cast());
                for row in add {
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i).cast()));
                }
                for row in sub {
                    v = _mm256_sub_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i).cast()));
                }
                _mm256_storeu_si256(dst.as_mut_ptr().add(i).cast(), v);
            }
            i += 16;
        }
    }

    /// See [`super::Kernel::screlu_dot`].
    ///
    /// # Safety
    /// AVX2 must be available; both slices must hold the same multiple of 16
    /// elements.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], weights: &[i16], qa: i16) -> i32 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(qa);
        let mut sum = _mm256_setzero_si256();
        let mut i = 0;
        while i < acc.len() {
            // SAFETY: i + 16 ≤ len for both slices (the caller's contract).
            let (a, w) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(weights.as_ptr().add(i).cast()),
                )
            };
            let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            // c · w fits i16 (Kernel::for_net); madd adds c · (c · w) in pairs.
            let cw = _mm256_mullo_epi16(c, w);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(cw, c));
            i += 16;
        }
        let halves = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let pairs = _mm_add_epi32(halves, _mm_shuffle_epi32::<0b01_00_11_10>(halves));
        let one = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b10_11_00_01>(pairs));
        _mm_cvtsi128_si32(one)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::SplitMix64;

    fn random(rng: &mut SplitMix64, n: usize, bound: i16) -> Vec<i16> {
        (0..n)
            .map(|_| (rng.next_u64() % (2 * bound as u64 + 1)) as i16 - bound)
            .collect()
    }

    /// Every supported kernel gives the scalar kernel's integers, including
    /// wrapping additions and accumulators beyond the clamp on both sides.
    #[test]
    fn kernels_agree_with_scalar() {
        let mut rng = SplitMix64::new(22);
        let kernels: Vec<Kernel> = Kernel::ALL.into_iter().filter(|k| k.supported()).collect();
        for n in [16, 32, 256] {
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
                for &k in &kernels {
                    let mut got = vec![0; n];
                    k.update(&mut got, &src, &add, &sub);
                    assert_eq!(got, want, "{k:?} update");
                    assert_eq!(k.screlu_dot(&acc, &weights, 255), dot, "{k:?} dot");
                }
            }
        }
        assert!(kernels.contains(&Kernel::Scalar));
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
