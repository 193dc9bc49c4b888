//! What the game's history makes a node worth to the search: repetitions ruled by
//! the 棋例 (CXA 2011 or AXF — the ruling is [`rules::repetition()`]'s) and the
//! 60-move rule.
//!
//! The search keeps only what is its own: a cheap key filter in front of the rules,
//! the choice of fold by where the root lies, a memo of rulings per cycle, and the
//! mapping of a ruling to a [`HistoryScore`].
//!
//! * **Filter first.** The scan back through the history runs only when the
//!   [`RepetitionFilter`] says the key occurred before (a small counting table of key
//!   bits, maintained on every make/unmake), so almost every node pays one table
//!   load; the rules are asked only when the scan finds an occurrence that counts.
//! * **Fold.** A position met for the third time (two earlier occurrences, anywhere)
//!   is ruled for good. A position met for the second time, the earlier occurrence
//!   strictly after the root, is ruled as a *two-fold*: the cycle lies wholly inside
//!   the tree and the side that would have to vary may still do so, so a two-fold
//!   win is not trusted as a win. A second occurrence whose first one is at or before
//!   the root is no verdict yet (the game must reach the 待判局面 of §23.1).
//! * **Scores.** Draws score as draws. A cycle completed for good by its violator is
//!   a rule win for the other side ([`HistoryScore::RuleWin`]): the search scores it
//!   beside the mates by its distance ([`crate::search::score::rule_win_in`]), and
//!   never cuts off on such values from the transposition table. A two-fold
//!   completed by its violator only narrows the window ([`HistoryScore::AtLeastDraw`]:
//!   the other side can always repeat, so it holds at least a draw; Pikafish's
//!   scheme). A cycle whose violator is the side to move (the opponent completed
//!   it) depends on the [`Referee`] the engine plays for ([`Settings::referee`]):
//!   - **strict** (the default; GUIs and match tools): the violator has lost at the
//!     third occurrence ([`HistoryScore::RuleLoss`]), and the side the search plays
//!     for treats its own forbidden two-fold inside the tree as lost too (it could
//!     have varied at the first occurrence; a GUI will not let it repeat again).
//!     Under `rules cxa2011` the search assumes the worse of the two rule sets
//!     for the side it plays for, since a GUI user does not know which rules the
//!     GUI applies: a cycle that AXF forbids to that side counts against it as
//!     well, and a cycle that CXA forbids to its opponent but AXF allows (一將一殺,
//!     a chase AXF does not count) is a draw, not a win: the GUI referees will
//!     not award it. A cycle that only CXA forbids to the side it plays for counts
//!     against it at the third occurrence, not at a two-fold inside the tree: the
//!     GUI referees let it stand, and a CXA referee rules only at the third
//!     occurrence, which the search then meets (the root still never plays a move
//!     CXA forbids, [`crate::search::Searcher`]).
//!   - **text**: the violator must vary and the search goes on; the move that
//!     continues the cycle meets a rule win for the opponent one ply later, except
//!     CXA unilateral 長將 at the third occurrence, which loses at once (§23.5.1).
//! * **TT hygiene.** Besides the band, the table key of a position that may repeat
//!   carries a salt ([`crate::search::tt::table_key`]), so path-dependent values are
//!   not shared with the same placement reached afresh.
//! * **Move limit** ([`MoveLimit`]): after 120 plies without a capture (checks
//!   beyond a side's first ten not counted, [`crate::rules::sixty_moves`]) the game
//!   is drawn, unless the side to move has no legal move: then it is mated. The GUI
//!   referees draw earlier: after 100 plies, less two for each check beyond ten by
//!   the side that checked more (the fifty-move rule of Fairy-Stockfish and the
//!   tools built on it). Under the **strict** referee the side the search plays for
//!   takes the limit that is worse for it: the earlier one when it stands better at
//!   the root (the draw would cost it the win), the later one otherwise (it cannot
//!   count on an early draw) ([`MoveLimit::for_search`]).

