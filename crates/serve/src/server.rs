//! The server: binds the address, builds the routes and the protective layers, and
//! serves HTTP/1.1 connections on a tokio runtime, each under
//! [`ServeConfig`]'s limits.
//!
//! # What protects it
//!
//! * **Connections**: at most [`ServeConfig::max_connections`] at once; more wait in
//!   the kernel's backlog.
//! * **Slowloris**: a client has [`ServeConfig::header_read_timeout`] to send a
//!   whole request head (hyper closes the connection otherwise, also between
//!   requests of a kept-alive connection), [`ServeConfig::body_read_timeout`] for
//!   each piece of the body, and the whole request must be answered within
//!   [`ServeConfig::request_timeout`] (408 otherwise).
//! * **Sizes**: heads of at most [`params::MAX_HEAD_BYTES`], bodies of at most
//!   [`params::MAX_BODY_BYTES`] (413), games of at most [`params::MAX_PLIES`] plies.
//! * **No file system**: records are parsed from the request body in memory; the
//!   page's files are compiled into the binary and served from fixed routes, so no
//!   path can name a file.
//! * **Errors**: every refusal, the layers' included (405, 408, 413, ...), is JSON
//!   `{"error": "…"}`; a panic in a handler becomes a 500 and the server goes on.
//! * **Who may ask**: loopback unless [`ServeConfig::allow_remote`]; with a token,
//!   every API request needs `Authorization: Bearer <token>` (401 otherwise); CORS
//!   headers only for [`ServeConfig::cors_origin`].

use crate::analysis::Pool;
use crate::api::{self, AppState};
use crate::config::ServeConfig;
use crate::error::{ApiError, ServeError};
use crate::page;
use crate::params;
use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::Semaphore;
use tower::ServiceExt;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};

/// A bound, not yet running server.
pub struct Server {
    listener: std::net::TcpListener,
    addr: SocketAddr,
    config: ServeConfig,
}

impl Server {
    /// Binds `config.listen` (refusing a non-loopback address unless
    /// [`ServeConfig::allow_remote`]).
    pub fn bind(config: ServeConfig) -> Result<Server, ServeError> {
        let want = config.listen;
        if !want.ip().is_loopback() && !config.allow_remote {
            return Err(ServeError::NotLoopback(want));
        }
        let listener = std::net::TcpListener::bind(want)
            .map_err(|error| ServeError::Bind { addr: want, error })?;
        listener
            .set_nonblocking(true)
            .map_err(|error| ServeError::Bind { addr: want, error })?;
        let addr = listener
            .local_addr()
            .map_err(|error| ServeError::Bind { addr: want, error })?;
        Ok(Server {
            listener,
            addr,
            config,
        })
    }

