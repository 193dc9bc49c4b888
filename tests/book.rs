//! Opening books: text ↔ binary round trips, probing every inserted position and its
//! mirror, an ElephantEye BOOK.DAT fixture written here from the documented layout,
//! recognition and rejection of damaged files, the builder and the CLI.

use chuhan_engine::book::{
    Book, BookAssembler, BookBuilder, BookError, BookFormat, BookMove, BookSet, BuildOptions,
    EntryError, OwnBook, Randomness, Wdl, fold, text,
};
use chuhan_engine::core::{GameResult, Move, Position};
use chuhan_engine::notation::Game;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::collections::HashMap;

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn bm(m: &str, weight: u32) -> BookMove {
    BookMove {
        mv: mv(m),
        weight,
        wdl: None,
    }
}

fn play(moves: &[&str]) -> Position {
    let mut pos = Position::startpos();
    for m in moves {
        pos.make_move(mv(m));
    }
    pos
}

/// Random entries: positions from random walks out of the start position (so many
/// are shared, mirrored or symmetric), random legal moves, weights and statistics.
/// Returns what the assembler accepted and the book.
fn random_book(seed: u64, walks: usize) -> (Vec<(Position, BookMove)>, OwnBook) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut asm = BookAssembler::new();
    let mut accepted = Vec::new();
    for _ in 0..walks {
        let mut pos = Position::startpos();
        let plies = rng.random_range(0..12);
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.make_move(legal[rng.random_range(0..legal.len())]);
        }
        let legal = pos.legal_moves();
        for _ in 0..rng.random_range(1..4usize) {
            if legal.is_empty() {
                break;
            }
            let entry = BookMove {
                mv: legal[rng.random_range(0..legal.len())],
                weight: rng.random_range(0..5000),
                wdl: rng.random_bool(0.5).then(|| Wdl {
                    wins: rng.random_range(0..100),
                    draws: rng.random_range(0..100),
                    losses: rng.random_range(0..100),
                }),
            };
            match asm.add(&pos, entry) {
                Ok(()) => accepted.push((pos.clone(), entry)),
                Err(EntryError::DuplicateMove(_)) => {}
                Err(e) => panic!("unexpected {e}"),
            }
        }
    }
    (accepted, asm.finish())
}

fn sorted(mut v: Vec<BookMove>) -> Vec<BookMove> {
    v.sort_by(BookMove::canonical_order);
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn binary_and_text_round_trips(seed in any::<u64>(), walks in 0usize..40) {
        let (_, book) = random_book(seed, walks);
        let bytes = book.to_bytes();
        let loaded = OwnBook::from_bytes(&bytes).unwrap();
        prop_assert_eq!(&loaded.to_bytes(), &bytes);
        let dumped = text::write(&loaded);
        let recompiled = text::parse(&dumped).unwrap();
        prop_assert_eq!(&recompiled.to_bytes(), &bytes);
        prop_assert_eq!(text::write(&recompiled), dumped);
    }

    #[test]
    fn probing_finds_every_position_and_its_mirror(seed in any::<u64>(), walks in 1usize..40) {
        let (accepted, book) = random_book(seed, walks);
        let book = OwnBook::from_bytes(&book.to_bytes()).unwrap();
        // What each folded key should hold, in the folded orientation.
        let mut expected: HashMap<u64, Vec<BookMove>> = HashMap::new();
        for (pos, entry) in &accepted {
            let f = fold(pos);
            expected.entry(f.key).or_default().push(if f.mirrored { entry.mirror() } else { *entry });
        }
        for (pos, entry) in &accepted {
            let f = fold(pos);
            let want = |mirrored: bool| sorted(expected[&f.key].iter().map(|b| if mirrored { b.mirror() } else { *b }).collect());
            let found = book.probe(pos);
            prop_assert!(found.contains(entry));
            prop_assert_eq!(&found, &want(f.mirrored));
            let mirror = pos.mirror();
            let found = book.probe(&mirror);
            prop_assert_eq!(&found, &want(!f.mirrored && !f.symmetric));
            if !f.symmetric {
                prop_assert!(found.contains(&entry.mirror()));
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = Book::from_bytes(&data);
        let mut with_magic = b"CHUHANBK".to_vec();
        with_magic.extend_from_slice(&data);
        prop_assert!(Book::from_bytes(&with_magic).is_err());
        let _ = text::parse(&String::from_utf8_lossy(&data));
    }

    #[test]
    fn any_one_byte_change_or_truncation_is_rejected(seed in any::<u64>(), at in any::<usize>(), xor in 1u8..=255) {
        let (_, book) = random_book(seed, 6);
        let bytes = book.to_bytes();
        let at = at % bytes.len();
        let mut damaged = bytes.clone();
        damaged[at] ^= xor;
        prop_assert!(Book::from_bytes(&damaged).is_err(), "byte {} ^ {}", at, xor);
        prop_assert!(Book::from_bytes(&bytes[..at]).is_err());
    }
}

#[test]
fn damaged_own_books_give_the_right_error() {
    let (_, book) = random_book(5, 10);
    let bytes = book.to_bytes();
    let mut version = bytes.clone();
    version[8] = 2;
    assert!(matches!(
        Book::from_bytes(&version),
        Err(BookError::UnsupportedVersion(2))
    ));
    assert!(matches!(
        Book::from_bytes(&bytes[..bytes.len() - 1]),
        Err(BookError::Truncated { .. })
    ));
    assert!(matches!(
        Book::from_bytes(&bytes[..5]),
        Err(BookError::Truncated { .. })
    ));
    let mut body = bytes.clone();
    let last = body.len() - 1;
    body[last] ^= 1;
    assert!(matches!(
        Book::from_bytes(&body),
        Err(BookError::Corrupt { .. })
    ));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Book::from_bytes(&longer),
        Err(BookError::Corrupt { .. })
    ));
    assert!(matches!(Book::from_bytes(b""), Err(BookError::Empty)));
    // A message for people: one line naming the problem.
    let message = Book::from_bytes(&bytes[..40]).unwrap_err().to_string();
    assert!(
        message.contains("truncated") && !message.contains('\n'),
        "{message}"
    );
}

