//! XQF: the worked example of the XQF 1.0 spec (xqbase `XQFTOOLS/XQF.TXT`, bytes
//! transcribed from its hex dump), files built here from the documented layout in
//! every version, encrypted ones included (with comments and variations), and
//! truncated or corrupt files that must give clear errors, never panics.

use chuhan_engine::core::{Color, GameResult, PieceKind, Position, Square};
use chuhan_engine::notation::pgn;
use chuhan_engine::notation::tree::TreeError;
use chuhan_engine::notation::xqf::{self, XqfError};
use chuhan_engine::notation::{Game, Notation, Script, record};
use proptest::prelude::*;

#[path = "fixtures/xqf_example.rs"]
mod xqf_example;
use xqf_example::spec_example;

#[test]
fn the_spec_example() {
    let bytes = spec_example();
    let g = xqf::read(&bytes).unwrap();
    assert_eq!(g.start, Position::startpos());
    assert_eq!(g.result, Some(GameResult::BlackWins));
    assert_eq!(g.tag("Title"), Some("仙人指路对起马局"));
    assert_eq!(g.tag("Event"), Some("\"中立杯\"象棋电视快棋赛"));
    assert_eq!(g.tag("Date"), Some("1997年11月16日"));
    assert_eq!(g.tag("Site"), Some("北京"));
    assert_eq!(g.tag("Red"), Some("柳大华"));
    assert_eq!(g.tag("Black"), Some("吕  钦"));
    assert_eq!(g.tag("Annotator"), Some("刘殿中"));
    assert_eq!(g.tag("Author"), Some("过河象"));
    // The move list the spec prints next to the dump.
    let expected = "兵七进一 马８进７ 兵三进一 炮２平３ 相七进五 马２进１ 马八进七 车１平２ \
                    车九平八 车２进４ 炮八平九 车２平８ 炮二进五 炮３平８ 马二进三 车９平８";
    let mut p = g.start.clone();
    let mut written = Vec::new();
    for m in g.moves() {
        written.push(Notation::Chinese(Script::Simplified).format(&p, m).unwrap());
        p.make_move(m);
    }
    assert_eq!(written.join(" "), expected);
    assert_eq!(record::read(&bytes).unwrap()[0], g);
}

/// Plain (unencrypted) content of one move record.
struct Rec {
    from: u8,
    to: u8,
    next: bool,
    sibling: bool,
    comment: Option<Vec<u8>>,
}

fn xy(sq: Square) -> u8 {
    (sq.file().index() * 10 + sq.rank().index()) as u8
}

/// The records of a game's move tree in preorder (root first), the way XQStudio
/// stores them: a record, its continuation's subtree, then its next alternative.
/// (Variations whose own first move has variations do not occur in the samples.)
fn records(g: &Game) -> Vec<Rec> {
    use chuhan_engine::notation::Node;
    fn rec(n: &Node, next: bool, sibling: bool) -> Rec {
        Rec {
            from: xy(n.mv.from()),
            to: xy(n.mv.to()),
            next,
            sibling,
            comment: n
                .comment
                .as_ref()
                .map(|c| chuhan_engine::notation::charset::encode_gbk(c)),
        }
    }
    /// `main[0]` and the first moves of its variations are the children of one
    /// node; each child is followed by the rest of its own line.
    fn children(out: &mut Vec<Rec>, main: &[Node]) {
        let mut kids: Vec<&[Node]> = vec![main];
        kids.extend(main[0].variations.iter().map(|v| &v.nodes[..]));
        let count = kids.len();
        for (k, kid) in kids.into_iter().enumerate() {
            out.push(rec(&kid[0], kid.len() > 1, k + 1 < count));
            if kid.len() > 1 {
                children(out, &kid[1..]);
            }
        }
    }
    let mut out = vec![Rec {
        from: 0,
        to: 0,
        next: !g.line.nodes.is_empty(),
        sibling: false,
        comment: g
            .line
            .comment
            .as_ref()
            .map(|c| chuhan_engine::notation::charset::encode_gbk(c)),
    }];
    if !g.line.nodes.is_empty() {
        children(&mut out, &g.line.nodes);
    }
    out
}

const PIECE_ORDER: [PieceKind; 16] = {
    use PieceKind::*;
    [
        Rook, Horse, Elephant, Advisor, King, Advisor, Elephant, Horse, Rook, Cannon, Cannon, Pawn,
        Pawn, Pawn, Pawn, Pawn,
    ]
};

/// The 32 placement bytes of a position (0xFF for pieces not on the board).
fn placement(p: &Position) -> [u8; 32] {
    let mut out = [0xFF; 32];
    let mut used = [false; 32];
    for sq in Square::ALL {
        let Some(pc) = p.piece_at(sq) else { continue };
        let base = if pc.color == Color::Red { 0 } else { 16 };
        let slot = (0..16)
            .find(|&i| PIECE_ORDER[i] == pc.kind && !used[base + i])
            .expect("at most the standard number of each piece");
        used[base + slot] = true;
        out[base + slot] = xy(sq);
    }
    out
}

