//! FEN text: parsing into an unvalidated [`Setup`], writing, and typed errors.
//!
//! The dialect is the one Pikafish, Fairy-Stockfish and UCCI use: ranks from 9 (Black's
//! back rank) down to 0, `RNBAKCP` for Red and `rnbakcp` for Black (the WXF letters
//! `H`/`E` are accepted on input), side `w` or `b` (the old `r` means Red), then
//! optional `- -`, the plies since the last capture and the move number.
//!
//! What GUIs send beyond that is accepted, and each liberty taken is a
//! [`FenNote`] ([`Setup::parse_noted`]): a side letter in upper case (`W`, `B`,
//! `R`), no side field at all (Red moves), and fields after the move number
//! (ignored). A composed position (排局) is described in
//! [`crate::core::Position::from_setup_with`].

use super::piece::{Color, Piece};
use super::square::{File, Rank, Square};
use crate::echo::echo;
use std::fmt;

/// The FEN of the standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// One thing wrong with a FEN string or the position it describes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenProblem {
    /// The string has no board field.
    Empty,
    /// The board field does not have 10 ranks.
    RankCount(usize),
    /// A rank (0..9, 9 = first in the text) does not describe 9 points.
    RankWidth {
        /// The rank number (9 for the first group in the text).
        rank: u8,
        /// How many points it described.
        width: usize,
    },
    /// A character that is neither a piece letter nor a digit 1..9.
    UnknownLetter(char),
    /// The side-to-move field is not `w`, `b` or `r`.
    BadSide(String),
    /// A counter field is not a number.
    BadCounter(String),
    /// More than the allowed number of a piece (1 king, 5 pawns, 2 of the others).
    TooMany {
        /// The piece.
        piece: Piece,
        /// How many there are.
        count: u32,
    },
    /// A king, advisor, elephant or pawn on a point it can never reach.
    Misplaced {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// A side has no king.
    MissingKing(Color),
    /// The kings face each other on a file with nothing between.
    KingsFacing,
    /// The side that just moved is in check (its king could be captured).
    SideNotToMoveInCheck,
}

/// The category of a [`FenProblem`], for matching without the details.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenProblemKind {
    /// Any syntax problem (empty, rank count or width, letter, side, counter).
    Syntax,
    /// Too many pieces of a kind.
    TooMany,
    /// A piece off its allowed points.
    Misplaced,
    /// A missing king.
    MissingKing,
    /// Kings facing.
    KingsFacing,
    /// The side not to move is in check.
    SideNotToMoveInCheck,
}

impl FenProblem {
    /// The problem's category.
    pub fn kind(&self) -> FenProblemKind {
        match self {
            FenProblem::Empty
            | FenProblem::RankCount(_)
            | FenProblem::RankWidth { .. }
            | FenProblem::UnknownLetter(_)
            | FenProblem::BadSide(_)
            | FenProblem::BadCounter(_) => FenProblemKind::Syntax,
            FenProblem::TooMany { .. } => FenProblemKind::TooMany,
            FenProblem::Misplaced { .. } => FenProblemKind::Misplaced,
            FenProblem::MissingKing(_) => FenProblemKind::MissingKing,
            FenProblem::KingsFacing => FenProblemKind::KingsFacing,
            FenProblem::SideNotToMoveInCheck => FenProblemKind::SideNotToMoveInCheck,
        }
    }
}

impl fmt::Display for FenProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenProblem::Empty => write!(f, "empty FEN"),
            FenProblem::RankCount(n) => write!(f, "the board has {n} ranks, expected 10"),
            FenProblem::RankWidth { rank, width } => {
                write!(f, "rank {rank} describes {width} points, expected 9")
            }
            FenProblem::UnknownLetter(c) => {
                write!(f, "unknown piece letter {}", echo(&c.to_string()))
            }
            FenProblem::BadSide(s) => write!(f, "side to move {} is not w, b or r", echo(s)),
            FenProblem::BadCounter(s) => write!(f, "counter {} is not a number", echo(s)),
            FenProblem::TooMany { piece, count } => write!(
                f,
                "{count} {} {}s (at most {})",
                piece.color,
                piece.kind.name(),
                piece.kind.max_count()
            ),
            FenProblem::Misplaced { piece, square } => {
                write!(
                    f,
                    "{} {} on {square}, a point it can never reach",
                    piece.color,
                    piece.kind.name()
                )
            }
            FenProblem::MissingKing(c) => write!(f, "{c} has no king"),
            FenProblem::KingsFacing => write!(f, "the kings face each other"),
            FenProblem::SideNotToMoveInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