use crate::core::Color;
use crate::core::{Move, Position};
use crate::rules::{self, ClassCache, Referee, RuleSet};
#[cfg(doc)]
use crate::search::settings::Settings;
use std::fmt;
use std::str::FromStr;

/// How the search scores repeated positions (the `rules` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionRules {
    /// Cycles are judged by the 棋例 of this rule set: forbidden cycles lose for
    /// their violator, the others are draws.
    Judged(RuleSet),
    /// Every repetition is a draw (engines without 棋例; kept for comparison and
    /// casual play).
    AllDraws,
}

impl Default for RepetitionRules {
    /// The CXA 2011 rules.
    fn default() -> RepetitionRules {
        RepetitionRules::Judged(RuleSet::Cxa2011)
    }
}

impl RepetitionRules {
    /// The name used in options and on the command line: `cxa2011`, `axf` or
    /// `draw`.
    pub const fn name(self) -> &'static str {
        match self {
            RepetitionRules::Judged(r) => r.name(),
            RepetitionRules::AllDraws => "draw",
        }
    }
}

impl fmt::Display for RepetitionRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RepetitionRules {
    type Err = rules::ParseRuleSetError;

    /// A rule-set name ([`RuleSet`]'s spellings), or `draw` (also `draws`, `none`)
    /// for [`RepetitionRules::AllDraws`].
    ///
    /// ```
    /// use chuhan_engine::rules::RuleSet;
    /// use chuhan_engine::search::repetition::RepetitionRules;
    /// assert_eq!("axf".parse(), Ok(RepetitionRules::Judged(RuleSet::Axf)));
    /// assert_eq!("draw".parse(), Ok(RepetitionRules::AllDraws));
    /// assert!("wxf".parse::<RepetitionRules>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<RepetitionRules, rules::ParseRuleSetError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "draw" | "draws" | "none" => Ok(RepetitionRules::AllDraws),
            _ => s.parse().map(RepetitionRules::Judged),
        }
    }
}

/// What a history-dependent rule makes the current node worth to its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryScore {
    /// The game is drawn here (a repetition ruled a draw, or the 60-move rule).
    Draw,
    /// No legal move at the 60-move limit: mated (困斃 or checkmate still lose).
    Mated,
    /// The opponent completed, for the third time, a cycle in which it is the
    /// violator: the side to move wins by the rules.
    RuleWin,
    /// The side to move is the violator of a cycle the opponent completed, and has
    /// lost: at the third occurrence under a strict referee (or CXA unilateral 長將,
    /// §23.5.1, by the text), or at a two-fold inside the tree when it is the side
    /// the search plays for and the referee is strict.
    RuleLoss,
    /// The opponent completed a two-fold cycle inside the tree in which it is the
    /// violator: the side to move can hold at least a draw (it keeps repeating, the
    /// opponent must vary), so the search raises its floor to a draw and goes on.
    AtLeastDraw,
}

const FILTER_BITS: u32 = 14;

/// Counts of positions on the current game-plus-search path by high key bits: a key
/// whose count is below 2 cannot be a repetition (the current position counts once).
pub struct RepetitionFilter {
    counts: Vec<u8>,
}

impl Default for RepetitionFilter {
    fn default() -> RepetitionFilter {
        RepetitionFilter::new()
    }
}

impl RepetitionFilter {
    /// An empty filter.
    pub fn new() -> RepetitionFilter {
        RepetitionFilter {
            counts: vec![0; 1 << FILTER_BITS],
        }
    }

    #[inline(always)]
    fn slot(key: u64) -> usize {
        (key >> (64 - FILTER_BITS)) as usize
    }

    /// Fills the filter from a position and the part of its history that matters
    /// (since the last capture or null move).
    pub fn init(&mut self, pos: &Position) {
        self.counts.fill(0);
        let hist = pos.history();
        let back = (pos.state().reversible_plies() as usize).min(hist.len());
        for st in &hist[hist.len() - back..] {
            self.push(st.key);
        }
        self.push(pos.key());
    }

