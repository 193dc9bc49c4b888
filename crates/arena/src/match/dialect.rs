//! The two engine protocols as the GUI side writes and reads them: what the runner
//! sends (handshake, options, positions, `go`) and what it reads back (`id`,
//! `option`, `info`, `bestmove`…), in UCCI and in xiangqi UCI (`protocol.md` §1–2),
//! with moves in either rank base.
//!
//! The vocabulary is the engine crate's: the [`Dialect`] (whose name is the
//! handshake command), the reported [`Score`] and the `bestmove` [`Offer`]. Only
//! what is particular to reading another engine's text is defined here: the
//! classified [`EngineLine`], with the [`InfoLine`] and [`BestMoveLine`] it carries.
//!
//! Everything here is pure text in, text out; the process and its timing live in
//! [`super::client`].

use crate::game::clock::{GoFields, UcciUnit};
use crate::game::engine_config::RankBase;
use chuhan_engine::core::{File, Move, Rank, START_FEN, Square};
use chuhan_engine::protocol::dialect::Dialect;
use chuhan_engine::search::event::Offer;
use chuhan_engine::search::score::Score;
use std::time::Duration;

/// A `setoption` line: `setoption <name> [<value>]` (UCCI) or
/// `setoption name <name> [value <value>]` (UCI). A `None` value presses a button.
///
/// ```
/// use chuhan_arena::r#match::dialect::setoption;
/// use chuhan_engine::protocol::dialect::Dialect;
/// assert_eq!(setoption(Dialect::Ucci, "hashsize", Some("64")), "setoption hashsize 64");
/// assert_eq!(setoption(Dialect::Uci, "Hash", Some("64")), "setoption name Hash value 64");
/// assert_eq!(setoption(Dialect::Ucci, "newgame", None), "setoption newgame");
/// ```
pub fn setoption(dialect: Dialect, name: &str, value: Option<&str>) -> String {
    match (dialect, value) {
        (Dialect::Ucci, Some(v)) => format!("setoption {name} {v}"),
        (Dialect::Ucci, None) => format!("setoption {name}"),
        (Dialect::Uci, Some(v)) => format!("setoption name {name} value {v}"),
        (Dialect::Uci, None) => format!("setoption name {name}"),
    }
}

/// A `go` line for `limit`; `draw_offer` (UCCI only) tells the engine that its
/// opponent offers a draw (`go draw …`).
///
/// Clock fields come from [`GoFields`]. A fixed time per move is `movetime` in
/// UCI; UCCI has no such mode, so it is sent as `time T movestogo 1` (the whole
/// clock for this one move), which every UCCI engine understands.
///
/// ```
/// use chuhan_arena::r#match::dialect::{go, GoLimit};
/// use chuhan_arena::game::clock::UcciUnit;
/// use chuhan_engine::protocol::dialect::Dialect;
/// use std::time::Duration;
/// let t = GoLimit::MoveTime(Duration::from_millis(300));
/// assert_eq!(go(Dialect::Uci, &t, UcciUnit::Millis, false), "go movetime 300");
/// assert_eq!(go(Dialect::Ucci, &t, UcciUnit::Millis, true), "go draw time 300 movestogo 1");
/// assert_eq!(go(Dialect::Ucci, &GoLimit::Depth(4), UcciUnit::Seconds, false), "go depth 4");
/// ```
pub fn go(dialect: Dialect, limit: &GoLimit, unit: UcciUnit, draw_offer: bool) -> String {
    let mut s = String::from("go ");
    if draw_offer && dialect == Dialect::Ucci {
        s.push_str("draw ");
    }
    match (limit, dialect) {
        (GoLimit::Clock(fields), Dialect::Ucci) => s.push_str(&fields.ucci(unit)),
        (GoLimit::Clock(fields), Dialect::Uci) => s.push_str(&fields.uci()),
        (GoLimit::MoveTime(t), Dialect::Uci) => s += &format!("movetime {}", t.as_millis()),
        (GoLimit::MoveTime(t), Dialect::Ucci) => {
            let time = match unit {
                UcciUnit::Millis => t.as_millis(),
                UcciUnit::Seconds => t.as_millis().div_ceil(1000),
            };
            s += &format!("time {time} movestogo 1");
        }
        (GoLimit::Depth(d), _) => s += &format!("depth {d}"),
        (GoLimit::Nodes(n), _) => s += &format!("nodes {n}"),
    }
    s
}

