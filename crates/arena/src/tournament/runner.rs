//! Runs an event: pairs rounds, hands games to [`GamePlayer`]s (one per concurrent
//! slot), records every finished game in the results file before going on, and
//! writes the reports after every round.
//!
//! Interrupting a run loses nothing: a game is in the file once it is over, and a
//! game that was still being played when the run stopped is played again from the
//! start when the event is resumed ([`Runner::open`] replays the file).

use super::config::TournamentConfig;
use super::event::{Event, EventError, Next, Scheduled};
use super::html;
use super::report::Report;
use super::results::{
    GameRecord, Record, ResultsError, ResultsFile, RoundRecord, write_atomically,
};
use super::standings::Decision;
use crate::game::play::{GameId, GameOutcome, GamePlayer, PlayError};
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// Why a run stopped early.
#[derive(Debug)]
pub enum RunError {
    /// The results file failed.
    Results(ResultsError),
    /// The event could not go on (bad configuration, unpairable round, foreign file).
    Event(EventError),
    /// A game player failed or was interrupted; the event can be resumed.
    Play(PlayError),
    /// A report could not be written.
    Output(PathBuf, std::io::Error),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Results(e) => write!(f, "{e}"),
            RunError::Event(e) => write!(f, "{e}"),
            RunError::Play(e) => write!(f, "{e} (the event resumes from its results file)"),
            RunError::Output(p, e) => write!(f, "cannot write {}: {e}", p.display()),
        }
    }
}

impl std::error::Error for RunError {}

impl From<ResultsError> for RunError {
    fn from(e: ResultsError) -> RunError {
        RunError::Results(e)
    }
}

impl From<EventError> for RunError {
    fn from(e: EventError) -> RunError {
        RunError::Event(e)
    }
}

