//! [`EngineClient`]: the arena's side of one engine process — starts it, finds out
//! which protocol it speaks, sets its options, and asks it for moves under a
//! deadline. (The engine library's own search facade is
//! [`chuhan_engine::engine::Engine`]; this is a client of any engine binary.)
//!
//! * **Handshake.** With `proto=auto` the driver sends `ucci` and waits
//!   [`Timeouts::detect`] for `ucciok`. An engine that says it does not know the
//!   command is asked `uci` next; one that exits or stays silent is started afresh
//!   and asked `uci` (so an engine is never left half in one protocol; a UCCI
//!   engine slower to start than the detection wait needs `proto=ucci`). With a
//!   forced protocol only that handshake is tried.
//! * **Set-up.** UCCI engines that advertise `usemillisec` get
//!   `setoption usemillisec true` and clocks in milliseconds, others clocks in
//!   seconds; a UCI engine that advertises `UCI_Variant` gets `xiangqi` unless the
//!   user set it. Then the user's options, in the dialect's syntax, and
//!   `isready`.
//! * **Rank base.** `ranks=auto` resolves to 1 for a UCI engine advertising
//!   `UCI_Variant` (Fairy-Stockfish's plain UCI writes `a1`–`i10`), else 0.
//! * **New game.** `ucinewgame` (UCI) or `setoption newgame` (UCCI, when
//!   advertised, as UCI2WB does), then `isready`.
//! * **Positions.** UCCI gets the FEN after the last capture and the moves since
//!   (UCCI §四); UCI the start position and every move.
//! * **Searching.** `position`, `banmoves` (UCCI, when the rules forbid moves),
//!   `go`; then lines are read until `bestmove`/`nobestmove` or the deadline. A
//!   late engine gets `stop` and [`Timeouts::stop_grace`] to answer; one that does
//!   not is killed. An engine whose output closes has crashed. A dead engine is
//!   started again by the next [`EngineClient::new_game`].

use super::dialect::{self, EngineLine, GoLimit, InfoLine};
use super::params;
use super::process::{Process, Recv, TrafficLog};
use crate::game::clock::UcciUnit;
use crate::game::engine_config::{EngineConfig, RankBase};
use chuhan_engine::core::Move;
use chuhan_engine::protocol::dialect::Dialect;
use chuhan_engine::search::event::Offer;
use std::fmt;
use std::time::{Duration, Instant};

/// The waits of the driver (defaults in [`params`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// Wait for `ucciok` while detecting the protocol.
    pub detect: Duration,
    /// Wait for the handshake of a known protocol, and for `readyok`.
    pub handshake: Duration,
    /// Wait for `bestmove` after `stop`, before a late engine is killed.
    pub stop_grace: Duration,
    /// Wait for an engine to exit after `quit`.
    pub quit_grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            detect: params::DETECT_TIMEOUT,
            handshake: params::HANDSHAKE_TIMEOUT,
            stop_grace: params::STOP_GRACE,
            quit_grace: params::QUIT_GRACE,
        }
    }
}

/// Why an engine process could not be started or made ready.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// The command could not be run.
    Spawn(String),
    /// It answered neither `ucci` nor `uci` (or not the forced one) in time.
    NoHandshake,
    /// It exited during the handshake or while getting ready.
    Exited,
    /// It did not answer `isready`.
    NotReady,
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Spawn(e) => write!(f, "cannot start: {e}"),
            ClientError::NoHandshake => f.write_str("no protocol handshake (ucciok/uciok)"),
            ClientError::Exited => f.write_str("exited while starting"),
            ClientError::NotReady => f.write_str("no readyok"),
        }
    }
}

impl std::error::Error for ClientError {}

