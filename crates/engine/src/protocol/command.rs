//! The command model: one parser for both dialects turning a text line into a
//! [`Command`], or a [`ParseError`] that names what was wrong. Parsing validates
//! everything (FEN, every move in order, numbers), so a rejected line changes
//! nothing.

use crate::core::{Color, FenError, FenNote, Move, Position, Validation};
use crate::echo::{echo, keep};
use crate::rules::{ParseRuleSetError, RuleSet};
use crate::search::limits::{Clock, Limits};
use std::fmt;

/// A parsed command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `ucci`: switch to UCCI and print the handshake.
    Ucci,
    /// `uci`: switch to UCI and print the handshake.
    Uci,
    /// `isready`.
    IsReady,
    /// `setoption …` in either syntax: the raw name and value.
    SetOption {
        /// Option name as given.
        name: String,
        /// Value, if any.
        value: Option<String>,
    },
    /// `position …` (or a bare `fen …`/`startpos …`): a validated position with
    /// the moves played, and what its FEN reading let pass (a composed position
    /// is accepted, see [`Validation::Lenient`]).
    Position(Box<Position>, Vec<FenNote>),
    /// `banmoves m1 m2 …`.
    BanMoves(Vec<Move>),
    /// `go …`.
    Go(Box<Limits>),
    /// `go perft N`.
    Perft(u32),
    /// `ponderhit [draw]`.
    PonderHit {
        /// The opponent also offers a draw.
        draw: bool,
    },
    /// `stop`.
    Stop,
    /// `probe [position]`: `None` probes the current position.
    Probe(Option<Box<Position>>),
    /// `quit`.
    Quit,
    /// `ucinewgame`, `uccinewgame` or a bare `newgame`.
    NewGame,
    /// `d`: show the board.
    Display,
    /// `eval`: show the evaluation breakdown.
    Eval,
    /// `bench [depth]`.
    Bench(Option<i32>),
    /// UCI `debug on|off`.
    Debug(bool),
    /// `judge [rules cxa2011|axf]`: rule on the game of the current position (by the
    /// `rules` option when no rule set is named).
    Judge(Option<RuleSet>),
}

/// Why a line was rejected.
#[derive(Clone, Debug, PartialEq)]
pub enum ParseError {
    /// The first word is not a command.
    Unknown(String),
    /// A required part is missing.
    Missing(&'static str),
    /// The FEN is invalid.
    Fen(FenError),
    /// A word that should be a move is not one.
    BadMove(String),
    /// A move is not legal at its point in the list.
    IllegalMove {
        /// The move text.
        text: String,
        /// 1-based position in the move list.
        index: usize,
    },
    /// A keyword's number is missing or malformed.
    BadNumber {
        /// The keyword.
        key: String,
        /// What followed it.
        text: String,
    },
    /// An unexpected word.
    Unexpected(String),
    /// An unknown rule-set name.
    Rules(ParseRuleSetError),
    /// A depth beyond what the daemon runs synchronously.
    TooDeep {
        /// The largest accepted depth.
        max: u32,
    },
}

/// Deepest `go perft` the daemon runs (it blocks input while counting).
pub const MAX_DAEMON_PERFT: u32 = 6;
/// Deepest `bench` the daemon runs (it blocks input while searching).
pub const MAX_DAEMON_BENCH: u32 = 16;

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(w) => write!(f, "unknown command {}", echo(w)),
            ParseError::Missing(what) => write!(f, "missing {what}"),
            ParseError::Fen(e) => write!(f, "{e}"),
            ParseError::BadMove(w) => write!(f, "{} is not a move", echo(w)),
            ParseError::IllegalMove { text, index } => {
                write!(f, "move {index} {} is illegal", echo(text))
            }
            ParseError::BadNumber { key, text } => {
                write!(f, "{} needs a number, not {}", echo(key), echo(text))
            }
            ParseError::Unexpected(w) => write!(f, "unexpected {}", echo(w)),
            ParseError::Rules(e) => write!(f, "{e}"),
            ParseError::TooDeep { max } => write!(
                f,
                "depth must be at most {max} here (use the chuhan perft/bench subcommands)"
            ),
        }
    }
}

impl std::error::Error for ParseError {}

