//! PGN: hand-written files in each move notation, a real game (move text of the
//! public xqbase sample, simplified Chinese), write-then-read of random games with
//! comments and variations in every notation and in GBK, several games per file,
//! error reports and recovery, and robustness on arbitrary and truncated input.

use chuhan_engine::core::{Color, GameResult, Position, SplitMix64};
use chuhan_engine::notation::pgn::{self, PgnErrorKind, WriteOptions};
use chuhan_engine::notation::{
    Game, IccsStyle, Line, MoveErrorKind, Node, Notation, Script, charset, record,
};
use proptest::prelude::*;

fn moves(g: &Game) -> Vec<String> {
    g.moves().iter().map(|m| m.to_string()).collect()
}

#[test]
fn the_three_move_formats() {
    let iccs = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n1. H2-E2 H9-G7\n2. H0-G2 I9-H9 *\n";
    let wxf = "[Game \"Chinese Chess\"]\n[Format \"WXF\"]\n1. C2.5 H8+7 2. H2+3 R9.8 *\n";
    let zh = "[Game \"Chinese Chess\"]\n1. 炮二平五 馬８進７\n2. 馬二進三 車９平８\n*\n";
    let zh_hans = "1.炮二平五 马８进７ 2.马二进三 车９平８";
    let expected = ["h2e2", "h9g7", "h0g2", "i9h9"];
    for text in [iccs, wxf, zh, zh_hans] {
        let games = pgn::read(text).unwrap();
        assert_eq!(games.len(), 1, "{text}");
        assert_eq!(moves(&games[0]), expected, "{text}");
        assert_eq!(games[0].result, None);
    }
}

