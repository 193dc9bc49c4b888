//! Win/draw/loss probabilities from a search score and the material on the board,
//! for GUIs that show a W/D/L bar (UCI `UCI_ShowWDL`, `wdl W D L` in `info`).
//!
//! The model is the usual logistic pair: with `m` the material left (see
//! [`material`], 0 = bare kings, 1 = the start position),
//!
//! ```text
//! a(m) = a0 + a1·m + a2·m² + a3·m³        b(m) = b0 + b1·m + b2·m² + b3·m³
//! P(win)  = 1 / (1 + exp((a(m) − v) / b(m)))
//! P(loss) = 1 / (1 + exp((a(m) + v) / b(m)))
//! P(draw) = 1 − P(win) − P(loss)
//! ```
//!
//! `a(m)` is the score at which a win and a draw are equally likely, `b(m)` how
//! quickly the odds move with the score. The coefficients of [`MODEL`] were fitted
//! by maximum likelihood to Chuhan's own self-play games (`chuhan wdl fit`; the
//! data, the fit and its calibration on held-out games are in `docs/wdl.md`).
//! Mate and 棋例 rule scores are certain: 1000/0/0 or 0/0/1000.

use crate::core::{Color, PieceKind, Position};
use crate::search::score::{Value, is_decided};

/// Material weights per piece kind: rook 10, horse and cannon 4, advisor and
/// elephant 2, pawn 1; kings count nothing.
const WEIGHTS: [(PieceKind, i32); 6] = [
    (PieceKind::Rook, 10),
    (PieceKind::Horse, 4),
    (PieceKind::Cannon, 4),
    (PieceKind::Advisor, 2),
    (PieceKind::Elephant, 2),
    (PieceKind::Pawn, 1),
];

/// The weighted material of the start position (both sides).
pub const START_MATERIAL: i32 = 98;

/// The weighted material of both sides (rook 10, horse and cannon 4, advisor and
/// elephant 2, pawn 1): 98 in the start position, 0 with bare kings.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::search::wdl::{START_MATERIAL, material};
/// assert_eq!(material(&Position::startpos()), START_MATERIAL);
/// ```
pub fn material(pos: &Position) -> i32 {
    WEIGHTS
        .iter()
        .map(|&(kind, w)| {
            w * Color::ALL
                .iter()
                .map(|&c| pos.pieces(c, kind).count() as i32)
                .sum::<i32>()
        })
        .sum()
}

/// Win, draw and loss chances in per mille (they add up to 1000), for the side
/// the score belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Chance of a win, ‰.
    pub win: u16,
    /// Chance of a draw, ‰.
    pub draw: u16,
    /// Chance of a loss, ‰.
    pub loss: u16,
}

/// The coefficients of `a(m)` and `b(m)` (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// `a0…a3`: the score (centipawns) where a win is as likely as a draw.
    pub a: [f64; 4],
    /// `b0…b3`: the spread (centipawns) of the logistic curves.
    pub b: [f64; 4],
}

/// The model fitted to Chuhan's self-play (see `docs/wdl.md` for the data and the
/// calibration).
pub const MODEL: WdlModel = WdlModel {
    a: [900.485, -208.848, -1756.628, 1332.956],
    b: [111.665, 299.462, -277.270, 28.738],
};

/// Smallest spread `b(m)` used, so that a poor fit cannot divide by zero.
pub const MIN_SPREAD: f64 = 1.0;

impl WdlModel {
    /// `(a(m), b(m))` at material fraction `m` (clamped into `0..=1`).
    pub fn params(&self, m: f64) -> (f64, f64) {
        let m = m.clamp(0.0, 1.0);
        let poly = |c: &[f64; 4]| ((c[3] * m + c[2]) * m + c[1]) * m + c[0];
        (poly(&self.a), poly(&self.b).max(MIN_SPREAD))
    }

    /// `(P(win), P(draw), P(loss))` of score `v` at material fraction `m`.
    pub fn probabilities(&self, v: f64, m: f64) -> (f64, f64, f64) {
        let (a, b) = self.params(m);
        let win = 1.0 / (1.0 + ((a - v) / b).exp());
        let loss = 1.0 / (1.0 + ((a + v) / b).exp());
        let draw = (1.0 - win - loss).max(0.0);
        (win, draw, loss)
    }

    /// The per-mille chances of score `value` (the side to move's) with
    /// `material` on the board ([`material`]). Mate and rule scores are certain.
    ///
    /// ```
    /// use chuhan_engine::search::wdl::{MODEL, START_MATERIAL};
    /// let even = MODEL.wdl(0, START_MATERIAL);
    /// assert_eq!(even.win, even.loss);
    /// assert_eq!(even.win + even.draw + even.loss, 1000);
    /// let ahead = MODEL.wdl(300, START_MATERIAL);
    /// assert!(ahead.win > even.win && ahead.loss < even.loss);
    /// ```
    pub fn wdl(&self, value: Value, material: i32) -> Wdl {
        if is_decided(value) {
            return if value > 0 {
                Wdl {
                    win: 1000,
                    draw: 0,
                    loss: 0,
                }
            } else {
                Wdl {
                    win: 0,
                    draw: 0,
                    loss: 1000,
                }
            };
        }
        let m = f64::from(material) / f64::from(START_MATERIAL);
        let (w, _, l) = self.probabilities(f64::from(value), m);
        let win = (w * 1000.0).round() as u16;
        let loss = ((l * 1000.0).round() as u16).min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{mate_in, mated_in};

    #[test]
    fn chances_add_up_move_with_the_score_and_are_symmetric() {
        for material in [0, 20, 50, START_MATERIAL] {
            let mut last_win = 0;
            for v in (-2000..=2000).step_by(50) {
                let p = MODEL.wdl(v, material);
                assert_eq!(
                    u32::from(p.win) + u32::from(p.draw) + u32::from(p.loss),
                    1000
                );
                assert!(p.win >= last_win, "{v} {material}");
                last_win = p.win;
                let q = MODEL.wdl(-v, material);
                assert!(p.win.abs_diff(q.loss) <= 1, "{v} {material}: {p:?} {q:?}");
            }
        }
    }

    #[test]
    fn decided_scores_are_certain() {
        let won = Wdl {
            win: 1000,
            draw: 0,
            loss: 0,
        };
        assert_eq!(MODEL.wdl(mate_in(5), 40), won);
        assert_eq!(MODEL.wdl(mated_in(4), 40).loss, 1000);
    }

    #[test]
    fn material_counts_both_sides() {
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w").unwrap();
        assert_eq!(material(&pos), 10);
    }
}