/// What one `go` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoLimit {
    /// Play on the clocks (own and opponent's time, increments, moves to go).
    Clock(GoFields),
    /// A fixed time for this move.
    MoveTime(Duration),
    /// A fixed depth in plies.
    Depth(u32),
    /// A fixed number of nodes.
    Nodes(u64),
}

/// A `position` line, the same in both dialects: `startpos` for the standard
/// start, else `fen <FEN>`, then the moves written in `ranks`.
///
/// ```
/// use chuhan_engine::core::START_FEN;
/// use chuhan_arena::r#match::dialect::position;
/// use chuhan_arena::game::engine_config::RankBase;
/// let moves = ["h2e2".parse().unwrap(), "h9g7".parse().unwrap()];
/// assert_eq!(position(START_FEN, &moves, RankBase::Zero), "position startpos moves h2e2 h9g7");
/// assert_eq!(position(START_FEN, &moves, RankBase::One), "position startpos moves h3e3 h10g8");
/// ```
pub fn position(fen: &str, moves: &[Move], ranks: RankBase) -> String {
    let mut s = if fen == START_FEN {
        String::from("position startpos")
    } else {
        format!("position fen {fen}")
    };
    if !moves.is_empty() {
        s.push_str(" moves");
        for &m in moves {
            s.push(' ');
            s.push_str(&format_move(m, ranks));
        }
    }
    s
}

/// A move as an engine writes it: `h2e2`, or `h3e3` for 1-based ranks.
/// [`RankBase::Auto`] is read as 0-based (the driver resolves it before use).
pub fn format_move(m: Move, ranks: RankBase) -> String {
    match ranks {
        RankBase::One => {
            let sq = |s: Square| format!("{}{}", s.file().to_char(), s.rank().index() + 1);
            format!("{}{}", sq(m.from()), sq(m.to()))
        }
        RankBase::Zero | RankBase::Auto => m.to_string(),
    }
}

/// Reads an engine's move text in `ranks` ([`RankBase::Auto`] as 0-based): two
/// squares, each a file `a`–`i` and a rank number. `None` when the text is not a
/// move on the board (legality is the caller's business).
///
/// ```
/// use chuhan_arena::r#match::dialect::parse_move;
/// use chuhan_arena::game::engine_config::RankBase;
/// let m = parse_move("h2e2", RankBase::Zero).unwrap();
/// assert_eq!(parse_move("h3e3", RankBase::One), Some(m));
/// assert_eq!(parse_move("a10a9", RankBase::One).unwrap().to_string(), "a9a8");
/// assert_eq!(parse_move("h0e0x", RankBase::Zero), None);
/// assert_eq!(parse_move("a0a0", RankBase::One), None);
/// ```
pub fn parse_move(text: &str, ranks: RankBase) -> Option<Move> {
    let bytes = text.as_bytes();
    let square = |at: usize| -> Option<(Square, usize)> {
        let file = File::from_char(char::from(*bytes.get(at)?).to_ascii_lowercase())?;
        let digits = bytes[at + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 || digits > 2 || (digits == 2 && bytes[at + 1] == b'0') {
            return None;
        }
        let n: u8 = text[at + 1..at + 1 + digits].parse().ok()?;
        let rank = match ranks {
            RankBase::One => n.checked_sub(1)?,
            RankBase::Zero | RankBase::Auto => n,
        };
        Some((Square::new(file, Rank::new(rank)?), at + 1 + digits))
    };
    let (from, next) = square(0)?;
    let (to, end) = square(next)?;
    (end == bytes.len()).then(|| Move::new(from, to))
}

/// The fields of an engine's `info` line the runner uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoLine {
    /// `depth`.
    pub depth: Option<u32>,
    /// `score` (`cp`, `mate` or a bare UCCI number).
    pub score: Option<Score>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `pv`, as the engine wrote the moves.
    pub pv: Vec<String>,
}