/// What the parser needs to know about the session.
#[derive(Clone, Copy, Debug)]
pub struct ParseContext {
    /// UCCI time fields are in milliseconds (else seconds).
    pub usemillisec: bool,
    /// Side to move of the current position (picks `wtime` or `btime`).
    pub side: Color,
}

/// The part of a word an error keeps (see [`crate::echo::keep`]).
fn short(s: &str) -> String {
    keep(s)
}

fn parse_move(w: &str) -> Result<Move, ParseError> {
    w.parse::<Move>()
        .ok()
        .filter(|m| m.is_some())
        .ok_or_else(|| ParseError::BadMove(short(w)))
}

/// Parses `{fen F | startpos} [moves …]` into a position with the moves played,
/// with the notes of its FEN.
pub fn parse_position(words: &[&str]) -> Result<(Position, Vec<FenNote>), ParseError> {
    let Some(&first) = words.first() else {
        return Err(ParseError::Missing("'fen' or 'startpos'"));
    };
    let moves_at = words
        .iter()
        .position(|w| w.eq_ignore_ascii_case("moves"))
        .unwrap_or(words.len());
    let mut notes = Vec::new();
    let mut pos = if first.eq_ignore_ascii_case("startpos") {
        if moves_at > 1 {
            return Err(ParseError::Unexpected(short(words[1])));
        }
        Position::startpos()
    } else if first.eq_ignore_ascii_case("fen") {
        if moves_at <= 1 {
            return Err(ParseError::Missing("the FEN"));
        }
        let (pos, n) = Position::from_fen_with(&words[1..moves_at].join(" "), Validation::Lenient)
            .map_err(ParseError::Fen)?;
        notes = n;
        pos
    } else {
        return Err(ParseError::Unexpected(short(first)));
    };
    for (i, w) in words.iter().skip(moves_at + 1).enumerate() {
        let m = parse_move(w)?;
        if !pos.is_legal(m) {
            return Err(ParseError::IllegalMove {
                text: short(w),
                index: i + 1,
            });
        }
        pos.make_move(m);
    }
    Ok((pos, notes))
}

fn number<T: std::str::FromStr>(key: &str, w: Option<&&str>) -> Result<T, ParseError> {
    let text = w.copied().unwrap_or("");
    text.parse::<T>().map_err(|_| ParseError::BadNumber {
        key: key.to_string(),
        text: short(text),
    })
}

/// A time value in ms: negative clock readings (a flag fell) count as 0.
fn millis(key: &str, w: Option<&&str>, scale: u64) -> Result<u64, ParseError> {
    let v: i64 = number(key, w)?;
    Ok((v.max(0) as u64).saturating_mul(scale))
}

const GO_KEYWORDS: &[&str] = &[
    "ponder",
    "draw",
    "depth",
    "nodes",
    "time",
    "movestogo",
    "increment",
    "opptime",
    "oppmovestogo",
    "oppincrement",
    "movetime",
    "infinite",
    "wtime",
    "btime",
    "winc",
    "binc",
    "mate",
    "searchmoves",
    "perft",
];

