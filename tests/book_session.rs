//! Opening books in daemon sessions against the built binary: the built-in book
//! answers by default, `usebook`/`OwnBook` and `bookfiles`/`BookFile` change that,
//! bad files give one error line, and banned or repeating book moves are skipped.
//! Timeouts are hang guards only.

use chuhan_engine::book::builtin::{BUILTIN_BYTES, builtin};
use chuhan_engine::book::{BookAssembler, BookMove};
use chuhan_engine::core::{Move, Position};
use std::path::PathBuf;
use std::process::Command;

mod common;

/// The daemon after its handshake, with the clock of a `go` that asks for a game
/// move (the book may answer it; analysis requests such as a bare `go depth` are
/// searched).
struct Daemon {
    d: common::Daemon,
    clock: &'static str,
}

impl Daemon {
    fn start(handshake: &str) -> Daemon {
        Daemon {
            d: common::Daemon::after(handshake),
            clock: if handshake == "ucci" {
                "time 600"
            } else {
                "wtime 600000 btime 600000"
            },
        }
    }

    fn send(&mut self, s: &str) {
        self.d.send(s);
    }

    fn until(&mut self, pred: impl Fn(&str) -> bool) -> Vec<String> {
        self.d.until(pred)
    }

    /// Everything printed before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.d.sync()
    }

    /// A `go` for a game move with a clock and at most `depth` plies: the book
    /// answers it if it can, else a search to `depth`; its lines up to and
    /// including `bestmove`.
    fn game(&mut self, depth: u32) -> Vec<String> {
        let go = format!("go depth {depth} {}", self.clock);
        self.go(&go)
    }

    fn go(&mut self, go: &str) -> Vec<String> {
        self.send(go);
        self.until(|l| l.starts_with("bestmove"))
    }
}

/// A scratch directory for this test.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("chuhan-book-session-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A binary book with `moves` (ICCS, weight) for the start position.
fn start_book(moves: &[(&str, u32)]) -> Vec<u8> {
    let mut asm = BookAssembler::new();
    for &(mv, weight) in moves {
        let mv = mv.parse().unwrap();
        asm.add(
            &Position::startpos(),
            BookMove {
                mv,
                weight,
                wdl: None,
            },
        )
        .unwrap();
    }
    asm.finish().to_bytes()
}

fn bestmove(lines: &[String]) -> Move {
    let last = lines.last().unwrap();
    last.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// A game move to depth 2 with no book to answer: the engine searches (an
/// `info depth 2` line comes before `bestmove`). Returns the lines.
fn searched(d: &mut Daemon) -> Vec<String> {
    let lines = d.game(2);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    lines
}

#[test]
fn the_shipped_book_is_built_in_and_within_its_size() {
    let book = builtin().expect("the built-in book loads");
    let own = book.own().expect("a Chuhan book");
    assert!(own.position_count() >= 10_000, "{}", own.position_count());
    assert!(BUILTIN_BYTES.len() <= 5 * 1024 * 1024);
    // It is the file shipped in books/.
    let shipped = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/books/chuhan.book"));
    assert_eq!(shipped.unwrap(), BUILTIN_BYTES);
    assert!(!book.probe(&Position::startpos()).is_empty());
}

#[test]
fn go_from_the_start_plays_the_default_book_at_once() {
    let mut d = Daemon::start("ucci");
    d.send("position startpos");
    // A deep limit: only the book can answer at once.
    let lines = d.game(60);
    assert_eq!(lines.len(), 2, "{lines:?}");
    let info: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(info[..3], ["info", "depth", "0"], "{lines:?}");
    assert_eq!(info[3], "score");
    assert!(info[4].parse::<u32>().unwrap() > 0);
    assert_eq!(info[5], "pv");
    let m = bestmove(&lines);
    assert_eq!(info[6], m.to_string());
    assert!(Position::startpos().is_legal(m));
    // The book's heaviest move, since randomness is none by default.
    let heaviest = builtin().unwrap().probe(&Position::startpos())[0].mv;
    assert_eq!(m, heaviest);

    // An analysis request is searched although the book has the position.
    let lines = d.go("go depth 3");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    // With the book off a game move is searched too.
    d.send("setoption usebook false");
    let lines = d.game(3);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth 0 ")),
        "{lines:?}"
    );
    // A new game reloads nothing and changes no option.
    d.send("setoption newgame");
    searched(&mut d);
}

