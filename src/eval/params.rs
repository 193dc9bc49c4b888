//! Every evaluation weight, with where it came from.
//!
//! Units: a pawn on its own side of the river is about 80 in the middlegame, a
//! horse about 500. All values are our own: the starting points are the human
//! rules of thumb of xiangqi literature (rook = 2 horses = 2 cannons = horse +
//! cannon; advisor = elephant ≈ 2 pawns; a pawn across the river ≈ 2 pawns at home;
//! cannons are stronger than horses with many pieces on the board and weaker in
//! the endgame), then adjusted by self-play and the bench positions, then tuned by
//! `chuhan tune` on 72,000 quiet positions of Chuhan's games labelled half by the
//! game's result and half by a 3,000-node Fairy-Stockfish search (`scripts/fsf_label.py`;
//! the CHANGELOG has the run). No value is taken from another engine's tables.
//!
//! The weights that [`crate::tools::tune`] can change are fields of [`EvalParams`];
//! [`DEFAULT`] holds the values the engine plays with. Integer constants that are
//! not tuned (phase and attack weights) stay plain constants.

use super::tapered::{S, s};

/// Game-phase weight by kind: the phase is the sum over the board, 48 at the start
/// (only rooks, horses and cannons count: they decide whether attacks are possible).
pub const PHASE_WEIGHT: [i32; 7] = [6, 3, 0, 0, 0, 3, 0];
/// Phase of the full starting army.
pub const MAX_PHASE: i32 = 48;

/// Attack weight of a piece across the river, by kind index (rook, horse, cannon,
/// crossed pawn; defenders 0).
pub const ATTACK_WEIGHT: [i32; 7] = [2, 2, 0, 0, 0, 1, 1];

/// Cap of the attack weight (and its divisor in the scaled terms).
pub const ATTACK_MAX: i32 = 8;

/// Safe checks counted at most (ours: more add nothing the search does not see).
pub const SAFE_CHECKS_MAX: i32 = 4;

/// A side without rooks, horses, cannons or pawns cannot win: its advantage is
/// divided by this.
pub const NO_ATTACKER_DIVISOR: i32 = 16;

