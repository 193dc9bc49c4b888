//! Clocks of §6: the time-control model (JSON and command-line text), a two-sided
//! game clock that charges thinking time, and the `go` clock fields of UCCI and UCI.
//!
//! A [`TimeControl`] is a list of [`Stage`]s. Each stage gives time, an optional
//! number of moves to be made in it and an optional increment per move:
//!
//! | §6 system | text form | stages |
//! |---|---|---|
//! | 6.1 基本用時加秒制 (base + increment) | `3600+30` | one stage, no move count, 30 s increment |
//! | 6.2 限時限著制 (moves in a period, then repeating periods) | `30/3600:10/600` | 30 moves in 60 min, then every 10 moves in 10 min |
//! | 6.3 限時包乾制 (sudden death) | `7200` | one stage, no move count, no increment |
//! | 6.4 快棋賽用時制 (rapid) | `600+10` | any control whose first stage is at most 15 min ([`TimeControl::is_rapid`]) |
//! | 6.5 貼時制 (time odds) | [`ClockSetting::odds`] | a different control for each colour |
//!
//! The last stage repeats when it has a move count (6.2: "以後每10分鐘內必須走滿10著，
//! 直至對局結束"); a stage without a move count lasts to the end of the game. Time left
//! over from a stage carries into the next one, as on a digital clock.
//!
//! Flag fall follows §21: the clock is charged after each move; a move that used
//! more than the time left (plus the event's small tolerance for pipe latency)
//! oversteps the time (21.1, 21.3), and the mover loses unless that move mated or
//! stalemated the opponent (21.6, [`loses_on_time`]).

use chuhan_engine::core::{Color, Terminal};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The longest first stage of a rapid game (6.4: "每方限時15分鐘（含）以下").
pub const RAPID_LIMIT: Duration = Duration::from_secs(15 * 60);

/// One period of a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stage {
    /// Moves to be made in this stage; `None` = the rest of the game.
    pub moves: Option<u32>,
    /// Time added to the clock when the stage begins.
    pub time: Duration,
    /// Time added after each move made in this stage.
    pub increment: Duration,
}

/// A time control of §6: one or more [`Stage`]s, the last repeating if it has a
/// move count.
///
/// ```
/// use chuhan_arena::game::clock::TimeControl;
/// use std::time::Duration;
/// let tc: TimeControl = "30/3600:10/600".parse().unwrap();
/// assert_eq!(tc.stages().len(), 2);
/// assert_eq!(tc.stages()[1].moves, Some(10));
/// assert_eq!(tc.to_string(), "30/3600:10/600");
/// assert!(!tc.is_rapid());
/// assert!("600+10".parse::<TimeControl>().unwrap().is_rapid());
/// assert_eq!("5+0.1".parse::<TimeControl>().unwrap().stages()[0].increment, Duration::from_millis(100));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    stages: Vec<Stage>,
}

/// Why a time control is not valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControlError {
    /// No stage at all.
    Empty,
    /// A stage's text is not `[moves/]seconds[+increment]`.
    Syntax(String),
    /// A stage without a move count is followed by another stage.
    OpenStageNotLast(usize),
    /// A stage asks for zero moves.
    ZeroMoves(usize),
    /// The first stage gives no time.
    NoInitialTime,
    /// A later stage gives neither time nor increment.
    EmptyStage(usize),
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlError::Empty => f.write_str("time control has no stage"),
            TimeControlError::Syntax(s) => write!(
                f,
                "time control stage `{s}` is not `[moves/]seconds[+increment]`"
            ),
            TimeControlError::OpenStageNotLast(i) => write!(
                f,
                "stage {} has no move count, so it must be the last",
                i + 1
            ),
            TimeControlError::ZeroMoves(i) => write!(f, "stage {} asks for zero moves", i + 1),
            TimeControlError::NoInitialTime => f.write_str("the first stage gives no time"),
            TimeControlError::EmptyStage(i) => {
                write!(f, "stage {} gives neither time nor increment", i + 1)
            }
        }
    }
}

impl std::error::Error for TimeControlError {}

