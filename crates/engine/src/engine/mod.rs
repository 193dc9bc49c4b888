//! [`Engine`]: the facade between the protocol and everything that plays. It owns
//! the game (the position with its move history, the banned moves), the opening
//! books and the [`Searcher`] with its threads; it sits above both `book` and
//! `search`, which know nothing of each other.
//!
//! # Data flow
//!
//! ```text
//! stdin ─▶ protocol ───────────▶ engine::Engine ───────────▶ search::Searcher
//!          parses a line into    set_position, set_option,   lazy-SMP threads
//!          a Command, options    go, stop, wait              over one TT
//!          into EngineOptions    │                           │
//!                                ├─ book::BookSet, probed    │
//!                                │  first at each go         │
//!                                ▼                           ▼
//! stdout ◀─ protocol printer ◀── Receiver<Event> ◀───────────┘
//!          each Event as a       Book, Info, CurrMove,
//!          UCCI or UCI line      BestMove (always last)
//! ```
//!
//! - `position …`: the protocol parses and validates the line into a [`Position`]
//!   (every move checked) and calls [`Engine::set_position`]; nothing is printed.
//! - `setoption …`: the protocol finds the option in its table, checks the value
//!   and translates it into typed [`EngineOption`]s
//!   ([`crate::protocol::translate`]); [`Engine::set_option`] applies them: search
//!   settings to the [`Searcher`], book settings here (`BookFiles` loads the books
//!   at once), `EvalFile` loads a net and hands it to the [`Searcher`] (a file that
//!   does not load leaves the previous net in place). Only errors come back.
//! - `go …`: the protocol parses the limits and calls [`Engine::go`]. The facade
//!   first asks its books (unless the book is off, or the search is infinite, a
//!   ponder search or restricted to `searchmoves`); a playable book move comes back
//!   at once as [`Event::Book`] then [`Event::BestMove`]. Otherwise the
//!   [`Searcher`] starts its threads on a copy of the position; the main thread
//!   sends [`Event::Info`] (and [`Event::CurrMove`]) while it searches and
//!   [`Event::BestMove`] last. The protocol's printer thread turns each event into a
//!   line of the session's dialect while the session goes on reading input.
//! - `stop`: [`Engine::stop`] raises the search's stop flag; the threads unwind,
//!   the best move is sent as usual, and [`Engine::wait`] joins the threads (taking
//!   their history tables back for the next search).
//!
//! Nothing below the protocol prints: the facade and the search answer with
//! values, errors and events.

mod error;
mod option;

pub use error::EngineError;
pub use option::EngineOption;

use crate::book::locate::{engine_dir, locate};
use crate::book::{BookMove, BookSet, Randomness};
use crate::core::{Move, Position};
use crate::eval::nnue::Network;
use crate::eval::nnue::builtin::{BUILTIN_NAME as BUILTIN_NET, builtin as builtin_net};
use crate::search::event::{self, BestMove, Event};
use crate::search::limits::Limits;
use crate::search::searcher::{SearchError, Searcher};
use crate::search::settings::{MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV, Settings};
use crate::search::tt::TtEntry;
use crossbeam_channel::{Receiver, unbounded};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::sync::Arc;