/// Why a FEN was rejected: every problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub Vec<FenProblem>);

impl FenError {
    /// True if some problem has category `kind`.
    pub fn has(&self, kind: FenProblemKind) -> bool {
        self.0.iter().any(|p| p.kind() == kind)
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid FEN: ")?;
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for FenError {}

/// How strictly a position is checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Validation {
    /// Only positions that can arise in play.
    Strict,
    /// Composed positions (排局) too: pawns, elephants and advisors may stand on
    /// points play never brings them to (elephants and advisors on their own side
    /// of the river), each with a [`FenNote::Composed`].
    #[default]
    Lenient,
}

/// Something a reading let pass: the position is usable, but not quite as written
/// or not one play can reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenNote {
    /// Fields after the move number, ignored.
    Ignored(String),
    /// The side-to-move letter was in upper case.
    SideCase(String),
    /// There is no side-to-move field: Red moves.
    NoSide,
    /// A piece on a point play never brings it to (a composed position).
    Composed {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
}

impl fmt::Display for FenNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenNote::Ignored(s) => {
                write!(f, "FEN fields after the move number ignored: {}", echo(s))
            }
            FenNote::SideCase(s) => write!(
                f,
                "FEN side to move {} read as {}",
                echo(s),
                echo(&s.to_ascii_lowercase())
            ),
            FenNote::NoSide => f.write_str("the FEN has no side to move: Red (w) moves"),
            FenNote::Composed { piece, square } => write!(
                f,
                "a composed position: {} {} on {square}, a point play never brings it to",
                piece.color,
                piece.kind.name()
            ),
        }
    }
}

/// Most unknown letters named in one error.
const MAX_UNKNOWN_LETTERS: usize = 8;

/// Records an unknown letter once, and at most [`MAX_UNKNOWN_LETTERS`] of them.
fn unknown(problems: &mut Vec<FenProblem>, c: char) {
    let seen: Vec<char> = problems
        .iter()
        .filter_map(|p| match p {
            FenProblem::UnknownLetter(l) => Some(*l),
            _ => None,
        })
        .collect();
    if seen.len() < MAX_UNKNOWN_LETTERS && !seen.contains(&c) {
        problems.push(FenProblem::UnknownLetter(c));
    }
}

/// A parsed but unvalidated position: what the FEN says, nothing checked beyond
/// syntax. [`crate::core::Position::from_setup`] validates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Piece on each square (index = square index).
    pub board: [Option<Piece>; 90],
    /// Side to move.
    pub side: Color,
    /// Plies since the last capture (the 60-move counter).
    pub rule60: u32,
    /// Full move number, starting at 1.
    pub fullmove: u32,
}

