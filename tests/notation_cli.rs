//! `chuhan convert` and `chuhan show`, run as a user would.

use std::path::PathBuf;
use std::process::{Command, Output};

fn chuhan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(args)
        .output()
        .expect("run chuhan")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhan-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn convert_moves_between_notations() {
    let o = chuhan(&[
        "convert",
        "--to",
        "wxf",
        "h2e2",
        "H9-G7",
        "馬二進三",
        "R9.8",
    ]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "C2.5\nH8+7\nH2+3\nR9.8\n");
    let o = chuhan(&["convert", "--to", "zh", "1. C2.5 H8+7 2. H2+3"]);
    assert_eq!(stdout(&o), "炮二平五\n馬８進７\n馬二進三\n");
    let o = chuhan(&["convert", "--to", "zh-hans", "h2e2", "h9g7"]);
    assert_eq!(stdout(&o), "炮二平五\n马８进７\n");
    let o = chuhan(&["convert", "--to", "iccs", "炮二平五", "馬８進７"]);
    assert_eq!(stdout(&o), "h2e2\nh9g7\n");
    let o = chuhan(&[
        "convert",
        "--fen",
        "4k4/9/9/9/9/4p4/4p4/9/9/3K5 b",
        "--to",
        "zh",
        "e3d3",
    ]);
    assert_eq!(stdout(&o), "前卒平４\n");
}

