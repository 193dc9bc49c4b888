//! Scripted UCCI and UCI sessions against the built binary. Timeouts here are only
//! hang guards (generous), never performance assertions.

use chuhan_engine::core::{Move, Position};
use std::process::Command;

mod common;

use common::Daemon;

fn ucci() -> Daemon {
    Daemon::after("ucci")
}

fn uci() -> Daemon {
    Daemon::after("uci")
}

fn move_of(line: &str) -> Move {
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn assert_legal(fen_or_start: &str, moves: &[&str], best: &str) {
    let mut pos = if fen_or_start == "startpos" {
        Position::startpos()
    } else {
        Position::from_fen(fen_or_start).unwrap()
    };
    for m in moves {
        pos.make_move(m.parse().unwrap());
    }
    let m = move_of(best);
    assert!(pos.is_legal(m), "{best} illegal");
}

#[test]
fn handshakes_in_both_orders() {
    let mut d = Daemon::start();
    d.send("uci");
    let uci = d.until(|l| l == "uciok");
    assert!(uci.iter().any(|l| l.starts_with("id name Chuhan")));
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Move Overhead",
        "Clear Hash",
    ] {
        assert!(
            uci.iter()
                .any(|l| l.starts_with(&format!("option name {name} type"))),
            "{name}"
        );
    }
    d.send("ucci");
    let ucci = d.until(|l| l == "ucciok");
    for name in [
        "usemillisec",
        "batch",
        "debug",
        "ponder",
        "usebook",
        "bookfiles",
        "hashsize",
        "threads",
        "idle",
        "pruning",
        "knowledge",
        "randomness",
        "style",
        "newgame",
    ] {
        assert!(
            ucci.iter()
                .any(|l| l.starts_with(&format!("option {name} type"))),
            "{name}"
        );
    }
    assert!(ucci.contains(&"option usemillisec type check default true".to_string()));
    // The last handshake wins: errors now use UCCI's form.
    d.send("frobnicate");
    assert!(d.next().starts_with("info message "));
    d.send("uci");
    d.until(|l| l == "uciok");
    d.send("frobnicate");
    assert!(d.next().starts_with("info string "));
    // Before any handshake, commands still work and errors are answered.
    let mut d = Daemon::start();
    d.send("hello");
    assert!(d.next().starts_with("info string "));
    d.send("position startpos");
    d.send("go depth 2");
    assert!(d.bestmove().starts_with("bestmove "));
}

#[test]
fn options_in_both_syntaxes() {
    let mut d = ucci();
    for line in [
        "setoption hashsize 32",
        "setoption Hash 16",
        "setoption name Threads value 2",
        "setoption threads 1",
        "setoption Move Overhead 10",
        "setoption name Move Overhead value 20",
        "setoption pruning large",
        "setoption knowledge medium",
        "setoption randomness none",
        "setoption style risky",
        "setoption idle none",
        "setoption usebook false",
        "setoption bookfiles builtin",
        "setoption newgame",
        "setoption name Clear Hash",
        "setoption ponder true",
    ] {
        d.send(line);
        assert_eq!(d.sync(), Vec::<String>::new(), "{line}");
    }
    // Unknown options are ignored with a note; bad values are errors.
    d.send("setoption promotion false");
    let out = d.sync();
    assert_eq!(out.len(), 1);
    assert!(out[0].contains("unknown option"), "{out:?}");
    for bad in [
        "setoption hashsize lots",
        "setoption threads -1",
        "setoption pruning enormous",
        "setoption batch maybe",
        "setoption hashsize 99999",
    ] {
        d.send(bad);
        let out = d.sync();
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(out[0].starts_with("info message error"), "{bad}: {out:?}");
    }
    // MultiPV in UCI shows several lines (with the book off: it would answer).
    let mut d = uci();
    d.send("setoption name OwnBook value false");
    d.send("setoption name MultiPV value 3");
    d.send("position startpos");
    d.send("go depth 4");
    let lines = d.until_prefix("bestmove");
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 4 ") && l.contains(&format!(" multipv {k} "))),
            "multipv {k}: {lines:?}"
        );
    }
}

/// The search parameters are options only in a build made for tuning (`make
/// tune-build`): a release build lists none and ignores them, so a GUI cannot
/// detune it.
#[test]
fn tunables_are_not_options_of_a_release_build() {
    let mut d = Daemon::start();
    d.send("uci");
    let handshake = d.until_prefix("uciok");
    for t in chuhan_engine::search::tunables::all() {
        assert!(
            chuhan_engine::protocol::options::find(t.name).is_none(),
            "{} is also an ordinary option",
            t.name
        );
        assert!(
            !handshake.iter().any(|l| l.contains(t.name)),
            "{}: {handshake:?}",
            t.name
        );
    }
    d.send("setoption name RfpMargin value 140");
    let out = d.sync();
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].contains("unknown option"), "{out:?}");
}

#[test]
fn long_move_lists() {
    let mut d = uci();
    let cycle = ["b0c2", "b9c7", "c2b0", "c7b9"];
    // 600 plies of shuffling horses (legal; repetitions do not end the game for
    // the daemon), then a real move.
    let mut moves: Vec<&str> = cycle.iter().cycle().take(600).copied().collect();
    moves.push("h2e2");
    let line = format!("position startpos moves {}", moves.join(" "));
    d.send(&line);
    d.send("go depth 3");
    let best = d.bestmove();
    assert_legal("startpos", &moves, &best);
    // A UCCI position from a FEN with moves.
    let mut d = ucci();
    d.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h7e7");
    d.send("go depth 3");
    let best = d.bestmove();
    assert_legal("startpos", &["h2e2", "h7e7"], &best);
}

