//! [`Accumulators`]: the search's NNUE state, one pair of accumulators (Red's and
//! Black's perspective) per ply, updated incrementally as moves are made and
//! dropped as they are unmade.
//!
//! The search calls [`Accumulators::reset`] on its root, [`Accumulators::push`]
//! after every `make_move` and [`Accumulators::pop`] after every `unmake_move`; a
//! null move changes no accumulator (the side to move only decides which one is
//! "us" in [`Accumulators::evaluate`]). A move updates each perspective from the
//! ply below: the moved piece's row out of its old point and into its new one, the
//! captured piece's row out. When the move is a king's and changes that side's
//! [`View`] (the file mirror or the king bucket), that perspective is rebuilt from
//! scratch instead. All memory is allocated by [`Accumulators::new`]; nothing in
//! `push`, `pop` or `evaluate` allocates.
//!
//! The result is exactly [`Network::evaluate`] of the position (tested over random
//! games, for every kernel this processor runs).

use super::features::{MAX_ACTIVE, View, output_bucket, pieces};
use super::network::Network;
use super::simd::Kernel;
use crate::core::{Color, Move, Piece, Position};
use std::sync::Arc;

/// Per-ply accumulators over one net.
#[derive(Clone, Debug)]
pub struct Accumulators {
    net: Arc<Network>,
    kernel: Kernel,
    /// `plies × 2 × hidden`: at ply `p`, Red's accumulator then Black's.
    values: Vec<i16>,
    /// The view of each perspective at each ply (Red, Black).
    views: Vec<[View; 2]>,
    ply: usize,
}

impl Accumulators {
    /// Room for `plies` plies (the root and `plies − 1` moves) over `net`, using
    /// `kernel` (normally [`Kernel::for_net`]).
    ///
    /// # Panics
    /// If `kernel` is not supported on this processor or `plies` is 0.
    pub fn new(net: Arc<Network>, kernel: Kernel, plies: usize) -> Accumulators {
        assert!(kernel.supported() && plies > 0);
        let h = net.arch.hidden;
        let start = Position::startpos();
        let layout = net.arch.king_buckets;
        let view = |c| View::new(layout, c, start.king_square(c));
        Accumulators {
            values: vec![0; plies * 2 * h],
            views: vec![[view(Color::Red), view(Color::Black)]; plies],
            net,
            kernel,
            ply: 0,
        }
    }

    /// The net.
    pub fn net(&self) -> &Arc<Network> {
        &self.net
    }

    /// The kernel in use.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The number of moves pushed since the last reset.
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// Starts over at `pos` (computed from scratch).
    pub fn reset(&mut self, pos: &Position) {
        self.ply = 0;
        for c in Color::ALL {
            self.refresh(pos, c);
        }
    }

    fn slot(&self, ply: usize, c: Color) -> std::ops::Range<usize> {
        let h = self.net.arch.hidden;
        let start = (ply * 2 + c.index()) * h;
        start..start + h
    }

    /// Rebuilds perspective `c` at the current ply from `pos`.
    fn refresh(&mut self, pos: &Position, c: Color) {
        let h = self.net.arch.hidden;
        let view = View::new(self.net.arch.king_buckets, c, pos.king_square(c));
        self.views[self.ply][c.index()] = view;
        let mut rows: [&[i16]; MAX_ACTIVE] = [&[]; MAX_ACTIVE];
        let mut n = 0;
        for (sq, p) in pieces(pos).take(MAX_ACTIVE) {
            let f = view.index(sq, p);
            rows[n] = &self.net.ft_weights[f * h..(f + 1) * h];
            n += 1;
        }
        let range = self.slot(self.ply, c);
        self.kernel
            .update(&mut self.values[range], &self.net.ft_bias, &rows[..n], &[]);
    }

