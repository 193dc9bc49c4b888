//! Errors: [`ApiError`], the answer to a bad request (a 4xx status and
//! `{"error": "…"}`, with the ply at fault when a move is to blame and the kind of
//! fault when a line cannot be replayed), and
//! [`ServeError`], why the service could not start.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chuhan_engine::notation::ReplayError;
use std::fmt;

/// A request the service refuses, answered as JSON: `{"error": "…"}` and, when a
/// move is at fault, `"ply": N` (1 = the first move; 0 for the FEN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status (4xx, or 503 for a full analysis queue).
    pub status: StatusCode,
    /// What was wrong, in words.
    pub message: String,
    /// The ply at fault, if a position or move is to blame.
    pub ply: Option<usize>,
    /// What was wrong with a line that cannot be replayed
    /// ([`ReplayError::kind`]: `fen`, `syntax`, `unreachable`, ...).
    pub kind: Option<&'static str>,
    /// Seconds after which to try again (503 only).
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// A 400 Bad Request with `message`.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// An error with any status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            ply: None,
            kind: None,
            retry_after: None,
        }
    }

    /// A 400 for a line that cannot be replayed: the message, ply and kind every
    /// door gives it ([`ReplayError::to_json`]).
    pub fn replay(e: &ReplayError) -> ApiError {
        ApiError {
            kind: Some(e.kind()),
            ..ApiError::bad_request(e.to_string()).at_ply(e.ply())
        }
    }

    /// The same error naming the ply at fault.
    pub fn at_ply(mut self, ply: usize) -> ApiError {
        self.ply = Some(ply);
        self
    }

    /// The JSON body.
    pub fn body(&self) -> serde_json::Value {
        let mut v = serde_json::json!({"error": self.message});
        if let Some(ply) = self.ply {
            v["ply"] = ply.into();
        }
        if let Some(kind) = self.kind {
            v["kind"] = kind.into();
        }
        v
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut r = (self.status, axum::Json(self.body())).into_response();
        if let Some(s) = self.retry_after {
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        r
    }
}

/// Why the service could not start.
#[derive(Debug)]
pub enum ServeError {
    /// A non-loopback address without `--allow-remote`.
    NotLoopback(std::net::SocketAddr),
    /// The address could not be bound (in use, no permission, ...).
    Bind {
        /// The address.
        addr: std::net::SocketAddr,
        /// The system's reason.
        error: std::io::Error,
    },
    /// The async runtime could not start.
    Runtime(std::io::Error),
    /// `--cors-origin` is not an origin (`https://club.example`).
    BadOrigin(String),
    /// `--allow-host` is not a host name.
    BadHost(String),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::NotLoopback(a) => write!(
                f,
                "{a} is not a loopback address: add --allow-remote to listen there (and consider --token)"
            ),
            ServeError::Bind { addr, error } => write!(f, "cannot listen on {addr}: {error}"),
            ServeError::Runtime(e) => write!(f, "cannot start the runtime: {e}"),
            ServeError::BadOrigin(o) => write!(
                f,
                "--cors-origin {o:?} is not an origin: give scheme and host, e.g. https://club.example or http://127.0.0.1:3000"
            ),
            ServeError::BadHost(h) => write!(
                f,
                "--allow-host {h:?} is not a host name: give a name such as arbiter.club.example, or * for any"
            ),
        }
    }
}

impl std::error::Error for ServeError {}
