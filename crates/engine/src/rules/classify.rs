//! Move classification (§24, §26): what one move of a cycle is — 將, 殺, 捉 or 閒 —
//! and [`ClassCache`], the memo that spares classifying a move twice.
//!
//! A move is judged on the position before it (B, the mover X to play) and after it
//! (A, the other side Y to play, X imagined to move again as after a pass):
//!
//! * **將** (§24.1): the move checks.
//! * **殺** (§24.2, CXA only): after a pass by Y, X would mate by consecutive checks
//!   (a bounded checks-only search, [`super::mate`]).
//! * **捉** (§24.3): X threatens in A to win a piece it did not threaten in B — by any
//!   of its pieces, so discovered and unmasked chases count, as do king and pawn
//!   moves that make another piece chase (§26.1.1) — see [`super::threat`]. Under
//!   CXA also: a check after which every answer leaves a winning capture
//!   (連續將軍得子/抽吃, §24.3); and a same-kind offer whose acceptance is mated at once
//!   (§26.9). A capture after which the capturer is mated at once is no gain
//!   (§24.3).
//! * **閒** (§24.8): anything else (兌, 獻, 攔, 跟 included).
//!
//! Special clauses: a king move that answers a check is 閒 even if it creates a chase
//! or a mate threat (§26.1.2); another piece answering a check that creates a *new*
//! 捉 or 殺 is judged so (§26.1.2, §26.3) — a threat that already stood behind the
//! check is not new, and a mate threat the checker brought on itself by checking
//! (自斃, §24.18) is the checker's responsibility (§26.3). Several effects at once:
//! the heaviest counts (§26.4): 將 > 殺 > 捉 > 閒.

use super::exchange::legal;
use super::mate::MateProbe;
use super::params;
use super::ruleset::RuleSet;
use super::threat::{self, ChaseKind, Means, Scope, Threat};
use crate::core::{Bitboard, Color, Move, PieceKind, Placement, Position, Square, State};
use std::collections::HashMap;
use std::fmt;

/// The label of one move (§24.1–24.3, §24.8), heaviest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Label {
    /// 將: the move checks.
    Check,
    /// 殺: the move threatens mate by consecutive checks.
    MateThreat,
    /// 捉: the move threatens to win material.
    Chase,
    /// 閒: none of the above.
    Idle,
}

impl Label {
    /// The Chinese term (將, 殺, 捉, 閒), as used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Label::Check => "將",
            Label::MateThreat => "殺",
            Label::Chase => "捉",
            Label::Idle => "閒",
        }
    }
}

impl fmt::Display for Label {
    /// The Chinese term.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a move that looked like an attack was ruled 閒 (or not an attack).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exemption {
    /// §26.1.2: a king move answering a check.
    KingEvasion,
    /// §26.3: the mate threat was brought on by the opponent's own check (自斃).
    SelfInflicted,
    /// §26.2: a defending side with a single attacking piece; the chases of
    /// advisors and elephants that come with its moves are 閒.
    LoneDefender,
}

/// Everything the rules need to know about one move of a cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveClass {
    /// The move.
    pub mv: Move,
    /// Who played it.
    pub side: Color,
    /// It checks (將).
    pub check: bool,
    /// It answered a check.
    pub evasion: bool,
    /// It threatens mate (殺; CXA only).
    pub mate_threat: bool,
    /// Pieces it newly threatens to win (捉), by their squares after the move.
    pub chases: Vec<Threat>,
    /// A clause that discounted an attack, if any.
    pub exemption: Option<Exemption>,
    /// The rule set it was judged under.
    pub rules: RuleSet,
}

impl MoveClass {
    /// The label under the rule set (heaviest effect, §26.4).
    pub fn label(&self) -> Label {
        if self.check {
            Label::Check
        } else if self.mate_threat {
            Label::MateThreat
        } else if !self.chases.is_empty() {
            Label::Chase
        } else {
            Label::Idle
        }
    }

    /// True if some chase of this move is by a single piece (捉車 or 捉無根子, the
    /// §26.8.1 kinds). A move with several effects is judged by the heaviest
    /// (§26.4), so a move that chases one piece singly and another jointly is a
    /// single chase: *some*, not *every*.
    pub fn single_chases(&self) -> bool {
        self.chases.iter().any(|t| t.kind.is_single())
    }

    /// The chases that count under the rule set: those of a 捉 move, and those of
    /// a checking move where checks chase too
    /// ([`Policy::checks_chase`](super::policy::Policy::checks_chase)).
    pub fn counted_chases(&self) -> &[Threat] {
        match self.label() {
            Label::Chase => &self.chases,
            Label::Check if self.rules.policy().checks_chase => &self.chases,
            _ => &[],
        }
    }