#[test]
fn every_go_mode() {
    let mut d = uci();
    // Searches, not book moves (the shipped book answers this position).
    d.send("setoption name OwnBook value false");
    d.send("position startpos moves h2e2");
    for go in [
        "go depth 3",
        "go nodes 2000",
        "go movetime 100",
        "go wtime 3000 btime 3000 winc 50 binc 50",
        "go wtime 2000 btime 2000 movestogo 10",
        "go mate 2",
        "go depth 3 searchmoves h9g7 b9c7",
    ] {
        d.send(go);
        let lines = d.until_prefix("bestmove");
        let best = lines.last().unwrap();
        assert_legal("startpos", &["h2e2"], best);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth") && l.contains(" score ")),
            "{go}: {lines:?}"
        );
        if go.contains("searchmoves") {
            let m = move_of(best).to_string();
            assert!(m == "h9g7" || m == "b9c7", "{best}");
        }
    }
    // Infinite: nothing until stop.
    d.send("go infinite");
    assert!(
        d.sync().iter().all(|l| !l.starts_with("bestmove")),
        "no answer before stop"
    );
    d.send("stop");
    assert_legal("startpos", &["h2e2"], &d.bestmove());

    // UCCI time modes, in seconds when usemillisec is off, and depth infinite.
    let mut d = ucci();
    d.send("setoption usemillisec false");
    d.send("position startpos");
    for go in [
        "go time 2 increment 0",
        "go time 3 movestogo 20 opptime 3 oppmovestogo 20",
        "go time 2 increment 1 opptime 5 oppincrement 1",
        "go draw time 1",
        "go movetime 50",
    ] {
        d.send(go);
        let best = d.bestmove();
        assert!(best.starts_with("bestmove "), "{go}: {best}");
        assert_legal("startpos", &[], &best);
    }
    d.send("go depth infinite");
    assert!(d.sync().iter().all(|l| !l.starts_with("bestmove")));
    d.send("stop");
    assert!(d.bestmove().starts_with("bestmove "));
    // Scores are bare integers in UCCI.
    d.send("go depth 3");
    let lines = d.until_prefix("bestmove");
    let info = lines.iter().find(|l| l.contains(" score ")).unwrap();
    let after = info.split(" score ").nth(1).unwrap();
    let word = after.split_whitespace().next().unwrap();
    assert!(word.parse::<i32>().is_ok(), "{info}");
}

#[test]
fn ponder_then_ponderhit() {
    for (mode, hit) in [("uci", "ponderhit"), ("ucci", "ponderhit draw")] {
        let mut d = if mode == "uci" { uci() } else { ucci() };
        d.send("position startpos moves h2e2 h9g7");
        let go = if mode == "uci" {
            "go ponder wtime 1000 btime 1000 winc 10 binc 10"
        } else {
            "go ponder time 1000 increment 10"
        };
        d.send(go);
        // A ponder search never answers by itself.
        assert!(d.sync().iter().all(|l| !l.starts_with("bestmove")));
        d.send(hit);
        let best = d.bestmove();
        assert_legal("startpos", &["h2e2", "h9g7"], &best);
        assert!(!best.ends_with(" draw") || mode == "ucci");
    }
}

#[test]
fn stop_while_thinking_and_idle() {
    let mut d = ucci();
    d.send("stop");
    assert_eq!(d.next(), "nobestmove");
    d.send("position startpos");
    d.send("go infinite");
    // Resizing the hash or a second go must wait; both are refused with one line.
    d.send("setoption hashsize 32");
    let l = d.until_prefix("info message").pop().unwrap();
    assert!(l.starts_with("info message error"), "{l}");
    d.send("go depth 3");
    let l = d.until_prefix("info message").pop().unwrap();
    assert!(l.starts_with("info message error"), "{l}");
    d.send("stop");
    assert!(d.bestmove().starts_with("bestmove "));
    d.send("setoption hashsize 32");
    assert_eq!(d.sync(), Vec::<String>::new());
    // Idle stop in UCI prints nothing.
    let mut d = uci();
    d.send("stop");
    assert_eq!(d.sync(), Vec::<String>::new());
}

#[test]
fn banmoves_are_excluded_until_the_next_position() {
    let mut d = ucci();
    let pos = Position::startpos();
    let all: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    d.send("position startpos");
    d.send(&format!("banmoves {}", all[1..].join(" ")));
    d.send("go depth 3");
    assert_eq!(move_of(&d.bestmove()).to_string(), all[0]);
    // Everything banned: no move.
    d.send(&format!("banmoves {}", all.join(" ")));
    d.send("go depth 2");
    assert_eq!(d.bestmove(), "nobestmove");
    // An illegal ban is rejected with one error line.
    d.send("banmoves e0e2");
    let out = d.sync();
    assert_eq!(out.len(), 1, "{out:?}");
    // A new position clears the bans.
    d.send("position startpos");
    d.send("go depth 2");
    assert!(d.bestmove().starts_with("bestmove "));
}

#[test]
fn probe_answers_pophash() {
    let mut d = ucci();
    d.send("probe startpos");
    assert_eq!(d.next(), "pophash");
    // The book would answer without filling the table.
    d.send("setoption usebook false");
    d.send("position startpos");
    d.send("go depth 6");
    d.bestmove();
    d.send("probe startpos");
    let l = d.next();
    assert!(l.starts_with("pophash bestmove "), "{l}");
    assert!(l.contains("bound"), "{l}");
    d.send("probe");
    assert!(d.next().starts_with("pophash"));
    // While thinking, too (the search's info lines may come first).
    d.send("go infinite");
    d.send("probe startpos moves h2e2");
    let lines = d.until(|l| !l.starts_with("info "));
    assert!(lines.last().unwrap().starts_with("pophash"), "{lines:?}");
    d.send("stop");
    d.bestmove();
}

#[test]
fn quit_while_thinking() {
    let mut d = ucci();
    d.send("position startpos");
    d.send("go infinite");
    d.send("isready");
    d.until(|l| l == "readyok");
    d.send("quit");
    d.until(|l| l == "bye");
    assert!(d.wait_exit(), "the daemon exits after quit");
    // UCI quit while pondering.
    let mut d = uci();
    d.send("go ponder wtime 10000 btime 10000");
    d.send("quit");
    assert!(d.wait_exit());
}

#[test]
fn bad_lines_get_one_error_each_and_change_nothing() {
    for mode in ["uci", "ucci"] {
        let mut d = if mode == "uci" { uci() } else { ucci() };
        d.send("position startpos moves h2e2");
        let bad = [
            "frobnicate",
            "position",
            "position fen",
            "position fen 9/9/9 w",
            "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
            "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
            "position startpos moves h2e2 h2e2",
            "position startpos moves z9z9",
            "position startpos moves h2e2 h9g7 e2e9 e9e8",
            "position sideways",
            // A search's `go` is never refused (see
            // `every_unreadable_go_value_gets_a_bestmove`); a count is.
            "go perft x",
            "go perft 12",
            "bench 99",
            "banmoves h2e2 qq",
            "setoption",
            "ponderhit maybe",
            "debug perhaps",
            "isready now",
            "bench deep",
            "d please",
        ];
        for line in bad {
            d.send(line);
            let out = d.sync();
            assert_eq!(out.len(), 1, "{mode} '{line}': {out:?}");
            let prefix = if mode == "uci" {
                "info string error"
            } else {
                "info message error"
            };
            assert!(out[0].starts_with(prefix), "{mode} '{line}': {out:?}");
        }
        // The position is still the one after h2e2: black to move.
        d.send("d");
        let diagram = d.until_prefix("Checkers:");
        assert!(
            diagram
                .iter()
                .any(|l| l.starts_with("Fen: ") && l.contains(" b - - 1 1")),
            "{diagram:?}"
        );
        d.send("go depth 3");
        assert_legal("startpos", &["h2e2"], &d.bestmove());
    }
}

