//! WXF notation (`C2.5`, `H8+7`, `R+.3`, `P-+1`, `3+.4`).
//!
//! Four characters: piece letter (K A E H R C P), the origin file 1..9 counted from
//! the mover's right, the direction (`+` forward, `-` back, `.` sideways) and a
//! number (points moved for K R C P going forward/back, the destination file
//! otherwise). Sources: wxf.org "WXF notation" and xqinenglish.com, summarised in
//! `protocol.md` §6.2.
//!
//! Pieces sharing a file (how this module writes them, following the WXF page):
//!
//! * two rooks, horses or cannons on one file: `+` (front) or `-` (rear) replaces
//!   the file: `C+.5`, `R-+1`;
//! * pawns, when only one file holds several: two are `P+`/`P-`; three `P+`, the
//!   middle one in ordinary notation `P<file>`, `P-`; four `++`, `P+`, `P-`, `--`;
//!   five `++`, `P+`, `P<file>`, `P-`, `--` (`++`/`--` stand in for the piece
//!   letter and the file);
//! * pawns, when two files hold several: the file digit replaces the letter and the
//!   second character is `+`, `-` or (middle of three) the file digit again:
//!   `3+.4`, `33.4`, `3-.4`, `7-.6`;
//! * kings, advisors and elephants always give their file.
//!
//! The middle pawn keeps its own file number (the WXF page's "ordinary notation"),
//! which no other pawn can claim, so every written move is unique in its position.
//!
//! Reading also accepts `=` for sideways, the old three-character form `C25`, lower
//! case, full-width characters, the xqbase letters `B` (elephant) and `N` (horse),
//! the xqbase position-first form `+C-2`, and xqbase's joint pawn letters `Pa`…`Pe`
//! (一…五 of the Chinese convention).

use super::descriptive::{
    self, Direction, Motion, file_number, motion, on_file, tandem_files, tandem_set,
};
use super::iccs;
use super::move_error::{MoveError, MoveErrorKind};
use crate::core::{Move, PieceKind, Position, Square};

/// The WXF letter of a piece kind (`K A E H R C P`).
pub fn letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

fn kind_of(c: char) -> Option<PieceKind> {
    PieceKind::from_fen_char(c)
}

fn digit(n: u8) -> char {
    (b'0' + n) as char
}

fn direction_char(d: Direction) -> char {
    match d {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '.',
    }
}

/// Writes the legal move `mv` of `pos` in WXF notation.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::notation::wxf;
/// let pos = Position::startpos();
/// assert_eq!(wxf::format(&pos, "h2e2".parse().unwrap()).unwrap(), "C2.5");
/// assert_eq!(wxf::format(&pos, "h0g2".parse().unwrap()).unwrap(), "H2+3");
/// assert_eq!(wxf::format(&pos, "h2h9".parse().unwrap()).unwrap(), "C2+7");
/// ```
pub fn format(pos: &Position, mv: Move) -> Result<String, MoveError> {
    iccs::check(pos, mv, &mv.to_string())?;
    let us = pos.side_to_move();
    let from = mv.from();
    let kind = pos
        .piece_at(from)
        .map(|p| p.kind)
        .ok_or_else(|| MoveError::new(&mv.to_string(), MoveErrorKind::NoPieceOn(from)))?;
    let f = file_number(us, from);
    let m = motion(kind, us, from, mv.to());
    let mut s = String::with_capacity(4);
    let list = on_file(pos, kind, f);
    let i = list.iter().position(|&s| s == from).unwrap_or(0);
    match kind {
        PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => {
            s.push(letter(kind));
            s.push(digit(f));
        }
        _ if list.len() < 2 => {
            s.push(letter(kind));
            s.push(digit(f));
        }
        PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon => {
            s.push(letter(kind));
            s.push(if i == 0 { '+' } else { '-' });
        }
        PieceKind::Pawn => {
            let c = list.len();
            // `None` = the middle pawn, written with its file digit.
            let mark: Option<&str> = match (c, i) {
                (_, 0) if c >= 4 => Some("++"),
                (_, _) if c >= 4 && i == c - 1 => Some("--"),
                (_, 0) | (4 | 5, 1) => Some("+"),
                (_, _) if i == c - 1 || (c >= 4 && i == c - 2) => Some("-"),
                _ => None,
            };
            if tandem_files(pos, PieceKind::Pawn).len() >= 2 {
                s.push(digit(f));
                match mark {
                    Some(mk) => s.push(if mk.starts_with('+') { '+' } else { '-' }),
                    None => s.push(digit(f)),
                }
            } else {
                match mark {
                    Some(mk) if mk.len() == 2 => s.push_str(mk),
                    Some(mk) => {
                        s.push('P');
                        s.push_str(mk);
                    }
                    None => {
                        s.push('P');
                        s.push(digit(f));
                    }
                }
            }
        }
    }
    s.push(direction_char(m.direction));
    s.push(digit(m.number));
    Ok(s)
}