#[test]
fn text_errors_name_the_line() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    let cases = [
        (format!("{start} h2e2"), 1, "fields"),
        (format!("# c\n{start} e0e2 5"), 2, "not a legal move"),
        (format!("{start} h2e2 5\n{start} h2e2 7"), 2, "already"),
        (format!("{start} h2e2 -5"), 1, "count"),
        (format!("{start} h2e2 5 1 2"), 1, "fields"),
        ("rnbakabnr/9 w h2e2 5".to_string(), 1, "ranks"),
        (format!("{start} h2x2 5"), 1, "invalid move"),
    ];
    for (source, line, words) in cases {
        let e = text::parse(&source).unwrap_err();
        assert_eq!(e.line, line, "{source}");
        assert!(e.to_string().contains(words), "{e}");
    }
    // The mirror image of an entry already present is the same entry.
    let after_h2e2 = play(&["h2e2"]).to_fen();
    let after_b2e2 = play(&["b2e2"]).to_fen();
    let e = text::parse(&format!("{after_h2e2} h9g7 3\n{after_b2e2} b9c7 4")).unwrap_err();
    assert_eq!(e.line, 2);
    // A byte order mark (as some Windows editors write) is not part of line 1.
    assert_eq!(
        text::parse(&format!("\u{feff}{start} h2e2 5"))
            .unwrap()
            .move_count(),
        1
    );
    // Full FENs with counters are accepted; dumps use the short form.
    let book = text::parse(&format!("{after_h2e2} h9g7 3 1 1 0")).unwrap();
    assert_eq!(book.move_count(), 1);
    let short = |fen: &str| fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
    let line = text::write(&book).lines().nth(1).unwrap().to_string();
    assert!(
        line == format!("{} h9g7 3 1 1 0", short(&after_h2e2))
            || line == format!("{} b9c7 3 1 1 0", short(&after_b2e2)),
        "{line}"
    );
}

// ---------------------------------------------------------------------------
// ElephantEye BOOK.DAT, written here from the layout in protocol.md §4.1 with an
// implementation independent of the library's.
// ---------------------------------------------------------------------------

/// RC4 keyed with four zero bytes, as ElephantEye seeds its Zobrist tables.
fn rc4_zero_stream(n: usize) -> Vec<u8> {
    let mut s: Vec<usize> = (0..256).collect();
    let mut j = 0;
    for i in 0..256 {
        j = (j + s[i]) % 256; // the key bytes are all zero
        s.swap(i, j);
    }
    let (mut x, mut y) = (0, 0);
    (0..n)
        .map(|_| {
            x = (x + 1) % 256;
            y = (y + s[x]) % 256;
            s.swap(x, y);
            s[(s[x] + s[y]) % 256] as u8
        })
        .collect()
}

struct EeTables {
    player_lock1: u32,
    lock1: Vec<u32>, // [piece 0..14][point 0..256]
}