/// Issue 46: a `go` with a value it cannot use still gets a `bestmove`, in both
/// dialects: a number out of range is clamped, an unreadable or missing value and
/// an unknown word are left out, each with one warning line, and the search runs
/// with what remains: at once for a finite limit, after `stop` when no limit is
/// left.
#[test]
fn every_unreadable_go_value_gets_a_bestmove() {
    // (line, warnings, finite: answers without `stop`)
    let uci_cases: &[(&str, usize, bool)] = &[
        ("go depth -5", 1, true),
        ("go depth 0", 1, true),
        ("go nodes 18446744073709551616 depth 2", 1, true),
        ("go nodes -1", 1, true),
        ("go mate -3", 1, true),
        ("go movetime -100", 1, true),
        ("go wtime -100 btime -100", 0, true),
        (
            "go wtime 1000 btime 1000 winc -5 binc -5 movestogo -1",
            3,
            true,
        ),
        ("go movetime 99999999999999999999 depth 2", 1, true),
        ("go depth 2 searchmoves zz h9g7", 1, true),
        ("go depth movetime 50", 1, true),
        ("go depth 3 sideways", 1, true),
        ("go depth 3.5 nodes 5000", 1, true),
        ("go depth", 1, false),
        ("go nodes", 1, false),
        ("go depth x", 1, false),
        ("go movetime abc", 1, false),
        ("go wtime abc btime abc", 2, false),
        ("go depth 99999999999999999999", 1, false),
        ("go sideways", 1, false),
        ("go searchmoves zz", 1, false),
        ("go infinite depth -1", 1, false),
    ];
    let ucci_cases: &[(&str, usize, bool)] = &[
        ("go depth -5", 1, true),
        ("go nodes -1", 1, true),
        ("go time -5", 0, true),
        ("go time 2000 increment x", 1, true),
        ("go time 2000 movestogo -3 opptime y", 2, true),
        ("go movetime -1", 1, true),
        ("go depth 2 draw sideways", 1, true),
        ("go time abc", 1, false),
        ("go depth", 1, false),
        ("go movetime abc", 1, false),
        ("go depth infinite nodes -5", 1, false),
    ];
    for (mode, cases) in [("uci", uci_cases), ("ucci", ucci_cases)] {
        let (mut d, warning) = if mode == "uci" {
            (uci(), "info string warning: go: ")
        } else {
            (ucci(), "info message warning: go: ")
        };
        // Searches, not book moves.
        d.send(if mode == "uci" {
            "setoption name OwnBook value false"
        } else {
            "setoption usebook false"
        });
        d.send("position startpos moves h2e2");
        for &(go, warnings, finite) in cases {
            d.send(go);
            let mut lines = Vec::new();
            if !finite {
                lines = d.sync();
                assert!(
                    lines.iter().all(|l| !l.starts_with("bestmove")),
                    "{mode} {go}: no limit is left, so no answer before stop: {lines:?}"
                );
                d.send("stop");
            }
            lines.extend(d.until(|l| l.starts_with("bestmove") || l == "nobestmove"));
            let best = lines.pop().unwrap();
            assert_legal("startpos", &["h2e2"], &best);
            let other: Vec<&String> = lines
                .iter()
                .filter(|l| !l.starts_with("info depth"))
                .collect();
            assert_eq!(other.len(), warnings, "{mode} {go}: {lines:?}");
            assert!(
                other.iter().all(|l| l.starts_with(warning)),
                "{mode} {go}: {lines:?}"
            );
        }
        // Nothing is left over: the next command is answered at once.
        assert_eq!(d.sync(), Vec::<String>::new(), "{mode}");
    }
}

#[test]
fn garbage_bytes_never_hurt() {
    let mut d = uci();
    // A `go` below searches (not a book move) until `stop`.
    d.send("setoption name OwnBook value false");
    let mut junk: Vec<Vec<u8>> = vec![
        b"\xff\xfe\xfd\n".to_vec(),
        b"\x00\x01\x02 gogo\n".to_vec(),
        b"position startpos moves \xe4\xb8\xad\n".to_vec(),
        "楚河漢界\n".as_bytes().to_vec(),
        b"\r\n".to_vec(),
        b"go depth 99999999999999999999999\n".to_vec(),
    ];
    let mut long = b"position startpos moves ".to_vec();
    long.extend(std::iter::repeat_n(b'x', 1 << 20));
    long.push(b'\n');
    junk.push(long);
    let mut x: u64 = 0x1234_5678;
    for _ in 0..50 {
        let mut line = Vec::new();
        for _ in 0..(x % 60) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let b = (x & 0xff) as u8;
            if b != b'\n' {
                line.push(b);
            }
        }
        line.push(b'\n');
        junk.push(line);
    }
    for j in &junk {
        let line = String::from_utf8_lossy(j);
        d.send_bytes(j);
        let mut out = d.sync();
        if line.starts_with("go ") {
            // A search's `go` is read leniently: a warning, then a search (here
            // one that only `stop` ends) and its bestmove.
            d.send("stop");
            out.extend(d.until_prefix("bestmove"));
            let best = out.pop().unwrap();
            assert_legal("startpos", &[], &best);
            out.retain(|l| !l.starts_with("info depth"));
            assert_eq!(out.len(), 1, "{line:?}: {out:?}");
            assert!(out[0].starts_with("info string warning: go: "), "{out:?}");
            continue;
        }
        assert!(out.len() <= 1, "{line:?}: {out:?}");
        assert!(out.iter().all(|l| l.starts_with("info string")), "{out:?}");
    }
    d.send("position startpos");
    d.send("go depth 2");
    assert!(d.bestmove().starts_with("bestmove "));
}

