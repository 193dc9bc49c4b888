//! The daemon: one session loop reading commands from stdin (through [`input`]:
//! bytes decoded lossily, lines of at most [`input::MAX_LINE`] bytes), speaking UCCI
//! or UCI according to the last handshake, and driving the [`Engine`] facade.
//! Search events are printed by a printer thread while the session keeps reading;
//! in UCCI `batch` mode a search hears only `stop` and `quit`, and the other lines
//! wait for its answer. The end of the input ends the daemon, whatever it is doing
//! (a running search is stopped and answers first). Every rejected line gets
//! exactly one error line and changes nothing, with one exception: after a refused
//! `position` (a bad FEN, a move that cannot be played), `go` still searches the
//! last good position, but `judge` answers with an error naming the refusal until a
//! good `position` arrives, never a ruling on another position. `position` lines
//! are replayed by [`crate::notation::replay`], as every other door replays a line
//! (moves in any notation, the FEN read leniently). A `go` is not rejected for its
//! limits: what it could not read gets one warning line each and the search runs
//! with the rest, so a GUI always gets its `bestmove`.
//!
//! The protocol is where text lives: [`command`] parses a line into a [`Command`]
//! (validated: a position with every move checked, the limits of a `go`);
//! [`options`] is the option table of both dialects; [`translate`] turns an
//! option's value into typed engine settings; [`dialect`] writes events, scores and
//! messages as UCCI or UCI text. The engine below answers with values, errors and
//! events (see the data flow in [`crate::engine`]).

pub mod command;
pub mod dialect;
pub mod input;
pub mod options;
pub mod translate;

use crate::book::builtin::BUILTIN_NAME;
use crate::core::{Color, Move, Position, perft};
use crate::diagram;
use crate::echo::echo;
use crate::engine::{Engine, EngineError, EngineOption};
use crate::eval;
use crate::rules::{self, RuleSet};
use crate::search::event::Event;
use crate::search::repetition::RepetitionRules;
use crate::search::skill::StrengthOptions;
use crate::search::{bench, tt::Bound, wdl};
use command::{Command, ParseContext};
use crossbeam_channel::{Receiver, Sender, bounded, never, select};
use dialect::Dialect;
use dialect::InfoStyle;
use input::Input;
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use translate::Setting;
use translate::StrengthSetting;

/// Engine name for `id name`: version and build identity.
pub use crate::build_info::ENGINE_NAME;
/// Authors for `id author`.
pub const ENGINE_AUTHOR: &str = "the Chuhan developers";

/// A line-oriented, flushed, shared output.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Wraps a writer.
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes one or more lines and flushes. Write errors (a closed pipe) are
    /// ignored: the session ends when its input does.
    pub fn line(&self, s: &str) {
        let mut w = self.0.lock();
        let _ = writeln!(w, "{s}");
        let _ = w.flush();
    }
}

/// How the session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// `quit` was received.
    Quit,
    /// The input ended.
    EndOfInput,
}

/// A protocol session over an engine.
pub struct Session {
    out: Output,
    engine: Engine,
    dialect: Dialect,
    usemillisec: bool,
    batch: bool,
    debug: bool,
    /// UCI `UCI_ShowWDL`: `info` lines carry `wdl W D L` (per mille).
    show_wdl: bool,
    /// `Skill Level`, `UCI_LimitStrength` and `UCI_Elo` as last set.
    strength: StrengthOptions,
    /// True until the `bookfiles` option is set: its default, the built-in book,
    /// is then applied at the first `go` (loading it takes a tenth of a second that
    /// the handshake need not wait for, and is wasted if a GUI names other books).
    /// the first `go`, others when the option is set).
    default_books_pending: bool,
    printer: Option<JoinHandle<()>>,
    /// Set by the printer just before it writes the final `bestmove`: from then on
    /// the search counts as over, even if its threads are still winding down.
    answered: Arc<AtomicBool>,
    /// Disconnected by the printer once it has written the final `bestmove`.
    done: Receiver<()>,
    /// Why the last `position` line was refused, until a good one arrives: `go`
    /// still searches the last good position (a GUI always gets its `bestmove`),
    /// but `judge` refuses rather than rule on a position other than the one asked.
    refused: Option<String>,
}

impl Session {
    /// A session writing to `out`.
    pub fn new(out: Output) -> Session {
        Session {
            out,
            engine: Engine::new(),
            dialect: Dialect::Uci,
            usemillisec: true,
            batch: false,
            debug: false,
            show_wdl: false,
            strength: StrengthOptions::default(),
            default_books_pending: true,
            printer: None,
            answered: Arc::new(AtomicBool::new(false)),
            done: never(),
            refused: None,
        }
    }