fn ee_tables() -> EeTables {
    let longs = 3 + 14 * 256 * 3;
    let stream = rc4_zero_stream(4 * longs);
    let long = |k: usize| u32::from_le_bytes(stream[4 * k..4 * k + 4].try_into().unwrap());
    EeTables {
        player_lock1: long(2),
        lock1: (0..14 * 256).map(|e| long(3 + 3 * e + 2)).collect(),
    }
}

fn ee_point(sq: &str) -> usize {
    let b = sq.as_bytes();
    let file = (b[0] - b'a') as usize;
    let rank = (b[1] - b'0') as usize;
    (file + 3) + (9 - rank + 3) * 16
}

fn ee_lock(t: &EeTables, fen: &str) -> u32 {
    let mut fields = fen.split(' ');
    let board = fields.next().unwrap();
    let mut lock = if fields.next() == Some("b") {
        t.player_lock1
    } else {
        0
    };
    for (row, rank_text) in board.split('/').enumerate() {
        let mut file = 0;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
                continue;
            }
            let kind = "KABNRCP".find(c.to_ascii_uppercase()).unwrap();
            let piece = kind + if c.is_ascii_lowercase() { 7 } else { 0 };
            lock ^= t.lock1[piece * 256 + (file + 3) + (row + 3) * 16];
            file += 1;
        }
    }
    lock
}

fn ee_record(lock: u32, m: &str, weight: u16) -> [u8; 8] {
    let wmv = ee_point(&m[..2]) as u16 | (ee_point(&m[2..]) as u16) << 8;
    let mut r = [0u8; 8];
    r[..4].copy_from_slice(&lock.to_le_bytes());
    r[4..6].copy_from_slice(&wmv.to_le_bytes());
    r[6..].copy_from_slice(&weight.to_le_bytes());
    r
}

fn ee_file(records: &mut [[u8; 8]]) -> Vec<u8> {
    records.sort_by_key(|r| u32::from_le_bytes(r[..4].try_into().unwrap()));
    records.concat()
}

fn ee_fixture() -> Vec<u8> {
    let t = ee_tables();
    let start = Position::startpos().to_fen();
    let start_lock = ee_lock(&t, &start);
    assert_eq!(
        start_lock, 0x0526_56d5,
        "the fixture writer reproduces the real book"
    );
    // After b2e2 (the mirror of h2e2): ElephantEye files h2e2 positions here.
    let b2e2_lock = ee_lock(&t, &play(&["b2e2"]).to_fen());
    let unrelated = ee_lock(&t, &play(&["c3c4"]).to_fen());
    ee_file(&mut [
        ee_record(start_lock, "h2e2", 1473),
        ee_record(start_lock, "b2e2", 1473),
        ee_record(start_lock, "c3c4", 546),
        ee_record(start_lock, "e0e2", 999), // a colliding position's move: illegal here
        ee_record(b2e2_lock, "h9g7", 761),
        ee_record(b2e2_lock, "b9c7", 172),
        ee_record(b2e2_lock, "h7e7", 97),
        ee_record(unrelated, "g6g5", 10),
    ])
}

#[test]
fn reads_an_eleeye_book_written_from_the_documented_layout() {
    let data = ee_fixture();
    let book = Book::from_bytes(&data).unwrap();
    assert_eq!(book.format(), BookFormat::ElephantEye);
    assert_eq!(book.len(), 8);
    let start = book.probe(&Position::startpos());
    assert_eq!(
        start,
        vec![bm("b2e2", 1473), bm("h2e2", 1473), bm("c3c4", 546)]
    );
    // Filed under the mirror: found from both sides, moves mirrored back.
    assert_eq!(
        book.probe(&play(&["h2e2"])),
        vec![bm("b9c7", 761), bm("h9g7", 172), bm("b7e7", 97)]
    );
    assert_eq!(
        book.probe(&play(&["b2e2"])),
        vec![bm("h9g7", 761), bm("b9c7", 172), bm("h7e7", 97)]
    );
    assert_eq!(book.probe(&play(&["c3c4"])), vec![bm("g6g5", 10)]);
    assert_eq!(book.probe(&play(&["g3g4"])), vec![bm("c6c5", 10)]);
    assert!(book.probe(&play(&["h0g2"])).is_empty());
}

#[test]
fn damaged_eleeye_books_are_rejected() {
    let data = ee_fixture();
    assert!(matches!(
        Book::from_bytes(&data[..data.len() - 3]),
        Err(BookError::Truncated { .. })
    ));
    let mut unsorted = data.clone();
    unsorted.rotate_left(8); // the smallest lock moves to the end
    assert!(matches!(
        Book::from_bytes(&unsorted),
        Err(BookError::UnknownFormat { .. })
    ));
    let mut off_board = data.clone();
    off_board[4] = 0x00; // a move from point 0, off the board
    assert!(matches!(
        Book::from_bytes(&off_board),
        Err(BookError::UnknownFormat { .. })
    ));
}