impl TimeControl {
    /// A control from stages, validated.
    pub fn new(stages: Vec<Stage>) -> Result<TimeControl, TimeControlError> {
        if stages.is_empty() {
            return Err(TimeControlError::Empty);
        }
        for (i, s) in stages.iter().enumerate() {
            if s.moves == Some(0) {
                return Err(TimeControlError::ZeroMoves(i));
            }
            if s.moves.is_none() && i + 1 != stages.len() {
                return Err(TimeControlError::OpenStageNotLast(i));
            }
            if i > 0 && s.time.is_zero() && s.increment.is_zero() {
                return Err(TimeControlError::EmptyStage(i));
            }
        }
        if stages[0].time.is_zero() {
            return Err(TimeControlError::NoInitialTime);
        }
        Ok(TimeControl { stages })
    }

    /// 6.1: `base` for the game plus `increment` per move.
    pub fn increment(base: Duration, increment: Duration) -> Result<TimeControl, TimeControlError> {
        TimeControl::new(vec![Stage {
            moves: None,
            time: base,
            increment,
        }])
    }

    /// 6.3: `time` for the whole game, no increment.
    pub fn sudden_death(time: Duration) -> Result<TimeControl, TimeControlError> {
        TimeControl::increment(time, Duration::ZERO)
    }

    /// 6.2: `moves` in `time`, then every `then_moves` in `then_time` to the end.
    pub fn periods(
        moves: u32,
        time: Duration,
        then_moves: u32,
        then_time: Duration,
    ) -> Result<TimeControl, TimeControlError> {
        TimeControl::new(vec![
            Stage {
                moves: Some(moves),
                time,
                increment: Duration::ZERO,
            },
            Stage {
                moves: Some(then_moves),
                time: then_time,
                increment: Duration::ZERO,
            },
        ])
    }

    /// The stages in order.
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// 6.4: a rapid control (first stage at most 15 minutes per side).
    pub fn is_rapid(&self) -> bool {
        self.stages[0].time <= RAPID_LIMIT
    }

    /// The stage in force after `completed` whole stages (the last one repeats).
    fn stage(&self, completed: usize) -> &Stage {
        &self.stages[completed.min(self.stages.len() - 1)]
    }
}

fn parse_seconds(s: &str) -> Option<Duration> {
    let v: f64 = s.parse().ok()?;
    if !v.is_finite() || !(0.0..=1.0e9).contains(&v) || s.starts_with('+') {
        return None;
    }
    Some(Duration::from_millis((v * 1000.0).round() as u64))
}

fn write_seconds(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        write!(f, "{}", ms / 1000)
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        f.write_str(text.trim_end_matches('0'))
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Parses `stage[:stage…]`, each stage `[moves/]seconds[+increment]`, seconds
    /// possibly fractional (`40/5400+30:1800+30`, `600+10`, `0.5+0.05`).
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let mut stages = Vec::new();
        for part in text.trim().split(':') {
            let syntax = || TimeControlError::Syntax(part.to_string());
            let (moves, rest) = match part.split_once('/') {
                Some((m, rest)) => (Some(m.parse::<u32>().map_err(|_| syntax())?), rest),
                None => (None, part),
            };
            let (time, increment) = match rest.split_once('+') {
                Some((t, i)) => (
                    parse_seconds(t).ok_or_else(syntax)?,
                    parse_seconds(i).ok_or_else(syntax)?,
                ),
                None => (parse_seconds(rest).ok_or_else(syntax)?, Duration::ZERO),
            };
            stages.push(Stage {
                moves,
                time,
                increment,
            });
        }
        TimeControl::new(stages)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.stages.iter().enumerate() {
            if i > 0 {
                f.write_str(":")?;
            }
            if let Some(m) = s.moves {
                write!(f, "{m}/")?;
            }
            write_seconds(f, s.time)?;
            if !s.increment.is_zero() {
                f.write_str("+")?;
                write_seconds(f, s.increment)?;
            }
        }
        Ok(())
    }
}

