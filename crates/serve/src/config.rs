//! [`ServeConfig`]: where to listen, who may ask, how many engines analyse, and the
//! timeouts.

use crate::params;
use std::net::SocketAddr;
use std::time::Duration;

/// How the service runs. [`ServeConfig::default`] is loopback port 8080, no token,
/// no CORS and the limits of [`crate::params`].
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The address to listen on (port 0: any free port).
    pub listen: SocketAddr,
    /// Allow a non-loopback address (refused otherwise).
    pub allow_remote: bool,
    /// When set, every API request must carry `Authorization: Bearer <token>` (the
    /// page itself is served without it and sends the token it is given in its URL
    /// fragment, `#token=…`).
    pub token: Option<String>,
    /// When set, browsers on this origin (e.g. `https://club.example`) may call the
    /// API from their pages (CORS); off by default.
    pub cors_origin: Option<String>,
    /// Engine instances for analysis.
    pub engines: usize,
    /// Analysis requests that may wait for an engine.
    pub queue: usize,
    /// See [`params::HEADER_READ_TIMEOUT`].
    pub header_read_timeout: Duration,
    /// See [`params::BODY_READ_TIMEOUT`].
    pub body_read_timeout: Duration,
    /// See [`params::REQUEST_TIMEOUT`].
    pub request_timeout: Duration,
    /// See [`params::MAX_CONNECTIONS`].
    pub max_connections: usize,
    /// See [`params::WRITE_TIMEOUT`].
    pub write_timeout: Duration,
    /// Connections per client (0: no limit); see [`params::CLIENT_CONNECTIONS`].
    pub client_connections: usize,
    /// Requests per second per client (0: no limit); see [`params::CLIENT_RATE`].
    pub client_rate: u32,
    /// Host names (the `Host` header without its port) this server answers to,
    /// besides `localhost` and IP addresses, which it always answers to; `*`
    /// allows any. Checking the name keeps a web page that rebinds its own DNS
    /// name to 127.0.0.1 out of a loopback server.
    pub allowed_hosts: Vec<String>,
}

impl Default for ServeConfig {
    fn default() -> ServeConfig {
        ServeConfig {
            listen: params::DEFAULT_LISTEN.parse().expect("a valid address"),
            allow_remote: false,
            token: None,
            cors_origin: None,
            engines: params::ANALYSIS_ENGINES,
            queue: params::ANALYSIS_QUEUE,
            header_read_timeout: params::HEADER_READ_TIMEOUT,
            body_read_timeout: params::BODY_READ_TIMEOUT,
            request_timeout: params::REQUEST_TIMEOUT,
            max_connections: params::MAX_CONNECTIONS,
            write_timeout: params::WRITE_TIMEOUT,
            client_connections: params::CLIENT_CONNECTIONS,
            client_rate: params::CLIENT_RATE,
            allowed_hosts: Vec::new(),
        }
    }
}

impl ServeConfig {
    /// The default configuration on loopback with a free port (for tests and
    /// tools that print the address they got).
    ///
    /// ```
    /// let c = chuhan_serve::ServeConfig::ephemeral();
    /// assert!(c.listen.ip().is_loopback() && c.listen.port() == 0);
    /// ```
    pub fn ephemeral() -> ServeConfig {
        ServeConfig {
            listen: "127.0.0.1:0".parse().expect("a valid address"),
            ..ServeConfig::default()
        }
    }
}