/// The game so far, as the engine is told about it.
#[derive(Clone, Copy, Debug)]
pub struct GameSoFar<'a> {
    /// The start position.
    pub start_fen: &'a str,
    /// Every move from it.
    pub moves: &'a [Move],
    /// The position after the last capture (`start_fen` if none), and how many of
    /// `moves` lead to it.
    pub reset_fen: &'a str,
    /// See `reset_fen`.
    pub reset_at: usize,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `bestmove <text>` with an optional draw offer or resignation.
    Move {
        /// The move as the engine wrote it.
        text: String,
        /// `draw` or `resign` after it.
        offer: Option<Offer>,
    },
    /// `nobestmove`, `bestmove (none)` or `bestmove 0000`.
    NoMove,
    /// No answer by the deadline. `killed`: it did not answer `stop` either and was
    /// killed (it will be restarted for the next game).
    Late {
        /// Whether the process was killed.
        killed: bool,
    },
    /// The engine's output closed (it exited or crashed) during the search.
    Crashed,
}

/// A finished search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// How it ended.
    pub answer: Answer,
    /// From `go` to the answer (or to the deadline).
    pub elapsed: Duration,
    /// The last `info` carrying a score (with its depth, nodes and pv).
    pub info: Option<InfoLine>,
    /// Every `info` line that gave a depth, in order (the search's iterations:
    /// `chuhan bench --ebf --engine` reads their node counts).
    pub iterations: Vec<InfoLine>,
}

/// One search request.
#[derive(Clone, Copy, Debug)]
pub struct Search<'a> {
    /// The game so far.
    pub game: GameSoFar<'a>,
    /// The limit.
    pub limit: GoLimit,
    /// The opponent offers a draw (UCCI `go draw`).
    pub draw_offer: bool,
    /// Moves the rules forbid here (UCCI `banmoves`).
    pub banned: &'a [Move],
    /// How long to wait for the answer from `go`.
    pub deadline: Duration,
}

/// How a handshake went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Handshake {
    /// `ucciok` or `uciok`.
    Done,
    /// The engine said it does not know the command.
    Refused,
    /// Nothing in time.
    Silent,
    /// Its output closed.
    Exited,
}

/// A client of one engine process. Created stopped; [`EngineClient::new_game`] starts it when needed.
#[derive(Debug)]
pub struct EngineClient {
    config: EngineConfig,
    label: String,
    log: Option<TrafficLog>,
    timeouts: Timeouts,
    process: Option<Process>,
    dialect: Dialect,
    ranks: RankBase,
    unit: UcciUnit,
    advertised: Vec<String>,
    id_name: Option<String>,
    starts: u32,
    option_notes: Vec<String>,
}

/// Whether a line an engine writes between `setoption` and `readyok` complains
/// about an option (`No such option: X`, `info string error: ...`, `Unknown
/// option`, `invalid value`).
fn complains(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    [
        "no such option",
        "unknown option",
        "error",
        "invalid",
        "not supported",
        "unsupported",
    ]
    .iter()
    .any(|w| l.contains(w))
}

fn advertises(list: &[String], name: &str) -> bool {
    list.iter().any(|o| o.eq_ignore_ascii_case(name))
}

/// Options that UCI and UCCI spell differently, as (UCI, UCCI) pairs.
const SYNONYMS: &[(&str, &str)] = &[
    ("OwnBook", "usebook"),
    ("BookFile", "bookfiles"),
    ("Hash", "hashsize"),
];

/// The name to send for the user's option `name`: the name itself when the engine
/// lists it, else its other protocol's spelling when the engine lists that (so
/// `option.OwnBook=false` turns the book off in a UCCI engine too), else `None`.
fn option_name<'a>(list: &[String], name: &'a str) -> Option<&'a str> {
    if advertises(list, name) {
        return Some(name);
    }
    SYNONYMS.iter().find_map(|&(uci, ucci)| {
        let other = if uci.eq_ignore_ascii_case(name) {
            ucci
        } else if ucci.eq_ignore_ascii_case(name) {
            uci
        } else {
            return None;
        };
        advertises(list, other).then_some(other)
    })
}