    /// Squares (after the move) of the pieces it counts as chasing.
    pub fn victims(&self) -> Bitboard {
        self.counted_chases().iter().map(|t| t.victim).collect()
    }

    /// A one-line reason citing the article.
    pub fn why(&self) -> String {
        let cites = self.rules.policy().cites_articles;
        let cite = |text: &str, art: &str| {
            if cites {
                format!("{text} ({art})")
            } else {
                text.to_string()
            }
        };
        let victims = |ts: &[Threat]| {
            ts.iter()
                .map(|t| {
                    let how = match (t.means, cites) {
                        (Means::Capture, _) => "",
                        (Means::Offer, _) => ", §26.9 offer",
                        (Means::Combination, true) => ", §24.3 by check",
                        (Means::Combination, false) => ", after a check",
                    };
                    format!("{} {}{}", t.kind.name(), t.victim, how)
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self.label() {
            Label::Check => {
                if self.chases.is_empty() {
                    cite("checks", "§24.1")
                } else if cites {
                    format!(
                        "checks (§24.1); also threatens {} — the heavier effect counts (§26.4)",
                        victims(&self.chases)
                    )
                } else {
                    format!("checks and threatens {}", victims(&self.chases))
                }
            }
            Label::MateThreat => {
                if self.evasion {
                    cite(
                        "answers a check and creates a new mate threat",
                        "§24.2, §26.1.2, §26.3",
                    )
                } else {
                    cite("threatens mate by consecutive checks", "§24.2")
                }
            }
            Label::Chase => cite(&format!("threatens {}", victims(&self.chases)), "§24.3"),
            Label::Idle => match self.exemption {
                Some(Exemption::KingEvasion) => cite(
                    "king answers a check: any chase or threat it makes is 閒",
                    "§26.1.2",
                ),
                Some(Exemption::LoneDefender) => cite(
                    "the defending side's only attacking piece; chasing advisors or \
                     elephants on the way is 閒",
                    "§26.2",
                ),
                Some(Exemption::SelfInflicted) => cite(
                    "answers a check; the mate threat stems from the checker's 自斃",
                    "§24.18, §26.3",
                ),
                None if cites => "no check, mate threat or new chase (§24.8)".to_string(),
                None => "no check and no new chase".to_string(),
            },
        }
    }
}

/// Classifies the legal move `m` in `pos` (the position before it) under `rules`.
/// `pos` is left as it was.
pub fn classify(pos: &mut Position, m: Move, rules: RuleSet) -> MoveClass {
    let side = pos.side_to_move();
    let mover = pos.piece_at(m.from()).expect("a piece to move").kind;
    let check = pos.gives_check(m);
    let evasion = pos.in_check();
    let king_evasion = evasion && mover == PieceKind::King;
    let policy = rules.policy();

    // §26.6: a pawn that has just crossed the river is no target for the move that
    // answers its crossing.
    let mut excluded = Bitboard::EMPTY;
    if policy.just_crossed_pawn_exempt
        && let Some(last) = pos.last_move().filter(|l| l.is_some())
    {
        let to = last.to();
        if let Some(p) = pos.piece_at(to)
            && p.kind == PieceKind::Pawn
            && !params::crossed(p.color, last.from())
            && params::crossed(p.color, to)
        {
            excluded |= to.into();
        }
    }
    let before_scope = Scope {
        ignore: pos.checkers(),
        excluded,
        ..Scope::new(rules)
    };
    let mut after_scope = Scope {
        excluded,
        ..Scope::new(rules)
    };
    let board_before = pos.placement().clone();
    let before = threat::threats(&board_before, side, &before_scope);
    // Is the opponent pressing us (its last move checked or newly chased)? Then
    // our chases that only undermine a protection are counter-play, not chases
    // ([`Policy::counterplay_exempt`](super::policy::Policy::counterplay_exempt),
    // see `new_attack`).
    let pressed = policy.counterplay_exempt && opponent_pressing(pos, rules);
    let before_offers = if policy.offers_can_chase && !evasion {
        mated_offers(pos, side, false)
    } else {
        Vec::new()
    };

    pos.make_move(m);
    after_scope.ignore = pos.checkers();
    let mut chases: Vec<Threat> = threat::threats(pos.placement(), side, &after_scope)
        .into_iter()
        .filter(|t| !before.iter().any(|b| b.victim == t.victim))
        .collect();
    if pressed {
        chases.retain(|t| new_attack(&board_before, t, m, before_scope.ignore));
    }
    let mut mate_threat = false;
    let mut exemption = None;
    if !check {
        if policy.mated_capture_is_no_chase {
            // §24.3: a capture after which the capturer is mated at once wins nothing.
            chases.retain(|t| !capture_is_mated(pos, t));
        }
        if policy.offers_can_chase {
            // §26.9: an offer whose acceptance is mated at once.
            for t in mated_offers(pos, side, true) {
                if !before_offers
                    .iter()
                    .any(|b| (b.attacker, b.victim) == (t.attacker, t.victim))
                    && !chases.iter().any(|c| c.victim == t.victim)
                {
                    chases.push(t);
                }
            }
        }
        if policy.mate_threats && !king_evasion {
            mate_threat = probe().threat(pos);
            if mate_threat && evasion && !new_mate_threat(pos) {
                mate_threat = false;
                exemption = Some(Exemption::SelfInflicted);
            }
        }
    }
    if policy.lone_defender_exempt && !chases.is_empty() && lone_defender(pos, side, &chases) {
        chases.clear();
        exemption = Some(Exemption::LoneDefender);
    }
    // §24.3 by check (CXA only, [`Policy::chases_by_check`]): only for a move that
    // is not already an attack and is not a king or pawn move (§26.1, §26.7).
    if policy.chases_by_check
        && !check
        && !mate_threat
        && !king_evasion
        && chases.is_empty()
        && !matches!(mover, PieceKind::King | PieceKind::Pawn)
    {
        chases = combinations(pos, side, rules);
        if !chases.is_empty() {
            pos.unmake_move();
            let old = if evasion {
                // §26.3: what a king step answering the same check also leaves
                // standing was brought about by the check, not by this answer.
                after_king_steps(pos, |p| combinations(p, side, rules))
            } else {
                combinations_to_move(pos, side, rules)
            };
            pos.make_move(m);
            chases.retain(|t| !old.iter().any(|o| o.victim == t.victim));
        }
    }
    pos.unmake_move();

    if king_evasion && (mate_threat || !chases.is_empty()) {
        mate_threat = false;
        chases.clear();
        exemption = Some(Exemption::KingEvasion);
    }
    MoveClass {
        mv: m,
        side,
        check,
        evasion,
        mate_threat,
        chases,
        exemption,
        rules,
    }
}

/// Memo of move classifications, keyed by the two positions before the move, the
/// move and the rule set (a classification looks back one ply, for §26.1.2). It
/// holds at most [`params::CLASS_CACHE_ENTRIES`] entries and starts afresh when
/// full, so a search thread can keep one for its whole life.
#[derive(Default, Debug)]
pub struct ClassCache {
    map: HashMap<(u64, u64, Move, RuleSet), MoveClass>,
}

impl ClassCache {
    /// An empty cache.
    pub fn new() -> ClassCache {
        ClassCache::default()
    }

    /// Number of classifications held.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True if nothing is held.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    fn get(&self, key: &(u64, u64, Move, RuleSet)) -> Option<&MoveClass> {
        self.map.get(key)
    }

    fn insert(&mut self, key: (u64, u64, Move, RuleSet), class: MoveClass) {
        if self.map.len() >= params::CLASS_CACHE_ENTRIES {
            self.map.clear();
        }
        self.map.insert(key, class);
    }
}

/// The classification of `m`, played in `line` (the position before it), from
/// `cache` if there (the key is the previous position, this one, the move and the
/// rule set: a classification looks back one ply, for §26.1.2).
pub(super) fn classify_cached(
    line: &mut Position,
    m: Move,
    rules: RuleSet,
    cache: Option<&mut ClassCache>,
) -> MoveClass {
    let prev = line
        .history()
        .last()
        .map_or(0, |s: &State| s.key ^ u64::from(s.mv.raw()));
    let key = (prev, line.key(), m, rules);
    match cache {
        Some(cache) => match cache.get(&key) {
            Some(c) => c.clone(),
            None => {
                let c = classify(line, m, rules);
                cache.insert(key, c.clone());
                c
            }
        },
        None => classify(line, m, rules),
    }
}

/// True if the threat `t` (after move `m`) is a new attack: its capturing piece
/// could not legally take the victim before the move (the move brought the piece,
/// unmasked it, or freed it). Otherwise the move only undermined the victim's
/// protection.
fn new_attack(before: &Placement, t: &Threat, m: Move, ignore: Bitboard) -> bool {
    let origin = if t.attacker == m.to() {
        m.from()
    } else {
        t.attacker
    };
    !(before.pseudo_targets(origin).has(t.victim) && legal(before, origin, t.victim, ignore))
}

/// True if the side that just moved in `pos` checked or newly threatened a piece of
/// the side to move with that move.
fn opponent_pressing(pos: &mut Position, rules: RuleSet) -> bool {
    if pos.in_check() {
        return true;
    }
    let Some(last) = pos.last_move().filter(|l| l.is_some()) else {
        return false;
    };
    let them = !pos.side_to_move();
    let now = threat::threats(pos.placement(), them, &Scope::new(rules));
    if now.is_empty() {
        return false;
    }
    pos.unmake_move();
    let scope = Scope {
        ignore: pos.checkers(),
        ..Scope::new(rules)
    };
    let before = threat::threats(pos.placement(), them, &scope);
    pos.make_move(last);
    now.iter()
        .any(|t| !before.iter().any(|b| b.victim == t.victim))
}

fn probe() -> MateProbe {
    MateProbe::new(params::MATE_PROBE_DEPTH, params::MATE_PROBE_NODES)
}

fn immediate() -> MateProbe {
    MateProbe::new(params::IMMEDIATE_MATE_DEPTH, params::MATE_PROBE_NODES)
}

/// §24.3: `pos` has the victim's side to move (not in check); would the threatened
/// capture let it mate at once?
fn capture_is_mated(pos: &mut Position, t: &Threat) -> bool {
    if t.means != Means::Capture || pos.in_check() {
        return false;
    }
    pos.make_null();
    let capture = Move::new(t.attacker, t.victim);
    let mated = if pos.is_legal(capture) {
        pos.make_move(capture);
        let r = immediate().mates(pos);
        pos.unmake_move();
        r
    } else {
        false
    };
    pos.unmake_null();
    mated
}

/// §26.9: same-kind exchange offers by `side` that the other side cannot accept
/// without being mated at once. With `passed` the other side is to move in `pos`;
/// otherwise `side` is, and the question is asked as if it had passed.
fn mated_offers(pos: &mut Position, side: Color, passed: bool) -> Vec<Threat> {
    let mut out = Vec::new();
    if !passed {
        if pos.in_check() {
            return out;
        }
        pos.make_null();
    }
    if !pos.in_check() {
        let b = pos.placement().clone();
        let occ = b.occupied();
        for kind in [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon] {
            for a in b.pieces(side, kind) {
                for v in b.attackers(a, !side, occ) & b.pieces(!side, kind) {
                    if !b.pseudo_targets(a).has(v) {
                        continue;
                    }
                    let accept = Move::new(v, a);
                    if !pos.is_legal(accept) {
                        continue;
                    }
                    pos.make_move(accept);
                    let mated = immediate().mates(pos);
                    pos.unmake_move();
                    if mated {
                        out.push(Threat {
                            victim: v,
                            attacker: a,
                            kind: if kind == PieceKind::Rook {
                                ChaseKind::Rook
                            } else {
                                ChaseKind::Unrooted
                            },
                            means: Means::Offer,
                            gain: params::value(b.piece_at(v).expect("victim"), v),
                        });
                    }
                }
            }
        }
    }
    if !passed {
        pos.unmake_null();
    }
    out
}

/// §26.1.2/§26.3 for a non-king evasion that leaves a mate threat (`pos` is after
/// the evasion): the threat is new only if it did not already stand before the
/// opponent's check, and if the check did not bring it on itself — which we see
/// when a king step answering the same check leaves the threat standing too.
fn new_mate_threat(pos: &mut Position) -> bool {
    let evasion = pos.state().mv;
    pos.unmake_move();
    // Before the opponent's check: did we already threaten mate?
    let mut existed = false;
    if pos.game_ply() > 0 {
        let check_move = pos.state().mv;
        if check_move.is_some() {
            pos.unmake_move();
            existed = probe().threat(pos);
            pos.make_move(check_move);
        }
    }
    // 自斃: does a king step answering the check keep the threat too?
    let mut self_inflicted = false;
    if !existed {
        let ksq = pos.king_square(pos.side_to_move());
        let king_moves: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|k| k.from() == ksq)
            .collect();
        for k in king_moves {
            pos.make_move(k);
            let t = probe().threat(pos);
            pos.unmake_move();
            if t {
                self_inflicted = true;
                break;
            }
        }
    }
    pos.make_move(evasion);
    !existed && !self_inflicted
}

/// The attacking pieces of `side`: rooks, horses, cannons and crossed pawns.
fn attackers_count(pos: &Position, side: Color) -> u32 {
    let crossed = pos
        .pieces(side, PieceKind::Pawn)
        .into_iter()
        .filter(|&p| params::crossed(side, p))
        .count() as u32;
    (pos.pieces(side, PieceKind::Rook)
        | pos.pieces(side, PieceKind::Horse)
        | pos.pieces(side, PieceKind::Cannon))
    .count()
        + crossed
}

/// §26.2 (our reading): `side` defends — it has a single attacking piece against
/// several — and its chases (in `pos`, after the move) hit only advisors and
/// elephants. Whether the piece stands on "the key drawing point" is left to the
/// arbiter; the material test is what a program can check.
fn lone_defender(pos: &Position, side: Color, chases: &[Threat]) -> bool {
    attackers_count(pos, side) == 1
        && attackers_count(pos, !side) > 1
        && chases.iter().all(|t| {
            pos.piece_at(t.victim)
                .is_some_and(|p| matches!(p.kind, PieceKind::Advisor | PieceKind::Elephant))
        })
}

/// The union of `f` over the positions after each legal king step of the side to
/// move (`pos` is restored).
fn after_king_steps(
    pos: &mut Position,
    mut f: impl FnMut(&mut Position) -> Vec<Threat>,
) -> Vec<Threat> {
    let ksq = pos.king_square(pos.side_to_move());
    let steps: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|k| k.from() == ksq)
        .collect();
    let mut out = Vec::new();
    for k in steps {
        pos.make_move(k);
        out.extend(f(pos));
        pos.unmake_move();
    }
    out
}

