//! The score table (成績表): every player's games from his own side, with points
//! on the event's scale (§13), forfeits shown `+`/`−` (20.3) and byes.

use super::player::PlayerId;
use super::scoring::Scoring;
use crate::game::play::{Absence, GameId};
use chuhan_engine::core::Color;
use chuhan_engine::core::{GameResult, PlayerResult};
use serde::{Deserialize, Serialize};

/// How a game was decided, as far as scoring is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Played to a result.
    Played(GameResult),
    /// Not played: the absent side(s) lose (§20).
    Forfeit(Absence),
}

/// A scored game between two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScoredGame {
    /// Its place in the event.
    pub id: GameId,
    /// Red.
    pub red: PlayerId,
    /// Black.
    pub black: PlayerId,
    /// Its decision.
    pub decision: Decision,
}

/// How an entry in a player's line came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// A game on the board.
    Played,
    /// Won because the opponent was absent (`+`).
    ForfeitWin,
    /// Lost by absence (`−`).
    ForfeitLoss,
    /// A bye scored as a win (Swiss, 一.5).
    Bye,
}

/// One game (or bye) from a player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The round.
    pub round: u32,
    /// Board and game within the round (0 for a bye).
    pub board: u32,
    /// Game within the pairing (0 for a bye).
    pub game: u32,
    /// The opponent (none for a bye).
    pub opponent: Option<PlayerId>,
    /// The player's colour (none for a bye).
    pub colour: Option<Color>,
    /// The result from his side.
    pub result: PlayerResult,
    /// Points earned.
    pub points: u32,
    /// How it came about.
    pub kind: EntryKind,
}

/// Every player's line of results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreTable {
    scoring: Scoring,
    lines: Vec<Vec<Entry>>,
    rounds: u32,
}

impl ScoreTable {
    /// Builds the table for `players` players from games and scored byes
    /// (`(round, player)`).
    pub fn new(
        players: usize,
        scoring: Scoring,
        games: &[ScoredGame],
        byes: &[(u32, PlayerId)],
    ) -> ScoreTable {
        let mut lines: Vec<Vec<Entry>> = vec![Vec::new(); players];
        let mut rounds = 0;
        for g in games {
            rounds = rounds.max(g.id.round);
            for colour in Color::ALL {
                let (me, opp) = match colour {
                    Color::Red => (g.red, g.black),
                    Color::Black => (g.black, g.red),
                };
                let (result, kind) = match g.decision {
                    Decision::Played(r) => (r.for_side(colour), EntryKind::Played),
                    Decision::Forfeit(absence) if absence.includes(colour) => {
                        (PlayerResult::Loss, EntryKind::ForfeitLoss)
                    }
                    Decision::Forfeit(_) => (PlayerResult::Win, EntryKind::ForfeitWin),
                };
                lines[me.index()].push(Entry {
                    round: g.id.round,
                    board: g.id.board,
                    game: g.id.game,
                    opponent: Some(opp),
                    colour: Some(colour),
                    result,
                    points: scoring.points(result, colour),
                    kind,
                });
            }
        }
        for &(round, p) in byes {
            rounds = rounds.max(round);
            lines[p.index()].push(Entry {
                round,
                board: 0,
                game: 0,
                opponent: None,
                colour: None,
                result: PlayerResult::Win,
                points: scoring.win(),
                kind: EntryKind::Bye,
            });
        }
        for line in &mut lines {
            line.sort_by_key(|e| (e.round, e.board, e.game));
        }
        ScoreTable {
            scoring,
            lines,
            rounds,
        }
    }

    /// The points scale.
    pub fn scoring(&self) -> &Scoring {
        &self.scoring
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.lines.len()
    }

    /// The last round with a result.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// A player's entries in order.
    pub fn entries(&self, p: PlayerId) -> &[Entry] {
        &self.lines[p.index()]
    }

    /// A player's points.
    pub fn points(&self, p: PlayerId) -> u32 {
        self.entries(p).iter().map(|e| e.points).sum()
    }

    /// A player's points after round `round`.
    pub fn points_after(&self, p: PlayerId, round: u32) -> u32 {
        self.entries(p)
            .iter()
            .filter(|e| e.round <= round)
            .map(|e| e.points)
            .sum()
    }

    /// The entries of the games between `a` and `b`.
    pub fn between(&self, a: PlayerId, b: PlayerId) -> impl Iterator<Item = &Entry> {
        self.entries(a)
            .iter()
            .filter(move |e| e.opponent == Some(b))
    }

    /// Colours of the games `p` actually played, in order (forfeits and byes have
    /// no colour for balancing).
    pub fn played_colours(&self, p: PlayerId) -> Vec<Color> {
        self.entries(p)
            .iter()
            .filter(|e| e.kind == EntryKind::Played)
            .filter_map(|e| e.colour)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(round: u32, red: u16, black: u16, decision: Decision) -> ScoredGame {
        ScoredGame {
            id: GameId {
                round,
                board: 1,
                game: 1,
            },
            red: PlayerId(red),
            black: PlayerId(black),
            decision,
        }
    }

    #[test]
    fn forfeits_and_byes_score_per_section_twenty() {
        let games = [
            game(1, 0, 1, Decision::Played(GameResult::Draw)),
            game(2, 1, 2, Decision::Forfeit(Absence::Black)),
            game(3, 2, 0, Decision::Forfeit(Absence::Both)),
        ];
        let t = ScoreTable::new(3, Scoring::default(), &games, &[(2, PlayerId(0))]);
        assert_eq!(t.points(PlayerId(0)), 1 + 2);
        assert_eq!(t.points(PlayerId(1)), 1 + 2);
        assert_eq!(t.points(PlayerId(2)), 0);
        assert_eq!(t.entries(PlayerId(2))[0].kind, EntryKind::ForfeitLoss);
        assert_eq!(t.entries(PlayerId(1))[1].kind, EntryKind::ForfeitWin);
        assert_eq!(t.entries(PlayerId(0))[1].kind, EntryKind::Bye);
        assert_eq!(t.points_after(PlayerId(0), 1), 1);
        assert_eq!(t.played_colours(PlayerId(1)), [Color::Black]);
        assert_eq!(t.rounds(), 3);
    }

    #[test]
    fn asymmetric_draws_follow_colour() {
        let s = Scoring::asymmetric(3, 1, 2, 0).unwrap();
        let t = ScoreTable::new(
            2,
            s,
            &[game(1, 0, 1, Decision::Played(GameResult::Draw))],
            &[],
        );
        assert_eq!((t.points(PlayerId(0)), t.points(PlayerId(1))), (1, 2));
    }
}
