//! The tournament configuration file (JSON): engines, format, clocks, rules and
//! referee, scoring, openings, withdrawals and output paths.
//!
//! ```json
//! {
//!   "event": "Chuhan test event",
//!   "engines": [
//!     {"name": "Chuhan", "command": "./chuhan", "protocol": "ucci", "options": {"hashsize": 64}},
//!     {"name": "Other", "command": "node other.js", "protocol": "uci"}
//!   ],
//!   "format": {"type": "swiss", "rounds": 7},
//!   "time_control": "600+5",
//!   "rules": "cxa2011",
//!   "referee": "strict",
//!   "scoring": {"win": 2, "draw": 1, "loss": 0},
//!   "openings": [{"moves": ["h2e2", "h9g7"]}],
//!   "draw_seed": 2024,
//!   "output": {"results": "event.jsonl", "html": "event.html", "pgn": "event.pgn"}
//! }
//! ```
//!
//! Formats: `{"type": "round_robin", "games_per_pairing": 2}`;
//! `{"type": "swiss", "rounds": 7, "first_round": "adjacent" | "first_last" |
//! "half_cross", "seeded_halves": false, "tiebreak": "opponent_score" | "progressive"}`;
//! `{"type": "knockout", "elimination": "single" | "double", "seeds": 4,
//! "games_per_match": 2, "tiebreak_time_control": "600+10", "tiebreak_games": 2}`.
//! The time control is a [`TimeControl`] string, or `{"red": "…", "black": "…"}` for
//! time odds (6.5); `"limit": {"depth": 3}` (or `{"nodes": N}`) replaces the clocks
//! by a fixed search per move, for engine testing. `"referee"` says when a forbidden
//! repetition ends a game: `"strict"` (the default: the violator loses at the
//! third occurrence, whoever moved last, as GUIs and match tools rule) or `"text"`
//! (the violator is told to vary and loses when it completes the cycle). Relative
//! output paths are taken from the config file's folder.

use super::scoring::Scoring;
use crate::game::clock::{ClockSetting, TimeControl};
use crate::game::engine_config::EngineConfig;
use crate::game::opening::Opening;
use crate::game::params::TOLERANCE;
use crate::game::play::FixedLimit;
use chuhan_engine::rules::{Referee, RuleSet};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How round 1 of a Swiss event is paired (附錄二 二.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstRound {
    /// 近號配對: 1-2, 4-3, 5-6, 8-7, … (the rules' recommended method).
    #[default]
    Adjacent,
    /// 首尾配對: 1 against the last, 2 against the second last, …
    FirstLast,
    /// 對半交叉配對: the top half against the bottom half, 1 against N/2+1, …
    HalfCross,
}

/// The Swiss tie-break system of 14.3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwissTiebreak {
    /// 14.3.1: 對手分, 勝局, 後走局數, then earlier rounds.
    #[default]
    OpponentScore,
    /// 14.3.2: 累進分, 勝局, 後走局數, then 累進分 without the first rounds.
    Progressive,
}

/// Single or double elimination (附錄三).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Elimination {
    /// 單敗淘汰.
    #[default]
    Single,
    /// 雙敗淘汰.
    Double,
}

fn one() -> u32 {
    1
}

fn two() -> u32 {
    2
}

fn rapid_tiebreak() -> TimeControl {
    // 附錄三 注意 (5): "每方10分鐘基本用時，每走一步加10秒".
    TimeControl::increment(Duration::from_secs(600), Duration::from_secs(10))
        .expect("a valid constant control")
}

/// The competition format (§10).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum FormatConfig {
    /// 10.1 大循環 with the table of 附錄一.
    RoundRobin {
        /// Games per pairing in a round (1, or 2 for 兩局制; more alternate colours).
        #[serde(default = "one")]
        games_per_pairing: u32,
    },
    /// 10.3 積分編排制 with the 定位編排法 of 附錄二.
    Swiss {
        /// Number of rounds, fixed before the start (附錄二 一.2).
        rounds: u32,
        /// Round-1 pairing method.
        #[serde(default)]
        first_round: FirstRound,
        /// Engines in the first half of the list are seeds and draw the odd numbers,
        /// the rest the even numbers (附錄二 二.1).
        #[serde(default)]
        seeded_halves: bool,
        /// Tie-break system of 14.3.
        #[serde(default)]
        tiebreak: SwissTiebreak,
    },
    /// 10.4 淘汰制 with the brackets of 附錄三.
    Knockout {
        /// Single or double elimination.
        #[serde(default)]
        elimination: Elimination,
        /// The first `seeds` engines of the list are seeded in that order.
        #[serde(default)]
        seeds: u32,
        /// Games at the main control in each match (12.4: the second game swaps colours).
        #[serde(default = "one")]
        games_per_match: u32,
        /// The faster control of tie-break games (附錄三 (5): 10 min + 10 s).
        #[serde(default = "rapid_tiebreak")]
        tiebreak_time_control: TimeControl,
        /// Tie-break games at that control before the deciding game.
        #[serde(default = "two")]
        tiebreak_games: u32,
    },
}