    /// Records a position entered by a move.
    #[inline(always)]
    pub fn push(&mut self, key: u64) {
        let c = &mut self.counts[Self::slot(key)];
        *c = c.saturating_add(1);
    }

    /// Forgets a position left by unmaking its move.
    #[inline(always)]
    pub fn pop(&mut self, key: u64) {
        let c = &mut self.counts[Self::slot(key)];
        *c = c.saturating_sub(1);
    }

    /// True if `key` may have occurred before on the path (false positives only).
    #[inline(always)]
    pub fn maybe_repeated(&self, key: u64) -> bool {
        self.counts[Self::slot(key)] >= 2
    }
}

/// Entries of a [`RuleMemo`]'s verdict memo (a power of two).
const MEMO_ENTRIES: usize = 1 << 12;

/// A search thread's memory of the repetition rules: the rules module's move
/// classifications ([`ClassCache`]) and, in front of it, the verdicts already given,
/// by cycle. The same cycle is met at many nodes of one search; its verdict is a
/// function of the positions from just before its first judged occurrence to its
/// end (the moves between them and the previous position, which a classification
/// looks at, follow from the positions), so a hash of their keys finds it again
/// for the price of a short scan.
pub struct RuleMemo {
    classes: ClassCache,
    verdicts: Vec<(u64, Option<HistoryScore>)>,
}

impl Default for RuleMemo {
    fn default() -> RuleMemo {
        RuleMemo::new()
    }
}

impl RuleMemo {
    /// An empty referee.
    pub fn new() -> RuleMemo {
        RuleMemo {
            classes: ClassCache::new(),
            verdicts: vec![(0, None); MEMO_ENTRIES],
        }
    }

    /// Number of move classifications held.
    pub fn classifications(&self) -> usize {
        self.classes.len()
    }
}

/// The signature of the cycle ending at `pos` whose earliest occurrence taken into
/// account is `back` plies ago, and of how it is to be ruled.
fn cycle_signature(pos: &Position, back: usize, how: Ruling) -> u64 {
    let hist = pos.history();
    let first = hist.len() - back;
    let mut h = 0x243F_6A88_85A3_08D3u64 ^ how.bits();
    let before = first.checked_sub(1).map_or(0, |i| hist[i].key);
    for k in std::iter::once(before)
        .chain(hist[first..].iter().map(|s| s.key))
        .chain(std::iter::once(pos.key()))
    {
        h = (h ^ k).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
    h | 1
}

/// How one repetition is to be ruled: everything besides the positions that the
/// verdict depends on (and so the memo's key, with them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ruling {
    set: RuleSet,
    referee: Referee,
    /// The position occurred twice before.
    threefold: bool,
    /// The latest earlier occurrence lies strictly after the root.
    in_tree: bool,
    /// The side to move is the side the search plays for (the root's).
    ours: bool,
}

impl Ruling {
    fn bits(self) -> u64 {
        (self.set as u64)
            | (self.referee as u64) << 1
            | (self.threefold as u64) << 2
            | (self.in_tree as u64) << 3
            | (self.ours as u64) << 4
    }
}

/// When the search scores a position drawn for want of a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// After this many plies without a capture, counted as the sixty-move rule
    /// counts them (a side's checks beyond its first ten not counted;
    /// [`rules::sixty_moves_after`]); 0: never.
    Counted(u32),
    /// After this many plies without a capture, counted as the GUI referees
    /// (Fairy-Stockfish, pyffish) count them for xiangqi: less two plies for each
    /// check beyond ten by the side that gave more checks since the capture.
    Gui(u32),
}

