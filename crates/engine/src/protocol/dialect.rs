//! The two dialects, [`Dialect`] (the one definition: the arena's engine client
//! speaks the same two), and how each writes the engine's replies.
//!
//! UCCI scores are bare integers from the side to move's view: evaluations as
//! they are (clamped into ±9800), mates as ±(10000 − plies to mate), as ElephantEye
//! writes them. UCI scores are `cp N` or `mate N` (moves).

use crate::core::Move;
use crate::search::event::{BestMove, Info, Offer};
use crate::search::score::Score;
use crate::search::score::{MATE, Value, plies_to_end};
use crate::search::tt::Bound;
use crate::search::wdl;
use std::fmt::Write as _;

/// How `info` lines are written beyond the dialect's form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InfoStyle {
    /// Several lines are searched: UCCI lines carry `multipv N` (UCI always does).
    pub multipv_on: bool,
    /// UCI `UCI_ShowWDL`: the material of the searched position
    /// ([`wdl::material`]), and every UCI score gets `wdl W D L` (per mille).
    pub wdl_material: Option<i32>,
}

/// Which protocol the session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// UCCI 3.0 (`ucci`).
    Ucci,
    /// UCI for xiangqi (`uci`); also the default before any handshake.
    Uci,
}

/// UCI's text for a search value: `cp N`, or `mate N` in moves (negative: the
/// side to move is mated).
///
/// ```
/// use chuhan_engine::protocol::dialect::uci_score;
/// use chuhan_engine::search::score::{mate_in, mated_in};
/// assert_eq!(uci_score(35), "cp 35");
/// assert_eq!(uci_score(mate_in(3)), "mate 2");
/// assert_eq!(uci_score(mated_in(2)), "mate -1");
/// ```
pub fn uci_score(v: Value) -> String {
    match Score::from_value(v) {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(m) => format!("mate {m}"),
    }
}

/// UCCI's bare integer for a search value.
///
/// ```
/// use chuhan_engine::protocol::dialect::ucci_score;
/// use chuhan_engine::search::score::{mate_in, mated_in};
/// assert_eq!(ucci_score(35), 35);
/// assert_eq!(ucci_score(mate_in(3)), 9997);
/// assert_eq!(ucci_score(mated_in(2)), -9998);
/// ```
pub fn ucci_score(v: Value) -> i32 {
    match plies_to_end(v) {
        Some(p) if p > 0 => UCCI_MATE - p,
        Some(p) => -UCCI_MATE - p,
        None => v.clamp(-9_800, 9_800),
    }
}

impl Dialect {
    /// A line of text for the user (`info string` / `info message`).
    pub fn message(self, text: &str) -> String {
        match self {
            Dialect::Uci => format!("info string {text}"),
            Dialect::Ucci => format!("info message {text}"),
        }
    }

    /// An `info` line for a principal variation. UCI marks a score that is only a
    /// bound (`lowerbound`, `upperbound`); UCCI has no such mark, so a bound is not
    /// shown there at all (`None`): a GUI would take it for the score.
    pub fn info(self, i: &Info, style: InfoStyle) -> Option<String> {
        if self == Dialect::Ucci && i.bound.is_some() {
            return None;
        }
        let mut s = format!("info depth {} seldepth {}", i.depth, i.seldepth);
        match self {
            Dialect::Uci => {
                let _ = write!(s, " multipv {} score {}", i.multipv, uci_score(i.value));
                match i.bound {
                    Some(Bound::Lower) => s.push_str(" lowerbound"),
                    Some(Bound::Upper) => s.push_str(" upperbound"),
                    _ => {}
                }
                if let Some(material) = style.wdl_material {
                    let w = wdl::MODEL.wdl(i.value, material);
                    let _ = write!(s, " wdl {} {} {}", w.win, w.draw, w.loss);
                }
            }
            Dialect::Ucci => {
                if style.multipv_on {
                    let _ = write!(s, " multipv {}", i.multipv);
                }
                let _ = write!(s, " score {}", ucci_score(i.value));
            }
        }
        let _ = write!(
            s,
            " time {} nodes {} nps {} hashfull {}",
            i.time_ms, i.nodes, i.nps, i.hashfull
        );
        if !i.pv.is_empty() {
            s.push_str(" pv");
            for m in &i.pv {
                let _ = write!(s, " {m}");
            }
        }
        Some(s)
    }

    /// The line announcing a book move. UCCI: `info depth 0 score <weight> pv
    /// <move>`, ElephantEye's form (UCCI GUIs read the weight as the book's, not an
    /// evaluation). UCI has no such convention and GUIs record any `score` as an
    /// evaluation, so there it is an `info string` naming the move and its weight.
    ///
    /// ```
    /// use chuhan_engine::protocol::dialect::Dialect;
    /// let m = "h2e2".parse().unwrap();
    /// assert_eq!(Dialect::Ucci.book(m, 1000), "info depth 0 score 1000 pv h2e2");
    /// assert_eq!(Dialect::Uci.book(m, 1000), "info string book move h2e2 weight 1000");
    /// ```
    pub fn book(self, mv: Move, weight: u32) -> String {
        match self {
            Dialect::Ucci => format!("info depth 0 score {weight} pv {mv}"),
            Dialect::Uci => format!("info string book move {mv} weight {weight}"),
        }
    }

    /// The final line of a search.
    pub fn bestmove(self, b: &BestMove) -> String {
        let Some(m) = b.best else {
            return match self {
                Dialect::Uci => "bestmove (none)".to_string(),
                Dialect::Ucci => "nobestmove".to_string(),
            };
        };
        let mut s = format!("bestmove {m}");
        if let Some(p) = b.ponder {
            let _ = write!(s, " ponder {p}");
        }
        if self == Dialect::Ucci {
            match b.offer {
                Some(Offer::Draw) => s.push_str(" draw"),
                Some(Offer::Resign) => s.push_str(" resign"),
                None => {}
            }
        }
        s
    }
}

/// Largest UCCI mate score magnitude (mate at the root).
pub const UCCI_MATE: i32 = 10_000;

const _: () = assert!(MATE > UCCI_MATE);

impl Dialect {
    /// Both dialects.
    pub const ALL: [Dialect; 2] = [Dialect::Ucci, Dialect::Uci];

    /// The dialect's name, which is also its handshake command: `ucci` or `uci`.
    ///
    /// ```
    /// use chuhan_engine::protocol::dialect::Dialect;
    /// assert_eq!(Dialect::Ucci.name(), "ucci");
    /// assert_eq!(Dialect::Uci.to_string(), "uci");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::Ucci => "ucci",
            Dialect::Uci => "uci",
        }
    }
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