/// Parses the words after `go`.
pub fn parse_go(words: &[&str], ctx: &ParseContext) -> Result<Command, ParseError> {
    let mut l = Limits::default();
    let scale = if ctx.usemillisec { 1 } else { 1000 };
    let (mut own_time, mut own_inc, mut mtg) = (None, None, None);
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, None, None);
    let mut i = 0;
    while i < words.len() {
        let key = words[i].to_ascii_lowercase();
        let arg = words.get(i + 1);
        i += 2;
        match key.as_str() {
            "ponder" => {
                l.ponder = true;
                i -= 1;
            }
            "draw" => {
                l.draw_offered = true;
                i -= 1;
            }
            "infinite" => {
                l.infinite = true;
                i -= 1;
            }
            "depth" => {
                if arg.is_some_and(|a| a.eq_ignore_ascii_case("infinite")) {
                    l.infinite = true;
                } else {
                    l.depth = Some(number::<u32>(&key, arg)?.min(1000) as i32);
                }
            }
            "nodes" => l.nodes = Some(number(&key, arg)?),
            "mate" => l.mate = Some(number(&key, arg)?),
            "movetime" => l.movetime = Some(millis(&key, arg, 1)?),
            "time" => own_time = Some(millis(&key, arg, scale)?),
            "increment" => own_inc = Some(millis(&key, arg, scale)?),
            "movestogo" => mtg = Some(number::<u64>(&key, arg)?),
            "opptime" | "oppincrement" => {
                millis(&key, arg, scale)?;
            }
            "oppmovestogo" => {
                number::<u64>(&key, arg)?;
            }
            "wtime" => wtime = Some(millis(&key, arg, 1)?),
            "btime" => btime = Some(millis(&key, arg, 1)?),
            "winc" => winc = Some(millis(&key, arg, 1)?),
            "binc" => binc = Some(millis(&key, arg, 1)?),
            "perft" => {
                let d: u32 = number(&key, arg)?;
                // The daemon counts synchronously; deeper counts belong to
                // `chuhan perft`, which can run for hours without blocking a GUI.
                if d > MAX_DAEMON_PERFT {
                    return Err(ParseError::TooDeep {
                        max: MAX_DAEMON_PERFT,
                    });
                }
                if words.len() > 2 {
                    return Err(ParseError::Unexpected(short(words[2])));
                }
                return Ok(Command::Perft(d));
            }
            "searchmoves" => {
                i -= 1;
                while i < words.len()
                    && !GO_KEYWORDS.contains(&words[i].to_ascii_lowercase().as_str())
                {
                    l.searchmoves.push(parse_move(words[i])?);
                    i += 1;
                }
            }
            _ => return Err(ParseError::Unexpected(short(words[i - 2]))),
        }
    }
    let (time, inc) = match ctx.side {
        Color::Red => (wtime, winc),
        Color::Black => (btime, binc),
    };
    let time = own_time.or(time);
    let inc = own_inc.or(inc);
    if let Some(t) = time {
        l.clock = Some(Clock {
            time_ms: t,
            increment_ms: inc.unwrap_or(0),
            moves_to_go: mtg.filter(|&m| m > 0),
        });
    }
    Ok(Command::Go(Box::new(l)))
}