/// The move text of xqbase's `XQFTOOLS/SAMPLE.PGN` (许银川 v 聂卫平, 1999, a
/// nine-piece handicap), laid out as ElephantEye writes it: simplified characters,
/// padded numbers, Black's move on its own numbered line after a comment, 前马/后马.
const HANDICAP: &str = r#"[Game "Chinese Chess"]
[Event "许银川让九子对聂棋圣"]
[Date "1999.12.09"]
[Site "广州"]
[Red "许银川"]
[Black "聂卫平"]
[Result "1-0"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1"]
{Red gives odds of five pawns, both advisors and both elephants.}
  1. 炮八平五 炮８平５
  2. 炮五进五 象７进５
  3. 炮二平五
{A test comment after Red's move.}
  3.          马８进７
  4. 马二进三 车９平８
  5. 马八进七 马２进１
  6. 车九平六 车１平２
  7. 车六进八 炮２进７
  8. 车一进四 炮２平１
  9. 马七进八 炮１退４
 10. 马八退七 炮１进４
 11. 马七进八 车２进２
 12. 炮五平八 炮１退４
 13. 炮八进五 炮１平９
 14. 炮八平三 车８进２
 15. 炮三进一 车８进２
 16. 马八进六 炮９平５
 17. 炮三平一 士６进５
 18. 马六进四 车８平５
 19. 帅五平六 车５平６
 20. 马四进三 将５平６
 21. 车六退四 卒５进１
 22. 车六进二 炮５平７
 23. 前马退二 象５进７
 24. 马二退三 卒５进１
 25. 车六平三 卒５平６
 26. 车三进三 将６进１
 27. 后马进二 士５进６
 28. 马二进三 将６平５
 29. 前马进二 将５进１
 30. 车三平六 士６退５
 31. 马二退三 车６退１
 32. 车六退三 车６平７
 33. 车六平三 卒６平７
 34. 车三平五 将５平６
 35. 帅六平五 将６退１
 36. 车五进二 将６退１
 37. 车五进一 将６进１
 38. 车五平七
 1-0
"#;

#[test]
fn a_real_game_in_simplified_chinese() {
    let games = pgn::read(HANDICAP).unwrap();
    let g = &games[0];
    assert_eq!(g.ply_count(), 75);
    assert_eq!(g.result, Some(GameResult::RedWins));
    assert_eq!(g.tag("Red"), Some("许银川"));
    assert_eq!(g.tag("black"), Some("聂卫平"));
    assert_eq!(
        g.start_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1"
    );
    assert!(g.line.comment.as_deref().unwrap().contains("odds"));
    assert!(g.line.nodes[4].comment.is_some());
    assert_eq!(moves(g)[..4], ["b2e2", "h7e7", "e2e7", "g9e7"]);
    // 23. 前马退二: two red horses share file 三 (g); the front one moves.
    let p = g.position_at(44).unwrap();
    assert_eq!(p.side_to_move(), Color::Red);
    let horses: Vec<_> = p
        .pieces(Color::Red, chuhan_engine::core::PieceKind::Horse)
        .into_iter()
        .filter(|s| s.file().to_char() == 'g')
        .collect();
    assert_eq!(horses.len(), 2);
    let front = horses.iter().max_by_key(|s| s.rank()).unwrap();
    assert_eq!(g.moves()[44].from(), *front);
    assert_eq!(moves(g)[44], "g8h6");
    // Written in every notation and GBK, read back to the same game.
    for n in [
        Notation::Iccs(IccsStyle::Compact),
        Notation::Wxf,
        Notation::Chinese(Script::Traditional),
        Notation::Chinese(Script::Simplified),
    ] {
        let opts = WriteOptions {
            notation: n,
            ..WriteOptions::default()
        };
        let text = pgn::write(g, &opts).unwrap();
        assert_eq!(&pgn::read(&text).unwrap()[0], g, "{n}\n{text}");
        let gbk = charset::encode_gbk(&text);
        let (decoded, cs) = charset::decode(&gbk);
        assert_eq!(cs, charset::Charset::Gbk);
        assert_eq!(&pgn::read(&decoded).unwrap()[0], g);
        assert_eq!(&record::read(&gbk).unwrap()[0], g);
    }
}

#[test]
fn gbk_bytes_of_a_hand_written_file() {
    let text = "[Game \"Chinese Chess\"]\n[Red \"许银川\"]\n1. 炮二平五 马８进７ *\n";
    let bytes = charset::encode_gbk(text);
    assert!(std::str::from_utf8(&bytes).is_err());
    let games = record::read(&bytes).unwrap();
    assert_eq!(games[0].tag("Red"), Some("许银川"));
    assert_eq!(moves(&games[0]), ["h2e2", "h9g7"]);
}

#[test]
fn comments_and_variations_are_kept() {
    let text = "{before} 1. 炮二平五 {centre cannon} 馬８進７ (1... 馬２進３ {other horse} 2. 兵七進一 (2. 馬二進三)) 2. 馬二進三 ; line comment\n車９平８ $1 3. 車一平二! *";
    let g = &pgn::read(text).unwrap()[0];
    assert_eq!(moves(g), ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]);
    assert_eq!(g.line.comment.as_deref(), Some("before"));
    assert_eq!(g.line.nodes[0].comment.as_deref(), Some("centre cannon"));
    let var = &g.line.nodes[1].variations;
    assert_eq!(var.len(), 1);
    assert_eq!(var[0].moves().len(), 2);
    assert_eq!(var[0].nodes[0].mv.to_string(), "b9c7");
    assert_eq!(var[0].nodes[0].comment.as_deref(), Some("other horse"));
    assert_eq!(
        var[0].nodes[1].variations[0].nodes[0].mv.to_string(),
        "h0g2"
    );
    assert_eq!(g.line.nodes[2].comment.as_deref(), Some("line comment"));
    // Written without them, only the main line is left.
    let bare = pgn::write(
        g,
        &WriteOptions {
            comments: false,
            variations: false,
            ..WriteOptions::default()
        },
    )
    .unwrap();
    assert!(!bare.contains('{') && !bare.contains('('));
    assert_eq!(moves(&pgn::read(&bare).unwrap()[0]), moves(g));
    let full = pgn::write(g, &WriteOptions::default()).unwrap();
    assert_eq!(&pgn::read(&full).unwrap()[0], g, "{full}");
}

#[test]
fn several_games_and_black_to_move_starts() {
    let text = r#"[Game "Chinese Chess"]
[Event "One"]
[Result "1-0"]
1. 炮二平五 馬８進７ 1-0

[Game "Chinese Chess"]
[Event "Two \"quoted\" \\ back"]
[FEN "4k4/9/9/9/9/4p4/4p4/9/9/3K5 b - - 0 30"]
30... 前卒平４ 31. 帥六平五 1/2-1/2
[Game "Chinese Chess"]
[Event "Three"]
1. h2e2 *
"#;
    let games = pgn::read(text).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].result, Some(GameResult::RedWins));
    assert_eq!(games[1].tag("Event"), Some("Two \"quoted\" \\ back"));
    assert_eq!(moves(&games[1]), ["e3d3", "d0e0"]);
    assert_eq!(games[1].result, Some(GameResult::Draw));
    assert_eq!(moves(&games[2]), ["h2e2"]);
    let out = pgn::write_all(&games, &WriteOptions::default()).unwrap();
    assert!(out.contains("30... 前卒平４"), "{out}");
    assert_eq!(pgn::read(&out).unwrap(), games);
}

