//! Static evaluation. The search evaluates with the neural net ([`nnue`]) whenever
//! one is loaded and `UseNNUE` is on, which is the default: the built-in net
//! `nets/chuhan.nnue`. This module's own code is the hand-written evaluation,
//! phase-tapered terms over the whole position: the fallback without a net, the
//! weakened `knowledge` levels of UCCI, and the second table of the `eval` command.
//!
//! [`breakdown`] computes every term for both sides (the single source of truth);
//! [`evaluate`] blends them into one number from the side to move's point of view,
//! and the daemon's `eval` command prints the breakdown. Weights live in
//! [`params`]: the tunable pairs in [`params::EvalParams`], which [`Weights`] pairs
//! with the piece-square table built from them; [`breakdown_with`] evaluates with
//! any such set (the tuner, `chuhan tune`), the engine with [`DEFAULT_WEIGHTS`].
//! The evaluation is computed from scratch at each node (it costs a few
//! hundred nanoseconds; incremental material/PST updates would need a wrapper around
//! `core::Position` and did not pay in measurements at our search speed).
//! [`nnue`] holds the neural evaluation: features, net files and the search's
//! incremental inference with its kernels chosen at run time.

pub mod nnue;
pub mod params;
pub mod pst;
pub mod tapered;

use crate::core::attacks;
use crate::core::{Bitboard, Color, PieceKind, Position, Square};
use params::*;
use pst::Pst;
use std::fmt;
use std::sync::LazyLock;
use tapered::S;

/// A complete set of evaluation weights: the tunable pairs and the piece-square
/// table built from them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The tunable pairs.
    pub params: EvalParams,
    /// The piece-square table made from `params`.
    pub pst: Pst,
}

impl Weights {
    /// The weights `params` with their piece-square table.
    pub fn new(params: EvalParams) -> Weights {
        let pst = Pst::new(&params);
        Weights { params, pst }
    }
}

/// The weights the engine plays with ([`params::DEFAULT`]).
pub static DEFAULT_WEIGHTS: LazyLock<Weights> = LazyLock::new(|| Weights::new(DEFAULT));

/// The evaluation terms, in the order of the breakdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// Material.
    Material,
    /// Piece-square values.
    Pst,
    /// Rook, horse and cannon mobility (trapped horses).
    Mobility,
    /// Piece knowledge: cannon screens and targets, rooks on open files, connected
    /// pawns, pairs of rooks, horses and cannons, advisors and elephants that guard
    /// each other.
    Pieces,
    /// King safety: missing advisors and elephants against the attacking force,
    /// hollow/bottom cannon, rooks and cannons aiming at the king through pieces,
    /// attacks on the palace and the number of pieces making them.
    KingSafety,
    /// Threats: pieces left hanging, attacked by pawns, rooks attacked by horses and
    /// cannons, horses and cannons attacked by rooks.
    Threats,
    /// The side to move's bonus.
    Tempo,
}

impl Term {
    /// All terms in breakdown order.
    pub const ALL: [Term; 7] = [
        Term::Material,
        Term::Pst,
        Term::Mobility,
        Term::Pieces,
        Term::KingSafety,
        Term::Threats,
        Term::Tempo,
    ];

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Pst => "Placement",
            Term::Mobility => "Mobility",
            Term::Pieces => "Pieces",
            Term::KingSafety => "King safety",
            Term::Threats => "Threats",
            Term::Tempo => "Tempo",
        }
    }
}

/// How much the evaluation knows (the UCCI `knowledge` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knowledge {
    /// Material only.
    Material,
    /// Material and piece-square values.
    Basic,
    /// Every term.
    Full,
}

/// Evaluation settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalConfig {
    /// Which terms count.
    pub knowledge: Knowledge,
    /// Amplitude of the pseudo-random noise added to every evaluation (0 = none):
    /// the UCCI `randomness` option.
    pub noise: i32,
    /// Seed of the noise (fixed for a game so the search stays consistent).
    pub seed: u64,
}

impl Default for EvalConfig {
    fn default() -> EvalConfig {
        EvalConfig {
            knowledge: Knowledge::Full,
            noise: 0,
            seed: 0,
        }
    }
}