// ---------------------------------------------------------------------------
// Formats by content, book sets, playable moves.
// ---------------------------------------------------------------------------

#[test]
fn formats_are_recognised_by_content() {
    let mut asm = BookAssembler::new();
    asm.add(&Position::startpos(), bm("h2e2", 5)).unwrap();
    let own = asm.finish();
    let binary = Book::from_bytes(&own.to_bytes()).unwrap();
    assert_eq!(binary.format(), BookFormat::Chuhan);
    let textual = Book::from_bytes(text::write(&own).as_bytes()).unwrap();
    assert_eq!(textual.format(), BookFormat::ChuhanText);
    assert_eq!(textual.probe(&Position::startpos()), vec![bm("h2e2", 5)]);
    let ee = Book::from_bytes(&ee_fixture()).unwrap();
    assert_eq!(ee.format(), BookFormat::ElephantEye);
    assert!(matches!(
        Book::from_bytes(b"hello world, not a book"),
        Err(BookError::Text(_))
    ));
    assert!(matches!(
        Book::from_bytes(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49]),
        Err(BookError::Truncated { .. } | BookError::UnknownFormat { .. })
    ));
}

#[test]
fn book_sets_filter_banned_and_repeating_moves() {
    let mut asm = BookAssembler::new();
    let start = Position::startpos();
    asm.add(&start, bm("h2e2", 10)).unwrap();
    asm.add(&start, bm("c3c4", 4)).unwrap();
    let after = play(&["h0g2", "h9g7", "g2h0"]);
    asm.add(&after, bm("g7h9", 50)).unwrap();
    asm.add(&after, bm("b7e7", 1)).unwrap();
    let mut set = BookSet::new();
    set.push(Book::Chuhan(asm.finish()));
    set.push(Book::from_bytes(&ee_fixture()).unwrap());
    let mut rng = SmallRng::seed_from_u64(3);

    // The first book answers alone.
    assert_eq!(
        set.candidates(&start, &[]),
        vec![bm("h2e2", 10), bm("c3c4", 4)]
    );
    assert_eq!(
        set.pick(&start, &[], Randomness::None, &mut rng)
            .unwrap()
            .mv,
        mv("h2e2")
    );
    // Banning moves can exhaust the first book; the next one answers.
    let banned = [mv("h2e2"), mv("c3c4")];
    assert_eq!(set.candidates(&start, &banned)[0].weight, 1473);
    // g7h9 would repeat the start position.
    assert_eq!(set.candidates(&after, &[]), vec![bm("b7e7", 1)]);
    // Nothing anywhere.
    assert!(
        set.pick(&play(&["i3i4"]), &[], Randomness::Huge, &mut rng)
            .is_none()
    );
}

// ---------------------------------------------------------------------------
// Builder.
// ---------------------------------------------------------------------------

fn game(moves: &str, result: impl Into<Option<GameResult>>) -> Game {
    let mut g = Game::new(Position::startpos());
    for m in moves.split_whitespace() {
        g.push(mv(m));
    }
    g.result = result.into();
    g
}

#[test]
fn builder_weights_folds_and_filters() {
    let options = BuildOptions {
        max_ply: 3,
        min_games: 2,
    };
    let mut b = BookBuilder::new(options);
    for g in [
        game("h2e2 h9g7 h0g2 i9h9", GameResult::RedWins),
        game("b2e2 b9c7 b0c2", GameResult::BlackWins), // the mirror image of the first
        game("h2e2 h9g7 b0c2", GameResult::Draw),
        game("h2e2 b9c7", None),
        game("c3c4", GameResult::RedWins), // one game only: dropped
    ] {
        b.add_game(&g).unwrap();
    }
    let bad = game("h2e2 h2h3", GameResult::RedWins);
    assert_eq!(b.add_game(&bad).unwrap_err().ply, 1);
    assert_eq!(b.games(), 6);
    let book = b.finish();

    // Start: h2e2 / b2e2 are one choice, shared by both: W2 (games 1, 6) D1 U1 L1.
    let wdl = Some(Wdl {
        wins: 2,
        draws: 1,
        losses: 1,
    });
    let w = 3 * 2 + 1 + 1 - 1;
    let both = |a: &str, b: &str| {
        vec![
            BookMove {
                mv: mv(a),
                weight: w,
                wdl,
            },
            BookMove {
                mv: mv(b),
                weight: w,
                wdl,
            },
        ]
    };
    assert_eq!(book.probe(&Position::startpos()), both("b2e2", "h2e2"));
    // After h2e2: h9g7 (and b9c7 in the mirrored game) 3 games: W1 (Black won game 2)
    // D1 L1 -> 3; b9c7 (game 4, unknown) has one game: dropped.
    assert_eq!(
        book.probe(&play(&["h2e2"])),
        vec![BookMove {
            mv: mv("h9g7"),
            weight: 3,
            wdl: Some(Wdl {
                wins: 1,
                draws: 1,
                losses: 1
            })
        }]
    );
    // Ply 2: h0g2 twice (game 1, and game 2 mirrored), b0c2 once (dropped).
    let third = book.probe(&play(&["h2e2", "h9g7"]));
    assert_eq!(third.len(), 1, "{third:?}");
    assert_eq!(third[0].mv, mv("h0g2"));
    // Ply 3 (i9h9) is not used.
    assert!(book.probe(&play(&["h2e2", "h9g7", "h0g2"])).is_empty());
}