impl TryFrom<String> for TimeControl {
    type Error = TimeControlError;
    fn try_from(s: String) -> Result<TimeControl, TimeControlError> {
        s.parse()
    }
}

impl From<TimeControl> for String {
    fn from(tc: TimeControl) -> String {
        tc.to_string()
    }
}

impl serde::Serialize for TimeControl {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> serde::Deserialize<'de> for TimeControl {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TimeControl, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The controls of both sides: equal, or different for time odds (6.5 貼時制).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClockSetting {
    /// Red's control.
    pub red: TimeControl,
    /// Black's control.
    pub black: TimeControl,
}

impl ClockSetting {
    /// The same control for both sides.
    pub fn even(tc: TimeControl) -> ClockSetting {
        ClockSetting {
            red: tc.clone(),
            black: tc,
        }
    }

    /// 6.5 time odds: a control for each colour.
    pub fn odds(red: TimeControl, black: TimeControl) -> ClockSetting {
        ClockSetting { red, black }
    }

    /// The control of one side.
    pub fn of(&self, c: Color) -> &TimeControl {
        match c {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }

    /// True when the controls differ (time odds).
    pub fn has_odds(&self) -> bool {
        self.red != self.black
    }
}

impl fmt::Display for ClockSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.has_odds() {
            write!(f, "red {} / black {}", self.red, self.black)
        } else {
            write!(f, "{}", self.red)
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum ClockText {
    Even(TimeControl),
    Odds {
        red: TimeControl,
        black: TimeControl,
    },
}

impl Serialize for ClockSetting {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.has_odds() {
            ClockText::Odds {
                red: self.red.clone(),
                black: self.black.clone(),
            }
            .serialize(s)
        } else {
            ClockText::Even(self.red.clone()).serialize(s)
        }
    }
}

impl<'de> Deserialize<'de> for ClockSetting {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ClockSetting, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        let parsed = match value {
            serde_json::Value::String(s) => s.parse().map(ClockSetting::even),
            serde_json::Value::Object(_) => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Odds {
                    red: String,
                    black: String,
                }
                let o: Odds = serde_json::from_value(value).map_err(serde::de::Error::custom)?;
                o.red
                    .parse()
                    .and_then(|red| o.black.parse().map(|black| ClockSetting::odds(red, black)))
            }
            _ => {
                return Err(serde::de::Error::custom(
                    "time_control is a string like \"600+5\" or {\"red\": …, \"black\": …}",
                ));
            }
        };
        parsed.map_err(serde::de::Error::custom)
    }
}

/// How one charged move relates to the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveTiming {
    /// Made within the time left (or within the tolerance).
    InTime,
    /// Made after the time ran out (21.1, 21.3), by this much beyond the tolerance-free
    /// limit.
    Overstepped {
        /// How far past zero the clock went.
        by: Duration,
    },
}

/// 21.6: whether a move that oversteps the time loses. The mover still wins when that
/// move checkmated or stalemated the opponent ("除出現將死、困斃外"); `after_move` is
/// the position's [`Terminal`] state once the move is on the board.
pub fn loses_on_time(timing: MoveTiming, after_move: Terminal) -> bool {
    match timing {
        MoveTiming::InTime => false,
        MoveTiming::Overstepped { .. } => after_move == Terminal::Ongoing,
    }
}

#[derive(Clone, Debug)]
struct SideClock {
    control: TimeControl,
    completed_stages: usize,
    moves_in_stage: u32,
    remaining: Duration,
    flagged: bool,
}

impl SideClock {
    fn new(control: TimeControl) -> SideClock {
        let remaining = control.stages[0].time;
        SideClock {
            control,
            completed_stages: 0,
            moves_in_stage: 0,
            remaining,
            flagged: false,
        }
    }

    fn stage(&self) -> &Stage {
        self.control.stage(self.completed_stages)
    }

    fn state(&self) -> SideTime {
        let stage = self.stage();
        SideTime {
            remaining: self.remaining,
            increment: stage.increment,
            moves_to_go: stage.moves.map(|m| m - self.moves_in_stage),
        }
    }
}

