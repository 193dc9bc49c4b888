//! ICCS coordinates (`h2e2`, `H2-E2`) checked against a position.
//!
//! Files `a`..`i` from Red's left, ranks `0`..`9` from Red's side (xqbase / UCCI;
//! `protocol.md` §4.4). UCCI writes lower case without a dash; PGN `[Format "ICCS"]`
//! writes upper case with a dash. Both are read, in either case.

use super::move_error::{MoveError, MoveErrorKind};
use crate::core::{Move, Position};

/// How to write ICCS text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IccsStyle {
    /// `h2e2`, as UCCI and UCI engines write it.
    Compact,
    /// `H2-E2`, as ICCS and PGN `[Format "ICCS"]` write it.
    Dashed,
}

/// Writes `mv` in ICCS after checking it is legal in `pos`.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::notation::iccs::{self, IccsStyle};
/// let pos = Position::startpos();
/// let m = iccs::parse(&pos, "H2-E2").unwrap();
/// assert_eq!(iccs::format(&pos, m, IccsStyle::Compact).unwrap(), "h2e2");
/// assert_eq!(iccs::format(&pos, m, IccsStyle::Dashed).unwrap(), "H2-E2");
/// ```
pub fn format(pos: &Position, mv: Move, style: IccsStyle) -> Result<String, MoveError> {
    check(pos, mv, &mv.to_string())?;
    Ok(match style {
        IccsStyle::Compact => mv.to_string(),
        IccsStyle::Dashed => mv.to_iccs_dash(),
    })
}

/// True if `text` has the shape of ICCS coordinates (`h2e2`, `H2-E2`), whatever the
/// position.
pub fn looks_like(text: &str) -> bool {
    let b = text.as_bytes();
    let sq = |f: u8, r: u8| (b'a'..=b'i').contains(&f.to_ascii_lowercase()) && r.is_ascii_digit();
    match b.len() {
        4 => sq(b[0], b[1]) && sq(b[2], b[3]),
        5 => sq(b[0], b[1]) && b[2] == b'-' && sq(b[3], b[4]),
        _ => false,
    }
}

/// Reads ICCS text (`h2e2`, `H2E2`, `H2-E2`) as a legal move of `pos`.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::notation::iccs;
/// let pos = Position::startpos();
/// assert!(iccs::parse(&pos, "h9g7").unwrap_err().to_string().contains("not red's"));
/// ```
pub fn parse(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(MoveError::new(text, MoveErrorKind::Empty));
    }
    if !looks_like(t) {
        return Err(MoveError::new(
            text,
            MoveErrorKind::Syntax("ICCS coordinates look like h2e2 or H2-E2"),
        ));
    }
    let mv: Move = t.parse().map_err(|_| {
        MoveError::new(
            text,
            MoveErrorKind::Syntax("origin and target are the same point"),
        )
    })?;
    check(pos, mv, text)?;
    Ok(mv)
}

/// Checks that `mv` is legal in `pos`, naming why not.
pub(crate) fn check(pos: &Position, mv: Move, text: &str) -> Result<(), MoveError> {
    if pos.is_legal(mv) {
        return Ok(());
    }
    let err = |kind| Err(MoveError::new(text, kind));
    if !mv.is_some() {
        return err(MoveErrorKind::Syntax(
            "a null move is not a move of the game",
        ));
    }
    let Some(piece) = pos.piece_at(mv.from()) else {
        return err(MoveErrorKind::NoPieceOn(mv.from()));
    };
    if piece.color != pos.side_to_move() {
        return err(MoveErrorKind::NotYourPiece {
            square: mv.from(),
            side: pos.side_to_move(),
        });
    }
    if pos.is_pseudo_legal(mv) {
        return err(MoveErrorKind::SelfCheck(mv));
    }
    err(MoveErrorKind::Unreachable {
        piece,
        from: mv.from(),
        to: Some(mv.to()),
    })
}