#[test]
fn convert_reports_bad_moves() {
    let o = chuhan(&["convert", "--to", "wxf", "h2e2", "車五平四"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "C2.5\n");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("move 2") && err.contains("車五平四"), "{err}");
    let o = chuhan(&["convert", "--fen", "nonsense", "--to", "wxf", "h2e2"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn convert_records() {
    let input = temp("in.pgn");
    let pgn = "[Game \"Chinese Chess\"]\n[Red \"甲\"]\n1. 炮二平五 馬８進７ {評注} 2. 馬二進三 1-0\n\n\
               [Game \"Chinese Chess\"]\n1. 炮二平五 炮二平五 炮二平五 *\n\n\
               1. h2e2 *\n";
    std::fs::write(&input, chuhan_engine::notation::charset::encode_gbk(pgn)).unwrap();
    let out = temp("out.pgn");
    let convert = |strict: bool| {
        let mut args = vec![
            "convert",
            "--pgn",
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--format",
            "wxf",
        ];
        if strict {
            args.push("--strict");
        }
        chuhan(&args)
    };
    // Strict: one broken game of three; the others are written, the exit code says so.
    let o = convert(true);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        chuhan_engine::notation::pgn::read(&written).unwrap().len(),
        2
    );
    // Lenient (the default): the broken game keeps its valid prefix, with a warning
    // naming the game and the ply.
    let o = convert(false);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("game 2: ply 3:"), "{err}");
    assert!(err.contains("kept up to ply 2"), "{err}");
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("[Format \"WXF\"]"));
    assert!(written.contains("1. C2.5 H8+7 {評注}"), "{written}");
    assert!(written.contains("[Red \"甲\"]"));
    let games = chuhan_engine::notation::pgn::read(&written).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[1].ply_count(), 2);
    // GBK output for older tools, to standard output.
    let o = chuhan(&["convert", "--pgn", out.to_str().unwrap(), "--gbk"]);
    assert!(o.status.success());
    assert!(std::str::from_utf8(&o.stdout).is_err());
    let (text, cs) = chuhan_engine::notation::charset::decode(&o.stdout);
    assert_eq!(cs, chuhan_engine::notation::charset::Charset::Gbk);
    assert!(text.contains("炮二平五"));
    let o = chuhan(&["convert", "--pgn", "/nonexistent/x.pgn"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A version-10 XQF file: the start position and `moves` (plain, as XQF 1.0 says).
fn xqf(moves: &[&str]) -> Vec<u8> {
    let mut f = vec![0u8; 0x400];
    f[..3].copy_from_slice(b"XQ\x0A");
    let placement = [
        80u8, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3, 9, 19, 29, 39, 49, 59, 69,
        79, 89, 17, 77, 6, 26, 46, 66, 86,
    ];
    f[0x10..0x30].copy_from_slice(&placement);
    f[0x33] = 1;
    let tag = if moves.is_empty() { 0x00 } else { 0xF0 };
    f.extend_from_slice(&[0x18, 0x20, tag, 0xFF, 0, 0, 0, 0]);
    for (i, m) in moves.iter().enumerate() {
        let b = m.as_bytes();
        let xy = |f: u8, r: u8| (f - b'a') * 10 + (r - b'0');
        let last = i + 1 == moves.len();
        f.extend_from_slice(&[
            xy(b[0], b[1]) + 24,
            xy(b[2], b[3]) + 32,
            if last { 0 } else { 0xF0 },
            0,
            0,
            0,
            0,
            0,
        ]);
    }
    f
}

#[test]
fn show_positions_and_records() {
    let o = chuhan(&["show", "--color", "never"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("車──馬──象──士──將──士──象──馬──車"));
    assert!(text.contains("FEN: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"));
    // FEN fields given as separate arguments.
    let o = chuhan(&["show", "--color", "never", "4k4/9/9/9/9/9/9/9/9/3K5", "b"]);
    assert!(stdout(&o).contains("To move: black"));

    let file = temp("game.xqf");
    std::fs::write(&file, xqf(&["h2e2", "h9g7", "h0g2", "i9h9"])).unwrap();
    let svg = temp("ply3.svg");
    let o = chuhan(&[
        "show",
        file.to_str().unwrap(),
        "--ply",
        "3",
        "--color",
        "never",
        "--notation",
        "wxf",
        "--svg",
        svg.to_str().unwrap(),
        "--caption",
        "after three plies",
        "--arrow",
        "i9h9",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    assert!(text.contains("Ply 3 of 4, result 1-0"), "{text}");
    assert!(text.contains("Moves: 1. C2.5 H8+7 2. H2+3"), "{text}");
    assert!(text.contains("To move: black"));
    let doc = std::fs::read_to_string(&svg).unwrap();
    assert!(roxmltree::Document::parse(&doc).is_ok());
    assert!(doc.contains("after three plies"));
    assert_eq!(doc.matches("marker-end").count(), 2); // last move + --arrow
    // Errors: past the end, a missing game, a bad arrow.
    let f = file.to_str().unwrap();
    assert_eq!(chuhan(&["show", f, "--ply", "9"]).status.code(), Some(2));
    assert_eq!(chuhan(&["show", f, "--game", "2"]).status.code(), Some(2));
    assert_eq!(
        chuhan(&["show", f, "--svg", svg.to_str().unwrap(), "--arrow", "zz"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        chuhan(&["show", "not-a-fen-or-file"]).status.code(),
        Some(2)
    );
}

/// A composed position (排局: Red's pawn behind its starting rank) is accepted by
/// every command that takes a FEN, with a warning naming the piece; `--strict`
/// refuses it.
#[test]
fn composed_positions_on_the_command_line() {
    let fen = "4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 0 1";
    let warned = |o: &Output| {
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("warning: FEN: a composed position: red pawn on e1"),
            "{err}"
        );
    };
    let o = chuhan(&["perft", "2", "--fen", fen]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("Nodes searched: 7"), "{}", stdout(&o));
    warned(&o);
    let o = chuhan(&["judge", "--fen", fen, "--moves", "e1e2 e9e8"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("status: ongoing"), "{}", stdout(&o));
    warned(&o);
    let o = chuhan(&["show", "--color", "never", fen]);
    assert!(o.status.success());
    warned(&o);
    let o = chuhan(&["convert", "--fen", fen, "--to", "wxf", "e1e2"]);
    assert_eq!(stdout(&o).trim(), "P5+1");
    warned(&o);
    for args in [
        &["judge", "--strict", "--fen", fen, "--moves", "e1e2"][..],
        &["show", "--strict", "--fen", fen],
        &["convert", "--strict", "--fen", fen, "e1e2"],
    ] {
        let o = chuhan(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr)
                .contains("red pawn on e1, a point it can never reach"),
            "{args:?}"
        );
    }
}

/// `--game` means the same in `show`, `judge` and `convert`: numbered from 1,
/// errors that name the file's range, exit status 2; an empty file holds no game.
#[test]
fn game_numbers_and_ranges_are_the_same_everywhere() {
    let two = temp("two.pgn");
    std::fs::write(&two, "1. h2e2 h9g7 *\n\n[Event \"b\"]\n1. c3c4 *\n").unwrap();
    let two = two.to_str().unwrap();
    let commands = |file: &str, game: &str| -> Vec<Vec<String>> {
        [
            vec!["show", "--color", "never", "--game", game, file],
            vec!["judge", "--pgn", file, "--game", game],
            vec!["convert", "--pgn", file, "--game", game],
        ]
        .into_iter()
        .map(|v| v.into_iter().map(String::from).collect())
        .collect()
    };
    for game in ["0", "3"] {
        for args in commands(two, game) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = chuhan(&args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.contains(&format!(
                    "--game {game} is out of range: the file has 2 game(s), numbered 1 to 2"
                )),
                "{args:?}: {err}"
            );
        }
    }
    for args in commands(two, "2") {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = chuhan(&args);
        assert!(o.status.success(), "{args:?}");
    }
    let o = chuhan(&["convert", "--pgn", two, "--game", "2", "--to", "iccs"]);
    assert!(stdout(&o).contains("C3-C4"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("H2-E2"), "{}", stdout(&o));
    // An empty (or blank) file is no game, not one empty game.
    let empty = temp("empty.pgn");
    std::fs::write(&empty, " \n\n").unwrap();
    let empty = empty.to_str().unwrap();
    for args in commands(empty, "1") {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = chuhan(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("no game in the file"), "{args:?}: {err}");
    }
    let o = chuhan(&["convert", "--pgn", empty]);
    assert_eq!(o.status.code(), Some(2));
    // --ply names its range too.
    let o = chuhan(&["show", "--ply", "9", two]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("--ply 9 is out of range: the game has 2 plies, 0 (the start) to 2"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Commands that work long before they write check the output path first.
#[test]
fn output_paths_are_checked_before_the_work() {
    let missing = temp("no-such-dir").join("x.book");
    let missing = missing.to_str().unwrap();
    let o = chuhan(&[
        "book", "generate", "--plies", "2", "--depth", "6", "--out", missing,
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("{missing}: cannot be written")),
        "{err}"
    );
    assert!(!err.contains("ply 1:"), "it searched before failing: {err}");
    let games = temp("games.txt");
    std::fs::write(&games, "h2e2 h9g7 1-0\n").unwrap();
    let o = chuhan(&[
        "book",
        "build",
        "--from",
        games.to_str().unwrap(),
        "--out",
        missing,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(missing));
    let o = chuhan(&[
        "book",
        "build",
        "--from",
        "/nonexistent/g.pgn",
        "--out",
        "x",
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent/g.pgn"));
}