/// Header key bytes: mask (h3), "or" keys (h8..h11), key sum and the three keys
/// (h12..h15, summing to 0 mod 256 as XQStudio writes them).
#[derive(Clone, Copy)]
struct KeyBytes {
    mask: u8,
    or: [u8; 4],
    xy: u8,
    xyf: u8,
    xyt: u8,
}

/// Builds an XQF file of `version` holding `g`, following the documented layout
/// and (for version 11 and later) encryption.
fn build(g: &Game, version: u8, k: KeyBytes) -> Vec<u8> {
    let mut f = vec![0u8; 0x400];
    f[0] = b'X';
    f[1] = b'Q';
    f[2] = version;
    let sum = 0u8
        .wrapping_sub(k.xy)
        .wrapping_sub(k.xyf)
        .wrapping_sub(k.xyt);
    let h = [sum, k.xy, k.xyf, k.xyt];
    let derive = |b: u8, s: u8| ((54 * b as u32 * b as u32 + 221) * s as u32 % 256) as u8;
    let (kp, ko, kt, kc, stream) = if version <= 10 {
        (0u8, 0u8, 0u8, 0i32, [0u8; 32])
    } else {
        f[3] = k.mask;
        f[8..12].copy_from_slice(&k.or);
        f[12..16].copy_from_slice(&h);
        let kp = derive(k.xy, k.xy);
        let ko = derive(k.xyf, kp);
        let kt = derive(k.xyt, ko);
        let kc = (sum as i32 * 256 + k.xy as i32) % 32000 + 767;
        let mask = b"[(C) Copyright Mr. Dong Shiwei.]";
        let mut stream = [0u8; 32];
        for i in 0..32 {
            stream[i] = mask[i] & ((h[i % 4] & k.mask) | k.or[i % 4]);
        }
        (kp, ko, kt, kc, stream)
    };
    let plain = placement(&g.start);
    for i in 0..32 {
        let v = if version >= 12 {
            plain[(i + kp as usize + 1) % 32]
        } else {
            plain[i]
        };
        f[0x10 + i] = v.wrapping_add(kp);
    }
    f[0x32] = u8::from(g.start.side_to_move() == Color::Black);
    f[0x33] = match g.result {
        Some(GameResult::RedWins) => 1,
        Some(GameResult::BlackWins) => 2,
        Some(GameResult::Draw) => 3,
        None => 0,
    };
    let mut put_str = |at: usize, s: &str| {
        let b = chuhan_engine::notation::charset::encode_gbk(s);
        f[at] = b.len() as u8;
        f[at + 1..at + 1 + b.len()].copy_from_slice(&b);
    };
    put_str(0x50, "測試標題");
    put_str(0xD0, "Test event");
    put_str(0x130, "紅方");
    put_str(0x140, "黑方");
    for r in records(g) {
        let mut tag = 0u8;
        if version <= 10 {
            tag |= if r.next { 0xF0 } else { 0 };
            tag |= if r.sibling { 0x0F } else { 0 };
        } else {
            tag |= if r.next { 0x80 } else { 0 };
            tag |= if r.sibling { 0x40 } else { 0 };
            tag |= if r.comment.is_some() { 0x20 } else { 0 };
        }
        f.push(r.from.wrapping_add(0x18).wrapping_add(ko));
        f.push(r.to.wrapping_add(0x20).wrapping_add(kt));
        f.push(tag);
        f.push(0);
        let text = r.comment.unwrap_or_default();
        if version <= 10 || !text.is_empty() {
            let len = text.len() as i32 + if version <= 10 { 0 } else { kc };
            f.extend_from_slice(&len.to_le_bytes());
        }
        f.extend_from_slice(&text);
    }
    for (p, b) in f.iter_mut().enumerate().skip(0x400) {
        *b = b.wrapping_add(stream[p % 32]);
    }
    f
}

fn sample_games() -> Vec<Game> {
    let texts = [
        // Comments, and variations two deep with two alternatives at one point.
        "{開局} 1. 炮二平五 {中炮} 馬８進７ (1... 馬２進３ 2. 馬二進三 (2. 兵七進一 {挺兵})) (1... 炮８平５) \
         2. 馬二進三 車９平８ 3. 車一平二 {出車} 馬２進３ 4. 兵七進一 卒７進１ *",
        // A Black-to-move endgame start.
        "[FEN \"4k4/9/9/9/9/4p4/4p4/9/9/3K5 b - - 0 1\"] 1... 前卒平４ 2. 帥六平五 卒４平５ *",
        // No moves at all, Black to move.
        "[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1\"] *",
        // A long main line without comments.
        "1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 3. 車一平二 馬２進３ 4. 兵七進一 卒７進１ \
         5. 車二進六 炮８平９ 6. 車二平三 炮９退１ 7. 馬八進七 士４進５ 8. 馬七進六 炮９平７ 1-0",
    ];
    texts
        .iter()
        .map(|t| pgn::read(t).unwrap().remove(0))
        .collect()
}

