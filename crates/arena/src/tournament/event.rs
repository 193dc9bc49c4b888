//! An event in progress: the validated configuration, the draw, the rounds paired
//! and the games finished, and what comes next.
//!
//! The state is exactly the results file replayed ([`Event::apply`]), so an event
//! resumed after an interruption is the same event. [`Event::next`] says what the
//! arbiter does now: pair a round, play (or forfeit) games, or close the event.
//!
//! The draw (抽籤) gives starting numbers: round robin, the whole field by lot
//! (附錄一 使用說明); Swiss with seeded halves, the first half of the engine list
//! draws the odd numbers and the rest the even ones (附錄二 二.1); knockout, seeds
//! keep their order at the top and the rest are drawn into the places below. With
//! no `draw_seed` the engine list order stands in for the lots.
//!
//! Round-robin pairings of two or more games (兩局制) play all their games in the
//! same round, colours alternating from the table's order. Reading: 附錄一 says
//! "各輪第一局執紅棋先走者，在第二輪改執黑棋後走"; as the sentence is about each
//! round's first game, 第二輪 is read as the round's second game. 14.2 then ranks
//! the pairings as matches (場分). Byes of an odd round robin score nothing (every
//! player has exactly one); Swiss byes score as wins.
//!
//! Withdrawals (§19) are taken from the configuration: in a round robin, a player
//! who had met fewer than half his opponents has all his results struck out and his
//! remaining games are not played; otherwise his results stand and his remaining
//! games are forfeited to the opponents (19.2). In a Swiss event his results stand,
//! games already paired are forfeited and he is not paired again (19.3). In a
//! knockout his games are forfeited.

use super::config::{
    ConfigError, Elimination, FirstRound, FormatConfig, SwissTiebreak, TournamentConfig,
};
use super::knockout::{
    Bracket, Control, MatchGameResult, MatchProgress, MatchRule, MatchStatus, MatchView, Placing,
    Side, placings,
};
use super::player::PlayerId;
use super::results::{BoardPairing, GameRecord, Header, Record, RoundRecord, VERSION};
use super::round_robin::RoundRobinTable;
use super::standings::{Decision, EntryKind, ScoreTable, ScoredGame};
use super::swiss::{self, PairingError, SwissPlayer};
use super::tiebreak::{self, Ranked, Tiebreak};
use crate::game::clock::ClockSetting;
use crate::game::engine_config::EngineConfig;
use crate::game::play::{Absence, GameId, GameSpec};
use crate::lots::Lots;
use chuhan_engine::core::{Color, PlayerResult};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The format with what it needs precomputed.
#[derive(Clone, Debug)]
enum Plan {
    RoundRobin {
        table: RoundRobinTable,
        games: u32,
    },
    Swiss {
        rounds: u32,
        first_round: FirstRound,
        tiebreak: SwissTiebreak,
    },
    Knockout {
        bracket: Bracket,
        games: u32,
        tiebreak_games: u32,
        tiebreak_clock: ClockSetting,
    },
}

/// A game due now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scheduled {
    /// Its place.
    pub id: GameId,
    /// Red.
    pub red: PlayerId,
    /// Black.
    pub black: PlayerId,
    /// Its clock.
    pub control: Control,
    /// Set when it is forfeited without play (a withdrawal, §19).
    pub forfeit: Option<Absence>,
}

/// What the arbiter does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Record this pairing of the next round.
    Pair(RoundRecord),
    /// Play (or record as forfeited) these games of the current round.
    Play(Vec<Scheduled>),
    /// The event is over.
    Finished,
}

/// Why the event cannot go on.
#[derive(Debug)]
pub enum EventError {
    /// The configuration is invalid.
    Config(ConfigError),
    /// A round cannot be paired.
    Pairing(PairingError),
    /// The results file does not belong to this configuration, or is out of order.
    Mismatch(String),
}

