//! Scoring of §13: the points game results earn (the results themselves,
//! [`chuhan_engine::core::GameResult`] and [`PlayerResult`], are the engine's).
//!
//! 13.1: a win scores 2, a draw 1, a loss 0. 13.3 lets an event change the scale,
//! for instance 3/1/0, or 3/0 with a draw worth 1 to the first mover (Red) and 2 to
//! the second (Black). Forfeits (§20.3) count as a win ("+") or a loss ("−") on the
//! same scale; a bye in a Swiss event counts as a win (附錄二 一.5, 14.4).

use chuhan_engine::core::{Color, PlayerResult};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The points scale of an event (§13).
///
/// ```
/// use chuhan_arena::tournament::scoring::Scoring;
/// use chuhan_engine::core::{Color, PlayerResult};
/// let s = Scoring::asymmetric(3, 1, 2, 0).unwrap();
/// assert_eq!(s.points(PlayerResult::Draw, Color::Red), 1);
/// assert_eq!(s.points(PlayerResult::Draw, Color::Black), 2);
/// assert_eq!(Scoring::default().points(PlayerResult::Win, Color::Black), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scoring {
    win: u32,
    draw_red: u32,
    draw_black: u32,
    loss: u32,
}

/// Why a points scale is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoringError {
    /// A draw would be worth at least as much as a win.
    DrawNotBelowWin,
    /// A loss would be worth more than a draw.
    LossAboveDraw,
}

impl fmt::Display for ScoringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ScoringError::DrawNotBelowWin => "a draw must score less than a win",
            ScoringError::LossAboveDraw => "a loss must not score more than a draw",
        })
    }
}

impl std::error::Error for ScoringError {}

impl Default for Scoring {
    /// 13.1: 2 for a win, 1 for a draw, 0 for a loss.
    fn default() -> Scoring {
        Scoring {
            win: 2,
            draw_red: 1,
            draw_black: 1,
            loss: 0,
        }
    }
}

impl Scoring {
    /// A symmetric scale: `win`, `draw`, `loss` points.
    pub fn new(win: u32, draw: u32, loss: u32) -> Result<Scoring, ScoringError> {
        Scoring::asymmetric(win, draw, draw, loss)
    }

    /// 13.3's asymmetric scale: a draw is worth `draw_red` to the first mover and
    /// `draw_black` to the second.
    pub fn asymmetric(
        win: u32,
        draw_red: u32,
        draw_black: u32,
        loss: u32,
    ) -> Result<Scoring, ScoringError> {
        if draw_red >= win || draw_black >= win {
            return Err(ScoringError::DrawNotBelowWin);
        }
        if loss > draw_red || loss > draw_black {
            return Err(ScoringError::LossAboveDraw);
        }
        Ok(Scoring {
            win,
            draw_red,
            draw_black,
            loss,
        })
    }

    /// Points for a win (also a forfeit win and a Swiss bye).
    pub fn win(&self) -> u32 {
        self.win
    }

    /// Points for a loss (also a forfeit loss).
    pub fn loss(&self) -> u32 {
        self.loss
    }

    /// Points for a draw with colour `c`.
    pub fn draw(&self, c: Color) -> u32 {
        match c {
            Color::Red => self.draw_red,
            Color::Black => self.draw_black,
        }
    }

    /// True when a draw is worth the same to both colours.
    pub fn is_symmetric(&self) -> bool {
        self.draw_red == self.draw_black
    }

    /// Points for `result` played with colour `c`.
    pub fn points(&self, result: PlayerResult, c: Color) -> u32 {
        match result {
            PlayerResult::Win => self.win,
            PlayerResult::Draw => self.draw(c),
            PlayerResult::Loss => self.loss,
        }
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_symmetric() {
            write!(f, "{}/{}/{}", self.win, self.draw_red, self.loss)
        } else {
            write!(
                f,
                "{}/{}(red) {}(black)/{}",
                self.win, self.draw_red, self.draw_black, self.loss
            )
        }
    }
}

#[derive(Serialize, Deserialize)]
struct ScoringText {
    win: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    draw: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    draw_red: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    draw_black: Option<u32>,
    loss: u32,
}

impl Serialize for Scoring {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let text = if self.is_symmetric() {
            ScoringText {
                win: self.win,
                draw: Some(self.draw_red),
                draw_red: None,
                draw_black: None,
                loss: self.loss,
            }
        } else {
            ScoringText {
                win: self.win,
                draw: None,
                draw_red: Some(self.draw_red),
                draw_black: Some(self.draw_black),
                loss: self.loss,
            }
        };
        text.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Scoring {
    /// `{"win": 3, "draw": 1, "loss": 0}` or
    /// `{"win": 3, "draw_red": 1, "draw_black": 2, "loss": 0}`.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Scoring, D::Error> {
        use serde::de::Error;
        let t = ScoringText::deserialize(d)?;
        let (red, black) = match (t.draw, t.draw_red, t.draw_black) {
            (Some(x), None, None) => (x, x),
            (None, Some(r), Some(b)) => (r, b),
            _ => {
                return Err(D::Error::custom(
                    "scoring needs either `draw` or both `draw_red` and `draw_black`",
                ));
            }
        };
        Scoring::asymmetric(t.win, red, black, t.loss).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_nonsense_scales() {
        assert_eq!(Scoring::new(1, 1, 0), Err(ScoringError::DrawNotBelowWin));
        assert_eq!(Scoring::new(2, 0, 1), Err(ScoringError::LossAboveDraw));
        assert!(Scoring::new(3, 1, 0).is_ok());
    }

    #[test]
    fn json_forms() {
        let s: Scoring = serde_json::from_str(r#"{"win":3,"draw":1,"loss":0}"#).unwrap();
        assert_eq!(s, Scoring::new(3, 1, 0).unwrap());
        let a: Scoring =
            serde_json::from_str(r#"{"win":3,"draw_red":1,"draw_black":2,"loss":0}"#).unwrap();
        assert_eq!(a, Scoring::asymmetric(3, 1, 2, 0).unwrap());
        assert_eq!(
            serde_json::from_str::<Scoring>(&serde_json::to_string(&a).unwrap()).unwrap(),
            a
        );
        assert!(serde_json::from_str::<Scoring>(r#"{"win":3,"loss":0}"#).is_err());
        assert!(serde_json::from_str::<Scoring>(r#"{"win":1,"draw":2,"loss":0}"#).is_err());
    }
}