/// Every term for both sides, and the phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// `terms[t][color]`: term `t` for that colour (positive = good for it).
    pub terms: [[S; 2]; 7],
    /// Game phase, 0 (bare endgame) to [`MAX_PHASE`].
    pub phase: i32,
    /// Side to move.
    pub side: Color,
    /// Divisor applied to the final score when the leading side cannot win (1 =
    /// none).
    pub scale_divisor: i32,
}

impl Breakdown {
    /// The tapered value of one term for Red minus Black.
    pub fn term_value(&self, t: usize) -> i32 {
        (self.terms[t][0] - self.terms[t][1]).taper(self.phase.min(MAX_PHASE), MAX_PHASE)
    }

    /// Red-minus-Black total, scaled, before the side-to-move sign.
    pub fn red_total(&self) -> i32 {
        let mut sum = S::ZERO;
        for t in &self.terms {
            sum += t[0] - t[1];
        }
        let v = sum.taper(self.phase.min(MAX_PHASE), MAX_PHASE);
        v / self.scale_divisor.max(1)
    }

    /// The value from the side to move's point of view.
    pub fn value(&self) -> i32 {
        match self.side {
            Color::Red => self.red_total(),
            Color::Black => -self.red_total(),
        }
    }
}

impl fmt::Display for Breakdown {
    /// A term-by-term table: mg/eg per side and the blended Red-minus-Black value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<12} | {:>6} {:>6} | {:>6} {:>6} | {:>7}",
            "Term", "Red mg", "eg", "Blk mg", "eg", "Total"
        )?;
        writeln!(f, "{}", "-".repeat(57))?;
        for (i, t) in Term::ALL.iter().enumerate() {
            let [r, b] = self.terms[i];
            writeln!(
                f,
                "{:<12} | {:>6} {:>6} | {:>6} {:>6} | {:>7}",
                t.name(),
                r.mg,
                r.eg,
                b.mg,
                b.eg,
                self.term_value(i)
            )?;
        }
        writeln!(f, "{}", "-".repeat(57))?;
        writeln!(f, "Phase: {} / {}", self.phase.min(MAX_PHASE), MAX_PHASE)?;
        if self.scale_divisor > 1 {
            writeln!(
                f,
                "Scaled down by {} (the leader cannot win)",
                self.scale_divisor
            )?;
        }
        writeln!(f, "Total (Red's view): {}", self.red_total())?;
        write!(
            f,
            "Total (side to move, {}): {}",
            self.side.name(),
            self.value()
        )
    }
}

/// The attack-capable pieces of a side: rooks, horses, cannons and pawns.
fn attackers(pos: &Position, c: Color) -> Bitboard {
    pos.pieces(c, PieceKind::Rook)
        | pos.pieces(c, PieceKind::Horse)
        | pos.pieces(c, PieceKind::Cannon)
        | pos.pieces(c, PieceKind::Pawn)
}

fn enemy_half(c: Color) -> Bitboard {
    match c {
        Color::Red => Bitboard::BLACK_HALF,
        Color::Black => Bitboard::RED_HALF,
    }
}

fn back_rank(c: Color) -> Bitboard {
    match c {
        Color::Red => Bitboard::RANK_0,
        Color::Black => Bitboard(Bitboard::RANK_0.0 << 81),
    }
}

/// Computes every term of the evaluation.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::eval::{breakdown, Knowledge};
/// let b = breakdown(&Position::startpos(), Knowledge::Full);
/// // The start position is symmetric: only the tempo differs.
/// assert_eq!(b.red_total(), b.term_value(6));
/// ```
pub fn breakdown(pos: &Position, knowledge: Knowledge) -> Breakdown {
    breakdown_with(pos, knowledge, &DEFAULT_WEIGHTS)
}

