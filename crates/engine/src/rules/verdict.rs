//! Cycle verdicts: each side's pattern over a repetition (§24.9–24.14) and who must
//! vary (§25, §26.8; the AXF rows).
//!
//! The CXA verdict is [`CXA_TABLE`]: one row per article, tried in order, the first
//! row that applies decides. Where the text is terse the row documents the reading.

use super::classify::{Label, MoveClass};
use super::ruleset::RuleSet;
use super::threat::ChaseKind;
use crate::core::{Bitboard, Color, Square};
use std::fmt;

/// One side's moves over a cycle, summarised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pattern {
    /// Moves judged.
    pub moves: u32,
    /// Moves labelled 將.
    pub checks: u32,
    /// Moves labelled 殺.
    pub mates: u32,
    /// Moves labelled 捉.
    pub chases: u32,
    /// 捉 moves that chase some piece by a single piece (捉車/捉無根子, the §26.8.1
    /// kinds); a move that also chases jointly counts here, by its heaviest effect
    /// (§26.4).
    pub single_chases: u32,
    /// 捉 moves whose heaviest chase (single before joint) is of a rook.
    pub rook_chases: u32,
    /// Moves labelled 閒.
    pub idles: u32,
    /// AXF: some enemy piece was newly chased by every one of the side's moves (the
    /// same piece, followed as it moves).
    pub same_piece_chased: bool,
}

impl Pattern {
    /// Adds one move's label.
    pub fn add(&mut self, class: &MoveClass) {
        self.moves += 1;
        match class.label() {
            Label::Check => self.checks += 1,
            Label::MateThreat => self.mates += 1,
            Label::Chase => {
                // A move that chases several pieces is judged by its heaviest chase
                // (§26.4): one by a single piece (捉車/捉無根子) before a joint one
                // (聯合捉), and it is a rook chase if that heaviest kind takes a rook.
                self.chases += 1;
                let single = class.single_chases();
                if single {
                    self.single_chases += 1;
                }
                if class.chases.iter().any(|t| {
                    t.kind.is_single() == single
                        && matches!(t.kind, ChaseKind::Rook | ChaseKind::JointRook)
                }) {
                    self.rook_chases += 1;
                }
            }
            Label::Idle => self.idles += 1,
        }
    }

    /// 長將: every move checks.
    pub fn perpetual_check(&self) -> bool {
        self.moves > 0 && self.checks == self.moves
    }

    /// CXA §24.13: every move is 將, 殺 or 捉 (and not all are 將 — that is 長將,
    /// which is ruled on its own).
    pub fn forbidden(&self) -> bool {
        self.moves > 0 && self.idles == 0
    }

    /// CXA §26.8.1: 長殺, 一將一殺, 長捉車, 長捉無根子, 一將(殺)一捉車(無根子),
    /// 一捉車一捉無根子 — every 捉 move of the pattern chases some piece by a single
    /// piece ([`MoveClass::single_chases`]).
    pub fn serious(&self) -> bool {
        self.forbidden()
            && !self.perpetual_check()
            && (self.mates > 0 || self.chases > 0)
            && self.single_chases == self.chases
    }

    /// 長捉車: only chases, every one of a rook by a single piece.
    pub fn perpetual_rook_chase(&self) -> bool {
        self.forbidden()
            && self.chases == self.moves
            && self.single_chases == self.chases
            && self.rook_chases == self.chases
    }

    /// 長捉無根子: only chases, every one by a single piece, not all of rooks.
    pub fn perpetual_unrooted_chase(&self) -> bool {
        self.forbidden() && self.chases == self.moves && self.single_chases == self.chases
    }

    /// Only chases, at least one of them joint (聯合捉).
    pub fn joint_chase(&self) -> bool {
        self.forbidden() && self.chases == self.moves && self.single_chases < self.chases
    }