/// The engine: a game, its books and a searcher.
pub struct Engine {
    search: Searcher,
    position: Position,
    banned: Vec<Move>,
    books: BookSet,
    use_book: bool,
    book_randomness: Randomness,
    /// The random numbers behind book choices: seeded from the clock, so that
    /// separate runs with randomness on do not all open alike.
    book_rng: SmallRng,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An idle engine on the start position with default settings (evaluating with
    /// the built-in net, [`crate::eval::nnue::builtin`]), no books (see
    /// [`EngineOption::BookFiles`]), one thread and
    /// [`crate::search::searcher::DEFAULT_HASH_MB`] of hash.
    pub fn new() -> Engine {
        Engine::with_searcher(Searcher::new())
    }

    /// An idle engine like [`Engine::new`] but with `mb` megabytes of hash (0: the
    /// default), allocated once at that size: a service running several small
    /// engines never holds the default table of each first. Refused, as
    /// [`EngineOption::Hash`] is, beyond
    /// [`crate::search::searcher::MAX_HASH_MB`] or the memory available
    /// ([`crate::search::memory`]).
    ///
    /// ```
    /// use chuhan_engine::engine::Engine;
    /// let engine = Engine::with_hash_mb(4).unwrap();
    /// assert_eq!(engine.hash_mb(), 4);
    /// assert!(Engine::with_hash_mb(1 << 40).is_err());
    /// ```
    pub fn with_hash_mb(mb: usize) -> Result<Engine, EngineError> {
        Ok(Engine::with_searcher(Searcher::with_hash_mb(mb)?))
    }

    fn with_searcher(mut search: Searcher) -> Engine {
        let clock = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        // The defaults of `EvalFile` (the built-in net) and `UseNNUE` (on). Only a
        // build that embedded a damaged net has none: it plays with the
        // hand-written evaluation, and `EvalFile builtin` says why.
        if let Ok(net) = builtin_net() {
            search.set_net(Some(net));
        }
        Engine {
            search,
            position: Position::startpos(),
            banned: Vec::new(),
            books: BookSet::new(),
            use_book: true,
            book_randomness: Randomness::None,
            book_rng: SmallRng::seed_from_u64(clock),
        }
    }

    /// True while a search is running.
    pub fn is_searching(&mut self) -> bool {
        self.search.is_searching()
    }

    /// The current position (with its move history).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Sets the position for the next search and clears the banned moves. Allowed
    /// while thinking (the running search keeps its own copy).
    pub fn set_position(&mut self, pos: Position) {
        self.position = pos;
        self.banned.clear();
    }

    /// Forbids root moves for the next search of the current position (until the
    /// next [`Engine::set_position`]). Every move must be legal; otherwise nothing
    /// changes.
    pub fn set_banned_moves(&mut self, moves: &[Move]) -> Result<(), EngineError> {
        if let Some(&m) = moves.iter().find(|&&m| !self.position.is_legal(m)) {
            return Err(EngineError::IllegalMove(m));
        }
        self.banned = moves.to_vec();
        Ok(())
    }

    /// The moves banned at the root.
    pub fn banned_moves(&self) -> &[Move] {
        &self.banned
    }

    /// Changes a setting. `Hash`, `Threads` and `ClearHash` need an idle engine;
    /// the others apply from the next search.
    pub fn set_option(&mut self, opt: EngineOption) -> Result<(), EngineError> {
        let s = self.search.settings_mut();
        match opt {
            EngineOption::Hash(mb) => self.search.set_hash(mb)?,
            EngineOption::ClearHash => self.search.clear_hash()?,
            EngineOption::Threads(n) => self.search.set_threads(n)?,
            EngineOption::MultiPv(n) => s.multipv = n.clamp(1, MAX_MULTIPV),
            EngineOption::MoveOverhead(ms) => s.move_overhead_ms = ms.min(MAX_MOVE_OVERHEAD_MS),
            EngineOption::Ponder(b) => s.ponder = b,
            EngineOption::Pruning(p) => s.pruning = p,
            EngineOption::Knowledge(k) => s.knowledge = k,
            EngineOption::EvalNoise(n) => s.eval_noise = n,
            EngineOption::DrawValue(v) => s.draw_value = v,
            EngineOption::IdlePercent(p) => s.idle_percent = p,
            EngineOption::Resign(b) => s.resign = b,
            EngineOption::Rules(r) => s.rules = r,
            EngineOption::Referee(r) => s.referee = r,
            EngineOption::SixtyMovePlies(n) => s.sixty_move_plies = n,
            EngineOption::Skill(k) => s.skill = k,
            EngineOption::UseBook(b) => self.use_book = b,
            EngineOption::BookRandomness(r) => self.book_randomness = r,
            EngineOption::BookFiles(list) => self.load_books(&list)?,
            EngineOption::UseNnue(b) => {
                s.use_nnue = b;
                if b && self.search.net().is_none() {
                    return Err(EngineError::NoNet);
                }
            }
            EngineOption::EvalFile(file) => self.load_net(&file)?,
        }
        Ok(())
    }

    /// Loads the net `file` (empty: no net; `builtin`: the shipped one); on failure
    /// the loaded net stays.
    fn load_net(&mut self, file: &str) -> Result<(), EngineError> {
        if file.trim().is_empty() {
            self.search.set_net(None);
            return Ok(());
        }
        let loaded = if file.trim() == BUILTIN_NET {
            builtin_net()
        } else {
            Network::load(&locate(file.trim(), engine_dir().as_deref())).map(Arc::new)
        };
        match loaded {
            Ok(net) => {
                self.search.set_net(Some(net));
                Ok(())
            }
            Err(error) => Err(EngineError::Net {
                file: file.to_string(),
                error,
            }),
        }
    }

    /// The loaded net, if any (used when [`Settings::use_nnue`] is on).
    pub fn net(&self) -> Option<&Arc<Network>> {
        self.search.net()
    }

    /// The net the search evaluates with, if any: the loaded net while
    /// [`Settings::use_nnue`] is on at full knowledge.
    pub fn active_net(&self) -> Option<&Arc<Network>> {
        self.search.active_net()
    }

    /// Replaces the books by those of `list`; the ones that load are used even if
    /// others fail.
    fn load_books(&mut self, list: &str) -> Result<(), EngineError> {
        let (set, failures) = BookSet::load(list, engine_dir().as_deref());
        self.books = set;
        if failures.is_empty() {
            Ok(())
        } else {
            Err(EngineError::Books(failures))
        }
    }

    /// The search settings in force (changed by [`Engine::set_option`]).
    pub fn settings(&self) -> &Settings {
        self.search.settings()
    }

    /// The size of the hash (the transposition table) in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.search.hash_mb()
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.search.threads()
    }