/// The tunable evaluation weights (all tapered pairs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Material by [`crate::core::PieceKind`] index (Rook, Horse, Elephant, Advisor,
    /// King, Cannon, Pawn).
    pub material: [S; 7],
    // --- Piece-square terms (built by formula in `pst.rs`, from Red's point of view) ---
    /// A pawn across the river.
    pub pawn_crossed: S,
    /// Each rank a crossed pawn stands closer to the enemy palace (ranks 5→7).
    pub pawn_advance: S,
    /// A crossed pawn on the palace files d, e, f.
    pub pawn_palace_file: S,
    /// A pawn on the enemy's back rank (老兵: can only move sideways).
    pub pawn_back_rank: S,
    /// A pawn at home on the central file (it protects the horse's path).
    pub pawn_home_center: S,
    /// A horse per step of (Chebyshev-like) distance from the board centre, negative.
    pub horse_center: S,
    /// A horse on the a or i file.
    pub horse_edge: S,
    /// A horse still on its back rank.
    pub horse_back_rank: S,
    /// A horse within two ranks/files of the enemy palace (臥槽, 掛角 squares).
    pub horse_near_palace: S,
    /// A rook across the river.
    pub rook_across: S,
    /// A rook on its back rank corner squares in the middlegame (undeveloped).
    pub rook_undeveloped: S,
    /// A cannon on the central file.
    pub cannon_center_file: S,
    /// A cannon across the river (mostly a liability in the endgame).
    pub cannon_across: S,
    /// The king off its home point e0 per step (exposed).
    pub king_off_home: S,
    /// An advisor on the palace centre.
    pub advisor_center: S,
    /// An elephant on the central point e2.
    pub elephant_center: S,
    // --- Mobility ---
    /// Per pseudo-legal destination of a rook.
    pub rook_mobility: S,
    /// Per unblocked horse jump to a square not attacked by an enemy pawn.
    pub horse_mobility: S,
    /// Per quiet move of a cannon.
    pub cannon_mobility: S,
    /// A horse with at most one jump.
    pub horse_trapped: S,
    // --- Piece knowledge ---
    /// A cannon with a screen behind which an enemy piece (not a pawn) stands: a live
    /// threat or pin.
    pub cannon_live_target: S,
    /// A cannon with no piece at all on its lines to use as a screen (a dead cannon).
    pub cannon_no_screen: S,
    /// A rook on a file without pawns of its own side.
    pub rook_open_file: S,
    /// Two crossed pawns side by side.
    pub pawn_connected: S,
    // --- King safety ---
    /// A missing advisor, at full attack weight.
    pub missing_advisor: S,
    /// A missing elephant, at full attack weight.
    pub missing_elephant: S,
    /// A cannon facing the enemy king on its file with nothing between (空頭炮).
    pub hollow_cannon: S,
    /// A cannon on the king's file whose only screen is an enemy horse on the palace
    /// centre (炮鎮窩心馬).
    pub cannon_pins_center_horse: S,
    /// A cannon on the enemy back rank with the king on that rank (沉底炮).
    pub bottom_cannon: S,
    /// Per enemy palace point attacked by a rook, horse, cannon or pawn.
    pub palace_attack: S,
    /// A rook on the enemy king's file with no piece between (a direct threat).
    pub rook_on_king_file: S,
    /// Per check a rook, horse or cannon can give from an empty point the enemy
    /// does not defend (at most [`SAFE_CHECKS_MAX`]).
    pub safe_check: S,
    /// The enemy king has no point to step to (every neighbour in its palace is
    /// its own piece or attacked by us), scaled by our attacking force like the
    /// missing defenders.
    pub king_no_escape: S,
    // --- Threats ---
    /// A piece (not the king) attacked by the enemy and defended by nothing.
    pub hanging: S,
    /// A rook, horse or cannon attacked by an enemy pawn.
    pub threat_by_pawn: S,
    /// A rook attacked by an enemy horse or cannon.
    pub rook_threatened: S,
    /// Bonus for the side to move.
    pub tempo: S,
    /// Per-point corrections of the piece-square formulas, by
    /// [`crate::core::PieceKind`] index and [`pst_index`] (Red's point of view, files
    /// a–e; f–i mirror them). Learned by `chuhan tune --gradient`; points a kind
    /// can never reach stay 0.
    pub pst_delta: [[S; PST_POINTS]; 7],
    /// Value of a rook by its number of pseudo-legal destinations (0–17), on top
    /// of [`EvalParams::rook_mobility`] per destination: the tuner shapes the curve.
    pub rook_mobility_table: [S; 18],
    /// Value of a horse by its number of safe jumps (0–8), on top of
    /// [`EvalParams::horse_mobility`].
    pub horse_mobility_table: [S; 9],
    /// Value of a cannon by its number of quiet moves (0–17), on top of
    /// [`EvalParams::cannon_mobility`].
    pub cannon_mobility_table: [S; 18],
    /// King safety by the number of enemy palace points we attack (0–9), on top of
    /// [`EvalParams::palace_attack`] per point.
    pub palace_attack_table: [S; 10],
}

/// Points of a half board (files a–e, ranks 0–9): the size of one
/// [`EvalParams::pst_delta`] row.
pub const PST_POINTS: usize = 50;

/// The [`EvalParams::pst_delta`] index of file `f`, rank `r` (Red's point of view):
/// mirror-image files share one entry.
///
/// ```
/// use chuhan::eval::params::pst_index;
/// assert_eq!(pst_index(0, 0), pst_index(8, 0));
/// assert_eq!(pst_index(4, 9), 49);
/// ```
pub const fn pst_index(f: i32, r: i32) -> usize {
    let half = if f > 4 { 8 - f } else { f };
    (r * 5 + half) as usize
}

