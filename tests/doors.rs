//! Issue 45: one set of lines (a start position and move texts) sent through every
//! door that replays a line — the daemon's `position` + `judge` (UCCI), `chuhan
//! judge --json`, `POST /api/judge` and the ChessDB-style
//! `/chessdb.php?action=queryrule&json=1` of `chuhan serve` — gets the same answer
//! from each: the same final position (FEN) and warnings, or the same refusal (the
//! same message, naming the same ply and kind of fault). A `judge` after a refused
//! `position` never rules on another position. Timeouts are hang guards only.

use chuhan_engine::core::{Position, START_FEN, Validation};
use chuhan_serve::client::Connection;
use chuhan_serve::{Running, ServeConfig, Server};
use serde_json::{Value, json};
use std::process::Command;

mod common;

use common::HANG_GUARD;

/// A line to replay: a FEN (`None`: the start position) and move texts.
struct Line {
    name: &'static str,
    fen: Option<&'static str>,
    moves: &'static [&'static str],
    /// What every door must answer.
    expect: Expect,
}

/// The expected answer.
enum Expect {
    /// The position reached: the same line in ICCS (the oracle, played by
    /// `core` alone), and how many warnings its start position earns.
    Position {
        iccs: &'static [&'static str],
        warnings: usize,
    },
    /// A refusal: the ply at fault and its kind.
    Refused { ply: usize, kind: &'static str },
}

/// What one door answered.
#[derive(Clone, Debug, PartialEq)]
enum Outcome {
    /// The final position and the warnings given.
    Position { fen: String, warnings: Vec<String> },
    /// The refusal's message, and its ply and kind where the door says them
    /// apart from the message (the daemon's message carries them in words).
    Refused {
        message: String,
        ply: Option<u64>,
        kind: Option<String>,
    },
    /// Neither: an answer that does not hold together, in words.
    Odd(String),
}

/// A composed position (排局): Red's pawn behind its starting rank.
const COMPOSED: &str = "4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 0 1";
/// The kings face each other on the e-file: no door may rule on it.
const KINGS_FACING: &str = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1";

fn lines() -> Vec<Line> {
    vec![
        Line {
            name: "good",
            fen: None,
            moves: &["h2e2", "h9g7", "h0g2", "i9h9"],
            expect: Expect::Position {
                iccs: &["h2e2", "h9g7", "h0g2", "i9h9"],
                warnings: 0,
            },
        },
        Line {
            name: "illegal move at ply 3",
            fen: None,
            moves: &["h2e2", "h9g7", "e2e9", "i9h9"],
            expect: Expect::Refused {
                ply: 3,
                kind: "unreachable",
            },
        },
        Line {
            name: "good again",
            fen: Some(START_FEN),
            moves: &["b2e2"],
            expect: Expect::Position {
                iccs: &["b2e2"],
                warnings: 0,
            },
        },
        Line {
            name: "unknown notation at ply 2",
            fen: None,
            moves: &["h2e2", "xyzzy"],
            expect: Expect::Refused {
                ply: 2,
                kind: "syntax",
            },
        },
        Line {
            name: "kings facing",
            fen: Some(KINGS_FACING),
            moves: &["e0d0"],
            expect: Expect::Refused {
                ply: 0,
                kind: "fen",
            },
        },
        Line {
            name: "pawn behind its start (composed)",
            fen: Some(COMPOSED),
            moves: &["e1e2", "e9e8"],
            expect: Expect::Position {
                iccs: &["e1e2", "e9e8"],
                warnings: 1,
            },
        },
        Line {
            name: "mixed notations",
            fen: None,
            moves: &["炮二平五", "h9g7", "N2+3", "车9平8", "I0-H0"],
            expect: Expect::Position {
                iccs: &["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"],
                warnings: 0,
            },
        },
    ]
}

/// The FEN the oracle reaches: `core` alone, moves in ICCS, the start position
/// read leniently.
fn oracle(fen: Option<&str>, iccs: &[&str]) -> String {
    let mut pos = match fen {
        None => Position::startpos(),
        Some(f) => Position::from_fen_with(f, Validation::Lenient).unwrap().0,
    };
    for m in iccs {
        let m = m.parse().unwrap();
        assert!(pos.is_legal(m), "the oracle's line is legal: {m}");
        pos.make_move(m);
    }
    pos.to_fen()
}

/// The daemon, spoken to in UCCI.
struct Daemon(common::Daemon);

impl Daemon {
    fn start() -> Daemon {
        Daemon(common::Daemon::after("ucci"))
    }

