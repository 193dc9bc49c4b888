//! 淘汰制: single and double elimination brackets (附錄三) and the rules of a
//! knockout match.
//!
//! # Brackets
//!
//! The bracket has `2^k` positions, numbered 1 to `2^k` (附錄三: "1-16號位置…為參賽
//! 者首輪抽籤的定位依據"). Seeds take positions 1, 2, … in seeding order and the
//! others are drawn into the rest; positions beyond the field are empty, so their
//! opponents — the top seeds — have first-round byes ("如需棋手輪空時，讓種子選手首
//! 輪輪空"). Our copy of the rules lacks the drawn tables of 附錄三, so positions are
//! laid out in the standard seeded order (1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15, …
//! for 16): seeds 1 and 2 can meet only in the final, 1 to 4 only in the semi-finals.
//!
//! Double elimination: the winners' bracket (勝者組) is the single bracket; its first
//! round losers pair off in losers' round 1, and the losers of each later winners'
//! round drop into the losers' bracket (敗者組) against its survivors. Dropped players
//! enter in reversed order in odd drop rounds and with halves swapped in even ones,
//! so that nobody meets his winners'-bracket opponent again at once (the codes in
//! the winners' boxes of 附錄三's table serve that purpose; the exact codes are not
//! in our text). Rounds are scheduled so that each round's matches depend only on
//! earlier rounds: round 1 = W1; round 2 = W2 + L1; round 3 = L2; then W(j) +
//! L(2j−3) and L(2j−2) for j = 3..k; the last round is the final, winners'
//! champion against losers' champion.
//!
//! # Matches
//!
//! A match ([`MatchRule::Regular`]) is one or two games at the event's control
//! (12.4: first-game colours by lot, then alternating). If level, tie-break games at
//! the faster control (附錄三 注意 (5): 10 min + 10 s) in pairs, stopping after any
//! pair with a leader; if still level, one deciding game in which a draw counts as a
//! win for Black (和棋黑勝). Reading: the rules give tie-break details only for the
//! double-elimination final; the deciding game is the common CXA practice that makes
//! every match end, and is documented here as an addition to the text.
//!
//! The double-elimination final ([`MatchRule::DoubleFinal`], 附錄三 注意 (2)–(5)):
//! the winners'-bracket player needs one win, the losers'-bracket player two; at
//! most four games; if all four are level the winners'-bracket player is champion,
//! but a losers'-bracket player with one win and the rest draws is champion; games 1
//! and 2 at the event's control, later ones at the faster control; colours by lot
//! for game 1, then alternating. 注意 (5)'s "快棋賽中有犯規記錄者，如果弈和算該局
//! 作負" concerns §8 fouls, which engines do not commit (see [`super::tiebreak`]).

use super::config::Elimination;
use super::player::PlayerId;
use std::fmt;

/// Which part of the bracket a match belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// 勝者組 (or the only bracket of a single elimination).
    Winners,
    /// 敗者組.
    Losers,
    /// The double-elimination final.
    Final,
}

/// A match's place: round and board, both from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MatchRef {
    /// Round (schedule order).
    pub round: u32,
    /// Board within the round.
    pub board: u32,
}

/// Where a match's participant comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Bracket position (from 1).
    Position(u32),
    /// The winner of a match.
    Winner(MatchRef),
    /// The loser of a match.
    Loser(MatchRef),
}

/// One match of the bracket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchPlan {
    /// Its place.
    pub id: MatchRef,
    /// Its part of the bracket.
    pub side: Side,
    /// Its round within that part (W1, W2, …; L1, L2, …; 1 for the final).
    pub stage: u32,
    /// Where its two participants come from; the first is the "upper" one.
    pub sources: [Source; 2],
}

/// A knockout bracket.
///
/// ```
/// use chuhan_arena::tournament::config::Elimination;
/// use chuhan_arena::tournament::knockout::{Bracket, Source};
/// let b = Bracket::new(8, Elimination::Single);
/// assert_eq!(b.rounds(), 3);
/// let first: Vec<[Source; 2]> = b.round(1).iter().map(|m| m.sources).collect();
/// assert_eq!(first[0], [Source::Position(1), Source::Position(8)]);
/// assert_eq!(first[1], [Source::Position(4), Source::Position(5)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bracket {
    entrants: u32,
    size: u32,
    elimination: Elimination,
    rounds: Vec<Vec<MatchPlan>>,
}

