//! [`EngineOption`]: one typed setting of the engine. The protocol translates its
//! options' text into these ([`crate::protocol::translate`]).

use crate::book::Randomness;
use crate::eval::Knowledge;
use crate::rules::Referee;
use crate::search::repetition::RepetitionRules;
use crate::search::score::Value;
use crate::search::settings::Pruning;

/// A setting of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineOption {
    /// Transposition table size in MB (0 = default); only while idle.
    Hash(usize),
    /// Empty the transposition table; only while idle.
    ClearHash,
    /// Search threads (0 = one per core); only while idle.
    Threads(usize),
    /// Number of principal variations (clamped to 1 ..= [`crate::search::settings::MAX_MULTIPV`]).
    MultiPv(usize),
    /// Milliseconds kept in reserve per move for communication (at most
    /// [`crate::search::settings::MAX_MOVE_OVERHEAD_MS`]).
    MoveOverhead(u64),
    /// The GUI may ponder: plan a little more time per move.
    Ponder(bool),
    /// How much the search prunes.
    Pruning(Pruning),
    /// Which evaluation terms count.
    Knowledge(Knowledge),
    /// Amplitude of the noise added to every evaluation (0: none).
    EvalNoise(i32),
    /// Draw value for the side that starts a search (positive: draws welcome).
    DrawValue(Value),
    /// Share of time (percent) each search thread sleeps.
    IdlePercent(u32),
    /// Resign hopeless positions.
    Resign(bool),
    /// How repeated positions are scored: the 棋例 of a rule set (default CXA
    /// 2011), or every repetition a draw.
    Rules(RepetitionRules),
    /// When the search takes a forbidden cycle to end the game: at its third
    /// occurrence whoever moved last (strict, the default: how GUIs rule), or as
    /// the rule text says (the violator is told to vary).
    Referee(Referee),
    /// Consult the books before searching (on by default; there are no books until
    /// [`EngineOption::BookFiles`] names some).
    UseBook(bool),
    /// The books to consult, in order: a `;`-separated list of
    /// [`crate::book::builtin::BUILTIN_NAME`] (the book compiled into the
    /// executable) and book files (found as [`crate::book::locate::locate`] says,
    /// any supported format). Loaded at once, replacing the previous books; an
    /// empty list means no book.
    BookFiles(String),
    /// How book moves are chosen among several.
    BookRandomness(Randomness),
    /// Evaluate with the loaded net instead of the hand-written evaluation (on by
    /// default, with the built-in net; see [`EngineOption::EvalFile`]).
    UseNnue(bool),
    /// The net file to load (found as [`crate::book::locate::locate`] says),
    /// replacing the loaded net; [`crate::eval::nnue::builtin::BUILTIN_NAME`] (the
    /// default) is the net compiled into the executable; empty: no net. A file
    /// that cannot be loaded leaves the loaded net in place.
    EvalFile(String),
    /// Plies without a capture after which the search scores a draw: 120 (the
    /// sixty-move rule, the default), another count, or 0 (never).
    SixtyMovePlies(u32),
    /// Play below full strength (`None`: full strength).
    Skill(Option<crate::search::skill::Skill>),
}