/// An engine's `bestmove` line: the end of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMoveLine {
    /// The move text, `None` for `nobestmove`, `bestmove (none)` or `bestmove 0000`.
    pub mv: Option<String>,
    /// `draw` or `resign` after the move.
    pub offer: Option<Offer>,
}

/// One line from an engine, classified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    /// `id name …`, `id author …`.
    Id {
        /// `name`, `author`, `copyright`, `user`…
        field: String,
        /// The rest of the line.
        value: String,
    },
    /// An `option` declaration (only the name matters to the runner).
    Option {
        /// The option's name (UCI names may contain spaces).
        name: String,
    },
    /// `ucciok` or `uciok`: the handshake is over.
    HandshakeOk(Dialect),
    /// `readyok`.
    ReadyOk,
    /// `info …` with at least one field the runner reads.
    Info(InfoLine),
    /// `bestmove …` or `nobestmove`.
    BestMove(BestMoveLine),
    /// `bye` (UCCI, after `quit`).
    Bye,
    /// Anything else: banners, `info string`, unknown replies.
    Other,
}

/// Classifies one line of engine output. Never fails: what it does not know is
/// [`EngineLine::Other`].
///
/// ```
/// use chuhan_arena::r#match::dialect::{parse_line, EngineLine};
/// use chuhan_engine::search::event::Offer;
/// use chuhan_engine::search::score::Score;
/// match parse_line("info depth 6 score 4 pv b0c2 b9c7") {
///     EngineLine::Info(i) => assert_eq!((i.depth, i.score), (Some(6), Some(Score::Cp(4)))),
///     other => panic!("{other:?}"),
/// }
/// match parse_line("bestmove h2e2 ponder h9g7 draw") {
///     EngineLine::BestMove(b) => assert_eq!((b.mv.as_deref(), b.offer), (Some("h2e2"), Some(Offer::Draw))),
///     other => panic!("{other:?}"),
/// }
/// assert!(matches!(parse_line("nobestmove"), EngineLine::BestMove(b) if b.mv.is_none()));
/// ```
pub fn parse_line(line: &str) -> EngineLine {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return EngineLine::Other;
    };
    let rest: Vec<&str> = words.collect();
    match first {
        "id" => match rest.split_first() {
            Some((field, value)) => EngineLine::Id {
                field: field.to_string(),
                value: value.join(" "),
            },
            None => EngineLine::Other,
        },
        "option" => parse_option(&rest),
        "ucciok" => EngineLine::HandshakeOk(Dialect::Ucci),
        "uciok" => EngineLine::HandshakeOk(Dialect::Uci),
        "readyok" => EngineLine::ReadyOk,
        "bye" => EngineLine::Bye,
        "info" => parse_info(&rest),
        "nobestmove" => EngineLine::BestMove(BestMoveLine {
            mv: None,
            offer: None,
        }),
        "bestmove" => parse_bestmove(&rest),
        _ => EngineLine::Other,
    }
}

fn parse_option(words: &[&str]) -> EngineLine {
    let name = match words.first() {
        Some(&"name") => {
            let end = words
                .iter()
                .position(|w| *w == "type")
                .unwrap_or(words.len());
            words[1..end.max(1)].join(" ")
        }
        Some(w) => w.to_string(),
        None => return EngineLine::Other,
    };
    if name.is_empty() {
        EngineLine::Other
    } else {
        EngineLine::Option { name }
    }
}

