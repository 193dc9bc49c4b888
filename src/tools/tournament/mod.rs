//! Tournaments under the CXA 2011 competition rules.

pub mod clock;
pub mod config;
pub mod event;
pub mod game;
pub mod html;
pub mod knockout;
pub mod lots;
pub mod matching;
pub mod player;
pub mod report;
pub mod results;
pub mod round_robin;
pub mod runner;
pub mod scoring;
pub mod standings;
pub mod swiss;
pub mod tiebreak;
