//! Board pictures: the text board shows every piece where it stands (read back from
//! the text for many positions) with aligned columns; the SVG is well-formed XML
//! with the expected elements, and renders with a real renderer (`rsvg-convert`):
//! required when `CHUHAN_REQUIRE_RSVG=1`, otherwise run when the tool is installed.

use chuhan_engine::core::{Color, Piece, PieceKind, Position, Square};
use chuhan_engine::diagram::{self, Arrow, ArrowStyle, SvgOptions, TextOptions};
use std::process::Command;

fn width(s: &str) -> usize {
    s.chars()
        .map(|c| match c as u32 {
            0x1100..=0x115F
            | 0x2E80..=0xA4CF
            | 0xAC00..=0xD7A3
            | 0xF900..=0xFAFF
            | 0xFE30..=0xFE4F
            | 0xFF00..=0xFF60
            | 0xFFE0..=0xFFE6 => 2,
            _ => 1,
        })
        .sum()
}

fn glyph_piece(c: char) -> Option<Piece> {
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            let p = Piece::new(color, kind);
            if diagram::glyph(p) == c {
                return Some(p);
            }
        }
    }
    None
}

/// Reads the pieces back from the text board: point rows are lines 1, 3, ..., 19;
/// file `f` starts at display column `1 + 4 f`.
fn read_back(text: &str) -> [Option<Piece>; 90] {
    let lines: Vec<&str> = text.lines().collect();
    let mut board = [None; 90];
    for rank in 0..10 {
        let line = lines[1 + 2 * (9 - rank)];
        let mut col = 0;
        for c in line.chars() {
            if let Some(p) = glyph_piece(c) {
                assert_eq!((col - 1) % 4, 0, "piece off a point column in {line:?}");
                let file = (col - 1) / 4;
                board[rank * 9 + file] = Some(p);
            }
            col += width(&c.to_string());
        }
    }
    board
}

fn positions() -> Vec<Position> {
    let mut out = vec![Position::startpos()];
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    for _ in 0..60 {
        let mut p = Position::startpos();
        for _ in 0..(seed % 120) {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            p.make_move(legal[(seed % legal.len() as u64) as usize]);
        }
        out.push(p);
    }
    out
}

#[test]
fn text_board_shows_every_piece_in_aligned_columns() {
    for p in positions() {
        let t = diagram::text(&p);
        let board = read_back(&t);
        for sq in Square::ALL {
            assert_eq!(board[sq.index()], p.piece_at(sq), "{sq} in {}", p.to_fen());
        }
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 22);
        // Point rows and the rows between them end at the same column.
        for (i, l) in lines.iter().enumerate().skip(1).take(19) {
            let expected = if i % 2 == 1 { 38 } else { 34 };
            assert_eq!(width(l), expected, "line {i}: {l:?}");
        }
    }
}

#[test]
fn text_board_colour_and_last_move() {
    let mut p = Position::startpos();
    p.make_move("h2e2".parse().unwrap());
    let plain = diagram::text(&p);
    assert!(!plain.contains('\x1b'));
    let coloured = diagram::text_with(
        &p,
        &TextOptions {
            color: true,
            last_move: Some("h2e2".parse().unwrap()),
        },
    );
    assert!(coloured.contains("\x1b[31m炮\x1b[0m"));
    assert!(coloured.contains("\x1b[7m"));
    // Without the escapes the picture is the same.
    let mut stripped = String::new();
    let mut in_escape = false;
    for c in coloured.chars() {
        match (in_escape, c) {
            (false, '\x1b') => in_escape = true,
            (true, 'm') => in_escape = false,
            (true, _) => {}
            (false, c) => stripped.push(c),
        }
    }
    assert_eq!(
        stripped.lines().map(str::trim_end).collect::<Vec<_>>(),
        plain.lines().map(str::trim_end).collect::<Vec<_>>()
    );
}

