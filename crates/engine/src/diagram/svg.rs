//! The SVG diagram: a standalone SVG 1.1 document (no scripts, no external
//! resources) that browsers and `rsvg-convert` render. Characters are drawn as text
//! in the first available of several common CJK fonts, so the renderer needs one
//! installed (e.g. Debian's `fonts-arphic-ukai` or `fonts-noto-cjk`).

use super::glyph;
use crate::core::{Color, Move, Position, Square};
use std::fmt::Write as _;

/// Colour of an arrow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ArrowStyle {
    /// Blue: an ordinary move.
    #[default]
    Blue,
    /// Green: a suggested or best move.
    Green,
    /// Red: a forbidden move, or the moves of the side that must change.
    Red,
    /// Grey: background moves.
    Grey,
}

impl ArrowStyle {
    fn colour(self) -> &'static str {
        match self {
            ArrowStyle::Blue => "#1f5fbf",
            ArrowStyle::Green => "#1e8c3a",
            ArrowStyle::Red => "#c8102e",
            ArrowStyle::Grey => "#777777",
        }
    }

    fn id(self) -> &'static str {
        match self {
            ArrowStyle::Blue => "head-blue",
            ArrowStyle::Green => "head-green",
            ArrowStyle::Red => "head-red",
            ArrowStyle::Grey => "head-grey",
        }
    }
}

/// An arrow from a move's origin to its target, with an optional short label (a
/// ply number, say) drawn at its middle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// The move drawn.
    pub mv: Move,
    /// Its colour.
    pub style: ArrowStyle,
    /// Text at the arrow's middle.
    pub label: Option<String>,
}

impl Arrow {
    /// An unlabelled arrow.
    pub fn new(mv: Move, style: ArrowStyle) -> Arrow {
        Arrow {
            mv,
            style,
            label: None,
        }
    }

    /// The same arrow with a label.
    pub fn labelled(mut self, label: &str) -> Arrow {
        self.label = Some(label.to_string());
        self
    }
}

/// Options of [`svg`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvgOptions {
    /// Arrows drawn over the pieces, in order.
    pub arrows: Vec<Arrow>,
    /// Text under the board (`\n` starts a new line), e.g. the ruling and the
    /// side that must change.
    pub caption: Option<String>,
    /// Draw file numbers (1…9 for Black at the top, 九…一 and a…i for Red at the
    /// bottom) and ranks 0…9 on the left.
    pub coordinates: bool,
}

impl Default for SvgOptions {
    /// No arrows, no caption, coordinates drawn.
    fn default() -> SvgOptions {
        SvgOptions {
            arrows: Vec::new(),
            caption: None,
            coordinates: true,
        }
    }
}

const CELL: f64 = 60.0;
const LEFT: f64 = 64.0;
const TOP: f64 = 70.0;
const RIGHT: f64 = 64.0;
const BOTTOM: f64 = 90.0;
const CAPTION_LINE: f64 = 26.0;
const RADIUS: f64 = 26.0;
const INK: &str = "#5b3a1e";
const FONTS: &str = "'AR PL UKai CN','AR PL UKai TW','Noto Serif CJK SC','Noto Serif CJK TC','Source Han Serif SC','KaiTi','STKaiti','SimSun','WenQuanYi Micro Hei','Noto Sans CJK SC',serif";

/// Escapes text for XML character data and attribute values.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 does not allow.
            '\u{0}'..='\u{8}'
            | '\u{B}'
            | '\u{C}'
            | '\u{E}'..='\u{1F}'
            | '\u{FFFE}'
            | '\u{FFFF}' => out.push('\u{FFFD}'),
            _ => out.push(c),
        }
    }
    out
}