fn parse_info(words: &[&str]) -> EngineLine {
    if matches!(words.first(), Some(&"string") | Some(&"message")) {
        return EngineLine::Other;
    }
    let mut info = InfoLine::default();
    let mut i = 0;
    while i < words.len() {
        let next = |k: usize| words.get(i + k).copied();
        match words[i] {
            "depth" => {
                info.depth = next(1).and_then(|w| w.parse().ok());
                i += 2;
            }
            "nodes" => {
                info.nodes = next(1).and_then(|w| w.parse().ok());
                i += 2;
            }
            "score" => match next(1) {
                Some("cp") => {
                    info.score = next(2).and_then(|w| w.parse().ok()).map(Score::Cp);
                    i += 3;
                }
                Some("mate") => {
                    info.score = next(2).and_then(|w| w.parse().ok()).map(Score::Mate);
                    i += 3;
                }
                Some(w) => {
                    info.score = w.parse().ok().map(Score::Cp);
                    i += 2;
                }
                None => i += 1,
            },
            "pv" => {
                info.pv = words[i + 1..].iter().map(|w| w.to_string()).collect();
                break;
            }
            "string" | "message" => break,
            _ => i += 1,
        }
    }
    if info == InfoLine::default() {
        EngineLine::Other
    } else {
        EngineLine::Info(info)
    }
}