/// A withdrawal (§19), decided by the organisers and recorded in the config.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WithdrawalConfig {
    /// The engine's name.
    pub engine: String,
    /// The first round it does not play.
    pub from_round: u32,
}

/// Where results and reports go.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputConfig {
    /// The append-only results file (JSON lines); the event resumes from it.
    pub results: PathBuf,
    /// The HTML crosstable page, rewritten after every round.
    #[serde(default)]
    pub html: Option<PathBuf>,
    /// All games in PGN, rewritten after every round from the results file.
    #[serde(default)]
    pub pgn: Option<PathBuf>,
}

/// A whole tournament configuration, as read from the file. [`super::event::Event::new`]
/// validates it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentConfig {
    /// The event's name.
    pub event: String,
    /// The entrants.
    pub engines: Vec<EngineConfig>,
    /// The format.
    pub format: FormatConfig,
    /// The clocks (§6).
    pub time_control: ClockSetting,
    /// A fixed depth or node count per move that replaces the clocks (engine
    /// testing, not a CXA control): `{"depth": 3}` or `{"nodes": 10000}`. Games are
    /// then reproducible, and a tournament played as work units on a cluster is
    /// the one played locally.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<FixedLimit>,
    /// Clock tolerance in milliseconds ([`TOLERANCE`] by default).
    #[serde(default = "default_tolerance")]
    pub tolerance_ms: u64,
    /// The rules games are judged by.
    #[serde(default)]
    pub rules: RuleSet,
    /// When a forbidden repetition ends a game (strict by default; left out of
    /// the JSON when strict, so the ids of events configured before it stay).
    #[serde(default, skip_serializing_if = "crate::game::play::is_strict")]
    pub referee: Referee,
    /// The points scale (§13).
    #[serde(default)]
    pub scoring: Scoring,
    /// Opening suite; round `r` uses opening `(r − 1) mod len` for all its games.
    #[serde(default)]
    pub openings: Vec<Opening>,
    /// Seed of the drawing of lots; without it numbers follow the engine list and
    /// first-game colours in knockouts go to the higher-placed engine.
    #[serde(default)]
    pub draw_seed: Option<u64>,
    /// Withdrawals (§19).
    #[serde(default)]
    pub withdrawals: Vec<WithdrawalConfig>,
    /// Output paths.
    pub output: OutputConfig,
}

fn default_tolerance() -> u64 {
    TOLERANCE.as_millis() as u64
}

/// Why a configuration is refused.
#[derive(Debug)]
pub enum ConfigError {
    /// The file could not be read.
    Io(PathBuf, std::io::Error),
    /// The JSON is malformed or has a bad value.
    Json(String),
    /// Fewer than two engines.
    TooFewEngines,
    /// An engine has an empty name or command.
    EmptyEngine(usize),
    /// Two engines share a name.
    DuplicateName(String),
    /// A format parameter is out of range.
    Format(String),
    /// A withdrawal names an unknown engine or round 0.
    Withdrawal(String),
    /// The scoring does not fit the format.
    Scoring(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Io(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            ConfigError::Json(e) => write!(f, "bad configuration: {e}"),
            ConfigError::TooFewEngines => f.write_str("a tournament needs at least two engines"),
            ConfigError::EmptyEngine(i) => {
                write!(f, "engine {} has an empty name or command", i + 1)
            }
            ConfigError::DuplicateName(n) => write!(f, "two engines are named `{n}`"),
            ConfigError::Format(e) => write!(f, "bad format: {e}"),
            ConfigError::Withdrawal(e) => write!(f, "bad withdrawal: {e}"),
            ConfigError::Scoring(e) => write!(f, "bad scoring: {e}"),
        }
    }
}

impl std::error::Error for ConfigError {}

impl TournamentConfig {
    /// Parses a configuration from JSON text (paths as written).
    pub fn from_json(text: &str) -> Result<TournamentConfig, ConfigError> {
        let config: TournamentConfig =
            serde_json::from_str(text).map_err(|e| ConfigError::Json(e.to_string()))?;
        config.validate()?;
        Ok(config)
    }

