//! Every evaluation weight, with where it came from.
//!
//! Units: a pawn on its own side of the river is about 80 in the middlegame, a
//! horse about 500. All values are our own: the starting points are the human
//! rules of thumb of xiangqi literature (rook = 2 horses = 2 cannons = horse +
//! cannon; advisor = elephant ≈ 2 pawns; a pawn across the river ≈ 2 pawns at home;
//! cannons are stronger than horses with many pieces on the board and weaker in
//! the endgame), then adjusted by self-play and the bench positions, then tuned by
//! `chuhan tune` on quiet positions of Chuhan's games (160,000 in the last run)
//! labelled half by the game's result and half by a 3,000-node Fairy-Stockfish
//! search (`scripts/fsf_label.py`; the CHANGELOG has the runs). No value is taken
//! from another engine's tables.
//!
//! The weights that `chuhan_arena::tune` can change are fields of [`EvalParams`];
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
    /// A rook on the enemy king's file or rank with exactly one piece between: a
    /// pin of an enemy piece or a discovered check by ours.
    pub rook_xray_king: S,
    /// A cannon on the enemy king's file or rank with exactly two pieces between:
    /// one of them moving away gives check (a pin or a discovered check).
    pub cannon_xray_king: S,
    /// Both elephants, guarding each other.
    pub elephants_connected: S,
    /// Both advisors, guarding each other.
    pub advisors_connected: S,
    /// Both rooks still on the board.
    pub rook_pair: S,
    /// Both horses still on the board.
    pub horse_pair: S,
    /// Both cannons still on the board.
    pub cannon_pair: S,
    /// A horse or cannon attacked by an enemy rook.
    pub minor_threatened: S,
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
    /// King safety by the number of our rooks, horses and cannons that attack a
    /// point of the enemy palace (0–6).
    pub king_attackers_table: [S; 7],
}

/// Points of a half board (files a–e, ranks 0–9): the size of one
/// [`EvalParams::pst_delta`] row.
pub const PST_POINTS: usize = 50;

