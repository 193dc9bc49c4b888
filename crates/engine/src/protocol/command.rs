//! The command model: one parser for both dialects turning a text line into a
//! [`Command`], or a [`ParseError`] that names what was wrong. Parsing validates
//! everything (FEN, every move in order, numbers), so a rejected line changes
//! nothing. The one exception is a search's `go`: a GUI waits for its `bestmove`
//! whatever it sent, so its limits are read leniently and each fix-up is a
//! [`GoWarning`] instead of a refusal.

use crate::core::{Color, FenNote, Move, Position, Validation};
use crate::echo::{echo, keep};
use crate::notation::replay::{ReplayError, replay};
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
    /// `go …`: the limits of the search, and what the parser fixed up or left out
    /// of them (a search always runs; see [`GoWarning`]).
    Go(Box<Limits>, Vec<GoWarning>),
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
    /// `flip`: the colour-swapped position becomes the current one.
    Flip,
    /// `compiler`: the build, the compiler and the kernels chosen at run time.
    Compiler,
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
    /// A word that should be a move is not one.
    BadMove(String),
    /// The line of a `position` (or `probe`) cannot be replayed: the FEN or the
    /// move at fault ([`ReplayError`]).
    Line(ReplayError),
    /// A `position` line refused, for the reason inside: the session keeps its
    /// last good position for `go`, but `judge` refuses to rule until a good
    /// position arrives.
    Position(Box<ParseError>),
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
            ParseError::BadMove(w) => write!(f, "{} is not a move", echo(w)),
            ParseError::Line(e) => write!(f, "{e}"),
            ParseError::Position(e) => write!(f, "{e}"),
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

/// Parses `{fen F | startpos} [moves …]` into a position with the moves played
/// (any notation, see [`crate::notation::replay`]: the FEN lenient, a composed
/// position accepted), with the notes of its FEN.
pub fn parse_position(words: &[&str]) -> Result<(Position, Vec<FenNote>), ParseError> {
    let Some(&first) = words.first() else {
        return Err(ParseError::Missing("'fen' or 'startpos'"));
    };
    let moves_at = words
        .iter()
        .position(|w| w.eq_ignore_ascii_case("moves"))
        .unwrap_or(words.len());
    let fen = if first.eq_ignore_ascii_case("startpos") {
        if moves_at > 1 {
            return Err(ParseError::Unexpected(short(words[1])));
        }
        None
    } else if first.eq_ignore_ascii_case("fen") {
        if moves_at <= 1 {
            return Err(ParseError::Missing("the FEN"));
        }
        Some(words[1..moves_at].join(" "))
    } else {
        return Err(ParseError::Unexpected(short(first)));
    };
    let moves = words.get(moves_at + 1..).unwrap_or(&[]);
    let r = replay(fen.as_deref(), moves, Validation::Lenient).map_err(ParseError::Line)?;
    Ok((r.position, r.warnings))
}

fn number<T: std::str::FromStr>(key: &str, w: Option<&&str>) -> Result<T, ParseError> {
    let text = w.copied().unwrap_or("");
    text.parse::<T>().map_err(|_| ParseError::BadNumber {
        key: key.to_string(),
        text: short(text),
    })
}

/// Deepest `go depth` taken as asked (the search stops at its own ply limit
/// anyway); a deeper one is clamped to it with a [`GoWarning`].
pub const MAX_GO_DEPTH: u32 = 1000;

/// A part of a `go` line that the parser fixed up or left out. A `go` is never
/// refused for its limits: the search runs with what remains (no limit left means
/// until `stop`), so that a GUI always gets its `bestmove`. The session shows each
/// warning as one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoWarning {
    /// A number beyond its keyword's range, replaced by the nearest value in it.
    Clamped {
        /// The keyword.
        key: String,
        /// The number as given.
        text: String,
        /// The value used instead.
        to: u64,
    },
    /// A keyword followed by something that is not a whole number: the keyword is
    /// ignored.
    NotANumber {
        /// The keyword.
        key: String,
        /// What followed it.
        text: String,
    },
    /// A keyword without its value (at the end of the line or before another
    /// keyword): ignored.
    NoValue(String),
    /// A word of a `searchmoves` list that is not a move: ignored.
    BadMove(String),
    /// A word that means nothing in `go`: ignored.
    Unexpected(String),
}

