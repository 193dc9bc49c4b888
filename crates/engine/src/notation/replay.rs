//! [`replay`]: the one way to replay a line — a start position (FEN text, or the
//! start position) and move texts in any notation — into the position it reaches,
//! its history being the line (what the rules need to judge repetitions).
//!
//! Every door that takes "a FEN and moves" calls it ([`replay_from`] when the
//! start position is already built, as [`super::move_list`] does): the daemon's `position` (and
//! `probe`), `chuhan judge`, `chuhan book probe`, `POST /api/judge` and the other
//! endpoints of `chuhan serve` that name a game, and the ChessDB-style
//! `/chessdb.php?action=queryrule`. So the same line gets the same position, the
//! same warnings or the same refusal everywhere. What each door accepts:
//!
//! | door | start position | move texts |
//! |---|---|---|
//! | daemon `position`, `probe` (UCCI and UCI) | `startpos` or `fen F`, [`Validation::Lenient`] | any notation, one word a move |
//! | `chuhan judge --fen --moves` | `--fen`, lenient (`--strict`: [`Validation::Strict`]) | any notation, separated by spaces |
//! | `chuhan book probe --fen --moves` | `--fen`, lenient | any notation |
//! | `POST /api/judge` and the other JSON game endpoints | `"fen"`, lenient | any notation, a JSON array or one string |
//! | `/chessdb.php?action=queryrule` | `board`, lenient | any notation, separated by `\|` |
//!
//! Moves are read by [`super::parse_move`]: ICCS (`h2e2`, `H2-E2`), WXF (`C2.5`)
//! or Chinese (炮二平五), recognised per move, so a line may mix them. ICCS text is
//! read exactly as the UCCI and UCI protocols write it, so a GUI's `position` line
//! means what it always did; the daemon takes the other notations too because an
//! arbiter must rule the same line the same way at every door.
//!
//! A start position play cannot reach (a composed position, 排局: a pawn behind its
//! starting rank, an elephant off its points) is accepted by the lenient build with
//! a warning ([`FenNote`]); the strict build refuses it. Impossible positions (kings
//! facing, a king out of its palace, the side not to move in check) are refused by
//! both. A refusal names the ply at fault (0 for the start position) and why
//! ([`ReplayError`]).

use super::move_error::MoveError;
use crate::core::{FenError, FenNote, Move, Position, Validation};
use std::fmt;

/// A line replayed: the position it reaches and what reading its start let pass.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The position after the last move; its history is the line.
    pub position: Position,
    /// The moves of the line, in order.
    pub moves: Vec<Move>,
    /// What the reading of the start position let pass (a composed position, GUI
    /// liberties in the FEN), one note each.
    pub warnings: Vec<FenNote>,
}

/// Why a line could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The start position is refused (ply 0).
    Fen(FenError),
    /// A move text is not a legal move at its point of the line.
    Move {
        /// Its ply (1 = the first move).
        ply: usize,
        /// What was wrong with it.
        error: MoveError,
    },
}

impl ReplayError {
    /// The ply at fault: 0 for the start position, else the 1-based number of the
    /// move.
    pub fn ply(&self) -> usize {
        match self {
            ReplayError::Fen(_) => 0,
            ReplayError::Move { ply, .. } => *ply,
        }
    }