/// A side's clock as an engine is told about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideTime {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Increment per move in the current stage.
    pub increment: Duration,
    /// Moves left to make in the current stage, when it has a move count.
    pub moves_to_go: Option<u32>,
}

/// A game clock with two faces (§6): charges each move's thinking time to the mover,
/// adds increments and new stages, and tells who overstepped.
///
/// ```
/// use chuhan_engine::core::Color;
/// use chuhan_arena::game::clock::{ClockSetting, GameClock, MoveTiming, TimeControl};
/// use std::time::Duration;
/// let tc: TimeControl = "2/10:1/5".parse().unwrap();
/// let mut clock = GameClock::new(&ClockSetting::even(tc), Duration::ZERO);
/// assert_eq!(clock.charge(Color::Red, Duration::from_secs(4)), MoveTiming::InTime);
/// assert_eq!(clock.charge(Color::Red, Duration::from_secs(4)), MoveTiming::InTime);
/// // Two moves made in the first stage: 2 s left over plus the second stage's 5 s.
/// assert_eq!(clock.remaining(Color::Red), Duration::from_secs(7));
/// assert_eq!(clock.charge(Color::Red, Duration::from_secs(8)),
///            MoveTiming::Overstepped { by: Duration::from_secs(1) });
/// ```
#[derive(Clone, Debug)]
pub struct GameClock {
    sides: [SideClock; 2],
    tolerance: Duration,
}

impl GameClock {
    /// A clock at the start of a game. `tolerance` forgives that much overstep (pipe
    /// and scheduling latency; 21.5 lets the arbiter allow for clock faults).
    pub fn new(setting: &ClockSetting, tolerance: Duration) -> GameClock {
        GameClock {
            sides: [
                SideClock::new(setting.red.clone()),
                SideClock::new(setting.black.clone()),
            ],
            tolerance,
        }
    }

    /// Time left on one side's clock.
    pub fn remaining(&self, c: Color) -> Duration {
        self.sides[c.index()].remaining
    }

    /// One side's clock as an engine is told about it.
    pub fn side(&self, c: Color) -> SideTime {
        self.sides[c.index()].state()
    }

    /// Moves made so far by one side.
    pub fn moves_made(&self, c: Color) -> u32 {
        let s = &self.sides[c.index()];
        let mut total = s.moves_in_stage;
        for i in 0..s.completed_stages {
            total += s.control.stage(i).moves.unwrap_or(0);
        }
        total
    }

    /// Whether a side has overstepped its time.
    pub fn flagged(&self, c: Color) -> bool {
        self.sides[c.index()].flagged
    }

    /// Charges a move that took `elapsed` to side `c`: subtracts the time, then (if
    /// the move was in time) adds the increment and, when the move completes a
    /// stage's count, the next stage's time. A flagged clock stays at zero.
    pub fn charge(&mut self, c: Color, elapsed: Duration) -> MoveTiming {
        let tolerance = self.tolerance;
        let side = &mut self.sides[c.index()];
        if side.flagged {
            return MoveTiming::Overstepped { by: elapsed };
        }
        if elapsed > side.remaining + tolerance {
            let by = elapsed - side.remaining;
            side.remaining = Duration::ZERO;
            side.flagged = true;
            return MoveTiming::Overstepped { by };
        }
        side.remaining = side.remaining.saturating_sub(elapsed);
        let stage = *side.stage();
        side.remaining += stage.increment;
        side.moves_in_stage += 1;
        if stage.moves == Some(side.moves_in_stage) {
            side.completed_stages += 1;
            side.moves_in_stage = 0;
            side.remaining += side.stage().time;
        }
        MoveTiming::InTime
    }

    /// The clock fields for a `go` command to the side `to_move`.
    pub fn go_fields(&self, to_move: Color) -> GoFields {
        GoFields {
            to_move,
            own: self.side(to_move),
            opp: self.side(!to_move),
        }
    }
}

/// The time unit of UCCI clock fields (`usemillisec`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UcciUnit {
    /// Milliseconds (the engine advertised `usemillisec` and it was switched on).
    Millis,
    /// Whole seconds, rounded down (the UCCI default).
    Seconds,
}

