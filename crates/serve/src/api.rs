//! The JSON API: one handler per endpoint. Every handler checks its input, does the
//! rules work on the blocking pool (off the I/O threads) and answers JSON (or SVG,
//! or the cloud's text); every refusal is an [`ApiError`].
//!
//! | endpoint | answer |
//! |---|---|
//! | `GET /api/health` | version, rule sets, limits |
//! | `POST /api/judge` | the ruling ([`Judgement`], as `chuhan judge --json`, with `warnings` when the start position is a composed one) on a JSON game or on a record sent as the body (`?game=N&ply=P&rules=R`) |
//! | `POST /api/record` | a record sent as the body, read: tags, start FEN, moves (`?game=N`) |
//! | `POST /api/moves` | the legal moves with verdicts and their ICCS, WXF and Chinese texts, and the moves played in each notation |
//! | `GET`/`POST /api/diagram` | an SVG of the position (`view=position`, banned and drawing moves marked with `marks`) or of the ruled cycle (`view=ruling`) |
//! | `POST /api/analyse` | an engine's best move, score and line, by the rules, with banned moves banned; 503 + `Retry-After` when the queue is full |
//! | `GET`/`POST /chessdb.php?action=queryrule` | the cloud database's `queryrule` ([`crate::queryrule`]) |

use crate::analysis::{Budget, Pool};
use crate::error::ApiError;
use crate::game::{GameSpec, MoveTexts, play, read_record, record_position};
use crate::params;
use crate::queryrule::{self, CloudAnswer, CloudQuery};
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, JsonRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chuhan_engine::core::{Color, Move, Position};
use chuhan_engine::diagram::{self, Arrow, ArrowStyle, SvgOptions};
use chuhan_engine::notation::{Notation, Script};
use chuhan_engine::rules::{MoveRuling, RuleSet, judge_position, move_verdicts};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What the handlers share.
#[derive(Clone)]
pub struct AppState {
    /// The analysis engines.
    pub pool: Arc<Pool>,
}

/// A rejected extractor as an [`ApiError`] (its status and text).
fn rejected(status: StatusCode, text: String) -> ApiError {
    ApiError::new(status, text)
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        rejected(r.status(), r.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> ApiError {
        rejected(r.status(), r.body_text())
    }
}

impl From<BytesRejection> for ApiError {
    fn from(r: BytesRejection) -> ApiError {
        rejected(r.status(), r.body_text())
    }
}

/// Runs rules work `f` on the blocking pool.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f).await.map_err(|_| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the request's rules work failed",
        )
    })?
}

/// JSON text already serialised, as a response.
fn json_text(text: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text).into_response()
}

/// Reads a JSON body into `T` (any content type: curl's `-d` sends a form type).
fn parse_json<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, format!("JSON: {e}")))
}

/// True if the request body is JSON (by its type or, for curl's `-d`, its first
/// character) rather than a record file.
fn is_json(headers: &HeaderMap, body: &[u8]) -> bool {
    let typed = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"));
    typed || body.trim_ascii_start().starts_with(b"{")
}

/// `GET /api/health`.
pub async fn health() -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "ok": true,
        "service": "chuhan serve",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": [RuleSet::Cxa2011.name(), RuleSet::Axf.name()],
        "limits": {
            "body_bytes": params::MAX_BODY_BYTES,
            "plies": params::MAX_PLIES,
            "analysis_ms": params::MAX_ANALYSIS_MS,
            "analysis_depth": params::MAX_ANALYSIS_DEPTH,
        },
    }))
}

/// Which game of a record and where in it: `?game=N&ply=P&rules=R`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordQuery {
    /// Game number, 1 = the first.
    pub game: Option<usize>,
    /// Plies from the start (default: the end of the main line).
    pub ply: Option<usize>,
    /// The rule set (default CXA 2011).
    pub rules: Option<RuleSet>,
}

/// `POST /api/judge`: a JSON game or a record file.
pub async fn judge(
    query: Result<Query<RecordQuery>, QueryRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query?;
    let body = body?;
    let json = is_json(&headers, &body);
    let text = blocking(move || {
        let (pos, rules, warnings) = if json {
            let spec: GameSpec = parse_json(&body)?;
            let line = spec.replay()?;
            (line.position, spec.rules, line.warnings)
        } else {
            let (game, _) = read_record(&body, q.game.unwrap_or(1))?;
            let pos = record_position(&game, q.ply)?;
            (pos, q.rules.unwrap_or_default(), Vec::new())
        };
        Ok(judge_position(&pos, rules).to_json_line_warning(&warnings))
    })
    .await?;
    Ok(json_text(text))
}