impl fmt::Display for GoWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoWarning::Clamped { key, text, to } => {
                write!(f, "go: {key} {} is out of range; using {to}", echo(text))
            }
            GoWarning::NotANumber { key, text } => {
                write!(f, "go: {key} needs a number, not {}; ignored", echo(text))
            }
            GoWarning::NoValue(key) => write!(f, "go: {key} without a value; ignored"),
            GoWarning::BadMove(w) => {
                write!(f, "go: searchmoves {} is not a move; ignored", echo(w))
            }
            GoWarning::Unexpected(w) => write!(f, "go: unexpected {}; ignored", echo(w)),
        }
    }
}

/// The whole number `text` spells (an optional sign and decimal digits),
/// saturated to the range of `i128` so that any run of digits reads as a number
/// however long; `None` if `text` is not a whole number.
fn integer(text: &str) -> Option<i128> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse::<i128>().unwrap_or(if text.starts_with('-') {
        i128::MIN
    } else {
        i128::MAX
    }))
}

/// The value of a numeric `go` keyword within `min..=max`. A number out of range
/// is clamped into it with a warning; a missing or unreadable value gives `None`
/// with a warning. A negative clock reading (`negative_is_min`: the flag fell) is
/// taken as `min` without a warning, as GUIs send it.
fn ranged(
    key: &str,
    arg: Option<&str>,
    (min, max): (u64, u64),
    negative_is_min: bool,
    warnings: &mut Vec<GoWarning>,
) -> Option<u64> {
    let Some(text) = arg else {
        warnings.push(GoWarning::NoValue(key.to_string()));
        return None;
    };
    let Some(n) = integer(text) else {
        warnings.push(GoWarning::NotANumber {
            key: key.to_string(),
            text: short(text),
        });
        return None;
    };
    if n < 0 && negative_is_min {
        return Some(min);
    }
    let v = n.clamp(i128::from(min), i128::from(max));
    if v != n {
        warnings.push(GoWarning::Clamped {
            key: key.to_string(),
            text: short(text),
            to: v as u64,
        });
    }
    Some(v as u64)
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

fn is_go_keyword(w: &str) -> bool {
    GO_KEYWORDS.contains(&w.to_ascii_lowercase().as_str())
}

/// Parses the words after `go perft`: strict, since a count is not a search and
/// a GUI waits for no `bestmove` after it.
fn parse_perft(words: &[&str]) -> Result<Command, ParseError> {
    let d: u32 = number("perft", words.first())?;
    // The daemon counts synchronously; deeper counts belong to `chuhan perft`,
    // which can run for hours without blocking a GUI.
    if d > MAX_DAEMON_PERFT {
        return Err(ParseError::TooDeep {
            max: MAX_DAEMON_PERFT,
        });
    }
    if let Some(w) = words.get(1) {
        return Err(ParseError::Unexpected(short(w)));
    }
    Ok(Command::Perft(d))
}

/// Parses the words after `go`. Only `go perft` can fail; a search's limits are
/// read leniently (see [`GoWarning`]): a number out of range is clamped, an
/// unreadable or missing value and an unknown word are left out, each with a
/// warning.
///
/// ```
/// use chuhan_engine::core::Color;
/// use chuhan_engine::protocol::command::{parse_go, Command, GoWarning, ParseContext};
/// let ctx = ParseContext { usemillisec: true, side: Color::Red };
/// let Ok(Command::Go(limits, warnings)) = parse_go(&["depth", "-5"], &ctx) else { panic!() };
/// assert_eq!(limits.depth, Some(1));
/// assert_eq!(warnings[0].to_string(), "go: depth '-5' is out of range; using 1");
/// ```
pub fn parse_go(words: &[&str], ctx: &ParseContext) -> Result<Command, ParseError> {
    if words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("perft"))
    {
        return parse_perft(&words[1..]);
    }
    let mut l = Limits::default();
    let mut warnings = Vec::new();
    let scale = if ctx.usemillisec { 1 } else { 1000 };
    let (mut own_time, mut own_inc, mut mtg) = (None, None, None);
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, None, None);
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let key = word.to_ascii_lowercase();
        i += 1;
        match key.as_str() {
            "ponder" => l.ponder = true,
            "draw" => l.draw_offered = true,
            "infinite" => l.infinite = true,
            "depth"
                if words
                    .get(i)
                    .is_some_and(|w| w.eq_ignore_ascii_case("infinite")) =>
            {
                l.infinite = true;
                i += 1;
            }
            "searchmoves" => {
                while let Some(&w) = words.get(i).filter(|w| !is_go_keyword(w)) {
                    match parse_move(w) {
                        Ok(m) => l.searchmoves.push(m),
                        Err(_) => warnings.push(GoWarning::BadMove(short(w))),
                    }
                    i += 1;
                }
            }
            k @ ("depth" | "nodes" | "mate" | "movetime" | "time" | "increment" | "movestogo"
            | "opptime" | "oppincrement" | "oppmovestogo" | "wtime" | "btime" | "winc"
            | "binc") => {
                // A keyword in the value's place is the next limit, not a value.
                let arg = words.get(i).copied().filter(|w| !is_go_keyword(w));
                i += usize::from(arg.is_some());
                let range = match k {
                    "depth" => (1, u64::from(MAX_GO_DEPTH)),
                    "mate" => (1, u64::from(u32::MAX)),
                    _ => (0, u64::MAX),
                };
                let clock_reading = matches!(k, "time" | "opptime" | "wtime" | "btime");
                let Some(v) = ranged(k, arg, range, clock_reading, &mut warnings) else {
                    continue;
                };
                let secs = v.saturating_mul(scale);
                match k {
                    "depth" => l.depth = Some(v as i32),
                    "nodes" => l.nodes = Some(v),
                    "mate" => l.mate = Some(v as u32),
                    "movetime" => l.movetime = Some(v),
                    "time" => own_time = Some(secs),
                    "increment" => own_inc = Some(secs),
                    "movestogo" => mtg = Some(v),
                    "wtime" => wtime = Some(v),
                    "btime" => btime = Some(v),
                    "winc" => winc = Some(v),
                    "binc" => binc = Some(v),
                    // The opponent's clock: read (and checked), not used.
                    _ => {}
                }
            }
            _ => warnings.push(GoWarning::Unexpected(short(word))),
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
    Ok(Command::Go(Box::new(l), warnings))
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
            let (pos, notes) = parse_position(if cmd == "position" { rest } else { &words })
                .map_err(|e| ParseError::Position(Box::new(e)))?;
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
        "flip" => no_args(Command::Flip)?,
        "compiler" => no_args(Command::Compiler)?,
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

    /// The limits of a `go` line and its warnings as the session shows them.
    fn go_warned(line: &str, ctx: &ParseContext) -> (Limits, Vec<String>) {
        match parse(line, ctx).unwrap().unwrap() {
            Command::Go(l, w) => (*l, w.iter().map(|w| w.to_string()).collect()),
            c => panic!("{c:?}"),
        }
    }

    /// The limits of a `go` line read without a warning.
    fn go(line: &str, ctx: &ParseContext) -> Limits {
        let (l, w) = go_warned(line, ctx);
        assert!(w.is_empty(), "{line}: {w:?}");
        l
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
        assert!(parse("go perft 9", &CTX).is_err());
        assert!(parse("go perft x", &CTX).is_err());
        assert!(parse("go perft 2 depth 3", &CTX).is_err());
        assert!(parse("bench 40", &CTX).is_err());
    }

    /// A `go` is never refused for its limits: out of range is clamped, the
    /// unreadable, the missing and the unknown are left out, one warning each.
    #[test]
    fn go_is_lenient() {
        let secs = ParseContext {
            usemillisec: false,
            side: Color::Red,
        };
        let cases: &[(&str, &ParseContext, Limits, &[&str])] = &[
            (
                "go depth -5",
                &CTX,
                Limits::depth(1),
                &["go: depth '-5' is out of range; using 1"],
            ),
            (
                "go depth 0",
                &CTX,
                Limits::depth(1),
                &["go: depth '0' is out of range; using 1"],
            ),
            (
                "go depth 99999999999999999999999999999999999999999999",
                &CTX,
                Limits::depth(MAX_GO_DEPTH as i32),
                &[
                    "go: depth '9999999999999999999999999999999999999999…' is out of range; using 1000",
                ],
            ),
            (
                "go nodes 18446744073709551616",
                &CTX,
                Limits {
                    nodes: Some(u64::MAX),
                    ..Limits::default()
                },
                &["go: nodes '18446744073709551616' is out of range; using 18446744073709551615"],
            ),
            (
                "go nodes -1 depth 4",
                &CTX,
                Limits {
                    nodes: Some(0),
                    depth: Some(4),
                    ..Limits::default()
                },
                &["go: nodes '-1' is out of range; using 0"],
            ),
            (
                "go mate -2",
                &CTX,
                Limits {
                    mate: Some(1),
                    ..Limits::default()
                },
                &["go: mate '-2' is out of range; using 1"],
            ),
            (
                "go movetime -100",
                &CTX,
                Limits {
                    movetime: Some(0),
                    ..Limits::default()
                },
                &["go: movetime '-100' is out of range; using 0"],
            ),
            (
                "go depth",
                &CTX,
                Limits::default(),
                &["go: depth without a value; ignored"],
            ),
            (
                "go movetime abc",
                &CTX,
                Limits::default(),
                &["go: movetime needs a number, not 'abc'; ignored"],
            ),
            (
                "go depth 2.5 nodes 1e6",
                &CTX,
                Limits::default(),
                &[
                    "go: depth needs a number, not '2.5'; ignored",
                    "go: nodes needs a number, not '1e6'; ignored",
                ],
            ),
            (
                "go depth movetime 100",
                &CTX,
                Limits {
                    movetime: Some(100),
                    ..Limits::default()
                },
                &["go: depth without a value; ignored"],
            ),
            (
                "go depth 3 sideways",
                &CTX,
                Limits::depth(3),
                &["go: unexpected 'sideways'; ignored"],
            ),
            (
                "go depth 3 perft 2",
                &CTX,
                Limits::depth(3),
                &[
                    "go: unexpected 'perft'; ignored",
                    "go: unexpected '2'; ignored",
                ],
            ),
            (
                "go searchmoves h2e2 zz depth 2",
                &CTX,
                Limits {
                    searchmoves: vec!["h2e2".parse().unwrap()],
                    ..Limits::depth(2)
                },
                &["go: searchmoves 'zz' is not a move; ignored"],
            ),
            (
                "go wtime 1000 winc -5 movestogo -3",
                &CTX,
                Limits {
                    clock: Some(Clock {
                        time_ms: 1000,
                        increment_ms: 0,
                        moves_to_go: None,
                    }),
                    ..Limits::default()
                },
                &[
                    "go: winc '-5' is out of range; using 0",
                    "go: movestogo '-3' is out of range; using 0",
                ],
            ),
            (
                "go time 99999999999999999999 opptime x",
                &secs,
                Limits {
                    clock: Some(Clock {
                        time_ms: u64::MAX,
                        increment_ms: 0,
                        moves_to_go: None,
                    }),
                    ..Limits::default()
                },
                &[
                    "go: time '99999999999999999999' is out of range; using 18446744073709551615",
                    "go: opptime needs a number, not 'x'; ignored",
                ],
            ),
        ];
        for (line, ctx, limits, warnings) in cases {
            let (l, w) = go_warned(line, ctx);
            assert_eq!(&l, limits, "{line}");
            assert_eq!(w, *warnings, "{line}");
        }
        // A negative clock reading is a fallen flag, not a mistake: no warning.
        assert_eq!(
            go("go wtime -100 btime -100", &CTX).clock.unwrap().time_ms,
            0
        );
        assert_eq!(go("go depth +7", &CTX).depth, Some(7));
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
