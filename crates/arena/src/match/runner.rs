//! Runs a whole match: a pool of workers (the concurrency), each with its own
//! engine processes, takes games from the [`schedule`]; results
//! come back to the caller's thread as [`MatchEvent`]s with the running
//! [`Summary`], and an SPRT that reaches a decision stops the match (games already
//! started are played out and counted).
//!
//! An engine that cannot be started for a game loses it ([`Fault::Start`]); the
//! match gives up when an engine fails to start the first time it is needed, or
//! [`params::MAX_START_FAILURES`] times in a row.

use super::adjudication::Adjudication;
use super::client::{EngineClient, Timeouts};
use super::limit::Limit;
use super::params;
use super::process::TrafficLog;
use super::referee::{self, Fault, GameReport, GameSetup, StartFailure};
use super::schedule::{self, ScheduledGame};
use super::sprt::{Sprt, SprtState};
use super::stats::{Pentanomial, Tally};
use crate::game::engine_config::EngineConfig;
use crate::game::opening::Opening;
use crate::game::play::Termination;
use chuhan_engine::core::{Color, GameResult, Move};
use chuhan_engine::notation;
use chuhan_engine::rules::{Referee, RuleSet};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines (two for a match, more for a round robin). Names are unique.
    pub engines: Vec<EngineConfig>,
    /// Games per pairing.
    pub games: u32,
    /// The search limit.
    pub limit: Limit,
    /// Games played at once.
    pub concurrency: usize,
    /// The opening suite (empty: the standard start).
    pub openings: Vec<Opening>,
    /// The rules games are judged by.
    pub rules: RuleSet,
    /// When a forbidden repetition ends a game.
    pub referee: Referee,
    /// Shuffles the openings.
    pub seed: Option<u64>,
    /// Stop early when the test decides (first engine against the second).
    pub sprt: Option<Sprt>,
    /// Score adjudication.
    pub adjudication: Adjudication,
    /// Latency forgiven beyond the clock or move time.
    pub tolerance: Duration,
    /// How long an untimed search may take.
    pub hang_timeout: Duration,
    /// The driver's waits.
    pub timeouts: Timeouts,
    /// PGN `Event`.
    pub event: String,
    /// Every line to and from the engines, if wanted.
    pub log: Option<TrafficLog>,
}

/// The running totals of one pairing, from its first engine's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairingStats {
    /// The first engine.
    pub first: usize,
    /// The second engine.
    pub second: usize,
    /// Wins, losses and draws of the first engine.
    pub tally: Tally,
    /// Completed game pairs.
    pub pentanomial: Pentanomial,
    /// Completed pairs whose two games had the same moves: with colours swapped the
    /// engines played alike, so the pair says nothing about which is stronger.
    pub identical_pairs: u32,
}

/// The match so far.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Engine names, by index.
    pub names: Vec<String>,
    /// One entry per pairing.
    pub pairings: Vec<PairingStats>,
    /// Engine faults by engine index.
    pub faults: Vec<BTreeMap<Fault, u32>>,
    /// How games ended.
    pub terminations: BTreeMap<String, u32>,
    /// Games finished.
    pub played: u32,
    /// Games scheduled.
    pub scheduled: u32,
    /// The SPRT and its log-likelihood ratio, when one runs.
    pub sprt: Option<(Sprt, f64, SprtState)>,
    /// Why the match stopped before its end, if it did.
    pub aborted: Option<String>,
}

impl Summary {
    /// An engine's results against everyone.
    pub fn total(&self, engine: usize) -> Tally {
        let mut t = Tally::default();
        for p in &self.pairings {
            let mine = if p.first == engine {
                p.tally
            } else if p.second == engine {
                p.tally.reversed()
            } else {
                continue;
            };
            t.wins += mine.wins;
            t.losses += mine.losses;
            t.draws += mine.draws;
        }
        t
    }

    /// Faults of all engines together.
    pub fn fault_count(&self) -> u32 {
        self.faults.iter().flat_map(|f| f.values()).sum()
    }
}

/// What the runner reports as it goes.
#[derive(Debug)]
pub enum MatchEvent<'a> {
    /// A game is about to start.
    Started(&'a ScheduledGame),
    /// An engine's options did not all take (an option it does not list, or a
    /// complaint it wrote before `readyok`); each note is reported once.
    OptionNote {
        /// The engine's name.
        engine: &'a str,
        /// What went wrong.
        note: &'a str,
    },
    /// A game is over.
    Finished {
        /// The game.
        game: &'a ScheduledGame,
        /// How it went.
        report: &'a GameReport,
        /// The match after it.
        summary: &'a Summary,
    },
}