/// The weights the engine plays with (written by `chuhan tune --update`, hence
/// not reformatted).
#[rustfmt::skip]
pub const DEFAULT: EvalParams = EvalParams {
    material: [
        s(1927, 889),
        s(758, 387),
        s(256, 70),
        s(230, 122),
        s(0, 0),
        s(928, 375),
        s(118, 134),
    ],
    pawn_crossed: s(104, 29),
    pawn_advance: s(134, -4),
    pawn_palace_file: s(160, 47),
    pawn_back_rank: s(-152, -62),
    pawn_home_center: s(93, 74),
    horse_center: s(-15, -11),
    horse_edge: s(-47, 31),
    horse_back_rank: s(-139, 10),
    horse_near_palace: s(116, 4),
    rook_across: s(55, -41),
    rook_undeveloped: s(-46, -70),
    cannon_center_file: s(38, 1),
    cannon_across: s(7, -97),
    king_off_home: s(-120, 23),
    advisor_center: s(61, 5),
    elephant_center: s(58, -3),
    rook_mobility: s(8, -2),
    horse_mobility: s(25, 0),
    cannon_mobility: s(5, -3),
    horse_trapped: s(2, -120),
    cannon_live_target: s(73, 44),
    cannon_no_screen: s(-10, 12),
    rook_open_file: s(37, 34),
    pawn_connected: s(360, -164),
    missing_advisor: s(-516, -2),
    missing_elephant: s(-216, 31),
    hollow_cannon: s(103, 9),
    cannon_pins_center_horse: s(50, 20),
    bottom_cannon: s(18, 2),
    palace_attack: s(6, 4),
    rook_on_king_file: s(30, 15),
    safe_check: s(149, -21),
    king_no_escape: s(-17, 190),
    hanging: s(-68, -35),
    threat_by_pawn: s(-167, -124),
    rook_threatened: s(-87, 102),
    tempo: s(133, -11),
    pst_delta: [
        // rook
        [
            s(-42, -29), s(-11, -50), s(-44, -39), s(39, -40), s(0, 2),
            s(-65, -36), s(-72, -23), s(-44, -11), s(-8, 4), s(-9, -2),
            s(-58, -11), s(6, 10), s(9, 9), s(44, 13), s(31, 28),
            s(-8, 24), s(-19, 5), s(31, 27), s(71, 9), s(11, 53),
            s(11, 10), s(18, 9), s(74, 11), s(51, 8), s(22, 50),
            s(-30, -1), s(-50, -5), s(7, -18), s(-28, 39), s(27, 28),
            s(5, 3), s(-32, 1), s(61, -34), s(5, 6), s(-26, 30),
            s(-29, -12), s(-40, -7), s(-33, -9), s(1, 38), s(35, 54),
            s(-43, -31), s(-22, -34), s(2, -31), s(49, -12), s(21, 23),
            s(-15, -25), s(45, -38), s(42, -25), s(37, -5), s(10, 11),
        ],
        // horse
        [
            s(-3, 2), s(17, -45), s(5, 2), s(59, 68), s(-7, -6),
            s(-17, -12), s(-12, -6), s(-61, 2), s(-50, 13), s(-57, -35),
            s(23, -20), s(-11, -25), s(-8, -35), s(30, 5), s(-1, -7),
            s(1, -3), s(8, -2), s(-26, 5), s(-37, 1), s(36, 2),
            s(3, -3), s(9, 47), s(94, 13), s(2, 0), s(-9, -1),
            s(12, -5), s(-4, 11), s(7, 14), s(106, 16), s(-2, -6),
            s(19, -23), s(98, 42), s(-59, 3), s(35, -16), s(-63, -10),
            s(49, 53), s(38, 34), s(-102, -5), s(34, -10), s(37, 36),
            s(-10, -13), s(-16, 0), s(74, 13), s(22, 4), s(-3, -13),
            s(-8, -5), s(12, 18), s(29, 32), s(8, 12), s(3, 3),
        ],
        // elephant
        [
            s(0, 0), s(0, 0), s(10, -27), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(-17, -26), s(0, 0), s(0, 0), s(0, 0), s(76, -44),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(1, -2), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
        ],
        // advisor
        [
            s(0, 0), s(0, 0), s(0, 0), s(36, -17), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(95, -42),
            s(0, 0), s(0, 0), s(0, 0), s(-4, -23), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
        ],
        // king
        [
            s(0, 0), s(0, 0), s(0, 0), s(19, 18), s(108, -41),
            s(0, 0), s(0, 0), s(0, 0), s(-14, 12), s(-19, 11),
            s(0, 0), s(0, 0), s(0, 0), s(-64, -16), s(-29, 15),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
        ],
        // cannon
        [
            s(-13, -2), s(-47, -12), s(-10, -46), s(13, 5), s(-8, 19),
            s(13, 10), s(-2, -5), s(12, -31), s(27, -5), s(-6, -16),
            s(39, 9), s(-23, -21), s(58, -15), s(85, 6), s(21, 20),
            s(-2, -10), s(2, -11), s(-10, -24), s(21, -10), s(40, -22),
            s(-33, 25), s(27, -9), s(25, -29), s(7, 20), s(-4, 22),
            s(5, 19), s(-12, 15), s(-17, -6), s(-2, -9), s(65, -31),
            s(28, 30), s(14, 17), s(76, -13), s(-20, -27), s(71, -25),
            s(1, -16), s(-47, 11), s(11, -11), s(-23, -17), s(-30, -2),
            s(18, 40), s(-38, 21), s(-34, -7), s(-15, -15), s(-16, -18),
            s(61, 2), s(25, -6), s(-56, -58), s(-82, -50), s(-47, -58),
        ],
        // pawn
        [
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(-38, 20), s(0, 0), s(-21, -19), s(0, 0), s(31, -20),
            s(5, 12), s(0, 0), s(57, -5), s(0, 0), s(-12, 28),
            s(-30, 4), s(24, 16), s(51, 25), s(2, -30), s(5, -10),
            s(-57, 12), s(-11, 0), s(-14, 37), s(-10, -46), s(-18, -23),
            s(-52, -9), s(-18, -32), s(21, 28), s(23, 86), s(22, 44),
            s(-43, -73), s(-23, -52), s(24, 10), s(85, -20), s(18, 33),
            s(-7, -17), s(-12, -8), s(22, 90), s(4, -37), s(-15, -35),
        ],
    ],
    rook_mobility_table: [
        s(2, 0), s(-18, -5), s(12, -23), s(-18, 6), s(-4, -11),
        s(-3, 3), s(12, 20), s(25, -4), s(11, 10), s(3, -3),
        s(-5, 5), s(0, 10), s(2, -6), s(-22, 27), s(5, 0),
        s(-3, 14), s(5, -24), s(-4, -21),
    ],
    horse_mobility_table: [
        s(4, 2), s(-4, -2), s(-8, -16), s(5, 8), s(-2, 8),
        s(12, 13), s(-3, -9), s(1, 8), s(-3, -10),
    ],
    cannon_mobility_table: [
        s(0, 9), s(-26, -7), s(-4, 3), s(-13, -25), s(12, -2),
        s(25, 0), s(2, 2), s(-1, 20), s(5, -2), s(-13, 11),
        s(20, 8), s(20, -14), s(5, -7), s(-13, 7), s(14, -1),
        s(3, 17), s(-9, 6), s(-26, -24),
    ],
    palace_attack_table: [
        s(22, 20), s(-4, -15), s(-7, -2), s(-10, -6), s(-14, -9),
        s(-9, 4), s(4, 2), s(15, 5), s(2, 1), s(0, 0),
    ],
};

