//! The geometry shared by the file-numbered ("descriptive") notations, WXF and
//! Chinese: files counted 1..9 from the mover's right (2011 rules art. 1.1), ranks
//! counted forward from the mover's back rank, a move told as a direction and a
//! number, and the ordering of same pieces on one file (front to back).
//!
//! A move is written `piece, origin, direction, number`. The direction is forward
//! (進 / `+`), backward (退 / `-`) or sideways (平 / `.`). The number is the count of
//! points moved for a piece moving straight along its file (king, rook, cannon,
//! pawn), and the destination file otherwise (sideways moves, and every move of the
//! diagonal movers: horse, elephant, advisor).

use super::move_error::{MoveError, MoveErrorKind};
use crate::core::{Color, File, Move, Piece, PieceKind, Position, Rank, Square};

/// Which way a move goes, seen from the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Toward the opponent: 進 (进), `+`.
    Forward,
    /// Toward the mover's own side: 退, `-`.
    Backward,
    /// Along the rank: 平, `.` (also `=` on input).
    Sideways,
}

/// Direction and number: everything a descriptive move says after the origin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Motion {
    /// Forward, backward or sideways.
    pub direction: Direction,
    /// Points moved (straight movers going forward/backward) or the destination
    /// file 1..9 from the mover's right (everything else).
    pub number: u8,
}

/// The file of `sq` numbered 1..9 from `color`'s right.
///
/// ```
/// use chuhan_engine::core::{Color, Square};
/// use chuhan_engine::notation::descriptive::file_number;
/// assert_eq!(file_number(Color::Red, Square::H2), 2); // 炮二
/// assert_eq!(file_number(Color::Black, Square::H7), 8); // 炮８
/// ```
pub fn file_number(color: Color, sq: Square) -> u8 {
    let f = sq.file().index() as u8;
    match color {
        Color::Red => 9 - f,
        Color::Black => f + 1,
    }
}

/// How far forward `sq` is from `color`'s back rank (0..9).
pub fn depth(color: Color, sq: Square) -> u8 {
    let r = sq.rank().index() as u8;
    match color {
        Color::Red => r,
        Color::Black => 9 - r,
    }
}

/// The square on `color`'s file `file` (1..9) at `depth` (0..9), if both are in range.
pub fn square_at(color: Color, file: u8, depth: i32) -> Option<Square> {
    if !(1..=9).contains(&file) || !(0..=9).contains(&depth) {
        return None;
    }
    let (f, r) = match color {
        Color::Red => (9 - file, depth as u8),
        Color::Black => (file - 1, 9 - depth as u8),
    };
    Some(Square::new(File::new(f)?, Rank::new(r)?))
}

/// True for the pieces whose forward/backward number counts points (king, rook,
/// cannon, pawn); false for the diagonal movers (horse, elephant, advisor), whose
/// number is always a file.
pub fn moves_straight(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::King | PieceKind::Rook | PieceKind::Cannon | PieceKind::Pawn
    )
}

/// The direction and number describing a move of a `kind` piece of `color` from
/// `from` to `to`.
pub fn motion(kind: PieceKind, color: Color, from: Square, to: Square) -> Motion {
    let (fd, td) = (depth(color, from), depth(color, to));
    let direction = match td.cmp(&fd) {
        std::cmp::Ordering::Greater => Direction::Forward,
        std::cmp::Ordering::Less => Direction::Backward,
        std::cmp::Ordering::Equal => Direction::Sideways,
    };
    let number = if direction != Direction::Sideways && moves_straight(kind) {
        fd.abs_diff(td)
    } else {
        file_number(color, to)
    };
    Motion { direction, number }
}

/// Where a `kind` piece of `color` on `from` lands when it makes `m`, or `None` when
/// the description makes no geometric sense (off the board, a diagonal mover going
/// sideways, a horse changing by three files...). Board contents are not looked at.
pub fn destination(kind: PieceKind, color: Color, from: Square, m: Motion) -> Option<Square> {
    let (ff, fd) = (file_number(color, from), depth(color, from) as i32);
    let n = m.number as i32;
    match m.direction {
        Direction::Sideways => {
            if !moves_straight(kind) || m.number == ff {
                return None;
            }
            square_at(color, m.number, fd)
        }
        Direction::Forward | Direction::Backward => {
            let sign = if m.direction == Direction::Forward {
                1
            } else {
                -1
            };
            if moves_straight(kind) {
                if n == 0 {
                    return None;
                }
                return square_at(color, ff, fd + sign * n);
            }
            let dx = ff.abs_diff(m.number);
            let dy = match (kind, dx) {
                (PieceKind::Horse, 1) => 2,
                (PieceKind::Horse, 2) => 1,
                (PieceKind::Elephant, 2) => 2,
                (PieceKind::Advisor, 1) => 1,
                _ => return None,
            };
            square_at(color, m.number, fd + sign * dy)
        }
    }
}