/// How a worker's game went.
enum Attempt {
    Played(Box<GameReport>),
    NotStarted(StartFailure),
}

/// The game record of a game an engine could not start for.
fn start_failure_report(
    config: &MatchConfig,
    setup: &GameSetup,
    game: &ScheduledGame,
    failure: &StartFailure,
) -> GameReport {
    let side = if failure.red.is_some() {
        Color::Red
    } else {
        Color::Black
    };
    let start = match &setup.opening {
        Some(o) => chuhan_engine::core::Position::from_fen(o.fen()).expect("validated opening"),
        None => chuhan_engine::core::Position::startpos(),
    };
    let mut record = notation::Game::new(start);
    record.set_tag("Event", &setup.event);
    record.set_tag("Date", &setup.date);
    record.set_tag("Round", &setup.round);
    record.set_tag("Red", &config.engines[game.red].name);
    record.set_tag("Black", &config.engines[game.black].name);
    record.set_tag("Termination", Termination::EngineFailure.describe());
    let reason = format!("not played: {failure}");
    record.line.comment = Some(reason.clone());
    let result = GameResult::win_for(!side);
    record.result = Some(result);
    if let Some(o) = &setup.opening {
        for &m in o.moves() {
            record.push(m);
        }
    }
    GameReport {
        result,
        termination: Termination::EngineFailure,
        reason,
        fault: Some((side, Fault::Start)),
        moves: Vec::new(),
        record,
    }
}

fn setup_for(config: &MatchConfig, game: &ScheduledGame, date: &str) -> GameSetup {
    GameSetup {
        event: config.event.clone(),
        round: game.number.to_string(),
        date: date.to_string(),
        opening: game.opening.clone(),
        rules: config.rules,
        referee: config.referee,
        limit: config.limit.clone(),
        tolerance: config.tolerance,
        hang_timeout: config.hang_timeout,
        adjudication: config.adjudication,
    }
}

/// Half points of the pairing's first engine in a game.
fn half_points(game: &ScheduledGame, first: usize, result: GameResult) -> u32 {
    let first_colour = if game.red == first {
        Color::Red
    } else {
        Color::Black
    };
    match result.winner() {
        None => 1,
        Some(c) if c == first_colour => 2,
        Some(_) => 0,
    }
}

