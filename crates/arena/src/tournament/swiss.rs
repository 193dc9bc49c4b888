//! 積分編排制 paired by the 定位編排法 of 附錄二.
//!
//! # The procedure as implemented
//!
//! **Round 1** (附錄二 二.1) pairs by starting number: 近號配對 1-2, 4-3, 5-6, 8-7, …
//! (odd boards: the smaller number has Red; even boards: the larger), or the
//! alternatives the text names, 首尾配對 and 對半交叉配對, with the same colour rule.
//!
//! **Later rounds.** Players are split into score groups (積分段), paired from the
//! top down (一.4). Each player's colour record gives a *want*:
//! 少先 (fewer Reds than Blacks) wants Red, 多先 wants Black; with equal counts
//! (平先) the last colour decides — 平先連後/平先上後 want Red, 平先連先/平先上先 want
//! Black. A group is laid out in two rows (二.2), want-Red and want-Black, each
//! ordered by imbalance (larger first), then by the length of the current colour run
//! (longer first), then by number (small first in odd rounds, large first in even
//! rounds: "單輪次小號在前、雙輪次大號在前"). Players moved down from a higher group
//! (下調) head the order (二.2(1)).
//!
//! The player who pairs first (先編者) is the head of that order (二.2(1)–(5)). He
//! takes his partner from the other row (異行): the one at the same place (同位),
//! else the next ones in turn (錯位); failing that someone from his own row in order
//! (通行); failing that he moves down to the next group (下調). Then the next
//! 先編者 is chosen among those left, and so on. This order realises the three
//! priorities of 二.3 (少先 with 多先, 連先 with 連後, 上先 with 上後).
//!
//! **Pair-breaking (拆對, 二.5).** The text breaks the last pairs and re-pairs when a
//! group cannot be fully paired, when a lower group is blocked, or when the colours
//! are not the best balance achievable, and merges with the group above when the
//! bottom cannot be paired. Here that is a depth-first search over the whole round,
//! group after group, making the same choices in the same order; it keeps the first
//! arrangement (in that order) of least cost, the cost being compared in this
//! order, which holds only what 二.5 breaks pairs for ("排不通或雖已排通但不是最佳
//! 平衡先後走"):
//! 1. players moved down out of each score group, the top group first (最充分配對,
//!    一.10; a higher group's full pairing is never given up for anything below it,
//!    二.5(1) "儘量不要影響上一個積分段充分配對");
//! 2. players left with three more of one colour or three in a row (一.11(3));
//! 3. players left two colours out of balance (多二先/多二後, 二.3);
//! 4. players left with two in a row (連先/連後, 二.3; 一.10 "變換上一輪的先後走").
//!
//! Among arrangements of equal cost the order of the procedure decides, and with it
//! who moves down: the player the priority order leaves over (二.3(5) "本積分段僅剩
//! 一人…則下調", 二.5(2) "排不通的下調"). Players moved down from above pair first
//! in the group below (二.2(1)); one of them passes on further only when pairing
//! him would leave that group less fully paired or its colours worse (二.5).
//!
//! Reading (一.9 against 二): 一.9 asks that moves down and up (下調、上調) be
//! balanced, at most two per player, but 二, the method that realises 編排原則 一,
//! never consults them: the priority order of 二.2 chooses who pairs first, 二.3
//! whom he takes and who is left to move down, and 二.5 breaks pairs only for a
//! group not fully paired or colours not at their best. Counting earlier moves
//! (issue 26: cumulative counts sent a co-leader down to the bottom group in a last
//! round) would choose differently from the text's procedure, so the counts are
//! not kept: 一.9 is what the procedure is expected to yield, not a criterion of
//! its own.
//!
//! Because full pairing of a group comes before colours (一.10, 一.11(2)), results
//! tied to colour (Red always winning) can force runs of three or more; the tests
//! measure that with results independent of colour the imbalance and runs stay
//! within three. In the last round the colour terms are left out: "最後一輪中出現
//! 連三先、連三後或相差三先的配對，均不拆開重排" (4.(10)).
//!
//! Before each tentative pair a maximum-matching oracle ([`super::matching`]) checks
//! that everyone still unpaired, in every lower group too, can be paired with someone
//! not yet met; so no choice leads the bottom of the table into a dead end, and the
//! whole field is paired whenever that is possible at all. The search is bounded
//! ([`SWISS_SEARCH_BUDGET`] steps per round; on small fields it is exhaustive, which the
//! tests check against brute force) and deterministic.
//!
//! **Colours** (二.4): when the two want different colours each gets his want
//! (4.(1), (2), (7)). When they want the same colour, it goes to the greater need:
//! the larger imbalance, then the longer run of the other colour — 4.(3) the longer
//! 連後 has Red, (4) the shorter 連先 has Red, (5) 連後 beats 上後 to Red, (6) 上先
//! beats 連先 to Red. Reading: 4.(3)–(7) compare two 平先 players (the second named
//! player's 平先 is taken as implied). All equal (4.(8)): the sum of the two numbers
//! odd, the smaller number has Red; even, the larger. From the third-last round on,
//! when scores differ and the higher scorer is 少先 or 多先, he gets his want (4.(9)
//! "低分服從高分，優先平衡高分者的先後走": reading, it is the higher scorer's colour
//! *count* that is balanced first; a 平先 higher scorer has nothing to balance and
//! the ordinary rules apply).
//!
//! Reading (4.(9) against 一.11(3)): 4.(9) has no exception, so the higher scorer
//! gets his want even when that gives the lower scorer three more of one colour
//! or three in a row. The 檢驗指標 一.11(3) ("應儘可能避免") is a property of the
//! arrangement, so it is served by the choice of pairs, not by overriding 4.(9):
//! before the last round such a board counts in cost 2 above, and the search
//! takes another arrangement when one of no greater cost exists. In the last round
//! 4.(10) keeps the board as it is ("均不拆開重排"). Reading: 4.(10) names three
//! (連三先、連三後、相差三先) as the most the text ever keeps, and no clause
//! accepts a fourth, so 4.(9) stops short of leaving the lower scorer four of a
//! colour more or four in a row; then the ordinary rules decide. (The tests
//! measure that with results independent of colour nobody goes beyond three.)
//!
//! **Byes** (一.5 "輪空的人（隊）應是最低分段"): with an odd field the bye goes to
//! the lowest score group that has a player whose absence leaves the rest pairable
//! without a rematch; within that group to the one with the fewest byes, then to
//! the player paired last (the largest number, as in round 1). A bye scores as a
//! win. Reading: 一.5 names the group and does not forbid a second bye, so the
//! score comes before the bye count: a player of the lowest group who has had a
//! bye takes a second one rather than it going to a higher group (issue 26).
//!
//! **No rematches** (一.6) is absolute; forfeited games count as met.