    /// Applies an engine setting; a refusal gets one error line (one per book that
    /// cannot be loaded: the engine plays on with the others).
    fn apply(&mut self, opt: EngineOption) {
        match self.engine.set_option(opt) {
            Ok(()) => {}
            Err(EngineError::Books(failures)) => {
                for f in &failures {
                    self.error(&f.to_string());
                }
            }
            // Not a refusal: the setting is kept and takes effect with a net.
            Err(e @ EngineError::NoNet) => self.note(&e.to_string()),
            Err(e) => self.error(&e.to_string()),
        }
    }

    /// Names the books the engine consults (the `bookfiles` option).
    fn set_books(&mut self, list: String) {
        self.default_books_pending = false;
        self.apply(EngineOption::BookFiles(list));
    }

    fn say(&self, s: &str) {
        self.out.line(s);
    }

    fn error(&self, text: &str) {
        self.say(&self.dialect.message(&format!("error: {text}")));
    }

    fn note(&self, text: &str) {
        self.say(&self.dialect.message(text));
    }

    /// True while a search runs and has not answered yet. A search that has
    /// answered is joined here (its threads are about to exit).
    fn thinking(&mut self) -> bool {
        if self.printer.is_some() && self.answered.load(Ordering::SeqCst) {
            self.finish_search();
        }
        self.printer.is_some()
    }

    /// Waits for the running search and its printer.
    fn finish_search(&mut self) {
        self.engine.wait();
        if let Some(p) = self.printer.take() {
            let _ = p.join();
        }
    }