    /// `position …`, then `judge`: what the daemon says to each.
    fn ask(&mut self, line: &Line) -> Outcome {
        let mut cmd = match line.fen {
            None => "position startpos".to_string(),
            Some(f) => format!("position fen {f}"),
        };
        if !line.moves.is_empty() {
            cmd += &format!(" moves {}", line.moves.join(" "));
        }
        self.0.send(&cmd);
        let said = self.0.sync();
        self.0.send("judge");
        let judged = self.0.sync();
        let errors: Vec<&str> = said
            .iter()
            .filter_map(|l| l.strip_prefix("info message error: "))
            .collect();
        let warnings: Vec<String> = said
            .iter()
            .filter_map(|l| l.strip_prefix("info message warning: "))
            .map(str::to_string)
            .collect();
        let ruling = judged.iter().find_map(|l| l.strip_prefix("judgeok "));
        match (errors.as_slice(), ruling) {
            (&[], Some(json)) => {
                let v: Value = serde_json::from_str(json).expect("judgeok JSON");
                Outcome::Position {
                    fen: v["fen"].as_str().unwrap().to_string(),
                    warnings,
                }
            }
            (&[message], None) => {
                // The judge refuses too, in one line naming the same error.
                let named = judged.len() == 1
                    && judged[0].starts_with("info message error: ")
                    && judged[0].contains(message);
                if !named {
                    return Outcome::Odd(format!(
                        "judge after a refused position ({message}): {judged:?}"
                    ));
                }
                Outcome::Refused {
                    message: message.to_string(),
                    ply: None,
                    kind: None,
                }
            }
            _ => {
                // A ruling is long: name only the position it ruled on.
                let judge = match ruling {
                    Some(json) => {
                        let v: Value = serde_json::from_str(json).unwrap_or_default();
                        format!("judgeok on {}", v["fen"])
                    }
                    None => format!("{judged:?}"),
                };
                Outcome::Odd(format!(
                    "the daemon must either accept the position and rule on it, or refuse \
                     both: position said {said:?}, judge said {judge}"
                ))
            }
        }
    }
}

/// A refusal as the JSON doors write it.
fn refused(v: &Value) -> Outcome {
    Outcome::Refused {
        message: v["error"].as_str().expect("an error text").to_string(),
        ply: v["ply"].as_u64(),
        kind: v["kind"].as_str().map(str::to_string),
    }
}