use super::config::FirstRound;
use super::matching::Matcher;
use super::params::SWISS_SEARCH_BUDGET;
use super::player::PlayerId;
use chuhan_engine::core::Color;
use std::collections::HashMap;
use std::fmt;

/// A player as the pairing sees him before a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissPlayer {
    /// The player (his starting number is the 序號).
    pub id: PlayerId,
    /// Points so far (byes and forfeits included).
    pub score: u32,
    /// Colours of the games actually played, in order.
    pub colours: Vec<Color>,
    /// Everyone met so far, played or forfeited.
    pub opponents: Vec<PlayerId>,
    /// Byes he has had.
    pub byes: u32,
}

/// Which colour a player should get next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Want {
    /// 要先: 少先, or 平先 after Black.
    Red,
    /// 要後: 多先, or 平先 after Red.
    Black,
    /// No colour history yet.
    Either,
}

impl SwissPlayer {
    /// A player with no games yet.
    pub fn new(id: PlayerId) -> SwissPlayer {
        SwissPlayer {
            id,
            score: 0,
            colours: Vec::new(),
            opponents: Vec::new(),
            byes: 0,
        }
    }

    /// Reds minus Blacks.
    pub fn balance(&self) -> i32 {
        self.colours
            .iter()
            .map(|&c| if c == Color::Red { 1 } else { -1 })
            .sum()
    }

    /// The current run: its colour and length (`None, 0` before any game).
    pub fn run(&self) -> (Option<Color>, u32) {
        let Some(&last) = self.colours.last() else {
            return (None, 0);
        };
        let len = self
            .colours
            .iter()
            .rev()
            .take_while(|&&c| c == last)
            .count();
        (Some(last), len as u32)
    }

    /// His colour want (二.2).
    pub fn want(&self) -> Want {
        match self.balance() {
            b if b < 0 => Want::Red,
            b if b > 0 => Want::Black,
            _ => match self.run().0 {
                Some(Color::Black) => Want::Red,
                Some(Color::Red) => Want::Black,
                None => Want::Either,
            },
        }
    }

    /// The need for Red: fewer Reds first, then a longer run of Black (a run of Red
    /// counts negatively). Larger means a stronger claim to Red.
    fn red_need(&self) -> (i32, i32) {
        let run = match self.run() {
            (Some(Color::Black), n) => n as i32,
            (Some(Color::Red), n) => -(n as i32),
            (None, _) => 0,
        };
        (-self.balance(), run)
    }
}

/// One board: who has Red and who has Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pair {
    /// Plays Red (moves first).
    pub red: PlayerId,
    /// Plays Black.
    pub black: PlayerId,
}

/// The pairing of a round: boards in order, and the bye.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SwissRound {
    /// Boards from the top.
    pub pairs: Vec<Pair>,
    /// The player with the bye (odd fields).
    pub bye: Option<PlayerId>,
}

/// Why a round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// A player appears twice in the input.
    DuplicatePlayer(PlayerId),
    /// No pairing without a rematch exists.
    Unpairable {
        /// The round.
        round: u32,
    },
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingError::DuplicatePlayer(p) => write!(f, "player {p} listed twice"),
            PairingError::Unpairable { round } => write!(
                f,
                "round {round} cannot be paired without a rematch (一.6 已相遇過的對手不再編對)"
            ),
        }
    }
}

impl std::error::Error for PairingError {}

/// Pairs round 1 (附錄二 二.1) for players numbered by their ids. With an odd field
/// the bye goes to the largest number (the whole field is one score group, and the
/// largest number is the one paired last).
///
/// ```
/// use chuhan_arena::tournament::config::FirstRound;
/// use chuhan_arena::tournament::player::PlayerId;
/// use chuhan_arena::tournament::swiss::first_round;
/// let ids: Vec<PlayerId> = (0..8).map(PlayerId).collect();
/// let r = first_round(&ids, FirstRound::Adjacent);
/// let boards: Vec<(u32, u32)> = r.pairs.iter().map(|p| (p.red.number(), p.black.number())).collect();
/// assert_eq!(boards, [(1, 2), (4, 3), (5, 6), (8, 7)]);
/// ```
pub fn first_round(players: &[PlayerId], method: FirstRound) -> SwissRound {
    let mut list: Vec<PlayerId> = players.to_vec();
    list.sort();
    let bye = if list.len() % 2 == 1 {
        list.pop()
    } else {
        None
    };
    let m = list.len() / 2;
    let pairs = (0..m)
        .map(|k| {
            let (a, b) = match method {
                FirstRound::Adjacent => (list[2 * k], list[2 * k + 1]),
                FirstRound::FirstLast => (list[k], list[2 * m - 1 - k]),
                FirstRound::HalfCross => (list[k], list[m + k]),
            };
            // Board k + 1: odd boards the smaller number has Red, even boards the larger.
            let (small, large) = if a < b { (a, b) } else { (b, a) };
            if k % 2 == 0 {
                Pair {
                    red: small,
                    black: large,
                }
            } else {
                Pair {
                    red: large,
                    black: small,
                }
            }
        })
        .collect();
    SwissRound { pairs, bye }
}

/// The colour costs of an arrangement (the 拆對 of 二.5 for "不是最佳平衡先後走"),
/// compared in this order after the players moved down out of each group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Cost {
    severe: u32,
    imbalance_two: u32,
    run_two: u32,
}