/// Parses one line. Empty lines give `Ok(None)`.
pub fn parse(line: &str, ctx: &ParseContext) -> Result<Option<Command>, ParseError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return Ok(None);
    };
    let rest = &words[1..];
    let cmd = first.to_ascii_lowercase();
    let no_args = |c: Command| {
        if let Some(w) = rest.first() {
            Err(ParseError::Unexpected(short(w)))
        } else {
            Ok(c)
        }
    };
    let c = match cmd.as_str() {
        "ucci" => no_args(Command::Ucci)?,
        "uci" => no_args(Command::Uci)?,
        "isready" => no_args(Command::IsReady)?,
        "setoption" => {
            if rest.is_empty() {
                return Err(ParseError::Missing("an option name"));
            }
            let (name, value) = super::options::split_setoption(rest);
            if name.is_empty() {
                return Err(ParseError::Missing("an option name"));
            }
            Command::SetOption { name, value }
        }
        "position" | "fen" | "startpos" => {
            let (pos, notes) = parse_position(if cmd == "position" { rest } else { &words })?;
            Command::Position(Box::new(pos), notes)
        }
        "banmoves" => Command::BanMoves(
            rest.iter()
                .map(|w| parse_move(w))
                .collect::<Result<_, _>>()?,
        ),
        "go" => parse_go(rest, ctx)?,
        "ponderhit" => match rest {
            [] => Command::PonderHit { draw: false },
            [w] if w.eq_ignore_ascii_case("draw") => Command::PonderHit { draw: true },
            _ => return Err(ParseError::Unexpected(short(rest[0]))),
        },
        "stop" => no_args(Command::Stop)?,
        "probe" => {
            if rest.is_empty() {
                Command::Probe(None)
            } else {
                Command::Probe(Some(Box::new(parse_position(rest)?.0)))
            }
        }
        "quit" => Command::Quit,
        "ucinewgame" | "uccinewgame" | "newgame" => no_args(Command::NewGame)?,
        "d" => no_args(Command::Display)?,
        "eval" => no_args(Command::Eval)?,
        "bench" => match rest {
            [] => Command::Bench(None),
            [d] => {
                let d = number::<u32>("bench", Some(d))?;
                if !(1..=MAX_DAEMON_BENCH).contains(&d) {
                    return Err(ParseError::TooDeep {
                        max: MAX_DAEMON_BENCH,
                    });
                }
                Command::Bench(Some(d as i32))
            }
            _ => return Err(ParseError::Unexpected(short(rest[1]))),
        },
        "judge" => match rest {
            [] => Command::Judge(None),
            [k, r] if k.eq_ignore_ascii_case("rules") => {
                Command::Judge(Some(r.parse().map_err(ParseError::Rules)?))
            }
            [k] if k.eq_ignore_ascii_case("rules") => {
                return Err(ParseError::Missing("a rule set (cxa2011 or axf)"));
            }
            [k, ..] if !k.eq_ignore_ascii_case("rules") => {
                return Err(ParseError::Unexpected(short(k)));
            }
            _ => return Err(ParseError::Unexpected(short(rest[2]))),
        },
        "debug" => match rest {
            [w] if w.eq_ignore_ascii_case("on") => Command::Debug(true),
            [w] if w.eq_ignore_ascii_case("off") => Command::Debug(false),
            _ => return Err(ParseError::Missing("'on' or 'off'")),
        },
        _ => return Err(ParseError::Unknown(short(first))),
    };
    Ok(Some(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CTX: ParseContext = ParseContext {
        usemillisec: true,
        side: Color::Red,
    };

    fn go(line: &str, ctx: &ParseContext) -> Limits {
        match parse(line, ctx).unwrap().unwrap() {
            Command::Go(l) => *l,
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn positions() {
        let Some(Command::Position(p, _)) =
            parse("position startpos moves h2e2 h9g7", &CTX).unwrap()
        else {
            panic!()
        };
        assert_eq!(p.game_ply(), 2);
        assert!(parse("position startpos moves h2e2 h2e2", &CTX).is_err());
        assert!(parse("position fen 9/9 w", &CTX).is_err());
        assert!(parse("position", &CTX).is_err());
        assert!(parse("position fen", &CTX).is_err());
        assert!(matches!(
            parse(
                "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1 moves h2e2",
                &CTX
            ),
            Ok(Some(Command::Position(..)))
        ));
        assert!(matches!(
            parse("startpos", &CTX),
            Ok(Some(Command::Position(..)))
        ));
    }

    #[test]
    fn go_modes() {
        let secs = ParseContext {
            usemillisec: false,
            side: Color::Black,
        };
        let l = go("go time 60 increment 2 opptime 50 oppincrement 2", &secs);
        assert_eq!(
            l.clock,
            Some(Clock {
                time_ms: 60_000,
                increment_ms: 2_000,
                moves_to_go: None
            })
        );
        let l = go(
            "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5",
            &secs,
        );
        assert_eq!(
            l.clock,
            Some(Clock {
                time_ms: 2000,
                increment_ms: 20,
                moves_to_go: Some(5)
            })
        );
        assert!(go("go depth infinite", &CTX).infinite);
        assert_eq!(go("go depth 7", &CTX).depth, Some(7));
        assert!(go("go ponder time 1000", &CTX).ponder);
        assert!(go("go draw time 1000", &CTX).draw_offered);
        let l = go("go searchmoves h2e2 b2e2 depth 3", &CTX);
        assert_eq!(l.searchmoves.len(), 2);
        assert_eq!(l.depth, Some(3));
        assert_eq!(go("go wtime -50", &CTX).clock.unwrap().time_ms, 0);
        assert_eq!(parse("go perft 3", &CTX), Ok(Some(Command::Perft(3))));
        assert!(parse("go depth x", &CTX).is_err());
        assert!(parse("go nodes", &CTX).is_err());
        assert!(parse("go sideways", &CTX).is_err());
        assert!(parse("go perft 9", &CTX).is_err());
        assert!(parse("bench 40", &CTX).is_err());
    }

    #[test]
    fn misc() {
        assert_eq!(parse("   ", &CTX), Ok(None));
        assert!(matches!(parse("xyzzy", &CTX), Err(ParseError::Unknown(_))));
        assert_eq!(
            parse("ponderhit draw", &CTX),
            Ok(Some(Command::PonderHit { draw: true }))
        );
        assert!(parse("banmoves h2e2 zz", &CTX).is_err());
        assert_eq!(parse("QUIT", &CTX), Ok(Some(Command::Quit)));
    }
}