#[test]
fn errors_name_game_line_and_move() {
    let bad_move = "[Game \"Chinese Chess\"]\n1. 炮二平五 馬８進７\n2. 炮五進五 車９平８ *\n";
    let e = pgn::read(bad_move).unwrap_err();
    assert_eq!((e.game, e.line), (1, 3));
    match &e.kind {
        PgnErrorKind::BadMove {
            fullmove,
            side,
            error,
        } => {
            assert_eq!((*fullmove, *side), (2, Color::Red));
            assert!(matches!(error.kind, MoveErrorKind::Unreachable { .. }));
        }
        k => panic!("{k:?}"),
    }
    assert!(e.to_string().contains("move 2 (red)"), "{e}");
    type Check = fn(&PgnErrorKind) -> bool;
    let cases: [(&str, Check); 6] = [
        ("[FEN \"9/9 w\"]\n1. h2e2 *", |k| {
            matches!(k, PgnErrorKind::BadFen(_))
        }),
        ("1. h2e2 {never closed", |k| {
            matches!(k, PgnErrorKind::UnclosedComment)
        }),
        ("1. h2e2 (1. h2e2 *", |k| {
            matches!(k, PgnErrorKind::UnbalancedVariation)
        }),
        ("1. h2e2 ) *", |k| {
            matches!(k, PgnErrorKind::UnbalancedVariation)
        }),
        ("(1. h2e2) *", |k| {
            matches!(k, PgnErrorKind::VariationWithoutMove)
        }),
        ("[Event \"x\n1. h2e2 *", |k| {
            matches!(k, PgnErrorKind::BadTag)
        }),
    ];
    for (text, ok) in cases {
        let e = pgn::read(text).unwrap_err();
        assert!(ok(&e.kind), "{text}: {e:?}");
    }
    let deep = format!("1. h2e2 {}", "(1. h2e2 ".repeat(100));
    assert_eq!(pgn::read(&deep).unwrap_err().kind, PgnErrorKind::TooDeep);
    assert_eq!(pgn::read("").unwrap_err().kind, PgnErrorKind::NoGame);
}

#[test]
fn a_broken_game_does_not_stop_the_others() {
    let text = "[Event \"a\"]\n1. h2e2 *\n\n[Event \"b\"]\n[FEN \"bad\"]\n1. h2e2 *\n\n[Event \"c\"]\n1. 炮二平五 炮二平五 炮二平五 *\n\n[Event \"d\"]\n1. C2.5 *\n";
    let all = pgn::read_all(text);
    assert_eq!(all.len(), 4);
    assert!(all[0].is_ok() && all[1].is_err() && all[2].is_err() && all[3].is_ok());
    assert_eq!(all[1].as_ref().unwrap_err().game, 2);
    assert_eq!(all[2].as_ref().unwrap_err().line, 9);
    assert_eq!(all[3].as_ref().unwrap().tag("Event"), Some("d"));
}

