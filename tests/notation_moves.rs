//! Move notations: hand-written fixtures from the rules' conventions, round trips
//! over every legal move of many positions (random playouts and random setups rich
//! in pieces sharing a file), uniqueness of formatted text, error kinds, and parser
//! robustness on arbitrary input.

use chuhan_engine::core::{Color, Move, Piece, PieceKind, Position, Setup, SplitMix64, Square};
use chuhan_engine::notation::{
    self, IccsStyle, MoveErrorKind, Notation, Script, chinese, iccs, parse_move, wxf,
};
use proptest::prelude::*;
use std::collections::HashSet;

const TRAD: Notation = Notation::Chinese(Script::Traditional);
const SIMP: Notation = Notation::Chinese(Script::Simplified);
const ALL: [Notation; 5] = [
    Notation::Iccs(IccsStyle::Compact),
    Notation::Iccs(IccsStyle::Dashed),
    Notation::Wxf,
    TRAD,
    SIMP,
];

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn after(moves: &[&str]) -> Position {
    let mut p = Position::startpos();
    for m in moves {
        p.make_move(m.parse().unwrap());
    }
    p
}

/// `(text, iccs)` pairs: each text parses to the move, and the move formats to the
/// text in the notation given.
fn check(p: &Position, cases: &[(Notation, &str, &str)]) {
    for &(n, text, mv) in cases {
        let m: Move = mv.parse().unwrap();
        assert_eq!(
            n.parse(p, text).map(|m| m.to_string()),
            Ok(mv.to_string()),
            "{n} {text} in {}",
            p.to_fen()
        );
        assert_eq!(parse_move(p, text), Ok(m), "auto-detect {text}");
        assert_eq!(n.format(p, m).as_deref(), Ok(text), "{n} format {mv}");
    }
}

#[test]
fn opening_fixtures() {
    let start = Position::startpos();
    check(
        &start,
        &[
            (TRAD, "炮二平五", "h2e2"),
            (SIMP, "炮二平五", "h2e2"),
            (Notation::Wxf, "C2.5", "h2e2"),
            (Notation::Iccs(IccsStyle::Dashed), "H2-E2", "h2e2"),
            (TRAD, "馬二進三", "h0g2"),
            (SIMP, "马二进三", "h0g2"),
            (Notation::Wxf, "H2+3", "h0g2"),
            (TRAD, "炮八平五", "b2e2"),
            (TRAD, "相三進五", "g0e2"),
            (Notation::Wxf, "E3+5", "g0e2"),
            (TRAD, "兵七進一", "c3c4"),
            (Notation::Wxf, "P7+1", "c3c4"),
            (TRAD, "車一進一", "i0i1"),
            (TRAD, "炮二進七", "h2h9"),
            (Notation::Wxf, "C2+7", "h2h9"),
            (TRAD, "帥五進一", "e0e1"),
            (Notation::Wxf, "K5+1", "e0e1"),
            (TRAD, "仕四進五", "f0e1"),
            (Notation::Wxf, "A4+5", "f0e1"),
        ],
    );
    let b = after(&["h2e2"]);
    check(
        &b,
        &[
            (TRAD, "馬８進７", "h9g7"),
            (SIMP, "马８进７", "h9g7"),
            (Notation::Wxf, "H8+7", "h9g7"),
            (TRAD, "炮８平５", "h7e7"),
            (Notation::Wxf, "C8.5", "h7e7"),
            (TRAD, "馬２進３", "b9c7"),
            (TRAD, "士４進５", "d9e8"),
            (Notation::Wxf, "A4+5", "d9e8"),
            (TRAD, "卒３進１", "c6c5"),
            (TRAD, "象３進５", "c9e7"),
        ],
    );
    let rook = after(&["h2e2", "h9g7", "h0g2"]);
    check(
        &rook,
        &[
            (TRAD, "車９平８", "i9h9"),
            (SIMP, "车９平８", "i9h9"),
            (Notation::Wxf, "R9.8", "i9h9"),
        ],
    );
    let c = after(&["h2e2", "h9g7"]);
    check(
        &c,
        &[
            (TRAD, "炮五進四", "e2e6"),
            (Notation::Wxf, "C5+4", "e2e6"),
            (SIMP, "炮五进四", "e2e6"),
        ],
    );
}