impl std::ops::Add for Cost {
    type Output = Cost;
    fn add(self, o: Cost) -> Cost {
        Cost {
            severe: self.severe + o.severe,
            imbalance_two: self.imbalance_two + o.imbalance_two,
            run_two: self.run_two + o.run_two,
        }
    }
}

/// The full cost of an arrangement of the round: players moved down out of each
/// score group, top group first (a higher group's full pairing comes before
/// anything below it: "儘量不要影響上一個積分段充分配對"), then [`Cost`] over the
/// whole round.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct ArrangementCost {
    floaters: Vec<u32>,
    rest: Cost,
}

struct Round<'a> {
    players: &'a [SwissPlayer],
    round: u32,
    rounds: u32,
    met: Vec<Vec<bool>>,
}

impl Round<'_> {
    /// Orders by 附錄二 二.2: larger imbalance, longer run, then number (small
    /// first in odd rounds, large first in even rounds).
    fn priority(&self, a: usize, b: usize) -> std::cmp::Ordering {
        let (pa, pb) = (&self.players[a], &self.players[b]);
        pb.balance()
            .abs()
            .cmp(&pa.balance().abs())
            .then(pb.run().1.cmp(&pa.run().1))
            .then(if self.round % 2 == 1 {
                pa.id.cmp(&pb.id)
            } else {
                pb.id.cmp(&pa.id)
            })
    }

    /// 二.4: who has Red between `a` and `b`.
    fn colours(&self, a: usize, b: usize) -> (usize, usize) {
        let (pa, pb) = (&self.players[a], &self.players[b]);
        // 4.(9) "由倒數第三輪起，凡是積分不等的運動員（隊）相遇，按“低分服從高分”的
        // 原則，優先平衡高分者的先後走": from the third-last round, when scores
        // differ, a higher scorer who is 少先 or 多先 gets his want, even when the
        // lower scorer is left with three of a colour more or in a row (4.(9) has
        // no exception for that; 一.11(3) is met by the choice of pairs and 4.(10)
        // keeps such boards in the last round). Reading: not to a fourth, which no
        // clause accepts (see the module docs).
        if self.round + 2 >= self.rounds && pa.score != pb.score {
            let (high, low) = if pa.score > pb.score { (a, b) } else { (b, a) };
            let balance = self.players[high].balance();
            let (red, black) = if balance < 0 {
                (high, low)
            } else {
                (low, high)
            };
            let low_colour = if red == low { Color::Red } else { Color::Black };
            if balance != 0 && !self.beyond_three(low, low_colour) {
                return (red, black);
            }
        }
        match (pa.want(), pb.want()) {
            (Want::Red, Want::Black) | (Want::Red, Want::Either) | (Want::Either, Want::Black) => {
                (a, b)
            }
            (Want::Black, Want::Red) | (Want::Black, Want::Either) | (Want::Either, Want::Red) => {
                (b, a)
            }
            _ => match pa.red_need().cmp(&pb.red_need()) {
                std::cmp::Ordering::Greater => (a, b),
                std::cmp::Ordering::Less => (b, a),
                std::cmp::Ordering::Equal => {
                    // 4.(8): odd sum of numbers, the smaller has Red; even, the larger.
                    let odd = (pa.id.number() + pb.id.number()) % 2 == 1;
                    let a_smaller = pa.id < pb.id;
                    if odd == a_smaller { (a, b) } else { (b, a) }
                }
            },
        }
    }

    /// `p`'s colour imbalance and run after a game with `colour`.
    fn after(&self, p: usize, colour: Color) -> (i32, u32) {
        let player = &self.players[p];
        let balance = player.balance() + if colour == Color::Red { 1 } else { -1 };
        let run = match player.run() {
            (Some(c), n) if c == colour => n + 1,
            _ => 1,
        };
        (balance, run)
    }

    /// Whether `colour` would leave `p` four of a colour more or four in a row,
    /// beyond the threes that 4.(10) keeps in the last round.
    fn beyond_three(&self, p: usize, colour: Color) -> bool {
        let (balance, run) = self.after(p, colour);
        balance.abs() > 3 || run > 3
    }

    fn colour_cost(&self, p: usize, colour: Color) -> Cost {
        let (balance, run) = self.after(p, colour);
        let mut cost = Cost::default();
        if balance.abs() >= 3 || run >= 3 {
            cost.severe = 1;
        } else {
            cost.imbalance_two = u32::from(balance.abs() == 2);
            cost.run_two = u32::from(run == 2);
        }
        cost
    }

    /// The colour cost of a board; nothing in the last round, where 4.(10) does
    /// not re-pair for colours.
    fn pair_cost(&self, red: usize, black: usize) -> Cost {
        if self.round < self.rounds {
            self.colour_cost(red, Color::Red) + self.colour_cost(black, Color::Black)
        } else {
            Cost::default()
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Pair(usize, usize),
    Float(usize),
}

/// One score group as laid out when the search enters it.
struct Group {
    /// Members in priority order (players moved down from above first).
    order: Vec<usize>,
    /// Candidates of each member (by position in `order`): the other row, then his own.
    candidates: Vec<Vec<usize>>,
}

/// The search over the whole round, group after group (see the module docs).
struct RoundSearch<'r, 'a> {
    round: &'r Round<'a>,
    /// Score groups, top first: residents of each.
    groups: Vec<Vec<usize>>,
    steps: u64,
    best: Option<(ArrangementCost, Vec<Step>)>,
}

impl RoundSearch<'_, '_> {
    /// Lays out group `gi` with the players moved down into it (二.2).
    fn layout(&self, gi: usize, above: &[usize]) -> Group {
        let round = self.round;
        let mut residents = self.groups[gi].clone();
        residents.sort_by(|&a, &b| round.priority(a, b));
        let mut above = above.to_vec();
        above.sort_by(|&a, &b| round.priority(a, b));
        let order: Vec<usize> = above.iter().chain(residents.iter()).copied().collect();
        // The two rows; players without colours fill the shorter row.
        let mut row_red = vec![false; order.len()];
        let (mut reds, mut blacks) = (0, 0);
        for (k, &p) in order.iter().enumerate() {
            match round.players[p].want() {
                Want::Red => {
                    row_red[k] = true;
                    reds += 1;
                }
                Want::Black => blacks += 1,
                Want::Either => {}
            }
        }
        for (k, &p) in order.iter().enumerate() {
            if round.players[p].want() == Want::Either {
                row_red[k] = reds <= blacks;
                if row_red[k] {
                    reds += 1;
                } else {
                    blacks += 1;
                }
            }
        }
        let candidates = (0..order.len())
            .map(|k| {
                let other = (0..order.len()).filter(|&j| j != k && row_red[j] != row_red[k]);
                let same = (0..order.len()).filter(|&j| j != k && row_red[j] == row_red[k]);
                other.chain(same).collect()
            })
            .collect();
        Group { order, candidates }
    }

    fn out_of_budget(&self) -> bool {
        self.best.is_some() && self.steps > SWISS_SEARCH_BUDGET
    }

    fn worse_than_best(&self, score: &ArrangementCost) -> bool {
        self.best.as_ref().is_some_and(|(b, _)| score >= b)
    }

    /// Enters group `gi` with `above` moved down into it.
    fn enter(
        &mut self,
        gi: usize,
        above: &[usize],
        matcher: &Matcher<'_>,
        acc: ArrangementCost,
        path: &mut Vec<Step>,
    ) {
        if gi == self.groups.len() {
            if above.is_empty() && !self.worse_than_best(&acc) {
                self.best = Some((acc, path.clone()));
            }
            return;
        }
        let group = self.layout(gi, above);
        let mut left = vec![true; group.order.len()];
        let mut down = Vec::new();
        self.step(gi, &group, &mut left, &mut down, matcher, acc, path);
    }

    /// Decides the next player of group `gi`: pairs him (同位, 錯位, 通行) or moves
    /// him down (下調).
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        gi: usize,
        group: &Group,
        left: &mut [bool],
        down: &mut Vec<usize>,
        matcher: &Matcher<'_>,
        acc: ArrangementCost,
        path: &mut Vec<Step>,
    ) {
        self.steps += 1;
        if self.out_of_budget() {
            return;
        }
        let may_float = gi + 1 < self.groups.len();
        let Some(head) = left.iter().position(|&l| l) else {
            let below = down.clone();
            self.enter(gi + 1, &below, matcher, acc, path);
            return;
        };
        // Lower bound of any completion: an odd remainder moves one player down, and
        // with no more moved down than that, the surplus of one row over the other
        // (players without colours absorbing it) must be paired within its row,
        // disappointing one player per such pair (at least a 連先/連後).
        let (mut reds, mut blacks, mut either) = (0i32, 0i32, 0i32);
        for (k, &l) in left.iter().enumerate() {
            if l {
                match self.round.players[group.order[k]].want() {
                    Want::Red => reds += 1,
                    Want::Black => blacks += 1,
                    Want::Either => either += 1,
                }
            }
        }
        let parity = u32::from(may_float && (reds + blacks + either) % 2 == 1);
        let mut bound = acc.clone();
        bound.floaters[gi] += parity;
        if self.round.round < self.round.rounds {
            let surplus = ((reds - blacks).abs() - either - parity as i32).max(0);
            bound.rest.run_two += (surplus / 2) as u32;
        }
        if self.worse_than_best(&bound) {
            return;
        }
        let p = group.order[head];
        left[head] = false;
        for &slot in &group.candidates[head] {
            let q = group.order[slot];
            if !left[slot] || self.round.met[p][q] {
                continue;
            }
            let (red, black) = self.round.colours(p, q);
            let mut score = acc.clone();
            score.rest = score.rest + self.round.pair_cost(red, black);
            if self.worse_than_best(&score) {
                continue;
            }
            let mut next = matcher.clone();
            next.remove_pair(p, q);
            if !next.is_perfect() {
                continue;
            }
            left[slot] = false;
            path.push(Step::Pair(red, black));
            self.step(gi, group, left, down, &next, score, path);
            path.pop();
            left[slot] = true;
            if self.out_of_budget() {
                break;
            }
        }
        if may_float && !self.out_of_budget() {
            let mut score = acc;
            score.floaters[gi] += 1;
            down.push(p);
            path.push(Step::Float(p));
            self.step(gi, group, left, down, matcher, score, path);
            path.pop();
            down.pop();
        }
        left[head] = true;
    }
}