    /// The pattern's name under `rules`, e.g. 長將, 一將一捉, 長捉車, 閒
    /// ([`Policy::pattern_name`](super::policy::Policy::pattern_name)).
    pub fn name(&self, rules: RuleSet) -> String {
        (rules.policy().pattern_name)(self)
    }
}

/// The AXF name of a pattern: 長將, 長捉 (one piece chased by every move), 閒 (every
/// move idle) or 允許 (allowed), "—" for no move.
pub fn axf_name(p: &Pattern) -> String {
    let name = if p.moves == 0 {
        "—"
    } else if p.perpetual_check() {
        "長將"
    } else if p.same_piece_chased {
        "長捉"
    } else if p.idles == p.moves {
        "閒"
    } else {
        "允許"
    };
    name.to_string()
}

/// The CXA name of a pattern (§24.9–24.14): 長將, 長殺, 長捉車, 長捉無根子, 長聯合捉,
/// 一將一殺, 一將一捉車, ... for forbidden patterns; 閒, 一捉一閒, 數將一閒, ... for
/// allowed ones; "—" for no move.
pub fn cxa_name(p: &Pattern) -> String {
    if p.moves == 0 {
        return "—".to_string();
    }
    if p.perpetual_check() {
        return "長將".to_string();
    }
    let chase = || {
        if p.chases == 0 {
            ""
        } else if p.single_chases < p.chases {
            "聯合捉"
        } else if p.rook_chases == p.chases {
            "捉車"
        } else if p.rook_chases > 0 {
            "捉車/捉無根子"
        } else {
            "捉無根子"
        }
    };
    if p.forbidden() {
        let kinds = [
            (p.checks > 0, "將"),
            (p.mates > 0, "殺"),
            (p.chases > 0, "捉"),
        ];
        let present: Vec<&str> = kinds.iter().filter(|k| k.0).map(|k| k.1).collect();
        if present.len() == 1 {
            return match present[0] {
                "殺" => "長殺".to_string(),
                _ => format!("長{}", chase()),
            };
        }
        let mut s = String::new();
        for k in &present {
            s.push('一');
            if *k == "捉" {
                s.push_str(chase());
            } else {
                s.push_str(k);
            }
        }
        return s;
    }
    if p.idles == p.moves {
        return "閒".to_string();
    }
    let mut s = String::new();
    for (n, k) in [(p.checks, "將"), (p.mates, "殺"), (p.chases, "捉")] {
        if n > 0 {
            s.push_str(if n == 1 { "一" } else { "數" });
            s.push_str(k);
        }
    }
    s.push_str("一閒");
    s
}

/// An article a ruling applies: a section of the CXA 2011 rules or a named AXF rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Article {
    /// A section of the CXA 2011 rules by number, e.g. `25.1` (cited as §25.1).
    Cxa(&'static str),
    /// An AXF rule by name, e.g. `AXF perpetual check`.
    Axf(&'static str),
}

impl Article {
    /// The article as JSON gives it: the section number (`25.1`) or the AXF name.
    pub fn code(self) -> &'static str {
        match self {
            Article::Cxa(s) | Article::Axf(s) => s,
        }
    }
}

impl fmt::Display for Article {
    /// `§25.1`, or the AXF rule's name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Article::Cxa(s) => write!(f, "§{s}"),
            Article::Axf(s) => f.write_str(s),
        }
    }
}

impl serde::Serialize for Article {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// A rule as a verdict cites it: the articles and the rule in words (with our
/// reading where the text is terse).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clause {
    /// The articles applied.
    pub articles: &'static [Article],
    /// The rule in words.
    pub reason: &'static str,
}

/// The ruling on a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The side whose moves are forbidden and must vary (the violator); `None` for
    /// a draw.
    pub must_vary: Option<Color>,
    /// The violator loses at once instead of being asked to vary (§23.5.1:
    /// unilateral 長將 under CXA).
    pub immediate: bool,
    /// The rule applied.
    pub clause: &'static Clause,
}