#[test]
fn extras_perft_d_eval_bench() {
    let mut d = uci();
    d.send("position startpos");
    d.send("go perft 2");
    let lines = d.until_prefix("Nodes searched:");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 1920");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 45);
    d.send("d");
    let lines = d.until_prefix("Checkers:");
    // The shared text diagram: Red's and Black's pieces in their own characters.
    assert!(
        lines
            .iter()
            .any(|l| l.contains("俥──傌──相──仕──帥──仕──相──傌──俥"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("車──馬──象──士──將──士──象──馬──車"))
    );
    assert!(lines.iter().any(|l| l.contains('砲') && !l.contains('炮')));
    assert!(lines.iter().any(|l| l.starts_with("Key: ")));
    assert!(lines.iter().any(|l| l.starts_with("Fen: rnbakabnr/")));
    assert_eq!(lines.last().unwrap(), "Checkers: ");
    d.send("eval");
    let lines = d.until_prefix("Total (side to move");
    // The net evaluates by default: its value comes first, the hand-written
    // table after it for reference.
    assert!(
        lines[0].starts_with("NNUE evaluation (used by the search): "),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("Net: (1260")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("Material")));
    assert!(lines.iter().any(|l| l.starts_with("King safety")));
    d.send("setoption usennue false");
    d.send("eval");
    let lines = d.until_prefix("Total (side to move");
    assert!(
        lines[0].starts_with("Hand-written evaluation (used by the search"),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("NNUE")), "{lines:?}");
    // flip: the colour-swapped position, the other side to move (also composed
    // positions, which a strict build would refuse).
    d.send("position fen 4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 0 1");
    d.send("flip");
    d.send("d");
    let lines = d.until_prefix("Checkers:");
    assert!(
        lines.contains(&"Fen: 3k5/4p4/9/9/9/9/9/9/9/4K4 b - - 0 1".to_string()),
        "{lines:?}"
    );
    d.send("flip");
    d.send("d");
    let lines = d.until_prefix("Checkers:");
    assert!(
        lines.contains(&"Fen: 4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 0 1".to_string()),
        "{lines:?}"
    );
    d.send("bench 2");
    let lines = d.until_prefix("Nodes/second:");
    assert!(lines.iter().any(|l| l.starts_with("Nodes searched: ")));
}

#[test]
fn batch_mode_answers_before_reading_on() {
    let mut d = ucci();
    d.send("setoption batch true");
    d.send("position startpos");
    d.send("go depth 4");
    d.send("isready");
    let lines = d.until(|l| l == "readyok");
    let b = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    assert!(b < lines.len() - 1);
    // Endless searches are refused in batch mode.
    d.send("go infinite");
    let out = d.sync();
    assert_eq!(out.len(), 1, "{out:?}");
}

#[test]
fn no_legal_move_per_dialect() {
    // Black is mated.
    let fen = "R2k5/R8/9/9/9/9/9/9/9/4K4 b";
    for (mut d, answer) in [(uci(), "bestmove (none)"), (ucci(), "nobestmove")] {
        d.send(&format!("position fen {fen}"));
        // Also with limits read leniently (issue 46), bounded or not.
        for go in ["go depth 3", "go depth -5", "go nodes 18446744073709551616"] {
            d.send(go);
            assert_eq!(d.bestmove(), answer, "{go}");
        }
        for go in ["go infinite", "go depth x"] {
            d.send(go);
            d.send("stop");
            assert_eq!(d.bestmove(), answer, "{go}");
            // The answer may come before `stop` (nothing to search): then UCCI
            // answers the idle `stop` with one more `nobestmove`.
            let rest = d.sync();
            assert!(rest.iter().all(|l| l == "nobestmove"), "{go}: {rest:?}");
        }
    }
}

#[test]
fn draw_offers_only_in_ucci() {
    // Red is hopelessly behind (a lone pawn against a rook).
    let fen = "3k5/9/9/9/r8/9/4P4/9/9/5K3 w";
    let mut d = ucci();
    d.send(&format!("position fen {fen}"));
    d.send("go draw depth 5");
    let best = d.bestmove();
    assert!(best.ends_with(" draw"), "{best}");
    d.send("go depth 5");
    assert!(!d.bestmove().ends_with(" draw"));
    let mut d = uci();
    d.send(&format!("position fen {fen}"));
    d.send("go depth 5");
    let best = d.bestmove();
    assert_eq!(best.split_whitespace().count() % 2, 0, "{best}");
}

#[test]
fn cyclone_quirks() {
    let mut d = ucci();
    d.send("fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1 moves h2e2");
    d.send("go depth 2");
    assert_legal("startpos", &["h2e2"], &d.bestmove());
    d.send("startpos moves b0c2");
    d.send("go depth 2");
    assert_legal("startpos", &["b0c2"], &d.bestmove());
    d.send("ucinewgame");
    d.send("uccinewgame");
    assert_eq!(d.sync(), Vec::<String>::new());
}

/// Red's rook checks from a9, a8, a9, … while Black's king steps e9-e8-e9: after
/// these moves the position after `a0a9` stands for the third time, Red the violator.
const PERPETUAL: &str = "position fen 4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1 moves a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9";