/// The standard seeded order of `size` positions: each round doubles the list,
/// placing `size + 1 − x` next to each `x`.
pub fn seeded_order(size: u32) -> Vec<u32> {
    let mut order = vec![1];
    let mut n = 1;
    while n < size {
        n *= 2;
        order = order.iter().flat_map(|&x| [x, n + 1 - x]).collect();
    }
    order
}

impl Bracket {
    /// The bracket for `entrants` players (at least 2).
    ///
    /// # Panics
    /// If `entrants < 2` (a configuration error caught before this point).
    pub fn new(entrants: u32, elimination: Elimination) -> Bracket {
        assert!(entrants >= 2, "a knockout needs two players");
        let size = entrants.next_power_of_two();
        let k = size.trailing_zeros();
        let order = seeded_order(size);
        let mut rounds: Vec<Vec<MatchPlan>> = Vec::new();
        fn push(
            rounds: &mut Vec<Vec<MatchPlan>>,
            round: usize,
            side: Side,
            stage: u32,
            sources: [Source; 2],
        ) -> MatchRef {
            while rounds.len() < round {
                rounds.push(Vec::new());
            }
            let id = MatchRef {
                round: round as u32,
                board: rounds[round - 1].len() as u32 + 1,
            };
            rounds[round - 1].push(MatchPlan {
                id,
                side,
                stage,
                sources,
            });
            id
        }
        let w_round = |j: u32| -> usize {
            match elimination {
                Elimination::Single => j as usize,
                Elimination::Double if j == 1 => 1,
                Elimination::Double => 2 * j as usize - 2,
            }
        };
        let mut w_ids: Vec<Vec<MatchRef>> = Vec::new();
        for j in 1..=k {
            let sources: Vec<[Source; 2]> = if j == 1 {
                order
                    .chunks(2)
                    .map(|c| [Source::Position(c[0]), Source::Position(c[1])])
                    .collect()
            } else {
                w_ids[j as usize - 2]
                    .chunks(2)
                    .map(|c| [Source::Winner(c[0]), Source::Winner(c[1])])
                    .collect()
            };
            let ids = sources
                .iter()
                .map(|&s| push(&mut rounds, w_round(j), Side::Winners, j, s))
                .collect();
            w_ids.push(ids);
        }
        if elimination == Elimination::Double {
            let champion = |ids: &Vec<MatchRef>| Source::Winner(ids[0]);
            let lb_champion = if k == 1 {
                Source::Loser(w_ids[0][0])
            } else {
                // L1: first-round losers in pairs (scheduled with W2, round 2).
                let mut prev: Vec<MatchRef> = w_ids[0]
                    .chunks(2)
                    .map(|c| {
                        push(
                            &mut rounds,
                            2,
                            Side::Losers,
                            1,
                            [Source::Loser(c[0]), Source::Loser(c[1])],
                        )
                    })
                    .collect();
                for m in 1..k {
                    // L(2m): survivors against the losers of W(m+1).
                    let dropped = &w_ids[m as usize];
                    let count = prev.len();
                    let round = 2 * m as usize + 1;
                    let drop_rounds: Vec<MatchRef> = (0..count)
                        .map(|i| {
                            let from = if m % 2 == 1 {
                                count - 1 - i
                            } else {
                                (i + count / 2) % count
                            };
                            push(
                                &mut rounds,
                                round,
                                Side::Losers,
                                2 * m,
                                [Source::Winner(prev[i]), Source::Loser(dropped[from])],
                            )
                        })
                        .collect();
                    prev = drop_rounds;
                    if m + 1 < k {
                        // L(2m+1): survivors in pairs, alongside W(m+2).
                        let round = 2 * m as usize + 2;
                        prev = prev
                            .chunks(2)
                            .map(|c| {
                                push(
                                    &mut rounds,
                                    round,
                                    Side::Losers,
                                    2 * m + 1,
                                    [Source::Winner(c[0]), Source::Winner(c[1])],
                                )
                            })
                            .collect();
                    }
                }
                Source::Winner(prev[0])
            };
            let final_round = rounds.len() + 1;
            push(
                &mut rounds,
                final_round,
                Side::Final,
                1,
                [champion(&w_ids[k as usize - 1]), lb_champion],
            );
        }
        Bracket {
            entrants,
            size,
            elimination,
            rounds,
        }
    }

