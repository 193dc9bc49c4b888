//! [`Policy`]: every difference between the rule sets, in one table.
//!
//! The rest of the rules module is written once for both rule sets and asks the
//! policy wherever they part ways; [`RuleSet::policy`] gives the policy of a rule
//! set. Each field names the article it comes from: CXA 2011 sections (§) of the
//! Chinese Xiangqi Association's 2011 competition rules, and the Asian Xiangqi
//! Federation (AXF) rules as their diagrams and the AXF test suites read them.
//!
//! ```
//! use chuhan_engine::rules::RuleSet;
//! let (cxa, axf) = (RuleSet::Cxa2011.policy(), RuleSet::Axf.policy());
//! assert!(cxa.mate_threats && !axf.mate_threats); // 殺 is a CXA notion (§24.2)
//! assert!(!cxa.counts_capture_positions && axf.counts_capture_positions); // §23.2
//! ```

use super::ruleset::RuleSet;
use super::verdict::{self, Pattern, Verdict};

/// How a rule set counts repetitions, classifies moves and rules on cycles.
#[derive(Debug)]
pub struct Policy {
    /// Counting (§23.1–23.2): a position reached by a capture counts towards the
    /// three occurrences. CXA §23.2: no, "首著為吃子應予扣除"; AXF: yes, as the AXF
    /// test suites count.
    pub counts_capture_positions: bool,
    /// 殺 (§24.2, §24.10): a move that threatens mate by consecutive checks is an
    /// attack of its own, found by a checks-only mate probe after a pass; with it
    /// the self-inflicted (自斃) exemption of §24.18/§26.3. AXF knows no mate
    /// threats: such a move is 閒.
    pub mate_threats: bool,
    /// §24.3: a capture after which the capturer is mated at once wins nothing, so
    /// threatening it is no 捉. AXF: not considered.
    pub mated_capture_is_no_chase: bool,
    /// §24.3 "連續將軍得子" (and 抽吃): a move after which a check would leave every
    /// answer a winning capture is a chase (CXA 1999 diagram 3). AXF: a chase
    /// "threatens to capture a piece in the next move" (AXF common terms); a win
    /// that needs a check first is two moves away, so such a move is 閒 — as
    /// Fairy-Stockfish, Pikafish and orange-xiangqi rule (issue 23's differential
    /// run: 14 of 20 disagreements in 3,000 games were this class).
    pub chases_by_check: bool,
    /// §24.4 with §26.9: a same-kind exchange offer (兌) is a chase when accepting it
    /// loses material or is mated at once. AXF: an offer is never a chase.
    pub offers_can_chase: bool,
    /// §26.10.2: a protected piece that can itself trade evenly with a same-kind
    /// attacker is offered an exchange, not chased, whatever else touches it. AXF:
    /// the ordinary test decides.
    pub even_exchange_is_offer: bool,
    /// §26.5: a capturer that is the only root of another piece, or screens one,
    /// has what it leaves behind counted against the capture (an even trade then
    /// counts as 捉, a losing one as 閒). AXF: only the point itself counts.
    pub counts_exposure: bool,
    /// §24.17 with §24.15 (少根子): a piece won only by two or more attackers
    /// together is chased (聯合捉), a kind of its own in §26.8.2–26.8.3. AXF: a piece
    /// with a legal recapture is protected however many attackers it faces (AXF
    /// diagrams 29–31, 86–89).
    pub joint_chases: bool,
    /// §26.6: a pawn going for a rook chases ("主動送兵換車為捉"). AXF: a pawn's
    /// capture counts only when it unmasks a check (as §26.7 for both).
    pub pawn_chases_rook: bool,
    /// §26.6: a pawn that has just crossed the river is no target for the move that
    /// answers its crossing. AXF: it is a target at once.
    pub just_crossed_pawn_exempt: bool,
    /// §26.2 (material reading): a side defending with a single attacking piece
    /// against several plays 閒 when its moves chase only advisors or elephants.
    /// AXF: no such clause.
    pub lone_defender_exempt: bool,
    /// AXF diagrams 39–41 against the appendix diagram (H. G. Muller's reading): a
    /// threat that only undermines a protection is counter-play, not a chase, while
    /// the opponent is pressing (its last move checked or newly chased). CXA: a
    /// chase by undermining is a chase (§26.1.1, 1999 細則2 "從沒捉到捉").
    pub counterplay_exempt: bool,
    /// The chases of a checking move take part in the perpetual-chase test (AXF: one
    /// piece newly chased by every move of the side, checking moves included) and
    /// are reported. CXA §26.4: the heavier effect alone counts — a check that also
    /// chases is a check.
    pub checks_chase: bool,
    /// Reasons cite CXA articles (§). AXF reports carry none.
    pub cites_articles: bool,
    /// The ruling on a cycle from each side's pattern (red, black): the §25/§26.8
    /// table ([`verdict::CXA_TABLE`]) or the AXF list of violations, most severe
    /// first ([`verdict::AXF_TABLE`]).
    pub verdict: fn(&Pattern, &Pattern) -> Verdict,
    /// The name of a side's pattern: §24.9–24.14's 長將, 長殺, 長捉車, 一將一捉, 數捉一閒,
    /// ... under CXA; 長將, 長捉, 閒 or 允許 under AXF.
    pub pattern_name: fn(&Pattern) -> String,
}

/// The Chinese Xiangqi Association's 2011 rules.
pub static CXA2011: Policy = Policy {
    counts_capture_positions: false,
    mate_threats: true,
    mated_capture_is_no_chase: true,
    chases_by_check: true,
    offers_can_chase: true,
    even_exchange_is_offer: true,
    counts_exposure: true,
    joint_chases: true,
    pawn_chases_rook: true,
    just_crossed_pawn_exempt: true,
    lone_defender_exempt: true,
    counterplay_exempt: false,
    checks_chase: false,
    cites_articles: true,
    verdict: verdict::cxa,
    pattern_name: verdict::cxa_name,
};

/// The Asian Xiangqi Federation's rules.
pub static AXF: Policy = Policy {
    counts_capture_positions: true,
    mate_threats: false,
    mated_capture_is_no_chase: false,
    chases_by_check: false,
    offers_can_chase: false,
    even_exchange_is_offer: false,
    counts_exposure: false,
    joint_chases: false,
    pawn_chases_rook: false,
    just_crossed_pawn_exempt: false,
    lone_defender_exempt: false,
    counterplay_exempt: true,
    checks_chase: true,
    cites_articles: false,
    verdict: verdict::axf,
    pattern_name: verdict::axf_name,
};

impl RuleSet {
    /// The rule set's [`Policy`]: every way it differs from the other.
    pub fn policy(self) -> &'static Policy {
        match self {
            RuleSet::Cxa2011 => &CXA2011,
            RuleSet::Axf => &AXF,
        }
    }
}