/// [`breakdown`] with the weights `weights` (the tuner's entry point).
pub fn breakdown_with(pos: &Position, knowledge: Knowledge, weights: &Weights) -> Breakdown {
    let w = &weights.params;
    let mut terms = [[S::ZERO; 2]; 7];
    let mut phase = 0;
    let occ = pos.occupied();
    for sq in occ {
        let p = pos.piece_at(sq).expect("occupied");
        let c = p.color.index();
        terms[0][c] += w.material[p.kind.index()];
        phase += PHASE_WEIGHT[p.kind.index()];
        if knowledge != Knowledge::Material {
            terms[1][c] += weights.pst.get(p, sq);
        }
    }
    if knowledge == Knowledge::Full {
        let maps = [
            AttackMaps::new(pos, Color::Red),
            AttackMaps::new(pos, Color::Black),
        ];
        for c in Color::ALL {
            full_terms(pos, c, w, &maps, &mut terms);
            terms[5][c.index()] += threats(pos, c, w, &maps);
        }
        terms[6][pos.side_to_move().index()] += w.tempo;
    }
    // A side with no attacking piece cannot win.
    let mut scale_divisor = 1;
    let mut sum = S::ZERO;
    for t in &terms {
        sum += t[0] - t[1];
    }
    let lead = sum.taper(phase.min(MAX_PHASE), MAX_PHASE);
    let leader = if lead > 0 { Color::Red } else { Color::Black };
    if lead != 0 && attackers(pos, leader).is_empty() {
        scale_divisor = NO_ATTACKER_DIVISOR;
    }
    Breakdown {
        terms,
        phase,
        side: pos.side_to_move(),
        scale_divisor,
    }
}

