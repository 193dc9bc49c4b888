//! Chinese move notation (炮二平五, 馬８進７, 前炮退二), traditional and simplified.
//!
//! The rules (2011 rules art. 1.1 and the xqbase "着法表示" convention, see
//! `protocol.md` §6.1):
//!
//! * four characters: piece, origin file, direction (進/进 forward, 退 back, 平
//!   sideways), and a number: points moved for king, rook, cannon and pawn going
//!   forward or back, the destination file otherwise;
//! * files count from each player's own right: Red writes Chinese numerals 一…九,
//!   Black Arabic digits, which this writer prints full-width (１…９) as XQWizard and
//!   most record sheets do;
//! * two rooks, horses or cannons on one file: 前/後 (后) replaces the file and comes
//!   first (前炮退二);
//! * pawns: every pawn on a file holding two or more pawns is counted jointly, file by
//!   file from the mover's right and front to back within a file (xqbase,
//!   ElephantEye `cchess.cpp`). Two such pawns are 前/後, three 前/中/後, four or
//!   five 一二三四五 (so pawns doubled on two files are 一兵, 二兵 on the right-hand
//!   file and 三兵, 四兵 on the other);
//! * kings, advisors and elephants always name their file: direction and target
//!   already tell two advisors (or elephants) on one file apart.
//!
//! Reading is tolerant: traditional, simplified and variant characters (帥帅 將将 仕士
//! 相象 傌馬马 俥車车 炮砲包 兵卒 進进 後后), ASCII, full-width or Chinese digits for
//! either side, white space anywhere, 前/後 after the piece (炮前退二), and five
//! characters naming a file after the piece (前兵三平四). Red/Black variants of a
//! piece name are not checked against the side to move. Text that fits several
//! legal moves is an error listing them.

use super::descriptive::{
    self, Direction, Motion, file_number, motion, on_file, tandem_files, tandem_set,
};
use super::iccs;
use super::move_error::{MoveError, MoveErrorKind};
use crate::core::{Color, Move, PieceKind, Position, Square};

/// Which characters Chinese notation is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Script {
    /// 繁體: 帥 將 馬 車 進 後.
    Traditional,
    /// 简体: 帅 将 马 车 进 后.
    Simplified,
}

const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const WIDE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The character for a piece in move text.
///
/// ```
/// use chuhan_engine::core::{Color, PieceKind};
/// use chuhan_engine::notation::chinese::{piece_char, Script};
/// assert_eq!(piece_char(PieceKind::Horse, Color::Black, Script::Traditional), '馬');
/// assert_eq!(piece_char(PieceKind::King, Color::Red, Script::Simplified), '帅');
/// ```
pub fn piece_char(kind: PieceKind, color: Color, script: Script) -> char {
    use PieceKind::*;
    let trad = script == Script::Traditional;
    match (kind, color) {
        (King, Color::Red) => {
            if trad {
                '帥'
            } else {
                '帅'
            }
        }
        (King, Color::Black) => {
            if trad {
                '將'
            } else {
                '将'
            }
        }
        (Advisor, Color::Red) => '仕',
        (Advisor, Color::Black) => '士',
        (Elephant, Color::Red) => '相',
        (Elephant, Color::Black) => '象',
        (Horse, _) => {
            if trad {
                '馬'
            } else {
                '马'
            }
        }
        (Rook, _) => {
            if trad {
                '車'
            } else {
                '车'
            }
        }
        (Cannon, _) => '炮',
        (Pawn, Color::Red) => '兵',
        (Pawn, Color::Black) => '卒',
    }
}

/// A file or a count 1..9 as `color` writes it: 一…九 for Red, １…９ for Black.
pub fn numeral(color: Color, n: u8) -> char {
    let i = (n.clamp(1, 9) - 1) as usize;
    match color {
        Color::Red => NUMERALS[i],
        Color::Black => WIDE_DIGITS[i],
    }
}

fn direction_char(d: Direction, script: Script) -> char {
    match (d, script) {
        (Direction::Forward, Script::Traditional) => '進',
        (Direction::Forward, Script::Simplified) => '进',
        (Direction::Backward, _) => '退',
        (Direction::Sideways, _) => '平',
    }
}