fn key_sets() -> Vec<KeyBytes> {
    vec![
        KeyBytes {
            mask: 0xFF,
            or: [0, 0, 0, 0],
            xy: 0x00,
            xyf: 0x00,
            xyt: 0x00,
        },
        KeyBytes {
            mask: 0x5A,
            or: [0x11, 0x22, 0x44, 0x88],
            xy: 0x37,
            xyf: 0xC3,
            xyt: 0x9E,
        },
        KeyBytes {
            mask: 0xF3,
            or: [0xA5, 0x00, 0x7F, 0x81],
            xy: 0xFF,
            xyf: 0x80,
            xyt: 0x01,
        },
    ]
}

#[test]
fn built_files_of_every_version_read_back() {
    for g in sample_games() {
        for version in [10u8, 11, 12, 16, 18] {
            for k in key_sets() {
                let bytes = build(&g, version, k);
                let back = xqf::read(&bytes).unwrap_or_else(|e| panic!("v{version}: {e}"));
                assert_eq!(back.start, g.start, "v{version}");
                assert_eq!(back.line, g.line, "v{version}");
                assert_eq!(back.result, g.result);
                assert_eq!(back.tag("Title"), Some("測試標題"));
                assert_eq!(back.tag("Red"), Some("紅方"));
                assert_eq!(back.tag("Event"), Some("Test event"));
            }
        }
    }
}

#[test]
fn encryption_changes_the_bytes() {
    let g = &sample_games()[0];
    let k = key_sets()[1];
    let plain = build(g, 10, k);
    let enc = build(g, 12, k);
    assert_ne!(plain[0x10..0x30], enc[0x10..0x30]);
    assert_ne!(plain[0x400..0x420], enc[0x400..0x420]);
    // Reading an encrypted file as if it were plain goes wrong, so the keys matter.
    let mut as_plain = enc.clone();
    as_plain[2] = 10;
    assert_ne!(
        xqf::read(&as_plain).ok().map(|g| g.line),
        Some(g.line.clone())
    );
}

#[test]
fn corrupt_files_give_clear_errors() {
    let g = &sample_games()[0];
    let good = build(g, 12, key_sets()[1]);
    assert!(xqf::read(&good).is_ok());

    assert_eq!(
        xqf::read(&good[..0x403]),
        Err(XqfError::TooShort { len: 0x403 })
    );
    let mut bad = good.clone();
    bad[0] = b'Y';
    assert_eq!(xqf::read(&bad), Err(XqfError::NotXqf));

    // Every proper prefix fails (never panics); the whole file reads.
    for end in 0..good.len() {
        let r = xqf::read(&good[..end]);
        assert!(r.is_err(), "prefix of {end} bytes read");
        assert!(!r.unwrap_err().to_string().is_empty());
    }

    // Placement and move problems, in an unencrypted file without comments, where
    // the first move record (h2e2) is at 0x408.
    let plain = build(&sample_games()[3], 10, key_sets()[0]);
    assert_eq!(
        plain[0x408..0x40A],
        [xy(Square::H2) + 0x18, xy(Square::E2) + 0x20]
    );
    let mut dup = plain.clone();
    dup[0x10 + 1] = dup[0x10]; // red horse on the red rook's point
    assert!(matches!(xqf::read(&dup), Err(XqfError::DuplicateSquare(_))));
    let mut kingless = plain.clone();
    kingless[0x10 + 4] = 0xFF;
    assert!(matches!(
        xqf::read(&kingless),
        Err(XqfError::BadPosition(_))
    ));
    // A move record pointing off the board (origin byte 99 + 0x18).
    let mut off = plain.clone();
    off[0x400 + 8] = 99 + 0x18;
    assert!(matches!(
        xqf::read(&off),
        Err(XqfError::Moves(TreeError::BadSquare { ply: 1, value: 99 }))
    ));
    // A move that is not legal: the first move's target changed to a friendly piece.
    let mut illegal = plain.clone();
    illegal[0x409] = 0x20 + xy(Square::G0);
    let e = xqf::read(&illegal).unwrap_err();
    assert!(
        matches!(e, XqfError::Moves(TreeError::IllegalMove { ply: 1, .. })),
        "{e:?}"
    );
    assert!(e.to_string().contains("ply 1"));
    // A comment length running past the end of the file.
    let mut long = plain.clone();
    long[0x404..0x408].copy_from_slice(&1_000_000i32.to_le_bytes());
    assert!(matches!(xqf::read(&long), Err(XqfError::Truncated { .. })));
}