/// Mobility, piece knowledge and king safety of colour `us` (adds to `terms`).
fn full_terms(
    pos: &Position,
    us: Color,
    w: &EvalParams,
    maps: &[AttackMaps; 2],
    terms: &mut [[S; 2]; 7],
) {
    let them = !us;
    let u = us.index();
    let occ = pos.occupied();
    let ours = pos.color(us);
    let theirs = pos.color(them);
    let their_king = pos.king_square(them);
    let their_palace = attacks::regions::palace(them);
    let their_pawn_attacks = maps[them.index()].pawns;
    let our_pawns = pos.pieces(us, PieceKind::Pawn);
    let mut mobility = S::ZERO;
    let mut pieces = S::ZERO;
    let mut king = S::ZERO;
    let mut palace_attackers = 0;

    for sq in pos.pieces(us, PieceKind::Rook) {
        let a = attacks::rook_attacks(sq, occ);
        let n = (a - ours).count() as usize;
        palace_attackers += !(a & their_palace).is_empty() as usize;
        mobility += w.rook_mobility * n as i32 + w.rook_mobility_table[n.min(17)];
        if (Bitboard::file(sq.file()) & our_pawns).is_empty() {
            pieces += w.rook_open_file;
        }
        // Pieces between the rook and the enemy king (none when not aligned).
        match (attacks::between(sq, their_king) & occ).count() {
            0 if sq.file() == their_king.file() => king += w.rook_on_king_file,
            1 => king += w.rook_xray_king,
            _ => {}
        }
    }
    for sq in pos.pieces(us, PieceKind::Horse) {
        let a = attacks::horse_attacks(sq, occ);
        let n = (a - ours - their_pawn_attacks).count() as i32;
        palace_attackers += !(a & their_palace).is_empty() as usize;
        mobility += w.horse_mobility * n + w.horse_mobility_table[n.min(8) as usize];
        if n <= 1 {
            mobility += w.horse_trapped;
        }
    }
    let their_pieces_no_pawns = theirs - pos.pieces(them, PieceKind::Pawn);
    for sq in pos.pieces(us, PieceKind::Cannon) {
        let xray = attacks::cannon_attacks(sq, occ);
        let n = (attacks::rook_attacks(sq, occ) - occ).count() as usize;
        palace_attackers += !(xray & their_palace).is_empty() as usize;
        mobility += w.cannon_mobility * n as i32 + w.cannon_mobility_table[n.min(17)];
        if xray.is_empty() {
            pieces += w.cannon_no_screen;
        }
        pieces += w.cannon_live_target * (xray & their_pieces_no_pawns).count() as i32;
        // Pieces between the cannon and the enemy king (none when not aligned).
        let between = attacks::between(sq, their_king) & occ;
        let on_file = sq.file() == their_king.file();
        match between.count() {
            0 if on_file => king += w.hollow_cannon,
            1 if on_file => {
                let screen = between.lsb();
                let center = match them {
                    Color::Red => Square::E1,
                    Color::Black => Square::E8,
                };
                if screen == center
                    && pos.piece_at(screen).map(|p| (p.color, p.kind))
                        == Some((them, PieceKind::Horse))
                {
                    king += w.cannon_pins_center_horse;
                }
            }
            2 => king += w.cannon_xray_king,
            _ => {}
        }
        if back_rank(them).has(sq) && back_rank(them).has(their_king) {
            king += w.bottom_cannon;
        }
    }
    let pair = |kind| pos.pieces(us, kind).count() >= 2;
    for (kind, bonus) in [
        (PieceKind::Rook, w.rook_pair),
        (PieceKind::Horse, w.horse_pair),
        (PieceKind::Cannon, w.cannon_pair),
    ] {
        if pair(kind) {
            pieces += bonus;
        }
    }
    let elephants = pos.pieces(us, PieceKind::Elephant);
    if pair(PieceKind::Elephant)
        && !(attacks::elephant_attacks(elephants.lsb(), occ) & elephants).is_empty()
    {
        pieces += w.elephants_connected;
    }
    let advisors = pos.pieces(us, PieceKind::Advisor);
    if pair(PieceKind::Advisor) && !(attacks::advisor_attacks(advisors.lsb()) & advisors).is_empty()
    {
        pieces += w.advisors_connected;
    }
    let crossed = our_pawns & enemy_half(us);
    for sq in crossed {
        if let Some(right) = sq.offset(1, 0)
            && crossed.has(right)
        {
            pieces += w.pawn_connected;
        }
    }

    // King safety of the enemy against our attacking force.
    let mut weight = 0;
    for sq in ours & enemy_half(us) {
        if let Some(p) = pos.piece_at(sq) {
            weight += ATTACK_WEIGHT[p.kind.index()];
        }
    }
    let weight = weight.min(ATTACK_MAX);
    let missing_adv = 2 - pos.pieces(them, PieceKind::Advisor).count().min(2) as i32;
    let missing_ele = 2 - pos.pieces(them, PieceKind::Elephant).count().min(2) as i32;
    let mut exposure = w.missing_advisor * missing_adv + w.missing_elephant * missing_ele;
    if king_escapes(pos, them, &maps[u]).is_empty() {
        // Scaled like the missing defenders; their sign is the defender's.
        exposure -= w.king_no_escape;
    }
    // The enemy's missing defenders are our gain.
    king -= S {
        mg: exposure.mg * weight / ATTACK_MAX,
        eg: exposure.eg * weight / ATTACK_MAX,
    };
    let attacked = (maps[u].offence & their_palace).count() as usize;
    king += w.palace_attack * attacked as i32 + w.palace_attack_table[attacked.min(9)];
    king += w.king_attackers_table[palace_attackers.min(6)];
    king += w.safe_check * safe_checks(pos, us, &maps[them.index()]).min(SAFE_CHECKS_MAX);

    terms[2][u] += mobility;
    terms[3][u] += pieces;
    terms[4][u] += king;
}

/// The squares one side's pieces attack, by attacker class (computed once per
/// evaluation for both sides).
struct AttackMaps {
    /// Attacked by a rook, horse, cannon or pawn (the attacking force).
    offence: Bitboard,
    /// Attacked by any piece, the king, advisors and elephants included (defended
    /// squares, from the owner's point of view).
    all: Bitboard,
    /// Attacked by a pawn.
    pawns: Bitboard,
    /// Attacked by a horse or a cannon.
    minors: Bitboard,
    /// Attacked by a rook.
    rooks: Bitboard,
}