/// What happened, for the caller to show.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// A round was paired.
    Paired(&'a RoundRecord),
    /// A game finished (or was forfeited).
    Game(&'a GameRecord),
    /// A round is over; the reports were rewritten.
    RoundOver {
        /// The round.
        round: u32,
        /// The event after it.
        event: &'a Event,
    },
    /// The event is over.
    Finished(&'a Event),
}

/// An event with its results file.
#[derive(Debug)]
pub struct Runner {
    event: Event,
    file: ResultsFile,
    reported: u32,
}

fn record(s: &Scheduled, outcome: GameOutcome) -> GameRecord {
    let (decision, termination, moves, pgn) = match outcome {
        GameOutcome::Played(g) => (
            Decision::Played(g.result),
            Some(g.termination),
            g.moves.iter().map(|m| m.to_string()).collect(),
            g.pgn,
        ),
        GameOutcome::Forfeited(a) => (Decision::Forfeit(a), None, Vec::new(), None),
    };
    GameRecord {
        round: s.id.round,
        board: s.id.board,
        game: s.id.game,
        red: s.red,
        black: s.black,
        decision,
        termination,
        moves,
        pgn,
    }
}

impl Runner {
    /// Opens an event: a new results file gets a header; an existing one is
    /// replayed (resume). The HTML page and the PGN file are written at once, so
    /// an output that cannot be written stops the event before its first game.
    pub fn open(config: TournamentConfig) -> Result<Runner, RunError> {
        let mut event = Event::new(config)?;
        let (mut file, records) = ResultsFile::open(&event.config().output.results)?;
        if records.is_empty() {
            let header = event.start();
            file.append(&Record::Header(header))?;
        } else {
            for r in records {
                event.apply(r)?;
            }
        }
        let reported = (event.rounds().len() as u32).saturating_sub(1);
        let runner = Runner {
            event,
            file,
            reported,
        };
        // The reports are written now, so an unwritable path is found before any
        // game is played (and the files exist from the start).
        runner.write_reports()?;
        Ok(runner)
    }

    /// The event as it stands.
    pub fn event(&self) -> &Event {
        &self.event
    }

    fn append(&mut self, r: Record) -> Result<(), RunError> {
        self.file.append(&r)?;
        self.event.apply(r)?;
        Ok(())
    }

    /// Rewrites the HTML page and the PGN file (when configured).
    pub fn write_reports(&self) -> Result<(), RunError> {
        let out = &self.event.config().output;
        if let Some(path) = &out.html {
            write_atomically(path, &html::render(&self.event))
                .map_err(|e| RunError::Output(path.clone(), e))?;
        }
        if let Some(path) = &out.pgn {
            let text: String = self
                .event
                .games()
                .filter_map(|g| g.pgn.as_deref())
                .map(|p| format!("{}\n\n", p.trim_end()))
                .collect();
            write_atomically(path, &text).map_err(|e| RunError::Output(path.clone(), e))?;
        }
        Ok(())
    }

    fn round_over(&mut self, progress: &mut impl FnMut(Progress<'_>)) -> Result<(), RunError> {
        let current = self.event.rounds().len() as u32;
        if current > self.reported && self.event.pending(current).is_empty() {
            self.reported = current;
            self.write_reports()?;
            progress(Progress::RoundOver {
                round: current,
                event: &self.event,
            });
        }
        Ok(())
    }

    /// Plays the event to the end with one game at a time per player in `players`
    /// (their number is the concurrency; no more games are handed out than there
    /// are players). Stops at the first [`PlayError`] once the games in flight are
    /// over; the event can then be resumed.
    pub fn run<P: GamePlayer + Send>(
        &mut self,
        players: &mut [P],
        mut progress: impl FnMut(Progress<'_>),
    ) -> Result<(), RunError> {
        if players.is_empty() {
            return Err(RunError::Play(PlayError::Failed("no game player".into())));
        }
        let slots = players.len();
        let (jobs, job_queue) = crossbeam_channel::unbounded::<crate::game::play::GameSpec>();
        let (done_tx, done) =
            crossbeam_channel::unbounded::<(GameId, Result<GameOutcome, PlayError>)>();
        std::thread::scope(|scope| {
            for player in players.iter_mut() {
                let queue = job_queue.clone();
                let done_tx = done_tx.clone();
                scope.spawn(move || {
                    for spec in queue {
                        let outcome = player.play(&spec);
                        if done_tx.send((spec.id, outcome)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(done_tx);
            let result = self.drive(slots, &jobs, &done, &mut progress);
            drop(jobs);
            result
        })
    }

    fn drive(
        &mut self,
        slots: usize,
        jobs: &crossbeam_channel::Sender<crate::game::play::GameSpec>,
        done: &crossbeam_channel::Receiver<(GameId, Result<GameOutcome, PlayError>)>,
        progress: &mut impl FnMut(Progress<'_>),
    ) -> Result<(), RunError> {
        let mut in_flight: BTreeMap<GameId, Scheduled> = BTreeMap::new();
        let mut failure: Option<PlayError> = None;
        self.round_over(progress)?;
        loop {
            if failure.is_none() {
                match self.event.next()? {
                    Next::Finished if in_flight.is_empty() => {
                        self.write_reports()?;
                        progress(Progress::Finished(&self.event));
                        return Ok(());
                    }
                    Next::Finished => {}
                    Next::Pair(round) => {
                        self.append(Record::Round(round.clone()))?;
                        progress(Progress::Paired(&round));
                        self.round_over(progress)?;
                        continue;
                    }
                    Next::Play(due) => {
                        let mut forfeited = false;
                        for s in due {
                            if in_flight.contains_key(&s.id) {
                                continue;
                            }
                            if s.forfeit.is_none() && in_flight.len() >= slots {
                                break;
                            }
                            if let Some(absent) = s.forfeit {
                                let g = record(&s, GameOutcome::Forfeited(absent));
                                self.append(Record::Game(g.clone()))?;
                                progress(Progress::Game(&g));
                                forfeited = true;
                                break;
                            }
                            jobs.send(self.event.spec(&s)).map_err(|_| {
                                RunError::Play(PlayError::Failed("players gone".into()))
                            })?;
                            in_flight.insert(s.id, s);
                        }
                        if forfeited {
                            self.round_over(progress)?;
                            continue;
                        }
                    }
                }
            }
            if in_flight.is_empty() {
                return Err(RunError::Play(
                    failure.unwrap_or(PlayError::Failed("nothing to play".into())),
                ));
            }
            let Ok((id, outcome)) = done.recv() else {
                return Err(RunError::Play(PlayError::Failed("players gone".into())));
            };
            let Some(s) = in_flight.remove(&id) else {
                continue;
            };
            match outcome {
                Ok(o) => {
                    let g = record(&s, o);
                    self.append(Record::Game(g.clone()))?;
                    progress(Progress::Game(&g));
                    self.round_over(progress)?;
                }
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        }
    }

    /// The latest round, standings and crosstable as terminal text.
    pub fn report(&self) -> String {
        Report::new(&self.event).to_string()
    }
}
