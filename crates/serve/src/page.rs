//! The web page at `/`: three files compiled into the binary (`assets/`), served
//! from fixed routes — no file system, no path to traverse, nothing from a CDN.
//! The page draws the board with the service's own SVG ([`crate::api`]'s
//! `/api/diagram`), steps through a game, shows the ruling in Chinese or English,
//! marks the side to move's banned and drawing moves, switches between CXA 2011 and
//! AXF, and asks for an analysis. A token given as `/#token=…` is sent with every
//! API call.

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

/// The page.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// Its script.
pub const APP_JS: &str = include_str!("../assets/app.js");
/// Its style sheet.
pub const APP_CSS: &str = include_str!("../assets/app.css");

/// A fixed asset with its type; browsers may keep it for a minute.
fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "max-age=60"),
        ],
        body,
    )
}

/// The page's routes: `/`, `/index.html`, `/app.js`, `/app.css`.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/index.html",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/app.css",
            get(|| async { asset("text/css; charset=utf-8", APP_CSS) }),
        )
}