#[test]
fn judge_in_both_dialects() {
    for (mut d, prefix) in [(ucci(), "info message "), (uci(), "info string ")] {
        d.send(PERPETUAL);
        d.send("judge");
        let lines = d.until_prefix("judgeok ");
        let (last, report) = lines.split_last().unwrap();
        assert!(report.iter().all(|l| l.starts_with(prefix)), "{lines:?}");
        assert!(
            report.iter().any(|l| l.contains("rules: cxa2011")),
            "{lines:?}"
        );
        assert!(
            report
                .iter()
                .any(|l| l.contains("red wins") || l.contains("black wins"))
        );
        let json: serde_json::Value =
            serde_json::from_str(last.strip_prefix("judgeok ").unwrap()).expect("one JSON line");
        assert_eq!(json["rules"], "cxa2011");
        assert_eq!(json["repetition"]["must_vary"], "red", "{json}");
        assert_eq!(json["repetition"]["occurrences"], 3);
        assert_eq!(json["winner"], "black", "{json}");
        // A named rule set overrides the option; the option sets the default.
        d.send("judge rules axf");
        let last = d.until_prefix("judgeok ").pop().unwrap();
        assert!(last.contains(r#""rules":"axf""#), "{last}");
        let set = if prefix.starts_with("info message") {
            "setoption rules axf"
        } else {
            "setoption name Rules value axf"
        };
        d.send(set);
        assert_eq!(d.sync(), Vec::<String>::new());
        d.send("judge");
        let last = d.until_prefix("judgeok ").pop().unwrap();
        assert!(last.contains(r#""rules":"axf""#), "{last}");
        // Errors: one line each, nothing else.
        for bad in ["judge rules wxf", "judge rules", "judge now"] {
            d.send(bad);
            let out = d.sync();
            assert_eq!(out.len(), 1, "{bad}: {out:?}");
            assert!(
                out[0].starts_with(&format!("{prefix}error")),
                "{bad}: {out:?}"
            );
        }
        // The start position: nothing to rule, the game goes on.
        d.send("position startpos");
        d.send("judge");
        let last = d.until_prefix("judgeok ").pop().unwrap();
        let json: serde_json::Value = serde_json::from_str(&last["judgeok ".len()..]).unwrap();
        assert_eq!(json["winner"], serde_json::Value::Null);
        assert_eq!(json["moves"].as_array().unwrap().len(), 44);
    }
}

#[test]
fn rules_option_is_a_combo_in_both_dialects() {
    let mut d = Daemon::start();
    d.send("ucci");
    let lines = d.until(|l| l == "ucciok");
    assert!(
        lines.contains(&"option rules type combo default cxa2011 var cxa2011 var axf".to_string()),
        "{lines:?}"
    );
    d.send("uci");
    let lines = d.until(|l| l == "uciok");
    assert!(
        lines.contains(
            &"option name Rules type combo default cxa2011 var cxa2011 var axf".to_string()
        ),
        "{lines:?}"
    );
    d.send("setoption name Rules value draw");
    let out = d.sync();
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].starts_with("info string error"), "{out:?}");
    // The names and values GUIs still send: Pikafish's `Repetition Rule`
    // (AsianRule/ChineseRule, later Computer/Chinese) and ElephantEye's
    // `repetition` (ASIANRULE/CHINESERULE).
    for line in [
        "setoption name Repetition Rule value AsianRule",
        "setoption name Repetition Rule value ChineseRule",
        "setoption name Repetition Rule value Computer",
        "setoption name Repetition Rule value Chinese",
        "setoption name repetition value ASIANRULE",
        "setoption name repetition value CHINESERULE",
    ] {
        d.send(line);
        assert_eq!(d.sync(), Vec::<String>::new(), "{line}");
    }
    for line in [
        "setoption name repetition value CHECKBAN",
        "setoption name Repetition Rule value SkyRule",
    ] {
        d.send(line);
        let out = d.sync();
        assert_eq!(out.len(), 1, "{line}: {out:?}");
        assert!(
            out[0].starts_with("info string error") && out[0].contains("cxa2011, axf"),
            "{line}: {out:?}"
        );
    }
}

/// The score of `go depth 5` in `fen` (UCI, centipawns or a mate as ±30000).
fn score_at_depth_5(d: &mut Daemon, fen: &str) -> i64 {
    d.send(&format!("position fen {fen}"));
    d.send("go depth 5");
    let lines = d.until(|l| l.starts_with("bestmove"));
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 5 "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    let words: Vec<&str> = last.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "score").unwrap();
    let n: i64 = words[i + 2].parse().unwrap();
    if words[i + 1] == "mate" {
        30_000 * n.signum()
    } else {
        n
    }
}

/// `UCI_ShowWDL` adds `wdl W D L` (per mille, adding up to 1000) after every UCI
/// score; off by default, and never in UCCI.
#[test]
fn uci_show_wdl_adds_win_draw_loss_chances() {
    let mut d = uci();
    d.send("uci");
    let lines = d.until(|l| l == "uciok");
    assert!(
        lines.contains(&"option name UCI_ShowWDL type check default false".to_string()),
        "{lines:?}"
    );
    d.send("setoption name OwnBook value false");
    d.send("position startpos");
    d.send("go depth 4");
    let lines = d.until(|l| l.starts_with("bestmove"));
    assert!(!lines.iter().any(|l| l.contains(" wdl ")), "{lines:?}");
    d.send("setoption name UCI_ShowWDL value true");
    for (fen, sign) in [
        ("startpos", 0),
        // A rook up: Red is expected to win more than lose.
        ("fen 4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", 1),
        ("fen 4k4/9/9/9/9/9/9/9/R8/3K5 b - - 0 1", -1),
    ] {
        d.send(&format!("position {fen}"));
        d.send("go depth 4");
        let lines = d.until(|l| l.starts_with("bestmove"));
        let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
        assert!(!infos.is_empty(), "{lines:?}");
        for l in &infos {
            let w: Vec<&str> = l.split_whitespace().collect();
            let i = w
                .iter()
                .position(|x| *x == "wdl")
                .unwrap_or_else(|| panic!("{l}"));
            let wdl: Vec<u32> = w[i + 1..i + 4].iter().map(|x| x.parse().unwrap()).collect();
            assert_eq!(wdl.iter().sum::<u32>(), 1000, "{l}");
            match sign {
                1 => assert!(wdl[0] > wdl[2], "{l}"),
                -1 => assert!(wdl[2] > wdl[0], "{l}"),
                _ => {}
            }
        }
    }
    let mut d = ucci();
    d.send("setoption showwdl true");
    let out = d.sync();
    assert!(out.iter().all(|l| !l.contains("error")), "{out:?}");
    d.send("setoption usebook false");
    d.send("position startpos");
    d.send("go depth 3");
    let lines = d.until(|l| l.starts_with("bestmove"));
    assert!(!lines.iter().any(|l| l.contains(" wdl ")), "{lines:?}");
}

/// `Skill Level` and `UCI_LimitStrength` + `UCI_Elo` weaken the play: a shallow
/// search of several lines, one of them played; full strength again at level 20.
#[test]
fn skill_level_and_uci_elo_weaken_the_search() {
    let mut d = uci();
    d.send("uci");
    let lines = d.until(|l| l == "uciok");
    for option in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
    ] {
        assert!(lines.contains(&option.to_string()), "{option}: {lines:?}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Elo type spin default ")),
        "{lines:?}"
    );
    d.send("setoption name OwnBook value false");
    let deepest = |d: &mut Daemon| -> (i32, usize, String) {
        d.send("position startpos moves h2e2 h9g7");
        d.send("go wtime 60000 btime 60000");
        let lines = d.until(|l| l.starts_with("bestmove"));
        let depth = lines
            .iter()
            .filter_map(|l| l.strip_prefix("info depth "))
            .filter_map(|r| r.split_whitespace().next()?.parse::<i32>().ok())
            .max()
            .unwrap_or(0);
        let pvs = lines
            .iter()
            .filter_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let i = w.iter().position(|x| *x == "multipv")?;
                w[i + 1].parse::<usize>().ok()
            })
            .max()
            .unwrap_or(0);
        let best = lines.last().unwrap().clone();
        assert_legal("startpos", &["h2e2", "h9g7"], &best);
        (depth, pvs, best)
    };
    d.send("setoption name Skill Level value 0");
    let (depth, pvs, _) = deepest(&mut d);
    assert_eq!((depth, pvs), (1, 5));
    d.send("setoption name Skill Level value 6");
    assert_eq!(deepest(&mut d).0, 7);
    // UCI_Elo counts only under UCI_LimitStrength, and then wins over the level.
    d.send("setoption name UCI_Elo value 1000");
    assert_eq!(deepest(&mut d).0, 7);
    d.send("setoption name UCI_LimitStrength value true");
    assert!(deepest(&mut d).0 <= 2);
    d.send("setoption name UCI_LimitStrength value false");
    d.send("setoption name Skill Level value 20");
    let (depth, pvs, _) = deepest(&mut d);
    assert!(depth > 7 && pvs == 1, "{depth} {pvs}");
}