impl fmt::Display for EventError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventError::Config(e) => write!(f, "{e}"),
            EventError::Pairing(e) => write!(f, "{e}"),
            EventError::Mismatch(e) => write!(f, "results file does not fit the event: {e}"),
        }
    }
}

impl std::error::Error for EventError {}

impl From<ConfigError> for EventError {
    fn from(e: ConfigError) -> EventError {
        EventError::Config(e)
    }
}

impl From<PairingError> for EventError {
    fn from(e: PairingError) -> EventError {
        EventError::Pairing(e)
    }
}

/// The ranking of an event so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Standings {
    /// Round robin and Swiss: ranked by points and tie-breaks.
    Ranked {
        /// The criteria, points first.
        criteria: Vec<Tiebreak>,
        /// Rows in rank order.
        rows: Vec<Ranked>,
        /// Withdrawn players whose results were struck out (19.2).
        struck_out: Vec<PlayerId>,
    },
    /// Knockout: placings of those out (and the champion), and who is still in.
    Knockout {
        /// Placings, best first.
        placings: Vec<(PlayerId, Placing)>,
        /// Players still in the event.
        alive: Vec<PlayerId>,
    },
}

/// An event: configuration, draw and results so far.
#[derive(Clone, Debug)]
pub struct Event {
    config: TournamentConfig,
    engines: Vec<EngineConfig>,
    plan: Plan,
    lots: Option<Lots>,
    header_seen: bool,
    rounds: Vec<RoundRecord>,
    games: BTreeMap<GameId, GameRecord>,
}