impl Setup {
    /// Parses FEN text (only the syntax is checked).
    ///
    /// ```
    /// use chuhan_engine::core::{Color, Setup};
    /// let s = Setup::parse("4k4/9/9/9/9/9/9/9/9/4K4 r").unwrap();
    /// assert_eq!(s.side, Color::Red);
    /// assert!(Setup::parse("4k4/9/9 w").is_err());
    /// ```
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        Setup::parse_noted(fen).map(|(s, _)| s)
    }

    /// Parses FEN text like [`Setup::parse`], with a [`FenNote`] for each liberty
    /// taken (see the module docs).
    ///
    /// ```
    /// use chuhan_engine::core::{Color, FenNote, Setup};
    /// let (s, notes) = Setup::parse_noted("4k4/9/9/9/9/9/9/9/9/4K4 B - - 0 1 junk").unwrap();
    /// assert_eq!(s.side, Color::Black);
    /// assert_eq!(notes, [FenNote::SideCase("B".into()), FenNote::Ignored("junk".into())]);
    /// assert_eq!(Setup::parse_noted("4k4/9/9/9/9/9/9/9/9/4K4").unwrap().1, [FenNote::NoSide]);
    /// ```
    pub fn parse_noted(fen: &str) -> Result<(Setup, Vec<FenNote>), FenError> {
        let mut notes = Vec::new();
        let mut fields = fen.split_ascii_whitespace();
        let Some(board_field) = fields.next() else {
            return Err(FenError(vec![FenProblem::Empty]));
        };
        let mut problems = Vec::new();
        let mut board = [None; 90];
        let ranks: Vec<&str> = board_field.split('/').collect();
        if ranks.len() != 10 {
            problems.push(FenProblem::RankCount(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate().take(10) {
            let rank = 9 - i as u8;
            let mut width = 0usize;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        unknown(&mut problems, c);
                    }
                    width += d as usize;
                } else if let Some(p) = Piece::from_fen_char(c) {
                    if width < 9 {
                        let sq = Square::new(
                            File::new(width as u8).expect("< 9"),
                            Rank::new(rank).expect("< 10"),
                        );
                        board[sq.index()] = Some(p);
                    }
                    width += 1;
                } else {
                    unknown(&mut problems, c);
                }
            }
            if width != 9 {
                problems.push(FenProblem::RankWidth { rank, width });
            }
        }
        let side_field = fields.next();
        if let Some(s @ ("W" | "B" | "R")) = side_field {
            notes.push(FenNote::SideCase(s.to_string()));
        }
        let side = match side_field {
            None => {
                notes.push(FenNote::NoSide);
                Color::Red
            }
            Some("w") | Some("W") | Some("r") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(s) => {
                problems.push(FenProblem::BadSide(crate::echo::keep(s)));
                Color::Red
            }
        };
        let mut counters = fields.skip_while(|t| *t == "-");
        let mut number = |default: u32| match counters.next() {
            None => default,
            Some(t) => t.parse::<u32>().unwrap_or_else(|_| {
                problems.push(FenProblem::BadCounter(crate::echo::keep(t)));
                default
            }),
        };
        let rule60 = number(0);
        let fullmove = number(1).max(1);
        let rest: Vec<&str> = counters.collect();
        if !rest.is_empty() {
            notes.push(FenNote::Ignored(crate::echo::keep(&rest.join(" "))));
        }
        if problems.is_empty() {
            Ok((
                Setup {
                    board,
                    side,
                    rule60,
                    fullmove,
                },
                notes,
            ))
        } else {
            Err(FenError(problems))
        }
    }

    /// Writes FEN text with all six fields.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(80);
        for r in (0..10).rev() {
            let mut empty = 0;
            for f in 0..9 {
                match self.board[r * 9 + f] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from_digit(empty, 10).expect("digit"));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from_digit(empty, 10).expect("digit"));
            }
            if r > 0 {
                s.push('/');
            }
        }
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        format!("{s} {side} - - {} {}", self.rule60, self.fullmove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trip() {
        let s = Setup::parse(START_FEN).unwrap();
        assert_eq!(s.to_fen(), START_FEN);
        assert_eq!(s.board.iter().flatten().count(), 32);
    }

    #[test]
    fn syntax_errors() {
        assert!(Setup::parse("").unwrap_err().has(FenProblemKind::Syntax));
        let e = Setup::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w")
            .unwrap_err();
        assert_eq!(e.0, vec![FenProblem::RankWidth { rank: 0, width: 8 }]);
        let e = Setup::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x")
            .unwrap_err();
        assert!(matches!(e.0[0], FenProblem::BadSide(_)));
        let e =
            Setup::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1")
                .unwrap_err();
        assert!(matches!(e.0[0], FenProblem::BadCounter(_)));
        let e = Setup::parse("rnbakabnx/9/9/9/9/9/9/9/9/9").unwrap_err();
        assert!(e.0.contains(&FenProblem::UnknownLetter('x')));
    }

    #[test]
    fn wxf_letters_and_optional_fields() {
        let a =
            Setup::parse("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w").unwrap();
        assert_eq!(a.to_fen(), START_FEN);
        let b = Setup::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b 12 7")
            .unwrap();
        assert_eq!((b.side, b.rule60, b.fullmove), (Color::Black, 12, 7));
    }
}