impl EngineClient {
    /// An engine for `config`; `label` names it in the traffic log.
    pub fn new(
        config: EngineConfig,
        label: &str,
        timeouts: Timeouts,
        log: Option<TrafficLog>,
    ) -> EngineClient {
        EngineClient {
            config,
            label: label.to_string(),
            log,
            timeouts,
            process: None,
            dialect: Dialect::Ucci,
            ranks: RankBase::Zero,
            unit: UcciUnit::Millis,
            advertised: Vec::new(),
            id_name: None,
            starts: 0,
            option_notes: Vec::new(),
        }
    }

    /// What went wrong with the configured options at the last start: an option
    /// the engine does not list in its handshake, and each line in which the
    /// engine complained about an option before `readyok`.
    pub fn option_notes(&self) -> &[String] {
        &self.option_notes
    }

    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The protocol found at the last start.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The rank base in use (resolved from `auto` at the last start).
    pub fn ranks(&self) -> RankBase {
        self.ranks
    }

    /// The engine's own name (`id name`), once started.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// How many times the process has been started.
    pub fn starts(&self) -> u32 {
        self.starts
    }

    /// Whether a process is running.
    pub fn is_running(&mut self) -> bool {
        match &mut self.process {
            Some(p) => !p.has_exited(),
            None => false,
        }
    }

    fn spawn(&mut self) -> Result<Process, ClientError> {
        self.starts += 1;
        Process::spawn(&self.config.command, &self.label, self.log.clone())
            .map_err(|e| ClientError::Spawn(e.to_string()))
    }

    /// Sends the handshake and reads `id`/`option` lines until the answer.
    fn handshake(&mut self, p: &mut Process, dialect: Dialect, wait: Duration) -> Handshake {
        self.advertised.clear();
        if p.send(dialect.name()).is_err() {
            return Handshake::Exited;
        }
        let deadline = Instant::now() + wait;
        loop {
            match p.recv(deadline) {
                Recv::Closed => return Handshake::Exited,
                Recv::Timeout => return Handshake::Silent,
                Recv::Line(line) => match dialect::parse_line(&line) {
                    EngineLine::HandshakeOk(d) => {
                        self.dialect = d;
                        return Handshake::Done;
                    }
                    EngineLine::Option { name } => self.advertised.push(name),
                    EngineLine::Id { field, value } if field == "name" => {
                        self.id_name = Some(value);
                    }
                    _ if line.to_ascii_lowercase().contains("unknown command") => {
                        return Handshake::Refused;
                    }
                    _ => {}
                },
            }
        }
    }

