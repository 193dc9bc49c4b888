//! Every endpoint of `chuhan serve`, good and bad requests, against a running
//! server on an ephemeral loopback port; and the protections (sizes, timeouts,
//! slowloris, token, CORS, no files), each followed by a check that the server
//! still serves.

use chuhan_engine::core::Position;
use chuhan_engine::core::Validation;
use chuhan_engine::notation::replay;
use chuhan_engine::rules::{RuleSet, judge_position};
use chuhan_serve::client::{Connection, Reply};
use chuhan_serve::{Running, ServeConfig, ServeError, Server, params};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// A guard against a server that never answers (never a measure of speed).
const PATIENCE: Duration = Duration::from_secs(60);

/// Red's rook checks from a9 and a8 while the king shuffles: after the ninth ply
/// the position has occurred three times and red (長將) loses at once.
const CHECK_FEN: &str = "4k4/9/9/9/9/9/9/9/9/R2K5 w";
/// The same in a query string.
const CHECK_FEN_QUERY: &str = "4k4/9/9/9/9/9/9/9/9/R2K5%20w";
const CHECK_MOVES: &str = "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9";
/// The same game one ply earlier: red to play, a8a9 banned.
const CHECK_MOVES_8: &str = "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9";

fn start(config: ServeConfig) -> Running {
    Server::bind(config)
        .expect("binds a free loopback port")
        .spawn()
}

fn server() -> Running {
    start(ServeConfig::ephemeral())
}

fn connect(s: &Running) -> Connection {
    Connection::open(s.addr(), PATIENCE).expect("connects")
}

fn post(s: &Running, path: &str, body: Value) -> Reply {
    connect(s).post_json(path, &body).expect("an answer")
}

fn post_bytes(s: &Running, path: &str, content_type: &str, body: &[u8]) -> Reply {
    connect(s)
        .request("POST", path, content_type, body)
        .expect("an answer")
}

fn get(s: &Running, path: &str) -> Reply {
    connect(s).get(path).expect("an answer")
}

/// A refusal: the status, JSON with an `error` text.
fn assert_refused(r: &Reply, status: u16) -> Value {
    assert_eq!(r.status, status, "{}", r.text());
    assert_eq!(r.header("content-type"), Some("application/json"), "{r:?}");
    let v = r.json();
    assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    v
}

fn assert_alive(s: &Running) {
    let r = get(s, "/api/health");
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["ok"], true);
}

#[test]
fn health_names_the_rule_sets_and_limits() {
    let s = server();
    let v = get(&s, "/api/health").json();
    assert_eq!(v["rules"], json!(["cxa2011", "axf"]));
    assert_eq!(v["limits"]["plies"], params::MAX_PLIES);
}

