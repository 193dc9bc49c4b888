//! [`Sample`]: a record turned into what the net reads: the active features of
//! both perspectives (side to move first), the output bucket, the score and the
//! result. Built on the fly for each batch, so the data set stays at 40 bytes a
//! position in memory.

use crate::datagen::record::{Record, result_score};
use chuhan_engine::core::{Color, PieceKind, Square};
use chuhan_engine::eval::nnue::features::{
    KingBuckets, MAX_ACTIVE, active_features, output_bucket,
};

/// One training position, as the net reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    features: [[u16; MAX_ACTIVE]; 2],
    len: [u8; 2],
    /// The output bucket.
    pub bucket: u8,
    /// The search score (centipawns, side to move's view).
    pub score: i16,
    /// The game's result for the side to move: 0, ½ or 1.
    pub result: f32,
}

impl Sample {
    /// The sample of `rec` with king buckets `layout` and `outputs` output buckets.
    pub fn new(rec: &Record, layout: KingBuckets, outputs: usize) -> Sample {
        let us = rec.side;
        let mut kings = [Square::E0, Square::E9];
        for (sq, p) in rec.pieces() {
            if p.kind == PieceKind::King {
                kings[p.color.index()] = sq;
            }
        }
        let mut features = [[0u16; MAX_ACTIVE]; 2];
        let mut len = [0u8; 2];
        for (slot, side) in [us, !us].into_iter().enumerate() {
            let f = active_features(layout, side, kings[side.index()], rec.pieces());
            let s = f.as_slice();
            features[slot][..s.len()].copy_from_slice(s);
            len[slot] = s.len() as u8;
        }
        Sample {
            features,
            len,
            bucket: output_bucket(rec.piece_count(), outputs) as u8,
            score: rec.score,
            result: result_score(rec.result),
        }
    }

    /// The active features of the side to move (`slot` 0) or of the other side
    /// (`slot` 1).
    pub fn features(&self, slot: usize) -> &[u16] {
        &self.features[slot][..self.len[slot] as usize]
    }

    /// The perspective of `slot` for a record whose side to move is `us`.
    pub fn perspective(us: Color, slot: usize) -> Color {
        if slot == 0 { us } else { !us }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::record::Flags;
    use chuhan_engine::core::PlayerResult;
    use chuhan_engine::core::Position;
    use chuhan_engine::eval::nnue::features::position_features;

    #[test]
    fn samples_match_the_engine_features() {
        let pos = Position::from_fen(
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 b - - 0 1",
        )
        .unwrap();
        let rec = Record::new(&pos, -35, PlayerResult::Loss, Flags::default());
        for layout in KingBuckets::ALL {
            let s = Sample::new(&rec, layout, 4);
            for slot in 0..2 {
                let side = Sample::perspective(pos.side_to_move(), slot);
                assert_eq!(
                    s.features(slot),
                    position_features(&pos, layout, side).as_slice()
                );
            }
            assert_eq!(s.bucket as usize, output_bucket(pos.occupied().count(), 4));
            assert_eq!((s.score, s.result), (-35, 0.0));
        }
    }
}