fn sample_svg() -> String {
    let mut p = Position::startpos();
    for m in ["h2e2", "h9g7", "h0g2"] {
        p.make_move(m.parse().unwrap());
    }
    let opts = SvgOptions {
        arrows: vec![
            Arrow::new("i9h9".parse().unwrap(), ArrowStyle::Red).labelled("1"),
            Arrow::new("i0h0".parse().unwrap(), ArrowStyle::Blue).labelled("2"),
            Arrow::new("b0c2".parse().unwrap(), ArrowStyle::Green),
        ],
        caption: Some("Black must change: perpetual chase <&> \"quoted\"\n第二行".to_string()),
        coordinates: true,
    };
    diagram::svg(&p, &opts)
}

#[test]
fn svg_is_well_formed_and_complete() {
    let doc = sample_svg();
    let xml = roxmltree::Document::parse(&doc).expect("well-formed XML");
    let root = xml.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let texts: Vec<String> = xml
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(str::to_string))
        .collect();
    // 32 pieces, each a circle pair and a character.
    let pieces = texts
        .iter()
        .filter(|t| t.chars().count() == 1 && t.chars().all(|c| glyph_piece(c).is_some()))
        .count();
    assert_eq!(pieces, 32);
    assert!(texts.iter().any(|t| t == "楚 河"));
    assert!(texts.iter().any(|t| t == "漢 界"));
    assert!(texts.iter().any(|t| t == "九") && texts.iter().any(|t| t == "一"));
    assert!(
        texts
            .iter()
            .any(|t| t == "Black must change: perpetual chase <&> \"quoted\"")
    );
    assert!(texts.iter().any(|t| t == "第二行"));
    // Arrows: lines with arrow heads, and their labels.
    let heads = xml
        .descendants()
        .filter(|n| n.has_tag_name("line") && n.attribute("marker-end").is_some())
        .count();
    assert_eq!(heads, 3);
    assert_eq!(
        xml.descendants()
            .filter(|n| n.has_tag_name("marker"))
            .count(),
        3
    );
    assert!(texts.iter().any(|t| t == "1") && texts.iter().any(|t| t == "2"));
    let title = xml
        .descendants()
        .find(|n| n.has_tag_name("title"))
        .and_then(|n| n.text())
        .unwrap();
    assert!(title.starts_with("rnbakab1r/9/1c4nc1/"), "{title}");
    // Grid: 10 ranks, 2 edge files, 7 files split by the river, 4 palace diagonals.
    let grid_lines = xml
        .descendants()
        .filter(|n| n.has_tag_name("line") && n.attribute("marker-end").is_none())
        .count();
    assert_eq!(grid_lines, 10 + 2 + 14 + 4);
    // Without options: no defs, no caption.
    let bare = diagram::svg(&Position::startpos(), &SvgOptions::default());
    let bare_xml = roxmltree::Document::parse(&bare).unwrap();
    assert_eq!(
        bare_xml
            .descendants()
            .filter(|n| n.has_tag_name("marker"))
            .count(),
        0
    );
}

fn rsvg_available() -> bool {
    Command::new("rsvg-convert")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn svg_renders_with_rsvg_convert() {
    let required = std::env::var("CHUHAN_REQUIRE_RSVG").is_ok_and(|v| v == "1");
    if !rsvg_available() {
        assert!(
            !required,
            "CHUHAN_REQUIRE_RSVG=1 but rsvg-convert is not installed (Debian: librsvg2-bin)"
        );
        eprintln!("rsvg-convert not installed: render check skipped");
        return;
    }
    let dir = std::env::temp_dir().join(format!("chuhan-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("board.svg");
    let png = dir.join("board.png");
    std::fs::write(&svg, sample_svg()).unwrap();
    let out = Command::new("rsvg-convert")
        .arg("-o")
        .arg(&png)
        .arg(&svg)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "rsvg-convert failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // Width and height from the IHDR chunk match the SVG's size.
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!(w, 608);
    assert!(h > 700, "{h}");
    assert!(bytes.len() > 10_000, "suspiciously small picture");
    let _ = std::fs::remove_dir_all(&dir);
}
