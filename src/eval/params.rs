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
        s(1198, 1298),
        s(464, 548),
        s(198, 104),
        s(256, 118),
        s(0, 0),
        s(616, 534),
        s(98, 108),
    ],
    pawn_crossed: s(40, 48),
    pawn_advance: s(63, 41),
    pawn_palace_file: s(81, 70),
    pawn_back_rank: s(-82, -104),
    pawn_home_center: s(54, 48),
    horse_center: s(-62, -2),
    horse_edge: s(31, -6),
    horse_back_rank: s(-54, -16),
    horse_near_palace: s(85, 9),
    rook_across: s(72, -12),
    rook_undeveloped: s(-45, -56),
    cannon_center_file: s(75, -20),
    cannon_across: s(-1, -48),
    king_off_home: s(-76, 1),
    advisor_center: s(66, -5),
    elephant_center: s(66, -1),
    rook_mobility: s(-2, 3),
    horse_mobility: s(26, -2),
    cannon_mobility: s(11, -9),
    horse_trapped: s(16, -84),
    cannon_live_target: s(44, 64),
    cannon_no_screen: s(-7, 6),
    rook_open_file: s(70, 32),
    pawn_connected: s(-41, -26),
    missing_advisor: s(-116, -56),
    missing_elephant: s(-99, 22),
    hollow_cannon: s(154, -6),
    cannon_pins_center_horse: s(50, 20),
    bottom_cannon: s(19, -7),
    palace_attack: s(40, -8),
    rook_on_king_file: s(30, 15),
    safe_check: s(86, -4),
    king_no_escape: s(80, 60),
    hanging: s(-52, -37),
    threat_by_pawn: s(-126, -106),
    rook_threatened: s(-4, -4),
    tempo: s(76, 4),
    pst_delta: [
        // rook
        [
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
        ],
        // horse
        [
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
        ],
        // elephant
        [
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
        ],
        // advisor
        [
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
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
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
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
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
        ],
        // pawn
        [
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
        ],
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

/// Names of the kinds, by [`crate::core::PieceKind`] index (material and
/// piece-square entries)., by [`crate::core::PieceKind`] index.
const KIND_NAMES: [&str; 7] = [
    "rook", "horse", "elephant", "advisor", "king", "cannon", "pawn",
];

impl EvalParams {
    /// Every pair the coordinate-descent tuner changes, with its name
    /// (`material.rook`, `tempo`, ...), in declaration order. The king's material is
    /// left out (it never changes), and so is [`EvalParams::pst_delta`] (see
    /// [`EvalParams::all_entries_mut`]).
    pub fn entries_mut(&mut self) -> Vec<(String, &mut S)> {
        self.collect_entries(false)
    }

    /// [`EvalParams::entries_mut`] followed by every piece-square correction a kind
    /// can use (named `pst.horse.c4`: the kind, then the point on the left half in
    /// Red's view; by kind, then by [`pst_index`]): what `chuhan tune --gradient`
    /// changes.
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
        out
    }
}