#[test]
fn variant_characters_and_digits_are_read() {
    let p = after(&["h2e2"]);
    for text in [
        "馬８進７",
        "马８进７",
        "馬8進7",
        "马 8 进 7",
        "傌８進７",
        "馬八進七",
        "Ｈ８＋７",
        "h8+7",
        "N8+7",
        "H8+7",
    ] {
        assert_eq!(parse_move(&p, text), Ok("h9g7".parse().unwrap()), "{text}");
    }
    for text in ["砲８平５", "包８平５", "炮8平5", "C8=5", "C8.5", "C85"] {
        assert_eq!(parse_move(&p, text), Ok("h7e7".parse().unwrap()), "{text}");
    }
    let start = Position::startpos();
    for text in ["俥九進一", "車九进一", "车9进1", "R9+1", "r9+1"] {
        assert_eq!(
            parse_move(&start, text),
            Ok("a0a1".parse().unwrap()),
            "{text}"
        );
    }
    for text in ["帥五進一", "帅五进一", "將五進一"] {
        assert_eq!(
            parse_move(&start, text),
            Ok("e0e1".parse().unwrap()),
            "{text}"
        );
    }
}

#[test]
fn front_and_rear_pieces() {
    // Red cannons on e6 (front) and e2 (rear); Black horse already on g7.
    let p = pos("rnbakab1r/9/1c4nc1/p1p1C1p1p/9/9/P1P1P1P1P/4C4/9/RNBAKABNR w");
    check(
        &p,
        &[
            (TRAD, "前炮退二", "e6e4"),
            (SIMP, "前炮退二", "e6e4"),
            (Notation::Wxf, "C+-2", "e6e4"),
            (TRAD, "後炮平六", "e2d2"),
            (TRAD, "後炮平四", "e2f2"),
            (SIMP, "后炮平四", "e2f2"),
            (Notation::Wxf, "C-.4", "e2f2"),
            (TRAD, "前炮平四", "e6f6"),
        ],
    );
    for text in ["炮前退二", "+C-2", "C+-2"] {
        assert_eq!(parse_move(&p, text), Ok("e6e4".parse().unwrap()), "{text}");
    }
    // Two red horses on file 三 (g2 and g4): 前馬 is g4.
    let h = pos("3k5/9/9/9/9/6N2/9/6N2/9/4K4 w");
    check(
        &h,
        &[
            (TRAD, "前馬進二", "g4h6"),
            (Notation::Wxf, "H++2", "g4h6"),
            (TRAD, "後馬進四", "g2f4"),
            (Notation::Wxf, "H-+4", "g2f4"),
            (TRAD, "後馬退一", "g2i1"),
        ],
    );
    // Two black rooks on file 1 (a9 and a5): front = a5 for Black.
    let r = pos("r3k4/9/9/9/r8/9/9/9/9/3K5 b");
    check(
        &r,
        &[
            (TRAD, "前車進１", "a5a4"),
            (Notation::Wxf, "R++1", "a5a4"),
            (TRAD, "後車平２", "a9b9"),
            (Notation::Wxf, "R-.2", "a9b9"),
        ],
    );
}

#[test]
fn advisors_and_elephants_on_one_file_keep_their_file() {
    // Red advisors on d0 and d2 (file 六), elephants on c0 and c4 (file 七).
    let q = pos("3k5/9/9/9/9/2B6/9/3A5/9/2BA1K3 w");
    check(
        &q,
        &[
            (TRAD, "仕六進五", "d0e1"),
            (TRAD, "仕六退五", "d2e1"),
            (Notation::Wxf, "A6+5", "d0e1"),
            (Notation::Wxf, "A6-5", "d2e1"),
            (TRAD, "相七進五", "c0e2"),
            (TRAD, "相七退五", "c4e2"),
            (TRAD, "相七退九", "c4a2"),
            (Notation::Wxf, "E7-9", "c4a2"),
        ],
    );
}