#[test]
fn uci_ownbook_and_bookfile() {
    let dir = scratch("uci");
    let path = dir.join("c3c4.book");
    std::fs::write(&path, start_book(&[("c3c4", 7)])).unwrap();
    let mut d = Daemon::start("uci");
    d.send(&format!("setoption name BookFile value {}", path.display()));
    assert_eq!(d.sync(), Vec::<String>::new());
    d.send("position startpos");
    let lines = d.game(40);
    // No fake score: GUIs would record the weight as an evaluation.
    assert_eq!(
        lines,
        ["info string book move c3c4 weight 7", "bestmove c3c4"]
    );
    d.send("setoption name OwnBook value false");
    searched(&mut d);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_book_files_give_one_error_line_and_the_engine_plays_on() {
    let dir = scratch("bad");
    let junk = dir.join("junk.book");
    std::fs::write(&junk, [0xFFu8; 13]).unwrap();
    let truncated = dir.join("truncated.book");
    std::fs::write(&truncated, &BUILTIN_BYTES[..BUILTIN_BYTES.len() / 2]).unwrap();
    let mut corrupt_bytes = BUILTIN_BYTES.to_vec();
    corrupt_bytes[100] ^= 0x10;
    let corrupt = dir.join("corrupt.book");
    std::fs::write(&corrupt, corrupt_bytes).unwrap();
    let missing = dir.join("missing.book");
    let mut d = Daemon::start("ucci");
    d.send("position startpos");
    for bad in [&junk, &truncated, &corrupt, &missing] {
        d.send(&format!("setoption bookfiles {}", bad.display()));
        let said = d.sync();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].starts_with("info message error: book "), "{said:?}");
        // No book left: it searches, and plays a legal move.
        let lines = searched(&mut d);
        assert!(Position::startpos().is_legal(bestmove(&lines)));
    }
    // A bad book before a good one: one error, the good one answers.
    d.send(&format!("setoption bookfiles {};builtin", junk.display()));
    assert_eq!(d.sync().len(), 1);
    let lines = d.game(40);
    assert!(lines[0].starts_with("info depth 0 score "), "{lines:?}");
    // An empty list means no book.
    d.send("setoption bookfiles");
    assert_eq!(d.sync(), Vec::<String>::new());
    searched(&mut d);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn banned_and_repeating_book_moves_are_skipped() {
    let dir = scratch("skip");
    let path = dir.join("start.book");
    std::fs::write(
        &path,
        start_book(&[("b0c2", 90), ("c3c4", 30), ("g3g4", 10)]),
    )
    .unwrap();
    let mut d = Daemon::start("ucci");
    d.send(&format!("setoption bookfiles {}", path.display()));
    d.send("position startpos");
    assert_eq!(d.game(40)[0], "info depth 0 score 90 pv b0c2");
    // Banned: the next heaviest.
    d.send("banmoves b0c2");
    assert_eq!(d.game(40)[0], "info depth 0 score 30 pv c3c4");
    d.send("banmoves b0c2 c3c4");
    assert_eq!(d.game(40)[0], "info depth 0 score 10 pv g3g4");
    // Back at the start position by a knight's round trip: b0c2 would repeat the
    // position after the first b0c2, so the book plays c3c4.
    d.send("position startpos moves b0c2 b9c7 c2b0 c7b9");
    assert_eq!(d.game(40)[0], "info depth 0 score 30 pv c3c4");
    // Every book move banned: it searches.
    d.send("position startpos");
    d.send("banmoves b0c2 c3c4 g3g4");
    let lines = searched(&mut d);
    assert!(!["b0c2", "c3c4", "g3g4"].contains(&bestmove(&lines).to_string().as_str()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn randomness_levels_are_accepted_and_play_book_moves() {
    let dir = scratch("random");
    let path = dir.join("start.book");
    std::fs::write(&path, start_book(&[("h2e2", 50), ("c3c4", 50)])).unwrap();
    let mut d = Daemon::start("ucci");
    d.send(&format!("setoption bookfiles {}", path.display()));
    d.send("setoption randomness huge");
    assert_eq!(d.sync(), Vec::<String>::new());
    d.send("position startpos");
    let mut seen = std::collections::HashSet::new();
    // Two equal moves (and h2e2's mirror b2e2 in the symmetric start position):
    // forty draws all alike would happen with probability below 10^-12.
    for _ in 0..40 {
        let lines = d.game(40);
        assert!(
            lines[0].starts_with("info depth 0 score 50 pv "),
            "{lines:?}"
        );
        seen.insert(bestmove(&lines));
    }
    assert!(seen.len() >= 2, "{seen:?}");
    d.send("setoption randomness enormous");
    let said = d.sync();
    assert_eq!(said.len(), 1, "{said:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Defect 2: a named pipe or a device as a book is one clear error, at once; the
/// daemon goes on answering (a FIFO used to block it for good, `/dev/zero` to be
/// read until memory ran out).
#[test]
fn books_must_be_regular_files() {
    let dir = scratch("fifo");
    let fifo = dir.join("f.book");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let mut d = Daemon::start("ucci");
    for (path, what) in [
        (fifo.display().to_string(), "named pipe"),
        ("/dev/zero".to_string(), "character device"),
        ("/dev/urandom".to_string(), "character device"),
        (dir.display().to_string(), "directory"),
    ] {
        d.send(&format!("setoption bookfiles {path}"));
        let said = d.sync();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].starts_with("info message error: book "), "{said:?}");
        assert!(said[0].contains(what), "{said:?}");
        assert!(said[0].contains("only regular files"), "{said:?}");
    }
    d.send("quit");
    d.until(|l| l == "bye");
    std::fs::remove_dir_all(&dir).unwrap();
}
