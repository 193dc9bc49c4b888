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
use crate::guard::{ClientKey, Clients};
use crate::page;
use crate::params;
use crate::wire::JsonRefusals;
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
use tokio_io_timeout::TimeoutStream;
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
        check_config(&config)?;
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
        bound_allocator_retention();
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
        let clients = Arc::new(Clients::new(
            self.config.client_connections,
            self.config.client_rate,
        ));
        let app = router_for(&self.config, clients.clone(), addr)?;
        let sweeper = tokio::spawn({
            let clients = clients.clone();
            async move {
                let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
                loop {
                    every.tick().await;
                    clients.forget_quiet();
                }
            }
        });
        let slots = Arc::new(Semaphore::new(self.config.max_connections.max(1)));
        let header_timeout = self.config.header_read_timeout;
        let write_timeout = self.config.write_timeout;
        tokio::pin!(shutdown);
        loop {
            let permit = tokio::select! {
                _ = &mut shutdown => break,
                p = slots.clone().acquire_owned() => p.expect("the semaphore is never closed"),
            };
            let (stream, peer) = tokio::select! {
                _ = &mut shutdown => break,
                s = listener.accept() => match s {
                    Ok(accepted) => accepted,
                    // Out of file descriptors and the like: wait a little and go on.
                    Err(_) => {
                        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                        continue;
                    }
                },
            };
            let Some(slot) = clients.connect(ClientKey::of(peer.ip())) else {
                // One client holds its share of the connections already: tell it
                // (if its socket takes the few bytes at once) and hang up.
                let _ = stream.try_write(TOO_MANY_CONNECTIONS);
                continue;
            };
            let _ = stream.set_nodelay(true);
            let mut io = TimeoutStream::new(stream);
            io.set_write_timeout(Some(write_timeout));
            let io = TokioIo::new(JsonRefusals::new(Box::pin(io)));
            let client = slot.client();
            let app = app.clone();
            tokio::spawn(async move {
                let service =
                    hyper::service::service_fn(move |mut req: Request<hyper::body::Incoming>| {
                        req.extensions_mut().insert(client);
                        app.clone().oneshot(req.map(Body::new))
                    });
                let _ = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(header_timeout)
                    .max_buf_size(params::MAX_HEAD_BYTES.max(8192))
                    .serve_connection(io, service)
                    .await;
                drop(slot);
                drop(permit);
            });
        }
        sweeper.abort();
        Ok(())
    }
}

/// The answer to a connection beyond its client's share, written as it is closed.
const TOO_MANY_CONNECTIONS: &[u8] = b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\ncontent-length: 58\r\nretry-after: 1\r\nconnection: close\r\n\r\n{\"error\":\"too many connections from your address at once\"}";

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

/// Checks what a configuration can be checked for before serving: the CORS
/// origin must be an origin (`scheme://host[:port]`, no path).
pub fn check_config(config: &ServeConfig) -> Result<(), ServeError> {
    if let Some(origin) = config.cors_origin.as_deref() {
        let ok = HeaderValue::from_str(origin).is_ok()
            && origin.split_once("://").is_some_and(|(scheme, rest)| {
                matches!(scheme, "http" | "https")
                    && !rest.is_empty()
                    && !rest.contains(['/', '?', '#', ' ', '*'])
            });
        if !ok {
            return Err(ServeError::BadOrigin(origin.to_string()));
        }
    }
    for host in &config.allowed_hosts {
        let ok = host == "*"
            || (!host.is_empty()
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')));
        if !ok {
            return Err(ServeError::BadHost(host.clone()));
        }
    }
    Ok(())
}

/// The routes and their layers, for a server bound to `addr` whose clients are
/// counted in `clients`.
fn router_for(
    config: &ServeConfig,
    clients: Arc<Clients>,
    addr: SocketAddr,
) -> Result<Router, ServeError> {
    check_config(config)?;
    let state = AppState {
        pool: Arc::new(Pool::new(
            config.engines.clamp(1, params::MAX_ANALYSIS_ENGINES),
            config.queue.min(params::MAX_ANALYSIS_QUEUE),
        )),
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
    let budget = Arc::new(Semaphore::new(params::BODY_BUDGET_BYTES / 1024));
    let mut app = page::routes()
        .merge(api)
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(params::MAX_BODY_BYTES))
        .layer(RequestBodyLimitLayer::new(params::MAX_BODY_BYTES))
        .layer(middleware::from_fn(move |req: Request, next: Next| {
            let budget = budget.clone();
            async move { large_bodies_share(&budget, req, next).await }
        }))
        .layer(RequestBodyTimeoutLayer::new(config.body_read_timeout))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            config.request_timeout,
        ))
        .layer(middleware::from_fn(move |req: Request, next: Next| {
            let clients = clients.clone();
            async move { within_rate(&clients, req, next).await }
        }));
    let cors = config.cors_origin.clone().map(Arc::<str>::from);
    let hosts = Arc::new(Hosts {
        allowed: config.allowed_hosts.clone(),
        bound: addr,
    });
    app = app.layer(middleware::from_fn(move |req: Request, next: Next| {
        let cors = cors.clone();
        let hosts = hosts.clone();
        async move { from_where(&hosts, cors.as_deref(), req, next).await }
    }));
    app = app.layer(CatchPanicLayer::new());
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
    Ok(app.layer(middleware::map_response(finish)))
}