impl MoveLimit {
    /// The limit a search plays for: `plies` (the `Rule60MaxPly` setting, 0 for
    /// none) counted as the sixty-move rule counts, except that under the strict
    /// referee a side that stands better at the root (`ahead`) assumes the GUI
    /// referees' earlier draw ([`MoveLimit::Gui`] of
    /// [`rules::params::FIFTY_MOVE_PLIES`]) when the setting is not earlier still.
    ///
    /// ```
    /// use chuhan_engine::rules::Referee;
    /// use chuhan_engine::search::repetition::MoveLimit;
    /// assert_eq!(MoveLimit::for_search(120, Referee::Strict, true), MoveLimit::Gui(100));
    /// assert_eq!(MoveLimit::for_search(120, Referee::Strict, false), MoveLimit::Counted(120));
    /// assert_eq!(MoveLimit::for_search(120, Referee::Text, true), MoveLimit::Counted(120));
    /// assert_eq!(MoveLimit::for_search(0, Referee::Strict, true), MoveLimit::Counted(0));
    /// ```
    pub fn for_search(plies: u32, referee: Referee, ahead: bool) -> MoveLimit {
        let fifty = rules::params::FIFTY_MOVE_PLIES;
        if referee == Referee::Strict && ahead && plies > fifty {
            MoveLimit::Gui(fifty)
        } else {
            MoveLimit::Counted(plies)
        }
    }

    /// True when `pos` is drawn by this limit.
    pub fn reached(self, pos: &Position) -> bool {
        match self {
            MoveLimit::Counted(plies) => rules::sixty_moves_after(pos, plies),
            MoveLimit::Gui(plies) => {
                let r = pos.rule60();
                plies > 0 && r >= plies && {
                    // A side's checks beyond its first ten, over the plies since the
                    // capture that the position's history knows.
                    let extra = |c| r - rules::status::sixty_move_count(pos, c);
                    let offset = 2 * extra(Color::Red).max(extra(Color::Black));
                    r.saturating_sub(offset) >= plies
                }
            }
        }
    }
}

/// The verdict of the history rules for the side to move of `pos`, `ply` plies below
/// the search root, or `None` if play goes on (see the module documentation for the
/// folds, the scores and the referee). A position that `limit` has reached is a
/// draw. `memo` remembers verdicts and classifications across calls: keep one per
/// search thread.
pub fn judge(
    pos: &Position,
    filter: &RepetitionFilter,
    ply: usize,
    rules: RepetitionRules,
    referee: Referee,
    limit: MoveLimit,
    memo: &mut RuleMemo,
) -> Option<HistoryScore> {
    if limit.reached(pos) {
        return Some(if pos.has_legal_move() {
            HistoryScore::Draw
        } else {
            HistoryScore::Mated
        });
    }
    if !filter.maybe_repeated(pos.key()) {
        return None;
    }
    let hist = pos.history();
    let key = pos.key();
    let end = (pos.state().reversible_plies() as usize).min(hist.len());
    // Earlier occurrences (up to two), and whether the latest lies strictly after
    // the root.
    let mut seen = 0;
    let mut in_tree = false;
    let mut back = 0;
    let mut i = 4;
    while i <= end {
        if hist[hist.len() - i].key == key {
            if seen == 0 {
                in_tree = i < ply;
                if in_tree && rules == RepetitionRules::AllDraws {
                    return Some(HistoryScore::Draw);
                }
            }
            seen += 1;
            back = i;
            if seen == 2 {
                break;
            }
        }
        i += 2;
    }
    let RepetitionRules::Judged(set) = rules else {
        return (seen == 2).then_some(HistoryScore::Draw);
    };
    let threefold = seen == 2;
    if !threefold && !in_tree {
        return None;
    }
    let how = Ruling {
        set,
        referee,
        threefold,
        in_tree,
        ours: ply.is_multiple_of(2),
    };
    let sig = cycle_signature(pos, back, how);
    let slot = (sig as usize) & (MEMO_ENTRIES - 1);
    if memo.verdicts[slot].0 == sig {
        return memo.verdicts[slot].1;
    }
    let v = rule(pos, how, &mut memo.classes);
    memo.verdicts[slot] = (sig, v);
    v
}

/// A rule set's word on one repetition.
#[derive(Clone, Copy)]
struct Word {
    /// The side that must vary; `None` for a draw.
    violator: Option<Color>,
    /// The position has occurred three times by the rule set's count.
    definite: bool,
    /// The violation loses at once (CXA unilateral 長將, §23.5.1).
    immediate: bool,
}