/// Where the text says the moving piece stands.
#[derive(Clone, Copy, Debug)]
enum Origin {
    /// `C2`: the file (the middle one of an odd number of pawns on it).
    File(u8),
    /// `C+`, `+C`: front (`true`) or rear on the file holding several.
    Mark(bool),
    /// `++`, `--`: foremost or rearmost pawn.
    DoubleMark(bool),
    /// `3+`, `3-`: front or rear pawn on that file.
    FileMark(u8, bool),
    /// `33`: the middle pawn on that file.
    FileMiddle(u8),
    /// `Pa`…`Pe`: xqbase joint numbering (0-based).
    Joint(u8),
}

/// Normalises full-width ASCII (U+FF01…U+FF5E) and the ideographic space to ASCII.
pub(crate) fn narrow(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            _ => c,
        })
        .collect()
}

fn syntax(text: &str, reason: &'static str) -> MoveError {
    MoveError::new(text, MoveErrorKind::Syntax(reason))
}

/// Reads WXF move text as a legal move of `pos` (see the module docs for the
/// accepted forms).
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::notation::wxf;
/// let pos = Position::startpos();
/// assert_eq!(wxf::parse(&pos, "C2.5").unwrap().to_string(), "h2e2");
/// assert_eq!(wxf::parse(&pos, "c2=5").unwrap().to_string(), "h2e2");
/// assert_eq!(wxf::parse(&pos, "C25").unwrap().to_string(), "h2e2");
/// assert_eq!(wxf::parse(&pos, "N2+3").unwrap().to_string(), "h0g2");
/// ```
pub fn parse(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let narrowed = narrow(text);
    let t: Vec<char> = narrowed.chars().filter(|c| !c.is_whitespace()).collect();
    if t.is_empty() {
        return Err(MoveError::new(text, MoveErrorKind::Empty));
    }
    if !t.iter().all(char::is_ascii) {
        return Err(syntax(text, "WXF text is ASCII, like C2.5 or H8+7"));
    }
    let (a, b, d, n) = match t.as_slice() {
        [a, b, d, n] => (*a, *b, *d, *n),
        [a, b, n] if a.is_ascii_alphabetic() && b.is_ascii_digit() && n.is_ascii_digit() => {
            (*a, *b, '.', *n)
        }
        _ => {
            return Err(syntax(
                text,
                "WXF text has four characters: piece, file, direction, number (C2.5)",
            ));
        }
    };
    let direction = match d {
        '+' => Direction::Forward,
        '-' => Direction::Backward,
        '.' | '=' => Direction::Sideways,
        _ => {
            return Err(syntax(
                text,
                "the third character must be a direction: + (forward), - (back) or . (sideways)",
            ));
        }
    };
    let number = match n {
        '1'..='9' => n as u8 - b'0',
        _ => return Err(syntax(text, "the last character must be a digit 1 to 9")),
    };
    let file = |c: char| matches!(c, '1'..='9').then(|| c as u8 - b'0');
    let mark = |c: char| match c {
        '+' => Some(true),
        '-' => Some(false),
        _ => None,
    };
    let (kind, origin) = if let Some(k) = a.is_ascii_alphabetic().then(|| kind_of(a)).flatten() {
        if let Some(f) = file(b) {
            (k, Origin::File(f))
        } else if let Some(front) = mark(b) {
            (k, Origin::Mark(front))
        } else if k == PieceKind::Pawn && matches!(b.to_ascii_lowercase(), 'a'..='e') {
            (k, Origin::Joint(b.to_ascii_lowercase() as u8 - b'a'))
        } else {
            return Err(syntax(
                text,
                "after the piece letter comes its file 1-9, or + / - for front / rear",
            ));
        }
    } else if let Some(front) = mark(a) {
        match (
            mark(b),
            b.is_ascii_alphabetic().then(|| kind_of(b)).flatten(),
        ) {
            (Some(f2), _) if f2 == front => (PieceKind::Pawn, Origin::DoubleMark(front)),
            (_, Some(k)) => (k, Origin::Mark(front)),
            _ => {
                return Err(syntax(
                    text,
                    "after + or - comes a piece letter (+C), or ++ / --",
                ));
            }
        }
    } else if let Some(f) = file(a) {
        match (mark(b), file(b)) {
            (Some(front), _) => (PieceKind::Pawn, Origin::FileMark(f, front)),
            (_, Some(f2)) if f2 == f => (PieceKind::Pawn, Origin::FileMiddle(f)),
            _ => {
                return Err(syntax(
                    text,
                    "a file digit first names doubled pawns and is followed by +, - or the same digit (3+.4, 33.4)",
                ));
            }
        }
    } else {
        return Err(syntax(
            text,
            "the first character must be a piece letter K A E H R C P (or B, N)",
        ));
    };
    let origins = origins(pos, kind, origin, text)?;
    descriptive::resolve(pos, kind, &origins, Motion { direction, number }, text)
}