/// The routes and their layers for `config`, as a server bound to its address
/// builds them (for tests that drive the router without a socket; every request
/// counts as one client, 127.0.0.1).
pub fn router(config: &ServeConfig) -> Result<Router, ServeError> {
    let clients = Arc::new(Clients::new(config.client_connections, config.client_rate));
    let loopback = ClientKey::of(std::net::Ipv4Addr::LOCALHOST.into());
    let app = router_for(config, clients, config.listen)?;
    Ok(app.layer(middleware::map_request(
        move |mut req: Request| async move {
            req.extensions_mut().get_or_insert(loopback);
            req
        },
    )))
}

/// Counts a request against its client's rate: 429 with `Retry-After` beyond it.
async fn within_rate(clients: &Clients, req: Request, next: Next) -> Response {
    if let Some(client) = req.extensions().get::<ClientKey>().copied()
        && let Err(wait) = clients.request(client)
    {
        let mut e = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many requests from your address: at most {} per second",
                params::CLIENT_RATE
            ),
        );
        e.retry_after = Some(wait.as_secs_f64().ceil().max(1.0) as u64);
        return e.into_response();
    }
    next.run(req).await
}

/// Lets a request with a large body (or one of unknown size) go on once its share
/// of [`params::BODY_BUDGET_BYTES`] is free, and holds the share until the answer,
/// so that many large uploads at once wait for each other instead of all being
/// read and parsed together. 503 with `Retry-After` when the share does not come
/// within [`params::BODY_BUDGET_WAIT`].
async fn large_bodies_share(budget: &Arc<Semaphore>, req: Request, next: Next) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let bodiless = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS)
        && declared.is_none()
        && !req.headers().contains_key(header::TRANSFER_ENCODING);
    let size = declared.map_or(params::MAX_BODY_BYTES, |n| {
        n.min(params::MAX_BODY_BYTES as u64) as usize
    });
    if bodiless || size <= params::SMALL_BODY_BYTES {
        return next.run(req).await;
    }
    let kib = size.div_ceil(1024) as u32;
    let share = tokio::time::timeout(
        params::BODY_BUDGET_WAIT,
        budget.clone().acquire_many_owned(kib),
    )
    .await;
    let Ok(Ok(share)) = share else {
        let mut e = ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many large uploads at once: try again shortly",
        );
        e.retry_after = Some(1);
        return e.into_response();
    };
    let r = next.run(req).await;
    drop(share);
    if budget.available_permits() == params::BODY_BUDGET_BYTES / 1024 {
        // The last large body is done: give the memory its reading took back to
        // the system (glibc keeps freed memory in per-thread arenas otherwise),
        // and once more a moment later, for what the answer's writing and the
        // connection's buffers freed after this point.
        tokio::task::spawn_blocking(|| {
            give_back_memory();
            std::thread::sleep(params::TRIM_AGAIN_AFTER);
            give_back_memory();
        });
    }
    r
}

