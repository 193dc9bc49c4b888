//! [`Settings`]: what the search can be asked to do differently, as typed values
//! (how much it prunes, what the evaluation knows, how it values draws, how many
//! lines it reports, ...). The protocol translates its options' words and numbers
//! into these ([`crate::protocol::translate`]); the search knows no option names.
//! A change applies from the next search.

use crate::eval::{EvalConfig, Knowledge};
use crate::rules::Referee;
use crate::search::params::MOVE_OVERHEAD_MS;
use crate::search::repetition::RepetitionRules;
use crate::search::score::{DRAW, Value};
use crate::search::skill::{SKILL_LINES, Skill};

/// Largest number of principal variations a search reports.
pub const MAX_MULTIPV: usize = 500;
/// Largest move overhead in milliseconds (the `Move Overhead` option's maximum,
/// as in Pikafish).
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;

/// How much the search prunes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pruning {
    /// Plain PVS with quiescence: no null move, reductions or futility (for
    /// compositions).
    None,
    /// Reductions and late-move pruning, but no null move.
    NoNullMove,
    /// Everything.
    Full,
}

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Number of principal variations to report (1 to [`MAX_MULTIPV`]).
    pub multipv: usize,
    /// Pruning level.
    pub pruning: Pruning,
    /// Which evaluation terms count.
    pub knowledge: Knowledge,
    /// Amplitude of the pseudo-random noise added to every evaluation (0: none).
    pub eval_noise: i32,
    /// Draw value for the side that started the search (negative: avoid draws).
    pub draw_value: Value,
    /// Share of time (percent) each thread sleeps.
    pub idle_percent: u32,
    /// Resign hopeless positions (in the best move's offer).
    pub resign: bool,
    /// How repeated positions are scored.
    pub rules: RepetitionRules,
    /// When a forbidden cycle is taken to end the game: strictly at its third
    /// occurrence (GUIs and match tools), or as the rule text says.
    pub referee: Referee,
    /// Milliseconds kept in reserve per move for communication (at most
    /// [`MAX_MOVE_OVERHEAD_MS`]).
    pub move_overhead_ms: u64,
    /// The opponent's thinking time is ours too (the GUI lets us ponder): plan a
    /// little more time per move.
    pub ponder: bool,
    /// Evaluate with the loaded net (see
    /// [`crate::search::searcher::Searcher::set_net`]) instead of the hand-written
    /// evaluation; only at full [`Knowledge`] (the lower levels are hand-written
    /// weakenings) and when a net is loaded. On by default: a searcher without a
    /// net evaluates by hand whatever this says.
    pub use_nnue: bool,
    /// Plies without a capture after which a position is scored a draw (the
    /// sixty-move rule's 120, counted as [`crate::rules::sixty_moves_after`] says);
    /// 0: never. Under the strict referee, a side that stands better at the root
    /// assumes the GUI referees' 100 plies when this is later
    /// ([`crate::search::repetition::MoveLimit::for_search`]).
    pub sixty_move_plies: u32,
    /// Play below full strength ([`Skill`]); `None`: full strength.
    pub skill: Option<Skill>,
}

impl Default for Settings {
    /// Full strength: one line, every pruning and evaluation term, no noise, draws
    /// worth 0, no idling or resigning, the CXA 2011 repetition rules played for a
    /// strict referee, the
    /// net when one is loaded.
    fn default() -> Settings {
        Settings {
            multipv: 1,
            pruning: Pruning::Full,
            knowledge: Knowledge::Full,
            eval_noise: 0,
            draw_value: DRAW,
            idle_percent: 0,
            resign: false,
            rules: RepetitionRules::default(),
            referee: Referee::Strict,
            move_overhead_ms: MOVE_OVERHEAD_MS,
            ponder: false,
            use_nnue: true,
            sixty_move_plies: crate::rules::params::SIXTY_MOVE_PLIES,
            skill: None,
        }
    }
}

impl Settings {
    /// Principal variations the search computes: the lines asked for, and at
    /// least [`SKILL_LINES`] at a weakened level (the moves it may choose from).
    pub fn lines(&self) -> usize {
        if self.skill.is_some() {
            self.multipv.max(SKILL_LINES)
        } else {
            self.multipv
        }
    }

    /// The evaluation's configuration, with the noise seeded by `seed`.
    pub fn eval_config(&self, seed: u64) -> EvalConfig {
        EvalConfig {
            knowledge: self.knowledge,
            noise: self.eval_noise,
            seed,
        }
    }
}