/// `Sixty Move Rule` (Pikafish's check, on by default) and `Rule60MaxPly` (a ply
/// count, 0 = never) decide whether the search scores the natural-limit draw; the
/// strict referee makes the side ahead assume 100 plies at most.
#[test]
fn the_sixty_move_rule_can_be_switched_off() {
    let mut d = uci();
    d.send("uci");
    let lines = d.until(|l| l == "uciok");
    assert!(
        lines.contains(&"option name Sixty Move Rule type check default true".to_string()),
        "{lines:?}"
    );
    // Rook against a bare king, 119 plies after the last capture: every move but
    // a capture reaches the limit, so with the rule on the search sees a draw.
    let fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80";
    assert_eq!(score_at_depth_5(&mut d, fen), 0);
    d.send("setoption name Sixty Move Rule value false");
    assert_eq!(d.sync(), Vec::<String>::new());
    assert!(score_at_depth_5(&mut d, fen) > 500);
    d.send("setoption name Sixty Move Rule value true");
    assert_eq!(score_at_depth_5(&mut d, fen), 0);
    // Another count: a limit far away plays on by the text; under the strict
    // referee (the default) the side ahead still assumes the GUI referees' draw
    // after 100 plies. A count already reached draws.
    d.send("setoption name Rule60MaxPly value 300");
    assert_eq!(score_at_depth_5(&mut d, fen), 0);
    d.send("setoption name Repetition Referee value text");
    assert!(score_at_depth_5(&mut d, fen) > 500);
    d.send("setoption name Repetition Referee value strict");
    d.send("setoption name Rule60MaxPly value 100");
    assert_eq!(score_at_depth_5(&mut d, fen), 0);
    d.send("setoption name Rule60MaxPly value 0");
    assert!(score_at_depth_5(&mut d, fen) > 500);
    d.send("setoption name Rule60MaxPly value 1001");
    let out = d.sync();
    assert!(
        out.len() == 1 && out[0].starts_with("info string error"),
        "{out:?}"
    );
}

/// `EvalFile` loads a net (a damaged one is refused with one error line and the
/// engine plays on with the net it had), `UseNNUE` switches it on; both dialects
/// list both options.
#[test]
fn nnue_options_load_and_refuse_nets() {
    use chuhan_engine::eval::nnue::network::{QA, QB, SCALE};
    use chuhan_engine::eval::nnue::{Architecture, KingBuckets, Network};
    let mut net = Network::zeroed(Architecture {
        king_buckets: KingBuckets::One,
        hidden: 16,
        output_buckets: 1,
        qa: QA,
        qb: QB,
        scale: SCALE,
    });
    for (i, w) in net.ft_weights.iter_mut().enumerate() {
        *w = (i * 7919 % 201) as i16 - 100;
    }
    for (i, w) in net.out_weights.iter_mut().enumerate() {
        *w = (i * 31 % 21) as i16 - 10;
    }
    let dir = std::env::temp_dir();
    let good = dir.join(format!("chuhan-protocol-{}.nnue", std::process::id()));
    let bad = dir.join(format!("chuhan-protocol-bad-{}.nnue", std::process::id()));
    let bytes = net.to_bytes();
    std::fs::write(&good, &bytes).unwrap();
    std::fs::write(&bad, &bytes[..bytes.len() - 1]).unwrap();

    let mut d = Daemon::start();
    d.send("uci");
    let hello = d.until(|l| l == "uciok");
    assert!(
        hello
            .iter()
            .any(|l| l == "option name UseNNUE type check default true")
    );
    assert!(
        hello
            .iter()
            .any(|l| l == "option name EvalFile type string default builtin")
    );
    d.send("setoption name OwnBook value false");
    // The built-in net is loaded from the start; an empty EvalFile unloads it.
    d.send("setoption name UseNNUE value true");
    assert_eq!(d.sync(), Vec::<String>::new());
    d.send("setoption name EvalFile value");
    d.send("setoption name UseNNUE value true");
    let out = d.sync();
    assert!(
        out.len() == 1 && out[0].contains("no net is loaded"),
        "{out:?}"
    );
    d.send("setoption name EvalFile value builtin");
    d.send("setoption name UseNNUE value true");
    assert_eq!(d.sync(), Vec::<String>::new());
    d.send(&format!("setoption name EvalFile value {}", good.display()));
    assert_eq!(d.sync(), Vec::<String>::new());
    d.send(&format!("setoption name EvalFile value {}", bad.display()));
    let out = d.sync();
    assert!(
        out.len() == 1 && out[0].contains("error") && out[0].contains("wrong-size"),
        "{out:?}"
    );
    d.send("position startpos moves h2e2");
    d.send("go depth 4");
    let best = d.bestmove();
    let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b")
        .unwrap();
    assert!(pos.is_legal(move_of(&best)), "{best}");

    let mut d = ucci();
    d.send("setoption evalfile /no/such/file.nnue");
    let out = d.sync();
    assert!(
        out.len() == 1 && out[0].contains("cannot load net"),
        "{out:?}"
    );
    for f in [good, bad] {
        std::fs::remove_file(f).unwrap();
    }
}

// --- Issue 20: hardening -------------------------------------------------------