/// Keeps glibc's allocator from holding on to what request bodies freed: at most
/// [`params::MALLOC_ARENAS`] arenas, however many threads have served, and blocks
/// from [`params::MMAP_FROM_BYTES`] up always mapped apart and unmapped when freed
/// (glibc otherwise raises that threshold to the largest block freed so far, so
/// after the first 2 MB body every later one stays in an arena). Other allocators
/// and systems: nothing to do.
fn bound_allocator_retention() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's settings; both values are
    // within the ranges glibc documents for these parameters.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, params::MALLOC_ARENAS);
        libc::mallopt(libc::M_MMAP_THRESHOLD, params::MMAP_FROM_BYTES);
    }
}

/// Returns freed heap memory to the system where the allocator keeps it (glibc).
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the allocator's arenas; it
    // takes no pointer and is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The names a server answers to.
struct Hosts {
    /// Names given with `--allow-host` (`*`: any).
    allowed: Vec<String>,
    /// The address bound.
    bound: SocketAddr,
}

impl Hosts {
    /// Whether a request for `host` (the `Host` header) is for this server:
    /// `localhost` and IP addresses always (a page that rebinds a DNS name to
    /// 127.0.0.1 still sends its own name), other names only when allowed.
    fn allow(&self, host: &str) -> bool {
        let name = if let Some(rest) = host.strip_prefix('[') {
            // An IPv6 literal, `[::1]:8080`.
            return rest
                .split(']')
                .next()
                .is_some_and(|ip| ip.parse::<std::net::Ipv6Addr>().is_ok());
        } else {
            match host.rsplit_once(':') {
                Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
                _ => host,
            }
        };
        let name = name.trim_end_matches('.').to_ascii_lowercase();
        name.parse::<std::net::Ipv4Addr>().is_ok()
            || name == self.bound.ip().to_string()
            || name == "localhost"
            || name.ends_with(".localhost")
            || self
                .allowed
                .iter()
                .any(|a| a == "*" || a.eq_ignore_ascii_case(&name))
    }
}

/// Refuses requests that are not for this server by name (403; see
/// [`Hosts::allow`]), HTTP/1.1 requests with no `Host` (400, RFC 9112 §3.2), and
/// POSTs that a page of another site makes (403): those carry an `Origin` that is
/// neither this server nor the CORS origin, or `Sec-Fetch-Site: cross-site`. A
/// form or `text/plain` POST needs no CORS preflight, so without this any page
/// could make a loopback server work.
async fn from_where(hosts: &Hosts, cors: Option<&str>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    match host {
        Some(h) if !hosts.allow(h) => {
            return ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "this server does not answer to the name {}: start it with --allow-host NAME",
                    chuhan_engine::echo::echo(h)
                ),
            )
            .into_response();
        }
        None if req.version() >= axum::http::Version::HTTP_11 => {
            return ApiError::bad_request("an HTTP/1.1 request needs a Host header")
                .into_response();
        }
        _ => {}
    }
    if req.method() == Method::POST {
        let origin = headers
            .get(header::ORIGIN)
            .map(|v| v.to_str().unwrap_or("null"));
        let cross = match origin {
            Some(o) => {
                let same = host.is_some_and(|h| {
                    o.strip_prefix("http://")
                        .or_else(|| o.strip_prefix("https://"))
                        .is_some_and(|rest| rest.eq_ignore_ascii_case(h))
                });
                !same && cors != Some(o)
            }
            None => {
                headers
                    .get("sec-fetch-site")
                    .is_some_and(|v| v.as_bytes() == b"cross-site")
                    && cors.is_none()
            }
        };
        if cross {
            return ApiError::new(
                StatusCode::FORBIDDEN,
                "a page of another site may not post here (start the server with --cors-origin to allow one)",
            )
            .into_response();
        }
    }
    next.run(req).await
}

/// Checks the token of an API request (the scheme `Bearer` in any case, RFC 7235).
async fn authorise(token: Option<&str>, req: Request, next: Next) -> Response {
    if let Some(want) = token {
        let given = req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map_or("", |(_, t)| t.trim());
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