/// Plays the match. `on_event` runs on the calling thread for every start and
/// finish, in the order they happen.
pub fn run(config: &MatchConfig, on_event: impl FnMut(MatchEvent<'_>)) -> Summary {
    let games = schedule::schedule(
        config.engines.len(),
        config.games,
        &config.openings,
        config.seed,
    );
    run_games(config, games, &referee::today(), on_event)
}

/// Plays `games` (a whole schedule, or one work unit of it) with the PGN `Date`
/// `date`; `config.games`, `config.openings` and `config.seed` are not consulted.
pub fn run_games(
    config: &MatchConfig,
    games: Vec<ScheduledGame>,
    date: &str,
    mut on_event: impl FnMut(MatchEvent<'_>),
) -> Summary {
    let names = config.engines.iter().map(|e| e.name.clone()).collect();
    let mut scorer = Scorer::new(names, games.len() as u32, config.sprt);
    let date = date.to_string();
    let stop = AtomicBool::new(false);
    let workers = config.concurrency.clamp(1, games.len().max(1));
    let (job_tx, job_rx) = crossbeam_channel::unbounded::<ScheduledGame>();
    for g in &games {
        job_tx.send(g.clone()).expect("the receiver is alive");
    }
    drop(job_tx);
    enum Message {
        Started(ScheduledGame),
        /// An option note of engine `.0` ([`EngineClient::option_notes`]).
        OptionNote(usize, String),
        /// A finished (or unstartable) game, and why the match must stop, if it must.
        Done(ScheduledGame, Attempt, Option<String>),
    }
    let (msg_tx, msg_rx) = crossbeam_channel::unbounded::<Message>();
    std::thread::scope(|scope| {
        for w in 0..workers {
            let jobs = job_rx.clone();
            let tx = msg_tx.clone();
            let stop = &stop;
            let date = date.as_str();
            scope.spawn(move || {
                let mut engines: Vec<Option<EngineClient>> =
                    (0..config.engines.len()).map(|_| None).collect();
                let mut failures = StartFailures::new(config.engines.len());
                for g in jobs {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let _ = tx.send(Message::Started(g.clone()));
                    for i in [g.red, g.black] {
                        engines[i].get_or_insert_with(|| {
                            let e = &config.engines[i];
                            let label = if workers > 1 {
                                format!("{}#{}", e.name, w + 1)
                            } else {
                                e.name.clone()
                            };
                            EngineClient::new(
                                e.clone(),
                                &label,
                                config.timeouts,
                                config.log.clone(),
                            )
                        });
                    }
                    let (red, black) = pair_mut(&mut engines, g.red, g.black);
                    let prepared = referee::prepare(red, black);
                    for (i, e) in [(g.red, &*red), (g.black, &*black)] {
                        for note in e.option_notes() {
                            let _ = tx.send(Message::OptionNote(i, note.clone()));
                        }
                    }
                    let abort = failures.note(&g, prepared.as_ref().err(), config);
                    if abort.is_some() {
                        stop.store(true, Ordering::SeqCst);
                    }
                    let outcome = match prepared {
                        Ok(()) => {
                            let setup = setup_for(config, &g, date);
                            Attempt::Played(Box::new(referee::play(red, black, &setup)))
                        }
                        Err(f) => Attempt::NotStarted(f),
                    };
                    if tx.send(Message::Done(g, outcome, abort)).is_err() {
                        break;
                    }
                }
                for e in engines.iter_mut().flatten() {
                    e.shutdown();
                }
            });
        }
        drop(msg_tx);
        let mut option_notes: HashSet<(usize, String)> = HashSet::new();
        for msg in msg_rx {
            let (g, outcome, abort) = match msg {
                Message::Started(g) => {
                    on_event(MatchEvent::Started(&g));
                    continue;
                }
                Message::OptionNote(i, note) => {
                    if option_notes.insert((i, note.clone())) {
                        on_event(MatchEvent::OptionNote {
                            engine: &config.engines[i].name,
                            note: &note,
                        });
                    }
                    continue;
                }
                Message::Done(g, o, abort) => (g, o, abort),
            };
            if abort.is_some() && scorer.summary.aborted.is_none() {
                scorer.summary.aborted = abort;
            }
            let report = match outcome {
                Attempt::Played(r) => *r,
                Attempt::NotStarted(f) if f.red.is_some() && f.black.is_some() => continue,
                Attempt::NotStarted(f) => {
                    let setup = setup_for(config, &g, &date);
                    start_failure_report(config, &setup, &g, &f)
                }
            };
            if scorer.add(&g, &report) != SprtState::Continue {
                stop.store(true, Ordering::SeqCst);
            }
            on_event(MatchEvent::Finished {
                game: &g,
                report: &report,
                summary: &scorer.summary,
            });
        }
    });
    scorer.summary
}

/// One worker's record of its engines' start failures.
struct StartFailures {
    consecutive: Vec<u32>,
    ever_started: Vec<bool>,
}

impl StartFailures {
    fn new(engines: usize) -> StartFailures {
        StartFailures {
            consecutive: vec![0; engines],
            ever_started: vec![false; engines],
        }
    }

    /// Notes how preparing game `g` went; returns why the match must stop, if it
    /// must: both engines failed, or one failed the first time it was needed or
    /// [`params::MAX_START_FAILURES`] times in a row.
    fn note(
        &mut self,
        g: &ScheduledGame,
        failure: Option<&StartFailure>,
        config: &MatchConfig,
    ) -> Option<String> {
        let Some(f) = failure else {
            for i in [g.red, g.black] {
                self.consecutive[i] = 0;
                self.ever_started[i] = true;
            }
            return None;
        };
        if f.red.is_some() && f.black.is_some() {
            return Some(format!("game {}: {f}", g.number));
        }
        let failed = if f.red.is_some() { g.red } else { g.black };
        self.consecutive[failed] += 1;
        (!self.ever_started[failed] || self.consecutive[failed] >= params::MAX_START_FAILURES)
            .then(|| format!("{} could not be started ({f})", config.engines[failed].name))
    }
}

/// The totals of a match as its games come in, in any order: tallies, game pairs,
/// faults, terminations and the SPRT. The local runner feeds it games as they
/// finish; `chuhan match --merge` feeds it the games of a plan's unit files.
#[derive(Clone, Debug)]
pub struct Scorer {
    summary: Summary,
    /// Half points and moves of the first game of each pair seen so far.
    open_pairs: HashMap<u32, (u32, Vec<Move>)>,
}

impl Scorer {
    /// No games yet: engines `names`, `scheduled` games, the SPRT if one runs.
    pub fn new(names: Vec<String>, scheduled: u32, sprt: Option<Sprt>) -> Scorer {
        let engines = names.len();
        let summary = Summary {
            names,
            pairings: schedule::pairings(engines)
                .into_iter()
                .map(|(first, second)| PairingStats {
                    first,
                    second,
                    ..Default::default()
                })
                .collect(),
            faults: vec![BTreeMap::new(); engines],
            scheduled,
            sprt: sprt.map(|s| (s, 0.0, SprtState::Continue)),
            ..Default::default()
        };
        Scorer {
            summary,
            open_pairs: HashMap::new(),
        }
    }

    /// Adds a finished game; returns where the SPRT stands after it
    /// ([`SprtState::Continue`] when none runs).
    pub fn add(&mut self, g: &ScheduledGame, report: &GameReport) -> SprtState {
        let summary = &mut self.summary;
        summary.played += 1;
        *summary
            .terminations
            .entry(report.termination.describe().to_string())
            .or_default() += 1;
        if let Some((side, fault)) = report.fault {
            let engine = if side == Color::Red { g.red } else { g.black };
            *summary.faults[engine].entry(fault).or_default() += 1;
        }
        let p = &mut summary.pairings[g.pairing];
        let halves = half_points(g, p.first, report.result);
        match halves {
            2 => p.tally.wins += 1,
            1 => p.tally.draws += 1,
            _ => p.tally.losses += 1,
        }
        if let Some(pair) = g.pair {
            match self.open_pairs.remove(&pair) {
                Some((other, moves)) => {
                    p.pentanomial.add(other + halves);
                    if !moves.is_empty() && moves == report.moves {
                        p.identical_pairs += 1;
                    }
                }
                None => {
                    self.open_pairs.insert(pair, (halves, report.moves.clone()));
                }
            }
        }
        let Some((s, llr, state)) = summary.sprt.as_mut() else {
            return SprtState::Continue;
        };
        if *state != SprtState::Continue {
            // A sequential test decides where its LLR first crosses a bound: the
            // games still running then count in the score, not in the test (they
            // could pull the LLR back inside and turn a decided test into "no
            // decision yet" in the final report).
            return *state;
        }
        let p = &summary.pairings[0];
        *llr = if p.pentanomial.pairs() > 0 {
            s.llr_pentanomial(&p.pentanomial)
        } else {
            s.llr_trinomial(&p.tally)
        };
        *state = s.state(*llr);
        *state
    }

    /// The match so far.
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// The match so far, to be kept.
    pub fn into_summary(self) -> Summary {
        self.summary
    }
}

/// Two distinct engines of the pool, mutably.
fn pair_mut(
    engines: &mut [Option<EngineClient>],
    a: usize,
    b: usize,
) -> (&mut EngineClient, &mut EngineClient) {
    assert_ne!(a, b, "an engine never plays itself in one process");
    let (lo, hi) = (a.min(b), a.max(b));
    let (left, right) = engines.split_at_mut(hi);
    let x = left[lo].as_mut().expect("created above");
    let y = right[0].as_mut().expect("created above");
    if a < b { (x, y) } else { (y, x) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No games yet of engines A and B.
    fn two_engines() -> Scorer {
        Scorer::new(vec!["A".into(), "B".into()], 0, None)
    }

    #[test]
    fn totals_and_pairs() {
        let games = schedule::schedule(2, 4, &[], None);
        let mut scorer = two_engines();
        let report = |result, fault| GameReport {
            result,
            termination: Termination::Checkmate,
            reason: String::new(),
            fault,
            moves: Vec::new(),
            record: notation::Game::new(chuhan_engine::core::Position::startpos()),
        };
        // Game 1: A (red) wins; game 2: A (black) draws -> pair 3 half points.
        scorer.add(&games[0], &report(GameResult::RedWins, None));
        assert_eq!(scorer.summary().pairings[0].pentanomial.pairs(), 0);
        scorer.add(&games[1], &report(GameResult::Draw, None));
        // Game 3: A (red) loses on time; game 4: B (red) wins.
        scorer.add(
            &games[2],
            &report(
                GameResult::BlackWins,
                Some((Color::Red, Fault::TimeForfeit)),
            ),
        );
        scorer.add(&games[3], &report(GameResult::RedWins, None));
        let p = &scorer.summary().pairings[0];
        assert_eq!(
            p.tally,
            Tally {
                wins: 1,
                losses: 2,
                draws: 1
            }
        );
        // Pairs: 2 + 1 = 3 half points, then 0 + 0.
        assert_eq!(p.pentanomial.counts, [1, 0, 0, 1, 0]);
        assert_eq!(scorer.summary().total(1).wins, 2);
        assert_eq!(
            scorer.summary().faults[0].get(&Fault::TimeForfeit),
            Some(&1)
        );
        assert_eq!(scorer.summary().fault_count(), 1);
        assert_eq!(scorer.summary().played, 4);
        // Empty move lists (games that ended at once) are not called identical.
        assert_eq!(p.identical_pairs, 0);
    }

    #[test]
    fn the_sprt_decision_stands_once_made() {
        let games = schedule::schedule(2, 2000, &[], None);
        let sprt = "elo0=0 elo1=10".parse().unwrap();
        let mut scorer = Scorer::new(vec!["A".into(), "B".into()], 2000, Some(sprt));
        // A result for A: 2 a win, 1 a draw, 0 a loss.
        let report = |g: &ScheduledGame, a: u32| GameReport {
            result: match (a, g.red == 0) {
                (1, _) => GameResult::Draw,
                (2, true) | (0, false) => GameResult::RedWins,
                _ => GameResult::BlackWins,
            },
            termination: Termination::Checkmate,
            reason: String::new(),
            fault: None,
            moves: Vec::new(),
            record: notation::Game::new(chuhan_engine::core::Position::startpos()),
        };
        // Pairs of win + draw and draw + draw: A far stronger, H1 soon.
        let mut n = 0;
        let mut state = SprtState::Continue;
        while state == SprtState::Continue {
            let a = if n % 4 == 0 { 2 } else { 1 };
            state = scorer.add(&games[n], &report(&games[n], a));
            n += 1;
            assert!(n < 1000, "no decision");
        }
        assert_eq!(state, SprtState::AcceptH1);
        let (_, llr, _) = scorer.summary().sprt.unwrap();
        assert!(llr >= 2.94, "{llr}");
        // Games that were in flight: A loses them all; they count in the score,
        // the test stays decided at the LLR it crossed with.
        let before = scorer.summary().pairings[0].tally;
        for g in &games[n..n + 6] {
            assert_eq!(scorer.add(g, &report(g, 0)), SprtState::AcceptH1);
        }
        assert_eq!(scorer.summary().pairings[0].tally.losses, before.losses + 6);
        assert_eq!(
            scorer.summary().sprt.unwrap(),
            (sprt, llr, SprtState::AcceptH1)
        );
    }

    #[test]
    fn identical_pairs_are_counted() {
        let games = schedule::schedule(2, 6, &[], None);
        let mut scorer = two_engines();
        let report = |result, moves: &[&str]| GameReport {
            result,
            termination: Termination::Checkmate,
            reason: String::new(),
            fault: None,
            moves: moves.iter().map(|m| m.parse().unwrap()).collect(),
            record: notation::Game::new(chuhan_engine::core::Position::startpos()),
        };
        let same = ["h2e2", "h9g7", "h0g2"];
        // Pair 1: the same moves with colours swapped (Red won both).
        scorer.add(&games[0], &report(GameResult::RedWins, &same));
        assert_eq!(
            scorer.summary().pairings[0].identical_pairs,
            0,
            "the pair is not complete"
        );
        scorer.add(&games[1], &report(GameResult::RedWins, &same));
        assert_eq!(scorer.summary().pairings[0].identical_pairs, 1);
        // Pair 2: one move differs.
        scorer.add(&games[2], &report(GameResult::Draw, &same));
        scorer.add(
            &games[3],
            &report(GameResult::Draw, &["h2e2", "h9g7", "b0c2"]),
        );
        // Pair 3: one game is a prefix of the other.
        scorer.add(&games[4], &report(GameResult::Draw, &same));
        scorer.add(&games[5], &report(GameResult::Draw, &same[..2]));
        let p = &scorer.summary().pairings[0];
        assert_eq!(p.pentanomial.pairs(), 3);
        assert_eq!(p.identical_pairs, 1);
    }
}