impl Verdict {
    /// The side that loses by this verdict with `to_move` to play: the violator if
    /// it has just completed the cycle (it did not vary, §23.5.2.2) or if its
    /// violation loses at once (§23.5.1); `None` for a draw, or while the violator
    /// is to move and may still vary.
    pub fn loser(&self, to_move: Color) -> Option<Color> {
        self.must_vary.filter(|&v| self.immediate || v != to_move)
    }

    /// The side that has lost at this repetition under `referee`: [`Verdict::loser`]
    /// by the text, the violator whoever is to move under a strict referee.
    pub fn loser_under(&self, to_move: Color, referee: super::Referee) -> Option<Color> {
        match referee {
            super::Referee::Text => self.loser(to_move),
            super::Referee::Strict => self.must_vary,
        }
    }
}

/// Which of the two sides a row names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Varies {
    /// Nobody: a draw.
    Nobody,
    /// The side for which the predicate held with (this side, other side) order.
    ThisSide,
}

/// One row of the CXA table: when `applies(this, other)` holds for some side (tried
/// red first), the ruling is `varies` with respect to that side.
pub struct Row {
    /// The rule the row applies.
    pub clause: Clause,
    applies: fn(&Pattern, &Pattern) -> bool,
    varies: Varies,
    immediate: bool,
}

/// The CXA 2011 verdict table (§23.5, §25, §26.8), tried top to bottom; the last
/// row always applies.
pub static CXA_TABLE: [Row; 8] = [
    Row {
        clause: Clause {
            articles: &[Article::Cxa("25.1"), Article::Cxa("23.5.1")],
            reason: "unilateral perpetual check (單方長將) is never allowed and loses at once",
        },
        applies: |a, b| a.perpetual_check() && !b.perpetual_check(),
        varies: Varies::ThisSide,
        immediate: true,
    },
    Row {
        clause: Clause {
            articles: &[Article::Cxa("25.1"), Article::Cxa("26.8.4")],
            reason: "both sides check perpetually: §25.1 forbids only unilateral 長將 and \
                     長將 is not among the §26.8.1–26.8.3 patterns, so the game is drawn",
        },
        applies: |a, b| a.perpetual_check() && b.perpetual_check(),
        varies: Varies::Nobody,
        immediate: false,
    },
    Row {
        clause: Clause {
            articles: &[Article::Cxa("25.2"), Article::Cxa("23.5.2.1")],
            reason: "both sides play allowed moves (允許著法): drawn if neither varies",
        },
        applies: |a, b| !a.forbidden() && !b.forbidden(),
        varies: Varies::Nobody,
        immediate: false,
    },
    Row {
        clause: Clause {
            articles: &[Article::Cxa("25.3"), Article::Cxa("23.5.2.2")],
            reason: "one side plays forbidden moves (禁止著法), the other allowed ones: the \
                     former must vary",
        },
        applies: |a, b| a.forbidden() && !b.forbidden(),
        varies: Varies::ThisSide,
        immediate: false,
    },
    Row {
        clause: Clause {
            articles: &[Article::Cxa("26.8.2")],
            reason: "both forbidden: 長捉車 by one side against 聯合捉車 by the other — the \
                     former must vary",
        },
        applies: |a, b| a.perpetual_rook_chase() && b.joint_chase() && b.rook_chases > 0,
        varies: Varies::ThisSide,
        immediate: false,
    },
    Row {
        clause: Clause {
            articles: &[Article::Cxa("26.8.3")],
            reason: "both forbidden: 長捉無根子 by one side against 聯合捉 of an unrooted \
                     piece by the other — the former must vary",
        },
        applies: |a, b| a.perpetual_unrooted_chase() && b.joint_chase(),
        varies: Varies::ThisSide,
        immediate: false,
    },
    Row {
        clause: Clause {
            articles: &[Article::Cxa("26.8.1")],
            reason: "both forbidden: one side alone plays a §26.8.1 pattern (長殺, 一將一殺, \
                     長捉車, 長捉無根子, 一將(殺)一捉車(無根子), 一捉車一捉無根子) — it must vary. \
                     Reading: 單方 = only one side plays such a pattern; the other side's \
                     forbidden pattern is a lesser one (a 聯合捉 of some kind)",
        },
        applies: |a, b| a.serious() && !b.serious(),
        varies: Varies::ThisSide,
        immediate: false,
    },
    Row {
        clause: Clause {
            articles: &[Article::Cxa("26.8.4")],
            reason: "both forbidden, none of §26.8.1–26.8.3 singles out one side: drawn if \
                     neither varies",
        },
        applies: |_, _| true,
        varies: Varies::Nobody,
        immediate: false,
    },
];