/// §24.3 by check (`pos` after the move, the opponent to move, not in check):
/// were the opponent to pass, would `side` have a check after which every answer
/// leaves it a winning capture it does not have now?
fn combinations(pos: &mut Position, side: Color, rules: RuleSet) -> Vec<Threat> {
    if pos.in_check() {
        return Vec::new();
    }
    pos.make_null();
    let out = combinations_to_move(pos, side, rules);
    pos.unmake_null();
    out
}

/// As [`combinations`] with `side` to move in `pos`.
fn combinations_to_move(pos: &mut Position, side: Color, rules: RuleSet) -> Vec<Threat> {
    if pos.side_to_move() != side || pos.in_check() {
        return Vec::new();
    }
    // It really is our turn, now and after the check is answered: a same-kind
    // piece attacking back cannot take first. Whatever we could win at once does
    // not count as won by the combination.
    let on_move = Scope {
        on_move: true,
        ..Scope::new(rules)
    };
    let direct: Bitboard = threat::threats(pos.placement(), side, &on_move)
        .iter()
        .map(|t| t.victim)
        .collect();
    let mut out: Vec<Threat> = Vec::new();
    let checks: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&c| pos.piece_at(c.to()).is_none() && pos.gives_check(c))
        .collect();
    for c in checks {
        pos.make_move(c);
        let answers = pos.legal_moves();
        let mut won: Option<Threat> = None;
        let mut every = !answers.is_empty();
        for &r in answers.iter() {
            let lost = pos.piece_at(r.to()).map_or(0, |p| params::value(p, r.to()));
            pos.make_move(r);
            let best = threat::threats(pos.placement(), side, &on_move)
                .into_iter()
                .map(|t| Threat {
                    victim: mover_origin(t.victim, r),
                    gain: t.gain - lost,
                    ..t
                })
                .filter(|t| !direct.has(t.victim) && t.gain > 0)
                .max_by_key(|t| t.gain);
            pos.unmake_move();
            match best {
                Some(t) => {
                    if won.is_none_or(|w| t.gain < w.gain) {
                        won = Some(t);
                    }
                }
                None => {
                    every = false;
                    break;
                }
            }
        }
        pos.unmake_move();
        if every && let Some(w) = won {
            let victim = w.victim;
            if !out.iter().any(|o| o.victim == victim) {
                out.push(Threat {
                    victim,
                    attacker: c.from(),
                    kind: if pos
                        .piece_at(victim)
                        .is_some_and(|p| p.kind == PieceKind::Rook)
                    {
                        ChaseKind::Rook
                    } else {
                        ChaseKind::Unrooted
                    },
                    means: Means::Combination,
                    gain: w.gain,
                });
            }
        }
    }
    out
}

/// Where the piece now on `sq` stood before the answer `r` (it may have moved).
fn mover_origin(sq: Square, r: Move) -> Square {
    if r.to() == sq { r.from() } else { sq }
}