/// A coordinate without trailing `.0`.
fn n(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

fn x(file: usize) -> f64 {
    LEFT + file as f64 * CELL
}

fn y(rank: usize) -> f64 {
    TOP + (9 - rank) as f64 * CELL
}

fn centre(sq: Square) -> (f64, f64) {
    (x(sq.file().index()), y(sq.rank().index()))
}

/// The position as an SVG document.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::diagram::{self, Arrow, ArrowStyle, SvgOptions};
/// let opts = SvgOptions {
///     arrows: vec![Arrow::new("h2e2".parse().unwrap(), ArrowStyle::Red).labelled("1")],
///     caption: Some("Red <must> change".to_string()),
///     ..SvgOptions::default()
/// };
/// let doc = diagram::svg(&Position::startpos(), &opts);
/// assert!(doc.starts_with("<?xml") && doc.trim_end().ends_with("</svg>"));
/// assert!(doc.contains("楚 河") && doc.contains("Red &lt;must&gt; change"));
/// ```
pub fn svg(pos: &Position, opts: &SvgOptions) -> String {
    let caption_lines: Vec<&str> = opts
        .caption
        .as_deref()
        .map(|c| c.lines().collect())
        .unwrap_or_default();
    let width = LEFT + 8.0 * CELL + RIGHT;
    let height = TOP
        + 9.0 * CELL
        + BOTTOM
        + if caption_lines.is_empty() {
            0.0
        } else {
            caption_lines.len() as f64 * CAPTION_LINE + 10.0
        };
    let mut s = String::with_capacity(16 * 1024);
    s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{FONTS}\">",
        w = n(width),
        h = n(height)
    );
    let _ = writeln!(s, "<title>{}</title>", escape(&pos.to_fen()));
    defs(&mut s, &opts.arrows);
    let _ = writeln!(
        s,
        "<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#f3dfb3\"/>",
        n(width),
        n(height)
    );
    grid(&mut s);
    if opts.coordinates {
        coordinates(&mut s);
    }
    pieces(&mut s, pos);
    for a in &opts.arrows {
        arrow(&mut s, a);
    }
    for (i, line) in caption_lines.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"20\" text-anchor=\"middle\" fill=\"#222222\">{}</text>",
            n(width / 2.0),
            n(TOP + 9.0 * CELL + BOTTOM + 20.0 + i as f64 * CAPTION_LINE),
            escape(line)
        );
    }
    s.push_str("</svg>\n");
    s
}

fn defs(s: &mut String, arrows: &[Arrow]) {
    let mut styles: Vec<ArrowStyle> = arrows.iter().map(|a| a.style).collect();
    styles.sort_by_key(|st| st.id());
    styles.dedup();
    if styles.is_empty() {
        return;
    }
    s.push_str("<defs>\n");
    for st in styles {
        let _ = writeln!(
            s,
            "<marker id=\"{}\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"3.2\" markerHeight=\"3.2\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{}\"/></marker>",
            st.id(),
            st.colour()
        );
    }
    s.push_str("</defs>\n");
}

fn line(s: &mut String, x1: f64, y1: f64, x2: f64, y2: f64) {
    let _ = writeln!(
        s,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
        n(x1),
        n(y1),
        n(x2),
        n(y2)
    );
}

fn grid(s: &mut String) {
    let _ = writeln!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"3\"/>",
        n(LEFT - 8.0),
        n(TOP - 8.0),
        n(8.0 * CELL + 16.0),
        n(9.0 * CELL + 16.0)
    );
    let _ = writeln!(
        s,
        "<g stroke=\"{INK}\" stroke-width=\"1.6\" stroke-linecap=\"square\" fill=\"none\">"
    );
    for r in 0..10 {
        line(s, x(0), y(r), x(8), y(r));
    }
    for f in 0..9 {
        if f == 0 || f == 8 {
            line(s, x(f), y(9), x(f), y(0));
        } else {
            line(s, x(f), y(9), x(f), y(5));
            line(s, x(f), y(4), x(f), y(0));
        }
    }
    // Palaces.
    for (top, bottom) in [(9, 7), (2, 0)] {
        line(s, x(3), y(top), x(5), y(bottom));
        line(s, x(5), y(top), x(3), y(bottom));
    }
    // Cannon and pawn points.
    let marks = [
        (1, 2),
        (7, 2),
        (1, 7),
        (7, 7),
        (0, 3),
        (2, 3),
        (4, 3),
        (6, 3),
        (8, 3),
        (0, 6),
        (2, 6),
        (4, 6),
        (6, 6),
        (8, 6),
    ];
    for (f, r) in marks {
        let (cx, cy) = (x(f), y(r));
        for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
            if (f == 0 && sx < 0.0) || (f == 8 && sx > 0.0) {
                continue;
            }
            let (d, l) = (5.0, 11.0);
            let _ = writeln!(
                s,
                "<polyline points=\"{},{} {},{} {},{}\"/>",
                n(cx + sx * d),
                n(cy + sy * (d + l)),
                n(cx + sx * d),
                n(cy + sy * d),
                n(cx + sx * (d + l)),
                n(cy + sy * d)
            );
        }
    }
    s.push_str("</g>\n");
    let river_y = TOP + 4.5 * CELL + 11.0;
    for (file_x, text) in [(x(2), "楚 河"), (x(6), "漢 界")] {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"32\" text-anchor=\"middle\" fill=\"{INK}\">{text}</text>",
            n(file_x),
            n(river_y)
        );
    }
}

