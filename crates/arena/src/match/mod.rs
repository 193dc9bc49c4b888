//! The engine-against-engine match runner behind `chuhan match`, refereed by
//! Chuhan's own rules engine; also the game player of `chuhan tournament`. Engine
//! configurations, clocks, openings and the game seam come from the arena's shared
//! vocabulary ([`crate::game`]), results and rules from the engine crate.
//!
//! | concern | module |
//! |---|---|
//! | `--engine` settings | [`engine_arg`] |
//! | UCCI and UCI text as the GUI side writes and reads it, rank bases | [`dialect`] |
//! | engine processes, reading on threads, kills | [`process`] |
//! | the engine client: handshake, options, searching under a deadline | [`client`] |
//! | clocks, fixed time, depth, nodes | [`limit`] |
//! | one refereed game and its record | [`referee`] |
//! | score adjudication | [`adjudication`] |
//! | opening suites | [`openings`] |
//! | game order, colours, openings | [`schedule`] |
//! | Elo, error bars, LOS, pentanomial | [`stats`] |
//! | SPRT | [`sprt`] |
//! | the match loop, workers, early stop | [`runner`] |
//! | the [`GamePlayer`](crate::game::play::GamePlayer) behind `chuhan tournament` | [`player`] |
//! | a match as deterministic work units (`--plan`), for a cluster | [`plan`] |
//! | a unit's result file, playing a unit (`--unit`), merging (`--merge`) | [`unit_result`] |
//!
//! Data flows one way: the runner hands a [`schedule::ScheduledGame`] to a
//! worker, which makes its two [`client::EngineClient`]s ready and lets
//! [`referee::play`] referee the game; the [`referee::GameReport`] comes back to the
//! runner, which updates the [`runner::Summary`] (tallies, pairs, faults, SPRT)
//! and tells the caller. Nothing here prints; the CLI in
//! `chuhan match` (the CLI crate) does.
//!
//! ```no_run
//! use chuhan_arena::r#match::{engine_arg, limit::Limit, params, runner};
//! let config = runner::MatchConfig {
//!     engines: vec![
//!         engine_arg::parse("./chuhan name=New").unwrap(),
//!         engine_arg::parse("./chuhan-old name=Old").unwrap(),
//!     ],
//!     games: 100,
//!     limit: Limit::clock("10+0.1".parse().unwrap()),
//!     concurrency: 2,
//!     openings: Vec::new(),
//!     rules: Default::default(),
//!     referee: Default::default(),
//!     seed: None,
//!     sprt: Some("elo0=0 elo1=5".parse().unwrap()),
//!     adjudication: Default::default(),
//!     tolerance: chuhan_arena::game::params::TOLERANCE,
//!     hang_timeout: params::HANG_TIMEOUT,
//!     timeouts: Default::default(),
//!     event: "test".into(),
//!     log: None,
//! };
//! let summary = runner::run(&config, |_event| {});
//! let t = summary.pairings[0].tally;
//! println!("{} - {} - {}", t.wins, t.losses, t.draws);
//! ```

pub mod adjudication;
pub mod client;
pub mod dialect;
pub mod engine_arg;
pub mod limit;
pub mod openings;
pub mod params;
pub mod plan;
pub mod player;
pub mod process;
pub mod referee;
pub mod runner;
pub mod schedule;
pub mod sprt;
pub mod stats;
pub mod unit_result;