    /// Reads commands from `source` until `quit` or the end of input.
    pub fn run<R: Read + Send + 'static>(&mut self, source: R) -> Exit {
        self.run_on(&input::spawn(source))
    }

    /// Handles the [`Input`]s of `rx` until `quit` or the end of input.
    pub fn run_on(&mut self, rx: &Receiver<Input>) -> Exit {
        // Lines that came while a batch-mode search ran, in order.
        let mut held: VecDeque<Input> = VecDeque::new();
        loop {
            let item = if self.batch && self.printer.is_some() {
                self.batch_wait(rx, &mut held)
            } else {
                held.pop_front()
            };
            let item = match item {
                Some(i) => i,
                None => rx.recv().unwrap_or(Input::End),
            };
            let exit = match item {
                Input::Line(line) => self.handle_line(line.trim()),
                Input::TooLong { bytes } => {
                    self.error(&format!(
                        "a line of {bytes} bytes was dropped: lines are limited to {} bytes",
                        input::MAX_LINE
                    ));
                    None
                }
                Input::End => {
                    self.engine.stop();
                    self.finish_search();
                    Some(Exit::EndOfInput)
                }
            };
            if let Some(exit) = exit {
                return exit;
            }
        }
    }

    /// While a batch-mode search runs: `stop`, `quit` and the end of input are
    /// returned at once, other lines are held until the search has answered.
    /// `None` once the search is over.
    fn batch_wait(&mut self, rx: &Receiver<Input>, held: &mut VecDeque<Input>) -> Option<Input> {
        while self.printer.is_some() {
            let done = self.done.clone();
            select! {
                recv(done) -> _ => self.finish_search(),
                recv(rx) -> item => {
                    let item = item.unwrap_or(Input::End);
                    let urgent = match &item {
                        Input::Line(l) => l
                            .split_whitespace()
                            .next()
                            .is_some_and(|w| w.eq_ignore_ascii_case("stop") || w.eq_ignore_ascii_case("quit")),
                        Input::TooLong { .. } => false,
                        Input::End => true,
                    };
                    if urgent {
                        return Some(item);
                    }
                    held.push_back(item);
                }
            }
        }
        held.pop_front()
    }

    /// Handles one line; `Some(Exit::Quit)` after `quit`.
    pub fn handle_line(&mut self, line: &str) -> Option<Exit> {
        if line.is_empty() {
            return None;
        }
        if self.debug {
            self.note(&format!("received {line}"));
        }
        let ctx = ParseContext {
            usemillisec: self.usemillisec,
            side: self.engine.position().side_to_move(),
        };
        let cmd = match command::parse(line, &ctx) {
            Ok(Some(c)) => c,
            Ok(None) => return None,
            Err(e) => {
                self.error(&e.to_string());
                if let command::ParseError::Position(why) = e {
                    self.refused = Some(why.to_string());
                }
                return None;
            }
        };
        self.execute(cmd)
    }

    fn execute(&mut self, cmd: Command) -> Option<Exit> {
        // A search that has written its `bestmove` is over: join it now, so that
        // commands that need an idle engine are taken at once.
        self.thinking();
        match cmd {
            Command::Ucci => {
                self.dialect = Dialect::Ucci;
                self.handshake();
            }
            Command::Uci => {
                self.dialect = Dialect::Uci;
                self.handshake();
            }
            Command::IsReady => self.say("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position(p, notes) => {
                for n in notes {
                    self.note(&format!("warning: {n}"));
                }
                self.refused = None;
                self.engine.set_position(*p);
            }
            Command::BanMoves(moves) => {
                if let Err(e) = self.engine.set_banned_moves(&moves) {
                    self.error(&e.to_string());
                }
            }
            Command::Go(limits, warnings) => {
                for w in warnings {
                    self.note(&format!("warning: {w}"));
                }
                self.go(*limits);
            }
            Command::Perft(d) => {
                if self.thinking() {
                    self.error("the engine is thinking; send stop first");
                } else {
                    self.perft(d);
                }
            }
            Command::PonderHit { draw } => self.engine.ponderhit(draw),
            Command::Stop => {
                if self.thinking() {
                    self.engine.stop();
                    self.finish_search();
                } else if self.dialect == Dialect::Ucci {
                    self.say("nobestmove");
                }
            }
            Command::Probe(p) => self.probe(p.as_deref()),
            Command::Quit => {
                self.engine.stop();
                self.finish_search();
                if self.dialect == Dialect::Ucci {
                    self.say("bye");
                }
                return Some(Exit::Quit);
            }
            Command::NewGame => self.new_game(),
            Command::Display => self.say(&display(self.engine.position())),
            Command::Eval => self.eval(),
            Command::Compiler => {
                for line in crate::build_info::report() {
                    self.say(&self.dialect.message(&line));
                }
            }
            Command::Flip => {
                if self.thinking() {
                    self.error("the engine is thinking; send stop first");
                } else {
                    let flipped = self.engine.position().flip();
                    self.engine.set_position(flipped);
                }
            }
            Command::Bench(depth) => {
                if self.thinking() {
                    self.error("the engine is thinking; send stop first");
                } else {
                    self.bench(depth.unwrap_or(bench::DEFAULT_DEPTH));
                }
            }
            Command::Debug(on) => self.debug = on,
            Command::Judge(set) => self.judge(set),
        }
        None
    }

    /// Rules on the game of the current position: the report as message lines,
    /// then `judgeok` and the ruling as one line of JSON. After a refused
    /// `position`, one error line naming the refusal instead: the position the
    /// engine still holds is not the one the arbiter asked about.
    fn judge(&self, set: Option<RuleSet>) {
        if let Some(why) = &self.refused {
            self.error(&format!(
                "judge: no ruling, the last position was refused: {why}"
            ));
            return;
        }
        let set = set.unwrap_or(match self.engine.settings().rules {
            RepetitionRules::Judged(r) => r,
            RepetitionRules::AllDraws => RuleSet::default(),
        });
        let j = rules::judge_position(self.engine.position(), set);
        let mut lines: Vec<String> = j
            .report_lines()
            .iter()
            .map(|l| self.dialect.message(l))
            .collect();
        lines.push(format!("judgeok {}", j.to_json_line()));
        self.say(&lines.join("\n"));
    }

    fn handshake(&self) {
        let ucci = self.dialect == Dialect::Ucci;
        let mut lines = vec![format!("id name {ENGINE_NAME}")];
        if ucci {
            lines.push("id copyright 2026 the Chuhan developers".into());
        }
        lines.push(format!("id author {ENGINE_AUTHOR}"));
        if ucci {
            lines.push("id user unknown".into());
        }
        for spec in options::TABLE {
            if (ucci && spec.in_ucci) || (!ucci && spec.in_uci) {
                lines.push(options::describe(spec, ucci));
            }
        }
        #[cfg(feature = "tune")]
        for t in crate::search::tunables::all() {
            lines.push(if ucci {
                format!(
                    "option {} type spin default {} min {} max {}",
                    t.name, t.default, t.min, t.max
                )
            } else {
                format!(
                    "option name {} type spin default {} min {} max {}",
                    t.name, t.default, t.min, t.max
                )
            });
        }
        if !ucci {
            // UCI allows `info string` at any time; UCCI GUIs get it from `compiler`.
            lines.push(self.dialect.message(&crate::build_info::kernel_line()));
        }
        lines.push(if ucci { "ucciok" } else { "uciok" }.into());
        self.say(&lines.join("\n"));
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let Some(spec) = options::find(name) else {
            #[cfg(feature = "tune")]
            if crate::search::tunables::find(name).is_some() {
                let v = value.and_then(|v| v.trim().parse::<i32>().ok());
                match v.map(|v| crate::search::tunables::set(name, v)) {
                    Some(Ok(())) => {}
                    Some(Err(e)) => self.error(&e),
                    None => self.error(&format!("{} needs an integer", echo(name))),
                }
                return;
            }
            self.note(&format!("unknown option {} ignored", echo(name)));
            return;
        };
        let setting = match options::validate(spec, value) {
            Ok(v) => translate::setting(spec.id, &v),
            Err(e) => {
                self.error(&e);
                return;
            }
        };
        match setting {
            Some(Setting::UseMillisec(b)) => self.usemillisec = b,
            Some(Setting::Batch(b)) => self.batch = b,
            Some(Setting::Debug(b)) => self.debug = b,
            Some(Setting::ShowWdl(b)) => self.show_wdl = b,
            Some(Setting::Strength(s)) => {
                match s {
                    StrengthSetting::Level(n) => self.strength.level = n,
                    StrengthSetting::Limit(b) => self.strength.limit = b,
                    StrengthSetting::Elo(e) => self.strength.elo = e,
                }
                self.apply(EngineOption::Skill(self.strength.skill()));
            }
            Some(Setting::NewGame) => self.new_game(),
            Some(Setting::BookFiles(list)) => self.set_books(list),
            Some(Setting::Engine(opts)) => {
                for o in opts {
                    self.apply(o);
                }
            }
            None => self.error(&format!("bad value for {}", spec.ucci)),
        }
    }

    /// `eval`: the evaluation the search uses. With the net on, its value first
    /// (side to move's and Red's view), then the hand-written breakdown for
    /// reference; else the breakdown at the knowledge level in force.
    fn eval(&self) {
        let pos = self.engine.position();
        let knowledge = self.engine.settings().knowledge;
        if let Some(net) = self.engine.active_net() {
            let v = net.evaluate(pos);
            let side = pos.side_to_move();
            let red = if side == Color::Red { v } else { -v };
            self.say(&format!(
                "NNUE evaluation (used by the search): {v:+} (side to move, {}), {red:+} (Red's view)",
                side.name()
            ));
            self.say(&format!("Net: {}", net.arch));
            self.say("Hand-written evaluation (not used while the net is on):");
        } else {
            self.say("Hand-written evaluation (used by the search; no net in use):");
        }
        self.say(&eval::breakdown(pos, knowledge).to_string());
    }

    fn new_game(&mut self) {
        if let Err(e) = self.engine.new_game() {
            self.error(&e.to_string());
        }
    }

    fn go(&mut self, mut limits: crate::search::Limits) {
        if self.thinking() {
            self.error("the engine is already thinking; send stop first");
            return;
        }
        if self.batch && (limits.infinite || limits.ponder) {
            self.error("go infinite and go ponder need batch mode off");
            return;
        }
        if self.default_books_pending {
            self.set_books(BUILTIN_NAME.to_string());
        }
        self.check_searchmoves(&mut limits.searchmoves);
        match self.engine.go(limits) {
            Ok(rx) => {
                let answered = Arc::new(AtomicBool::new(false));
                self.answered = Arc::clone(&answered);
                let (done_tx, done_rx) = bounded(0);
                self.done = done_rx;
                let out = self.out.clone();
                let dialect = self.dialect;
                let multipv_on = self.engine.settings().multipv > 1;
                // The W/D/L of a score depends on the material on the board: the
                // root's, for every line of this search.
                let wdl_material = (self.show_wdl && dialect == Dialect::Uci)
                    .then(|| wdl::material(self.engine.position()));
                self.printer = Some(std::thread::spawn(move || {
                    let style = InfoStyle {
                        multipv_on,
                        wdl_material,
                    };
                    print_events(&rx, &out, dialect, style, &answered, done_tx)
                }));
            }
            Err(e) => self.error(&e.to_string()),
        }
    }

    /// Drops the moves of a `go searchmoves` list that are not legal here, with one
    /// error naming them; if none is left, every move is searched (an empty list
    /// would answer as if the side to move were mated).
    fn check_searchmoves(&self, moves: &mut Vec<Move>) {
        let pos = self.engine.position();
        let illegal: Vec<String> = moves
            .iter()
            .filter(|&&m| !pos.is_legal(m))
            .map(|m| m.to_string())
            .collect();
        if illegal.is_empty() {
            return;
        }
        moves.retain(|&m| pos.is_legal(m));
        let list = echo(&illegal.join(" ")).to_string();
        if moves.is_empty() {
            self.error(&format!(
                "searchmoves {list}: no legal move in the list; searching every move"
            ));
        } else {
            self.error(&format!("searchmoves {list}: not legal here, ignored"));
        }
    }

    fn perft(&self, depth: u32) {
        let pos = self.engine.position().clone();
        let threads = self.engine.threads();
        let rows = if depth == 0 {
            Vec::new()
        } else {
            perft::divide_parallel(&pos, depth, threads)
        };
        let mut lines: Vec<String> = rows.iter().map(|(m, n)| format!("{m}: {n}")).collect();
        let total: u64 = rows.iter().map(|r| r.1).sum();
        lines.push(String::new());
        lines.push(format!(
            "Nodes searched: {}",
            if depth == 0 { 1 } else { total }
        ));
        self.say(&lines.join("\n"));
    }

    fn probe(&self, pos: Option<&Position>) {
        let pos = pos.unwrap_or(self.engine.position());
        let Some(e) = self.engine.probe(pos) else {
            self.say("pophash");
            return;
        };
        let v = if self.dialect == Dialect::Ucci {
            dialect::ucci_score(e.value)
        } else {
            e.value
        };
        let mut s = String::from("pophash");
        if e.mv.is_some() && pos.is_legal(e.mv) {
            s.push_str(&format!(" bestmove {}", e.mv));
        }
        let d = e.depth.max(0);
        match e.bound {
            Bound::Lower => s.push_str(&format!(" lowerbound {v} depth {d}")),
            Bound::Upper => s.push_str(&format!(" upperbound {v} depth {d}")),
            Bound::Exact => s.push_str(&format!(
                " lowerbound {v} depth {d} upperbound {v} depth {d}"
            )),
        }
        self.say(&s);
    }

    fn bench(&self, depth: i32) {
        match bench::run(depth, 1, 16) {
            Ok(r) => {
                self.say(&format!(
                    "Nodes searched: {}\nNodes/second: {}",
                    r.total_nodes,
                    r.nps()
                ));
            }
            Err(e) => self.error(&e.to_string()),
        }
    }
}

