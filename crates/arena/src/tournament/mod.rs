//! Engine tournaments run the way an arbiter runs a human event under the CXA 2011
//! competition rules (`../shared/reference/rules-2011.txt`, chapters 2–3 and the
//! appendices).
//!
//! | rule | module |
//! |---|---|
//! | §6 clocks, §21 flag fall | [`crate::game::clock`] |
//! | §10.1, §12.1, 附錄一 round-robin table | [`round_robin`] |
//! | §10.3, §12.3, 附錄二 定位編排 Swiss pairing | [`swiss`] (with [`matching`]) |
//! | §10.4, §12.4, 附錄三 knockouts | [`knockout`] |
//! | §13 scoring, §20.3 forfeits | [`scoring`], [`standings`] |
//! | §14 ranking and tie-breaks | [`tiebreak`] |
//! | §19 withdrawals, §20 absence | [`event`] |
//!
//! The pieces fit together as follows. A [`config::TournamentConfig`] (JSON) names
//! the engines, format, clocks, rules, scoring, openings, withdrawals and output
//! paths. An [`event::Event`] is the configuration with its draw and the results
//! so far; [`event::Event::next`] says what happens next (pair a round, play games,
//! finish). A [`runner::Runner`] keeps the event in step with its append-only
//! [`results`] file, so an interrupted event resumes with no game lost or played
//! twice, hands games to [`GamePlayer`]s and rewrites the [`report`]s
//! (terminal text and a self-contained [`html`] page) after every round.
//!
//! On a cluster, the games due at a time become a [`plan`] of work units, played
//! anywhere; [`unit_result::merge`] records them into the event through the same
//! runner, exactly as a local run with one game at a time records them.
//!
//! # The seam to the match runner
//!
//! Games are played through [`GamePlayer`], of the arena's shared vocabulary
//! ([`crate::game`]): the tournament gives a [`GameSpec`] (both engines'
//! configurations, the clocks of both sides, the clock tolerance, the rules, the
//! opening) and takes back a [`GameOutcome`]: a played game (result, termination,
//! moves, PGN) or a forfeit by absence. The match runner implements the trait; one
//! player value per concurrent slot. Clock fields for `go` commands and the §21 time-forfeit verdict
//! come from [`GameClock`], [`GoFields`] and [`loses_on_time`].
//!
//! [`GamePlayer`]: crate::game::play::GamePlayer
//! [`GameSpec`]: crate::game::play::GameSpec
//! [`GameOutcome`]: crate::game::play::GameOutcome
//! [`GameClock`]: crate::game::clock::GameClock
//! [`GoFields`]: crate::game::clock::GoFields
//! [`loses_on_time`]: crate::game::clock::loses_on_time
//!
//! ```
//! use chuhan_arena::game::clock::{ClockSetting, GameClock};
//! use chuhan_arena::tournament::round_robin::RoundRobinTable;
//! use chuhan_engine::core::Color;
//! use std::time::Duration;
//! // 附錄一 for five players: round 2 is (6)-4 5-3 1-2, the phantom 6 meaning 4 has the bye.
//! let table = RoundRobinTable::new(5);
//! assert_eq!(table.bye(2), Some(4));
//! // A §6.2 control: 40 moves in 90 minutes, then 15 minutes per 10 moves.
//! let clock = GameClock::new(&ClockSetting::even("40/5400:10/900".parse().unwrap()), Duration::ZERO);
//! assert_eq!(clock.go_fields(Color::Red).uci(), "wtime 5400000 btime 5400000 movestogo 40");
//! ```

pub mod config;
pub mod event;
pub mod html;
pub mod knockout;
pub mod matching;
pub mod params;
pub mod plan;
pub mod player;
pub mod report;
pub mod results;
pub mod round_robin;
pub mod runner;
pub mod scoring;
pub mod standings;
pub mod swiss;
pub mod tiebreak;
pub mod unit_result;