fn origins(
    pos: &Position,
    kind: PieceKind,
    origin: Origin,
    text: &str,
) -> Result<Vec<Square>, MoveError> {
    let missing = |place: String| Err(descriptive::no_piece(text, pos, kind, place));
    let v: Vec<Square> = match origin {
        Origin::File(f) => {
            let list = on_file(pos, kind, f);
            if list.len() >= 3 && list.len() % 2 == 1 {
                vec![list[list.len() / 2]]
            } else {
                list
            }
        }
        Origin::Mark(front) => tandem_files(pos, kind)
            .into_iter()
            .map(|f| {
                let list = on_file(pos, kind, f);
                let c = list.len();
                match (front, c >= 4) {
                    (true, false) => list[0],
                    (true, true) => list[1],
                    (false, false) => list[c - 1],
                    (false, true) => list[c - 2],
                }
            })
            .collect(),
        Origin::DoubleMark(front) => tandem_files(pos, kind)
            .into_iter()
            .map(|f| {
                let list = on_file(pos, kind, f);
                if front { list[0] } else { list[list.len() - 1] }
            })
            .collect(),
        Origin::FileMark(f, front) => {
            let list = on_file(pos, kind, f);
            if list.len() >= 2 {
                vec![if front { list[0] } else { list[list.len() - 1] }]
            } else {
                Vec::new()
            }
        }
        Origin::FileMiddle(f) => {
            let list = on_file(pos, kind, f);
            if list.len() >= 3 && list.len() % 2 == 1 {
                vec![list[list.len() / 2]]
            } else {
                Vec::new()
            }
        }
        Origin::Joint(i) => tandem_set(pos, kind)
            .get(i as usize)
            .copied()
            .into_iter()
            .collect(),
    };
    if v.is_empty() {
        let place = match origin {
            Origin::File(f) => format!("on file {f}"),
            Origin::Mark(true) | Origin::DoubleMark(true) => {
                "at the front of a file holding several".to_string()
            }
            Origin::Mark(false) | Origin::DoubleMark(false) => {
                "at the rear of a file holding several".to_string()
            }
            Origin::FileMark(f, true) => format!("at the front of several on file {f}"),
            Origin::FileMark(f, false) => format!("at the rear of several on file {f}"),
            Origin::FileMiddle(f) => format!("in the middle of three or five on file {f}"),
            Origin::Joint(i) => format!("numbered {} among those sharing files", i + 1),
        };
        return missing(place);
    }
    Ok(v)
}