/// A rule set's word on the repetition at `pos`; `None` when the rule set sees no
/// repetition there (it counts for itself: under CXA a position reached by a
/// capture is not counted, so a three-fold of keys may be a two-fold for it).
fn ruling_of(
    pos: &Position,
    set: RuleSet,
    threefold: bool,
    in_tree: bool,
    cache: &mut ClassCache,
) -> Option<Word> {
    let rep = if threefold {
        rules::repetition(pos, set, 3, Some(cache))
    } else {
        None
    };
    let rep = match rep {
        Some(r) => r,
        None if in_tree => rules::repetition(pos, set, 2, Some(cache))?,
        None => return None,
    };
    Some(Word {
        violator: rep.verdict.must_vary,
        definite: rep.cycle.occurrences >= 3,
        immediate: rep.verdict.immediate,
    })
}

/// Asks the rules about a repetition the scan found and maps the ruling to a score
/// for the side to move.
fn rule(pos: &Position, how: Ruling, cache: &mut ClassCache) -> Option<HistoryScore> {
    let stm = pos.side_to_move();
    let ours = if how.ours { stm } else { !stm };
    let strict = how.referee == Referee::Strict;
    let mut ruling = ruling_of(pos, how.set, how.threefold, how.in_tree, cache);
    if strict && how.set != RuleSet::Axf {
        let axf = ruling_of(pos, RuleSet::Axf, how.threefold, how.in_tree, cache);
        let axf_violator = axf.and_then(|a| a.violator);
        if axf_violator == Some(ours) && ruling.is_none_or(|w| w.violator != Some(ours)) {
            // A cycle the AXF referees forbid to our side loses for it as well.
            ruling = axf;
        } else if let Some(w) = ruling.as_mut()
            && w.violator == Some(!ours)
            && axf_violator != Some(!ours)
        {
            // A win that only this rule set gives is not counted on: the AXF
            // referees rule the cycle a draw.
            w.violator = None;
        } else if ruling.is_some_and(|w| w.violator == Some(ours) && !w.definite)
            && axf_violator != Some(ours)
        {
            // A two-fold that only this rule set forbids to our side: the AXF
            // referees let it stand, and this rule set's referee rules at the third
            // occurrence, which the search then meets as a loss. Play on.
            return None;
        }
    }
    let Word {
        violator,
        definite,
        immediate,
    } = ruling?;
    match violator {
        None => Some(HistoryScore::Draw),
        Some(v) if v != stm && definite => Some(HistoryScore::RuleWin),
        Some(v) if v != stm => Some(HistoryScore::AtLeastDraw),
        // The side to move is the violator; the opponent completed the cycle.
        Some(_) if definite && (immediate || strict) => Some(HistoryScore::RuleLoss),
        Some(_) if strict && how.ours => Some(HistoryScore::RuleLoss),
        Some(_) => None,
    }
}