/// The 前/中/後 or 一…五 character naming the piece on `from`, if its file is shared.
fn designation(pos: &Position, kind: PieceKind, from: Square, script: Script) -> Option<char> {
    if matches!(
        kind,
        PieceKind::King | PieceKind::Advisor | PieceKind::Elephant
    ) {
        return None;
    }
    let set = tandem_set(pos, kind);
    let i = set.iter().position(|&s| s == from)?;
    let rear = if script == Script::Traditional {
        '後'
    } else {
        '后'
    };
    Some(match set.len() {
        2 => ['前', rear][i],
        3 => ['前', '中', rear][i],
        _ => NUMERALS[i],
    })
}

/// Writes the legal move `mv` of `pos` in Chinese notation.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::notation::chinese::{self, Script};
/// let mut pos = Position::startpos();
/// let m = "h2e2".parse().unwrap();
/// assert_eq!(chinese::format(&pos, m, Script::Traditional).unwrap(), "炮二平五");
/// pos.make_move(m);
/// let m = "h9g7".parse().unwrap();
/// assert_eq!(chinese::format(&pos, m, Script::Simplified).unwrap(), "马８进７");
/// ```
pub fn format(pos: &Position, mv: Move, script: Script) -> Result<String, MoveError> {
    iccs::check(pos, mv, &mv.to_string())?;
    let us = pos.side_to_move();
    let kind = pos
        .piece_at(mv.from())
        .map(|p| p.kind)
        .ok_or_else(|| MoveError::new(&mv.to_string(), MoveErrorKind::NoPieceOn(mv.from())))?;
    let m = motion(kind, us, mv.from(), mv.to());
    let piece = piece_char(kind, us, script);
    let mut s = String::with_capacity(16);
    match designation(pos, kind, mv.from(), script) {
        Some(d) => {
            s.push(d);
            s.push(piece);
        }
        None => {
            s.push(piece);
            s.push(numeral(us, file_number(us, mv.from())));
        }
    }
    s.push(direction_char(m.direction, script));
    s.push(numeral(us, m.number));
    Ok(s)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Front,
    Middle,
    Rear,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sym {
    Piece(PieceKind),
    Num(u8),
    Place(Place),
    Dir(Direction),
}

fn symbol(c: char) -> Option<Sym> {
    use PieceKind::*;
    Some(match c {
        '帥' | '帅' | '將' | '将' => Sym::Piece(King),
        '仕' | '士' => Sym::Piece(Advisor),
        '相' | '象' => Sym::Piece(Elephant),
        '馬' | '马' | '傌' | '𫘝' => Sym::Piece(Horse),
        '車' | '车' | '俥' | '伡' => Sym::Piece(Rook),
        '炮' | '砲' | '包' => Sym::Piece(Cannon),
        '兵' | '卒' => Sym::Piece(Pawn),
        '前' => Sym::Place(Place::Front),
        '中' => Sym::Place(Place::Middle),
        '後' | '后' => Sym::Place(Place::Rear),
        '進' | '进' => Sym::Dir(Direction::Forward),
        '退' => Sym::Dir(Direction::Backward),
        '平' => Sym::Dir(Direction::Sideways),
        '1'..='9' => Sym::Num(c as u8 - b'0'),
        '１'..='９' => Sym::Num((c as u32 - '０' as u32) as u8),
        _ => Sym::Num(NUMERALS.iter().position(|&n| n == c)? as u8 + 1),
    })
}

/// Where the text says the moving piece stands.
#[derive(Clone, Copy, Debug)]
enum Origin {
    File(u8),
    Place(Place, Option<u8>),
    Nth(u8, Option<u8>),
}

/// Reads Chinese move text as a legal move of `pos` (see the module docs for what
/// is accepted).
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::notation::chinese;
/// let pos = Position::startpos();
/// assert_eq!(chinese::parse(&pos, "炮二平五").unwrap().to_string(), "h2e2");
/// assert_eq!(chinese::parse(&pos, "馬二進三").unwrap().to_string(), "h0g2");
/// assert_eq!(chinese::parse(&pos, "马2进3").unwrap().to_string(), "h0g2");
/// ```
pub fn parse(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let mut syms = Vec::with_capacity(5);
    for c in text.chars() {
        if c.is_whitespace() {
            continue;
        }
        match symbol(c) {
            Some(s) => syms.push(s),
            None => {
                return Err(MoveError::new(
                    text,
                    MoveErrorKind::Syntax(
                        "a character is not a piece, a numeral, 前/中/後 or 進/退/平",
                    ),
                ));
            }
        }
        if syms.len() > 5 {
            break;
        }
    }
    if syms.is_empty() {
        return Err(MoveError::new(text, MoveErrorKind::Empty));
    }
    let nth = |n: u8| (1..=5).contains(&n);
    let (kind, origin, dir, n) = match syms.as_slice() {
        [Sym::Piece(k), Sym::Num(f), Sym::Dir(d), Sym::Num(n)] => (*k, Origin::File(*f), *d, *n),
        [Sym::Piece(k), Sym::Place(p), Sym::Dir(d), Sym::Num(n)]
        | [Sym::Place(p), Sym::Piece(k), Sym::Dir(d), Sym::Num(n)] => {
            (*k, Origin::Place(*p, None), *d, *n)
        }
        [Sym::Num(i), Sym::Piece(k), Sym::Dir(d), Sym::Num(n)] if nth(*i) => {
            (*k, Origin::Nth(*i, None), *d, *n)
        }
        [
            Sym::Place(p),
            Sym::Piece(k),
            Sym::Num(f),
            Sym::Dir(d),
            Sym::Num(n),
        ] => (*k, Origin::Place(*p, Some(*f)), *d, *n),
        [
            Sym::Num(i),
            Sym::Piece(k),
            Sym::Num(f),
            Sym::Dir(d),
            Sym::Num(n),
        ] if nth(*i) => (*k, Origin::Nth(*i, Some(*f)), *d, *n),
        _ => {
            return Err(MoveError::new(
                text,
                MoveErrorKind::Syntax(
                    "expected piece, file, 進/退/平 and a number (炮二平五), or 前/中/後 or 一…五 before the piece (前炮退二)",
                ),
            ));
        }
    };
    let origins = origins(pos, kind, origin, text)?;
    descriptive::resolve(
        pos,
        kind,
        &origins,
        Motion {
            direction: dir,
            number: n,
        },
        text,
    )
}

fn pick(place: Place, list: &[Square]) -> Option<Square> {
    if list.len() < 2 {
        return None;
    }
    match place {
        Place::Front => list.first().copied(),
        Place::Rear => list.last().copied(),
        Place::Middle => (list.len() % 2 == 1).then(|| list[list.len() / 2]),
    }
}

fn place_name(p: Place) -> &'static str {
    match p {
        Place::Front => "front",
        Place::Middle => "middle",
        Place::Rear => "rear",
    }
}