    /// Reads a configuration file; relative output paths are resolved against the
    /// file's folder.
    pub fn load(path: &Path) -> Result<TournamentConfig, ConfigError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| ConfigError::Io(path.to_path_buf(), e))?;
        let mut config = TournamentConfig::from_json(&text)?;
        let base = path.parent().unwrap_or(Path::new("."));
        let resolve = |p: &mut PathBuf| {
            if p.is_relative() {
                *p = base.join(&*p);
            }
        };
        resolve(&mut config.output.results);
        if let Some(p) = config.output.html.as_mut() {
            resolve(p);
        }
        if let Some(p) = config.output.pgn.as_mut() {
            resolve(p);
        }
        Ok(config)
    }

    /// The clock tolerance.
    pub fn tolerance(&self) -> Duration {
        Duration::from_millis(self.tolerance_ms)
    }

    /// Checks everything the types alone do not.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let n = self.engines.len();
        if n < 2 {
            return Err(ConfigError::TooFewEngines);
        }
        let mut names = HashSet::new();
        for (i, e) in self.engines.iter().enumerate() {
            if e.name.trim().is_empty() || e.command.trim().is_empty() {
                return Err(ConfigError::EmptyEngine(i));
            }
            if !names.insert(e.name.as_str()) {
                return Err(ConfigError::DuplicateName(e.name.clone()));
            }
        }
        match &self.format {
            FormatConfig::RoundRobin { games_per_pairing } => {
                if *games_per_pairing == 0 {
                    return Err(ConfigError::Format(
                        "games_per_pairing must be at least 1".into(),
                    ));
                }
                if *games_per_pairing > 1 && !self.scoring.is_symmetric() {
                    return Err(ConfigError::Scoring(
                        "a colour-dependent draw score cannot rank multi-game pairings (14.2 場分)"
                            .into(),
                    ));
                }
            }
            FormatConfig::Swiss { rounds, .. } => {
                let max = if n.is_multiple_of(2) { n - 1 } else { n };
                if *rounds == 0 || *rounds as usize > max {
                    return Err(ConfigError::Format(format!(
                        "a Swiss event of {n} engines has 1 to {max} rounds"
                    )));
                }
            }
            FormatConfig::Knockout {
                seeds,
                games_per_match,
                ..
            } => {
                if *seeds as usize > n {
                    return Err(ConfigError::Format(format!(
                        "{seeds} seeds but only {n} engines"
                    )));
                }
                if *games_per_match == 0 {
                    return Err(ConfigError::Format(
                        "games_per_match must be at least 1".into(),
                    ));
                }
            }
        }
        for w in &self.withdrawals {
            if !names.contains(w.engine.as_str()) {
                return Err(ConfigError::Withdrawal(format!("no engine `{}`", w.engine)));
            }
            if w.from_round == 0 {
                return Err(ConfigError::Withdrawal("rounds count from 1".into()));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::engine_config::RankBase;

    const MINIMAL: &str = r#"{
        "event": "t",
        "engines": [{"name": "a", "command": "x"}, {"name": "b", "command": "y", "options": {"hash": 16, "ponder": false}}],
        "format": {"type": "round_robin"},
        "time_control": "60+1",
        "output": {"results": "r.jsonl"}
    }"#;

    #[test]
    fn rank_bases_read_and_write() {
        let with = |ranks: &str| {
            MINIMAL.replace(
                r#"{"name": "a", "command": "x"}"#,
                &format!(r#"{{"name": "a", "command": "x", "ranks": {ranks}}}"#),
            )
        };
        let c = TournamentConfig::from_json(&with("1")).unwrap();
        assert_eq!(c.engines[0].ranks, RankBase::One);
        assert_eq!(c.engines[1].ranks, RankBase::Auto);
        let c = TournamentConfig::from_json(&with("\"0\"")).unwrap();
        assert_eq!(c.engines[0].ranks, RankBase::Zero);
        assert!(TournamentConfig::from_json(&with("2")).is_err());
        let json = serde_json::to_string(&c.engines[1]).unwrap();
        assert!(!json.contains("ranks"), "{json}");
        let json = serde_json::to_string(&c.engines[0]).unwrap();
        assert!(json.contains("\"ranks\":0"), "{json}");
    }

    #[test]
    fn minimal_config_gets_defaults() {
        let c = TournamentConfig::from_json(MINIMAL).unwrap();
        assert_eq!(c.rules, RuleSet::Cxa2011);
        assert_eq!(c.referee, Referee::Strict);
        assert_eq!(c.scoring, Scoring::default());
        assert_eq!(
            c.format,
            FormatConfig::RoundRobin {
                games_per_pairing: 1
            }
        );
        assert_eq!(c.tolerance(), TOLERANCE);
        assert_eq!(c.engines[1].options["hash"], "16");
        assert_eq!(c.engines[1].options["ponder"], "false");
        assert_eq!(c.engines[0].protocol, None);
    }

    #[test]
    fn the_referee_is_read_and_strict_by_default() {
        let with = |referee: &str| {
            MINIMAL.replace(
                r#""time_control": "60+1","#,
                &format!(r#""time_control": "60+1", "referee": {referee},"#),
            )
        };
        let c = TournamentConfig::from_json(&with(r#""text""#)).unwrap();
        assert_eq!(c.referee, Referee::Text);
        let json = serde_json::to_string(&c).unwrap();
        assert!(json.contains(r#""referee":"text""#), "{json}");
        let c = TournamentConfig::from_json(&with(r#""strict""#)).unwrap();
        assert_eq!(c.referee, Referee::Strict);
        // Strict is the default and is left out, as configurations before it were.
        let json = serde_json::to_string(&c).unwrap();
        assert!(!json.contains("referee"), "{json}");
        assert!(TournamentConfig::from_json(&with(r#""lenient""#)).is_err());
    }

    #[test]
    fn knockout_defaults_follow_appendix_three() {
        let text = MINIMAL.replace(
            r#"{"type": "round_robin"}"#,
            r#"{"type": "knockout", "elimination": "double"}"#,
        );
        let c = TournamentConfig::from_json(&text).unwrap();
        match c.format {
            FormatConfig::Knockout {
                elimination,
                tiebreak_time_control,
                tiebreak_games,
                ..
            } => {
                assert_eq!(elimination, Elimination::Double);
                assert_eq!(tiebreak_time_control.to_string(), "600+10");
                assert_eq!(tiebreak_games, 2);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn time_odds_and_openings_parse() {
        let text = MINIMAL
            .replace(
                r#""60+1""#,
                r#"{"red": "300", "black": "360"}"#,
            )
            .replace(
                r#""output""#,
                r#""openings": [{"moves": ["h2e2", "h9g7"]}, {"fen": "3k5/9/9/9/9/9/9/9/9/4K4 w"}], "output""#,
            );
        let c = TournamentConfig::from_json(&text).unwrap();
        assert!(c.time_control.has_odds());
        assert_eq!(c.openings.len(), 2);
        assert_eq!(c.openings[0].moves().len(), 2);
    }

    #[test]
    fn refuses_bad_configs() {
        let cases = [
            (r#""60+1""#, r#""60+x""#),
            (
                r#"{"type": "round_robin"}"#,
                r#"{"type": "swiss", "rounds": 2}"#,
            ),
            (
                r#"{"type": "round_robin"}"#,
                r#"{"type": "round_robin", "games_per_pairing": 0}"#,
            ),
            (
                r#"{"type": "round_robin"}"#,
                r#"{"type": "knockout", "seeds": 3}"#,
            ),
            (r#""command": "y""#, r#""command": " ""#),
            (r#""name": "b""#, r#""name": "a""#),
            (
                r#""output""#,
                r#""openings": [{"moves": ["a0a4"]}], "output""#,
            ),
            (
                r#""output""#,
                r#""withdrawals": [{"engine": "zz", "from_round": 2}], "output""#,
            ),
            (
                r#""output""#,
                r#""scoring": {"win": 1, "draw": 1, "loss": 0}, "output""#,
            ),
            (r#""output""#, r#""colour": 1, "output""#),
        ];
        for (from, to) in cases {
            let text = MINIMAL.replace(from, to);
            assert_ne!(text, MINIMAL, "{to}");
            assert!(TournamentConfig::from_json(&text).is_err(), "{to}");
        }
        let two_game_asym = MINIMAL
            .replace(
                r#"{"type": "round_robin"}"#,
                r#"{"type": "round_robin", "games_per_pairing": 2}"#,
            )
            .replace(
                r#""output""#,
                r#""scoring": {"win": 3, "draw_red": 1, "draw_black": 2, "loss": 0}, "output""#,
            );
        assert!(matches!(
            TournamentConfig::from_json(&two_game_asym),
            Err(ConfigError::Scoring(_))
        ));
    }
}