    /// The number of entrants.
    pub fn entrants(&self) -> u32 {
        self.entrants
    }

    /// The number of positions (a power of two).
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Single or double elimination.
    pub fn elimination(&self) -> Elimination {
        self.elimination
    }

    /// The number of rounds.
    pub fn rounds(&self) -> u32 {
        self.rounds.len() as u32
    }

    /// The matches of round `round` (from 1).
    ///
    /// # Panics
    /// If `round` is 0 or beyond [`Bracket::rounds`].
    pub fn round(&self, round: u32) -> &[MatchPlan] {
        &self.rounds[round as usize - 1]
    }

    /// The match with this reference.
    pub fn get(&self, id: MatchRef) -> Option<&MatchPlan> {
        self.rounds
            .get(id.round.checked_sub(1)? as usize)?
            .get(id.board.checked_sub(1)? as usize)
    }

    /// Resolves the bracket: walks the rounds in order, fills each match from its
    /// sources and asks `decide` for the winner of each match whose two players are
    /// known (`None` while undecided). Positions hold `positions[n − 1]`.
    pub fn resolve(
        &self,
        positions: &[Option<PlayerId>],
        mut decide: impl FnMut(&MatchPlan, [PlayerId; 2]) -> Option<PlayerId>,
    ) -> Vec<Vec<MatchView>> {
        let mut views: Vec<Vec<MatchView>> = Vec::with_capacity(self.rounds.len());
        for plans in &self.rounds {
            let mut row = Vec::with_capacity(plans.len());
            for plan in plans {
                let entrant = |s: Source| -> Entrant {
                    match s {
                        Source::Position(n) => {
                            match positions.get(n as usize - 1).copied().flatten() {
                                Some(p) => Entrant::Player(p),
                                None => Entrant::Empty,
                            }
                        }
                        Source::Winner(m) => {
                            views[m.round as usize - 1][m.board as usize - 1].winner()
                        }
                        Source::Loser(m) => {
                            views[m.round as usize - 1][m.board as usize - 1].loser()
                        }
                    }
                };
                let players = [entrant(plan.sources[0]), entrant(plan.sources[1])];
                let status = match players {
                    [Entrant::Player(a), Entrant::Player(b)] => match decide(plan, [a, b]) {
                        Some(w) if w == a => MatchStatus::Won {
                            winner: a,
                            loser: b,
                        },
                        Some(w) if w == b => MatchStatus::Won {
                            winner: b,
                            loser: a,
                        },
                        _ => MatchStatus::Pending,
                    },
                    [Entrant::Player(a), Entrant::Empty] | [Entrant::Empty, Entrant::Player(a)] => {
                        MatchStatus::Bye(a)
                    }
                    [Entrant::Empty, Entrant::Empty] => MatchStatus::Empty,
                    _ => MatchStatus::Waiting,
                };
                row.push(MatchView {
                    plan: *plan,
                    players,
                    status,
                });
            }
            views.push(row);
        }
        views
    }
}

/// Who fills a place in a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Entrant {
    /// A player.
    Player(PlayerId),
    /// Nobody will (an empty position, or the loser of a bye).
    Empty,
    /// Not known yet (an earlier match is still on).
    Unknown,
}

/// The state of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatchStatus {
    /// Decided.
    Won {
        /// Advances.
        winner: PlayerId,
        /// Is eliminated or drops to the losers' bracket.
        loser: PlayerId,
    },
    /// Only one player: he advances without playing.
    Bye(PlayerId),
    /// Both players known, not decided yet.
    Pending,
    /// A player is still unknown.
    Waiting,
    /// Nobody will play it.
    Empty,
}

/// A match with its participants and state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchView {
    /// The match.
    pub plan: MatchPlan,
    /// Its two places.
    pub players: [Entrant; 2],
    /// Its state.
    pub status: MatchStatus,
}