/// The clock part of a `go` command, for either dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoFields {
    /// The side to move (the engine being asked).
    pub to_move: Color,
    /// The mover's clock.
    pub own: SideTime,
    /// The opponent's clock.
    pub opp: SideTime,
}

impl GoFields {
    /// UCCI fields: `time T movestogo M|increment I opptime T2 oppmovestogo M2|oppincrement I2`.
    /// A stage with a move count is sent as `movestogo` (UCCI allows only one of the
    /// two); sudden death is sent as `increment 0`, never a bare `time` (which
    /// ElephantEye reads as `movestogo 1`).
    ///
    /// ```
    /// use chuhan_engine::core::Color;
    /// use chuhan_arena::game::clock::{ClockSetting, GameClock, UcciUnit};
    /// use std::time::Duration;
    /// let clock = GameClock::new(&ClockSetting::even("60+1".parse().unwrap()), Duration::ZERO);
    /// let go = clock.go_fields(Color::Black);
    /// assert_eq!(go.ucci(UcciUnit::Millis), "time 60000 increment 1000 opptime 60000 oppincrement 1000");
    /// assert_eq!(go.ucci(UcciUnit::Seconds), "time 60 increment 1 opptime 60 oppincrement 1");
    /// assert_eq!(go.uci(), "wtime 60000 btime 60000 winc 1000 binc 1000");
    /// ```
    pub fn ucci(&self, unit: UcciUnit) -> String {
        let t = |d: Duration| match unit {
            UcciUnit::Millis => d.as_millis(),
            UcciUnit::Seconds => d.as_millis() / 1000,
        };
        let side = |prefix: &str, s: &SideTime| match s.moves_to_go {
            Some(m) => format!("{prefix}time {} {prefix}movestogo {m}", t(s.remaining)),
            None => format!(
                "{prefix}time {} {prefix}increment {}",
                t(s.remaining),
                t(s.increment)
            ),
        };
        format!("{} {}", side("", &self.own), side("opp", &self.opp))
    }