/// The `d` diagram: the board ([`diagram::text`]), then the FEN, the key and the
/// checkers.
///
/// ```
/// use chuhan_engine::core::Position;
/// let d = chuhan_engine::protocol::display(&Position::startpos());
/// assert!(d.contains("俥──傌──相──仕──帥──仕──相──傌──俥"));
/// assert!(d.contains("Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"));
/// assert!(d.ends_with("Checkers: "));
/// ```
pub fn display(pos: &Position) -> String {
    let checkers: Vec<String> = pos
        .checkers()
        .into_iter()
        .map(|sq| sq.to_string())
        .collect();
    format!(
        "{}\nFen: {}\nKey: {:016X}\nCheckers: {}",
        diagram::text(pos).trim_end(),
        pos.to_fen(),
        pos.key(),
        checkers.join(" ")
    )
}

fn print_events(
    rx: &Receiver<Event>,
    out: &Output,
    dialect: Dialect,
    style: InfoStyle,
    answered: &AtomicBool,
    done: Sender<()>,
) {
    for e in rx.iter() {
        match e {
            Event::Info(i) => {
                if let Some(line) = dialect.info(&i, style) {
                    out.line(&line);
                }
            }
            Event::CurrMove { depth, mv, number } => {
                out.line(&format!(
                    "info depth {depth} currmove {mv} currmovenumber {number}"
                ));
            }
            Event::Book { mv, weight } => out.line(&dialect.book(mv, weight)),
            Event::BestMove(b) => {
                answered.store(true, Ordering::SeqCst);
                out.line(&dialect.bestmove(&b));
                drop(done);
                return;
            }
        }
    }
}

/// Runs the daemon on stdin/stdout until `quit` or the end of input.
pub fn run_stdio() -> Exit {
    let mut session = Session::new(Output::new(Box::new(std::io::stdout())));
    session.run(std::io::stdin())
}