/// An answer's `warnings` (none when absent).
fn warnings(v: &Value) -> Vec<String> {
    v["warnings"]
        .as_array()
        .map(|a| a.iter().map(|w| w.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// `chuhan judge --json`.
fn cli(line: &Line) -> Outcome {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chuhan"));
    cmd.args(["judge", "--json", "--moves", &line.moves.join(" ")]);
    if let Some(f) = line.fen {
        cmd.args(["--fen", f]);
    }
    let out = cmd.output().expect("chuhan judge runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    match out.status.code() {
        Some(0) => Outcome::Position {
            fen: v["fen"].as_str().unwrap().to_string(),
            warnings: warnings(&v),
        },
        Some(2) => refused(&v),
        c => Outcome::Odd(format!("chuhan judge exited {c:?}: {v}")),
    }
}

fn connect(s: &Running) -> Connection {
    Connection::open(s.addr(), HANG_GUARD).expect("connects")
}

/// `POST /api/judge`.
fn http_judge(s: &Running, line: &Line) -> Outcome {
    let mut body = json!({"moves": line.moves});
    if let Some(f) = line.fen {
        body["fen"] = f.into();
    }
    let r = connect(s)
        .post_json("/api/judge", &body)
        .expect("an answer");
    let v = r.json();
    match r.status {
        200 => Outcome::Position {
            fen: v["fen"].as_str().unwrap().to_string(),
            warnings: warnings(&v),
        },
        400 => refused(&v),
        c => Outcome::Odd(format!("/api/judge answered {c}: {v}")),
    }
}

/// Percent-encodes a query value (everything but unreserved ASCII).
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// `/chessdb.php?action=queryrule&json=1`.
fn chessdb(s: &Running, line: &Line) -> Outcome {
    let path = format!(
        "/chessdb.php?action=queryrule&json=1&board={}&movelist={}",
        encode(line.fen.unwrap_or(START_FEN)),
        encode(&line.moves.join("|"))
    );
    let r = connect(s).get(&path).expect("an answer");
    if r.status != 200 {
        return Outcome::Odd(format!("status {}: {}", r.status, r.text()));
    }
    let v = r.json();
    match (v["status"].as_str(), v["board"].as_str()) {
        (Some("ok"), Some(fen)) => Outcome::Position {
            fen: fen.to_string(),
            warnings: warnings(&v),
        },
        (Some("invalid board" | "invalid movelist"), _) if v["error"].is_string() => refused(&v),
        _ => Outcome::Odd(format!("{v}")),
    }
}

#[test]
fn every_door_replays_a_line_the_same_way() {
    let server = Server::bind(ServeConfig::ephemeral())
        .expect("binds a free loopback port")
        .spawn();
    let mut daemon = Daemon::start();
    let mut failures = Vec::new();
    for line in lines() {
        let answers = [
            ("daemon", daemon.ask(&line)),
            ("chuhan judge", cli(&line)),
            ("POST /api/judge", http_judge(&server, &line)),
            ("/chessdb.php", chessdb(&server, &line)),
        ];
        for (door, got) in &answers {
            let fine = match (&line.expect, got) {
                (
                    Expect::Position { iccs, warnings },
                    Outcome::Position {
                        fen,
                        warnings: given,
                    },
                ) => *fen == oracle(line.fen, iccs) && given.len() == *warnings,
                (
                    Expect::Refused { ply, kind },
                    Outcome::Refused {
                        message,
                        ply: said_ply,
                        kind: said_kind,
                    },
                ) => {
                    // The daemon names the ply in its message; the JSON doors
                    // also say it, and the kind, as fields.
                    let named = if *ply == 0 {
                        message.starts_with("invalid FEN")
                    } else {
                        message.starts_with(&format!("ply {ply}: "))
                    };
                    let fields = *door == "daemon"
                        || (*said_ply == Some(*ply as u64) && said_kind.as_deref() == Some(*kind));
                    named && fields
                }
                _ => false,
            };
            if !fine {
                failures.push(format!("{}: {door} answered {got:?}", line.name));
            }
        }
        // The same words from every door: the refusal's message, or the position
        // and its warnings.
        let words = |o: &Outcome| match o {
            Outcome::Position { fen, warnings } => format!("{fen} {warnings:?}"),
            Outcome::Refused { message, .. } => message.clone(),
            Outcome::Odd(why) => why.clone(),
        };
        let first = words(&answers[0].1);
        for (door, got) in &answers[1..] {
            if words(got) != first {
                failures.push(format!(
                    "{}: {door} says {:?}, the daemon {first:?}",
                    line.name,
                    words(got)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// After a refused `position`, in both dialects: `judge` refuses, naming the
/// refusal, until a good `position` arrives; `go` still searches the last good
/// position (a GUI always gets its `bestmove`).
#[test]
fn a_judge_after_a_refused_position_never_rules() {
    for (handshake, prefix) in [("ucci", "info message "), ("uci", "info string ")] {
        let mut d = common::Daemon::after(handshake);
        d.send("position startpos moves h2e2");
        assert_eq!(d.sync(), Vec::<String>::new());
        d.send("position startpos moves h2e2 h9g7 e2e9");
        let said = d.sync();
        let error = format!("{prefix}error: ply 3: cannot play 'e2e9'");
        assert!(
            said.len() == 1 && said[0].starts_with(&error),
            "{handshake}: {said:?}"
        );
        for _ in 0..2 {
            d.send("judge");
            let judged = d.sync();
            assert_eq!(judged.len(), 1, "{handshake}: {judged:?}");
            assert!(
                judged[0].starts_with(&format!("{prefix}error: judge: no ruling"))
                    && judged[0].contains("ply 3: cannot play 'e2e9'"),
                "{handshake}: {judged:?}"
            );
        }
        // `go` searches the last good position: Black to move after h2e2.
        d.send("go depth 1");
        let best = d.bestmove();
        let mv = best.split_whitespace().nth(1).unwrap().parse().unwrap();
        let mut pos = Position::startpos();
        pos.make_move("h2e2".parse().unwrap());
        assert!(pos.is_legal(mv), "{handshake}: {best}");
        // The refusal still stands after the search; a good position ends it.
        d.send("judge");
        assert!(d.sync()[0].contains("no ruling"), "{handshake}");
        d.send(&format!("position fen {COMPOSED} moves e1e2"));
        let said = d.sync();
        assert!(
            said.len() == 1
                && said[0].starts_with(&format!("{prefix}warning: a composed position")),
            "{handshake}: {said:?}"
        );
        d.send("judge");
        let ruling = d.until_prefix("judgeok ").pop().unwrap();
        let v: Value = serde_json::from_str(&ruling["judgeok ".len()..]).unwrap();
        assert_eq!(v["fen"], oracle(Some(COMPOSED), &["e1e2"]), "{handshake}");
    }
}
