//! Capture threats (the raw material of 捉, §24.3): which enemy pieces a side could
//! win if it were its turn, and how.
//!
//! A piece is *threatened* by side X when some piece of X other than the king and
//! the pawns (§26.1) can legally take it and come out ahead:
//!
//! * on the point itself, after the other side takes back with everything it has
//!   (SEE over legal captures only, so pinned and otherwise unable defenders are
//!   假根, §24.16), and
//! * counting what the capturer stops protecting or screening when it leaves its
//!   point (§26.5: a root or pinned piece that captures chases only when the trade
//!   is even or better; an even trade by such a piece counts, a losing one is 閒).
//!
//! Targets are every enemy piece but the king and the pawns still on their own side
//! of the river (§26.6). A pawn is a capturer only when its capture unmasks a check
//! by another piece (§26.7) or, under CXA, when it goes for a rook (§26.6: "主動送
//! 兵換車為捉"). Same-kind mutual attacks are exchange offers (兌, §24.4)
//! unless the other piece cannot take back; §26.9 turns an offer into a chase when
//! accepting it loses material.

use super::exchange::{self, legal, value_at};
use super::ruleset::RuleSet;
use crate::core::{Bitboard, Color, PieceKind, Placement, Square};
use std::fmt;

/// The kind of a chase, as §26.8 distinguishes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChaseKind {
    /// 捉車: a rook is won by one chasing piece.
    Rook,
    /// 捉無根子: another piece is won by one chasing piece (no root, a false root,
    /// or roots too weak for the chaser's value).
    Unrooted,
    /// 聯合捉車: a rook is won only by two or more pieces together (§24.17).
    JointRook,
    /// 聯合捉子: another piece is won only by two or more pieces together (少根子).
    Joint,
}

impl ChaseKind {
    /// True for chases by a single piece (the §26.8.1 kinds).
    pub fn is_single(self) -> bool {
        matches!(self, ChaseKind::Rook | ChaseKind::Unrooted)
    }

    /// The Chinese term.
    pub fn name(self) -> &'static str {
        match self {
            ChaseKind::Rook => "捉車",
            ChaseKind::Unrooted => "捉無根子",
            ChaseKind::JointRook => "聯合捉車",
            ChaseKind::Joint => "聯合捉子",
        }
    }
}

impl fmt::Display for ChaseKind {
    /// The Chinese term.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a threat would win material.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Means {
    /// A direct capture (alone or with other pieces joining the exchange).
    Capture,
    /// A same-kind exchange offer that the other side cannot accept without losing
    /// material (§26.9).
    Offer,
    /// A check after which every answer leaves a winning capture (§24.3 連續將軍得子,
    /// 抽吃).
    Combination,
}

/// One threatened enemy piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Threat {
    /// Where the threatened piece stands.
    pub victim: Square,
    /// The piece that would capture first (for a combination: the checking piece).
    pub attacker: Square,
    /// The §26.8 kind.
    pub kind: ChaseKind,
    /// How the material would be won.
    pub means: Means,
    /// Net material won on the rule scale ([`super::params`]).
    pub gain: i32,
}

/// Which rule set's notion of a threat, and what to leave out.
#[derive(Clone, Copy, Debug)]
pub struct Scope {
    /// The rule set.
    pub rules: RuleSet,
    /// Pieces whose attacks on a king are ignored when judging the legality of
    /// captures and recaptures: the pieces giving check right now. Threats that
    /// stand behind a check the mover must answer first still exist, and a piece is
    /// not unprotected merely because its side must first answer our check.
    pub ignore: Bitboard,
    /// Enemy pieces that are not targets (a pawn that has just crossed the river,
    /// §26.6).
    pub excluded: Bitboard,
    /// The threatening side really is to move. Normally threats are judged as if
    /// the side had been given a second move while the other side is to play, so a
    /// same-kind piece attacking back could take first (an exchange offer, 兌); with
    /// `on_move` it cannot.
    pub on_move: bool,
}