impl Event {
    /// A new event from a configuration: validates it and makes the draw.
    pub fn new(config: TournamentConfig) -> Result<Event, EventError> {
        config.validate()?;
        let n = config.engines.len();
        let lots = config.draw_seed.map(Lots::new);
        let shuffle = |label: &str, v: &mut Vec<usize>| {
            if let Some(l) = lots {
                l.shuffle(label, v);
            }
        };
        let order: Vec<usize> = match &config.format {
            FormatConfig::RoundRobin { .. } => {
                let mut v: Vec<usize> = (0..n).collect();
                shuffle("numbers", &mut v);
                v
            }
            FormatConfig::Swiss { seeded_halves, .. } => {
                if *seeded_halves {
                    let split = n.div_ceil(2);
                    let mut upper: Vec<usize> = (0..split).collect();
                    let mut lower: Vec<usize> = (split..n).collect();
                    shuffle("seeds", &mut upper);
                    shuffle("others", &mut lower);
                    (0..n)
                        .map(|k| {
                            if k % 2 == 0 {
                                upper[k / 2]
                            } else {
                                lower[k / 2]
                            }
                        })
                        .collect()
                } else {
                    let mut v: Vec<usize> = (0..n).collect();
                    shuffle("numbers", &mut v);
                    v
                }
            }
            FormatConfig::Knockout { seeds, .. } => {
                let seeds = *seeds as usize;
                let mut rest: Vec<usize> = (seeds..n).collect();
                shuffle("places", &mut rest);
                (0..seeds).chain(rest).collect()
            }
        };
        let engines = order.iter().map(|&i| config.engines[i].clone()).collect();
        let plan = match &config.format {
            FormatConfig::RoundRobin { games_per_pairing } => Plan::RoundRobin {
                table: RoundRobinTable::new(n as u32),
                games: *games_per_pairing,
            },
            FormatConfig::Swiss {
                rounds,
                first_round,
                tiebreak,
                ..
            } => Plan::Swiss {
                rounds: *rounds,
                first_round: *first_round,
                tiebreak: *tiebreak,
            },
            FormatConfig::Knockout {
                elimination,
                games_per_match,
                tiebreak_time_control,
                tiebreak_games,
                ..
            } => Plan::Knockout {
                bracket: Bracket::new(n as u32, *elimination),
                games: *games_per_match,
                tiebreak_games: *tiebreak_games,
                tiebreak_clock: ClockSetting::even(tiebreak_time_control.clone()),
            },
        };
        Ok(Event {
            config,
            engines,
            plan,
            lots,
            header_seen: false,
            rounds: Vec::new(),
            games: BTreeMap::new(),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &TournamentConfig {
        &self.config
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.engines.len()
    }

    /// Every player, by starting number.
    pub fn ids(&self) -> impl Iterator<Item = PlayerId> + '_ {
        (0..self.engines.len()).map(|i| PlayerId(i as u16))
    }

    /// A player's engine.
    pub fn engine(&self, p: PlayerId) -> &EngineConfig {
        &self.engines[p.index()]
    }

    /// A player's name.
    pub fn name(&self, p: PlayerId) -> &str {
        &self.engine(p).name
    }

    /// The rounds paired so far.
    pub fn rounds(&self) -> &[RoundRecord] {
        &self.rounds
    }

    /// The games finished so far.
    pub fn games(&self) -> impl Iterator<Item = &GameRecord> {
        self.games.values()
    }

    /// The total number of rounds of the event.
    pub fn total_rounds(&self) -> u32 {
        match &self.plan {
            Plan::RoundRobin { table, .. } => table.rounds(),
            Plan::Swiss { rounds, .. } => *rounds,
            Plan::Knockout { bracket, .. } => bracket.rounds(),
        }
    }

    /// Whether games are ranked by points (round robin, Swiss) rather than placed
    /// in a bracket.
    pub fn is_knockout(&self) -> bool {
        matches!(self.plan, Plan::Knockout { .. })
    }

    /// Whether pairings play more than one game (ranked by match points, 14.2).
    pub fn multi_game(&self) -> bool {
        matches!(self.plan, Plan::RoundRobin { games, .. } if games > 1)
    }

    /// A one-line summary of the format (also written in the results header).
    pub fn format_summary(&self) -> String {
        match &self.plan {
            Plan::RoundRobin { table, games } => format!(
                "round robin of {}, {games} game{} per pairing",
                table.players(),
                if *games == 1 { "" } else { "s" }
            ),
            Plan::Swiss {
                rounds, tiebreak, ..
            } => format!(
                "swiss (定位編排), {rounds} rounds, tie-breaks {}",
                match tiebreak {
                    SwissTiebreak::OpponentScore => "14.3.1",
                    SwissTiebreak::Progressive => "14.3.2",
                }
            ),
            Plan::Knockout { bracket, games, .. } => format!(
                "{} elimination of {}, {games} game{} per match",
                match bracket.elimination() {
                    Elimination::Single => "single",
                    Elimination::Double => "double",
                },
                bracket.entrants(),
                if *games == 1 { "" } else { "s" }
            ),
        }
    }

    /// The header record for a new results file.
    pub fn header(&self) -> Header {
        Header {
            version: VERSION,
            event: self.config.event.clone(),
            format: self.format_summary(),
            players: self.engines.iter().map(|e| e.name.clone()).collect(),
        }
    }

    fn player(&self, p: PlayerId) -> Result<PlayerId, EventError> {
        if p.index() < self.engines.len() {
            Ok(p)
        } else {
            Err(EventError::Mismatch(format!("no player {p}")))
        }
    }

    /// Applies one record of the results file.
    pub fn apply(&mut self, record: Record) -> Result<(), EventError> {
        match record {
            Record::Header(h) => {
                let mine = self.header();
                if self.header_seen {
                    return Err(EventError::Mismatch("a second header".into()));
                }
                if h.version != VERSION {
                    return Err(EventError::Mismatch(format!("version {}", h.version)));
                }
                if h.event != mine.event || h.format != mine.format || h.players != mine.players {
                    return Err(EventError::Mismatch(format!(
                        "the file is for `{}` ({}; {}), the configuration for `{}` ({}; {})",
                        h.event,
                        h.format,
                        h.players.join(", "),
                        mine.event,
                        mine.format,
                        mine.players.join(", ")
                    )));
                }
                self.header_seen = true;
                Ok(())
            }
            Record::Round(r) => {
                self.need_header()?;
                let expected = self.rounds.len() as u32 + 1;
                if r.round != expected {
                    return Err(EventError::Mismatch(format!(
                        "round {} recorded where round {expected} was due",
                        r.round
                    )));
                }
                if expected > 1 && !self.pending(expected - 1).is_empty() {
                    return Err(EventError::Mismatch(format!(
                        "round {expected} paired before round {} was over",
                        expected - 1
                    )));
                }
                let mut seen = BTreeSet::new();
                for p in r
                    .boards
                    .iter()
                    .flat_map(|b| [b.first, b.second])
                    .chain(r.byes.iter().copied())
                {
                    self.player(p)?;
                    if !seen.insert(p) {
                        return Err(EventError::Mismatch(format!(
                            "player {p} twice in round {}",
                            r.round
                        )));
                    }
                }
                self.rounds.push(r);
                Ok(())
            }
            Record::Game(g) => {
                self.need_header()?;
                let due = self
                    .rounds
                    .get(g.round.wrapping_sub(1) as usize)
                    .map(|_| self.pending(g.round))
                    .unwrap_or_default();
                let ok = due
                    .iter()
                    .any(|s| s.id == g.id() && s.red == g.red && s.black == g.black);
                if !ok {
                    return Err(EventError::Mismatch(format!(
                        "game {} ({} v {}) was not due",
                        g.id(),
                        g.red,
                        g.black
                    )));
                }
                self.games.insert(g.id(), g);
                Ok(())
            }
        }
    }

    fn need_header(&self) -> Result<(), EventError> {
        if self.header_seen {
            Ok(())
        } else {
            Err(EventError::Mismatch("records before the header".into()))
        }
    }

    /// Marks the header as written (a new results file).
    pub fn start(&mut self) -> Header {
        self.header_seen = true;
        self.header()
    }

    /// Whether the header has been applied or written.
    pub fn started(&self) -> bool {
        self.header_seen
    }

    /// The round from which `p` has withdrawn, if any.
    pub fn withdrawn_from(&self, p: PlayerId) -> Option<u32> {
        let name = self.name(p);
        self.config
            .withdrawals
            .iter()
            .filter(|w| w.engine == name)
            .map(|w| w.from_round)
            .min()
    }

    fn absent(&self, p: PlayerId, round: u32) -> bool {
        self.withdrawn_from(p).is_some_and(|f| f <= round)
    }

    /// 19.2: a round-robin withdrawal before meeting half the field strikes out all
    /// the player's results (once the event has reached his first missed round).
    pub fn struck_out(&self, p: PlayerId) -> bool {
        let Plan::RoundRobin { .. } = self.plan else {
            return false;
        };
        let Some(from) = self.withdrawn_from(p) else {
            return false;
        };
        if (self.rounds.len() as u32) < from {
            return false;
        }
        let met: BTreeSet<PlayerId> = self
            .games
            .values()
            .filter(|g| g.round < from && matches!(g.decision, Decision::Played(_)))
            .filter_map(|g| {
                if g.red == p {
                    Some(g.black)
                } else if g.black == p {
                    Some(g.red)
                } else {
                    None
                }
            })
            .collect();
        2 * met.len() < self.players() - 1
    }

    fn forfeit(&self, red: PlayerId, black: PlayerId, round: u32) -> Option<Absence> {
        match (self.absent(red, round), self.absent(black, round)) {
            (true, true) => Some(Absence::Both),
            (true, false) => Some(Absence::Red),
            (false, true) => Some(Absence::Black),
            (false, false) => None,
        }
    }

    /// The games of a knockout board so far, from the first player's side.
    fn match_scores(&self, round: u32, board: &BoardPairing) -> Vec<MatchGameResult> {
        self.games
            .range(
                GameId {
                    round,
                    board: board.board,
                    game: 0,
                }..GameId {
                    round,
                    board: board.board + 1,
                    game: 0,
                },
            )
            .map(|(_, g)| {
                let first = if g.red == board.first {
                    Color::Red
                } else {
                    Color::Black
                };
                match g.decision {
                    Decision::Played(r) => match r.for_side(first) {
                        PlayerResult::Win => MatchGameResult::Win,
                        PlayerResult::Draw => MatchGameResult::Draw,
                        PlayerResult::Loss => MatchGameResult::Loss,
                    },
                    Decision::Forfeit(Absence::Both) => MatchGameResult::BothLost,
                    Decision::Forfeit(a) if a.includes(first) => MatchGameResult::Loss,
                    Decision::Forfeit(_) => MatchGameResult::Win,
                }
            })
            .collect()
    }

    fn match_rule(&self, round: u32, board: u32) -> MatchRule {
        match &self.plan {
            Plan::Knockout {
                bracket,
                games,
                tiebreak_games,
                ..
            } => {
                let side = bracket
                    .get(super::knockout::MatchRef { round, board })
                    .map(|m| m.side);
                if side == Some(Side::Final) {
                    MatchRule::DoubleFinal
                } else {
                    MatchRule::Regular {
                        games: *games,
                        tiebreak_games: *tiebreak_games,
                    }
                }
            }
            _ => MatchRule::Regular {
                games: 1,
                tiebreak_games: 0,
            },
        }
    }

    /// 12.4: game 1 colours of a knockout match by lot (the upper place has Red
    /// without a draw seed).
    fn first_has_red(&self, round: u32, board: u32) -> bool {
        self.lots
            .is_none_or(|l| l.coin("colours", u64::from(round) << 16 | u64::from(board)))
    }

    fn knockout_progress(&self, round: u32, board: &BoardPairing) -> MatchProgress {
        self.match_rule(round, board.board).progress(
            self.first_has_red(round, board.board),
            &self.match_scores(round, board),
        )
    }

    /// The games of `round` due and not yet finished.
    pub fn pending(&self, round: u32) -> Vec<Scheduled> {
        let Some(record) = self.rounds.get(round.wrapping_sub(1) as usize) else {
            return Vec::new();
        };
        let mut due = Vec::new();
        for b in &record.boards {
            let struck = self.struck_out(b.first) || self.struck_out(b.second);
            match &self.plan {
                Plan::RoundRobin { games, .. } => {
                    if struck {
                        continue;
                    }
                    for game in 1..=*games {
                        let (red, black) = if game % 2 == 1 {
                            (b.first, b.second)
                        } else {
                            (b.second, b.first)
                        };
                        due.push(Scheduled {
                            id: GameId {
                                round,
                                board: b.board,
                                game,
                            },
                            red,
                            black,
                            control: Control::Main,
                            forfeit: self.forfeit(red, black, round),
                        });
                    }
                }
                Plan::Swiss { .. } => due.push(Scheduled {
                    id: GameId {
                        round,
                        board: b.board,
                        game: 1,
                    },
                    red: b.first,
                    black: b.second,
                    control: Control::Main,
                    forfeit: self.forfeit(b.first, b.second, round),
                }),
                Plan::Knockout { .. } => {
                    if let MatchProgress::Next(next) = self.knockout_progress(round, b) {
                        let (red, black) = if next.first_has_red {
                            (b.first, b.second)
                        } else {
                            (b.second, b.first)
                        };
                        due.push(Scheduled {
                            id: GameId {
                                round,
                                board: b.board,
                                game: next.number,
                            },
                            red,
                            black,
                            control: next.control,
                            forfeit: self.forfeit(red, black, round),
                        });
                    }
                }
            }
        }
        due.retain(|s| !self.games.contains_key(&s.id));
        due
    }

    fn active(&self, round: u32) -> Vec<PlayerId> {
        self.ids().filter(|&p| !self.absent(p, round)).collect()
    }

    /// What to do next.
    pub fn next(&self) -> Result<Next, EventError> {
        let current = self.rounds.len() as u32;
        if current > 0 {
            let due = self.pending(current);
            if !due.is_empty() {
                return Ok(Next::Play(due));
            }
        }
        if self.finished() {
            return Ok(Next::Finished);
        }
        Ok(Next::Pair(self.pair(current + 1)?))
    }

    /// Whether every round has been played.
    pub fn finished(&self) -> bool {
        let current = self.rounds.len() as u32;
        if current > 0 && !self.pending(current).is_empty() {
            return false;
        }
        match &self.plan {
            Plan::RoundRobin { table, .. } => current >= table.rounds(),
            Plan::Swiss { rounds, .. } => current >= *rounds || self.active(current + 1).len() < 2,
            Plan::Knockout { bracket, .. } => current >= bracket.rounds(),
        }
    }

    /// Resolves the knockout bracket with the results so far.
    pub fn bracket(&self) -> Option<(&Bracket, Vec<Vec<MatchView>>)> {
        let Plan::Knockout { bracket, .. } = &self.plan else {
            return None;
        };
        let positions: Vec<Option<PlayerId>> = (0..bracket.size())
            .map(|i| (i < bracket.entrants()).then_some(PlayerId(i as u16)))
            .collect();
        let views = bracket.resolve(&positions, |plan, _| {
            let record = self.rounds.get(plan.id.round as usize - 1)?;
            let board = record.boards.iter().find(|b| b.board == plan.id.board)?;
            match self.knockout_progress(plan.id.round, board) {
                MatchProgress::Decided(true) => Some(board.first),
                MatchProgress::Decided(false) => Some(board.second),
                MatchProgress::Next(_) => None,
            }
        });
        Some((bracket, views))
    }

    fn pair(&self, round: u32) -> Result<RoundRecord, EventError> {
        let board = |k: usize, first: PlayerId, second: PlayerId| BoardPairing {
            board: k as u32 + 1,
            first,
            second,
        };
        match &self.plan {
            Plan::RoundRobin { table, .. } => Ok(RoundRecord {
                round,
                boards: table
                    .games(round)
                    .enumerate()
                    .map(|(k, p)| {
                        board(
                            k,
                            PlayerId::from_number(p.first).expect("table numbers from 1"),
                            PlayerId::from_number(p.second).expect("table numbers from 1"),
                        )
                    })
                    .collect(),
                byes: table
                    .bye(round)
                    .and_then(PlayerId::from_number)
                    .into_iter()
                    .collect(),
            }),
            Plan::Swiss {
                rounds,
                first_round,
                ..
            } => {
                let active = self.active(round);
                let pairing = if round == 1 {
                    swiss::first_round(&active, *first_round)
                } else {
                    swiss::pair_round(&self.swiss_players(&active, round), round, *rounds)?
                };
                Ok(RoundRecord {
                    round,
                    boards: pairing
                        .pairs
                        .iter()
                        .enumerate()
                        .map(|(k, p)| board(k, p.red, p.black))
                        .collect(),
                    byes: pairing.bye.into_iter().collect(),
                })
            }
            Plan::Knockout { .. } => {
                let (_, views) = self.bracket().expect("a knockout");
                let mut boards = Vec::new();
                let mut byes = Vec::new();
                for m in &views[round as usize - 1] {
                    match (m.status, m.players) {
                        (
                            MatchStatus::Pending,
                            [
                                super::knockout::Entrant::Player(a),
                                super::knockout::Entrant::Player(b),
                            ],
                        ) => boards.push(BoardPairing {
                            board: m.plan.id.board,
                            first: a,
                            second: b,
                        }),
                        (MatchStatus::Bye(p), _) => byes.push(p),
                        _ => {}
                    }
                }
                Ok(RoundRecord {
                    round,
                    boards,
                    byes,
                })
            }
        }
    }

    fn swiss_players(&self, active: &[PlayerId], round: u32) -> Vec<SwissPlayer> {
        let table = self.table();
        active
            .iter()
            .map(|&p| {
                let entries = table.entries(p);
                SwissPlayer {
                    id: p,
                    score: table.points_after(p, round - 1),
                    colours: table.played_colours(p),
                    opponents: entries.iter().filter_map(|e| e.opponent).collect(),
                    byes: entries.iter().filter(|e| e.kind == EntryKind::Bye).count() as u32,
                }
            })
            .collect()
    }

    /// The score table of the results so far (struck-out players' games left out;
    /// Swiss byes scored as wins).
    pub fn table(&self) -> ScoreTable {
        let struck: BTreeSet<PlayerId> = self.ids().filter(|&p| self.struck_out(p)).collect();
        let games: Vec<ScoredGame> = self
            .games
            .values()
            .filter(|g| !struck.contains(&g.red) && !struck.contains(&g.black))
            .map(|g| ScoredGame {
                id: g.id(),
                red: g.red,
                black: g.black,
                decision: g.decision,
            })
            .collect();
        let byes: Vec<(u32, PlayerId)> = match self.plan {
            Plan::Swiss { .. } => self
                .rounds
                .iter()
                .flat_map(|r| r.byes.iter().map(move |&p| (r.round, p)))
                .collect(),
            _ => Vec::new(),
        };
        ScoreTable::new(self.players(), self.config.scoring, &games, &byes)
    }

    /// The tie-break criteria of this format (§14).
    pub fn criteria(&self) -> Vec<Tiebreak> {
        match &self.plan {
            Plan::RoundRobin { games: 1, .. } => tiebreak::ROUND_ROBIN.to_vec(),
            Plan::RoundRobin { .. } => tiebreak::ROUND_ROBIN_MATCHES.to_vec(),
            Plan::Swiss {
                tiebreak: SwissTiebreak::OpponentScore,
                ..
            } => tiebreak::SWISS_OPPONENTS.to_vec(),
            Plan::Swiss { .. } => tiebreak::SWISS_PROGRESSIVE.to_vec(),
            Plan::Knockout { .. } => Vec::new(),
        }
    }

    /// The standings now.
    pub fn standings(&self) -> Standings {
        if let Some((_, views)) = self.bracket() {
            let placed = placings(&views, self.players() as u32);
            let out: BTreeSet<PlayerId> = placed.iter().map(|(p, _)| *p).collect();
            return Standings::Knockout {
                alive: self.ids().filter(|p| !out.contains(p)).collect(),
                placings: placed,
            };
        }
        let table = self.table();
        let struck_out: Vec<PlayerId> = self.ids().filter(|&p| self.struck_out(p)).collect();
        let players: Vec<PlayerId> = self.ids().filter(|p| !struck_out.contains(p)).collect();
        let criteria = self.criteria();
        Standings::Ranked {
            rows: tiebreak::rank(&table, &players, &criteria),
            criteria,
            struck_out,
        }
    }

    /// The full specification of a scheduled game, for the game player.
    pub fn spec(&self, s: &Scheduled) -> GameSpec {
        let clock = match (&self.plan, s.control) {
            (Plan::Knockout { tiebreak_clock, .. }, Control::Tiebreak) => tiebreak_clock.clone(),
            _ => self.config.time_control.clone(),
        };
        let openings = &self.config.openings;
        GameSpec {
            id: s.id,
            event: self.config.event.clone(),
            red: self.engine(s.red).clone(),
            black: self.engine(s.black).clone(),
            clock,
            limit: self.config.limit,
            tolerance: self.config.tolerance(),
            rules: self.config.rules,
            referee: self.config.referee,
            opening: (!openings.is_empty())
                .then(|| openings[(s.id.round as usize - 1) % openings.len()].clone()),
        }
    }
}