    /// The address bound (with the port chosen when the configuration asked for 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves until `shutdown` completes, on a runtime of its own (blocks).
    pub fn run(self, shutdown: impl Future<Output = ()> + Send) -> Result<(), ServeError> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .max_blocking_threads(params::RULES_THREADS)
            .thread_name("serve")
            .build()
            .map_err(ServeError::Runtime)?;
        let result = rt.block_on(self.serve(shutdown));
        // Connections still open are dropped with the runtime.
        rt.shutdown_timeout(std::time::Duration::from_secs(1));
        result
    }

    /// Serves until Ctrl-C (SIGINT); without a way to hear it, until killed.
    pub fn run_until_interrupted(self) -> Result<(), ServeError> {
        self.run(async {
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
    }

    /// Serves on its own thread until [`Running::stop`] (or drop).
    pub fn spawn(self) -> Running {
        let addr = self.addr;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("serve-main".into())
            .spawn(move || {
                let _ = self.run(async {
                    let _ = stopped.await;
                });
            })
            .expect("the system can start a thread");
        Running {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// The accept loop.
    async fn serve(self, shutdown: impl Future<Output = ()> + Send) -> Result<(), ServeError> {
        let addr = self.addr;
        let listener = tokio::net::TcpListener::from_std(self.listener)
            .map_err(|error| ServeError::Bind { addr, error })?;
        let app = router(&self.config);
        let slots = Arc::new(Semaphore::new(self.config.max_connections.max(1)));
        let header_timeout = self.config.header_read_timeout;
        tokio::pin!(shutdown);
        loop {
            let permit = tokio::select! {
                _ = &mut shutdown => return Ok(()),
                p = slots.clone().acquire_owned() => p.expect("the semaphore is never closed"),
            };
            let stream = tokio::select! {
                _ = &mut shutdown => return Ok(()),
                s = listener.accept() => match s {
                    Ok((stream, _)) => stream,
                    // Out of file descriptors and the like: wait a little and go on.
                    Err(_) => {
                        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                        continue;
                    }
                },
            };
            let _ = stream.set_nodelay(true);
            let app = app.clone();
            tokio::spawn(async move {
                let service =
                    hyper::service::service_fn(move |req: Request<hyper::body::Incoming>| {
                        app.clone().oneshot(req.map(Body::new))
                    });
                let _ = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(header_timeout)
                    .max_buf_size(params::MAX_HEAD_BYTES.max(8192))
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
                drop(permit);
            });
        }
    }
}

/// A server serving on its own thread.
pub struct Running {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops serving and waits for the server thread.
    pub fn stop(mut self) {
        self.shut();
    }

    fn shut(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.shut();
    }
}

/// The routes and their layers.
pub fn router(config: &ServeConfig) -> Router {
    let state = AppState {
        pool: Arc::new(Pool::new(config.engines, config.queue)),
    };
    let token = config.token.clone().map(Arc::<str>::from);
    let api = Router::new()
        .route("/api/health", get(api::health))
        .route("/api/judge", post(api::judge))
        .route("/api/record", post(api::record))
        .route("/api/moves", post(api::moves))
        .route(
            "/api/diagram",
            get(api::diagram_get).post(api::diagram_post),
        )
        .route("/api/analyse", post(api::analyse))
        .route("/chessdb.php", get(api::chessdb).post(api::chessdb))
        .layer(middleware::from_fn(move |req: Request, next: Next| {
            let token = token.clone();
            async move { authorise(token.as_deref(), req, next).await }
        }))
        .with_state(state);
    let mut app = page::routes()
        .merge(api)
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(params::MAX_BODY_BYTES))
        .layer(RequestBodyLimitLayer::new(params::MAX_BODY_BYTES))
        .layer(RequestBodyTimeoutLayer::new(config.body_read_timeout))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            config.request_timeout,
        ))
        .layer(CatchPanicLayer::new());
    if let Some(origin) = config
        .cors_origin
        .as_deref()
        .and_then(|o| HeaderValue::from_str(o).ok())
    {
        app = app.layer(
            CorsLayer::new()
                .allow_origin(AllowOrigin::exact(origin))
                .allow_methods([Method::GET, Method::POST])
                .allow_headers([header::CONTENT_TYPE, header::AUTHORIZATION]),
        );
    }
    app.layer(middleware::map_response(finish))
}

/// Checks the token of an API request.
async fn authorise(token: Option<&str>, req: Request, next: Next) -> Response {
    if let Some(want) = token {
        let given = req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or("");
        if !same(given.as_bytes(), want.as_bytes()) {
            let mut r = ApiError::new(
                StatusCode::UNAUTHORIZED,
                "this server needs a token: send Authorization: Bearer <token>",
            )
            .into_response();
            r.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            return r;
        }
    }
    next.run(req).await
}

/// Compares two secrets in time independent of where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The last touch on every answer: refusals that are not JSON yet (the layers'
/// 405, 408, 413, a panic's 500) become `{"error": "…"}`, and every answer gets the
/// security headers.
async fn finish(mut r: Response) -> Response {
    let status = r.status();
    let is_json = r
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !is_json {
        let message = match status {
            StatusCode::METHOD_NOT_ALLOWED => "method not allowed on this resource".to_string(),
            StatusCode::REQUEST_TIMEOUT => "the request took too long".to_string(),
            StatusCode::PAYLOAD_TOO_LARGE => {
                format!("the body is larger than {} bytes", params::MAX_BODY_BYTES)
            }
            s => s.canonical_reason().unwrap_or("error").to_lowercase(),
        };
        let mut json = ApiError::new(status, message).into_response();
        for name in [header::ALLOW, header::RETRY_AFTER, header::WWW_AUTHENTICATE] {
            if let Some(v) = r.headers().get(&name) {
                json.headers_mut().insert(name, v.clone());
            }
        }
        r = json;
    }
    let h = r.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'none'; base-uri 'none'",
        ),
    );
    if !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    r
}