#[test]
fn tandem_pawns() {
    // Red pawns c5, c6 (file 七) and a lone e3.
    let two = pos("3k5/9/9/2P6/2P6/9/4P4/9/9/4K4 w");
    check(
        &two,
        &[
            (TRAD, "前兵進一", "c6c7"),
            (Notation::Wxf, "P++1", "c6c7"),
            (TRAD, "後兵平八", "c5b5"),
            (Notation::Wxf, "P-.8", "c5b5"),
            (TRAD, "兵五進一", "e3e4"),
            (Notation::Wxf, "P5+1", "e3e4"),
        ],
    );
    // Three on the e-file (e5, e6, e7): 前/中/後, WXF P+ / P5 / P-.
    let three = pos("3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w");
    check(
        &three,
        &[
            (TRAD, "前兵進一", "e7e8"),
            (Notation::Wxf, "P++1", "e7e8"),
            (TRAD, "中兵平四", "e6f6"),
            (Notation::Wxf, "P5.4", "e6f6"),
            (TRAD, "後兵平六", "e5d5"),
            (Notation::Wxf, "P-.6", "e5d5"),
        ],
    );
    // Doubled on two files: g5, g6 (file 三) and c5, c6 (file 七): joint numbering
    // from the mover's right in Chinese, file-digit form in WXF.
    let two_files = pos("3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w");
    check(
        &two_files,
        &[
            (TRAD, "一兵進一", "g6g7"),
            (Notation::Wxf, "3++1", "g6g7"),
            (TRAD, "二兵平二", "g5h5"),
            (Notation::Wxf, "3-.2", "g5h5"),
            (TRAD, "三兵平六", "c6d6"),
            (Notation::Wxf, "7+.6", "c6d6"),
            (TRAD, "四兵平八", "c5b5"),
            (Notation::Wxf, "7-.8", "c5b5"),
        ],
    );
    // Tolerant: 前兵三 / 後兵七 name the file explicitly.
    assert_eq!(
        parse_move(&two_files, "前兵三進一"),
        Ok("g6g7".parse().unwrap())
    );
    assert_eq!(
        parse_move(&two_files, "後兵七平八"),
        Ok("c5b5".parse().unwrap())
    );
    // 前兵進一 fits both files' front pawns: ambiguous, and says which moves.
    let err = parse_move(&two_files, "前兵進一").unwrap_err();
    assert!(matches!(err.kind, MoveErrorKind::Ambiguous(ref v) if v.len() == 2));
    // Five on file 七 (c5..c9): 一…五, WXF ++ P+ P7 P- --.
    let five = pos("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w");
    check(
        &five,
        &[
            (TRAD, "一兵平八", "c9b9"),
            (Notation::Wxf, "++.8", "c9b9"),
            (TRAD, "二兵平八", "c8b8"),
            (Notation::Wxf, "P+.8", "c8b8"),
            (TRAD, "三兵平六", "c7d7"),
            (Notation::Wxf, "P7.6", "c7d7"),
            (TRAD, "四兵平八", "c6b6"),
            (Notation::Wxf, "P-.8", "c6b6"),
            (TRAD, "五兵平八", "c5b5"),
            (Notation::Wxf, "--.8", "c5b5"),
        ],
    );
    // Black pawns doubled on the e-file (e3 front, e4 rear), full-width digits.
    let black = pos("4k4/9/9/9/9/4p4/4p4/9/9/3K5 b");
    check(
        &black,
        &[
            (TRAD, "前卒平４", "e3d3"),
            (Notation::Wxf, "P+.4", "e3d3"),
            (TRAD, "後卒平６", "e4f4"),
            (Notation::Wxf, "P-.6", "e4f4"),
            (TRAD, "前卒進１", "e3e2"),
        ],
    );
}

#[test]
fn errors_name_why() {
    let start = Position::startpos();
    let kind = |p: &Position, t: &str| parse_move(p, t).unwrap_err().kind;
    assert!(matches!(
        kind(&start, "炮二進八"),
        MoveErrorKind::Unreachable { to: None, .. }
    ));
    assert!(matches!(
        kind(&start, "車一平二"),
        MoveErrorKind::Unreachable {
            to: Some(Square::H0),
            ..
        }
    ));
    assert!(matches!(
        kind(&start, "車五平四"),
        MoveErrorKind::NoSuchPiece { .. }
    ));
    assert!(matches!(
        kind(&start, "前炮平五"),
        MoveErrorKind::NoSuchPiece { .. }
    ));
    assert!(matches!(kind(&start, "炮二平"), MoveErrorKind::Syntax(_)));
    assert!(matches!(kind(&start, "炮二跳五"), MoveErrorKind::Syntax(_)));
    assert!(matches!(kind(&start, "C2*5"), MoveErrorKind::Syntax(_)));
    assert!(matches!(kind(&start, "X2.5"), MoveErrorKind::Syntax(_)));
    assert!(matches!(kind(&start, ""), MoveErrorKind::Empty));
    assert!(matches!(
        kind(&start, "e5e6"),
        MoveErrorKind::NoPieceOn(Square::E5)
    ));
    assert!(matches!(
        kind(&start, "h9g7"),
        MoveErrorKind::NotYourPiece { .. }
    ));
    assert!(matches!(
        kind(&start, "H2+5"),
        MoveErrorKind::Unreachable { to: None, .. }
    ));
    assert!(matches!(
        kind(&start, "H2+4"),
        MoveErrorKind::Unreachable {
            to: Some(Square::F1),
            ..
        }
    ));
    // A pinned rook: moving it off the file exposes the king to the black rook.
    let pinned = pos("3kr4/9/9/9/9/9/9/4R4/9/4K4 w");
    assert!(matches!(
        kind(&pinned, "車五平四"),
        MoveErrorKind::SelfCheck(_)
    ));
    assert!(matches!(kind(&pinned, "e2f2"), MoveErrorKind::SelfCheck(_)));
    // Messages carry the text and the reason.
    let msg = parse_move(&start, "車五平四").unwrap_err().to_string();
    assert!(msg.contains("車五平四") && msg.contains("red rook") && msg.contains("file 5"));
    // Formatting refuses illegal moves instead of inventing text.
    let bad: Move = "e5e6".parse().unwrap();
    for n in ALL {
        assert!(n.format(&start, bad).is_err());
    }
}

