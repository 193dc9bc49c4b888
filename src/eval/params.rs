//! Every evaluation weight, with where it came from.
//!
//! Units: a pawn on its own side of the river is about 80 in the middlegame, a
//! horse about 500. All values are our own: the starting points are the human
//! rules of thumb of xiangqi literature (rook = 2 horses = 2 cannons = horse +
//! cannon; advisor = elephant ≈ 2 pawns; a pawn across the river ≈ 2 pawns at home;
//! cannons are stronger than horses with many pieces on the board and weaker in
//! the endgame), then adjusted by self-play and the bench positions. No value is
//! taken from another engine's tables.

use super::tapered::{S, s};

/// Material by [`crate::core::PieceKind`] index (Rook, Horse, Elephant, Advisor,
/// King, Cannon, Pawn).
pub const MATERIAL: [S; 7] = [
    s(1200, 1350),
    s(520, 600),
    s(200, 160),
    s(200, 170),
    s(0, 0),
    s(560, 500),
    s(80, 110),
];

/// Game-phase weight by kind: the phase is the sum over the board, 48 at the start
/// (only rooks, horses and cannons count: they decide whether attacks are possible).
pub const PHASE_WEIGHT: [i32; 7] = [6, 3, 0, 0, 0, 3, 0];
/// Phase of the full starting army.
pub const MAX_PHASE: i32 = 48;

// --- Piece-square terms (built by formula in `pst.rs`, from Red's point of view) ---

/// A pawn across the river.
pub const PAWN_CROSSED: S = s(60, 80);
/// Each rank a crossed pawn stands closer to the enemy palace (ranks 5→7).
pub const PAWN_ADVANCE: S = s(15, 15);
/// A crossed pawn on the palace files d, e, f.
pub const PAWN_PALACE_FILE: S = s(25, 30);
/// A pawn on the enemy's back rank (老兵: can only move sideways).
pub const PAWN_BACK_RANK: S = s(-60, -70);
/// A pawn at home on the central file (it protects the horse's path).
pub const PAWN_HOME_CENTER: S = s(10, 0);

/// A horse per step of (Chebyshev-like) distance from the board centre, negative.
pub const HORSE_CENTER: S = s(-8, -10);
/// A horse on the a or i file.
pub const HORSE_EDGE: S = s(-25, -20);
/// A horse still on its back rank.
pub const HORSE_BACK_RANK: S = s(-20, -10);
/// A horse within two ranks/files of the enemy palace (臥槽, 掛角 squares).
pub const HORSE_NEAR_PALACE: S = s(35, 25);

/// A rook across the river.
pub const ROOK_ACROSS: S = s(20, 10);
/// A rook on its back rank corner squares in the middlegame (undeveloped).
pub const ROOK_UNDEVELOPED: S = s(-25, 0);

/// A cannon on the central file.
pub const CANNON_CENTER_FILE: S = s(25, 0);
/// A cannon across the river (mostly a liability in the endgame).
pub const CANNON_ACROSS: S = s(5, -10);

/// The king off its home point e0 per step (exposed).
pub const KING_OFF_HOME: S = s(-20, -5);
/// An advisor on the palace centre.
pub const ADVISOR_CENTER: S = s(10, 5);
/// An elephant on the central point e2.
pub const ELEPHANT_CENTER: S = s(10, 5);

// --- Mobility ---

/// Per pseudo-legal destination of a rook.
pub const ROOK_MOBILITY: S = s(6, 9);
/// Per unblocked horse jump to a square not attacked by an enemy pawn.
pub const HORSE_MOBILITY: S = s(12, 12);
/// Per quiet move of a cannon.
pub const CANNON_MOBILITY: S = s(3, 3);
/// A horse with at most one jump.
pub const HORSE_TRAPPED: S = s(-40, -40);

// --- Piece knowledge ---

/// A cannon with a screen behind which an enemy piece (not a pawn) stands: a live
/// threat or pin.
pub const CANNON_LIVE_TARGET: S = s(12, 8);
/// A cannon with no piece at all on its lines to use as a screen (a dead cannon).
pub const CANNON_NO_SCREEN: S = s(-15, -30);
/// A rook on a file without pawns of its own side.
pub const ROOK_OPEN_FILE: S = s(20, 10);
/// Two crossed pawns side by side.
pub const PAWN_CONNECTED: S = s(15, 30);

// --- King safety ---

/// Attack weight of a piece across the river, by kind index (rook, horse, cannon,
/// crossed pawn; defenders 0).
pub const ATTACK_WEIGHT: [i32; 7] = [2, 2, 0, 0, 0, 1, 1];
/// Cap of the attack weight (and its divisor in the scaled terms).
pub const ATTACK_MAX: i32 = 8;
/// A missing advisor, at full attack weight.
pub const MISSING_ADVISOR: S = s(-60, -30);
/// A missing elephant, at full attack weight.
pub const MISSING_ELEPHANT: S = s(-45, -20);
/// A cannon facing the enemy king on its file with nothing between (空頭炮).
pub const HOLLOW_CANNON: S = s(100, 50);
/// A cannon on the king's file whose only screen is an enemy horse on the palace
/// centre (炮鎮窩心馬).
pub const CANNON_PINS_CENTER_HORSE: S = s(50, 20);
/// A cannon on the enemy back rank with the king on that rank (沉底炮).
pub const BOTTOM_CANNON: S = s(35, 15);
/// Per enemy palace point attacked by a rook, horse, cannon or pawn.
pub const PALACE_ATTACK: S = s(8, 4);
/// A rook on the enemy king's file with no piece between (a direct threat).
pub const ROOK_ON_KING_FILE: S = s(30, 15);

/// Bonus for the side to move.
pub const TEMPO: S = s(20, 10);

/// A side without rooks, horses, cannons or pawns cannot win: its advantage is
/// divided by this.
pub const NO_ATTACKER_DIVISOR: i32 = 16;