/// The side to move's pieces of `kind` on its file `file`, front first.
pub fn on_file(pos: &Position, kind: PieceKind, file: u8) -> Vec<Square> {
    let us = pos.side_to_move();
    let mut v: Vec<Square> = pos
        .pieces(us, kind)
        .into_iter()
        .filter(|&s| file_number(us, s) == file)
        .collect();
    v.sort_by_key(|&s| std::cmp::Reverse(depth(us, s)));
    v
}

/// The files (1..9, ascending = from the mover's right) on which the side to move
/// has two or more pieces of `kind`.
pub fn tandem_files(pos: &Position, kind: PieceKind) -> Vec<u8> {
    let us = pos.side_to_move();
    let mut count = [0u8; 10];
    for s in pos.pieces(us, kind) {
        count[file_number(us, s) as usize] += 1;
    }
    (1..=9u8).filter(|&f| count[f as usize] >= 2).collect()
}

/// Every piece of `kind` standing on a tandem file, ordered file by file from the
/// mover's right and front to back within a file: the joint order the xqbase
/// convention numbers 一…五 (ElephantEye `cchess.cpp` sorts by the same key).
pub fn tandem_set(pos: &Position, kind: PieceKind) -> Vec<Square> {
    tandem_files(pos, kind)
        .into_iter()
        .flat_map(|f| on_file(pos, kind, f))
        .collect()
}

/// Where a descriptive move's origin was looked for, for error messages.
pub(crate) fn no_piece(text: &str, pos: &Position, kind: PieceKind, place: String) -> MoveError {
    MoveError::new(
        text,
        MoveErrorKind::NoSuchPiece {
            piece: Piece::new(pos.side_to_move(), kind),
            place,
        },
    )
}

/// Picks the one legal move of a `kind` piece standing on one of `origins` that
/// fits `m`, naming why when none or several do.
pub(crate) fn resolve(
    pos: &Position,
    kind: PieceKind,
    origins: &[Square],
    m: Motion,
    text: &str,
) -> Result<Move, MoveError> {
    let us = pos.side_to_move();
    let piece = Piece::new(us, kind);
    let mut legal = Vec::new();
    let mut first_unreachable: Option<(Square, Option<Square>)> = None;
    let mut self_check = None;
    for &from in origins {
        match destination(kind, us, from, m) {
            None => {
                first_unreachable.get_or_insert((from, None));
            }
            Some(to) => {
                let mv = Move::new(from, to);
                if pos.is_legal(mv) {
                    legal.push(mv);
                } else if pos.is_pseudo_legal(mv) {
                    self_check.get_or_insert(mv);
                } else {
                    let slot = first_unreachable.get_or_insert((from, Some(to)));
                    if slot.1.is_none() {
                        *slot = (from, Some(to));
                    }
                }
            }
        }
    }
    match legal.len() {
        1 => Ok(legal[0]),
        0 => Err(MoveError::new(
            text,
            match (self_check, first_unreachable) {
                (Some(mv), _) => MoveErrorKind::SelfCheck(mv),
                (None, Some((from, to))) => MoveErrorKind::Unreachable { piece, from, to },
                (None, None) => MoveErrorKind::NoSuchPiece {
                    piece,
                    place: "there".to_string(),
                },
            },
        )),
        _ => Err(MoveError::new(text, MoveErrorKind::Ambiguous(legal))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_and_geometry() {
        for sq in Square::ALL {
            for c in Color::ALL {
                let back = square_at(c, file_number(c, sq), depth(c, sq) as i32);
                assert_eq!(back, Some(sq));
            }
        }
        assert_eq!(file_number(Color::Red, Square::A0), 9);
        assert_eq!(file_number(Color::Black, Square::A9), 1);
        let m = motion(PieceKind::Horse, Color::Black, Square::H9, Square::G7);
        assert_eq!(
            m,
            Motion {
                direction: Direction::Forward,
                number: 7
            }
        );
        assert_eq!(
            destination(PieceKind::Horse, Color::Black, Square::H9, m),
            Some(Square::G7)
        );
        let c = motion(PieceKind::Cannon, Color::Red, Square::E2, Square::E6);
        assert_eq!((c.direction, c.number), (Direction::Forward, 4));
        let bad = Motion {
            direction: Direction::Sideways,
            number: 3,
        };
        assert_eq!(
            destination(PieceKind::Horse, Color::Red, Square::H0, bad),
            None
        );
    }
}
