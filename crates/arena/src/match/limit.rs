//! [`Limit`]: how long the engines think — on a clock (any §6 control, time odds
//! included), a fixed time per move, a fixed depth or a fixed node count.

use super::dialect::GoLimit;
use crate::game::clock::{ClockSetting, GameClock, MoveTiming, TimeControl};
use chuhan_engine::core::Color;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// The search limit of every move of a game. In JSON (match plans): `{"tc":
/// "10+0.1"}`, `{"movetime_ms": 100}`, `{"depth": 3}` or `{"nodes": 10000}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "LimitJson", from = "LimitJson")]
pub enum Limit {
    /// Chess clocks: `--tc 60+0.6`, `--tc 40/300:20/60`, …
    Clock(ClockSetting),
    /// A fixed time per move: `--movetime MS`.
    MoveTime(Duration),
    /// A fixed depth: `--depth D`.
    Depth(u32),
    /// A fixed node count: `--nodes N`.
    Nodes(u64),
}

/// [`Limit`] as JSON writes it.
#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum LimitJson {
    Tc(ClockSetting),
    MovetimeMs(u64),
    Depth(u32),
    Nodes(u64),
}

impl From<Limit> for LimitJson {
    fn from(l: Limit) -> LimitJson {
        match l {
            Limit::Clock(c) => LimitJson::Tc(c),
            Limit::MoveTime(t) => LimitJson::MovetimeMs(t.as_millis() as u64),
            Limit::Depth(d) => LimitJson::Depth(d),
            Limit::Nodes(n) => LimitJson::Nodes(n),
        }
    }
}

impl From<LimitJson> for Limit {
    fn from(l: LimitJson) -> Limit {
        match l {
            LimitJson::Tc(c) => Limit::Clock(c),
            LimitJson::MovetimeMs(ms) => Limit::MoveTime(Duration::from_millis(ms)),
            LimitJson::Depth(d) => Limit::Depth(d),
            LimitJson::Nodes(n) => Limit::Nodes(n),
        }
    }
}

impl Limit {
    /// A clock with the same control for both sides.
    pub fn clock(tc: TimeControl) -> Limit {
        Limit::Clock(ClockSetting::even(tc))
    }

    /// Whether a late answer is a time forfeit (clocks and fixed time) rather than
    /// a hung engine (depth and nodes, where only the hang guard applies).
    pub fn is_timed(&self) -> bool {
        matches!(self, Limit::Clock(_) | Limit::MoveTime(_))
    }
}

impl fmt::Display for Limit {
    /// The PGN `TimeControl` value: the control text, `movetime=MS`, `depth=D`,
    /// `nodes=N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Clock(c) if c.has_odds() => write!(f, "{}|{}", c.red, c.black),
            Limit::Clock(c) => write!(f, "{}", c.red),
            Limit::MoveTime(t) => write!(f, "movetime={}", t.as_millis()),
            Limit::Depth(d) => write!(f, "depth={d}"),
            Limit::Nodes(n) => write!(f, "nodes={n}"),
        }
    }
}

/// The limit's state during one game: the clocks, if any.
#[derive(Clone, Debug)]
pub struct GameLimit {
    limit: Limit,
    clock: Option<GameClock>,
    tolerance: Duration,
    hang_timeout: Duration,
}

impl GameLimit {
    /// The state at the start of a game. `tolerance` is forgiven beyond the clock or
    /// the move time; `hang_timeout` bounds an untimed search.
    pub fn new(limit: &Limit, tolerance: Duration, hang_timeout: Duration) -> GameLimit {
        let clock = match limit {
            Limit::Clock(setting) => Some(GameClock::new(setting, tolerance)),
            _ => None,
        };
        GameLimit {
            limit: limit.clone(),
            clock,
            tolerance,
            hang_timeout,
        }
    }

    /// The `go` limit for the side to move.
    pub fn go(&self, side: Color) -> GoLimit {
        match (&self.limit, &self.clock) {
            (Limit::Clock(_), Some(c)) => GoLimit::Clock(c.go_fields(side)),
            (Limit::MoveTime(t), _) => GoLimit::MoveTime(*t),
            (Limit::Depth(d), _) => GoLimit::Depth(*d),
            (Limit::Nodes(n), _) => GoLimit::Nodes(*n),
            (Limit::Clock(_), None) => unreachable!("a clock limit always has a clock"),
        }
    }

    /// How long to wait for the side to move: its time plus the tolerance, the move
    /// time plus the tolerance, or the hang guard.
    pub fn deadline(&self, side: Color) -> Duration {
        match (&self.limit, &self.clock) {
            (_, Some(c)) => c.remaining(side) + self.tolerance,
            (Limit::MoveTime(t), _) => *t + self.tolerance,
            _ => self.hang_timeout,
        }
    }

    /// Charges a move that took `elapsed` to `side`: on a clock as the clock says;
    /// with a fixed move time, a move slower than the time plus the tolerance
    /// oversteps; depth and node limits have no time to overstep.
    pub fn charge(&mut self, side: Color, elapsed: Duration) -> MoveTiming {
        match (&self.limit, &mut self.clock) {
            (_, Some(c)) => c.charge(side, elapsed),
            (Limit::MoveTime(t), _) if elapsed > *t + self.tolerance => {
                MoveTiming::Overstepped { by: elapsed - *t }
            }
            _ => MoveTiming::InTime,
        }
    }

    /// Time left on `side`'s clock, if there is a clock.
    pub fn remaining(&self, side: Color) -> Option<Duration> {
        self.clock.as_ref().map(|c| c.remaining(side))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn deadlines_follow_the_limit() {
        let tol = ms(50);
        let hang = ms(9000);
        let g = GameLimit::new(&Limit::clock("2+0.1".parse().unwrap()), tol, hang);
        assert_eq!(g.deadline(Color::Red), ms(2050));
        let g = GameLimit::new(&Limit::MoveTime(ms(300)), tol, hang);
        assert_eq!(g.deadline(Color::Black), ms(350));
        assert_eq!(g.go(Color::Red), GoLimit::MoveTime(ms(300)));
        let g = GameLimit::new(&Limit::Depth(3), tol, hang);
        assert_eq!(g.deadline(Color::Red), hang);
        assert!(!Limit::Nodes(5).is_timed() && Limit::MoveTime(ms(1)).is_timed());
    }

    #[test]
    fn move_time_overstep_counts_beyond_the_tolerance() {
        let mut g = GameLimit::new(&Limit::MoveTime(ms(100)), ms(20), ms(1000));
        assert_eq!(g.charge(Color::Red, ms(120)), MoveTiming::InTime);
        assert_eq!(
            g.charge(Color::Red, ms(121)),
            MoveTiming::Overstepped { by: ms(21) }
        );
        let mut d = GameLimit::new(&Limit::Nodes(10), ms(0), ms(1000));
        assert_eq!(d.charge(Color::Black, ms(5000)), MoveTiming::InTime);
    }

    #[test]
    fn clock_is_charged_and_shown() {
        let mut g = GameLimit::new(&Limit::clock("1+1".parse().unwrap()), ms(0), ms(1));
        assert_eq!(g.charge(Color::Red, ms(400)), MoveTiming::InTime);
        assert_eq!(g.remaining(Color::Red), Some(ms(1600)));
        assert_eq!(g.deadline(Color::Red), ms(1600));
        assert_eq!(Limit::clock("1+1".parse().unwrap()).to_string(), "1+1");
        assert_eq!(Limit::Depth(7).to_string(), "depth=7");
    }
}