fn parse_bestmove(words: &[&str]) -> EngineLine {
    let mv = match words.first() {
        None | Some(&"(none)") | Some(&"0000") | Some(&"none") => None,
        Some(w) => Some(w.to_string()),
    };
    let offer = if words.iter().skip(1).any(|w| *w == "resign") {
        Some(Offer::Resign)
    } else if words.iter().skip(1).any(|w| *w == "draw") {
        Some(Offer::Draw)
    } else {
        None
    };
    EngineLine::BestMove(BestMoveLine { mv, offer })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhan_engine::core::{Color, Position};
    use proptest::prelude::*;

    proptest! {
        /// Whatever an engine prints, reading it never panics, and a move read
        /// from any text either is no move or is judged by the position safely.
        #[test]
        fn arbitrary_engine_output_is_read_safely(line in "\\PC{0,80}", word in "[a-k]?[0-9]{0,3}[a-k]?[0-9]{0,3}") {
            let _ = parse_line(&line);
            let _ = parse_line(&format!("bestmove {word} {line}"));
            let _ = parse_line(&format!("info {line}"));
            for base in [RankBase::Zero, RankBase::One] {
                if let Some(m) = parse_move(&word, base) {
                    prop_assert_eq!(format_move(m, base), word.to_ascii_lowercase());
                    let _ = Position::startpos().is_legal(m);
                }
            }
        }
    }
    use crate::game::clock::{ClockSetting, GameClock};

    #[test]
    fn move_text_round_trips_in_both_rank_bases() {
        for sq_from in Square::ALL.iter().step_by(7) {
            for sq_to in Square::ALL.iter().step_by(11) {
                let m = Move::new(*sq_from, *sq_to);
                for base in [RankBase::Zero, RankBase::One] {
                    let text = format_move(m, base);
                    assert_eq!(parse_move(&text, base), Some(m), "{text}");
                }
            }
        }
        assert_eq!(format_move("i9a0".parse().unwrap(), RankBase::One), "i10a1");
        for bad in [
            "", "h2", "h2e", "j2e2", "h2e10", "h-1e2", "h02e2x", "h123e2",
        ] {
            assert_eq!(parse_move(bad, RankBase::Zero), None, "{bad}");
        }
        assert_eq!(parse_move("h0e1", RankBase::One), None);
        assert_eq!(parse_move("h11e1", RankBase::One), None);
    }

    #[test]
    fn options_and_ids_in_both_dialects() {
        assert_eq!(
            parse_line("option usemillisec type check default true"),
            EngineLine::Option {
                name: "usemillisec".into()
            }
        );
        assert_eq!(
            parse_line("option name Move Overhead type spin default 10 min 0 max 5000"),
            EngineLine::Option {
                name: "Move Overhead".into()
            }
        );
        assert_eq!(
            parse_line("id name Chuhan 0.1"),
            EngineLine::Id {
                field: "name".into(),
                value: "Chuhan 0.1".into()
            }
        );
        assert_eq!(parse_line("uciok"), EngineLine::HandshakeOk(Dialect::Uci));
        assert_eq!(parse_line("ucciok"), EngineLine::HandshakeOk(Dialect::Ucci));
        assert_eq!(parse_line("  readyok  "), EngineLine::ReadyOk);
        assert_eq!(parse_line("Stockfish 16 by the authors"), EngineLine::Other);
        assert_eq!(parse_line(""), EngineLine::Other);
    }

    #[test]
    fn info_lines_in_both_dialects() {
        let EngineLine::Info(i) = parse_line(
            "info depth 12 seldepth 18 multipv 1 score cp -35 upperbound nodes 123456 nps 1 pv h2e2 h9g7",
        ) else {
            panic!()
        };
        assert_eq!(i.depth, Some(12));
        assert_eq!(i.score, Some(Score::Cp(-35)));
        assert_eq!(i.nodes, Some(123_456));
        assert_eq!(i.pv, ["h2e2", "h9g7"]);
        let EngineLine::Info(i) = parse_line("info depth 9 score mate -3 pv a0a1") else {
            panic!()
        };
        assert_eq!(i.score, Some(Score::Mate(-3)));
        assert_eq!(parse_line("info string hello score 5"), EngineLine::Other);
        assert_eq!(parse_line("info message 开始"), EngineLine::Other);
        assert_eq!(
            parse_line("info currmove h2e2 currmovenumber 1"),
            EngineLine::Other
        );
        let EngineLine::Info(i) = parse_line("info time 500 nodes 9000") else {
            panic!()
        };
        assert_eq!((i.nodes, i.score), (Some(9000), None));
    }

    #[test]
    fn bestmove_variants() {
        let bm = |s: &str| match parse_line(s) {
            EngineLine::BestMove(b) => b,
            other => panic!("{other:?}"),
        };
        assert_eq!(bm("bestmove (none)").mv, None);
        assert_eq!(bm("bestmove 0000").mv, None);
        assert_eq!(bm("bestmove").mv, None);
        assert_eq!(bm("bestmove h2e2 resign").offer, Some(Offer::Resign));
        assert_eq!(bm("bestmove h2e2 ponder h9g7").offer, None);
        assert_eq!(bm("bestmove h3e3 draw").mv.as_deref(), Some("h3e3"));
    }

    #[test]
    fn go_lines_take_the_clock_fields_of_each_dialect() {
        let clock = GameClock::new(
            &ClockSetting::even("10+0.1".parse().unwrap()),
            Duration::ZERO,
        );
        let on_clock = GoLimit::Clock(clock.go_fields(Color::Red));
        assert_eq!(
            go(Dialect::Ucci, &on_clock, UcciUnit::Millis, false),
            "go time 10000 increment 100 opptime 10000 oppincrement 100"
        );
        assert_eq!(
            go(Dialect::Uci, &on_clock, UcciUnit::Millis, true),
            "go wtime 10000 btime 10000 winc 100 binc 100"
        );
        assert_eq!(
            go(
                Dialect::Ucci,
                &GoLimit::MoveTime(Duration::from_millis(1200)),
                UcciUnit::Seconds,
                false
            ),
            "go time 2 movestogo 1"
        );
        assert_eq!(
            go(Dialect::Uci, &GoLimit::Nodes(5000), UcciUnit::Millis, false),
            "go nodes 5000"
        );
    }
}