    /// Starts the process (killing any old one) and makes it ready.
    pub fn start(&mut self) -> Result<(), ClientError> {
        self.process = None;
        let mut p = self.spawn()?;
        let t = self.timeouts;
        let outcome = match self.config.protocol {
            Some(forced) => self.handshake(&mut p, forced, t.handshake),
            None => match self.handshake(&mut p, Dialect::Ucci, t.detect) {
                // It said it does not know `ucci`: ask the same process `uci`.
                Handshake::Refused => self.handshake(&mut p, Dialect::Uci, t.handshake),
                // It exited, or said nothing: a fresh process is asked `uci`, so a
                // slow UCCI starter never ends up half in one protocol, half in
                // the other.
                Handshake::Exited | Handshake::Silent => {
                    p.kill();
                    p = self.spawn()?;
                    self.handshake(&mut p, Dialect::Uci, t.handshake)
                }
                done => done,
            },
        };
        match outcome {
            Handshake::Done => {}
            Handshake::Exited => return Err(ClientError::Exited),
            Handshake::Refused | Handshake::Silent => {
                p.kill();
                return Err(ClientError::NoHandshake);
            }
        }
        self.ranks = match self.config.ranks {
            RankBase::Auto
                if self.dialect == Dialect::Uci && advertises(&self.advertised, "UCI_Variant") =>
            {
                RankBase::One
            }
            RankBase::Auto => RankBase::Zero,
            r => r,
        };
        let mut lines = Vec::new();
        let user_set = |name: &str| {
            self.config
                .options
                .keys()
                .any(|k| k.eq_ignore_ascii_case(name))
        };
        match self.dialect {
            Dialect::Ucci => {
                self.unit = if advertises(&self.advertised, "usemillisec") {
                    lines.push(dialect::setoption(
                        self.dialect,
                        "usemillisec",
                        Some("true"),
                    ));
                    UcciUnit::Millis
                } else {
                    UcciUnit::Seconds
                };
            }
            Dialect::Uci => {
                self.unit = UcciUnit::Millis;
                if advertises(&self.advertised, "UCI_Variant") && !user_set("UCI_Variant") {
                    lines.push(dialect::setoption(
                        self.dialect,
                        "UCI_Variant",
                        Some("xiangqi"),
                    ));
                }
            }
        }
        self.option_notes.clear();
        for (name, value) in &self.config.options {
            let sent = match option_name(&self.advertised, name) {
                Some(sent) => sent,
                None => {
                    self.option_notes
                        .push(format!("option {name}: the engine does not list it"));
                    name.as_str()
                }
            };
            let value = (!value.is_empty()).then_some(value.as_str());
            lines.push(dialect::setoption(self.dialect, sent, value));
        }
        for l in &lines {
            if p.send(l).is_err() {
                return Err(ClientError::Exited);
            }
        }
        self.process = Some(p);
        self.ready()
    }

    /// `isready` and wait for `readyok`; a dead or silent engine is dropped.
    fn ready(&mut self) -> Result<(), ClientError> {
        let wait = self.timeouts.handshake;
        let Some(p) = self.process.as_mut() else {
            return Err(ClientError::Exited);
        };
        if p.send("isready").is_err() {
            self.process = None;
            return Err(ClientError::Exited);
        }
        let deadline = Instant::now() + wait;
        loop {
            match p.recv(deadline) {
                Recv::Line(l) if dialect::parse_line(&l) == EngineLine::ReadyOk => return Ok(()),
                Recv::Line(l) if complains(&l) => {
                    let note = format!("the engine answered: {}", l.trim());
                    if !self.option_notes.contains(&note) {
                        self.option_notes.push(note);
                    }
                }
                Recv::Line(_) => {}
                Recv::Timeout => {
                    self.process = None;
                    return Err(ClientError::NotReady);
                }
                Recv::Closed => {
                    self.process = None;
                    return Err(ClientError::Exited);
                }
            }
        }
    }