    /// A new game: clears the hash and the history tables and draws a new seed for
    /// the evaluation noise. Needs an idle engine.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        Ok(self.search.new_game()?)
    }

    /// The transposition-table entry of `pos`, if any (allowed while thinking).
    pub fn probe(&self, pos: &Position) -> Option<TtEntry> {
        self.search.probe(pos)
    }

    /// Answers `go`: a book move if the books have one to play, else a search of
    /// the current position. Returns the events; the last is always
    /// [`Event::BestMove`]. Fails if a search is running.
    pub fn go(&mut self, limits: Limits) -> Result<Receiver<Event>, EngineError> {
        if self.search.is_searching() {
            return Err(SearchError::Busy.into());
        }
        if let Some(b) = self.book_move(&limits) {
            let (tx, rx) = unbounded();
            let _ = tx.send(Event::Book {
                mv: b.mv,
                weight: b.weight,
            });
            let _ = tx.send(Event::BestMove(BestMove::unsearched(b.mv)));
            return Ok(rx);
        }
        Ok(self.search.go(&self.position, &self.banned, limits)?)
    }

    /// The book move to play instead of searching, if any: only when the book is on
    /// and the `go` asks for a game move ([`Engine::plays_from_book`]); legal, not
    /// banned, not repeating a position, and a root move the search would consider.
    fn book_move(&mut self, limits: &Limits) -> Option<BookMove> {
        if !self.use_book
            || self.books.is_empty()
            || !Self::plays_from_book(limits, self.settings().multipv)
        {
            return None;
        }
        let b = self.books.pick(
            &self.position,
            &self.banned,
            self.book_randomness,
            &mut self.book_rng,
        )?;
        self.search
            .root_moves(&self.position, &self.banned, limits)
            .contains(&b.mv)
            .then_some(b)
    }

    /// True if a `go` with these limits asks for a move to play in a game, which the
    /// book may answer: a clock or a move time, one line (MultiPV 1), no
    /// `searchmoves`, not pondering. Analysis requests are searched even where the
    /// book has a move: `go infinite`, a bare `go`, `go depth`, `go nodes`,
    /// `go mate`, and any search with MultiPV above 1 (a GUI asking for lines wants
    /// lines, not a book move).
    ///
    /// ```
    /// use chuhan_engine::engine::Engine;
    /// use chuhan_engine::search::Limits;
    /// let game = Limits { movetime: Some(1000), ..Limits::default() };
    /// assert!(Engine::plays_from_book(&game, 1));
    /// assert!(!Engine::plays_from_book(&game, 3));
    /// assert!(!Engine::plays_from_book(&Limits::depth(12), 1));
    /// ```
    pub fn plays_from_book(limits: &Limits, multipv: usize) -> bool {
        limits.uses_time() && !limits.ponder && limits.searchmoves.is_empty() && multipv <= 1
    }

    /// Asks a running search to stop (it still reports its best move).
    pub fn stop(&self) {
        self.search.stop();
    }

    /// The opponent played the expected move (and perhaps offers a draw): a ponder
    /// search becomes a normal timed search from now on.
    pub fn ponderhit(&self, draw_offered: bool) {
        self.search.ponderhit(draw_offered);
    }

    /// Waits for the running search (if any) to finish.
    pub fn wait(&mut self) {
        self.search.wait();
    }

    /// [`Engine::go`] synchronously: the final answer (tests, analysis tools).
    pub fn search(&mut self, limits: Limits) -> Result<BestMove, EngineError> {
        let rx = self.go(limits)?;
        let best = event::final_answer(&rx);
        self.wait();
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::{KingBuckets, NetError};

    fn net_file(name: &str, bytes: &[u8]) -> String {
        let path = std::env::temp_dir().join(format!("chuhan-{name}-{}.nnue", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    }

    /// A damaged, truncated or missing net file is refused with the typed error
    /// and the net loaded before stays; an empty name unloads.
    #[test]
    fn bad_net_files_are_refused_and_the_net_is_kept() {
        let mut engine = Engine::new();
        assert!(engine.net().is_some(), "the built-in net by default");
        assert!(engine.settings().use_nnue, "on by default");
        engine
            .set_option(EngineOption::EvalFile(String::new()))
            .unwrap();
        assert!(engine.net().is_none(), "an empty name unloads");
        assert!(matches!(
            engine.set_option(EngineOption::UseNnue(true)),
            Err(EngineError::NoNet)
        ));
        assert!(engine.settings().use_nnue, "the setting is kept");
        let net = Network::pseudo_random(KingBuckets::One, 16, 1, 3);
        let bytes = net.to_bytes();
        let good = net_file("good", &bytes);
        engine
            .set_option(EngineOption::EvalFile(good.clone()))
            .unwrap();
        let loaded = Arc::clone(engine.net().unwrap());
        assert_eq!(*loaded, net);
        let mut damaged = bytes.clone();
        damaged[bytes.len() / 2] ^= 0x10;
        let cases = [
            (net_file("damaged", &damaged), "checksum"),
            (net_file("short", &bytes[..bytes.len() - 64]), "wrong-size"),
            ("/no/such/net.nnue".to_string(), "No such file"),
        ];
        for (file, words) in &cases {
            let (file, words) = (file.clone(), *words);
            let err = engine.set_option(EngineOption::EvalFile(file.clone()));
            let Err(EngineError::Net { error, .. }) = &err else {
                panic!("{file}: {err:?}")
            };
            match words {
                "checksum" => assert!(matches!(error, NetError::Checksum)),
                "wrong-size" => assert!(matches!(error, NetError::Size { .. })),
                _ => assert!(matches!(error, NetError::Io(_))),
            }
            let text = err.unwrap_err().to_string();
            assert!(text.contains(words) && text.contains("keeping"), "{text}");
            assert!(Arc::ptr_eq(engine.net().unwrap(), &loaded), "{file}");
        }
        engine
            .set_option(EngineOption::EvalFile(String::new()))
            .unwrap();
        assert!(engine.net().is_none());
        std::fs::remove_file(good).unwrap();
        for (file, _) in cases.iter().take(2) {
            std::fs::remove_file(file).unwrap();
        }
    }

    /// An engine built with a small hash has that table from the start and
    /// plays; a size beyond the limit or the memory available is refused, and a
    /// refused resize keeps the table.
    #[test]
    fn hash_size_at_construction_and_refusals() {
        use crate::search::memory::{available_mb, check_hash};
        use crate::search::searcher::{DEFAULT_HASH_MB, MAX_HASH_MB, SearchError};
        let mut engine = Engine::with_hash_mb(2).unwrap();
        assert_eq!(engine.hash_mb(), 2);
        assert!(engine.search(Limits::depth(3)).unwrap().best.is_some());
        assert_eq!(Engine::with_hash_mb(0).unwrap().hash_mb(), DEFAULT_HASH_MB);
        assert!(matches!(
            Engine::with_hash_mb(MAX_HASH_MB + 1),
            Err(EngineError::Search(SearchError::BadValue(_)))
        ));
        // The largest table is refused before allocating wherever it would not
        // fit (not tried where it would: it would take 32 GB).
        if check_hash(MAX_HASH_MB, 2, available_mb()).is_err() {
            let err = engine
                .set_option(EngineOption::Hash(MAX_HASH_MB))
                .unwrap_err();
            assert!(
                matches!(
                    err,
                    EngineError::Search(SearchError::NotEnoughMemory {
                        asked: MAX_HASH_MB,
                        kept: Some(2),
                        ..
                    })
                ),
                "{err:?}"
            );
            let text = err.to_string();
            assert!(
                text.starts_with("Hash 32768 MB refused: only ")
                    && text.ends_with("; keeping 2 MB"),
                "{text}"
            );
            assert_eq!(engine.hash_mb(), 2);
            assert!(matches!(
                Engine::with_hash_mb(MAX_HASH_MB),
                Err(EngineError::Search(SearchError::NotEnoughMemory {
                    kept: None,
                    ..
                }))
            ));
        }
        // Shrinking is never refused.
        engine.set_option(EngineOption::Hash(1)).unwrap();
        assert_eq!(engine.hash_mb(), 1);
    }

    /// With a net and `UseNnue` the search evaluates with the net (another tree
    /// than the hand-written evaluation's), and plays a legal move; switched off,
    /// the search is the hand-written one again, node for node.
    #[test]
    fn the_net_evaluates_when_switched_on() {
        let mut engine = Engine::new();
        let pos = Position::from_fen(
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        )
        .unwrap();
        engine.set_position(pos.clone());
        engine.set_option(EngineOption::UseNnue(false)).unwrap();
        let hand = engine.search(Limits::depth(5)).unwrap();
        let file = net_file(
            "search",
            &Network::pseudo_random(KingBuckets::Ranks, 32, 2, 5).to_bytes(),
        );
        engine
            .set_option(EngineOption::EvalFile(file.clone()))
            .unwrap();
        engine.set_option(EngineOption::UseNnue(true)).unwrap();
        engine.new_game().unwrap();
        let net = engine.search(Limits::depth(5)).unwrap();
        assert!(pos.is_legal(net.best.unwrap()));
        assert_ne!(net.nodes, hand.nodes);
        // Lower knowledge levels are hand-written.
        engine
            .set_option(EngineOption::Knowledge(crate::eval::Knowledge::Basic))
            .unwrap();
        assert!(engine.search.active_net().is_none());
        engine
            .set_option(EngineOption::Knowledge(crate::eval::Knowledge::Full))
            .unwrap();
        assert!(engine.search.active_net().is_some());
        engine.set_option(EngineOption::UseNnue(false)).unwrap();
        engine.new_game().unwrap();
        assert_eq!(engine.search(Limits::depth(5)).unwrap().nodes, hand.nodes);
        std::fs::remove_file(file).unwrap();
    }
}
