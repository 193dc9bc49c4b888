//! Notations and game records: readers and writers over [`crate::core`].
//!
//! * Move text: [`iccs`] (`h2e2`, `H2-E2`), [`wxf`] (`C2.5`), [`chinese`] (炮二平五,
//!   馬８進７, traditional and simplified), all built on the shared file-numbered
//!   geometry in [`descriptive`]. [`Notation`] picks one for writing;
//!   [`parse_move`] reads any of them, recognised per move.
//! * Records: [`game::Game`] (start position, main line, comments, variations,
//!   tags), [`pgn`] (xqbase PGN, read and write, several games per file, UTF-8 or
//!   GBK), [`xqf`] (XQStudio files, every version including the encrypted ones),
//!   [`ccbridge`] (CCBridge `.cbr` games and `.cbl` libraries, docs/ccbridge.md),
//!   [`move_list`] (plain move lists, one game per line, and UCCI `position`
//!   lines) and [`record`], the one reader of record files, with one detector
//!   of their kind. [`charset`] turns bytes into text. The binary formats share [`tree`] (their move trees, every move checked);
//!   a lenient reading keeps what it can with a [`Warning`].
//! * Lines: [`replay`] plays move texts in any notation from a FEN (or the start
//!   position) under a [`crate::core::Validation`] policy: the one way every door
//!   (daemon, `chuhan judge`, `chuhan serve`, book probing) replays a line.
//!
//! Board pictures are [`crate::diagram`]'s.
//!
//! Nothing here prints; errors are typed ([`MoveError`], [`ReplayError`], [`pgn::PgnError`],
//! [`xqf::XqfError`], [`record::RecordError`]).

pub mod ccbridge;
pub mod charset;
pub mod chinese;
pub mod descriptive;
pub mod game;
pub mod iccs;
pub mod move_error;
pub mod move_list;
pub mod pgn;
pub mod record;
pub mod replay;
pub mod tree;
pub mod warning;
pub mod wxf;
pub mod xqf;

pub use chinese::Script;
pub use game::{Game, Line, Node};
pub use iccs::IccsStyle;
pub use move_error::{MoveError, MoveErrorKind};
pub use replay::{Replay, ReplayError, replay};
pub use warning::Warning;

use crate::core::{Move, Position};
use std::fmt;
use std::str::FromStr;

/// A way of writing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// ICCS coordinates in one of its two styles.
    Iccs(IccsStyle),
    /// WXF (`C2.5`).
    Wxf,
    /// Chinese (炮二平五) in the given script.
    Chinese(Script),
}

impl Notation {
    /// Writes the legal move `mv` of `pos`.
    ///
    /// ```
    /// use chuhan_engine::core::Position;
    /// use chuhan_engine::notation::{Notation, Script};
    /// let pos = Position::startpos();
    /// let m = "h2e2".parse().unwrap();
    /// let zh = Notation::Chinese(Script::Simplified);
    /// assert_eq!(zh.format(&pos, m).unwrap(), "炮二平五");
    /// assert_eq!(Notation::Wxf.format(&pos, m).unwrap(), "C2.5");
    /// ```
    pub fn format(self, pos: &Position, mv: Move) -> Result<String, MoveError> {
        match self {
            Notation::Iccs(style) => iccs::format(pos, mv, style),
            Notation::Wxf => wxf::format(pos, mv),
            Notation::Chinese(script) => chinese::format(pos, mv, script),
        }
    }

    /// Reads text written in this notation as a legal move of `pos`.
    pub fn parse(self, pos: &Position, text: &str) -> Result<Move, MoveError> {
        match self {
            Notation::Iccs(_) => iccs::parse(pos, text),
            Notation::Wxf => wxf::parse(pos, text),
            Notation::Chinese(_) => chinese::parse(pos, text),
        }
    }

    /// The short name used on the command line: `iccs`, `wxf`, `zh` or `zh-hans`.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Iccs(_) => "iccs",
            Notation::Wxf => "wxf",
            Notation::Chinese(Script::Traditional) => "zh",
            Notation::Chinese(Script::Simplified) => "zh-hans",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error from [`Notation::from_str`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownNotation(pub String);

impl fmt::Display for UnknownNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown notation {} (expected iccs, wxf, zh or zh-hans)",
            crate::echo::echo(&self.0)
        )
    }
}

impl std::error::Error for UnknownNotation {}

impl FromStr for Notation {
    type Err = UnknownNotation;

    /// `iccs` (compact `h2e2`), `iccs-dash` (`H2-E2`), `wxf`, `zh` / `zh-hant` /
    /// `chinese` (traditional), `zh-hans` / `zh-cn` (simplified); any case.
    fn from_str(s: &str) -> Result<Notation, UnknownNotation> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "iccs" | "ucci" | "uci" | "coord" => Notation::Iccs(IccsStyle::Compact),
            "iccs-dash" | "dash" => Notation::Iccs(IccsStyle::Dashed),
            "wxf" => Notation::Wxf,
            "zh" | "zh-hant" | "zh-tw" | "chinese" | "trad" | "traditional" => {
                Notation::Chinese(Script::Traditional)
            }
            "zh-hans" | "zh-cn" | "simplified" | "simp" => Notation::Chinese(Script::Simplified),
            _ => return Err(UnknownNotation(crate::echo::keep(s))),
        })
    }
}

/// Reads move text in any notation (ICCS, WXF or Chinese, recognised from the text
/// itself) as a legal move of `pos`.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::notation::parse_move;
/// let pos = Position::startpos();
/// for text in ["h2e2", "H2-E2", "C2.5", "炮二平五", "炮二平五 "] {
///     assert_eq!(parse_move(&pos, text).unwrap().to_string(), "h2e2");
/// }
/// ```
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let narrowed = wxf::narrow(text);
    let t = narrowed.trim();
    if t.is_empty() {
        return Err(MoveError::new(text, MoveErrorKind::Empty));
    }
    if iccs::looks_like(t) {
        iccs::parse(pos, t)
    } else if t.is_ascii() {
        wxf::parse(pos, t)
    } else {
        chinese::parse(pos, text)
    }
}