fn coordinates(s: &mut String) {
    let _ = writeln!(
        s,
        "<g font-size=\"18\" text-anchor=\"middle\" fill=\"{INK}\">"
    );
    const RED: [&str; 9] = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];
    for (f, red) in RED.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            n(x(f)),
            n(TOP - 38.0),
            f + 1
        );
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\">{red}</text>",
            n(x(f)),
            n(y(0) + 54.0)
        );
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"15\" fill=\"#8a6a48\">{}</text>",
            n(x(f)),
            n(y(0) + 76.0),
            (b'a' + f as u8) as char
        );
    }
    for r in 0..10 {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"15\" fill=\"#8a6a48\">{r}</text>",
            n(LEFT - 46.0),
            n(y(r) + 5.0)
        );
    }
    s.push_str("</g>\n");
}

fn pieces(s: &mut String, pos: &Position) {
    for sq in Square::ALL {
        let Some(p) = pos.piece_at(sq) else { continue };
        let (cx, cy) = centre(sq);
        let colour = match p.color {
            Color::Red => "#b8141f",
            Color::Black => "#1b1b1b",
        };
        let _ = writeln!(
            s,
            "<g><circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"#fdf3dc\" stroke=\"{colour}\" stroke-width=\"2.2\"/><circle cx=\"{cx}\" cy=\"{cy}\" r=\"{ri}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1\"/><text x=\"{cx}\" y=\"{ty}\" font-size=\"32\" text-anchor=\"middle\" fill=\"{colour}\">{g}</text></g>",
            cx = n(cx),
            cy = n(cy),
            r = n(RADIUS),
            ri = n(RADIUS - 4.0),
            ty = n(cy + 11.0),
            g = glyph(p)
        );
    }
}

fn arrow(s: &mut String, a: &Arrow) {
    if !a.mv.is_some() {
        return;
    }
    let (x1, y1) = centre(a.mv.from());
    let (x2, y2) = centre(a.mv.to());
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt();
    let shorten = 10.0_f64.min(len / 3.0);
    let (ex, ey) = (x2 - dx / len * shorten, y2 - dy / len * shorten);
    let _ = writeln!(
        s,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"7\" stroke-linecap=\"round\" stroke-opacity=\"0.8\" marker-end=\"url(#{})\"/>",
        n(x1),
        n(y1),
        n(ex),
        n(ey),
        a.style.colour(),
        a.style.id()
    );
    if let Some(label) = &a.label {
        let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
        let _ = writeln!(
            s,
            "<g><circle cx=\"{mx}\" cy=\"{my}\" r=\"12\" fill=\"#ffffff\" stroke=\"{c}\" stroke-width=\"2\"/><text x=\"{mx}\" y=\"{ty}\" font-size=\"15\" font-family=\"sans-serif\" text-anchor=\"middle\" fill=\"{c}\">{t}</text></g>",
            mx = n(mx),
            my = n(my),
            ty = n(my + 5.0),
            c = a.style.colour(),
            t = escape(label)
        );
    }
}
