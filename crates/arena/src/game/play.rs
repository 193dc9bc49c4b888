//! The seam between the tournament and whatever plays its games.
//!
//! The tournament decides who plays whom, with which colour, clock, rules and
//! opening, as a [`GameSpec`]; a [`GamePlayer`] plays it and returns a
//! [`GameOutcome`]. The match runner (engine processes, adjudication by the rules
//! engine, PGN) implements [`GamePlayer`]; the tests use deterministic fakes.

use super::clock::ClockSetting;
use super::engine_config::EngineConfig;
use super::opening::Opening;
use chuhan_engine::core::{Color, GameResult, Move};
use chuhan_engine::rules::{Referee, RuleSet};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// Where a game sits in the event: round, board (pairing or match) and game number
/// within that pairing, all counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct GameId {
    /// Round (knockout: bracket round, see [`crate::tournament::knockout`]).
    pub round: u32,
    /// Board within the round.
    pub board: u32,
    /// Game within the pairing (two-game pairings, knockout matches).
    pub game: u32,
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.round, self.board, self.game)
    }
}

/// A fixed search limit per move that replaces the clocks (engine testing: a game
/// at a fixed depth or node count is reproducible). In JSON `{"depth": 3}` or
/// `{"nodes": 10000}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum FixedLimit {
    /// Every move searched to this depth.
    Depth(u32),
    /// Every move searched for this many nodes.
    Nodes(u64),
}

impl fmt::Display for FixedLimit {
    /// `depth=3`, `nodes=10000` (as the PGN `TimeControl` tag of a match says it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FixedLimit::Depth(d) => write!(f, "depth={d}"),
            FixedLimit::Nodes(n) => write!(f, "nodes={n}"),
        }
    }
}

/// Everything needed to play one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The game's place in the event.
    pub id: GameId,
    /// The event's name (PGN `Event`).
    pub event: String,
    /// The engine playing Red.
    pub red: EngineConfig,
    /// The engine playing Black.
    pub black: EngineConfig,
    /// The clocks of both sides (§6).
    pub clock: ClockSetting,
    /// A fixed depth or node count per move instead of the clocks.
    pub limit: Option<FixedLimit>,
    /// Overstep forgiven before a time forfeit (§21; pipe latency).
    pub tolerance: Duration,
    /// The rules the game is judged by.
    pub rules: RuleSet,
    /// When a forbidden repetition ends the game.
    pub referee: Referee,
    /// The start position and forced moves, if the event uses an opening suite.
    pub opening: Option<Opening>,
}

/// True for the strict referee, the default: plans and configurations leave it
/// out of their JSON (`skip_serializing_if`), so files and ids from before the
/// referee was a setting stay as they were.
pub(crate) fn is_strict(referee: &Referee) -> bool {
    *referee == Referee::Strict
}

/// Why a played game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// 將死 (4.1.1).
    Checkmate,
    /// 困斃 (4.1.2).
    Stalemate,
    /// A 棋例 verdict against the side that had to vary (4.1.4, 4.1.5).
    RepetitionLoss,
    /// 不變作和: a repetition judged drawn (4.2.3).
    RepetitionDraw,
    /// 自然限著: the move limit without a capture (4.2.4).
    MoveLimit,
    /// Neither side can win (4.2.2).
    DeadPosition,
    /// Draw agreed (4.2.1).
    Agreement,
    /// Resigned (4.1.12).
    Resignation,
    /// Overstepped the time (4.1.6, §21).
    TimeForfeit,
    /// An illegal move (4.1.8).
    IllegalMove,
    /// The engine crashed, hung or broke the protocol during the game.
    EngineFailure,
    /// Ended by the runner's score adjudication.
    Adjudication,
}

impl Termination {
    /// A short English description.
    pub fn describe(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::RepetitionLoss => "repetition rule loss",
            Termination::RepetitionDraw => "repetition draw",
            Termination::MoveLimit => "move limit",
            Termination::DeadPosition => "dead position",
            Termination::Agreement => "agreement",
            Termination::Resignation => "resignation",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::EngineFailure => "engine failure",
            Termination::Adjudication => "adjudication",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// A game that was played (or at least started).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
    /// The moves played after the opening's forced moves.
    pub moves: Vec<Move>,
    /// The game record in PGN, when the player produces one.
    pub pgn: Option<String>,
}

/// Who failed to appear for a game (§20: an engine that cannot be started or does
/// not answer its handshake is absent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Absence {
    /// Red was absent: Black wins without play (20.1).
    Red,
    /// Black was absent: Red wins without play.
    Black,
    /// Both were absent: both lose (20.2).
    Both,
}

impl Absence {
    /// Whether the player of colour `c` was absent.
    pub fn includes(self, c: Color) -> bool {
        matches!(
            (self, c),
            (Absence::Both, _) | (Absence::Red, Color::Red) | (Absence::Black, Color::Black)
        )
    }
}

/// How a game went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameOutcome {
    /// The game took place.
    Played(PlayedGame),
    /// The game did not take place: forfeit (§20, shown `+`/`−` in tables).
    Forfeited(Absence),
}

/// Why a game could not be finished; the tournament stops without recording it and
/// plays it again when resumed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// Stopped on request (Ctrl-C, shutdown).
    Interrupted,
    /// The player itself failed (not an engine's fault: e.g. no process could be
    /// spawned at all).
    Failed(String),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Interrupted => f.write_str("interrupted"),
            PlayError::Failed(why) => write!(f, "game player failed: {why}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// Plays games. The match runner implements this; each concurrent slot of a
/// tournament gets its own player (and so its own engine processes).
pub trait GamePlayer {
    /// Plays `spec` to the end and reports how it went.
    fn play(&mut self, spec: &GameSpec) -> Result<GameOutcome, PlayError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absence_covers_the_right_sides() {
        assert!(Absence::Both.includes(Color::Red) && Absence::Both.includes(Color::Black));
        assert!(Absence::Red.includes(Color::Red) && !Absence::Red.includes(Color::Black));
        assert!(!Absence::Black.includes(Color::Red));
    }

    #[test]
    fn termination_names_are_stable_json() {
        assert_eq!(
            serde_json::to_string(&Termination::RepetitionLoss).unwrap(),
            "\"repetition_loss\""
        );
        assert_eq!(
            GameId {
                round: 2,
                board: 3,
                game: 1
            }
            .to_string(),
            "2.3.1"
        );
    }
}
