//! The cloud database's `queryrule` request, answered by the local arbiter, so that
//! tools written for the online service work offline: `GET` or `POST`
//! (form-encoded) `/chessdb.php?action=queryrule&board=FEN&movelist=m1|m2|…`.
//!
//! The answer is the cloud's: one item per legal move of the side to move,
//! separated by `|`, each `move:<ICCS>,rule:<none|draw|ban>`; or one of the plain
//! answers `invalid board`, `invalid movelist`, `checkmate`, `stalemate`. With
//! `json=1` the same as JSON: `{"status":"ok","moves":[{"move":…,"rule":…}]}` or
//! `{"status":"invalid board"}`. The service rules by its own arbiter: the rule set
//! is `rules=cxa2011` (default) or `rules=axf` (the cloud rules AXF-style), and
//! `reptimes=N` rules a move that makes a position occur N+1 times (default 2: the
//! third occurrence, as both rule books count; 1 rules the first repetition).
//!
//! The line is replayed as at every other door ([`replay`]): the board read
//! leniently (a composed position is ruled, with a warning), the moves in any
//! notation (ICCS as the cloud writes them, WXF or Chinese; a `+` of WXF must be
//! sent as `%2B` in a query string). The text answers are the cloud's; the JSON
//! answers add what the cloud does not say: `board`, the position ruled (its FEN),
//! and `warnings` when there are any; on a refusal `error`, `ply` and `kind`, as
//! [`ReplayError::to_json`] writes them.

use crate::error::ApiError;
use crate::params::MAX_PLIES;
use chuhan_engine::core::{Terminal, Validation};
use chuhan_engine::notation::{ReplayError, replay};
use chuhan_engine::rules::{RuleSet, move_verdicts};
use serde::Deserialize;

/// The parameters of a `/chessdb.php` request.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct CloudQuery {
    /// The action; only `queryrule` is served.
    pub action: Option<String>,
    /// The start position (FEN).
    pub board: Option<String>,
    /// The moves played from it, in any notation, separated by `|` (`move:`
    /// prefixes allowed).
    pub movelist: Option<String>,
    /// Repetitions before a move is ruled (see the module doc).
    pub reptimes: Option<String>,
    /// `1`: answer in JSON.
    pub json: Option<String>,
    /// `cxa2011` (default) or `axf`.
    pub rules: Option<String>,
}

/// What a `queryrule` answers: text in the cloud's format, or JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CloudAnswer {
    /// `text/plain`.
    Text(String),
    /// `application/json`.
    Json(serde_json::Value),
}

/// Answers `q`: the cloud's own answers for a bad board or move list; a request the
/// cloud would not understand (another action, a bad `reptimes` or `rules`) is a
/// 400.
pub fn answer(q: &CloudQuery) -> Result<CloudAnswer, ApiError> {
    match q.action.as_deref() {
        Some("queryrule") => {}
        Some(a) => {
            return Err(ApiError::bad_request(format!(
                "action {}: only queryrule is served here",
                chuhan_engine::echo::echo(a)
            )));
        }
        None => {
            return Err(ApiError::bad_request(
                "missing action (only queryrule is served)",
            ));
        }
    }
    let rules: RuleSet = match q.rules.as_deref() {
        None => RuleSet::Cxa2011,
        Some(r) => r
            .parse()
            .map_err(|e| ApiError::bad_request(format!("{e}")))?,
    };
    let reptimes: u32 = match q.reptimes.as_deref() {
        None => 2,
        Some(t) => match t.trim().parse() {
            Ok(n @ 1..=2) => n,
            _ => {
                return Err(ApiError::bad_request(format!(
                    "reptimes {}: 1 or 2",
                    chuhan_engine::echo::echo(t)
                )));
            }
        },
    };
    let json = q.json.as_deref() == Some("1");
    let plain = |s: &str| {
        if json {
            CloudAnswer::Json(serde_json::json!({"status": s}))
        } else {
            CloudAnswer::Text(s.to_string())
        }
    };
    let Some(board) = q.board.as_deref() else {
        return Ok(plain("invalid board"));
    };
    let texts: Vec<&str> = q
        .movelist
        .as_deref()
        .unwrap_or("")
        .split('|')
        .map(|t| t.trim().trim_start_matches("move:"))
        .filter(|t| !t.is_empty())
        .collect();
    if texts.len() > MAX_PLIES {
        return Ok(plain("invalid movelist"));
    }
    let line = match replay(Some(board), &texts, Validation::Lenient) {
        Ok(line) => line,
        Err(e) => {
            let status = match e {
                ReplayError::Fen(_) => "invalid board",
                ReplayError::Move { .. } => "invalid movelist",
            };
            return Ok(if json {
                let mut v = e.to_json();
                v["status"] = status.into();
                CloudAnswer::Json(v)
            } else {
                CloudAnswer::Text(status.to_string())
            });
        }
    };
    let pos = line.position;
    match pos.terminal() {
        Terminal::Checkmate => return Ok(plain("checkmate")),
        Terminal::Stalemate => return Ok(plain("stalemate")),
        Terminal::Ongoing => {}
    }
    let verdicts = move_verdicts(&pos, rules, reptimes + 1);
    Ok(if json {
        let moves: Vec<serde_json::Value> = verdicts
            .iter()
            .map(|v| serde_json::json!({"move": v.mv.to_string(), "rule": v.verdict.name()}))
            .collect();
        let mut v = serde_json::json!({"status": "ok", "moves": moves, "board": pos.to_fen()});
        if !line.warnings.is_empty() {
            v["warnings"] = line.warnings.iter().map(|w| w.to_string()).collect();
        }
        CloudAnswer::Json(v)
    } else {
        let items: Vec<String> = verdicts
            .iter()
            .map(|v| format!("move:{},rule:{}", v.mv, v.verdict.name()))
            .collect();
        CloudAnswer::Text(items.join("|"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(board: &str, movelist: &str) -> CloudAnswer {
        answer(&CloudQuery {
            action: Some("queryrule".into()),
            board: Some(board.into()),
            movelist: Some(movelist.into()),
            ..CloudQuery::default()
        })
        .unwrap()
    }

    #[test]
    fn perpetual_check_is_banned_for_the_checker() {
        // Red checks from a9 and a8 while the king shuffles: the third a8a9 is banned.
        let a = ask(
            "4k4/9/9/9/9/9/9/9/9/R2K5 w",
            "a0a9|e9e8|a9a8|e8e9|a8a9|e9e8|a9a8|e8e9",
        );
        let CloudAnswer::Text(t) = a else {
            panic!("a text answer")
        };
        assert!(t.contains("move:a8a9,rule:ban"), "{t}");
        assert!(t.contains("move:a8a7,rule:none"), "{t}");
        let pos = crate::game::play(
            Some("4k4/9/9/9/9/9/9/9/9/R2K5 w"),
            &[
                "a0a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9",
            ],
        )
        .unwrap()
        .position;
        assert_eq!(t.split('|').count(), pos.legal_moves().len());
    }

    #[test]
    fn bad_input_gets_the_clouds_answers() {
        assert_eq!(
            ask("nonsense", ""),
            CloudAnswer::Text("invalid board".into())
        );
        let start = chuhan_engine::core::START_FEN;
        assert_eq!(
            ask(start, "h2e2|h2e2"),
            CloudAnswer::Text("invalid movelist".into())
        );
        let e = answer(&CloudQuery {
            action: Some("queryall".into()),
            ..CloudQuery::default()
        })
        .unwrap_err();
        assert_eq!(e.status, 400);
    }
}