/// The CXA 2011 ruling for patterns `red` and `black` ([`CXA_TABLE`]).
pub fn cxa(red: &Pattern, black: &Pattern) -> Verdict {
    let sides = [(Color::Red, red, black), (Color::Black, black, red)];
    let (row, side) = CXA_TABLE
        .iter()
        .find_map(|row| {
            sides
                .iter()
                .find(|(_, a, b)| (row.applies)(a, b))
                .map(|&(side, _, _)| (row, side))
        })
        .unwrap_or((&CXA_TABLE[CXA_TABLE.len() - 1], Color::Red));
    Verdict {
        must_vary: match row.varies {
            Varies::Nobody => None,
            Varies::ThisSide => Some(side),
        },
        immediate: row.immediate,
        clause: &row.clause,
    }
}

/// One AXF violation, in order of severity.
pub struct AxfRow {
    /// A side committing the violation alone must vary.
    pub violation: Clause,
    /// Both sides commit it: a draw.
    pub mutual: Clause,
    applies: fn(&Pattern) -> bool,
}

/// The AXF violations, most severe first: a side committing one the other does not
/// must vary; both committing the same one is a draw; neither is a draw
/// ([`AXF_ALLOWED`]).
pub static AXF_TABLE: [AxfRow; 2] = [
    AxfRow {
        violation: Clause {
            articles: &[Article::Axf("AXF perpetual check")],
            reason: "perpetual check (長將) is forbidden and outranks a chase",
        },
        mutual: Clause {
            articles: &[
                Article::Axf("AXF perpetual check"),
                Article::Axf("AXF mutual"),
            ],
            reason: AXF_MUTUAL,
        },
        applies: Pattern::perpetual_check,
    },
    AxfRow {
        violation: Clause {
            articles: &[Article::Axf("AXF perpetual chase")],
            reason: "perpetually chasing the same piece (長捉) is forbidden",
        },
        mutual: Clause {
            articles: &[
                Article::Axf("AXF perpetual chase"),
                Article::Axf("AXF mutual"),
            ],
            reason: AXF_MUTUAL,
        },
        applies: |p| p.same_piece_chased,
    },
];

const AXF_MUTUAL: &str = "both sides commit the same violation: draw";

/// AXF: neither side commits a violation.
pub static AXF_ALLOWED: Clause = Clause {
    articles: &[Article::Axf("AXF allowed")],
    reason: "neither side checks or chases one piece perpetually: draw",
};

/// The AXF ruling for patterns `red` and `black` ([`AXF_TABLE`]).
pub fn axf(red: &Pattern, black: &Pattern) -> Verdict {
    for row in AXF_TABLE.iter() {
        match ((row.applies)(red), (row.applies)(black)) {
            (true, true) => {
                return Verdict {
                    must_vary: None,
                    immediate: false,
                    clause: &row.mutual,
                };
            }
            (r, b) if r != b => {
                return Verdict {
                    must_vary: Some(if r { Color::Red } else { Color::Black }),
                    immediate: false,
                    clause: &row.violation,
                };
            }
            _ => {}
        }
    }
    Verdict {
        must_vary: None,
        immediate: false,
        clause: &AXF_ALLOWED,
    }
}