/// Every legal move of `p` formats to unique text in each notation, and that text
/// reads back (in its notation and auto-detected) to the same move.
fn round_trip(p: &Position) -> usize {
    let moves = p.legal_moves();
    for n in ALL {
        let mut seen = HashSet::new();
        for &m in moves.iter() {
            let text = n
                .format(p, m)
                .unwrap_or_else(|e| panic!("{n} {m} in {}: {e}", p.to_fen()));
            assert_eq!(
                n.parse(p, &text),
                Ok(m),
                "{n}: {m} -> {text} in {}",
                p.to_fen()
            );
            assert_eq!(parse_move(p, &text), Ok(m), "auto {text} in {}", p.to_fen());
            assert!(
                seen.insert(text.clone()),
                "{n}: {text} written for two moves in {}",
                p.to_fen()
            );
        }
    }
    // The two Chinese scripts differ only in characters, never in meaning.
    for &m in moves.iter() {
        let t = chinese::format(p, m, Script::Traditional).unwrap();
        assert_eq!(chinese::parse(p, &t), Ok(m));
        let w = wxf::format(p, m).unwrap();
        assert_eq!(wxf::parse(p, &w), Ok(m));
        assert_eq!(iccs::parse(p, &m.to_string()), Ok(m));
    }
    moves.len()
}

fn playouts(games: usize, max_plies: usize, seed: u64) -> (usize, usize) {
    let mut rng = SplitMix64::new(seed);
    let (mut positions, mut moves) = (0, 0);
    for _ in 0..games {
        let mut p = Position::startpos();
        for _ in 0..max_plies {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            moves += round_trip(&p);
            positions += 1;
            let m = legal[rng.below(legal.len())];
            p.make_move(m);
        }
    }
    (positions, moves)
}

#[test]
fn round_trips_over_random_playouts() {
    let (positions, moves) = playouts(40, 160, 0x9E37_79B9_7F4A_7C15);
    assert!(positions > 3000, "{positions}");
    assert!(moves > 60_000, "{moves}");
}

#[test]
#[ignore = "slow: 1000 playouts"]
fn round_trips_over_many_random_playouts() {
    let (positions, _) = playouts(1000, 200, 12345);
    assert!(positions > 50_000);
}