/// The legal moves of the side to move that `rules` forbid
/// ([`rules::forbidden_moves`]); none under [`RepetitionRules::AllDraws`].
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::search::repetition::{forbidden_moves, RepetitionRules};
/// let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
/// for m in "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9".split(' ') {
///     pos.make_move(m.parse().unwrap());
/// }
/// assert_eq!(forbidden_moves(&pos, RepetitionRules::default()).len(), 1);
/// assert!(forbidden_moves(&pos, RepetitionRules::AllDraws).is_empty());
/// ```
pub fn forbidden_moves(pos: &Position, rules: RepetitionRules) -> Vec<Move> {
    match rules {
        RepetitionRules::Judged(set) => {
            rules::forbidden_moves(pos, set, Some(&mut ClassCache::new()))
        }
        RepetitionRules::AllDraws => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CXA: RepetitionRules = RepetitionRules::Judged(RuleSet::Cxa2011);
    const AXF: RepetitionRules = RepetitionRules::Judged(RuleSet::Axf);
    const SIXTY: MoveLimit = MoveLimit::Counted(crate::rules::params::SIXTY_MOVE_PLIES);
    const TEXT: Referee = Referee::Text;
    const STRICT: Referee = Referee::Strict;

    fn play(pos: &mut Position, filter: &mut RepetitionFilter, moves: &str) {
        for m in moves.split_whitespace() {
            pos.make_move(m.parse().unwrap());
            filter.push(pos.key());
        }
    }

    fn start(fen: &str) -> (Position, RepetitionFilter) {
        let pos = Position::from_fen(fen).unwrap();
        let mut f = RepetitionFilter::new();
        f.init(&pos);
        (pos, f)
    }

    #[test]
    fn all_draws_twofold_inside_threefold_outside() {
        let (mut pos, mut f) = start("4k4/9/9/9/9/9/9/9/R8/3K5 w");
        let c = &mut RuleMemo::new();
        let draws = RepetitionRules::AllDraws;
        play(&mut pos, &mut f, "a1a2 e9f9 a2a1 f9e9");
        // Back at the start position after 4 plies: a draw inside a search whose
        // root was before the first occurrence; not when the first occurrence is
        // the root itself or before it (only a two-fold).
        assert_eq!(
            judge(&pos, &f, 5, draws, TEXT, SIXTY, c),
            Some(HistoryScore::Draw)
        );
        assert_eq!(judge(&pos, &f, 4, draws, TEXT, SIXTY, c), None);
        assert_eq!(judge(&pos, &f, 0, draws, TEXT, SIXTY, c), None);
        // Idle moves on both sides: the rules say the same.
        assert_eq!(
            judge(&pos, &f, 5, CXA, TEXT, SIXTY, c),
            Some(HistoryScore::Draw)
        );
        assert_eq!(judge(&pos, &f, 0, AXF, TEXT, SIXTY, c), None);
        play(&mut pos, &mut f, "a1a2 e9f9 a2a1 f9e9");
        assert_eq!(
            judge(&pos, &f, 0, draws, TEXT, SIXTY, c),
            Some(HistoryScore::Draw),
            "3-fold"
        );
        assert_eq!(
            judge(&pos, &f, 0, CXA, TEXT, SIXTY, c),
            Some(HistoryScore::Draw)
        );
    }

    #[test]
    fn perpetual_check_is_judged() {
        // Red checks with the rook on every move; black's king steps up and back.
        let (mut pos, mut f) = start("4k4/9/9/9/9/9/9/9/9/R2K5 w");
        let c = &mut RuleMemo::new();
        play(&mut pos, &mut f, "a0a9 e9e8 a9a8 e8e9 a8a9");
        // Black to move, the position after a0a9 for the second time; red, the
        // checker, completed the cycle.
        for rules in [CXA, AXF] {
            assert_eq!(
                judge(&pos, &f, 5, rules, TEXT, SIXTY, c),
                Some(HistoryScore::AtLeastDraw)
            );
            assert_eq!(
                judge(&pos, &f, 4, rules, TEXT, SIXTY, c),
                None,
                "first one at the root"
            );
        }
        assert_eq!(
            judge(&pos, &f, 5, RepetitionRules::AllDraws, TEXT, SIXTY, c),
            Some(HistoryScore::Draw)
        );
        play(&mut pos, &mut f, "e9e8");
        // Red to move and the violator (black completed the cycle): by the text red
        // must vary, the search goes on. A strict referee will not let red repeat
        // again, so the two-fold inside the tree is lost for red when the search
        // plays red (even plies), and open when it plays black.
        assert_eq!(judge(&pos, &f, 6, CXA, TEXT, SIXTY, c), None);
        for rules in [CXA, AXF] {
            assert_eq!(
                judge(&pos, &f, 6, rules, STRICT, SIXTY, c),
                Some(HistoryScore::RuleLoss)
            );
            assert_eq!(judge(&pos, &f, 7, rules, STRICT, SIXTY, c), None);
            assert_eq!(
                judge(&pos, &f, 2, rules, STRICT, SIXTY, c),
                None,
                "not in the tree"
            );
        }
        play(&mut pos, &mut f, "a9a8 e8e9 a8a9");
        // Third time: red loses by the rules, wherever the root is.
        for rules in [CXA, AXF] {
            for ply in [0, 3, 9] {
                assert_eq!(
                    judge(&pos, &f, ply, rules, TEXT, SIXTY, c),
                    Some(HistoryScore::RuleWin)
                );
            }
        }
        play(&mut pos, &mut f, "e9e8");
        // Red to move at the third occurrence: CXA unilateral 長將 loses at once;
        // under AXF red must vary.
        assert_eq!(
            judge(&pos, &f, 0, CXA, TEXT, SIXTY, c),
            Some(HistoryScore::RuleLoss)
        );
        assert_eq!(judge(&pos, &f, 0, AXF, TEXT, SIXTY, c), None);
        // A strict referee ends the game here whoever made the last move: red has
        // lost, wherever the root is and whichever side the search plays.
        for rules in [CXA, AXF] {
            for ply in [0, 1, 3, 10] {
                assert_eq!(
                    judge(&pos, &f, ply, rules, STRICT, SIXTY, c),
                    Some(HistoryScore::RuleLoss),
                    "{rules} ply {ply}"
                );
            }
        }
        assert!(c.classifications() > 0);
    }

    #[test]
    fn strict_counts_only_the_wins_axf_gives_too() {
        // Game 7 of a default-rules match against Pikafish-HCE refereed by pyffish
        // (2026-12-06): Chuhan's red king steps d0/e0 while black's rook checks on
        // the d-file and threatens mate from the a-file. CXA rules black's 一將一殺
        // forbidden (§25.3); AXF and the GUI referees allow it, and pyffish drew
        // the game at the third occurrence.
        let (mut pos, mut f) =
            start("2ba1kb2/4a4/9/1N3C2p/5n3/3Nc1P2/r7P/4B2c1/4AC3/4KABR1 w - - 2 26");
        let c = &mut RuleMemo::new();
        play(&mut pos, &mut f, "e0d0 a3d3 d0e0 d3a3 e0d0 a3d3 d0e0 d3a3");
        // Red to move at the third occurrence, black completed it.
        assert_eq!(
            judge(&pos, &f, 0, CXA, TEXT, SIXTY, c),
            Some(HistoryScore::RuleWin),
            "by the CXA text black must vary: red wins"
        );
        assert_eq!(
            judge(&pos, &f, 0, AXF, STRICT, SIXTY, c),
            Some(HistoryScore::Draw)
        );
        // Played for red under a strict referee, a win only CXA gives is a draw:
        // the GUI will not award it.
        assert_eq!(
            judge(&pos, &f, 0, CXA, STRICT, SIXTY, c),
            Some(HistoryScore::Draw)
        );
        // Played for black, the CXA violation still counts against the engine.
        assert_eq!(
            judge(&pos, &f, 1, CXA, STRICT, SIXTY, c),
            Some(HistoryScore::RuleWin)
        );
    }

    #[test]
    fn strict_plays_on_through_a_two_fold_only_cxa_forbids() {
        // The cycle of game 7 above, inside the tree: black's 一將一殺 is forbidden
        // by CXA only. A two-fold of it is no loss for black, whose search plays on
        // to the third occurrence; a two-fold AXF forbids as well still is.
        let (mut pos, mut f) =
            start("2ba1kb2/4a4/9/1N3C2p/5n3/3Nc1P2/r7P/4B2c1/4AC3/4KABR1 w - - 2 26");
        let c = &mut RuleMemo::new();
        play(&mut pos, &mut f, "e0d0 a3d3 d0e0 d3a3 e0d0");
        // Black to move and the violator of the two-fold red completed, played
        // for black (even ply) inside the tree.
        assert_eq!(judge(&pos, &f, 6, CXA, TEXT, SIXTY, c), None);
        assert_eq!(judge(&pos, &f, 6, CXA, STRICT, SIXTY, c), None);
        assert_eq!(
            judge(&pos, &f, 6, AXF, STRICT, SIXTY, c),
            Some(HistoryScore::Draw)
        );
        // Black completes the two-fold itself: red holds at least a draw by the
        // text; played for black under a strict referee, the search plays on.
        play(&mut pos, &mut f, "a3d3");
        assert_eq!(
            judge(&pos, &f, 7, CXA, TEXT, SIXTY, c),
            Some(HistoryScore::AtLeastDraw)
        );
        assert_eq!(judge(&pos, &f, 7, CXA, STRICT, SIXTY, c), None);
        // The third occurrence is a loss for black when the search plays black
        // (odd plies), wherever the root is.
        play(&mut pos, &mut f, "d0e0 d3a3");
        for ply in [1, 3, 11] {
            assert_eq!(
                judge(&pos, &f, ply, CXA, STRICT, SIXTY, c),
                Some(HistoryScore::RuleWin),
                "ply {ply}"
            );
        }
        // A perpetual check, which both rule sets forbid, is lost at the two-fold.
        let (mut pos, mut f) = start("4k4/9/9/9/9/9/9/9/9/R2K5 w");
        play(&mut pos, &mut f, "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8");
        assert_eq!(
            judge(&pos, &f, 6, CXA, STRICT, SIXTY, c),
            Some(HistoryScore::RuleLoss)
        );
    }

    #[test]
    fn sixty_move_rule() {
        let c = &mut RuleMemo::new();
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 120 80").unwrap();
        let f = RepetitionFilter::new();
        assert_eq!(
            judge(&pos, &f, 3, CXA, TEXT, SIXTY, c),
            Some(HistoryScore::Draw)
        );
        // No legal move at the limit still loses.
        let pos = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 120 80").unwrap();
        assert_eq!(
            judge(&pos, &f, 3, CXA, TEXT, SIXTY, c),
            Some(HistoryScore::Mated)
        );
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80").unwrap();
        assert_eq!(judge(&pos, &f, 3, CXA, TEXT, SIXTY, c), None);
        // Switched off (a GUI's `Sixty Move Rule false`), or another count.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 200 80").unwrap();
        assert_eq!(
            judge(&pos, &f, 3, CXA, TEXT, MoveLimit::Counted(0), c),
            None
        );
        assert_eq!(
            judge(&pos, &f, 3, CXA, TEXT, MoveLimit::Counted(201), c),
            None
        );
        assert_eq!(
            judge(&pos, &f, 3, CXA, TEXT, MoveLimit::Counted(200), c),
            Some(HistoryScore::Draw)
        );
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 50 80").unwrap();
        assert_eq!(
            judge(&pos, &f, 3, CXA, TEXT, MoveLimit::Counted(50), c),
            Some(HistoryScore::Draw)
        );
    }

    #[test]
    fn the_gui_move_limit() {
        let c = &mut RuleMemo::new();
        let f = RepetitionFilter::new();
        let fifty = MoveLimit::Gui(crate::rules::params::FIFTY_MOVE_PLIES);
        let at =
            |n: u32| Position::from_fen(&format!("4k4/9/9/9/9/9/9/9/R8/3K5 w - - {n} 80")).unwrap();
        assert_eq!(judge(&at(99), &f, 3, AXF, STRICT, fifty, c), None);
        assert_eq!(
            judge(&at(100), &f, 3, AXF, STRICT, fifty, c),
            Some(HistoryScore::Draw)
        );
        assert_eq!(judge(&at(100), &f, 3, AXF, STRICT, SIXTY, c), None);
        assert!(!MoveLimit::Gui(0).reached(&at(200)));
    }

    #[test]
    fn init_counts_history() {
        let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w").unwrap();
        for m in "a1a2 e9f9 a2a1 f9e9".split_whitespace() {
            pos.make_move(m.parse().unwrap());
        }
        let mut f = RepetitionFilter::new();
        f.init(&pos);
        assert!(f.maybe_repeated(pos.key()));
    }

    #[test]
    fn names() {
        for r in [CXA, AXF, RepetitionRules::AllDraws] {
            assert_eq!(r.to_string().parse(), Ok(r));
        }
        assert_eq!(RepetitionRules::default(), CXA);
    }
}
