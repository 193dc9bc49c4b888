//! One self-play game of a run: the opening, random plies, then Chuhan's own
//! search for both sides, refereed by Chuhan's rules.
//!
//! The game is judged after every move with [`rules::game_status`]: mate and 困斃
//! lose, a 棋例 verdict loses for the side that did not vary (or draws), the
//! sixty-move limit and dead positions draw. Before that, to save time:
//!
//! * **resign adjudication** (`--resign moves=N score=S`): a side loses when its
//!   last `N` search scores were all ≤ −S and its opponent's last `N` all ≥ S;
//! * **draw adjudication** (`--draw moves=N score=S after=M`): from full move `M`
//!   on, drawn when both sides' last `N` scores were all within ±S;
//! * a game still going after `max_plies` plies is drawn.
//!
//! The same rules as `chuhan match` ([`crate::r#match::adjudication`]). Every game
//! uses a fresh one-thread engine without a book, so a game depends on the plan and
//! its index only, never on which worker plays it.

use super::filter::{Candidate, Filters};
use super::plan::{Plan, SearchLimit, game_seed};
use super::record::{Flags, Record, stored_score};
use super::unit_file::GameSummary;
use crate::game::play::Termination;
use crate::lots::Lots;
use crate::r#match::adjudication::{Adjudication, Adjudicator, Decision};
use chuhan_engine::core::Position;
use chuhan_engine::core::{GameResult, PlayerResult};
use chuhan_engine::engine::{Engine, EngineOption};
use chuhan_engine::rules::{self, Status};
use chuhan_engine::search::Limits;
use chuhan_engine::search::repetition::RepetitionRules;
use chuhan_engine::search::score::Score;

/// A searched position waiting for the game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position (the result is filled in when the game ends).
    pub record: Record,
    /// Its Zobrist key, for de-duplication.
    pub key: u64,
}

/// A played game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The kept positions with the final result filled in, in game order.
    pub samples: Vec<Sample>,
    /// The game's summary (its `records` count is set by the unit, after
    /// de-duplication).
    pub summary: GameSummary,
    /// Positions searched.
    pub searched: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Why a game could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSetupError(pub String);

impl std::fmt::Display for EngineSetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "engine: {}", self.0)
    }
}

impl std::error::Error for EngineSetupError {}

/// A fresh engine for one game: one thread, no book, the plan's hash and rules.
fn engine(plan: &Plan) -> Result<Engine, EngineSetupError> {
    let s = &plan.settings;
    let mut e = Engine::new();
    e.set_option(EngineOption::UseBook(false))
        .and_then(|()| e.set_option(EngineOption::Threads(1)))
        .and_then(|()| e.set_option(EngineOption::Hash(s.hash_mb)))
        .and_then(|()| e.set_option(EngineOption::Rules(RepetitionRules::Judged(s.rules))))
        .map_err(|err| EngineSetupError(err.to_string()))?;
    Ok(e)
}