    /// Prepares a new game: starts the engine if it is not running (first game, or
    /// after a crash or a kill), else tells it a new game begins; then `isready`.
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        if !self.is_running() {
            self.start()?;
        }
        let line = match self.dialect {
            Dialect::Uci => Some("ucinewgame".to_string()),
            Dialect::Ucci if advertises(&self.advertised, "newgame") => {
                Some(dialect::setoption(self.dialect, "newgame", None))
            }
            Dialect::Ucci => None,
        };
        if let (Some(line), Some(p)) = (line, self.process.as_mut())
            && p.send(&line).is_err()
        {
            return self.start();
        }
        match self.ready() {
            Ok(()) => Ok(()),
            Err(_) => self.start(),
        }
    }

    /// Asks for a move. Never blocks past `search.deadline` plus the stop grace.
    pub fn think(&mut self, search: &Search<'_>) -> Thought {
        let crashed = |elapsed| Thought {
            answer: Answer::Crashed,
            elapsed,
            info: None,
            iterations: Vec::new(),
        };
        let Some(p) = self.process.as_mut() else {
            return crashed(Duration::ZERO);
        };
        let g = search.game;
        let position = match self.dialect {
            Dialect::Ucci => dialect::position(g.reset_fen, &g.moves[g.reset_at..], self.ranks),
            Dialect::Uci => dialect::position(g.start_fen, g.moves, self.ranks),
        };
        let mut lines = vec![position];
        if self.dialect == Dialect::Ucci && !search.banned.is_empty() {
            let banned: Vec<String> = search
                .banned
                .iter()
                .map(|&m| dialect::format_move(m, self.ranks))
                .collect();
            lines.push(format!("banmoves {}", banned.join(" ")));
        }
        lines.push(dialect::go(
            self.dialect,
            &search.limit,
            self.unit,
            search.draw_offer,
        ));
        let mut start = Instant::now();
        for l in &lines {
            start = Instant::now();
            if p.send(l).is_err() {
                self.process = None;
                return crashed(Duration::ZERO);
            }
        }
        let deadline = start + search.deadline;
        let mut info: Option<InfoLine> = None;
        let mut iterations = Vec::new();
        loop {
            match p.recv(deadline) {
                Recv::Line(l) => match dialect::parse_line(&l) {
                    EngineLine::Info(i) => {
                        if i.depth.is_some() {
                            iterations.push(i.clone());
                        }
                        if i.score.is_some() {
                            info = Some(i);
                        }
                    }
                    EngineLine::BestMove(b) => {
                        let answer = match b.mv {
                            Some(text) => Answer::Move {
                                text,
                                offer: b.offer,
                            },
                            None => Answer::NoMove,
                        };
                        return Thought {
                            answer,
                            elapsed: start.elapsed(),
                            info,
                            iterations,
                        };
                    }
                    _ => {}
                },
                Recv::Closed => {
                    let elapsed = start.elapsed();
                    p.note("output closed during a search");
                    self.process = None;
                    return crashed(elapsed);
                }
                Recv::Timeout => {
                    let elapsed = start.elapsed();
                    let killed = !self.stop_late_search();
                    return Thought {
                        answer: Answer::Late { killed },
                        elapsed,
                        info,
                        iterations,
                    };
                }
            }
        }
    }

    /// Sends `stop` to a late search and waits for its answer; kills the engine if
    /// none comes. True when the engine answered and can be used again.
    fn stop_late_search(&mut self) -> bool {
        let grace = self.timeouts.stop_grace;
        let Some(p) = self.process.as_mut() else {
            return false;
        };
        p.note("deadline passed; stop");
        if p.send("stop").is_ok() {
            let deadline = Instant::now() + grace;
            while let Recv::Line(l) = p.recv(deadline) {
                if let EngineLine::BestMove(_) = dialect::parse_line(&l) {
                    return true;
                }
            }
        }
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        false
    }

    /// Sends `quit`, waits a moment, and kills whatever is left.
    pub fn shutdown(&mut self) {
        if let Some(p) = self.process.take() {
            p.quit(self.timeouts.quit_grace);
        }
    }
}

impl Drop for EngineClient {
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::option_name;

    #[test]
    fn an_option_is_sent_under_the_name_the_engine_lists() {
        let ucci: Vec<String> = ["usebook", "hashsize", "evalfile"]
            .map(String::from)
            .to_vec();
        let uci: Vec<String> = ["OwnBook", "Hash", "EvalFile"].map(String::from).to_vec();
        assert_eq!(option_name(&ucci, "OwnBook"), Some("usebook"));
        assert_eq!(option_name(&ucci, "hash"), Some("hashsize"));
        assert_eq!(option_name(&ucci, "EvalFile"), Some("EvalFile"));
        assert_eq!(option_name(&uci, "usebook"), Some("OwnBook"));
        assert_eq!(option_name(&uci, "hashsize"), Some("Hash"));
        assert_eq!(option_name(&uci, "bookfiles"), None);
        assert_eq!(option_name(&ucci, "nosuchoption"), None);
    }
}
