//! [`GameResult`]: how a game ended (Red won, Black won, drawn), and
//! [`PlayerResult`], the same seen from one side. The one definition used by the
//! arbiter ([`crate::rules`]), game records ([`crate::notation`]), book building
//! ([`crate::book`]) and the arena's matches and tournaments. A result that is not
//! known (PGN `*`, a game still going on) is `Option<GameResult>::None`.

use super::piece::Color;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a game ended. JSON (the tournament results file): `"red_wins"`,
/// `"black_wins"`, `"draw"`; text: the PGN token.
///
/// ```
/// use chuhan_engine::core::{Color, GameResult, PlayerResult};
/// assert_eq!(GameResult::win_for(Color::Black), GameResult::BlackWins);
/// assert_eq!(GameResult::BlackWins.for_side(Color::Red), PlayerResult::Loss);
/// assert_eq!(GameResult::Draw.to_string(), "1/2-1/2");
/// assert_eq!(GameResult::parse_pgn("0-1"), Some(Some(GameResult::BlackWins)));
/// assert_eq!(GameResult::parse_pgn("*"), Some(None));
/// assert_eq!(GameResult::pgn_or_unknown(None), "*");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// Red won (`1-0`).
    RedWins,
    /// Black won (`0-1`).
    BlackWins,
    /// Drawn (`1/2-1/2`).
    Draw,
}

impl GameResult {
    /// Every result.
    pub const ALL: [GameResult; 3] = [GameResult::RedWins, GameResult::BlackWins, GameResult::Draw];

    /// The PGN token of an unknown or unfinished game's result.
    pub const PGN_UNKNOWN: &'static str = "*";

    /// The winner, `None` for a draw.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Red),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// The result a win for `c` would be.
    pub const fn win_for(c: Color) -> GameResult {
        match c {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The result as seen by the player of colour `c`.
    pub fn for_side(self, c: Color) -> PlayerResult {
        match self.winner() {
            None => PlayerResult::Draw,
            Some(w) if w == c => PlayerResult::Win,
            Some(_) => PlayerResult::Loss,
        }
    }

    /// The PGN token: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The PGN token of a result that may be unknown: [`GameResult::PGN_UNKNOWN`]
    /// (`*`) for `None`.
    pub const fn pgn_or_unknown(result: Option<GameResult>) -> &'static str {
        match result {
            Some(r) => r.pgn(),
            None => GameResult::PGN_UNKNOWN,
        }
    }

    /// Reads a PGN result token (also `½-½` and `0.5-0.5` for a draw, surrounding
    /// white space ignored): `Some(None)` for `*`, `None` if `s` is no result token.
    pub fn parse_pgn(s: &str) -> Option<Option<GameResult>> {
        Some(match s.trim() {
            "1-0" => Some(GameResult::RedWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" | "0.5-0.5" => Some(GameResult::Draw),
            GameResult::PGN_UNKNOWN => None,
            _ => return None,
        })
    }

    /// The winner's colour name or `draw` (`red`, `black`, `draw`): the `winner`
    /// field of a judgement.
    pub const fn winner_name(self) -> &'static str {
        match self {
            GameResult::RedWins => "red",
            GameResult::BlackWins => "black",
            GameResult::Draw => "draw",
        }
    }
}

impl fmt::Display for GameResult {
    /// The PGN token.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn())
    }
}

/// A result from one player's side (ordered loss < draw < win).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PlayerResult {
    /// Lost.
    Loss,
    /// Drew.
    Draw,
    /// Won.
    Win,
}

impl PlayerResult {
    /// The other player's result.
    pub const fn reversed(self) -> PlayerResult {
        match self {
            PlayerResult::Win => PlayerResult::Loss,
            PlayerResult::Draw => PlayerResult::Draw,
            PlayerResult::Loss => PlayerResult::Win,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_from_each_side() {
        assert_eq!(GameResult::RedWins.for_side(Color::Red), PlayerResult::Win);
        assert_eq!(
            GameResult::RedWins.for_side(Color::Black),
            PlayerResult::Loss
        );
        assert_eq!(GameResult::Draw.for_side(Color::Black), PlayerResult::Draw);
        assert_eq!(PlayerResult::Win.reversed(), PlayerResult::Loss);
        for c in Color::ALL {
            assert_eq!(GameResult::win_for(c).winner(), Some(c));
            assert_eq!(GameResult::win_for(c).for_side(!c), PlayerResult::Loss);
        }
    }

    #[test]
    fn text_forms_round_trip() {
        for r in GameResult::ALL {
            assert_eq!(GameResult::parse_pgn(r.pgn()), Some(Some(r)));
            assert_eq!(GameResult::pgn_or_unknown(Some(r)), r.pgn());
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<GameResult>(&json).unwrap(), r);
        }
        assert_eq!(
            serde_json::to_string(&GameResult::RedWins).unwrap(),
            "\"red_wins\""
        );
        assert_eq!(GameResult::parse_pgn(" ½-½ "), Some(Some(GameResult::Draw)));
        assert_eq!(GameResult::parse_pgn("*"), Some(None));
        assert_eq!(GameResult::parse_pgn("2-0"), None);
        assert_eq!(GameResult::BlackWins.winner_name(), "black");
    }
}