impl AttackMaps {
    fn new(pos: &Position, c: Color) -> AttackMaps {
        let occ = pos.occupied();
        let mut pawns = Bitboard::EMPTY;
        for sq in pos.pieces(c, PieceKind::Pawn) {
            pawns |= attacks::pawn_attacks(c, sq);
        }
        let mut minors = Bitboard::EMPTY;
        for sq in pos.pieces(c, PieceKind::Horse) {
            minors |= attacks::horse_attacks(sq, occ);
        }
        for sq in pos.pieces(c, PieceKind::Cannon) {
            minors |= attacks::cannon_attacks(sq, occ);
        }
        let mut rooks = Bitboard::EMPTY;
        for sq in pos.pieces(c, PieceKind::Rook) {
            rooks |= attacks::rook_attacks(sq, occ);
        }
        let offence = pawns | minors | rooks;
        let mut all = offence | attacks::king_attacks(pos.king_square(c));
        for sq in pos.pieces(c, PieceKind::Advisor) {
            all |= attacks::advisor_attacks(sq);
        }
        for sq in pos.pieces(c, PieceKind::Elephant) {
            all |= attacks::elephant_attacks(sq, occ);
        }
        AttackMaps {
            offence,
            all,
            pawns,
            minors,
            rooks,
        }
    }
}

/// How many checks the rooks, horses and cannons of colour `us` can give by moving
/// to an empty point the enemy does not defend (`their_maps`).
fn safe_checks(pos: &Position, us: Color, their_maps: &AttackMaps) -> i32 {
    let occ = pos.occupied();
    let ksq = pos.king_square(!us);
    let safe = !(their_maps.all | occ);
    let mut checks = 0;
    let rook_points = attacks::rook_attacks(ksq, occ) & safe;
    for sq in pos.pieces(us, PieceKind::Rook) {
        checks += (attacks::rook_attacks(sq, occ) & rook_points).count() as i32;
    }
    let horse_points = attacks::horse_attackers(ksq, occ) & safe;
    for sq in pos.pieces(us, PieceKind::Horse) {
        checks += (attacks::horse_attacks(sq, occ) & horse_points).count() as i32;
    }
    // Seen from the king, the cannon set is the points a cannon checks from.
    let cannon_points = attacks::cannon_attacks(ksq, occ) & safe;
    for sq in pos.pieces(us, PieceKind::Cannon) {
        checks += (attacks::rook_attacks(sq, occ) & cannon_points).count() as i32;
    }
    checks
}

/// The points the king of colour `c` can step to: palace neighbours that hold no
/// piece of its own and that the enemy (`their_maps`) does not attack.
fn king_escapes(pos: &Position, c: Color, their_maps: &AttackMaps) -> Bitboard {
    attacks::king_attacks(pos.king_square(c)) - pos.color(c) - their_maps.all
}

/// Threats against the pieces of colour `us` (a penalty, so usually negative):
/// pieces attacked and not defended, rooks, horses and cannons attacked by pawns,
/// rooks attacked by horses or cannons, horses and cannons attacked by rooks.
fn threats(pos: &Position, us: Color, w: &EvalParams, maps: &[AttackMaps; 2]) -> S {
    let (ours, theirs) = (&maps[us.index()], &maps[(!us).index()]);
    let pieces = pos.color(us) - pos.pieces(us, PieceKind::King);
    let rooks = pos.pieces(us, PieceKind::Rook);
    let minors = pos.pieces(us, PieceKind::Horse) | pos.pieces(us, PieceKind::Cannon);
    let hanging = (pieces & theirs.all) - ours.all;
    w.hanging * hanging.count() as i32
        + w.threat_by_pawn * ((rooks | minors) & theirs.pawns).count() as i32
        + w.rook_threatened * (rooks & theirs.minors).count() as i32
        + w.minor_threatened * (minors & theirs.rooks).count() as i32
}

/// The pseudo-random noise of `cfg` for the position with key `key` (0 without
/// noise); both evaluations add it.
#[inline(always)]
pub fn noise(key: u64, cfg: &EvalConfig) -> i32 {
    if cfg.noise == 0 {
        return 0;
    }
    let mut x = key ^ cfg.seed;
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    (x % (2 * cfg.noise as u64 + 1)) as i32 - cfg.noise
}

