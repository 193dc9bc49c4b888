//! [`MoveError`]: why a piece of move text could not be turned into a legal move.

use crate::core::{Color, Move, Piece, Square};
use std::fmt;

/// What was wrong with a piece of move text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveErrorKind {
    /// The text was empty (or only white space).
    Empty,
    /// The text does not follow the notation's grammar; the reason names the part.
    Syntax(&'static str),
    /// ICCS text whose origin square is empty.
    NoPieceOn(Square),
    /// ICCS text whose origin holds a piece of the side not to move.
    NotYourPiece {
        /// The origin square.
        square: Square,
        /// The side to move.
        side: Color,
    },
    /// The text names a piece the side to move does not have where it says.
    NoSuchPiece {
        /// The piece named.
        piece: Piece,
        /// Where the text puts it, e.g. "on file 2" or "at the front of a file".
        place: String,
    },
    /// The piece exists but cannot make the described move by its movement rules
    /// (blocked, off the board, a leg or eye blocked, a friendly piece on the target).
    Unreachable {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        from: Square,
        /// Where the text sends it, if that is a point of the board.
        to: Option<Square>,
    },
    /// The move would leave the mover's king attacked (or facing the other king).
    SelfCheck(Move),
    /// Several legal moves fit the text.
    Ambiguous(Vec<Move>),
}

/// Move text that could not be read as a legal move of a position.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::notation::{self, MoveErrorKind};
/// let err = notation::parse_move(&Position::startpos(), "炮二進八").unwrap_err();
/// assert!(matches!(err.kind, MoveErrorKind::Unreachable { .. }));
/// assert!(err.to_string().contains("炮二進八"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// The text as given (what [`crate::echo::keep`] keeps of a long one, so that
    /// the message shows it was cut).
    pub text: String,
    /// What was wrong.
    pub kind: MoveErrorKind,
}

impl MoveError {
    /// An error about `text`.
    pub fn new(text: &str, kind: MoveErrorKind) -> MoveError {
        MoveError {
            text: crate::echo::keep(text),
            kind,
        }
    }
}

impl MoveErrorKind {
    /// A short, stable name of the kind: `empty`, `syntax`, `no-piece`,
    /// `not-your-piece`, `no-such-piece`, `unreachable`, `self-check` or
    /// `ambiguous`.
    pub fn name(&self) -> &'static str {
        match self {
            MoveErrorKind::Empty => "empty",
            MoveErrorKind::Syntax(_) => "syntax",
            MoveErrorKind::NoPieceOn(_) => "no-piece",
            MoveErrorKind::NotYourPiece { .. } => "not-your-piece",
            MoveErrorKind::NoSuchPiece { .. } => "no-such-piece",
            MoveErrorKind::Unreachable { .. } => "unreachable",
            MoveErrorKind::SelfCheck(_) => "self-check",
            MoveErrorKind::Ambiguous(_) => "ambiguous",
        }
    }
}

fn piece_name(p: Piece) -> String {
    format!("{} {}", p.color, p.kind.name())
}

impl fmt::Display for MoveErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveErrorKind::Empty => f.write_str("no move text"),
            MoveErrorKind::Syntax(reason) => f.write_str(reason),
            MoveErrorKind::NoPieceOn(sq) => write!(f, "there is no piece on {sq}"),
            MoveErrorKind::NotYourPiece { square, side } => {
                write!(
                    f,
                    "the piece on {square} is not {side}'s, and {side} is to move"
                )
            }
            MoveErrorKind::NoSuchPiece { piece, place } => {
                write!(f, "there is no {} {place}", piece_name(*piece))
            }
            MoveErrorKind::Unreachable { piece, from, to } => match to {
                Some(to) => write!(
                    f,
                    "the {} on {from} cannot move to {to}",
                    piece_name(*piece)
                ),
                None => write!(
                    f,
                    "the {} on {from} cannot move that way (it would leave the board or its area)",
                    piece_name(*piece)
                ),
            },
            MoveErrorKind::SelfCheck(m) => write!(
                f,
                "{m} would leave the mover's king in check or facing the other king"
            ),
            MoveErrorKind::Ambiguous(moves) => {
                f.write_str("ambiguous, it fits ")?;
                for (i, m) in moves.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{m}")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot play {}: {}",
            crate::echo::echo(&self.text),
            self.kind
        )
    }
}

impl std::error::Error for MoveError {}