fn limits(limit: SearchLimit) -> Limits {
    match limit {
        SearchLimit::Nodes(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
        SearchLimit::Depth(d) => Limits::depth(d),
    }
}

/// The start of game `g`: the opening's position and moves, then the random
/// plies (fewer if the game ends first).
pub fn start_position(plan: &Plan, g: u64) -> Position {
    let opening = plan.opening(g);
    let mut pos = Position::from_fen(opening.fen()).expect("openings hold a validated FEN");
    for &m in opening.moves() {
        pos.make_move(m);
    }
    let lots = Lots::new(game_seed(plan.settings.seed, g));
    for ply in 0..plan.settings.random_plies {
        if rules::game_status(&pos, plan.settings.rules).is_over() {
            break;
        }
        let legal = pos.legal_moves();
        let k = (u128::from(lots.value("random ply", u64::from(ply))) * legal.len() as u128) >> 64;
        let m = legal[k as usize];
        pos.make_move(m);
    }
    pos
}

/// How the game ended.
struct End {
    winner: GameResult,
    termination: Termination,
    adjudicated: bool,
}

fn rules_end(status: &rules::GameStatus) -> Option<End> {
    let winner = status.winner?;
    let termination = match status.status {
        Status::Ongoing => return None,
        Status::Checkmate => Termination::Checkmate,
        Status::Stalemate => Termination::Stalemate,
        Status::Repetition if winner == GameResult::Draw => Termination::RepetitionDraw,
        Status::Repetition => Termination::RepetitionLoss,
        Status::SixtyMoves => Termination::MoveLimit,
        Status::DeadPosition => Termination::DeadPosition,
    };
    Some(End {
        winner,
        termination,
        adjudicated: false,
    })
}

fn adjudicated(winner: GameResult) -> End {
    End {
        winner,
        termination: Termination::Adjudication,
        adjudicated: true,
    }
}

/// Plays game `g` of `plan`.
pub fn play(plan: &Plan, g: u64) -> Result<PlayedGame, EngineSetupError> {
    let s = &plan.settings;
    let filters: Filters = s.filters;
    let mut engine = engine(plan)?;
    let limits = limits(s.limit);
    let mut pos = start_position(plan, g);
    let mut adjudicator = Adjudicator::new(Adjudication {
        resign: s.resign,
        draw: s.draw,
    });
    let mut samples: Vec<Sample> = Vec::new();
    let mut searched = 0u32;
    let mut nodes = 0u64;
    let mut after_capture = pos.state().captured.is_some();
    let end = loop {
        let status = rules::game_status(&pos, s.rules);
        if let Some(end) = rules_end(&status) {
            break end;
        }
        if pos.game_ply() >= s.max_plies as usize {
            break adjudicated(GameResult::Draw);
        }
        let side = pos.side_to_move();
        engine.set_position(pos.clone());
        let best = engine
            .search(limits.clone())
            .map_err(|e| EngineSetupError(e.to_string()))?;
        searched += 1;
        nodes += best.nodes;
        let (Some(mv), Some(value)) = (best.best, best.value) else {
            // Every legal move is banned by the repetition rules: the side must
            // repeat and loses (the rules layer will say so after any move).
            break End {
                winner: GameResult::win_for(!side),
                termination: Termination::RepetitionLoss,
                adjudicated: false,
            };
        };
        let capture = pos.piece_at(mv.to()).is_some();
        let candidate = Candidate {
            in_check: pos.in_check(),
            best_is_capture: capture,
            after_capture,
            score: value,
        };
        if filters.keeps(&candidate) {
            let (score, flags) = stored_score(value);
            samples.push(Sample {
                record: Record::new(&pos, score, PlayerResult::Draw, flags),
                key: pos.key(),
            });
        }
        adjudicator.record(side, Some(Score::from_value(value)));
        pos.make_move(mv);
        after_capture = capture;
        if rules::game_status(&pos, s.rules).is_over() {
            continue;
        }
        match adjudicator.decision(pos.fullmove()) {
            Some(Decision::Loss(loser)) => break adjudicated(GameResult::win_for(!loser)),
            Some(Decision::Draw) => break adjudicated(GameResult::Draw),
            None => {}
        }
    };
    for smp in &mut samples {
        let r = &mut smp.record;
        r.result = end.winner.for_side(r.side);
        if end.adjudicated {
            r.flags = r.flags.with(Flags::ADJUDICATED);
        }
    }
    Ok(PlayedGame {
        samples,
        summary: GameSummary {
            plies: pos.game_ply().min(u16::MAX as usize) as u16,
            winner: end.winner,
            termination: end.termination,
            records: 0,
        },
        searched,
        nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::super::plan::Settings;
    use super::*;
    use chuhan_engine::rules::RuleSet;

    fn plan(games: u64) -> Plan {
        Plan::new(
            Settings {
                seed: 11,
                games,
                games_per_unit: 2,
                limit: SearchLimit::Depth(2),
                random_plies: 6,
                hash_mb: 1,
                rules: RuleSet::Cxa2011,
                resign: Some("moves=2 score=600".parse().unwrap()),
                draw: None,
                max_plies: 60,
                filters: Filters::default(),
            },
            Vec::new(),
        )
        .unwrap()
    }

    #[test]
    fn games_are_reproducible_and_filtered() {
        let p = plan(2);
        let a = play(&p, 1).unwrap();
        let b = play(&p, 1).unwrap();
        assert_eq!(a, b);
        assert_ne!(start_position(&p, 0).key(), start_position(&p, 1).key());
        assert_eq!(start_position(&p, 0).game_ply(), 6);
        assert!(a.searched as usize >= a.samples.len());
        for s in &a.samples {
            let pos = s.record.position().unwrap();
            assert!(!pos.in_check());
            assert!(i32::from(s.record.score).abs() <= 3_000);
            assert_eq!(s.record.result, a.summary.winner.for_side(s.record.side));
        }
        assert!(a.summary.plies <= 60 + 1);
    }
}