/// A v10 file whose tree nests alternatives `levels` deep: at each ply the first
/// child is a quiet horse move without continuation and the second (its
/// alternative) carries on, so each level is a variation inside the previous one.
fn nested(levels: usize) -> Vec<u8> {
    let mut f = build(&Game::new(Position::startpos()), 10, key_sets()[0]);
    f.truncate(0x400);
    f.extend_from_slice(&[0x18, 0x20, 0xF0, 0, 0, 0, 0, 0]);
    // (alternative ending here, move carrying on) for four plies that return to
    // the start position.
    let cycle = [
        ("h0i2", "h0g2"),
        ("h9i7", "h9g7"),
        ("g2e1", "g2h0"),
        ("g7e8", "g7h9"),
    ];
    for level in 0..levels {
        let (alt, main) = cycle[level % 4];
        let alt: chuhan_engine::core::Move = alt.parse().unwrap();
        let main: chuhan_engine::core::Move = main.parse().unwrap();
        let last = level + 1 == levels;
        f.extend_from_slice(&[
            xy(alt.from()) + 0x18,
            xy(alt.to()) + 0x20,
            0x0F,
            0,
            0,
            0,
            0,
            0,
        ]);
        let tag = if last { 0x00 } else { 0xF0 };
        f.extend_from_slice(&[
            xy(main.from()) + 0x18,
            xy(main.to()) + 0x20,
            tag,
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
fn deep_variation_nesting_is_refused() {
    let g = xqf::read(&nested(200)).unwrap();
    assert_eq!(g.moves(), vec!["h0i2".parse().unwrap()]);
    let mut depth = 0;
    let mut line = &g.line;
    while let Some(v) = line.nodes.last().and_then(|n| n.variations.first()) {
        depth += 1;
        line = v;
    }
    assert_eq!(depth, 200);
    assert_eq!(
        xqf::read(&nested(300)),
        Err(XqfError::Moves(TreeError::TooDeep))
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn flipped_bytes_never_panic(
        flips in proptest::collection::vec((0usize..2000, any::<u8>()), 1..12),
        version in prop::sample::select(vec![10u8, 11, 12]),
    ) {
        let g = &sample_games()[0];
        let mut bytes = build(g, version, key_sets()[2]);
        for (at, v) in flips {
            let at = at % bytes.len();
            bytes[at] = v;
        }
        if let Ok(game) = xqf::read(&bytes) {
            let mut p = game.start.clone();
            for m in game.moves() {
                prop_assert!(p.is_legal(m));
                p.make_move(m);
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(
        head in proptest::collection::vec(any::<u8>(), 0..64),
        body in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        let mut bytes = b"XQ".to_vec();
        bytes.extend(head);
        bytes.resize(0x400, 0);
        bytes.extend(body);
        let _ = xqf::read(&bytes);
    }
}

/// A record with a move that cannot be played keeps the moves before it with a
/// warning naming the ply (the strict reading refuses it); a cut record keeps what
/// was read.
#[test]
fn lenient_reading_keeps_the_valid_prefix() {
    use chuhan_engine::core::Validation;
    use chuhan_engine::notation::Warning;
    let g = &sample_games()[3];
    let plain = build(g, 10, key_sets()[0]);
    let plies = g.ply_count();
    assert!(plies >= 3);
    // The third move (record at 0x408 + 2 * 8 in a file without comments) made to
    // land on a friendly piece.
    let mut illegal = plain.clone();
    let third = 0x408 + 2 * 8;
    let from = illegal[third].wrapping_sub(0x18);
    let to_friend = if from == xy(Square::H0) {
        xy(Square::I0)
    } else {
        xy(Square::A9)
    };
    illegal[third + 1] = 0x20 + to_friend;
    assert!(matches!(
        xqf::read_with(&illegal, Validation::Strict),
        Err(XqfError::Moves(TreeError::IllegalMove { ply: 3, .. }))
    ));
    let kept = xqf::read_with(&illegal, Validation::Lenient).unwrap();
    assert_eq!(kept.moves(), g.moves()[..2]);
    assert!(
        matches!(kept.warnings[..], [Warning::BadMove { ply: 3, .. }]),
        "{:?}",
        kept.warnings
    );
    assert!(kept.warnings[0].to_string().starts_with("ply 3: "));
    // Cut in the middle of the fourth record: three moves kept.
    let cut = xqf::read_with(&plain[..0x408 + 3 * 8 + 4], Validation::Lenient).unwrap();
    assert_eq!(cut.moves(), g.moves()[..3]);
    assert!(matches!(cut.warnings[..], [Warning::Truncated { .. }]));
}