impl Scope {
    /// Plain scope: nothing ignored, nothing excluded.
    pub fn new(rules: RuleSet) -> Scope {
        Scope {
            rules,
            ignore: Bitboard::EMPTY,
            excluded: Bitboard::EMPTY,
            on_move: false,
        }
    }
}

/// Every enemy piece `side` threatens to win (at most one entry per victim, the
/// strongest kind).
pub fn threats(board: &Placement, side: Color, scope: &Scope) -> Vec<Threat> {
    // Exchanges are played out on a copy.
    let board = &mut board.clone();
    let them = !side;
    let mut out = Vec::new();
    let home_pawns = board.pieces(them, PieceKind::Pawn)
        & if them == Color::Red {
            Bitboard::RED_HALF
        } else {
            Bitboard::BLACK_HALF
        };
    let victims =
        board.color(them) - board.pieces(them, PieceKind::King) - home_pawns - scope.excluded;
    let occ = board.occupied();
    for v in victims {
        let atts = board.attackers(v, side, occ) - board.pieces(side, PieceKind::King);
        let mut best: Option<Threat> = None;
        for a in atts {
            if !legal(board, a, v, scope.ignore) {
                continue;
            }
            if let Some(t) = judge_capture(board, a, v, scope)
                && best.is_none_or(|b| (t.kind, -t.gain) < (b.kind, -b.gain))
            {
                best = Some(t);
            }
        }
        if let Some(t) = best {
            out.push(t);
        }
    }
    out
}

/// Whether the (legal) capture `a`x`v` is a winning threat, and of which kind.
fn judge_capture(board: &mut Placement, a: Square, v: Square, scope: &Scope) -> Option<Threat> {
    let attacker = board.piece_at(a).expect("attacker");
    let victim = board.piece_at(v).expect("victim");
    let rook = victim.kind == PieceKind::Rook;
    let policy = scope.rules.policy();
    if attacker.kind == PieceKind::Pawn
        && !(rook && policy.pawn_chases_rook)
        && !unmasks_check(board, a, v)
    {
        return None;
    }
    if !scope.on_move
        && attacker.kind == victim.kind
        && board.pseudo_targets(v).has(a)
        && legal(board, v, a, scope.ignore)
    {
        // 兌 (§24.4): the other piece can take first. §26.9: the offer is a chase
        // when accepting it loses material.
        if !policy.offers_can_chase {
            return None;
        }
        let loss = acceptance_loss(board, a, v, scope.ignore);
        return (loss > 0).then_some(Threat {
            victim: v,
            attacker: a,
            kind: if rook {
                ChaseKind::Rook
            } else {
                ChaseKind::Unrooted
            },
            means: Means::Offer,
            gain: loss,
        });
    }
    let o = exchange::worth(board, a, v, scope.ignore);
    if policy.even_exchange_is_offer
        && !scope.on_move
        && o.rooted
        && offers_even_exchange(board, v, scope)
    {
        // §26.10.2: a protected piece that can itself take a same-kind attacker in
        // an even exchange is offered an exchange (兌), not chased, even though
        // another piece (the rook) touches it too. Unprotected, it is chased
        // (§26.10.1), which the ordinary test finds.
        return None;
    }
    let value = value_at(board, v);
    let exposure = if policy.counts_exposure {
        o.exposure
    } else {
        0
    };
    let single = o.single.min(value - exposure);
    let joint = o.joint.min(value - exposure);
    let (kind, gain) = if single > 0 || (single == 0 && exposure > 0) {
        // single == 0 with exposure: §26.5, an even trade by a root or pinned piece.
        (
            if rook {
                ChaseKind::Rook
            } else {
                ChaseKind::Unrooted
            },
            single,
        )
    } else if joint > 0 && policy.joint_chases {
        (
            if rook {
                ChaseKind::JointRook
            } else {
                ChaseKind::Joint
            },
            joint,
        )
    } else {
        return None;
    };
    Some(Threat {
        victim: v,
        attacker: a,
        kind,
        means: Means::Capture,
        gain,
    })
}