/// The static evaluation from the side to move's point of view.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::eval::{evaluate, EvalConfig};
/// // Red is a rook up, or a horse up: both good for Red, the rook more so.
/// let rook = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap();
/// let horse = Position::from_fen("3k5/9/9/9/9/9/9/9/9/N3K4 w").unwrap();
/// let cfg = EvalConfig::default();
/// assert!(evaluate(&rook, &cfg) > evaluate(&horse, &cfg));
/// assert!(evaluate(&horse, &cfg) > 200);
/// ```
pub fn evaluate(pos: &Position, cfg: &EvalConfig) -> i32 {
    breakdown(pos, cfg.knowledge).value() + noise(pos.key(), cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_symmetry() {
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let cfg = EvalConfig::default();
            assert_eq!(evaluate(&pos, &cfg), evaluate(&pos.flip(), &cfg), "{fen}");
            assert_eq!(evaluate(&pos, &cfg), evaluate(&pos.mirror(), &cfg), "{fen}");
        }
    }

    #[test]
    fn knowledge_levels() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap();
        let b = breakdown(&pos, Knowledge::Material);
        assert_eq!(b.value(), DEFAULT.material[0].taper(6, MAX_PHASE));
    }

    #[test]
    fn noise_is_bounded_and_seeded() {
        let pos = Position::startpos();
        let base = evaluate(&pos, &EvalConfig::default());
        let cfg = EvalConfig {
            noise: 10,
            seed: 7,
            ..EvalConfig::default()
        };
        let v = evaluate(&pos, &cfg);
        assert!((v - base).abs() <= 10);
        assert_eq!(v, evaluate(&pos, &cfg));
    }

    #[test]
    fn threats_count_hanging_pieces_and_pawn_attacks() {
        // The red rook on e5 is attacked by the black pawn on e6 and defended by
        // nothing; the pawn is attacked by the rook and undefended too.
        let pos = Position::from_fen("4k4/9/9/4p4/4R4/9/9/9/9/3K5 w").unwrap();
        let b = breakdown(&pos, Knowledge::Full);
        let t = Term::ALL.iter().position(|&t| t == Term::Threats).unwrap();
        assert_eq!(b.terms[t][0], DEFAULT.hanging + DEFAULT.threat_by_pawn);
        assert_eq!(b.terms[t][1], DEFAULT.hanging);
        // Defend the rook with a cannon behind a screen: no longer hanging.
        let pos = Position::from_fen("4k4/9/9/4p4/4R4/9/4P4/9/4C4/3K5 w").unwrap();
        let b = breakdown(&pos, Knowledge::Full);
        assert_eq!(b.terms[t][0], DEFAULT.threat_by_pawn);
    }

    #[test]
    fn safe_checks_need_an_undefended_empty_point() {
        // The rook on a0 can check from a9 only (d0 is its own king's point).
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
        let black = AttackMaps::new(&pos, Color::Black);
        assert_eq!(safe_checks(&pos, Color::Red, &black), 1);
        // A black horse on b7 guards a9.
        let pos = Position::from_fen("4k4/9/1n7/9/9/9/9/9/9/R2K5 w").unwrap();
        let black = AttackMaps::new(&pos, Color::Black);
        assert_eq!(safe_checks(&pos, Color::Red, &black), 0);
        // A cannon checks over one screen: from c1 it can go to e1, behind the pawn
        // on e5.
        let pos = Position::from_fen("4k4/9/9/9/4P4/9/9/9/2C6/3K5 w").unwrap();
        let black = AttackMaps::new(&pos, Color::Black);
        assert_eq!(safe_checks(&pos, Color::Red, &black), 1);
    }

    #[test]
    fn a_king_boxed_in_by_its_advisors_and_a_rook_has_no_escape() {
        // Black's king on e9 between its advisors; the red rook on a8 holds e8.
        let pos = Position::from_fen("3aka3/R8/9/9/9/9/9/9/9/3K5 w").unwrap();
        let red = AttackMaps::new(&pos, Color::Red);
        assert!(king_escapes(&pos, Color::Black, &red).is_empty());
        let without = Weights::new(EvalParams {
            king_no_escape: S::ZERO,
            ..params::DEFAULT
        });
        let king = |w: &Weights| breakdown_with(&pos, Knowledge::Full, w).term_value(4);
        assert!(king(&DEFAULT_WEIGHTS) > king(&without));
        // From a7 the rook leaves e8 free.
        let pos = Position::from_fen("3aka3/9/R8/9/9/9/9/9/9/3K5 w").unwrap();
        let red = AttackMaps::new(&pos, Color::Red);
        assert_eq!(
            king_escapes(&pos, Color::Black, &red),
            Bitboard::from_square(Square::E8)
        );
    }

    /// How many times the weight that `set` writes counts for Red and for Black in
    /// `fen` (the weight set to 1,000 in the middlegame, against 0).
    fn fired(fen: &str, set: impl Fn(&mut EvalParams, S)) -> [i32; 2] {
        let pos = Position::from_fen(fen).unwrap();
        let sides = |v: S| {
            let mut p = params::DEFAULT;
            set(&mut p, v);
            let b = breakdown_with(&pos, Knowledge::Full, &Weights::new(p));
            [0, 1].map(|c| b.terms.iter().map(|t| t[c].mg).sum::<i32>())
        };
        let (on, off) = (sides(S { mg: 1000, eg: 0 }), sides(S::ZERO));
        [(on[0] - off[0]) / 1000, (on[1] - off[1]) / 1000]
    }

    #[test]
    fn rooks_and_cannons_aiming_at_the_king_through_pieces() {
        let rook = |p: &mut EvalParams, v| p.rook_xray_king = v;
        // One piece between on the file, then on the rank.
        assert_eq!(fired("4k4/9/9/9/4p4/9/9/9/9/3KR4 w", rook), [1, 0]);
        assert_eq!(fired("R1n1k4/9/9/9/9/9/9/9/9/3K5 w", rook), [1, 0]);
        // Two pieces between: no longer a pin.
        assert_eq!(fired("4k4/9/9/9/4p4/9/4P4/9/9/3KR4 w", rook), [0, 0]);
        let cannon = |p: &mut EvalParams, v| p.cannon_xray_king = v;
        assert_eq!(fired("4k4/9/9/9/4p4/9/4P4/9/9/3KC4 w", cannon), [1, 0]);
        assert_eq!(fired("4k4/9/9/9/4p4/4p4/4P4/9/9/3KC4 w", cannon), [0, 0]);
    }

    #[test]
    fn connected_defenders_and_piece_pairs() {
        let elephants = |p: &mut EvalParams, v| p.elephants_connected = v;
        assert_eq!(fired("4k4/9/9/9/9/9/9/4B4/9/2BK5 w", elephants), [1, 0]);
        assert_eq!(fired("4k4/9/9/9/9/9/9/9/9/2BK2B2 w", elephants), [0, 0]);
        let advisors = |p: &mut EvalParams, v| p.advisors_connected = v;
        assert_eq!(fired("3aka3/9/9/9/9/9/9/9/4A4/3AK4 w", advisors), [1, 0]);
        let rooks = |p: &mut EvalParams, v| p.rook_pair = v;
        assert_eq!(fired("r3k4/9/9/9/9/9/9/9/9/R2K4R w", rooks), [1, 0]);
    }

    #[test]
    fn king_attackers_and_minors_attacked_by_rooks() {
        // The red rook on e0 attacks the black horse on e5.
        let minor = |p: &mut EvalParams, v| p.minor_threatened = v;
        assert_eq!(fired("3k5/9/9/9/4n4/9/9/9/9/4RK3 w", minor), [0, 1]);
        let count = |n: usize| {
            move |p: &mut EvalParams, v| {
                p.king_attackers_table = [S::ZERO; 7];
                p.king_attackers_table[n] = v;
            }
        };
        // Red: the rook on d1 attacks d7-d9 of the black palace and the horse on
        // f6 attacks e8 and d7: two attackers. Black attacks nothing.
        let fen = "4k4/9/9/5N3/9/9/9/9/3R5/5K3 w";
        assert_eq!(fired(fen, count(2)), [1, 0]);
        assert_eq!(fired(fen, count(0)), [0, 1]);
    }

    #[test]
    fn bare_kings_and_defenders_are_drawish() {
        // Red has two advisors more but nothing that can attack.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/3AK4 w").unwrap();
        let v = evaluate(&pos, &EvalConfig::default());
        assert!(v.abs() < 60, "{v}");
    }
}
