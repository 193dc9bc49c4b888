//! [`Warning`]: what a lenient reading of a record let pass (a move that could not
//! be played and the rest of its line, a composed start position, text that is not
//! part of any game). A strict reading refuses the first two instead.

use crate::core::FenNote;
use crate::echo::echo;
use std::fmt;

/// Something a record reader let pass; the game holds it in
/// [`super::Game::warnings`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// A move that cannot be played: its line is kept up to the move before.
    BadMove {
        /// Ply of the move (1 = the first move of the game).
        ply: usize,
        /// The move is in a variation, not the main line.
        variation: bool,
        /// Why it cannot be played.
        why: String,
    },
    /// The start position: a field ignored, or a composed position (排局).
    Position(FenNote),
    /// Text between games that is not PGN, skipped.
    Skipped {
        /// Its first line (1-based).
        line: usize,
        /// The start of the text.
        text: String,
    },
    /// The record stops in the middle of a move record: what came before is kept.
    Truncated {
        /// Offset of the cut record.
        offset: usize,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::BadMove {
                ply,
                variation,
                why,
            } => write!(
                f,
                "ply {ply}{}: {why}; the {} is kept up to ply {}",
                if *variation { " (in a variation)" } else { "" },
                if *variation { "variation" } else { "game" },
                ply - 1
            ),
            Warning::Position(note) => note.fmt(f),
            Warning::Skipped { line, text } => {
                write!(
                    f,
                    "line {line}: skipped text that is not PGN: {}",
                    echo(text)
                )
            }
            Warning::Truncated { offset } => write!(
                f,
                "the record is cut short at offset {offset:#x}; the moves before are kept"
            ),
        }
    }
}