    /// Records move `m` of `moved` (capturing `captured`, if any), already made in
    /// `pos`.
    ///
    /// # Panics
    /// If the plies given to [`Accumulators::new`] are used up.
    #[inline]
    pub fn push(&mut self, pos: &Position, m: Move, moved: Piece, captured: Option<Piece>) {
        assert!(self.ply + 1 < self.views.len(), "accumulator stack full");
        self.ply += 1;
        let h = self.net.arch.hidden;
        let layout = self.net.arch.king_buckets;
        for c in Color::ALL {
            let old = self.views[self.ply - 1][c.index()];
            let view = if moved.color == c && moved.kind == crate::core::PieceKind::King {
                View::new(layout, c, m.to())
            } else {
                old
            };
            if view != old {
                self.refresh(pos, c);
                continue;
            }
            self.views[self.ply][c.index()] = view;
            let w = &self.net.ft_weights;
            let row = |f: usize| &w[f * h..(f + 1) * h];
            let add = [row(view.index(m.to(), moved))];
            let gone = row(view.index(m.from(), moved));
            let taken = captured.map(|p| row(view.index(m.to(), p)));
            let sub: &[&[i16]] = match &taken {
                Some(t) => &[gone, t],
                None => &[gone],
            };
            // This ply's pair starts where the previous ply's ends.
            let (below, here) = self.values.split_at_mut(self.ply * 2 * h);
            let src = &below[((self.ply - 1) * 2 + c.index()) * h..][..h];
            let dst = &mut here[c.index() * h..(c.index() + 1) * h];
            self.kernel.update(dst, src, &add, sub);
        }
    }

    /// Drops the last pushed move.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.ply > 0);
        self.ply = self.ply.saturating_sub(1);
    }

    /// The net's evaluation of `pos` (the position the accumulators stand for) in
    /// centipawns, side to move's view.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let us = pos.side_to_move();
        let bucket = output_bucket(pos.occupied().count(), self.net.arch.output_buckets);
        self.net.output_with(
            self.kernel,
            &self.values[self.slot(self.ply, us)],
            &self.values[self.slot(self.ply, !us)],
            bucket,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::SplitMix64;
    use crate::eval::nnue::{KingBuckets, simd::AVX2_LANES};
    use proptest::prelude::*;

    fn random_net(layout: KingBuckets, output_buckets: usize, seed: u64) -> Network {
        Network::pseudo_random(layout, 2 * AVX2_LANES, output_buckets, seed)
    }

    fn kernels() -> Vec<Kernel> {
        Kernel::ALL.into_iter().filter(|k| k.supported()).collect()
    }

    fn make(pos: &mut Position, acc: &mut Accumulators, m: Move) {
        let moved = pos.piece_at(m.from()).unwrap();
        let captured = pos.piece_at(m.to());
        pos.make_move(m);
        acc.push(pos, m, moved, captured);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Over random games (kings walking about the palace, captures, null
        /// moves, unmaking), the incremental evaluation equals the from-scratch
        /// reference at every node, with every kernel.
        #[test]
        fn incremental_equals_from_scratch(seed in any::<u64>(), layout in 0usize..3, buckets in 1usize..4) {
            let net = Arc::new(random_net(KingBuckets::ALL[layout], buckets, seed));
            for kernel in kernels() {
                let mut rng = SplitMix64::new(seed ^ 0x5eed);
                let mut pos = Position::startpos();
                let mut acc = Accumulators::new(Arc::clone(&net), kernel, 130);
                acc.reset(&pos);
                prop_assert_eq!(acc.evaluate(&pos), net.evaluate(&pos));
                let mut depth = 0;
                for _ in 0..120 {
                    let list = pos.legal_moves();
                    let roll = rng.below(10);
                    if list.is_empty() || (roll == 0 && depth > 0) {
                        if depth == 0 {
                            break;
                        }
                        pos.unmake_move();
                        acc.pop();
                        depth -= 1;
                    } else if roll == 1 && !pos.in_check() {
                        pos.make_null();
                        prop_assert_eq!(acc.evaluate(&pos), net.evaluate(&pos));
                        pos.unmake_null();
                    } else {
                        // Prefer king moves and captures now and then.
                        let kings: Vec<Move> = list.as_slice().iter().copied().filter(|m| {
                            pos.piece_at(m.from()).is_some_and(|p| p.kind == crate::core::PieceKind::King)
                        }).collect();
                        let m = if roll < 4 && !kings.is_empty() {
                            kings[rng.below(kings.len())]
                        } else {
                            list.as_slice()[rng.below(list.len())]
                        };
                        make(&mut pos, &mut acc, m);
                        depth += 1;
                    }
                    prop_assert_eq!(acc.evaluate(&pos), net.evaluate(&pos), "{} {:?}", pos.to_fen(), kernel);
                    prop_assert_eq!(acc.ply(), depth);
                }
            }
        }
    }

    #[test]
    fn kernel_for_a_wide_output_weight_is_scalar() {
        let mut net = random_net(KingBuckets::One, 1, 1);
        assert_eq!(Kernel::for_net(&net), Kernel::detect());
        net.out_weights[0] = 200;
        assert_eq!(Kernel::for_net(&net), Kernel::Scalar);
    }
}