impl MatchView {
    fn winner(&self) -> Entrant {
        match self.status {
            MatchStatus::Won { winner, .. } | MatchStatus::Bye(winner) => Entrant::Player(winner),
            MatchStatus::Empty => Entrant::Empty,
            MatchStatus::Pending | MatchStatus::Waiting => Entrant::Unknown,
        }
    }

    fn loser(&self) -> Entrant {
        match self.status {
            MatchStatus::Won { loser, .. } => Entrant::Player(loser),
            MatchStatus::Bye(_) | MatchStatus::Empty => Entrant::Empty,
            MatchStatus::Pending | MatchStatus::Waiting => Entrant::Unknown,
        }
    }
}

/// The clock a game of a match is played at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Control {
    /// The event's control.
    Main,
    /// The faster tie-break control.
    Tiebreak,
}

/// One game of a knockout match from the first-listed player's side: a
/// [`PlayerResult`](chuhan_engine::core::PlayerResult), or both players forfeited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatchGameResult {
    /// The first player won (on the board or by forfeit).
    Win,
    /// Drawn.
    Draw,
    /// The first player lost.
    Loss,
    /// Both forfeited (20.2); counts as nobody's win.
    BothLost,
}

/// How a match is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatchRule {
    /// `games` at the main control, then up to `tiebreak_games` at the faster one,
    /// then one deciding game with a draw counting for Black.
    Regular {
        /// Games at the main control.
        games: u32,
        /// Tie-break games at the faster control.
        tiebreak_games: u32,
    },
    /// The double-elimination final; the first-listed player comes from the
    /// winners' bracket.
    DoubleFinal,
}

/// The next game of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NextGame {
    /// Its number in the match (from 1).
    pub number: u32,
    /// Whether the first-listed player has Red.
    pub first_has_red: bool,
    /// Its clock.
    pub control: Control,
    /// A draw counts as a win for Black (the deciding game of a regular match).
    pub draw_is_black_win: bool,
}

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatchProgress {
    /// Another game is needed.
    Next(NextGame),
    /// Decided: `true` if the first-listed player won.
    Decided(bool),
}

impl MatchRule {
    /// Given the games so far (`scores`, from the first player's side, and whether
    /// he had Red in game 1), says what comes next.
    ///
    /// ```
    /// use chuhan_arena::tournament::knockout::{MatchProgress, MatchRule, MatchGameResult};
    /// let final_rule = MatchRule::DoubleFinal;
    /// // The winners'-bracket player needs one win…
    /// assert_eq!(final_rule.progress(true, &[MatchGameResult::Win]), MatchProgress::Decided(true));
    /// // …the losers'-bracket player two.
    /// assert!(matches!(final_rule.progress(true, &[MatchGameResult::Loss]), MatchProgress::Next(_)));
    /// assert_eq!(final_rule.progress(true, &[MatchGameResult::Loss, MatchGameResult::Loss]), MatchProgress::Decided(false));
    /// ```
    pub fn progress(
        self,
        first_red_in_game_one: bool,
        scores: &[MatchGameResult],
    ) -> MatchProgress {
        let played = scores.len() as u32;
        let wins = scores
            .iter()
            .filter(|&&s| s == MatchGameResult::Win)
            .count() as u32;
        let losses = scores
            .iter()
            .filter(|&&s| s == MatchGameResult::Loss)
            .count() as u32;
        let next = |control: Control, draw_is_black_win: bool| {
            MatchProgress::Next(NextGame {
                number: played + 1,
                first_has_red: first_red_in_game_one == played.is_multiple_of(2),
                control,
                draw_is_black_win,
            })
        };
        match self {
            MatchRule::DoubleFinal => {
                if wins >= 1 {
                    MatchProgress::Decided(true)
                } else if losses >= 2 {
                    MatchProgress::Decided(false)
                } else if played >= 4 {
                    // 注意 (3): four games without a decision: the losers'-bracket
                    // player wins with one win (and three draws), else the winners'.
                    MatchProgress::Decided(losses == 0)
                } else {
                    next(
                        if played < 2 {
                            Control::Main
                        } else {
                            Control::Tiebreak
                        },
                        false,
                    )
                }
            }
            MatchRule::Regular {
                games,
                tiebreak_games,
            } => {
                let games = games.max(1);
                if played < games {
                    return next(Control::Main, false);
                }
                let decider = games + tiebreak_games;
                if played > decider {
                    // The deciding game: a draw (or double forfeit) goes to Black.
                    let first_red_last = first_red_in_game_one == (played - 1).is_multiple_of(2);
                    return match scores[played as usize - 1] {
                        MatchGameResult::Win => MatchProgress::Decided(true),
                        MatchGameResult::Loss => MatchProgress::Decided(false),
                        MatchGameResult::Draw | MatchGameResult::BothLost => {
                            MatchProgress::Decided(!first_red_last)
                        }
                    };
                }
                // Decided after the main games, after each tie-break pair, and after
                // the last tie-break game.
                let checkpoint =
                    played == games || (played - games).is_multiple_of(2) || played == decider;
                if checkpoint && wins != losses {
                    return MatchProgress::Decided(wins > losses);
                }
                if played < decider {
                    next(Control::Tiebreak, false)
                } else {
                    next(Control::Tiebreak, true)
                }
            }
        }
    }
}

