//! [`MatchPlayer`]: the match runner's engine driver and referee behind the
//! [`GamePlayer`] seam through which a tournament has its games played.
//!
//! Each player (one per concurrent slot of the tournament) keeps its own engine
//! processes, one per entrant it has met, alive between games; a crashed or
//! killed engine is started again for its next game. An engine that cannot be
//! started or made ready is absent (§20) and forfeits the game.

use super::client::{EngineClient, Timeouts};
use super::limit::Limit;
use super::params;
use super::process::TrafficLog;
use super::referee::{self, GameSetup};
use crate::game::engine_config::EngineConfig;
use crate::game::play::{
    Absence, FixedLimit, GameOutcome, GamePlayer, GameSpec, PlayError, PlayedGame,
};
use chuhan_engine::notation::{Notation, pgn};
use std::collections::HashMap;
use std::time::Duration;

/// Plays tournament games with real engines.
#[derive(Debug)]
pub struct MatchPlayer {
    slot: usize,
    engines: HashMap<String, EngineClient>,
    timeouts: Timeouts,
    hang_timeout: Duration,
    notation: Notation,
    log: Option<TrafficLog>,
    date: Option<String>,
}

impl MatchPlayer {
    /// A player for concurrent slot `slot` (from 1; it names the processes in the
    /// traffic log), writing PGN in `notation`.
    pub fn new(slot: usize, notation: Notation, log: Option<TrafficLog>) -> MatchPlayer {
        MatchPlayer {
            slot,
            engines: HashMap::new(),
            timeouts: Timeouts::default(),
            hang_timeout: params::HANG_TIMEOUT,
            notation,
            log,
            date: None,
        }
    }

    /// Dates every game `date` (`yyyy.mm.dd`) instead of the day it is played (the
    /// games of a tournament's work units carry the plan's date).
    pub fn with_date(mut self, date: String) -> MatchPlayer {
        self.date = Some(date);
        self
    }

    /// Replaces the driver's waits (tests shorten them).
    pub fn with_timeouts(mut self, timeouts: Timeouts) -> MatchPlayer {
        self.timeouts = timeouts;
        self
    }

    /// The engine process for `config`, created (not started) when first needed or
    /// when its configuration changed.
    fn take(&mut self, config: &EngineConfig) -> EngineClient {
        match self.engines.remove(&config.name) {
            Some(e) if e.config() == config => e,
            _ => EngineClient::new(
                config.clone(),
                &format!("{}#{}", config.name, self.slot),
                self.timeouts,
                self.log.clone(),
            ),
        }
    }
}

impl GamePlayer for MatchPlayer {
    fn play(&mut self, spec: &GameSpec) -> Result<GameOutcome, PlayError> {
        let mut red = self.take(&spec.red);
        let mut black = self.take(&spec.black);
        let outcome = match referee::prepare(&mut red, &mut black) {
            Err(f) => GameOutcome::Forfeited(match (f.red.is_some(), f.black.is_some()) {
                (true, true) => Absence::Both,
                (true, false) => Absence::Red,
                _ => Absence::Black,
            }),
            Ok(()) => {
                let setup = GameSetup {
                    event: spec.event.clone(),
                    round: spec.id.to_string(),
                    date: self.date.clone().unwrap_or_else(referee::today),
                    opening: spec.opening.clone(),
                    rules: spec.rules,
                    referee: spec.referee,
                    limit: match spec.limit {
                        Some(FixedLimit::Depth(d)) => Limit::Depth(d),
                        Some(FixedLimit::Nodes(n)) => Limit::Nodes(n),
                        None => Limit::Clock(spec.clock.clone()),
                    },
                    tolerance: spec.tolerance,
                    hang_timeout: self.hang_timeout,
                    adjudication: Default::default(),
                };
                let report = referee::play(&mut red, &mut black, &setup);
                let opts = pgn::WriteOptions {
                    notation: self.notation,
                    ..Default::default()
                };
                GameOutcome::Played(PlayedGame {
                    result: report.result,
                    termination: report.termination,
                    moves: report.moves,
                    pgn: pgn::write(&report.record, &opts).ok(),
                })
            }
        };
        self.engines.insert(spec.red.name.clone(), red);
        self.engines.insert(spec.black.name.clone(), black);
        Ok(outcome)
    }
}