    /// UCI fields in milliseconds: `wtime btime [winc binc] [movestogo]` (increments
    /// when either side has one; `movestogo` for the side to move).
    pub fn uci(&self) -> String {
        let (red, black) = match self.to_move {
            Color::Red => (&self.own, &self.opp),
            Color::Black => (&self.opp, &self.own),
        };
        let mut s = format!(
            "wtime {} btime {}",
            red.remaining.as_millis(),
            black.remaining.as_millis()
        );
        if !red.increment.is_zero() || !black.increment.is_zero() {
            s += &format!(
                " winc {} binc {}",
                red.increment.as_millis(),
                black.increment.as_millis()
            );
        }
        if let Some(m) = self.own.moves_to_go {
            s += &format!(" movestogo {m}");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn parses_every_system_of_section_6() {
        let inc: TimeControl = "3600+30".parse().unwrap();
        assert_eq!(
            inc.stages(),
            &[Stage {
                moves: None,
                time: secs(3600),
                increment: secs(30)
            }]
        );
        let periods: TimeControl = "30/3600:10/600".parse().unwrap();
        assert_eq!(
            periods,
            TimeControl::periods(30, secs(3600), 10, secs(600)).unwrap()
        );
        let sd: TimeControl = "7200".parse().unwrap();
        assert_eq!(sd, TimeControl::sudden_death(secs(7200)).unwrap());
        assert!(!sd.is_rapid());
        assert!("900".parse::<TimeControl>().unwrap().is_rapid());
        assert!(!"901".parse::<TimeControl>().unwrap().is_rapid());
    }

    #[test]
    fn rejects_malformed_controls() {
        for bad in [
            "", "abc", "10/", "/60", "0/60", "60:30/60", "0+1", "-5", "+5", "60+", "40/60:0",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(
            "60:30/60".parse::<TimeControl>(),
            Err(TimeControlError::OpenStageNotLast(0))
        );
    }

    #[test]
    fn text_round_trips() {
        for s in [
            "3600+30",
            "30/3600:10/600",
            "40/5400+30:1800+30",
            "0.5+0.05",
            "7200",
        ] {
            assert_eq!(s.parse::<TimeControl>().unwrap().to_string(), s);
        }
    }

    #[test]
    fn increment_is_added_after_each_move() {
        let mut c = GameClock::new(
            &ClockSetting::even("60+30".parse().unwrap()),
            Duration::ZERO,
        );
        assert_eq!(c.charge(Color::Red, secs(10)), MoveTiming::InTime);
        assert_eq!(c.remaining(Color::Red), secs(80));
        assert_eq!(c.remaining(Color::Black), secs(60));
        assert_eq!(c.moves_made(Color::Red), 1);
    }

    #[test]
    fn periods_repeat_and_carry_time_over() {
        let mut c = GameClock::new(
            &ClockSetting::even("3/30:2/10".parse().unwrap()),
            Duration::ZERO,
        );
        for _ in 0..3 {
            c.charge(Color::Red, secs(5));
        }
        // 15 s left from the first period plus 10 s of the second.
        assert_eq!(c.remaining(Color::Red), secs(25));
        assert_eq!(c.side(Color::Red).moves_to_go, Some(2));
        c.charge(Color::Red, secs(5));
        assert_eq!(c.side(Color::Red).moves_to_go, Some(1));
        c.charge(Color::Red, secs(5));
        // The second period repeats.
        assert_eq!(c.remaining(Color::Red), secs(25));
        assert_eq!(c.side(Color::Red).moves_to_go, Some(2));
        assert_eq!(c.moves_made(Color::Red), 5);
    }

    #[test]
    fn flag_falls_beyond_tolerance_only() {
        let mut c = GameClock::new(
            &ClockSetting::even("10".parse().unwrap()),
            Duration::from_millis(100),
        );
        assert_eq!(
            c.charge(Color::Black, Duration::from_millis(10_050)),
            MoveTiming::InTime
        );
        assert_eq!(c.remaining(Color::Black), Duration::ZERO);
        assert!(!c.flagged(Color::Black));
        assert_eq!(
            c.charge(Color::Black, Duration::from_millis(150)),
            MoveTiming::Overstepped {
                by: Duration::from_millis(150)
            }
        );
        assert!(c.flagged(Color::Black));
    }

    #[test]
    fn mate_on_the_overstepping_move_still_wins() {
        let over = MoveTiming::Overstepped { by: secs(1) };
        assert!(loses_on_time(over, Terminal::Ongoing));
        assert!(!loses_on_time(over, Terminal::Checkmate));
        assert!(!loses_on_time(over, Terminal::Stalemate));
        assert!(!loses_on_time(MoveTiming::InTime, Terminal::Ongoing));
    }

    #[test]
    fn go_fields_for_periods_and_odds() {
        let setting = ClockSetting::odds("40/300".parse().unwrap(), "300+2".parse().unwrap());
        let mut c = GameClock::new(&setting, Duration::ZERO);
        c.charge(Color::Red, Duration::from_millis(1500));
        let go = c.go_fields(Color::Black);
        assert_eq!(
            go.ucci(UcciUnit::Millis),
            "time 300000 increment 2000 opptime 298500 oppmovestogo 39"
        );
        assert_eq!(go.uci(), "wtime 298500 btime 300000 winc 0 binc 2000");
        let go = c.go_fields(Color::Red);
        assert_eq!(
            go.ucci(UcciUnit::Seconds),
            "time 298 movestogo 39 opptime 300 oppincrement 2"
        );
        assert_eq!(
            go.uci(),
            "wtime 298500 btime 300000 winc 0 binc 2000 movestogo 39"
        );
        let sd = GameClock::new(&ClockSetting::even("60".parse().unwrap()), Duration::ZERO);
        assert_eq!(
            sd.go_fields(Color::Red).ucci(UcciUnit::Millis),
            "time 60000 increment 0 opptime 60000 oppincrement 0"
        );
        assert_eq!(sd.go_fields(Color::Red).uci(), "wtime 60000 btime 60000");
    }
}