#[test]
fn judge_answers_the_json_of_chuhan_judge() {
    let s = server();
    let r = post(
        &s,
        "/api/judge",
        json!({"fen": CHECK_FEN, "moves": CHECK_MOVES, "rules": "cxa2011"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let moves: Vec<&str> = CHECK_MOVES.split(' ').collect();
    let line = replay(Some(CHECK_FEN), &moves, Validation::Lenient).unwrap();
    let expected: Value =
        serde_json::from_str(&judge_position(&line.position, RuleSet::Cxa2011).to_json_line())
            .unwrap();
    assert_eq!(r.json(), expected);
    assert_eq!(r.json()["status"], "repetition");
    assert_eq!(r.json()["repetition"]["must_vary"], "red");
    // A list of moves in any notation, and the start position without a FEN.
    let r = post(
        &s,
        "/api/judge",
        json!({"moves": ["炮二平五", "H8+7", "h0g2"], "rules": "axf"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["plies"], 3);
    assert_eq!(r.json()["rules"], "axf");
}

#[test]
fn judge_refuses_bad_games_naming_the_ply() {
    let s = server();
    let v = assert_refused(&post(&s, "/api/judge", json!({"fen": "9/9 w"})), 400);
    assert_eq!(v["ply"], 0);
    let v = assert_refused(
        &post(&s, "/api/judge", json!({"moves": "h2e2 h9g7 h2e2"})),
        400,
    );
    assert_eq!(v["ply"], 3);
    assert_refused(&post(&s, "/api/judge", json!({"moves": 7})), 422);
    assert_refused(&post(&s, "/api/judge", json!({"rules": "fide"})), 422);
    assert_refused(&post(&s, "/api/judge", json!({"colour": "red"})), 422);
    assert_refused(
        &post_bytes(&s, "/api/judge", "application/json", b"{\"moves\":"),
        422,
    );
    assert_refused(
        &post_bytes(&s, "/api/judge?bogus=1", "application/json", b"{}"),
        400,
    );
    // Too many moves, too large a body.
    let many = vec!["h2e2"; params::MAX_PLIES + 1].join(" ");
    assert_refused(&post(&s, "/api/judge", json!({"moves": many})), 413);
    // A body declared larger than the limit is refused before it is read.
    let mut t = TcpStream::connect(s.addr()).unwrap();
    let head = format!(
        "POST /api/judge HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n",
        params::MAX_BODY_BYTES + 1
    );
    t.write_all(head.as_bytes()).unwrap();
    let answer = read_to_close(&mut t);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("{\"error\":"), "{answer}");
    assert_alive(&s);
}

/// The game as a PGN record.
fn check_pgn() -> String {
    let mut pgn =
        format!("[Game \"Chinese Chess\"]\n[Event \"Test\"]\n[FEN \"{CHECK_FEN} - - 0 1\"]\n");
    for (i, pair) in CHECK_MOVES
        .split(' ')
        .collect::<Vec<_>>()
        .chunks(2)
        .enumerate()
    {
        pgn.push_str(&format!("{}. {} ", i + 1, pair.join(" ")));
    }
    pgn.push_str("*\n");
    pgn
}

#[test]
fn judge_and_record_read_uploaded_records() {
    let s = server();
    let pgn = check_pgn();
    let r = post_bytes(&s, "/api/judge", "application/x-chess-pgn", pgn.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["status"], "repetition");
    assert_eq!(r.json()["winner"], "black");
    // One ply earlier: red to move, a8a9 banned.
    let r = post_bytes(
        &s,
        "/api/judge?ply=8&rules=cxa2011",
        "text/plain",
        pgn.as_bytes(),
    );
    let moves = r.json()["moves"].as_array().unwrap().clone();
    let a8a9 = moves.iter().find(|m| m["move"] == "a8a9").unwrap();
    assert_eq!(a8a9["verdict"], "ban");
    // A plain move list is a record too.
    let r = post_bytes(&s, "/api/judge", "text/plain", b"h2e2 h9g7");
    assert_eq!(r.json()["plies"], 2);
    assert_refused(
        &post_bytes(&s, "/api/judge?ply=99", "text/plain", pgn.as_bytes()),
        400,
    );
    assert_refused(
        &post_bytes(&s, "/api/judge?game=2", "text/plain", pgn.as_bytes()),
        400,
    );
    // A record that yields no game: 422 with the reader's reasons.
    let r = post_bytes(&s, "/api/judge", "text/plain", b"h2e2 zz");
    assert!(
        assert_refused(&r, 422)["error"]
            .as_str()
            .unwrap()
            .contains("move 2")
    );
    assert_refused(&post_bytes(&s, "/api/judge", "text/plain", b"   "), 400);
    assert_refused(
        &post_bytes(
            &s,
            "/api/judge",
            "application/octet-stream",
            b"XQ\x0a\x00garbage",
        ),
        422,
    );
    // Random bytes, Big5 and UTF-32 text are not ruled as the start position.
    let utf32: Vec<u8> = "1. h2e2 h9g7"
        .chars()
        .flat_map(|c| (c as u32).to_le_bytes())
        .collect();
    for body in [
        &[0x9f, 0x00, 0xff, 0x13, 0x88, 0xfe, 0x01, 0x7f, 0xc3, 0x28][..],
        b"\xa8\xae\xa4\x47\xa5\xad\xa4\xad",
        &utf32,
    ] {
        for path in ["/api/judge", "/api/record"] {
            let r = post_bytes(&s, path, "application/octet-stream", body);
            let e = assert_refused(&r, 422);
            assert!(e["error"].as_str().unwrap().len() > 20, "{e}");
        }
    }

    let r = post_bytes(&s, "/api/record", "application/x-chess-pgn", pgn.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["games"], 1);
    assert_eq!(v["fen"], format!("{CHECK_FEN} - - 0 1"));
    assert_eq!(v["moves"].as_array().unwrap().len(), 9);
    assert_eq!(v["tags"][0], json!(["Event", "Test"]));
    assert_refused(
        &post_bytes(&s, "/api/record?game=0", "text/plain", pgn.as_bytes()),
        400,
    );
    assert_alive(&s);
}

#[test]
fn moves_lists_verdicts_and_notations() {
    let s = server();
    let r = post(
        &s,
        "/api/moves",
        json!({"fen": CHECK_FEN, "moves": CHECK_MOVES_8}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["side"], "red");
    let mut pos = Position::from_fen(CHECK_FEN).unwrap();
    for m in CHECK_MOVES_8.split(' ') {
        pos.make_move(m.parse().unwrap());
    }
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), pos.legal_moves().len());
    let banned: Vec<&Value> = moves.iter().filter(|m| m["verdict"] == "ban").collect();
    assert_eq!(banned.len(), 1);
    assert_eq!(banned[0]["move"], "a8a9");
    assert_eq!(banned[0]["wxf"], "R9+1");
    assert_eq!(banned[0]["chinese"], "車九進一");
    assert!(
        banned[0]["why"].as_str().unwrap().contains("must vary")
            || banned[0]["why"].as_str().unwrap().contains("loses")
    );
    let played = v["played"].as_array().unwrap();
    assert_eq!(played.len(), 8);
    assert_eq!(played[0]["chinese"], "車九進九");
    assert_eq!(played[1]["side"], "black");
    assert_refused(&post(&s, "/api/moves", json!({"moves": ["x"]})), 400);
    assert_refused(&post_bytes(&s, "/api/moves", "text/plain", b"h2e2"), 422);
}

#[test]
fn diagrams_of_positions_and_rulings() {
    let s = server();
    let moves = CHECK_MOVES_8.replace(' ', "+");
    let fen = CHECK_FEN_QUERY;
    let r = get(
        &s,
        &format!("/api/diagram?fen={fen}&moves={moves}&marks=true"),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.header("content-type"),
        Some("image/svg+xml; charset=utf-8")
    );
    let svg = r.text();
    assert!(
        svg.contains("<svg") && svg.contains("禁"),
        "banned move marked"
    );
    let plain = get(&s, &format!("/api/diagram?fen={fen}&moves={moves}")).text();
    assert!(!plain.contains("禁"));
    let r = post(
        &s,
        "/api/diagram",
        json!({"fen": CHECK_FEN, "moves": CHECK_MOVES, "view": "ruling"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("violator: red"), "{}", r.text());
    assert_refused(&get(&s, "/api/diagram?view=sideways"), 400);
    assert_refused(&get(&s, "/api/diagram?moves=h2h2"), 400);
    assert_refused(&post(&s, "/api/diagram", json!({"marks": "yes"})), 422);
}

#[test]
fn analysis_plays_by_the_rules() {
    let s = server();
    let r = post(
        &s,
        "/api/analyse",
        json!({"fen": CHECK_FEN, "moves": CHECK_MOVES_8, "depth": 4}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["banned"], json!(["a8a9"]));
    let best = v["bestmove"].as_str().unwrap();
    assert_ne!(best, "a8a9");
    // Red mates at once by taking away the king's last squares (困斃 loses).
    assert_eq!(v["score"], json!({"mate": 1}), "{v}");
    assert_eq!(v["pv"][0], best);
    assert_refused(&post(&s, "/api/analyse", json!({"depth": 0})), 400);
    assert_refused(
        &post(&s, "/api/analyse", json!({"movetime_ms": 999_999})),
        400,
    );
    assert_refused(&post(&s, "/api/analyse", json!({"fen": "bad"})), 400);
}

#[test]
fn analysis_beyond_the_queue_is_refused_with_retry_after() {
    let s = start(ServeConfig {
        engines: 1,
        queue: 1,
        ..ServeConfig::ephemeral()
    });
    let addr = s.addr();
    let clients: Vec<_> = (0..8)
        .map(|_| {
            std::thread::spawn(move || {
                Connection::open(addr, PATIENCE)
                    .unwrap()
                    .post_json("/api/analyse", &json!({"movetime_ms": 2000}))
                    .unwrap()
            })
        })
        .collect();
    let replies: Vec<Reply> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    let ok = replies.iter().filter(|r| r.status == 200).count();
    let busy: Vec<&Reply> = replies.iter().filter(|r| r.status == 503).collect();
    assert_eq!(ok + busy.len(), 8, "only answers and refusals");
    assert!(ok >= 2, "one analysing and one queued are served");
    assert!(
        !busy.is_empty(),
        "eight at once overflow one engine and one slot"
    );
    for r in busy {
        assert_refused(r, 503);
        let secs: u64 = r.header("retry-after").unwrap().parse().unwrap();
        assert!(secs >= 1);
    }
    assert_alive(&s);
}

#[test]
fn queryrule_speaks_the_cloud_format() {
    let s = server();
    let (list, board) = (CHECK_MOVES_8.replace(' ', "|"), CHECK_FEN_QUERY);
    let r = get(
        &s,
        &format!("/chessdb.php?action=queryrule&board={board}&movelist={list}"),
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("text/plain; charset=utf-8"));
    let text = r.text();
    let items: Vec<&str> = text.split('|').collect();
    assert!(items.contains(&"move:a8a9,rule:ban"), "{text}");
    assert!(
        items
            .iter()
            .all(|i| i.starts_with("move:") && i.contains(",rule:"))
    );
    // POST with a form body, JSON answer, AXF.
    let form = format!("action=queryrule&board={board}&movelist={list}&json=1&rules=axf");
    let r = post_bytes(
        &s,
        "/chessdb.php",
        "application/x-www-form-urlencoded",
        form.as_bytes(),
    );
    let v = r.json();
    assert_eq!(v["status"], "ok", "{v}");
    let ban = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "a8a9")
        .unwrap();
    assert_eq!(ban["rule"], "ban");
    // reptimes=1 rules the first repetition: after four plies a0a9 is already a draw...
    let r = get(
        &s,
        &format!(
            "/chessdb.php?action=queryrule&board={board}&movelist=a0a9|e9e8|a9a8|e8e9&reptimes=1"
        ),
    );
    assert!(r.text().contains("move:a8a9,rule:ban"), "{}", r.text());
    let r = get(
        &s,
        &format!("/chessdb.php?action=queryrule&board={board}&movelist=a0a9|e9e8|a9a8|e8e9"),
    );
    assert!(r.text().contains("move:a8a9,rule:none"), "{}", r.text());
    // The cloud's plain answers.
    assert_eq!(
        get(&s, "/chessdb.php?action=queryrule&board=xyz").text(),
        "invalid board"
    );
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR%20w";
    assert_eq!(
        get(
            &s,
            &format!("/chessdb.php?action=queryrule&board={start}&movelist=h2e2|h2e2")
        )
        .text(),
        "invalid movelist"
    );
    let mated = "3k5/9/9/9/9/9/9/9/9/3RK4%20b";
    assert_eq!(
        get(&s, &format!("/chessdb.php?action=queryrule&board={mated}")).text(),
        "checkmate"
    );
    // What the cloud would not understand.
    assert_refused(
        &get(&s, &format!("/chessdb.php?action=queryall&board={start}")),
        400,
    );
    assert_refused(&get(&s, "/chessdb.php"), 400);
    assert_refused(
        &get(
            &s,
            &format!("/chessdb.php?action=queryrule&board={start}&reptimes=9"),
        ),
        400,
    );
}

#[test]
fn unknown_paths_and_methods_are_json_errors_and_no_file_is_served() {
    let s = server();
    for path in [
        "/nope",
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/api/../Cargo.toml",
        "/static/..%2f..%2fCargo.toml",
        "/api/judge/extra",
    ] {
        let r = get(&s, path);
        assert!(!r.text().contains("root:"), "{path}");
        assert_refused(&r, 404);
    }
    let r = connect(&s)
        .request("DELETE", "/api/judge", "", b"")
        .unwrap();
    assert_refused(&r, 405);
    assert_eq!(r.header("allow"), Some("POST"));
    assert_refused(&get(&s, "/api/judge"), 405);
    // The security headers are on every answer.
    let r = get(&s, "/api/health");
    assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
    assert!(r.header("content-security-policy").is_some());
}

#[test]
fn keep_alive_serves_many_requests_on_one_connection() {
    let s = server();
    let mut c = connect(&s);
    for i in 0..20 {
        let r = c
            .post_json("/api/judge", &json!({"moves": ["h2e2", "h9g7"]}))
            .unwrap();
        assert_eq!(r.status, 200, "request {i}");
    }
}

#[test]
fn a_token_guards_the_api() {
    let s = start(ServeConfig {
        token: Some("s3cret".into()),
        ..ServeConfig::ephemeral()
    });
    let r = get(&s, "/api/health");
    assert_refused(&r, 401);
    assert_eq!(r.header("www-authenticate"), Some("Bearer"));
    assert_refused(&get(&s, "/chessdb.php?action=queryrule"), 401);
    let mut c = connect(&s);
    c.headers
        .push(("Authorization".into(), "Bearer s3cre".into()));
    assert_refused(&c.get("/api/health").unwrap(), 401);
    let mut c = connect(&s);
    c.headers
        .push(("Authorization".into(), "Bearer s3cret".into()));
    assert_eq!(c.get("/api/health").unwrap().status, 200);
    // The scheme is case-insensitive (RFC 7235).
    let mut c = connect(&s);
    c.headers
        .push(("Authorization".into(), "bearer s3cret".into()));
    assert_eq!(c.get("/api/health").unwrap().status, 200);
}

#[test]
fn only_its_own_names_and_no_cross_site_posts() {
    let s = server();
    let raw = |head: &str| {
        let mut t = TcpStream::connect(s.addr()).unwrap();
        t.write_all(head.as_bytes()).unwrap();
        read_to_close(&mut t)
    };
    // A page that rebinds its DNS name to 127.0.0.1 still sends its own name.
    let r = raw("GET /api/health HTTP/1.1\r\nHost: evil.example:8080\r\nConnection: close\r\n\r\n");
    assert!(r.starts_with("HTTP/1.1 403"), "{r}");
    assert!(r.contains("--allow-host"), "{r}");
    for host in ["localhost:8080", "127.0.0.1", "[::1]:8080", "LOCALHOST"] {
        let r = raw(&format!(
            "GET /api/health HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        ));
        assert!(r.starts_with("HTTP/1.1 200"), "{host}: {r}");
    }
    let r = raw("GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n");
    assert!(r.starts_with("HTTP/1.1 400"), "{r}");
    // A name given with --allow-host is served.
    let named = start(ServeConfig {
        allowed_hosts: vec!["arbiter.club.example".into()],
        ..ServeConfig::ephemeral()
    });
    let mut t = TcpStream::connect(named.addr()).unwrap();
    t.write_all(
        b"GET /api/health HTTP/1.1\r\nHost: Arbiter.Club.Example:80\r\nConnection: close\r\n\r\n",
    )
    .unwrap();
    assert!(read_to_close(&mut t).starts_with("HTTP/1.1 200"));
    // Another site's page may not post (a text/plain form needs no preflight),
    // the server's own page may.
    let post = |origin: &str| {
        let mut c = connect(&s);
        c.headers.push(("Origin".into(), origin.into()));
        c.request("POST", "/api/judge", "text/plain", b"{\"moves\": \"h2e2\"}")
            .unwrap()
    };
    assert_refused(&post("https://evil.example"), 403);
    assert_refused(&post("null"), 403);
    assert_eq!(post(&format!("http://{}", s.addr())).status, 200);
    let mut c = connect(&s);
    c.headers
        .push(("Sec-Fetch-Site".into(), "cross-site".into()));
    assert_refused(&c.post_json("/api/judge", &json!({})).unwrap(), 403);
}

#[test]
fn bad_origins_and_host_names_are_refused_at_start() {
    for origin in ["club.example", "https://club.example/page", "*", "ftp://x"] {
        let bad = ServeConfig {
            cors_origin: Some(origin.into()),
            ..ServeConfig::ephemeral()
        };
        assert!(
            matches!(Server::bind(bad), Err(ServeError::BadOrigin(_))),
            "{origin}"
        );
    }
    let bad = ServeConfig {
        allowed_hosts: vec!["a b".into()],
        ..ServeConfig::ephemeral()
    };
    assert!(matches!(Server::bind(bad), Err(ServeError::BadHost(_))));
}

#[test]
fn one_client_cannot_take_every_connection_or_flood_requests() {
    let s = start(ServeConfig {
        client_connections: 4,
        client_rate: 5,
        ..ServeConfig::ephemeral()
    });
    // Four connections are held; the fifth is told so and closed.
    let held: Vec<TcpStream> = (0..4)
        .map(|_| TcpStream::connect(s.addr()).unwrap())
        .collect();
    let mut fifth = TcpStream::connect(s.addr()).unwrap();
    let r = read_to_close(&mut fifth);
    assert!(r.starts_with("HTTP/1.1 429"), "{r}");
    let body = r.split("\r\n\r\n").nth(1).unwrap();
    let len: usize = r
        .lines()
        .find_map(|l| l.strip_prefix("content-length: "))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(len, body.len());
    assert!(serde_json::from_str::<Value>(body).unwrap()["error"].is_string());
    drop(held);
    // A burst beyond the rate is answered 429 with Retry-After.
    let mut c = loop {
        // The server notices the closed connections as it reads them.
        if let Ok(mut c) = Connection::open(s.addr(), PATIENCE)
            && c.get("/api/health").is_ok_and(|r| r.status == 200)
        {
            break c;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let refused = (0..20)
        .map(|_| c.get("/api/health").unwrap())
        .find(|r| r.status == 429)
        .expect("a burst beyond the rate is refused");
    assert_refused(&refused, 429);
    assert!(refused.header("retry-after").is_some());
}

#[test]
fn refusals_from_the_http_layer_are_json_too() {
    let s = server();
    for head in [
        format!(
            "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: {}\r\n\r\n",
            "a".repeat(20_000)
        ),
        "BAD\x01 REQUEST\r\n\r\n".to_string(),
    ] {
        let mut t = TcpStream::connect(s.addr()).unwrap();
        t.write_all(head.as_bytes()).unwrap();
        let r = read_to_close(&mut t);
        let (head, body) = r.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 4"), "{r}");
        assert!(head.contains("content-type: application/json"), "{r}");
        assert!(
            serde_json::from_str::<Value>(body).unwrap()["error"].is_string(),
            "{r}"
        );
    }
}

#[test]
fn loopback_unless_asked_and_cors_only_when_asked() {
    let wide = ServeConfig {
        listen: "0.0.0.0:0".parse().unwrap(),
        ..ServeConfig::default()
    };
    assert!(matches!(
        Server::bind(wide),
        Err(ServeError::NotLoopback(_))
    ));
    let origin = "https://club.example";
    let s = server();
    let mut c = connect(&s);
    c.headers.push(("Origin".into(), origin.into()));
    assert_eq!(
        c.get("/api/health")
            .unwrap()
            .header("access-control-allow-origin"),
        None
    );
    let s = start(ServeConfig {
        cors_origin: Some(origin.into()),
        ..ServeConfig::ephemeral()
    });
    let mut c = connect(&s);
    c.headers.push(("Origin".into(), origin.into()));
    assert_eq!(
        c.get("/api/health")
            .unwrap()
            .header("access-control-allow-origin"),
        Some(origin)
    );
}

/// Reads until the server closes the connection; what it sent.
fn read_to_close(stream: &mut TcpStream) -> String {
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut got = Vec::new();
    let r = stream.read_to_end(&mut got);
    assert!(
        !matches!(&r, Err(e) if e.kind() == std::io::ErrorKind::WouldBlock || e.kind() == std::io::ErrorKind::TimedOut),
        "the server kept the connection open"
    );
    String::from_utf8_lossy(&got).into_owned()
}

fn quick() -> ServeConfig {
    ServeConfig {
        header_read_timeout: Duration::from_millis(500),
        body_read_timeout: Duration::from_millis(500),
        ..ServeConfig::ephemeral()
    }
}

#[test]
fn slow_and_silent_clients_are_cut_off() {
    let s = start(quick());
    // Slowloris: half a head, then nothing; and a connection that says nothing.
    let mut slow = TcpStream::connect(s.addr()).unwrap();
    slow.write_all(b"POST /api/judge HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        .unwrap();
    let mut silent = TcpStream::connect(s.addr()).unwrap();
    // Meanwhile others are served.
    assert_alive(&s);
    read_to_close(&mut slow);
    read_to_close(&mut silent);
    // A body that stops coming.
    let mut stalled = TcpStream::connect(s.addr()).unwrap();
    stalled
        .write_all(b"POST /api/judge HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"moves\":")
        .unwrap();
    let answer = read_to_close(&mut stalled);
    assert!(
        answer.starts_with("HTTP/1.1 408")
            || answer.starts_with("HTTP/1.1 400")
            || answer.is_empty(),
        "{answer}"
    );
    if !answer.is_empty() {
        assert!(answer.contains("\"error\""), "{answer}");
    }
    // A head larger than the limit.
    let mut big = TcpStream::connect(s.addr()).unwrap();
    let filler = "a".repeat(params::MAX_HEAD_BYTES + 1024);
    let _ = big.write_all(
        format!("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: {filler}\r\n\r\n")
            .as_bytes(),
    );
    let answer = read_to_close(&mut big);
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 431"),
        "{answer}"
    );
    assert_alive(&s);
}

#[test]
fn garbage_on_the_wire_does_not_stop_the_server() {
    let s = server();
    for junk in [
        &b"\x00\x01\x02\xff\r\n\r\n"[..],
        b"GET\r\n\r\n",
        b"POST /api/judge HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
        b"POST /api/judge HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ] {
        let mut t = TcpStream::connect(s.addr()).unwrap();
        let _ = t.write_all(junk);
        let _ = t.shutdown(std::net::Shutdown::Write);
        read_to_close(&mut t);
    }
    assert_alive(&s);
}

#[test]
fn the_server_stops_when_asked() {
    let s = server();
    let addr: SocketAddr = s.addr();
    assert_alive(&s);
    s.stop();
    assert!(
        TcpStream::connect(addr).is_err()
            || Connection::open(addr, PATIENCE)
                .and_then(|mut c| c.get("/api/health"))
                .is_err()
    );
}

#[test]
fn the_page_is_served_from_the_binary_and_loads_nothing_from_elsewhere() {
    let s = server();
    let page = get(&s, "/");
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(get(&s, "/index.html").text(), page.text());
    let html = page.text();
    assert!(html.contains("<script src=\"/app.js\"") && html.contains("href=\"/app.css\""));
    assert!(html.contains("width=device-width"), "phone-sized");
    let js = get(&s, "/app.js");
    assert_eq!(
        js.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    let css = get(&s, "/app.css");
    assert_eq!(css.header("content-type"), Some("text/css; charset=utf-8"));
    for text in [html, js.text(), css.text()] {
        assert!(
            !text.contains("http://") && !text.contains("https://") && !text.contains("src=\"//")
        );
    }
    assert!(
        page.header("content-security-policy")
            .unwrap()
            .starts_with("default-src 'self'")
    );
    assert_refused(&get(&s, "/app.js/../Cargo.toml"), 404);
    assert_refused(&get(&s, "/assets/app.js"), 404);
}
