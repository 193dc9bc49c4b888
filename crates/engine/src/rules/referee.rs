//! [`Referee`]: when a forbidden cycle ends the game. The 棋例 say who must vary;
//! referees differ on when the violator has lost.
//!
//! * **Text** (the CXA 2011 and AXF texts as written, §23.5): the violator must
//!   vary, and loses when it completes the cycle again; if the opponent made the
//!   move that brought the third occurrence, the violator is told to vary and
//!   play goes on (CXA unilateral 長將 loses at once, §23.5.1).
//! * **Strict** (xiangqi GUIs and match tools: Fairy-Stockfish, Pikafish and the
//!   referees built on them): the game ends at the third occurrence, and the
//!   violator loses whoever made the last move.

use std::fmt;
use std::str::FromStr;

/// When a forbidden repetition is adjudicated (see the module documentation).
///
/// ```
/// use chuhan_engine::rules::Referee;
/// assert_eq!(Referee::default(), Referee::Strict);
/// assert_eq!("text".parse::<Referee>().unwrap(), Referee::Text);
/// assert_eq!(Referee::Strict.to_string(), "strict");
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Referee {
    /// The violator of a forbidden cycle loses at its third occurrence, whoever
    /// made the last move (how GUIs and match tools rule).
    #[default]
    Strict,
    /// The violator is told to vary and loses only when it completes the cycle
    /// (the rule texts as written).
    Text,
}

impl Referee {
    /// Both styles.
    pub const ALL: [Referee; 2] = [Referee::Strict, Referee::Text];

    /// The name used on the command line, in options and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Referee::Strict => "strict",
            Referee::Text => "text",
        }
    }
}

impl fmt::Display for Referee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error from parsing a referee name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRefereeError(pub String);

impl fmt::Display for ParseRefereeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown referee {} (expected strict or text)",
            crate::echo::echo(&self.0)
        )
    }
}

impl std::error::Error for ParseRefereeError {}

impl FromStr for Referee {
    type Err = ParseRefereeError;

    /// Parses `strict` (also `gui`) or `text` (also `rules`), any case.
    fn from_str(s: &str) -> Result<Referee, ParseRefereeError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "strict" | "gui" => Ok(Referee::Strict),
            "text" | "rules" => Ok(Referee::Text),
            _ => Err(ParseRefereeError(crate::echo::keep(s))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in Referee::ALL {
            assert_eq!(r.to_string().parse(), Ok(r));
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<Referee>(&json).unwrap(), r);
        }
        assert_eq!(" GUI ".parse(), Ok(Referee::Strict));
        assert!("lenient".parse::<Referee>().is_err());
    }
}