/// Defect 1: once `bestmove` is written the engine is idle, so options and new
/// games sent at once are taken (they were refused as "thinking" in about one try
/// in five).
#[test]
fn options_right_after_bestmove_are_taken() {
    let mut d = uci();
    d.send("setoption name OwnBook value false");
    d.send("setoption name Hash value 16");
    d.send("setoption name Threads value 2");
    assert_eq!(d.sync(), Vec::<String>::new());
    d.send("position startpos moves h2e2 h9g7");
    for i in 0..200 {
        d.send("go movetime 2");
        d.bestmove();
        d.send(if i % 2 == 0 {
            "setoption name Hash value 16"
        } else {
            "ucinewgame"
        });
        let out = d.sync();
        assert!(out.iter().all(|l| !l.contains("error")), "try {i}: {out:?}");
    }
    let mut d = ucci();
    d.send("setoption usebook false");
    d.send("setoption hashsize 16");
    assert_eq!(d.sync(), Vec::<String>::new());
    d.send("position startpos moves h2e2 h9g7");
    for i in 0..100 {
        d.send("go depth 1");
        d.bestmove();
        d.send("setoption hashsize 16");
        d.send("setoption newgame");
        let out = d.sync();
        assert!(out.iter().all(|l| !l.contains("error")), "try {i}: {out:?}");
    }
}

/// Starts a search that would run for hours and waits until it has begun.
fn endless(d: &mut Daemon, go: &str) {
    d.send("position startpos moves h2e2 h9g7");
    d.send(go);
    d.until(|l| l.starts_with("info depth 2"));
}

/// Defect 3: the end of input ends the daemon, whatever the search and the mode;
/// the search answers first.
#[test]
fn end_of_input_ends_every_search() {
    for (proto, batch, go) in [
        ("uci", false, "go depth 1000"),
        ("uci", false, "go nodes 100000000000"),
        ("uci", false, "go movetime 100000000"),
        ("ucci", false, "go time 100000000"),
        ("ucci", true, "go depth 1000"),
    ] {
        let mut d = if proto == "uci" { uci() } else { ucci() };
        d.send(if proto == "uci" {
            "setoption name OwnBook value false"
        } else {
            "setoption usebook false"
        });
        if batch {
            d.send("setoption batch true");
        }
        endless(&mut d, go);
        d.stdin.take();
        let best = d.bestmove();
        assert!(best.starts_with("bestmove "), "{go}: {best}");
        assert!(d.wait_exit(), "{proto} {go} (batch {batch}): still running");
    }
}

/// Defect 3: in batch mode a search still hears `stop` and `quit`; other commands
/// wait for its answer.
#[test]
fn batch_mode_searches_hear_stop_and_quit() {
    let mut d = ucci();
    d.send("setoption usebook false");
    d.send("setoption batch true");
    endless(&mut d, "go depth 1000");
    d.send("isready");
    d.send("stop");
    let lines = d.until(|l| l == "readyok");
    let best = lines.iter().position(|l| l.starts_with("bestmove"));
    assert!(best.is_some_and(|b| b < lines.len() - 1), "{lines:?}");
    endless(&mut d, "go depth 1000");
    d.send("quit");
    d.until(|l| l == "bye");
    assert!(d.wait_exit());
}

/// Defect 4: `go searchmoves` with no legal move in the list is an error, and the
/// engine searches every move instead of answering as if mated.
#[test]
fn searchmoves_without_a_legal_move() {
    for (mut d, prefix) in [(uci(), "info string error"), (ucci(), "info message error")] {
        d.send("position startpos");
        d.send("go searchmoves e9e8 depth 3");
        let lines = d.until(|l| l.starts_with("bestmove") || l == "nobestmove");
        let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with(prefix)).collect();
        assert_eq!(errors.len(), 1, "{lines:?}");
        assert!(errors[0].contains("e9e8"), "{errors:?}");
        assert_legal("startpos", &[], lines.last().unwrap());
        // Only the legal ones of a mixed list are searched.
        d.send("go searchmoves e9e8 b0c2 depth 2");
        let lines = d.until(|l| l.starts_with("bestmove") || l == "nobestmove");
        assert_eq!(move_of(lines.last().unwrap()).to_string(), "b0c2");
        assert_eq!(lines.iter().filter(|l| l.starts_with(prefix)).count(), 1);
    }
}

fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Defect 5: a line over the limit is dropped with one error, and memory does not
/// keep it.
#[test]
fn overlong_lines_are_dropped_and_not_kept() {
    let mut d = uci();
    d.sync();
    let before = rss_kb(d.child.id());
    let mut big = b"position startpos moves ".to_vec();
    big.resize(64 << 20, b'x');
    big.push(b'\n');
    d.send_bytes(&big);
    drop(big);
    let out = d.sync();
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("info string error") && out[0].contains("dropped"),
        "{out:?}"
    );
    let after = rss_kb(d.child.id());
    assert!(
        after < before + 16 * 1024,
        "RSS grew from {before} kB to {after} kB"
    );
    // The session goes on.
    d.send("position startpos moves h2e2");
    d.send("go depth 2");
    assert_legal("startpos", &["h2e2"], &d.bestmove());
}

/// Defect 6: every echoed value is cut, with an ellipsis, and control
/// characters are shown readably.
#[test]
fn echoed_values_are_cut() {
    // Under the line limit, so that the lines are parsed.
    let huge = "q".repeat(900_000);
    for mode in ["uci", "ucci"] {
        let mut d = if mode == "uci" { uci() } else { ucci() };
        // Searches, not book moves: a go below searches until `stop`.
        d.send(if mode == "uci" {
            "setoption name OwnBook value false"
        } else {
            "setoption usebook false"
        });
        for (line, echoed) in [
            (format!("setoption name {huge} value 1"), true),
            (format!("setoption name Hash value {huge}"), true),
            (format!("setoption name Rules value {huge}"), true),
            (format!("{huge} go"), true),
            (format!("position fen {huge}"), false),
            (format!("position fen {huge} w - - 0 1"), false),
            (format!("position startpos moves {huge}"), true),
            (format!("go depth {huge}"), true),
            (format!("go searchmoves {huge}"), true),
            (format!("banmoves {huge}"), true),
            (format!("judge rules {huge}"), true),
        ] {
            d.send(&line);
            let mut out = d.sync();
            if line.starts_with("go ") {
                // A warning, not a refusal: the search runs (until `stop`, as no
                // limit is left) and answers.
                d.send("stop");
                out.extend(d.until_prefix("bestmove"));
                out.pop();
                out.retain(|l| !l.starts_with("info depth"));
                assert!(out[0].contains("warning: go: "), "{mode}: {}", out[0]);
            }
            assert_eq!(out.len(), 1, "{mode}: {}", &line[..30]);
            assert!(out[0].len() < 300, "{mode}: {}", out[0]);
            assert!(!out[0].contains(&"q".repeat(41)), "{mode}: {}", out[0]);
            if echoed {
                assert!(out[0].contains("qqq…'"), "{mode}: {}", out[0]);
            }
        }
    }
}