/// Pairs round `round` of `rounds` by the 定位編排法 (rounds after the first; see the
/// module documentation). `players` are those still in the event.
pub fn pair_round(
    players: &[SwissPlayer],
    round: u32,
    rounds: u32,
) -> Result<SwissRound, PairingError> {
    let mut index = HashMap::new();
    for (i, p) in players.iter().enumerate() {
        if index.insert(p.id, i).is_some() {
            return Err(PairingError::DuplicatePlayer(p.id));
        }
    }
    let n = players.len();
    let mut met = vec![vec![false; n]; n];
    for (i, p) in players.iter().enumerate() {
        for o in &p.opponents {
            if let Some(&j) = index.get(o) {
                met[i][j] = true;
                met[j][i] = true;
            }
        }
    }
    let adj: Vec<Vec<usize>> = (0..n)
        .map(|i| (0..n).filter(|&j| j != i && !met[i][j]).collect())
        .collect();
    let ctx = Round {
        players,
        round,
        rounds,
        met,
    };
    let mut matcher = Matcher::new(&adj);

    // The bye, 一.5 "輪空的人（隊）應是最低分段": the lowest score group with
    // someone whose absence leaves the rest pairable (一.6); within it the fewest
    // byes so far, then the player paired last (the largest number). The score
    // comes first: a second bye in the lowest group goes before a first bye
    // higher up (一.5 does not forbid a second bye; see the module docs).
    let mut bye = None;
    if n % 2 == 1 {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            let (pa, pb) = (&players[a], &players[b]);
            pa.score
                .cmp(&pb.score)
                .then(pa.byes.cmp(&pb.byes))
                .then(pb.id.cmp(&pa.id))
        });
        for c in order {
            let mut m = matcher.clone();
            m.remove(c);
            if m.is_perfect() {
                bye = Some(c);
                matcher = m;
                break;
            }
        }
        if bye.is_none() {
            return Err(PairingError::Unpairable { round });
        }
    } else if !matcher.is_perfect() {
        return Err(PairingError::Unpairable { round });
    }

    let mut scores: Vec<u32> = (0..n)
        .filter(|&i| Some(i) != bye)
        .map(|i| players[i].score)
        .collect();
    scores.sort_unstable_by(|a, b| b.cmp(a));
    scores.dedup();
    let groups: Vec<Vec<usize>> = scores
        .iter()
        .map(|&s| {
            (0..n)
                .filter(|&i| Some(i) != bye && players[i].score == s)
                .collect()
        })
        .collect();
    let mut search = RoundSearch {
        round: &ctx,
        groups,
        steps: 0,
        best: None,
    };
    let start = ArrangementCost {
        floaters: vec![0; scores.len()],
        rest: Cost::default(),
    };
    search.enter(0, &[], &matcher, start, &mut Vec::new());
    let Some((_, steps)) = search.best else {
        return Err(PairingError::Unpairable { round });
    };
    let pairs = steps
        .into_iter()
        .filter_map(|s| match s {
            Step::Pair(r, b) => Some(Pair {
                red: players[r].id,
                black: players[b].id,
            }),
            Step::Float(_) => None,
        })
        .collect();
    Ok(SwissRound {
        pairs,
        bye: bye.map(|b| players[b].id),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn id(n: u32) -> PlayerId {
        PlayerId::from_number(n).unwrap()
    }

    fn boards(r: &SwissRound) -> Vec<(u32, u32)> {
        r.pairs
            .iter()
            .map(|p| (p.red.number(), p.black.number()))
            .collect()
    }

    /// A player with a history: number, score, colours as a string of `r`/`b`,
    /// opponents by number.
    fn player(n: u32, score: u32, colours: &str, opponents: &[u32]) -> SwissPlayer {
        SwissPlayer {
            id: id(n),
            score,
            colours: colours
                .chars()
                .map(|c| if c == 'r' { Color::Red } else { Color::Black })
                .collect(),
            opponents: opponents.iter().map(|&o| id(o)).collect(),
            byes: 0,
        }
    }

    #[test]
    fn first_round_methods() {
        let ids: Vec<PlayerId> = (0..6).map(PlayerId).collect();
        assert_eq!(
            boards(&first_round(&ids, FirstRound::Adjacent)),
            [(1, 2), (4, 3), (5, 6)]
        );
        assert_eq!(
            boards(&first_round(&ids, FirstRound::FirstLast)),
            [(1, 6), (5, 2), (3, 4)]
        );
        assert_eq!(
            boards(&first_round(&ids, FirstRound::HalfCross)),
            [(1, 4), (5, 2), (3, 6)]
        );
        let odd: Vec<PlayerId> = (0..7).map(PlayerId).collect();
        let r = first_round(&odd, FirstRound::Adjacent);
        assert_eq!(r.bye, Some(id(7)));
        assert_eq!(boards(&r), [(1, 2), (4, 3), (5, 6)]);
    }

    #[test]
    fn wants_follow_the_colour_record() {
        assert_eq!(player(1, 0, "", &[]).want(), Want::Either);
        assert_eq!(player(1, 0, "b", &[]).want(), Want::Red);
        assert_eq!(player(1, 0, "rrb", &[]).want(), Want::Black);
        assert_eq!(player(1, 0, "rbb", &[]).want(), Want::Red);
        assert_eq!(player(1, 0, "rb", &[]).want(), Want::Red, "平先上後");
        assert_eq!(player(1, 0, "bbrr", &[]).want(), Want::Black, "平先連先");
        assert_eq!(player(1, 0, "bbrr", &[]).run(), (Some(Color::Red), 2));
    }

    fn colours_of(a: SwissPlayer, b: SwissPlayer, round: u32, rounds: u32) -> (u32, u32) {
        let players = [a, b];
        let ctx = Round {
            players: &players,
            round,
            rounds,
            met: vec![vec![false; 2]; 2],
        };
        let (r, bl) = ctx.colours(0, 1);
        (players[r].id.number(), players[bl].id.number())
    }

    #[test]
    fn colour_rules_of_section_four() {
        // (1) 少先 vs 多先: 少先 has Red.
        assert_eq!(
            colours_of(player(1, 4, "rrb", &[]), player(2, 4, "rbb", &[]), 4, 9),
            (2, 1)
        );
        // (2) 平先連後 vs 平先連先: 連後 has Red.
        assert_eq!(
            colours_of(player(3, 4, "rrbb", &[]), player(4, 4, "bbrr", &[]), 5, 9),
            (3, 4)
        );
        // (3) 平先連後 vs 連後: the longer 連後 has Red.
        assert_eq!(
            colours_of(player(1, 4, "rrbb", &[]), player(2, 4, "rrrbbb", &[]), 7, 9),
            (2, 1)
        );
        // (4) 平先連先 vs 連先: the shorter 連先 has Red.
        assert_eq!(
            colours_of(player(1, 4, "bbbrrr", &[]), player(2, 4, "bbrr", &[]), 7, 9),
            (2, 1)
        );
        // (5) 平先上後 vs 連後: 連後 has Red.
        assert_eq!(
            colours_of(player(1, 4, "rb", &[]), player(2, 4, "rrbb", &[]), 5, 9),
            (2, 1)
        );
        // (6) 平先上先 vs 連先: 上先 has Red.
        assert_eq!(
            colours_of(player(1, 4, "bbrr", &[]), player(2, 4, "br", &[]), 5, 9),
            (2, 1)
        );
        // (7) 平先上後 vs 連先: 上後 has Red.
        assert_eq!(
            colours_of(player(1, 4, "bbrr", &[]), player(2, 4, "rb", &[]), 5, 9),
            (2, 1)
        );
        // (8) all equal: odd sum, the smaller number has Red; even sum, the larger.
        assert_eq!(
            colours_of(player(3, 4, "rb", &[]), player(6, 4, "rb", &[]), 3, 9),
            (3, 6)
        );
        assert_eq!(
            colours_of(player(3, 4, "rb", &[]), player(5, 4, "rb", &[]), 3, 9),
            (5, 3)
        );
        // (9) from the third-last round the higher scorer's colour count is balanced
        // first, even against a greater need of the lower scorer…
        let high = player(1, 6, "bbr", &[]);
        let low = player(2, 4, "brb", &[]);
        assert_eq!(colours_of(high.clone(), low.clone(), 6, 9), (2, 1));
        assert_eq!(colours_of(high.clone(), low, 7, 9), (1, 2));
        // …even to a third colour in a row for the lower scorer (4.(9) has no
        // exception; the choice of pairs avoids that where it can, 一.11(3))…
        assert_eq!(
            colours_of(high.clone(), player(2, 4, "rbrbb", &[]), 7, 9),
            (1, 2)
        );
        // …but not to a fourth, beyond the threes 4.(10) keeps…
        assert_eq!(colours_of(high, player(2, 4, "rrbbb", &[]), 7, 9), (2, 1));
        // …and in the last round too (issue 26: the leader 少先 b r b r b gets Red
        // against the lower scorer's r b r b b, whose third Black in a row 4.(10)
        // tolerates).
        assert_eq!(
            colours_of(player(1, 9, "brbrb", &[]), player(2, 6, "rbrbb", &[]), 6, 6),
            (1, 2)
        );
        // …and a balanced higher scorer has nothing to balance.
        assert_eq!(
            colours_of(player(1, 6, "rb", &[]), player(2, 4, "brb", &[]), 7, 9),
            (2, 1)
        );
    }

    #[test]
    fn round_two_of_a_constructed_event() {
        // Round 1 (近號): 1-2 1 won, 4-3 drawn, 5-6 6 won, 8-7 8 won (2/1/0 scoring).
        let players = vec![
            player(1, 2, "r", &[2]),
            player(2, 0, "b", &[1]),
            player(3, 1, "b", &[4]),
            player(4, 1, "r", &[3]),
            player(5, 0, "r", &[6]),
            player(6, 2, "b", &[5]),
            player(7, 0, "b", &[8]),
            player(8, 2, "r", &[7]),
        ];
        let r = pair_round(&players, 2, 7).unwrap();
        // 2 points: rows want-Black [8, 1] (even round: large numbers first) and
        // want-Red [6]; 8 pairs first with 6 (同位), 1 moves down. 1 point: 1 heads
        // the order and takes 3 from the other row; 4 moves down. 0 points: 4 takes 7,
        // then 5 (want Black) takes 2 (want Red).
        assert_eq!(boards(&r), [(6, 8), (3, 1), (7, 4), (2, 5)]);
        assert_eq!(r.bye, None);
    }

    #[test]
    fn met_partner_sends_the_first_pairer_down_the_other_row() {
        // One score group. 4 and 2 want Red, 1 and 3 want Black; round 3 (odd) puts
        // small numbers first, so 1 pairs first; its 同位 is 2 but they have met, so
        // it takes the next one of the other row (錯位), 4.
        let players = vec![
            player(1, 2, "rb", &[2, 5]).with_colours("br"),
            player(2, 2, "rb", &[1, 6]),
            player(3, 2, "br", &[7, 8]),
            player(4, 2, "rb", &[8, 7]),
        ];
        let r = pair_round(&players, 3, 5).unwrap();
        assert_eq!(boards(&r), [(4, 1), (2, 3)]);
    }

    impl SwissPlayer {
        fn with_colours(mut self, colours: &str) -> SwissPlayer {
            self.colours = colours
                .chars()
                .map(|c| if c == 'r' { Color::Red } else { Color::Black })
                .collect();
            self
        }
    }

    #[test]
    fn bye_goes_to_the_lowest_group() {
        let players = vec![
            player(1, 2, "r", &[2]),
            player(2, 0, "b", &[1]),
            player(3, 2, "r", &[4]),
            player(4, 0, "b", &[3]),
            SwissPlayer {
                byes: 1,
                ..player(5, 2, "", &[])
            },
        ];
        let r = pair_round(&players, 2, 3).unwrap();
        // Lowest group {2, 4}: the largest number, 4, has the bye.
        assert_eq!(r.bye, Some(id(4)));
        // With 4 already given a bye, 2 (the other of the lowest group) has it.
        let mut again = players.clone();
        again[3].byes = 1;
        assert_eq!(pair_round(&again, 2, 3).unwrap().bye, Some(id(2)));
        // When the whole lowest group has had one, it still has the bye (一.5
        // names the group, not a first bye): 4, as the larger number.
        again[1].byes = 1;
        assert_eq!(pair_round(&again, 2, 3).unwrap().bye, Some(id(4)));
        // The lowest group cannot take it when the rest would be left with a
        // rematch: 4 has met everyone but 5, so 5 plays; the bye goes up to the
        // next group, {3, 4}, and there to 4.
        let stuck = vec![
            player(1, 4, "rb", &[4]),
            player(2, 4, "br", &[4]),
            player(3, 2, "rb", &[4]),
            player(4, 2, "brb", &[1, 2, 3]),
            player(5, 0, "", &[]),
        ];
        assert_eq!(pair_round(&stuck, 4, 5).unwrap().bye, Some(id(4)));
        let mut all: Vec<u32> = r
            .pairs
            .iter()
            .flat_map(|p| [p.red.number(), p.black.number()])
            .collect();
        all.sort();
        assert_eq!(all, [1, 2, 3, 5]);
    }

    #[test]
    fn lower_groups_are_never_left_stuck() {
        // The bottom pair has met; the group above must give one of its players up
        // (拆對) so that everyone is paired.
        let players = vec![
            player(1, 4, "rb", &[5, 6]),
            player(2, 4, "br", &[6, 5]),
            player(3, 4, "rb", &[4, 6]),
            player(4, 4, "br", &[3, 5]),
            player(5, 0, "rb", &[6, 1]),
            player(6, 0, "br", &[5, 2]),
        ];
        let r = pair_round(&players, 3, 5).unwrap();
        assert_eq!(r.pairs.len(), 3);
        for p in &r.pairs {
            let a = &players[p.red.index()];
            assert!(!a.opponents.contains(&p.black));
        }
    }

    #[test]
    fn impossible_rounds_are_reported() {
        let players = vec![player(1, 0, "r", &[2]), player(2, 0, "b", &[1])];
        assert_eq!(
            pair_round(&players, 2, 3),
            Err(PairingError::Unpairable { round: 2 })
        );
        let dup = vec![player(1, 0, "", &[]), player(1, 0, "", &[])];
        assert!(matches!(
            pair_round(&dup, 2, 3),
            Err(PairingError::DuplicatePlayer(_))
        ));
    }

    /// Plays a whole Swiss event, results from `result(k)` for the k-th game (0 Red
    /// wins, 1 draw, 2 Black wins), checking each round's validity; returns the
    /// players and the worst colour imbalance and run seen.
    fn simulate(
        n: u32,
        rounds: u32,
        mut result: impl FnMut(u64) -> u8,
    ) -> Result<(Vec<SwissPlayer>, i32, u32), TestCaseError> {
        let mut players: Vec<SwissPlayer> = (1..=n).map(|k| SwissPlayer::new(id(k))).collect();
        let mut games = 0;
        let (mut worst_balance, mut worst_run) = (0, 0);
        for round in 1..=rounds {
            let r = if round == 1 {
                first_round(
                    &players.iter().map(|p| p.id).collect::<Vec<_>>(),
                    FirstRound::Adjacent,
                )
            } else {
                match pair_round(&players, round, rounds) {
                    Ok(r) => {
                        check_round(&players, round, rounds, &r)?;
                        r
                    }
                    Err(PairingError::Unpairable { .. }) => {
                        // Only when no bye leaves the rest pairable without a
                        // rematch; the event stops there.
                        let graph = unplayed(&players);
                        let pairable = |bye: Option<usize>| {
                            let mut m = Matcher::new(&graph);
                            if let Some(b) = bye {
                                m.remove(b);
                            }
                            m.is_perfect()
                        };
                        let possible = if n.is_multiple_of(2) {
                            pairable(None)
                        } else {
                            (0..n as usize).any(|b| pairable(Some(b)))
                        };
                        prop_assert!(!possible, "round {} pairable but refused", round);
                        break;
                    }
                    Err(e) => return Err(TestCaseError::fail(e.to_string())),
                }
            };
            let mut seen = vec![false; n as usize];
            for p in r.pairs.iter().flat_map(|p| [p.red, p.black]).chain(r.bye) {
                prop_assert!(!seen[p.index()], "round {} player {} twice", round, p);
                seen[p.index()] = true;
            }
            prop_assert!(seen.iter().all(|&s| s), "round {}: someone unpaired", round);
            prop_assert_eq!(r.bye.is_some(), n % 2 == 1);
            if let Some(b) = r.bye {
                players[b.index()].byes += 1;
                players[b.index()].score += 2;
            }
            for pair in &r.pairs {
                let (red, black) = (pair.red.index(), pair.black.index());
                prop_assert!(
                    !players[red].opponents.contains(&pair.black),
                    "rematch {}-{}",
                    pair.red,
                    pair.black
                );
                games += 1;
                let (sr, sb) = match result(games) % 3 {
                    0 => (2, 0),
                    1 => (1, 1),
                    _ => (0, 2),
                };
                players[red].score += sr;
                players[black].score += sb;
                players[red].colours.push(Color::Red);
                players[black].colours.push(Color::Black);
                players[red].opponents.push(pair.black);
                players[black].opponents.push(pair.red);
            }
            for p in &players {
                worst_balance = worst_balance.max(p.balance().abs());
                worst_run = worst_run.max(p.run().1);
            }
        }
        Ok((players, worst_balance, worst_run))
    }

    /// The graph of pairings not yet played (一.6), by index.
    fn unplayed(players: &[SwissPlayer]) -> Vec<Vec<usize>> {
        let n = players.len();
        (0..n)
            .map(|i| {
                (0..n)
                    .filter(|&j| j != i && !players[i].opponents.contains(&players[j].id))
                    .collect()
            })
            .collect()
    }

    /// What the text states of every round, checked against the players as they
    /// stood before it (indexed by id): the bye to someone of the lowest score
    /// group that can take it, one of that group's fewest byes (一.5); no rematch
    /// (一.6); from the third-last round a higher scorer who is 少先 or 多先 gets
    /// his want unless that leaves the lower scorer a fourth (二.4(9)); otherwise
    /// two players wanting different colours both get their wants (二.4(1), (2),
    /// (7)).
    fn check_round(
        players: &[SwissPlayer],
        round: u32,
        rounds: u32,
        r: &SwissRound,
    ) -> Result<(), TestCaseError> {
        let graph = unplayed(players);
        if let Some(bye) = r.bye {
            let can_take: Vec<&SwissPlayer> = (0..players.len())
                .filter(|&c| {
                    let mut m = Matcher::new(&graph);
                    m.remove(c);
                    m.is_perfect()
                })
                .map(|c| &players[c])
                .collect();
            let lowest = can_take.iter().map(|p| p.score).min().unwrap_or(0);
            let fewest = can_take
                .iter()
                .filter(|p| p.score == lowest)
                .map(|p| p.byes)
                .min();
            let got = &players[bye.index()];
            prop_assert_eq!(
                got.score,
                lowest,
                "round {}: bye to {} above the lowest group",
                round,
                bye
            );
            prop_assert_eq!(Some(got.byes), fewest, "round {}: bye to {}", round, bye);
        }
        for p in &r.pairs {
            let (red, black) = (&players[p.red.index()], &players[p.black.index()]);
            prop_assert!(
                !red.opponents.contains(&black.id),
                "rematch {}-{}",
                red.id,
                black.id
            );
            let high = match red.score.cmp(&black.score) {
                std::cmp::Ordering::Greater => Some(red),
                std::cmp::Ordering::Less => Some(black),
                std::cmp::Ordering::Equal => None,
            };
            // The lower scorer's colour by 4.(9), unless it is a fourth.
            let rule_nine = high.filter(|h| {
                let low = if h.id == red.id { black } else { red };
                let colour = if h.balance() < 0 {
                    Color::Black
                } else {
                    Color::Red
                };
                let mut after = low.clone();
                after.colours.push(colour);
                round + 2 >= rounds
                    && h.balance() != 0
                    && after.balance().abs() <= 3
                    && after.run().1 <= 3
            });
            match rule_nine {
                Some(h) => prop_assert_eq!(
                    h.id == red.id,
                    h.balance() < 0,
                    "round {}: 4.(9) for {} in {}-{}",
                    round,
                    h.id,
                    red.id,
                    black.id
                ),
                _ => prop_assert!(
                    (red.want() != Want::Black || black.want() == Want::Black)
                        && (black.want() != Want::Red || red.want() == Want::Red),
                    "round {}: {}-{} against the wants",
                    round,
                    red.id,
                    black.id
                ),
            }
        }
        Ok(())
    }

    /// Rounds for `n` players that can always be paired without rematches: with at
    /// most half the (even-rounded) field in rounds, the graph of unplayed pairings
    /// has degree at least half its order, so it has a perfect matching (Dirac).
    fn safe_rounds(n: u32) -> u32 {
        ((n + n % 2) / 2).max(1)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_events_pair_everyone_without_rematches(
            n in 2u32..=20,
            outcomes in proptest::collection::vec(0u8..3, 1..200),
        ) {
            let mut k = 0;
            simulate(n, safe_rounds(n), |_| {
                k += 1;
                outcomes[k % outcomes.len()]
            })?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// Events longer than the field can always be paired in, odd fields with
        /// byes coming round again: every round meets [`check_round`] (the bye to
        /// the lowest group that can take it even when that is a second bye, no
        /// rematch, 二.4 colours), and an event stops only where no pairing exists.
        #[test]
        fn long_events_keep_the_clauses(
            n in 3u32..=13,
            extra in 0u32..6,
            outcomes in proptest::collection::vec(0u8..3, 1..120),
        ) {
            let mut k = 0;
            simulate(n, n - 1 + extra, |_| {
                k += 1;
                outcomes[k % outcomes.len()]
            })?;
        }
    }

    /// The cost of a complete arrangement, computed pair by pair (independently of
    /// the search that built it).
    fn score_of(ctx: &Round<'_>, scores: &[u32], pairs: &[(usize, usize)]) -> ArrangementCost {
        let mut score = ArrangementCost {
            floaters: vec![0; scores.len()],
            rest: Cost::default(),
        };
        for &(a, b) in pairs {
            let (red, black) = ctx.colours(a, b);
            score.rest = score.rest + ctx.pair_cost(red, black);
            let (sa, sb) = (ctx.players[a].score, ctx.players[b].score);
            if sa != sb {
                let (hs, ls) = (sa.max(sb), sa.min(sb));
                for (g, &s) in scores.iter().enumerate() {
                    if hs >= s && s > ls {
                        score.floaters[g] += 1;
                    }
                }
            }
        }
        score
    }

    /// Every perfect matching of `left` without rematches.
    fn all_pairings(
        met: &[Vec<bool>],
        left: &[usize],
        acc: &mut Vec<(usize, usize)>,
        out: &mut Vec<Vec<(usize, usize)>>,
    ) {
        let Some(&first) = left.first() else {
            out.push(acc.clone());
            return;
        };
        for k in 1..left.len() {
            let other = left[k];
            if met[first][other] {
                continue;
            }
            let rest: Vec<usize> = left
                .iter()
                .copied()
                .filter(|&x| x != first && x != other)
                .collect();
            acc.push((first, other));
            all_pairings(met, &rest, acc, out);
            acc.pop();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// On small fields the search is exhaustive: no arrangement beats the one
        /// chosen under the documented order (moved-down players per group, then
        /// threes, twos of imbalance, runs of two).
        #[test]
        fn small_fields_get_the_best_arrangement(
            n in 4u32..=9,
            played in 1u32..4,
            outcomes in proptest::collection::vec(0u8..3, 1..40),
        ) {
            let mut k = 0;
            let (players, _, _) = simulate(n, played.min(safe_rounds(n) - 1).max(1), |_| {
                k += 1;
                outcomes[k % outcomes.len()]
            })?;
            let rounds = played + 3;
            let round = played + 1;
            let chosen = pair_round(&players, round, rounds).unwrap();
            let m = players.len();
            let mut met = vec![vec![false; m]; m];
            for (i, p) in players.iter().enumerate() {
                for o in &p.opponents {
                    met[i][o.index()] = true;
                }
            }
            let ctx = Round { players: &players, round, rounds, met: met.clone() };
            let mut scores: Vec<u32> = players
                .iter()
                .filter(|p| Some(p.id) != chosen.bye)
                .map(|p| p.score)
                .collect();
            scores.sort_unstable_by(|a, b| b.cmp(a));
            scores.dedup();
            let left: Vec<usize> = (0..m).filter(|&i| Some(players[i].id) != chosen.bye).collect();
            let mut every = Vec::new();
            all_pairings(&met, &left, &mut Vec::new(), &mut every);
            let best = every.iter().map(|ps| score_of(&ctx, &scores, ps)).min().unwrap();
            let ours: Vec<(usize, usize)> = chosen.pairs.iter().map(|p| (p.red.index(), p.black.index())).collect();
            prop_assert_eq!(score_of(&ctx, &scores, &ours), best);
        }
    }

    #[test]
    fn colours_stay_within_three_over_seeded_events() {
        // Full pairing of a score group comes before colour balance (一.10, 一.11(2)),
        // so results tied to colour (Red always winning) can force longer runs; with
        // results independent of colour the imbalance and runs stay within three.
        let mut worst = (0, 0);
        for seed in 0..40 {
            let lots = crate::lots::Lots::new(seed);
            let n = 6 + (lots.value("n", 0) % 20) as u32;
            let (_, balance, run) = simulate(n, safe_rounds(n), |k| (lots.value("r", k) % 3) as u8)
                .map_err(|e| e.to_string())
                .unwrap();
            worst = (worst.0.max(balance), worst.1.max(run));
        }
        assert!(worst.0 <= 3 && worst.1 <= 3, "{worst:?}");
    }
}