/// §26.9: what the side of `v` loses by accepting the exchange offered by `a` (a
/// same-kind piece), i.e. by playing `v`x`a`: the best the offering side then
/// wins — taking back on `a`'s point, or taking a piece whose protection `v`
/// provided (counted as the increase of its exchange value) — less the piece won.
fn acceptance_loss(board: &mut Placement, a: Square, v: Square, ignore: Bitboard) -> i32 {
    let side = board.piece_at(a).expect("offering piece").color;
    let them = !side;
    let others: Vec<Square> =
        (board.color(them) - board.pieces(them, PieceKind::King) - Bitboard::from(v))
            .into_iter()
            .collect();
    let before: Vec<i32> = others
        .iter()
        .map(|&p| exchange::see(board, p, side, ignore))
        .collect();
    let won = value_at(board, a);
    let captured = board.move_piece(v, a);
    let mut best = exchange::see(board, a, side, ignore);
    for (&p, &b) in others.iter().zip(&before) {
        best = best.max(exchange::see(board, p, side, ignore) - b);
    }
    board.unmove_piece(v, a, captured);
    best - won
}

/// True if the piece on `v` can legally take a piece of the other side of its own
/// kind that attacks it, without losing material in the exchange that follows.
fn offers_even_exchange(board: &mut Placement, v: Square, scope: &Scope) -> bool {
    let victim = board.piece_at(v).expect("victim");
    let side = !victim.color;
    let same = board.attackers(v, side, board.occupied()) & board.pieces(side, victim.kind);
    for s in same {
        if !(board.pseudo_targets(v).has(s) && legal(board, v, s, scope.ignore)) {
            continue;
        }
        let won = value_at(board, s);
        let captured = board.move_piece(v, s);
        let back = exchange::see(board, s, side, scope.ignore);
        board.unmove_piece(v, s, captured);
        if won - back >= 0 {
            return true;
        }
    }
    false
}

/// §26.7: a pawn's capture counts only when it unmasks a check by another piece.
fn unmasks_check(board: &mut Placement, a: Square, v: Square) -> bool {
    let side = board.piece_at(a).expect("pawn").color;
    let captured = board.move_piece(a, v);
    let check = (board.king_attackers(board.king_square(!side), side, board.occupied())
        - Bitboard::from(v))
    .any();
    board.unmove_piece(a, v, captured);
    check
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Position;

    fn threats_of(fen: &str, side: Color, rules: RuleSet) -> Vec<(Square, ChaseKind)> {
        let pos = Position::from_fen(fen).unwrap();
        threats(pos.placement(), side, &Scope::new(rules))
            .into_iter()
            .map(|t| (t.victim, t.kind))
            .collect()
    }

    #[test]
    fn horse_on_rook_and_protected_cannon() {
        // Red horse d6 attacks the black rook on e8 (always a gain: 捉車) and the
        // cannon on c8, which the rook protects along the rank (an even trade).
        let t = threats_of(
            "3k5/2c1r4/9/3N5/9/9/9/9/9/4K4 w",
            Color::Red,
            RuleSet::Cxa2011,
        );
        assert_eq!(t, vec![(Square::E8, ChaseKind::Rook)]);
    }

    #[test]
    fn home_pawns_and_kings_are_no_targets() {
        // Red rook on e3 attacks a black pawn on e4 that has crossed, and the rook
        // on a5 a pawn on a6 still at home.
        let t = threats_of(
            "3k5/9/9/p8/R8/4p4/4R4/9/9/5K3 w",
            Color::Red,
            RuleSet::Cxa2011,
        );
        assert_eq!(t, vec![(Square::E4, ChaseKind::Unrooted)]);
    }

    #[test]
    fn same_kind_is_an_offer() {
        // Rook against rook on an open file: 兌, no threat.
        let t = threats_of(
            "5k3/9/9/4r4/9/9/4R4/9/9/3K5 w",
            Color::Red,
            RuleSet::Cxa2011,
        );
        assert!(t.is_empty());
        // The black horse cannot take back (its leg is blocked): a chase.
        let t = threats_of("3k5/9/9/3Pn4/2N6/9/9/9/9/4K4 w", Color::Red, RuleSet::Axf);
        assert!(t.contains(&(Square::E6, ChaseKind::Unrooted)));
    }
}