    /// A short name of what was wrong: `fen`, or the move's
    /// [`super::MoveErrorKind::name`] (`syntax`, `unreachable`, `self-check`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            ReplayError::Fen(_) => "fen",
            ReplayError::Move { error, .. } => error.kind.name(),
        }
    }

    /// `{"error": "…", "ply": N, "kind": "…"}`, as every door that answers in JSON
    /// writes a refused line.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"error": self.to_string(), "ply": self.ply(), "kind": self.kind()})
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Fen(e) => write!(f, "{e}"),
            ReplayError::Move { ply, error } => write!(f, "ply {ply}: {error}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Replays `moves` (any notation) from `fen` (the start position when `None`),
/// the start position built with `validation`.
///
/// ```
/// use chuhan_engine::core::Validation;
/// use chuhan_engine::notation::replay::replay;
/// // Three notations in one line.
/// let r = replay(None, &["炮二平五", "h9g7", "N2+3"], Validation::Lenient).unwrap();
/// assert_eq!(r.position.game_ply(), 3);
/// assert_eq!(r.position.last_move().unwrap().to_string(), "h0g2");
/// assert_eq!(r.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["h2e2", "h9g7", "h0g2"]);
/// // The third move is the one at fault.
/// let e = replay(None, &["h2e2", "h9g7", "h2h9"], Validation::Lenient).unwrap_err();
/// assert_eq!((e.ply(), e.kind()), (3, "no-piece"));
/// // A composed position: a warning when lenient, a refusal when strict.
/// let fen = "4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 0 1";
/// assert_eq!(replay(Some(fen), &["e1e2"], Validation::Lenient).unwrap().warnings.len(), 1);
/// assert_eq!(replay(Some(fen), &["e1e2"], Validation::Strict).unwrap_err().kind(), "fen");
/// ```
pub fn replay<S: AsRef<str>>(
    fen: Option<&str>,
    moves: &[S],
    validation: Validation,
) -> Result<Replay, ReplayError> {
    let (start, warnings) = match fen {
        None => (Position::startpos(), Vec::new()),
        Some(f) => Position::from_fen_with(f.trim(), validation).map_err(ReplayError::Fen)?,
    };
    Ok(Replay {
        warnings,
        ..replay_from(start, moves)?
    })
}

/// Replays `moves` (any notation) from the position `start`, already built (its
/// own history kept; no warnings); the first move is ply 1.
pub fn replay_from<S: AsRef<str>>(mut start: Position, moves: &[S]) -> Result<Replay, ReplayError> {
    let mut played = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let mv = super::parse_move(&start, text.as_ref())
            .map_err(|error| ReplayError::Move { ply: i + 1, error })?;
        start.make_move(mv);
        played.push(mv);
    }
    Ok(Replay {
        position: start,
        moves: played,
        warnings: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_notation_reaches_the_same_position() {
        let iccs = replay(None, &["h2e2", "h9g7", "h0g2"], Validation::Strict).unwrap();
        for line in [
            ["H2-E2", "馬８進７", "N2+3"],
            ["炮二平五", "h9g7", "傌二進三"],
            ["C2.5", "H8+7", "马二进三"],
        ] {
            let r = replay(None, &line, Validation::Strict).unwrap();
            assert_eq!(r.position.to_fen(), iccs.position.to_fen(), "{line:?}");
            assert_eq!(r.position.key(), iccs.position.key(), "{line:?}");
            assert_eq!(r.position.game_ply(), 3);
        }
    }

    #[test]
    fn refusals_name_the_ply_and_the_kind() {
        let start = ["h2e2", "h9g7"];
        let case = |last: &str| {
            let mut line = start.to_vec();
            line.push(last);
            let e = replay(None, &line, Validation::Lenient).unwrap_err();
            assert_eq!(e.ply(), 3, "{e}");
            assert!(e.to_string().starts_with("ply 3: cannot play "), "{e}");
            e.kind()
        };
        assert_eq!(case("zz99"), "syntax");
        assert_eq!(case("h2h9"), "no-piece");
        assert_eq!(case("g7e8"), "not-your-piece");
        assert_eq!(case("e2e9"), "unreachable");
        assert_eq!(case(""), "empty");
        let kings = "4k4/9/9/9/9/9/9/9/9/4K4 w";
        let e = replay(Some(kings), &["e0d0"], Validation::Lenient).unwrap_err();
        assert_eq!((e.ply(), e.kind()), (0, "fen"));
        assert_eq!(
            e.to_json()["error"].as_str().unwrap(),
            e.to_string(),
            "the JSON says what Display says"
        );
    }
}