/// Whether a piece of kind index `k` can ever stand on the point with
/// [`EvalParams::pst_delta`] index `i` (on either half of the board).
pub fn pst_point_used(k: usize, i: usize) -> bool {
    let (f, r) = (i % 5, i / 5);
    match k {
        // Elephant: its seven points on its own side.
        2 => matches!((f, r), (0, 2) | (2, 0) | (2, 4) | (4, 2)),
        // Advisor: the palace corners and centre.
        3 => matches!((f, r), (3, 0) | (3, 2) | (4, 1)),
        // King: the palace.
        4 => (3..=4).contains(&f) && r <= 2,
        // Pawn: its two home ranks on the pawn files, anywhere across the river.
        6 => r >= 5 || ((r == 3 || r == 4) && f % 2 == 0),
        _ => true,
    }
}

/// Names of the kinds, by [`crate::core::PieceKind`] index (in the names of the
/// material and piece-square entries).
const KIND_NAMES: [&str; 7] = [
    "rook", "horse", "elephant", "advisor", "king", "cannon", "pawn",
];

impl EvalParams {
    /// Each kind's material value at its largest (the larger of its middlegame and
    /// endgame values), by [`crate::core::PieceKind`] index: the most capturing
    /// such a piece changes the material term by. Usable in constants.
    pub const fn max_material(&self) -> [i32; 7] {
        let mut out = [0; 7];
        let mut i = 0;
        while i < 7 {
            let m = self.material[i];
            out[i] = if m.mg > m.eg { m.mg } else { m.eg };
            i += 1;
        }
        out
    }

