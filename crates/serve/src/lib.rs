//! `chuhan serve`: Chuhan's arbiter over HTTP, for arbiters at the table (a laptop
//! or a phone), tournament software and GUIs.
//!
//! * [`api`]: the JSON API — the ruling on a game ([`Judgement`](chuhan_engine::rules::Judgement),
//!   the JSON of `chuhan judge --json`), the legal moves with verdicts and their
//!   notations, SVG diagrams, engine analysis, records read in memory, and the cloud
//!   database's `queryrule` ([`queryrule`]).
//! * [`analysis`]: a small pool of engines behind a bounded queue (503 with
//!   `Retry-After` when full).
//! * [`server`]: binding, routes, the protective layers (sizes, timeouts, slowloris,
//!   token, CORS) and the accept loop.
//! * [`page`]: the web page at `/` for arbiters (embedded, offline, phone-sized).
//! * [`game`]: turning a request into a position; [`config`], [`params`]: settings
//!   and limits; [`error`]: refusals as JSON.
//! * [`client`]: a minimal blocking HTTP/1.1 client for the tests and the load
//!   generator.
//!
//! The stack is axum on hyper and tokio (the most used and best kept Rust HTTP
//! stack, maintained by the tokio project), with tower-http's body limits and
//! timeouts; connections are served by hyper's HTTP/1.1 server directly, to set its
//! header-read timeout (the slowloris guard) and the head size.
//!
//! ```no_run
//! let server = chuhan_serve::Server::bind(chuhan_serve::ServeConfig::ephemeral()).unwrap();
//! println!("listening on http://{}/", server.local_addr());
//! let running = server.spawn();
//! running.stop();
//! ```

#![warn(missing_docs)]

pub mod analysis;
pub mod api;
pub mod client;
pub mod config;
pub mod error;
pub mod game;
pub mod guard;
pub mod page;
pub mod params;
pub mod queryrule;
pub mod server;
pub mod wire;

pub use config::ServeConfig;
pub use error::{ApiError, ServeError};
pub use server::{Running, Server};