/// The answer of `POST /api/record`.
#[derive(Clone, Debug, Serialize)]
pub struct RecordAnswer {
    /// Games in the record.
    pub games: usize,
    /// The game read (1 = the first).
    pub game: usize,
    /// Its tags (Event, Red, Black, Result, ...), in file order.
    pub tags: Vec<(String, String)>,
    /// Its start position.
    pub fen: String,
    /// Its main line in ICCS.
    pub moves: Vec<String>,
    /// What the lenient reading kept or dropped.
    pub warnings: Vec<String>,
}

/// `POST /api/record`: reads a record sent as the body.
pub async fn record(
    query: Result<Query<RecordQuery>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<RecordAnswer>, ApiError> {
    let Query(q) = query?;
    let body = body?;
    let number = q.game.unwrap_or(1);
    let answer = blocking(move || {
        let (game, games) = read_record(&body, number)?;
        Ok(RecordAnswer {
            games,
            game: number,
            tags: game.tags.clone(),
            fen: game.start_fen(),
            moves: game.moves().iter().map(Move::to_string).collect(),
            warnings: game.warnings.iter().map(|w| w.to_string()).collect(),
        })
    })
    .await?;
    Ok(Json(answer))
}

/// A move in every notation.
#[derive(Clone, Debug, Serialize)]
pub struct Notations {
    /// ICCS (`h2e2`).
    #[serde(rename = "move")]
    pub iccs: String,
    /// WXF (`C2.5`).
    pub wxf: String,
    /// Chinese, traditional (炮二平五).
    pub chinese: String,
    /// Chinese, simplified.
    pub chinese_simplified: String,
}

impl Notations {
    /// The texts of `mv`, a legal move of `pos`.
    fn of(pos: &Position, mv: Move) -> Notations {
        let text = |n: Notation| n.format(pos, mv).unwrap_or_else(|_| mv.to_string());
        Notations {
            iccs: mv.to_string(),
            wxf: text(Notation::Wxf),
            chinese: text(Notation::Chinese(Script::Traditional)),
            chinese_simplified: text(Notation::Chinese(Script::Simplified)),
        }
    }
}

/// A legal move with its verdict.
#[derive(Clone, Debug, Serialize)]
pub struct LegalMove {
    /// Its texts.
    #[serde(flatten)]
    pub texts: Notations,
    /// `none`, `draw` or `ban` (see [`MoveRuling`]).
    pub verdict: &'static str,
    /// Why (empty when it completes no cycle).
    pub why: String,
}

/// A move played, in every notation.
#[derive(Clone, Debug, Serialize)]
pub struct PlayedMove {
    /// The ply it leads to (1 = the first move).
    pub ply: usize,
    /// Who played it.
    pub side: &'static str,
    /// Its texts.
    #[serde(flatten)]
    pub texts: Notations,
}

/// The answer of `POST /api/moves`.
#[derive(Clone, Debug, Serialize)]
pub struct MovesAnswer {
    /// The position.
    pub fen: String,
    /// The side to move.
    pub side: &'static str,
    /// The rule set of the verdicts.
    pub rules: RuleSet,
    /// The moves played, in every notation.
    pub played: Vec<PlayedMove>,
    /// Every legal move with its verdict.
    pub moves: Vec<LegalMove>,
}

/// The moves played to reach `end` (its history), in every notation.
fn played(end: &Position) -> Vec<PlayedMove> {
    let mut line = Vec::new();
    let mut at = end.clone();
    while at.game_ply() > 0 {
        let Some(m) = at.last_move() else { break };
        at.unmake_move();
        line.push((
            at.game_ply() + 1,
            m,
            Notations::of(&at, m),
            at.side_to_move(),
        ));
    }
    line.reverse();
    line.into_iter()
        .map(|(ply, _, texts, side)| PlayedMove {
            ply,
            side: side.name(),
            texts,
        })
        .collect()
}

/// `POST /api/moves`.
pub async fn moves(body: Result<Bytes, BytesRejection>) -> Result<Json<MovesAnswer>, ApiError> {
    let body = body?;
    let answer = blocking(move || {
        let spec: GameSpec = parse_json(&body)?;
        let pos = spec.position()?;
        let moves = move_verdicts(&pos, spec.rules, 3)
            .into_iter()
            .map(|v| LegalMove {
                texts: Notations::of(&pos, v.mv),
                verdict: v.verdict.name(),
                why: v.why,
            })
            .collect();
        Ok(MovesAnswer {
            fen: pos.to_fen(),
            side: pos.side_to_move().name(),
            rules: spec.rules,
            played: played(&pos),
            moves,
        })
    })
    .await?;
    Ok(Json(answer))
}

/// What a diagram shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum View {
    /// The position with the last move (and, with `marks`, the side to move's
    /// banned moves in red and drawing moves in grey).
    #[default]
    Position,
    /// The ruled cycle ([`diagram::ruling`]).
    Ruling,
}