#[test]
fn builder_counts_a_repeated_position_once_per_game() {
    let mut b = BookBuilder::new(BuildOptions {
        max_ply: 20,
        min_games: 1,
    });
    b.add_game(&game(
        "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9",
        GameResult::Draw,
    ))
    .unwrap();
    let book = b.finish();
    let found = book.probe(&Position::startpos());
    // h0g2 (and its mirror b0c2, the start being symmetric), one draw each.
    assert_eq!(found.len(), 2);
    assert!(found.iter().all(|f| f.wdl
        == Some(Wdl {
            wins: 0,
            draws: 1,
            losses: 0
        })));
}

// ---------------------------------------------------------------------------
// The command line.
// ---------------------------------------------------------------------------

#[test]
fn cli_build_dump_compile_probe() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("chuhan-book-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = env!("CARGO_BIN_EXE_chuhan");
    let run = |args: &[&str]| {
        let out = Command::new(exe)
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    std::fs::write(
        dir.join("games.txt"),
        "h2e2 h9g7 1-0\nh2e2 h9g7 1/2-1/2\n1. b2e2 b9c7 0-1\nh2e2 zz\n",
    )
    .unwrap();
    let (ok, out, err) = run(&["book", "build", "--from", "games.txt", "--out", "a.book"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("3 games (1 with problems, 0 read with warnings)"),
        "{out}"
    );
    assert!(err.contains("games.txt:4"), "{err}");
    let (ok, dump, _) = run(&["book", "dump", "a.book"]);
    assert!(ok);
    assert!(
        dump.contains(" w b2e2 ") && dump.contains(" w h2e2 "),
        "{dump}"
    );
    std::fs::write(dir.join("a.txt"), &dump).unwrap();
    let (ok, _, err) = run(&["book", "compile", "a.txt", "--out", "b.book"]);
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read(dir.join("a.book")).unwrap(),
        std::fs::read(dir.join("b.book")).unwrap()
    );
    let (ok, out, _) = run(&["book", "probe", "b.book", "--moves", "h2e2"]);
    assert!(ok);
    assert!(out.contains("book move (randomness none): h9g7"), "{out}");
    std::fs::write(dir.join("junk.book"), [0xFFu8; 13]).unwrap();
    let (ok, _, err) = run(&["book", "dump", "junk.book"]);
    assert!(!ok);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("not a book"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// PGN and XQF records in the builder.
// ---------------------------------------------------------------------------

#[path = "fixtures/xqf_example.rs"]
mod xqf_example;
use xqf_example::spec_example;

#[test]
fn cli_build_reads_pgn_and_xqf() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("chuhan-book-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Two PGN games, one in ICCS, one in WXF (C2.5 H8+7 = h2e2 h9g7), a third
    // with a move that cannot be played (its first move is kept, with a warning)
    // and a broken fourth; an XQF game opening c3c4 h9g7 that Black won.
    std::fs::write(
        dir.join("games.pgn"),
        "[Event \"a\"]\n[Result \"1-0\"]\n1. h2e2 h9g7 2. h0g2 1-0\n\n\
         [Event \"b\"]\n[Format \"WXF\"]\n[Result \"1/2-1/2\"]\n1. C2.5 H8+7 1/2-1/2\n\n\
         [Event \"c\"]\n[Result \"*\"]\n1. h2h9 h9h8 *\n\n\
         [Event \"d\"]\n[Result \"*\"]\n1. h2e2 {never closed *\n",
    )
    .unwrap();
    std::fs::write(dir.join("game.xqf"), spec_example()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args([
            "book",
            "build",
            "--from",
            "games.pgn",
            "game.xqf",
            "--out",
            "r.book",
        ])
        .args(["--max-ply", "2", "--min-games", "1"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("4 games (1 with problems, 1 read with warnings)"),
        "{stdout}"
    );
    assert!(stderr.contains("games.pgn (game 3): ply 2:"), "{stderr}");
    assert!(stderr.contains("games.pgn (game 4):"), "{stderr}");
    let book = chuhan_engine::book::Book::open(dir.join("r.book")).unwrap();
    let mut pos = Position::startpos();
    let at_start = book.probe(&pos);
    let weight = |moves: &[BookMove], m: &str| {
        moves
            .iter()
            .find(|b| b.mv.to_string() == m)
            .map(|b| (b.weight, b.wdl.map(|w| (w.wins, w.draws, w.losses))))
    };
    // h2e2: won once, drawn once = 3 + 1; c3c4 (XQF): lost once = 0.
    assert_eq!(
        weight(&at_start, "h2e2"),
        Some((4, Some((1, 1, 0)))),
        "{at_start:?}"
    );
    assert_eq!(
        weight(&at_start, "c3c4"),
        Some((0, Some((0, 0, 1)))),
        "{at_start:?}"
    );
    pos.make_move("c3c4".parse().unwrap());
    assert_eq!(
        weight(&book.probe(&pos), "h9g7"),
        Some((3, Some((1, 0, 0))))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// One reader of record files (notation::record) feeding the builder.
// ---------------------------------------------------------------------------

/// A CCBridge game (`.cbr`) of `moves` from the start position, with the result
/// byte `result` (1 = Red won), laid out as `docs/ccbridge.md` says.
fn ccbridge_game(moves: &[&str], result: u8) -> Vec<u8> {
    use chuhan_engine::core::{START_FEN, Setup, Square};
    use chuhan_engine::notation::ccbridge::{
        HEADER_LEN, RECORD_MAGIC, board_index, offset, piece_byte,
    };
    let setup = Setup::parse(START_FEN).unwrap();
    let mut b = vec![0u8; HEADER_LEN];
    b[..16].copy_from_slice(RECORD_MAGIC);
    b[offset::RESULT] = result;
    b[offset::SIDE] = 1;
    for sq in Square::ALL {
        if let Some(p) = setup.board[sq.index()] {
            b[offset::BOARD + board_index(sq) as usize] = piece_byte(p);
        }
    }
    b.extend_from_slice(&0u32.to_le_bytes());
    for (i, m) in moves.iter().enumerate() {
        let m = mv(m);
        let last = i + 1 == moves.len();
        b.extend([
            u8::from(last),
            0,
            board_index(m.from()),
            board_index(m.to()),
        ]);
    }
    b.extend_from_slice(&[0, 0, 0, 0]);
    b
}

/// The book built from the record `bytes` named `name`, every game read by
/// `notation::record::read_items`.
fn book_from_record(name: &str, bytes: &[u8]) -> OwnBook {
    use chuhan_engine::core::Validation;
    use chuhan_engine::notation::record::read_items;
    let mut b = BookBuilder::new(BuildOptions {
        max_ply: 10,
        min_games: 1,
    });
    let items = read_items(bytes, Some(std::path::Path::new(name)), Validation::Lenient);
    assert_eq!(items.len(), 1, "{name}");
    for item in items {
        let game = item.game.unwrap();
        assert!(game.warnings.is_empty(), "{name}: {:?}", game.warnings);
        b.add_game(&game).unwrap();
    }
    b.finish()
}

#[test]
fn the_same_game_as_pgn_an_iccs_line_and_ccbridge_builds_the_same_book() {
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9"];
    let pgn = "[Event \"a\"]\n[Result \"1-0\"]\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 1-0\n";
    let from_pgn = book_from_record("game.pgn", pgn.as_bytes());
    let from_line = book_from_record("games.txt", format!("{} 1-0\n", moves.join(" ")).as_bytes());
    let from_cbr = book_from_record("game.cbr", &ccbridge_game(&moves, 1));
    assert_eq!(from_pgn.to_bytes(), from_line.to_bytes());
    assert_eq!(from_pgn.to_bytes(), from_cbr.to_bytes());
    // Four plies, the start being symmetric: h2e2 and its mirror b2e2 at the start.
    assert_eq!(from_line.move_count(), 5);
    let won = Some(Wdl {
        wins: 1,
        draws: 0,
        losses: 0,
    });
    let at_start = from_cbr.probe(&Position::startpos());
    assert!(
        at_start.iter().any(|b| b.mv == mv("h2e2") && b.wdl == won),
        "{at_start:?}"
    );
    let lost = from_pgn.probe(&play(&["h2e2"]));
    assert_eq!(lost.len(), 1);
    assert_eq!((lost[0].mv, lost[0].wdl.unwrap().losses), (mv("h9g7"), 1));
}

#[test]
fn a_bad_move_list_line_reports_its_line_number() {
    use chuhan_engine::core::Validation;
    use chuhan_engine::notation::Warning;
    use chuhan_engine::notation::record::{Place, RecordError, read_items};
    let text = "# three games\nh2e2 h9g7 1-0\n\nh2e2 zz 1-0\nh2e2 h2h3 0-1\n";
    let items = read_items(
        text.as_bytes(),
        Some(std::path::Path::new("g.txt")),
        Validation::Lenient,
    );
    let places: Vec<Place> = items.iter().map(|i| i.place).collect();
    assert_eq!(places, [Place::Line(2), Place::Line(4), Place::Line(5)]);
    assert_eq!(format!("g.txt{}", items[1].place), "g.txt:4");
    let err = items[1].game.as_ref().unwrap_err();
    assert!(matches!(err, RecordError::MoveList(_)), "{err:?}");
    assert!(err.to_string().contains("move 2"), "{err}");
    // A move that cannot be played: the line is kept up to it, with a warning.
    let kept = items[2].game.as_ref().unwrap();
    assert_eq!(kept.ply_count(), 1);
    assert!(matches!(
        kept.warnings[..],
        [Warning::BadMove { ply: 2, .. }]
    ));
    // The same file as PGN numbers its games instead.
    let pgn = "[Event \"a\"]\n1. h2e2 *\n\n[Event \"b\"]\n1. h2e2 {never closed *\n";
    let items = read_items(pgn.as_bytes(), None, Validation::Lenient);
    assert_eq!(items[1].place, Place::Game(2));
    assert_eq!(items[1].place.to_string(), " (game 2)");
    assert!(items[1].game.is_err());
}

// The generator.
// ---------------------------------------------------------------------------

#[test]
fn generated_books_follow_the_searches_and_do_not_depend_on_threads() {
    use chuhan_arena::book_generator::{GenerateOptions, generate, weight};
    let options = GenerateOptions {
        plies: 3,
        depth: 3,
        deep_plies: 0,
        deep_depth: 3,
        width: 2,
        margin: 40,
        max_positions: None,
        threads: 1,
        hash_mb: 1,
    };
    let start = Position::startpos();
    let mut calls = 0;
    let one = generate(&start, &options, |_| calls += 1).unwrap();
    assert_eq!(calls, one.searched);
    let two = generate(
        &start,
        &GenerateOptions {
            threads: 2,
            ..options
        },
        |_| {},
    )
    .unwrap();
    assert_eq!(one.book.to_bytes(), two.book.to_bytes());
    let book = Book::from_bytes(&one.book.to_bytes()).unwrap();
    // Every searched position is in the book, at most `width` different replies
    // each (a move and its mirror image are one reply in the start position), the
    // best weighing 1000 and none more than the margin below it.
    assert_eq!(one.book.position_count(), one.searched);
    assert_eq!(one.plies_reached, 3);
    let at_start = book.probe(&start);
    assert_eq!(at_start[0].weight, weight(0));
    let mut children = std::collections::HashSet::new();
    for b in &at_start {
        assert!(b.weight >= weight(40) && b.weight <= 1000, "{at_start:?}");
        let mut p = start.clone();
        p.make_move(b.mv);
        children.insert(fold(&p).key);
    }
    assert!(children.len() <= 2, "{at_start:?}");
    // A budget keeps the first positions only.
    let few = generate(
        &start,
        &GenerateOptions {
            max_positions: Some(3),
            ..options
        },
        |_| {},
    )
    .unwrap();
    assert_eq!((few.searched, few.book.position_count()), (3, 3));
    assert!(
        generate(
            &start,
            &GenerateOptions {
                width: 0,
                ..options
            },
            |_| {}
        )
        .is_err()
    );
}

#[test]
fn the_first_plies_can_be_searched_deeper() {
    use chuhan_arena::book_generator::{GenerateOptions, generate};
    let shallow = GenerateOptions {
        plies: 2,
        depth: 1,
        width: 3,
        margin: 400,
        ..GenerateOptions::default()
    };
    let deep_start = GenerateOptions {
        deep_plies: 1,
        deep_depth: 5,
        ..shallow
    };
    let start = Position::startpos();
    let moves = |options: &GenerateOptions| {
        let g = generate(&start, options, |_| {}).unwrap();
        let book = Book::from_bytes(&g.book.to_bytes()).unwrap();
        (book.probe(&start), g.nodes)
    };
    // The start position is searched to depth 5: its moves are those of a
    // one-ply book at depth 5, and differ from a depth-1 search's.
    let (deep, deep_nodes) = moves(&deep_start);
    let (five, _) = moves(&GenerateOptions {
        plies: 1,
        depth: 5,
        ..shallow
    });
    let (one, one_nodes) = moves(&shallow);
    assert_eq!(deep, five);
    assert_ne!(deep, one);
    assert!(deep_nodes > one_nodes, "{deep_nodes} vs {one_nodes}");
    // A deep depth outside the search's range is refused.
    assert!(
        generate(
            &start,
            &GenerateOptions {
                deep_depth: 0,
                ..deep_start
            },
            |_| {}
        )
        .is_err()
    );
}

#[test]
fn cli_generate_plan_units_and_merge_build_the_local_book() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("chuhan-book-units-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // The first ply deeper: the units search it to that depth too.
    let settings = [
        "book",
        "generate",
        "--plies",
        "3",
        "--depth",
        "2",
        "--deep-plies",
        "1",
        "--deep-depth",
        "3",
        "--width",
        "2",
        "--hash",
        "1",
    ];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        settings.iter().chain(extra).copied().collect()
    };
    let (code, local, err) = run(&with(&["--out", "local.bin"]));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        local.contains("to depth 2 (3 in the first 1 ply) over 3 plies"),
        "{local}"
    );
    let (code, made, err) = run(&with(&["--plan", "plan.json", "--positions-per-unit", "1"]));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        made.contains("ply 0 of 3: 1 position, units of up to 1 positions"),
        "{made}"
    );
    // Units go to `units/`, which keeps a copy of the plan; each merge either
    // names the ply to search next (status 3) or writes the book.
    let mut plan = "plan.json".to_string();
    let mut rounds = 0;
    let merged = loop {
        let units: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(&plan)).unwrap()).unwrap();
        // Out of order, and the last one twice: it counts once.
        let n = units["units"].as_array().unwrap().len();
        for k in (0..n).rev().chain([n - 1]) {
            let (code, out, err) = run(&[
                "book",
                "generate",
                "--unit",
                &plan,
                &k.to_string(),
                "--out",
                "units",
            ]);
            assert_eq!(code, Some(0), "{err}");
            assert!(out.contains(&format!("unit {k} of ply {rounds}")), "{out}");
        }
        let (code, out, err) = run(&[
            "book",
            "generate",
            "--merge",
            "units",
            "--out",
            "merged.bin",
        ]);
        rounds += 1;
        match code {
            Some(3) => {
                assert!(
                    out.starts_with(&format!("units/next.json: ply {rounds} of 3: ")),
                    "{out}"
                );
                plan = "units/next.json".into();
            }
            Some(0) => break out,
            _ => panic!("{out}{err}"),
        }
    };
    assert_eq!(rounds, 3);
    assert!(!dir.join("units/next.json").exists());
    assert_eq!(
        std::fs::read(dir.join("merged.bin")).unwrap(),
        std::fs::read(dir.join("local.bin")).unwrap()
    );
    // The same line as the local run, less its time.
    let local = local.trim_end();
    assert_eq!(
        merged.trim_end().replace("merged.bin", "local.bin"),
        local[..local.rfind(", ").unwrap()]
    );
    // A unit of another generation is refused in that directory.
    let (code, _, err) = run(&[
        "book",
        "generate",
        "--plies",
        "2",
        "--depth",
        "2",
        "--plan",
        "other.json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(&[
        "book",
        "generate",
        "--unit",
        "other.json",
        "0",
        "--out",
        "units",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("holds book run"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `chuhan book dump BOOK | head` ends as Unix tools do when the reader goes away:
/// no panic and no error message about the broken pipe, just the end of the dump.
#[cfg(unix)]
#[test]
fn cli_dump_into_a_closed_pipe_ends_quietly() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    const SIGPIPE: i32 = 13; // the same number on Linux, the BSDs and macOS
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(["book", "dump", "books/chuhan.book"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("# Chuhan opening book"), "{first}");
    // The reader is gone; the shipped book's dump (over 2 MB) is far more than a
    // pipe holds, so the tool meets the closed pipe.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "stderr: {stderr}");
    assert!(
        out.status.success() || out.status.signal() == Some(SIGPIPE),
        "{:?}",
        out.status
    );
}