/// A random line of up to `len` moves from `pos`, with random comments and
/// variations (nested up to `depth`).
fn random_line(rng: &mut SplitMix64, pos: &mut Position, len: usize, depth: usize) -> Line {
    let mut line = Line::default();
    if rng.below(8) == 0 {
        line.comment = Some(format!("c{} {{x}}", rng.below(100)).replace(['{', '}'], ""));
    }
    let mut made = 0;
    for _ in 0..len {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len())];
        let mut node = Node::new(mv);
        if rng.below(5) == 0 {
            node.comment = Some(format!("comment {} 注釋", rng.below(1000)));
        }
        if depth > 0 && rng.below(6) == 0 {
            for _ in 0..1 + rng.below(2) {
                let len = 1 + rng.below(5);
                let v = random_line(rng, pos, len, depth - 1);
                if !v.nodes.is_empty() {
                    node.variations.push(v);
                }
            }
        }
        pos.make_move(mv);
        made += 1;
        line.nodes.push(node);
    }
    for _ in 0..made {
        pos.unmake_move();
    }
    line
}

fn random_game(seed: u64) -> Game {
    let mut rng = SplitMix64::new(seed);
    let mut start = Position::startpos();
    for _ in 0..rng.below(12) {
        let legal = start.legal_moves();
        start.make_move(legal[rng.below(legal.len())]);
    }
    let mut g = Game::new(Position::from_fen(&start.to_fen()).unwrap());
    g.set_tag("Event", &format!("Random {seed}"));
    g.set_tag("Red", "紅方 \"R\"");
    let mut pos = g.start.clone();
    let len = 20 + rng.below(80);
    g.line = random_line(&mut rng, &mut pos, len, 3);
    g.result = [
        Some(GameResult::RedWins),
        Some(GameResult::BlackWins),
        Some(GameResult::Draw),
        None,
    ][rng.below(4)];
    g
}

#[test]
fn write_then_read_random_games_in_every_notation() {
    let games: Vec<Game> = (1..=60).map(|s| random_game(s * 7919)).collect();
    for n in [
        Notation::Iccs(IccsStyle::Compact),
        Notation::Iccs(IccsStyle::Dashed),
        Notation::Wxf,
        Notation::Chinese(Script::Traditional),
        Notation::Chinese(Script::Simplified),
    ] {
        let opts = WriteOptions {
            notation: n,
            ..WriteOptions::default()
        };
        let text = pgn::write_all(&games, &opts).unwrap();
        let back = pgn::read(&text).unwrap();
        assert_eq!(back.len(), games.len());
        for (a, b) in games.iter().zip(&back) {
            assert_eq!(a, b, "{n}");
        }
        let gbk = charset::encode_gbk(&text);
        assert_eq!(record::read(&gbk).unwrap(), games, "{n} via GBK");
    }
}