/// A diagram request (a JSON body, or the query of a GET): the game, the view, and
/// whether to mark verdicts.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiagramSpec {
    /// The start position (default: the standard one).
    #[serde(default)]
    pub fen: Option<String>,
    /// The moves played (a list, or one string separated by spaces, `+` in a
    /// query, or commas).
    #[serde(default)]
    pub moves: MoveTexts,
    /// The rule set.
    #[serde(default)]
    pub rules: RuleSet,
    /// What to draw.
    #[serde(default)]
    pub view: View,
    /// Mark the side to move's banned and drawing moves.
    #[serde(default)]
    pub marks: bool,
    /// Draw coordinates (default true).
    #[serde(default)]
    pub coordinates: Option<bool>,
}

/// Draws the diagram `spec` asks for.
fn draw(spec: &DiagramSpec) -> Result<String, ApiError> {
    let pos = play(spec.fen.as_deref(), &spec.moves.texts())?.position;
    if spec.view == View::Ruling {
        return Ok(diagram::ruling(&pos, &judge_position(&pos, spec.rules)));
    }
    let mut arrows: Vec<Arrow> = pos
        .last_move()
        .map(|m| Arrow::new(m, ArrowStyle::Blue))
        .into_iter()
        .collect();
    if spec.marks {
        for v in move_verdicts(&pos, spec.rules, 3) {
            match v.verdict {
                MoveRuling::Ban => arrows.push(Arrow::new(v.mv, ArrowStyle::Red).labelled("禁")),
                MoveRuling::Draw => arrows.push(Arrow::new(v.mv, ArrowStyle::Grey).labelled("和")),
                MoveRuling::None => {}
            }
        }
    }
    Ok(diagram::svg(
        &pos,
        &SvgOptions {
            arrows,
            caption: None,
            coordinates: spec.coordinates.unwrap_or(true),
        },
    ))
}

/// An SVG document as a response.
fn svg_response(svg: String) -> Response {
    (
        [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
        svg,
    )
        .into_response()
}

/// `GET /api/diagram?fen=…&moves=m1+m2&rules=…&view=position|ruling&marks=true`.
pub async fn diagram_get(
    query: Result<Query<DiagramSpec>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(spec) = query?;
    Ok(svg_response(blocking(move || draw(&spec)).await?))
}

/// `POST /api/diagram` with a JSON body.
pub async fn diagram_post(body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    let body = body?;
    let svg = blocking(move || draw(&parse_json(&body)?)).await?;
    Ok(svg_response(svg))
}

/// An analysis request: the game and the budget.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyseSpec {
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    moves: MoveTexts,
    #[serde(default)]
    rules: RuleSet,
    /// Search time in ms.
    #[serde(default)]
    movetime_ms: Option<u64>,
    /// Search depth in plies.
    #[serde(default)]
    depth: Option<i32>,
}

/// `POST /api/analyse`.
pub async fn analyse(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body?;
    let (pos, rules, budget) = blocking(move || {
        let q: AnalyseSpec = parse_json(&body)?;
        let budget = Budget::new(q.movetime_ms, q.depth)?;
        Ok((
            play(q.fen.as_deref(), &q.moves.texts())?.position,
            q.rules,
            budget,
        ))
    })
    .await?;
    let side: Color = pos.side_to_move();
    let a = state.pool.analyse(pos, rules, budget).await?;
    let mut v = serde_json::to_value(&a)
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("JSON: {e}")))?;
    v["side"] = side.name().into();
    Ok(Json(v).into_response())
}

/// The fields of a `/chessdb.php` request from its query string and, for a POST,
/// its form body (the body's win).
fn cloud_query(query: Option<&str>, body: &[u8]) -> Result<CloudQuery, ApiError> {
    let mut q = CloudQuery::default();
    let bad = |e: serde_urlencoded::de::Error| ApiError::bad_request(format!("form: {e}"));
    let body = std::str::from_utf8(body).map_err(|_| ApiError::bad_request("form: not UTF-8"))?;
    for part in [query.unwrap_or(""), body] {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(part).map_err(bad)?;
        for (k, v) in pairs {
            let slot = match k.as_str() {
                "action" => &mut q.action,
                "board" => &mut q.board,
                "movelist" => &mut q.movelist,
                "reptimes" => &mut q.reptimes,
                "json" => &mut q.json,
                "rules" => &mut q.rules,
                // The cloud's other options (learn, showall, egtbmetric, ban) do
                // not change a ruling.
                _ => continue,
            };
            *slot = Some(v);
        }
    }
    Ok(q)
}

/// `GET`/`POST /chessdb.php`.
pub async fn chessdb(
    uri: axum::http::Uri,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body?;
    let answer = blocking(move || queryrule::answer(&cloud_query(uri.query(), &body)?)).await?;
    Ok(match answer {
        CloudAnswer::Text(t) => {
            ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], t).into_response()
        }
        CloudAnswer::Json(v) => Json(v).into_response(),
    })
}

/// Any other path: 404.
pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!(
            "no such resource: {} (see GET /api/health and the README)",
            chuhan_engine::echo::echo(uri.path())
        ),
    )
}
