//! The arena's shared vocabulary: what one engine game is made of, used alike by
//! the match runner (`r#match`) and tournaments ([`crate::tournament`]),
//! neither of which depends on the other.
//!
//! | concept | type | module |
//! |---|---|---|
//! | an engine: command, protocol, options, rank base | [`EngineConfig`](engine_config::EngineConfig) | [`engine_config`] |
//! | time controls, the two-sided game clock, `go` clock fields | [`TimeControl`](clock::TimeControl), [`ClockSetting`](clock::ClockSetting), [`GameClock`](clock::GameClock) | [`clock`] |
//! | a start position with forced moves | [`Opening`](opening::Opening) | [`opening`] |
//! | one game to play, who plays it, how it went, why it ended | [`GameSpec`](play::GameSpec), [`GamePlayer`](play::GamePlayer), [`GameOutcome`](play::GameOutcome), [`Termination`](play::Termination) | [`play`] |
//! | the clock tolerance | [`params::TOLERANCE`] | [`params`] |
//!
//! From the engine crate: the game result ([`chuhan_engine::core::GameResult`]), the
//! rule set ([`chuhan_engine::rules::RuleSet`]), the protocol dialect
//! ([`chuhan_engine::protocol::dialect::Dialect`]) and the seeded generator behind
//! the drawing of lots ([`crate::lots`]).
//!
//! Data flows one way: a tournament (or a test's fake) builds a
//! [`GameSpec`](play::GameSpec); a [`GamePlayer`](play::GamePlayer) — the match
//! runner's `r#match::player::MatchPlayer` — plays it and
//! returns a [`GameOutcome`](play::GameOutcome).

pub mod clock;
pub mod engine_config;
pub mod opening;
pub mod params;
pub mod play;