    /// Every pair the coordinate-descent tuner changes, with its name
    /// (`material.rook`, `tempo`, ...), in declaration order. The king's material is
    /// left out (it never changes), and so is [`EvalParams::pst_delta`] (see
    /// [`EvalParams::all_entries_mut`]).
    pub fn entries_mut(&mut self) -> Vec<(String, &mut S)> {
        self.collect_entries(false)
    }

    /// [`EvalParams::entries_mut`] followed by every piece-square correction a kind
    /// can use (named `pst.horse.c4`: the kind, then the point on the left half in
    /// Red's view; by kind, then by [`pst_index`]) and every entry of the count
    /// tables (`table.rook_mobility.7`): what `chuhan tune --gradient` changes.
    pub fn all_entries_mut(&mut self) -> Vec<(String, &mut S)> {
        self.collect_entries(true)
    }

    fn collect_entries(&mut self, with_pst: bool) -> Vec<(String, &mut S)> {
        let mut v: Vec<(String, &mut S)> = Vec::new();
        for (i, m) in self.material.iter_mut().enumerate() {
            if i != 4 {
                v.push((format!("material.{}", KIND_NAMES[i]), m));
            }
        }
        v.push(("pawn_crossed".into(), &mut self.pawn_crossed));
        v.push(("pawn_advance".into(), &mut self.pawn_advance));
        v.push(("pawn_palace_file".into(), &mut self.pawn_palace_file));
        v.push(("pawn_back_rank".into(), &mut self.pawn_back_rank));
        v.push(("pawn_home_center".into(), &mut self.pawn_home_center));
        v.push(("horse_center".into(), &mut self.horse_center));
        v.push(("horse_edge".into(), &mut self.horse_edge));
        v.push(("horse_back_rank".into(), &mut self.horse_back_rank));
        v.push(("horse_near_palace".into(), &mut self.horse_near_palace));
        v.push(("rook_across".into(), &mut self.rook_across));
        v.push(("rook_undeveloped".into(), &mut self.rook_undeveloped));
        v.push(("cannon_center_file".into(), &mut self.cannon_center_file));
        v.push(("cannon_across".into(), &mut self.cannon_across));
        v.push(("king_off_home".into(), &mut self.king_off_home));
        v.push(("advisor_center".into(), &mut self.advisor_center));
        v.push(("elephant_center".into(), &mut self.elephant_center));
        v.push(("rook_mobility".into(), &mut self.rook_mobility));
        v.push(("horse_mobility".into(), &mut self.horse_mobility));
        v.push(("cannon_mobility".into(), &mut self.cannon_mobility));
        v.push(("horse_trapped".into(), &mut self.horse_trapped));
        v.push(("cannon_live_target".into(), &mut self.cannon_live_target));
        v.push(("cannon_no_screen".into(), &mut self.cannon_no_screen));
        v.push(("rook_open_file".into(), &mut self.rook_open_file));
        v.push(("pawn_connected".into(), &mut self.pawn_connected));
        v.push(("missing_advisor".into(), &mut self.missing_advisor));
        v.push(("missing_elephant".into(), &mut self.missing_elephant));
        v.push(("hollow_cannon".into(), &mut self.hollow_cannon));
        v.push((
            "cannon_pins_center_horse".into(),
            &mut self.cannon_pins_center_horse,
        ));
        v.push(("bottom_cannon".into(), &mut self.bottom_cannon));
        v.push(("palace_attack".into(), &mut self.palace_attack));
        v.push(("rook_on_king_file".into(), &mut self.rook_on_king_file));
        v.push(("safe_check".into(), &mut self.safe_check));
        v.push(("king_no_escape".into(), &mut self.king_no_escape));
        v.push(("hanging".into(), &mut self.hanging));
        v.push(("threat_by_pawn".into(), &mut self.threat_by_pawn));
        v.push(("rook_threatened".into(), &mut self.rook_threatened));
        v.push(("tempo".into(), &mut self.tempo));
        if with_pst {
            for (k, row) in self.pst_delta.iter_mut().enumerate() {
                for (i, value) in row.iter_mut().enumerate() {
                    if pst_point_used(k, i) {
                        let (f, r) = (i % 5, i / 5);
                        let point = format!("{}{r}", (b'a' + f as u8) as char);
                        v.push((format!("pst.{}.{point}", KIND_NAMES[k]), value));
                    }
                }
            }
            for (table, values) in [
                ("rook_mobility", &mut self.rook_mobility_table[..]),
                ("horse_mobility", &mut self.horse_mobility_table[..]),
                ("cannon_mobility", &mut self.cannon_mobility_table[..]),
                ("palace_attack", &mut self.palace_attack_table[..]),
            ] {
                for (n, value) in values.iter_mut().enumerate() {
                    v.push((format!("table.{table}.{n}"), value));
                }
            }
        }
        v
    }