/// Follows piece identities along a cycle (AXF needs "the same piece", which may
/// move between the chases).
#[derive(Clone, Debug)]
pub struct Identities {
    ids: [u8; 90],
    /// Per side: the ids chased by every move so far (`None` before the first).
    common: [Option<u64>; 2],
}

impl Identities {
    /// Numbers the pieces on `occupied`.
    pub fn new(occupied: Bitboard) -> Identities {
        let mut ids = [u8::MAX; 90];
        for (i, sq) in occupied.into_iter().enumerate() {
            ids[sq.index()] = i as u8;
        }
        Identities {
            ids,
            common: [None, None],
        }
    }

    /// Records a move of `side` from `from` to `to` that newly chased `victims`
    /// (squares after the move).
    pub fn record(&mut self, side: Color, from: Square, to: Square, victims: Bitboard) {
        self.ids[to.index()] = self.ids[from.index()];
        self.ids[from.index()] = u8::MAX;
        let mut set = 0u64;
        for v in victims {
            let id = self.ids[v.index()];
            if id < 64 {
                set |= 1 << id;
            }
        }
        let c = &mut self.common[side.index()];
        *c = Some(c.map_or(set, |old| old & set));
    }

    /// True if some piece was chased by every recorded move of `side`.
    pub fn same_piece(&self, side: Color) -> bool {
        self.common[side.index()].is_some_and(|s| s != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(v: &Verdict) -> Vec<&'static str> {
        v.clause.articles.iter().map(|a| a.code()).collect()
    }

    fn pat(checks: u32, mates: u32, chases: u32, single: u32, rook: u32, idles: u32) -> Pattern {
        Pattern {
            moves: checks + mates + chases + idles,
            checks,
            mates,
            chases,
            single_chases: single,
            rook_chases: rook,
            idles,
            same_piece_chased: false,
        }
    }

    #[test]
    fn cxa_rows() {
        let idle = pat(0, 0, 0, 0, 0, 2);
        let check = pat(2, 0, 0, 0, 0, 0);
        let mate = pat(0, 2, 0, 0, 0, 0);
        let rook = pat(0, 0, 2, 2, 2, 0);
        let joint_rook = pat(0, 0, 2, 0, 2, 0);
        let joint = pat(0, 0, 2, 0, 0, 0);
        let unrooted = pat(0, 0, 2, 2, 0, 0);
        let check_chase = pat(1, 0, 1, 1, 0, 0);
        let check_joint = pat(1, 0, 1, 0, 0, 0);
        let one_check = pat(1, 0, 0, 0, 0, 1);

        let v = cxa(&check, &idle);
        assert_eq!((v.must_vary, v.immediate), (Some(Color::Red), true));
        assert_eq!(codes(&v), ["25.1", "23.5.1"]);
        let v = cxa(&rook, &check);
        assert_eq!((v.must_vary, v.immediate), (Some(Color::Black), true));
        assert_eq!(cxa(&check, &check).must_vary, None);
        assert_eq!(cxa(&idle, &one_check).must_vary, None);
        assert_eq!(cxa(&idle, &mate).must_vary, Some(Color::Black));
        assert_eq!(codes(&cxa(&check_chase, &idle)), ["25.3", "23.5.2.2"]);
        // §26.8.2 and §26.8.3.
        let v = cxa(&rook, &joint_rook);
        assert_eq!((v.must_vary, codes(&v)), (Some(Color::Red), vec!["26.8.2"]));
        let v = cxa(&joint, &unrooted);
        assert_eq!(
            (v.must_vary, codes(&v)),
            (Some(Color::Black), vec!["26.8.3"])
        );
        // §26.8.1: 長殺 against a joint chase; 一將一捉 against a joint chase.
        assert_eq!(codes(&cxa(&joint, &mate)), ["26.8.1"]);
        assert_eq!(cxa(&joint, &mate).must_vary, Some(Color::Black));
        assert_eq!(cxa(&check_chase, &check_joint).must_vary, Some(Color::Red));
        // §26.8.4: both serious, or both lesser.
        assert_eq!(cxa(&mate, &rook).must_vary, None);
        assert_eq!(codes(&cxa(&mate, &rook)), ["26.8.4"]);
        assert_eq!(cxa(&joint, &check_joint).must_vary, None);
    }

    /// A 捉 move with several chases counts by its heaviest (§26.4): a single chase
    /// of an unrooted piece plus a joint chase of a rook is a 捉無根子 move — not a
    /// joint one (`all` would say so) and not a rook chase (the old count said so,
    /// naming the pattern 長捉車).
    #[test]
    fn a_chase_move_counts_by_its_heaviest_chase() {
        use super::super::threat::{Means, Threat};
        use crate::core::{Move, Square};
        let threat = |victim, kind| Threat {
            victim,
            attacker: Square::A0,
            kind,
            means: Means::Capture,
            gain: 1,
        };
        let class = MoveClass {
            mv: Move::new(Square::A0, Square::A1),
            side: Color::Red,
            check: false,
            evasion: false,
            mate_threat: false,
            chases: vec![
                threat(Square::E6, ChaseKind::Unrooted),
                threat(Square::E9, ChaseKind::JointRook),
            ],
            exemption: None,
            rules: RuleSet::Cxa2011,
        };
        assert!(class.single_chases());
        let mut p = Pattern::default();
        p.add(&class);
        p.add(&class);
        assert_eq!((p.chases, p.single_chases, p.rook_chases), (2, 2, 0));
        assert!(p.serious() && p.perpetual_unrooted_chase() && !p.perpetual_rook_chase());
        assert_eq!(p.name(RuleSet::Cxa2011), "長捉無根子");
        // Against a joint chase of a rook: §26.8.3, this side must vary.
        let joint = pat(0, 0, 2, 0, 2, 0);
        let v = cxa(&p, &joint);
        assert_eq!((v.must_vary, codes(&v)), (Some(Color::Red), vec!["26.8.3"]));
        // Joint chases alone, of a rook: a joint rook chase.
        let mut q = Pattern::default();
        let joint_only = MoveClass {
            chases: vec![
                threat(Square::E6, ChaseKind::Joint),
                threat(Square::E9, ChaseKind::JointRook),
            ],
            ..class
        };
        q.add(&joint_only);
        assert_eq!((q.single_chases, q.rook_chases), (0, 1));
    }

    #[test]
    fn pattern_names() {
        let r = RuleSet::Cxa2011;
        assert_eq!(pat(2, 0, 0, 0, 0, 0).name(r), "長將");
        assert_eq!(pat(0, 2, 0, 0, 0, 0).name(r), "長殺");
        assert_eq!(pat(0, 0, 2, 2, 2, 0).name(r), "長捉車");
        assert_eq!(pat(0, 0, 2, 2, 1, 0).name(r), "長捉車/捉無根子");
        assert_eq!(pat(1, 1, 0, 0, 0, 0).name(r), "一將一殺");
        assert_eq!(pat(1, 0, 1, 1, 0, 0).name(r), "一將一捉無根子");
        assert_eq!(pat(0, 0, 0, 0, 0, 2).name(r), "閒");
        assert_eq!(pat(0, 0, 1, 1, 0, 1).name(r), "一捉一閒");
    }

    #[test]
    fn axf_rows() {
        let mut chase = pat(0, 0, 2, 2, 0, 0);
        chase.same_piece_chased = true;
        let check = pat(2, 0, 0, 0, 0, 0);
        let idle = pat(0, 0, 0, 0, 0, 2);
        assert_eq!(axf(&chase, &idle).must_vary, Some(Color::Red));
        assert_eq!(axf(&chase, &check).must_vary, Some(Color::Black));
        assert_eq!(axf(&chase, &chase).must_vary, None);
        assert_eq!(axf(&check, &check).must_vary, None);
        assert_eq!(axf(&idle, &idle).must_vary, None);
    }
}