fn origins(
    pos: &Position,
    kind: PieceKind,
    origin: Origin,
    text: &str,
) -> Result<Vec<Square>, MoveError> {
    let missing = |place: String| Err(descriptive::no_piece(text, pos, kind, place));
    match origin {
        Origin::File(f) => {
            let v = on_file(pos, kind, f);
            if v.is_empty() {
                return missing(format!("on file {f}"));
            }
            Ok(v)
        }
        Origin::Place(p, Some(f)) => match pick(p, &on_file(pos, kind, f)) {
            Some(s) => Ok(vec![s]),
            None => missing(format!("at the {} of several on file {f}", place_name(p))),
        },
        Origin::Place(p, None) => {
            let v: Vec<Square> = tandem_files(pos, kind)
                .into_iter()
                .filter_map(|f| pick(p, &on_file(pos, kind, f)))
                .collect();
            if v.is_empty() {
                return missing(format!("at the {} of several on one file", place_name(p)));
            }
            Ok(v)
        }
        Origin::Nth(i, Some(f)) => match on_file(pos, kind, f).get(i as usize - 1) {
            Some(&s) if on_file(pos, kind, f).len() >= 2 => Ok(vec![s]),
            _ => missing(format!("numbered {i} among several on file {f}")),
        },
        Origin::Nth(i, None) => match tandem_set(pos, kind).get(i as usize - 1) {
            Some(&s) => Ok(vec![s]),
            None => missing(format!("numbered {i} among those sharing files")),
        },
    }
}