/// A player's result in a knockout: how far he got.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placing {
    /// Best possible rank of the group he shares (from 1).
    pub first: u32,
    /// Worst rank of that group.
    pub last: u32,
}

impl fmt::Display for Placing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}-{}", self.first, self.last)
        }
    }
}

/// Final placings of a finished (or partly finished) bracket: the champion 1, the
/// final's loser 2, then players eliminated later ahead of those eliminated
/// earlier; players eliminated in the same bracket round share a placing. Players
/// still in the event have no placing yet.
pub fn placings(views: &[Vec<MatchView>], entrants: u32) -> Vec<(PlayerId, Placing)> {
    // Eliminating matches, latest first: (round, side order) → losers.
    let mut out = Vec::new();
    let mut taken = 0u32;
    let last = views.last().and_then(|r| r.last());
    let Some(final_match) = last else {
        return out;
    };
    let mut eliminated: Vec<(u32, Vec<PlayerId>)> = Vec::new();
    let double = views
        .iter()
        .flatten()
        .any(|m| m.plan.side == Side::Losers || m.plan.side == Side::Final);
    for (r, row) in views.iter().enumerate() {
        let mut losers = Vec::new();
        for m in row {
            if let MatchStatus::Won { loser, .. } = m.status {
                // In a double elimination only losers'-bracket and final losses
                // eliminate.
                if !double || m.plan.side != Side::Winners {
                    losers.push(loser);
                }
            }
        }
        if !losers.is_empty() {
            eliminated.push((r as u32, losers));
        }
    }
    if let MatchStatus::Won { winner, .. } | MatchStatus::Bye(winner) = final_match.status {
        out.push((winner, Placing { first: 1, last: 1 }));
        taken = 1;
    }
    for (_, losers) in eliminated.iter().rev() {
        let first = taken + 1;
        taken += losers.len() as u32;
        for &p in losers {
            out.push((
                p,
                Placing {
                    first,
                    last: taken.min(entrants),
                },
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn seeded_order_keeps_top_seeds_apart() {
        assert_eq!(seeded_order(2), [1, 2]);
        assert_eq!(seeded_order(4), [1, 4, 2, 3]);
        assert_eq!(seeded_order(8), [1, 8, 4, 5, 2, 7, 3, 6]);
        let o = seeded_order(32);
        // Seeds 1 and 2 in different halves, 1–4 in different quarters.
        let quarter = |s: u32| o.iter().position(|&x| x == s).unwrap() / 8;
        let mut q: Vec<usize> = (1..=4).map(quarter).collect();
        q.sort();
        assert_eq!(q, [0, 1, 2, 3]);
        assert!(o.iter().position(|&x| x == 1).unwrap() < 16);
        assert!(o.iter().position(|&x| x == 2).unwrap() >= 16);
    }

    fn run(
        bracket: &Bracket,
        n: u32,
        winner: impl Fn(PlayerId, PlayerId) -> PlayerId,
    ) -> Vec<Vec<MatchView>> {
        let positions: Vec<Option<PlayerId>> = (0..bracket.size())
            .map(|i| (i < n).then_some(PlayerId(i as u16)))
            .collect();
        bracket.resolve(&positions, |_, [a, b]| Some(winner(a, b)))
    }

    #[test]
    fn byes_go_to_the_top_seeds() {
        let b = Bracket::new(5, Elimination::Single);
        assert_eq!(b.size(), 8);
        let positions: Vec<Option<PlayerId>> =
            (0..8).map(|i| (i < 5).then_some(PlayerId(i))).collect();
        let views = b.resolve(&positions, |_, _| None);
        let byes: Vec<u32> = views[0]
            .iter()
            .filter_map(|m| match m.status {
                MatchStatus::Bye(p) => Some(p.number()),
                _ => None,
            })
            .collect();
        assert_eq!(byes, [1, 2, 3]);
    }

    #[test]
    fn single_elimination_favourite_wins() {
        for n in 2..=33 {
            let b = Bracket::new(n, Elimination::Single);
            let views = run(&b, n, |a, c| a.min(c));
            let p = placings(&views, n);
            assert_eq!(p.len(), n as usize);
            let top: HashMap<PlayerId, Placing> = p.into_iter().collect();
            assert_eq!(top[&PlayerId(0)], Placing { first: 1, last: 1 });
            if n >= 2 {
                assert_eq!(top[&PlayerId(1)], Placing { first: 2, last: 2 }, "n {n}");
            }
            if n >= 4 {
                assert_eq!(top[&PlayerId(2)].first, 3);
                assert_eq!(top[&PlayerId(3)].last, 4);
            }
        }
    }

    #[test]
    fn double_elimination_gives_everyone_two_lives() {
        for n in 2..=32 {
            let b = Bracket::new(n, Elimination::Double);
            // Upsets everywhere: the larger number wins, except in a seeded pattern.
            let views = run(&b, n, |a, c| {
                if (a.0 + c.0) % 3 == 0 {
                    a.min(c)
                } else {
                    a.max(c)
                }
            });
            let mut losses: HashMap<PlayerId, u32> = HashMap::new();
            let mut met: HashMap<(PlayerId, PlayerId), u32> = HashMap::new();
            for m in views.iter().flatten() {
                match m.status {
                    MatchStatus::Won { winner, loser } => {
                        *losses.entry(loser).or_default() += 1;
                        losses.entry(winner).or_default();
                        *met.entry((winner.min(loser), winner.max(loser)))
                            .or_default() += 1;
                    }
                    MatchStatus::Pending | MatchStatus::Waiting => panic!("n {n}: unresolved"),
                    _ => {}
                }
            }
            let final_match = views.last().unwrap().last().unwrap();
            assert_eq!(final_match.plan.side, Side::Final);
            let MatchStatus::Won {
                winner: champion, ..
            } = final_match.status
            else {
                panic!("n {n}: no final");
            };
            for p in 0..n as u16 {
                let l = losses.get(&PlayerId(p)).copied().unwrap_or(0);
                if PlayerId(p) == champion {
                    assert!(l <= 1);
                } else {
                    // Everyone else is out after two losses, or one loss in the final.
                    assert!(
                        l == 2
                            || (l == 1
                                && final_match.players.contains(&Entrant::Player(PlayerId(p)))),
                        "n {n} p {p}: {l} losses"
                    );
                }
            }
            assert_eq!(placings(&views, n).len(), n as usize);
            if n == 16 {
                // Every match gives one loss; 15 players go out, each with two losses
                // except a winners'-bracket finalist beaten in the final (the final is
                // one match whose rules give the losers'-bracket player two lives'
                // worth): 30 matches.
                assert_eq!(
                    views
                        .iter()
                        .flatten()
                        .filter(|m| matches!(m.status, MatchStatus::Won { .. }))
                        .count(),
                    30
                );
                assert!(met.values().all(|&c| c <= 2));
            }
        }
    }

    #[test]
    fn sixteen_player_double_elimination_schedule() {
        let b = Bracket::new(16, Elimination::Double);
        let shape: Vec<Vec<(Side, u32)>> = (1..=b.rounds())
            .map(|r| b.round(r).iter().map(|m| (m.side, m.stage)).collect())
            .collect();
        let count = |r: usize, side: Side, stage: u32| {
            shape[r].iter().filter(|&&x| x == (side, stage)).count()
        };
        assert_eq!(b.rounds(), 8);
        assert_eq!(count(0, Side::Winners, 1), 8);
        assert_eq!(
            (count(1, Side::Winners, 2), count(1, Side::Losers, 1)),
            (4, 4)
        );
        assert_eq!(count(2, Side::Losers, 2), 4);
        assert_eq!(
            (count(3, Side::Winners, 3), count(3, Side::Losers, 3)),
            (2, 2)
        );
        assert_eq!(count(4, Side::Losers, 4), 2);
        assert_eq!(
            (count(5, Side::Winners, 4), count(5, Side::Losers, 5)),
            (1, 1)
        );
        assert_eq!(count(6, Side::Losers, 6), 1);
        assert_eq!(count(7, Side::Final, 1), 1);
        // Losers of W2 drop in reversed order.
        let l2 = b.round(3);
        let w2 = &b.round(2)[..4];
        assert_eq!(l2[0].sources[1], Source::Loser(w2[3].id));
        assert_eq!(l2[3].sources[1], Source::Loser(w2[0].id));
    }

    #[test]
    fn double_final_rules_of_appendix_three() {
        let f = MatchRule::DoubleFinal;
        use MatchGameResult::*;
        // Loser's-bracket player wins game 1: one more game needed, colours swap.
        let MatchProgress::Next(g) = f.progress(true, &[Loss]) else {
            panic!()
        };
        assert_eq!(
            (g.number, g.first_has_red, g.control),
            (2, false, Control::Main)
        );
        assert_eq!(f.progress(true, &[Loss, Win]), MatchProgress::Decided(true));
        let MatchProgress::Next(g) = f.progress(true, &[Draw, Draw]) else {
            panic!()
        };
        assert_eq!((g.number, g.control), (3, Control::Tiebreak));
        // Four games: all drawn → winners' bracket; 1 win 3 draws for the losers'
        // bracket player → him.
        assert_eq!(
            f.progress(true, &[Draw, Draw, Draw, Draw]),
            MatchProgress::Decided(true)
        );
        assert_eq!(
            f.progress(false, &[Draw, Loss, Draw, Draw]),
            MatchProgress::Decided(false)
        );
        assert_eq!(
            f.progress(false, &[Loss, Draw, Draw, Draw]),
            MatchProgress::Decided(false)
        );
    }

    #[test]
    fn regular_matches_go_to_tiebreaks_then_a_decider() {
        use MatchGameResult::*;
        let one = MatchRule::Regular {
            games: 1,
            tiebreak_games: 2,
        };
        assert_eq!(one.progress(true, &[Win]), MatchProgress::Decided(true));
        let MatchProgress::Next(g) = one.progress(true, &[Draw]) else {
            panic!()
        };
        assert_eq!(
            (g.number, g.first_has_red, g.control, g.draw_is_black_win),
            (2, false, Control::Tiebreak, false)
        );
        // A tie-break pair is played out before deciding.
        assert!(matches!(
            one.progress(true, &[Draw, Win]),
            MatchProgress::Next(_)
        ));
        assert_eq!(
            one.progress(true, &[Draw, Win, Draw]),
            MatchProgress::Decided(true)
        );
        let MatchProgress::Next(g) = one.progress(true, &[Draw, Win, Loss]) else {
            panic!()
        };
        assert!(g.draw_is_black_win);
        assert_eq!(g.number, 4);
        // Game 4: the first player has Black (games alternate from Red in game 1), so
        // a draw sends him through.
        assert!(!g.first_has_red);
        assert_eq!(
            one.progress(true, &[Draw, Win, Loss, Draw]),
            MatchProgress::Decided(true)
        );
        assert_eq!(
            one.progress(true, &[Draw, Win, Loss, BothLost]),
            MatchProgress::Decided(true)
        );
        assert_eq!(
            one.progress(true, &[Draw, Win, Loss, Loss]),
            MatchProgress::Decided(false)
        );
        let two = MatchRule::Regular {
            games: 2,
            tiebreak_games: 0,
        };
        assert!(matches!(
            two.progress(false, &[Win]),
            MatchProgress::Next(_)
        ));
        assert_eq!(
            two.progress(false, &[Win, Draw]),
            MatchProgress::Decided(true)
        );
        let MatchProgress::Next(g) = two.progress(false, &[Win, Loss]) else {
            panic!()
        };
        assert!(g.draw_is_black_win && !g.first_has_red);
    }
}