#[test]
fn every_prefix_of_a_file_reads_or_fails_cleanly() {
    let g = random_game(42);
    let text = pgn::write(&g, &WriteOptions::default()).unwrap();
    let chars: Vec<char> = text.chars().collect();
    for end in 0..=chars.len() {
        let prefix: String = chars[..end].iter().collect();
        // Whatever was read replays legally.
        for game in pgn::read_all(&prefix).into_iter().flatten() {
            let mut p = game.start.clone();
            for m in game.moves() {
                assert!(p.is_legal(m));
                p.make_move(m);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,300}") {
        let _ = pgn::read_all(&text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = record::read_all(&bytes);
    }

    #[test]
    fn move_lists_never_panic(
        text in "(position |startpos |fen |moves |[a-i][0-9][a-i][0-9] |[0-9]\\. |, |rnbakabnr/9 |w |- |[0-9] |# c\n|炮二平五 ){0,20}"
    ) {
        if let Ok(g) = chuhan_engine::notation::move_list::read(&text) {
            let mut p = g.start.clone();
            for m in g.moves() {
                prop_assert!(p.is_legal(m));
                p.make_move(m);
            }
        }
    }

    #[test]
    fn pgn_shaped_text_never_panics(
        text in "(\\[[A-Za-z]{1,6} \"[^\"\n]{0,8}\"\\]\n|[0-9]{1,2}\\.{1,3} |[({})] |炮二平五 |馬８進７ |h2e2 |C2\\.5 |1-0 |\\* |; x\n|\\$[0-9] ){0,30}"
    ) {
        for g in pgn::read_all(&text).into_iter().flatten() {
            let mut p = g.start.clone();
            for m in g.moves() {
                prop_assert!(p.is_legal(m));
                p.make_move(m);
            }
        }
    }
}

/// What xqbase appends to a downloaded game: a rule of `=` and its site's notice,
/// in GBK. It is skipped with a note, and the game is read.
#[test]
fn xqbase_footer_is_skipped_with_a_note() {
    use chuhan_engine::core::Validation;
    use chuhan_engine::notation::{Warning, charset, record};
    let text = "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n1. 炮二平五 馬８進７ 1-0\n\
                ======================\n欢迎访问《象棋百科全书网》 www.xqbase.com\n\
                [Game \"Chinese Chess\"]\n1. h2e2 *\n";
    let bytes = charset::encode_gbk(text);
    for validation in [Validation::Strict, Validation::Lenient] {
        let games = record::read_all_with(&bytes, validation);
        assert_eq!(games.len(), 2, "{validation:?}: {games:?}");
        let first = games[0].as_ref().unwrap();
        assert_eq!(first.ply_count(), 2);
        assert_eq!(
            first.warnings,
            [Warning::Skipped {
                line: 4,
                text: "======================".into()
            }]
        );
        assert_eq!(games[1].as_ref().unwrap().ply_count(), 1);
    }
    // Text before the first game is still read as a game, so that a broken first
    // move is reported as one.
    let games = pgn::read_all("h2e3 h9g7 *\n");
    assert!(games[0].is_err());
}

/// A lenient reading keeps a line up to a move that cannot be played, in the main
/// line and in a variation; a strict one refuses the game.
#[test]
fn bad_moves_keep_the_valid_prefix_when_lenient() {
    use chuhan_engine::core::Validation;
    use chuhan_engine::notation::Warning;
    let text = "1. h2e2 (1. c3c4 c6c5 2. c4c6 g6g5) h9g7 2. h0g2 i9i5 3. i0h0 *\n";
    assert!(pgn::read_all_with(text, Validation::Strict)[0].is_err());
    let games = pgn::read_all_with(text, Validation::Lenient);
    let g = games[0].as_ref().unwrap();
    let moves: Vec<String> = g.moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["h2e2", "h9g7", "h0g2"]);
    let var = &g.line.nodes[0].variations[0];
    assert_eq!(var.nodes.len(), 2, "the variation keeps c3c4 c6c5");
    assert!(matches!(
        g.warnings[..],
        [
            Warning::BadMove {
                ply: 3,
                variation: true,
                ..
            },
            Warning::BadMove {
                ply: 4,
                variation: false,
                ..
            }
        ]
    ));
    // A variation whose first move is bad is dropped, the game goes on.
    let games = pgn::read_all_with("1. h2e2 (1. h2h8) h9g7 *", Validation::Lenient);
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.ply_count(), 2);
    assert!(g.line.nodes[0].variations.is_empty());
    // A composed [FEN] is kept with a note, refused when strict.
    let composed = "[FEN \"4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 0 1\"]\n1. e1e2 *\n";
    assert!(pgn::read_all_with(composed, Validation::Strict)[0].is_err());
    let games = pgn::read_all_with(composed, Validation::Lenient);
    let g = games[0].as_ref().unwrap();
    assert!(matches!(g.warnings[..], [Warning::Position(_)]));
}