/// Random legal positions crowded with pieces sharing files: pawns stacked on two
/// or three files, doubled rooks, horses and cannons, both sides to move.
fn crowded(rng: &mut SplitMix64) -> Option<Position> {
    let mut board = [None; 90];
    fn put(board: &mut [Option<Piece>; 90], sq: Square, p: Piece) {
        if board[sq.index()].is_none() {
            board[sq.index()] = Some(p);
        }
    }
    for color in Color::ALL {
        let home = |r: usize| if color == Color::Red { r } else { 9 - r };
        let palace: Vec<Square> = (0..3)
            .flat_map(|r| (3..6).map(move |f| (f, r)))
            .map(|(f, r)| Square::ALL[home(r) * 9 + f])
            .collect();
        put(
            &mut board,
            palace[rng.below(9)],
            Piece::new(color, PieceKind::King),
        );
        let files: Vec<usize> = (0..3).map(|_| rng.below(9)).collect();
        for _ in 0..rng.below(6) {
            let f = files[rng.below(files.len())];
            let r = home(5 + rng.below(5));
            put(
                &mut board,
                Square::ALL[r * 9 + f],
                Piece::new(color, PieceKind::Pawn),
            );
        }
        let f = rng.below(9);
        for kind in [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon] {
            let same_file = rng.below(2) == 0;
            for _ in 0..rng.below(3) {
                let file = if same_file { f } else { rng.below(9) };
                put(
                    &mut board,
                    Square::ALL[rng.below(10) * 9 + file],
                    Piece::new(color, kind),
                );
            }
        }
        for &(f, r) in [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)]
            .iter()
            .filter(|_| rng.below(3) == 0)
        {
            put(
                &mut board,
                Square::ALL[home(r) * 9 + f],
                Piece::new(color, PieceKind::Advisor),
            );
        }
        for &(f, r) in [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]
            .iter()
            .filter(|_| rng.below(4) == 0)
        {
            put(
                &mut board,
                Square::ALL[home(r) * 9 + f],
                Piece::new(color, PieceKind::Elephant),
            );
        }
    }
    let side = if rng.below(2) == 0 {
        Color::Red
    } else {
        Color::Black
    };
    Position::from_setup(&Setup {
        board,
        side,
        rule60: 0,
        fullmove: 1,
    })
    .ok()
}

#[test]
fn round_trips_over_crowded_positions() {
    let mut rng = SplitMix64::new(0xC0FF_EE00_1234_5678);
    let (mut found, mut tandem_pawn_files, mut three, mut four) = (0, 0, 0, 0);
    for _ in 0..20_000 {
        let Some(p) = crowded(&mut rng) else { continue };
        found += 1;
        round_trip(&p);
        let us = p.side_to_move();
        let mut per_file = [0; 9];
        for s in p.pieces(us, PieceKind::Pawn) {
            per_file[s.file().index()] += 1;
        }
        if per_file.iter().filter(|&&c| c >= 2).count() >= 2 {
            tandem_pawn_files += 1;
        }
        three += usize::from(per_file.iter().any(|&c| c >= 3));
        four += usize::from(per_file.iter().any(|&c| c >= 4));
        if found >= 4000 {
            break;
        }
    }
    assert!(found >= 4000, "{found}");
    // The cases the tandem rules are about all occur many times.
    assert!(tandem_pawn_files > 100, "{tandem_pawn_files}");
    assert!(three > 100, "{three}");
    assert!(four > 30, "{four}");
    eprintln!(
        "crowded: {found} positions, {tandem_pawn_files} with two doubled files, {three} with 3+ on a file, {four} with 4+"
    );
}

fn any_position() -> impl Strategy<Value = Position> {
    any::<u64>().prop_map(|seed| {
        let mut rng = SplitMix64::new(seed);
        let mut p = Position::startpos();
        for _ in 0..rng.below(60) {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            p.make_move(legal[rng.below(legal.len())]);
        }
        p
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any text at all: an answer (move or error), never a panic; a move that comes
    /// back is legal.
    #[test]
    fn parsers_never_panic(p in any_position(), text in "\\PC{0,12}") {
        let results = [
            parse_move(&p, &text),
            iccs::parse(&p, &text),
            wxf::parse(&p, &text),
            chinese::parse(&p, &text),
        ];
        for m in results.into_iter().flatten() {
            prop_assert!(p.is_legal(m));
        }
    }

    /// Text built from the notations' own alphabets reaches the deeper code paths.
    #[test]
    fn notation_alphabet_never_panics(
        p in any_position(),
        text in "[前中後后一二三四五六七八九1-9１-９車馬炮兵卒帥將仕士相象進退平+\\-.=KAEHRCPabcde]{1,6}",
    ) {
        if let Ok(m) = parse_move(&p, &text) {
            prop_assert!(p.is_legal(m));
            // What was read can be written and read back.
            for n in ALL {
                let t = n.format(&p, m).unwrap();
                prop_assert_eq!(n.parse(&p, &t), Ok(m));
            }
        }
    }
}

#[test]
fn notation_names() {
    for (s, n) in [
        ("iccs", Notation::Iccs(IccsStyle::Compact)),
        ("WXF", Notation::Wxf),
        ("zh", TRAD),
        ("zh-hans", SIMP),
    ] {
        assert_eq!(s.parse::<Notation>(), Ok(n));
    }
    assert!("klingon".parse::<Notation>().is_err());
    assert_eq!(notation::Notation::Wxf.to_string(), "wxf");
}