/// Defect 7: FEN fields as GUIs send them are accepted; whatever is read liberally
/// or ignored gets one warning each, and the position is set.
#[test]
fn fen_liberties_are_accepted_with_warnings() {
    let board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    for (mut d, prefix) in [
        (uci(), "info string warning: "),
        (ucci(), "info message warning: "),
    ] {
        for (tail, warnings, black) in [
            ("w - - 0 1", 0, false),
            ("w", 0, false),
            ("b", 0, true),
            ("r - - 0 1", 0, false),
            ("", 1, false),
            ("W - - 0 1", 1, false),
            ("w - - 0 1 junk", 1, false),
            ("B - - 0 1 x y", 2, true),
        ] {
            d.send(&format!("position fen {board} {tail}"));
            let out = d.sync();
            assert_eq!(out.len(), warnings, "{tail:?}: {out:?}");
            assert!(out.iter().all(|l| l.starts_with(prefix)), "{out:?}");
            d.send("go depth 1");
            let best = d.bestmove();
            let fen = format!("{board} {}", if black { "b" } else { "w" });
            assert_legal(&fen, &[], &best);
        }
        assert!(d.wait_exit());
    }
}

/// Composed positions (排局): accepted with a warning when otherwise sane, and
/// searched; impossible positions are still refused.
#[test]
fn composed_positions_are_accepted_with_a_warning() {
    let mut d = ucci();
    // Red's pawn behind its starting rank, Red's elephant off its points.
    let fen = "3k5/9/9/9/9/9/9/1B7/4P4/4K4 w - - 0 1";
    d.send(&format!("position fen {fen}"));
    let out = d.sync();
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(
        out.iter()
            .all(|l| l.starts_with("info message warning: a composed position")),
        "{out:?}"
    );
    d.send("go depth 4");
    let (pos, _) = Position::from_fen_with(fen, chuhan_engine::core::Validation::Lenient).unwrap();
    let best = d.bestmove();
    assert!(pos.is_legal(move_of(&best)), "{best}");
    // A king out of its palace, an advisor across the river: still refused.
    for bad in [
        "3k5/9/9/9/9/9/9/9/9/6K2 w - - 0 1",
        "3k5/9/9/9/9/9/4K4/9/9/9 w - - 0 1",
        "3k5/9/3A5/9/9/9/9/9/9/4K4 w - - 0 1",
    ] {
        d.send(&format!("position fen {bad}"));
        let out = d.sync();
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(
            out[0].starts_with("info message error: invalid FEN"),
            "{out:?}"
        );
    }
}

/// Defect 2 for nets: a named pipe as `EvalFile` is one error at once (it used to
/// block the daemon).
#[test]
fn a_fifo_as_net_file_is_refused() {
    let dir = std::env::temp_dir().join(format!("chuhan-fifo-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("net.nnue");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let mut d = ucci();
    d.send(&format!("setoption evalfile {}", fifo.display()));
    let out = d.sync();
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].contains("named pipe"), "{out:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With two threads, `go depth N` ends at depth N whichever thread finishes it
/// first: the last `info depth` line before `bestmove` reports depth N (not
/// N − 1, as when a helper that finished depth N stops the main thread inside
/// that iteration and only the main thread's finished iterations are reported),
/// its line starts with the best move, and the best move is legal. Each search
/// starts from an empty hash table, so the threads race afresh every time.
#[test]
fn two_threads_reach_the_depth_asked_for() {
    let mut d = uci();
    d.send("setoption name OwnBook value false");
    d.send("setoption name Hash value 16");
    d.send("setoption name Threads value 2");
    assert_eq!(d.sync(), Vec::<String>::new());
    let positions: [(&str, &[&str]); 3] = [
        ("startpos", &["h2e2", "h9g7"]),
        (
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            &[],
        ),
        (
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            &[],
        ),
    ];
    for depth in [5, 6] {
        for (pos, moves) in positions {
            for _ in 0..5 {
                d.send("ucinewgame");
                let position = if pos == "startpos" {
                    "position startpos".to_string()
                } else {
                    format!("position fen {pos}")
                };
                if moves.is_empty() {
                    d.send(&position);
                } else {
                    d.send(&format!("{position} moves {}", moves.join(" ")));
                }
                d.send(&format!("go depth {depth}"));
                let lines = d.until(|l| l.starts_with("bestmove") || l == "nobestmove");
                let best = lines.last().unwrap();
                assert!(best.starts_with("bestmove"), "{lines:?}");
                assert_legal(pos, moves, best);
                let last = lines
                    .iter()
                    .rev()
                    .find(|l| l.starts_with("info depth "))
                    .unwrap_or_else(|| panic!("no info line: {lines:?}"));
                let words: Vec<&str> = last.split_whitespace().collect();
                assert_eq!(words[2], depth.to_string(), "{lines:?}");
                let pv = words.iter().position(|&w| w == "pv").expect("a pv");
                assert_eq!(
                    words.get(pv + 1),
                    best.split_whitespace().nth(1).as_ref(),
                    "{lines:?}"
                );
            }
        }
    }
}

/// Issue 46: a hash beyond the memory available is refused before allocating, in
/// both dialects: one error line, the table kept, and `isready` answered at once.
/// (Checked only where the largest hash would not fit: elsewhere it would take
/// 32 GB.)
#[test]
fn a_hash_beyond_the_memory_available_is_refused() {
    use chuhan_engine::search::memory::{available_mb, check_hash};
    use chuhan_engine::search::searcher::MAX_HASH_MB;
    if check_hash(MAX_HASH_MB, 64, available_mb()).is_ok() {
        return;
    }
    for (mut d, set, prefix) in [
        (
            uci(),
            format!("setoption name Hash value {MAX_HASH_MB}"),
            "info string error: ",
        ),
        (
            ucci(),
            format!("setoption hashsize {MAX_HASH_MB}"),
            "info message error: ",
        ),
    ] {
        d.send(&set);
        let out = d.sync();
        assert_eq!(out.len(), 1, "{out:?}");
        let text = out[0].strip_prefix(prefix).expect("an error line");
        assert!(
            text.starts_with(&format!("Hash {MAX_HASH_MB} MB refused: only "))
                && text.ends_with("; keeping 64 MB"),
            "{text}"
        );
        // The engine plays on with its table.
        d.send("position startpos moves h2e2");
        d.send("go depth 2");
        assert_legal("startpos", &["h2e2"], &d.bestmove());
    }
}