/// The [`EvalParams::pst_delta`] index of file `f`, rank `r` (Red's point of view):
/// mirror-image files share one entry.
///
/// ```
/// use chuhan_engine::eval::params::pst_index;
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
        s(3323, 435),
        s(756, 420),
        s(248, 74),
        s(204, 127),
        s(0, 0),
        s(981, 425),
        s(114, 131),
    ],
    pawn_crossed: s(116, 32),
    pawn_advance: s(131, -4),
    pawn_palace_file: s(159, 67),
    pawn_back_rank: s(-153, -70),
    pawn_home_center: s(94, 77),
    horse_center: s(-14, -14),
    horse_edge: s(-61, 29),
    horse_back_rank: s(-163, 2),
    horse_near_palace: s(131, -3),
    rook_across: s(22, -31),
    rook_undeveloped: s(-57, -32),
    cannon_center_file: s(-21, -10),
    cannon_across: s(-2, -100),
    king_off_home: s(-122, 21),
    advisor_center: s(-50, 26),
    elephant_center: s(-36, 23),
    rook_mobility: s(9, 4),
    horse_mobility: s(22, -2),
    cannon_mobility: s(1, -4),
    horse_trapped: s(0, -110),
    cannon_live_target: s(75, 23),
    cannon_no_screen: s(26, 31),
    rook_open_file: s(24, 23),
    pawn_connected: s(458, -193),
    missing_advisor: s(-539, -3),
    missing_elephant: s(-203, 23),
    hollow_cannon: s(175, -23),
    cannon_pins_center_horse: s(50, 20),
    bottom_cannon: s(-33, 19),
    palace_attack: s(9, 1),
    rook_on_king_file: s(30, 15),
    safe_check: s(164, -23),
    king_no_escape: s(-5, 177),
    hanging: s(-63, -36),
    threat_by_pawn: s(-177, -122),
    rook_threatened: s(-92, 103),
    rook_xray_king: s(87, 22),
    cannon_xray_king: s(90, 24),
    elephants_connected: s(100, -40),
    advisors_connected: s(98, -17),
    rook_pair: s(-1147, -88),
    horse_pair: s(45, 56),
    cannon_pair: s(58, -122),
    minor_threatened: s(-53, -66),
    tempo: s(136, -12),
    pst_delta: [
        // rook
        [
            s(-42, -29), s(-17, -42), s(-44, -69), s(45, -54), s(2, 4),
            s(-73, -31), s(-102, -6), s(-67, 0), s(20, 16), s(-27, -1),
            s(-60, -14), s(21, 0), s(17, 23), s(50, 28), s(57, 39),
            s(-15, 27), s(-43, 5), s(39, 30), s(74, -2), s(5, 44),
            s(26, 5), s(20, 7), s(84, 1), s(59, 0), s(18, 52),
            s(-44, 9), s(-54, 2), s(8, -32), s(-34, 53), s(-5, 25),
            s(27, 2), s(-16, 1), s(71, -44), s(31, -8), s(-40, 21),
            s(-31, -4), s(-42, -6), s(-59, 3), s(13, 56), s(5, 47),
            s(-58, -18), s(-1, -40), s(-7, -26), s(37, -1), s(29, 22),
            s(-12, -13), s(68, -63), s(49, -40), s(63, 4), s(3, 0),
        ],
        // horse
        [
            s(-14, -10), s(39, -48), s(-11, -10), s(78, 106), s(-21, -16),
            s(-23, -13), s(-4, -2), s(-60, 11), s(-40, 19), s(-70, -28),
            s(23, 0), s(-38, -38), s(-7, -43), s(27, 0), s(-38, -21),
            s(-12, -19), s(7, -14), s(-54, 39), s(-63, 10), s(51, -13),
            s(-1, -6), s(12, 64), s(122, 11), s(24, -15), s(-21, 6),
            s(26, -2), s(2, 14), s(5, 29), s(158, -4), s(-7, 6),
            s(17, -39), s(142, 13), s(-67, 8), s(27, -21), s(-68, 6),
            s(76, 70), s(48, 24), s(-120, 25), s(55, -34), s(40, 27),
            s(-23, -24), s(-60, 0), s(87, -4), s(14, 2), s(-7, -11),
            s(1, 14), s(-3, 25), s(40, 34), s(9, 13), s(5, 3),
        ],
        // elephant
        [
            s(0, 0), s(0, 0), s(0, -26), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(-8, -26), s(0, 0), s(0, 0), s(0, 0), s(76, -44),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(2, -3), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
        ],
        // advisor
        [
            s(0, 0), s(0, 0), s(0, 0), s(29, -15), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(95, -42),
            s(0, 0), s(0, 0), s(0, 0), s(3, -25), s(0, 0),
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
            s(0, 0), s(0, 0), s(0, 0), s(-10, 26), s(110, -42),
            s(0, 0), s(0, 0), s(0, 0), s(10, 4), s(-8, 8),
            s(0, 0), s(0, 0), s(0, 0), s(-78, -13), s(-22, 15),
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
            s(-30, 5), s(-96, -26), s(-16, -57), s(24, -13), s(-8, 37),
            s(24, 11), s(-1, -21), s(16, -39), s(35, 0), s(-7, -9),
            s(26, 12), s(-23, -23), s(52, -18), s(86, 11), s(32, 39),
            s(10, -10), s(2, -24), s(-8, -38), s(17, -21), s(75, -22),
            s(-62, 43), s(47, -21), s(24, -23), s(9, 32), s(3, 46),
            s(18, 47), s(17, 20), s(10, -6), s(9, 1), s(63, -22),
            s(36, 38), s(18, 15), s(89, -14), s(-12, -21), s(89, -32),
            s(7, -21), s(-18, 5), s(26, 13), s(-43, -20), s(-43, 3),
            s(9, 73), s(-47, 22), s(-37, 7), s(-50, -29), s(-28, -31),
            s(35, 0), s(29, -28), s(-49, -48), s(-99, -71), s(-91, -118),
        ],
        // pawn
        [
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(-42, 27), s(0, 0), s(-26, -27), s(0, 0), s(33, -29),
            s(11, 14), s(0, 0), s(59, -7), s(0, 0), s(-14, 37),
            s(-31, -5), s(50, 22), s(50, 15), s(-9, -12), s(4, -8),
            s(-61, 18), s(-7, 6), s(-24, 39), s(-25, -55), s(-18, -38),
            s(-57, -5), s(-36, -21), s(19, 49), s(-2, 114), s(25, 48),
            s(-53, -116), s(-15, -72), s(32, 24), s(131, -33), s(26, 32),
            s(-15, -30), s(-9, -1), s(34, 108), s(2, -51), s(-19, -34),
        ],
    ],
    rook_mobility_table: [
        s(7, 0), s(-30, -12), s(27, -55), s(-11, 14), s(-1, -18),
        s(-6, 12), s(5, 43), s(32, -9), s(8, 25), s(5, 0),
        s(-4, 12), s(-3, 16), s(-2, 1), s(-26, 31), s(7, -7),
        s(-13, 12), s(10, -35), s(3, -30),
    ],
    horse_mobility_table: [
        s(4, 3), s(-4, -3), s(-8, -24), s(5, 11), s(-3, 12),
        s(12, 16), s(-3, -8), s(3, 6), s(-4, -13),
    ],
    cannon_mobility_table: [
        s(-3, 25), s(-47, -12), s(-10, 7), s(-21, -52), s(12, -8),
        s(30, -1), s(6, 6), s(0, 32), s(17, -2), s(-1, 17),
        s(30, 5), s(38, -21), s(20, -7), s(-9, 16), s(30, 0),
        s(4, 30), s(-31, 9), s(-60, -43),
    ],
    palace_attack_table: [
        s(28, 36), s(-6, -18), s(-9, -11), s(-4, -12), s(-17, -16),
        s(-24, 4), s(-1, 6), s(26, 9), s(6, 3), s(0, 0),
    ],
    king_attackers_table: [
        s(-13, -29), s(-24, 7), s(-16, -7), s(30, 23), s(22, 5),
        s(2, 0), s(0, 0),
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
        v.push(("rook_xray_king".into(), &mut self.rook_xray_king));
        v.push(("cannon_xray_king".into(), &mut self.cannon_xray_king));
        v.push(("elephants_connected".into(), &mut self.elephants_connected));
        v.push(("advisors_connected".into(), &mut self.advisors_connected));
        v.push(("rook_pair".into(), &mut self.rook_pair));
        v.push(("horse_pair".into(), &mut self.horse_pair));
        v.push(("cannon_pair".into(), &mut self.cannon_pair));
        v.push(("minor_threatened".into(), &mut self.minor_threatened));
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
                ("king_attackers", &mut self.king_attackers_table[..]),
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