    /// The body of a Rust `EvalParams { ... }` literal holding these values (the
    /// tuner writes it into this file).
    pub fn rust_fields(&self) -> String {
        let p = |x: S| format!("s({}, {})", x.mg, x.eg);
        let mut out = String::new();
        out.push_str("    material: [\n");
        for &m in &self.material {
            out.push_str(&format!("        {},\n", p(m)));
        }
        out.push_str("    ],\n");
        let mut me = self.clone();
        for (name, value) in me.entries_mut().into_iter().skip(6) {
            out.push_str(&format!("    {name}: {},\n", p(*value)));
        }
        out.push_str("    pst_delta: [\n");
        for (k, row) in self.pst_delta.iter().enumerate() {
            out.push_str(&format!("        // {}\n        [\n", KIND_NAMES[k]));
            for rank in row.chunks(5) {
                let values: Vec<String> = rank.iter().map(|&v| p(v)).collect();
                out.push_str(&format!("            {},\n", values.join(", ")));
            }
            out.push_str("        ],\n");
        }
        out.push_str("    ],\n");
        // The count tables, from their `table.<field>.<n>` entries (the one list of
        // them is in `collect_entries`), five values to a line.
        let mut tables: Vec<(String, Vec<S>)> = Vec::new();
        for (name, value) in me.all_entries_mut() {
            let Some(rest) = name.strip_prefix("table.") else {
                continue;
            };
            let field = format!("{}_table", rest.rsplit_once('.').map_or(rest, |(f, _)| f));
            match tables.last_mut() {
                Some((last, values)) if *last == field => values.push(*value),
                _ => tables.push((field, vec![*value])),
            }
        }
        for (table, values) in tables {
            out.push_str(&format!("    {table}: [\n"));
            for row in values.chunks(5) {
                let values: Vec<String> = row.iter().map(|&v| p(v)).collect();
                out.push_str(&format!("        {},\n", values.join(", ")));
            }
            out.push_str("    ],\n");
        }
        out
    }
}
