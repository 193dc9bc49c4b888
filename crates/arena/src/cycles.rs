//! Generated repetition games, for differential testing of the 棋例 (issue 23).
//!
//! Each game starts from a random legal position with few pieces; both sides then
//! walk closed loops of quiet moves — one piece out and back, a slider around a
//! triangle on one line, two pieces out and back in either order — so that the
//! start position comes back every period of 4, 6 or 8 plies. The game ends at the
//! first position that has occurred three times (the 待判局面 of CXA §23.1), so
//! every game is a repetition to be ruled. Moves are drawn with a bias towards
//! checks, attacks on enemy pieces and moves of attacked pieces, so that checks,
//! chases, protected and unprotected targets and pins come up often; a share of the
//! games is left to chance.
//!
//! Everything is deterministic: game `i` of seed `s` is the same on every machine
//! ([`SplitMix64`]). [`Generated`] carries Chuhan's ruling under both rule sets,
//! ready to be compared with another implementation (`tests/rules_diff/compare.py`
//! compares the AXF rulings with Fairy-Stockfish's).
//!
//! ```
//! use chuhan_arena::cycles::generate;
//! let a = generate(1, 0);
//! assert_eq!(a.moves, generate(1, 0).moves); // deterministic
//! assert!(a.moves.len() >= 8 && a.period >= 4); // a third occurrence at the end
//! assert!(a.axf.repeated && a.cxa2011.repeated);
//! ```

use chuhan_engine::core::{Color, Move, PieceKind, Position, SplitMix64, Square};
use chuhan_engine::rules::{RuleSet, judge_position};
use serde::Serialize;
use std::collections::HashMap;

/// The loops a side walks in one period, by the number of its moves in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// Two moves: one piece out and back.
    OutAndBack,
    /// Three moves: a rook or cannon around three points of one line.
    Triangle,
    /// Four moves: one piece out, a second out, the first back, the second back.
    TwoPiecesCrossed,
    /// Four moves: one piece out and back, then a second piece out and back.
    TwoPiecesInTurn,
    /// Four moves: one piece two steps out and the same two steps back.
    TwoStepsOutAndBack,
}

impl Shape {
    /// Moves of the side in one walk of the loop.
    pub fn moves(self) -> usize {
        match self {
            Shape::OutAndBack => 2,
            Shape::Triangle => 3,
            _ => 4,
        }
    }
}

/// Chuhan's ruling on a generated game under one rule set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ruling {
    /// A repetition was found (always, for a generated game).
    pub repeated: bool,
    /// The side that must vary, `red`, `black`, or `draw` when nobody must.
    pub must_vary: String,
    /// Red's pattern (長將, 長捉, 一將一捉, 閒, ...).
    pub red: String,
    /// Black's pattern.
    pub black: String,
}

/// One generated repetition game with Chuhan's rulings.
#[derive(Clone, Debug, Serialize)]
pub struct Generated {
    /// `seed-index`, e.g. `1-17`.
    pub id: String,
    /// The start position.
    pub fen: String,
    /// The moves in ICCS, ending at the first third occurrence of a position.
    pub moves: Vec<String>,
    /// Plies between two occurrences of the repeated position.
    pub period: usize,
    /// The loops walked by the side to move at the start and by the other side.
    pub shapes: [Shape; 2],
    /// Some move of the game checks.
    pub checks: bool,
    /// Side to move at the end, `red` or `black`.
    pub to_move: String,
    /// The ruling under the AXF rules.
    pub axf: Ruling,
    /// The ruling under the CXA 2011 rules.
    pub cxa2011: Ruling,
}

/// Pieces (besides the kings) each side gets, drawn with these weights.
const KINDS: [(PieceKind, u64); 6] = [
    (PieceKind::Rook, 4),
    (PieceKind::Horse, 3),
    (PieceKind::Cannon, 3),
    (PieceKind::Pawn, 2),
    (PieceKind::Advisor, 2),
    (PieceKind::Elephant, 2),
];

/// Attempts per game before the generator gives up on a stream and draws a new one
/// (each attempt is a fresh position; most succeed within a few).
const ATTEMPTS: usize = 10_000;

/// Game `index` of run `seed` (see the module documentation).
pub fn generate(seed: u64, index: u64) -> Generated {
    let mut rng = SplitMix64::new(SplitMix64::mix(seed) ^ SplitMix64::mix(index ^ 0x9e37));
    // Roles of the side to move at the start and of the other side: mostly one
    // chaser against a defender, sometimes both chasing, sometimes neither steered.
    let roles = match rng.below(8) {
        0..=2 => [Role::Chaser, Role::Defender],
        3..=5 => [Role::Defender, Role::Chaser],
        6 => [Role::Chaser, Role::Chaser],
        _ => [Role::Free, Role::Free],
    };
    for _ in 0..ATTEMPTS {
        let Some(start) = random_position(&mut rng) else {
            continue;
        };
        let shapes = random_shapes(&mut rng);
        if let Some(moves) = play_loops(&start, shapes, roles, &mut rng) {
            return finish(format!("{seed}-{index}"), &start, moves, shapes);
        }
    }
    unreachable!("no repetition game in {ATTEMPTS} attempts")
}

/// The two sides' loops: periods of 4, 6 and 8 plies equally often (a side with
/// an out-and-back loop walks it twice in a period of 8).
fn random_shapes(rng: &mut SplitMix64) -> [Shape; 2] {
    const FOUR: [Shape; 4] = [
        Shape::TwoPiecesCrossed,
        Shape::TwoPiecesInTurn,
        Shape::TwoStepsOutAndBack,
        Shape::OutAndBack,
    ];
    match rng.below(3) {
        0 => [Shape::OutAndBack; 2],
        1 => [Shape::Triangle; 2],
        _ => {
            let a = FOUR[rng.below(3)];
            let b = FOUR[rng.below(4)];
            if rng.below(2) == 0 { [a, b] } else { [b, a] }
        }
    }
}

/// Squares of `color`'s side of the river where a piece of `kind` may stand.
fn homes(kind: PieceKind, color: Color) -> Vec<Square> {
    let all = (0..90u8).filter_map(Square::from_index);
    let red: Vec<Square> = match kind {
        PieceKind::King => all.filter(|s| in_palace(*s)).collect(),
        PieceKind::Advisor => ["d0", "f0", "e1", "d2", "f2"]
            .iter()
            .map(|s| s.parse().expect("square"))
            .collect(),
        PieceKind::Elephant => ["c0", "g0", "a2", "e2", "i2", "c4", "g4"]
            .iter()
            .map(|s| s.parse().expect("square"))
            .collect(),
        PieceKind::Pawn => all
            .filter(|s| {
                let (f, r) = (s.file().index(), s.rank().index());
                r >= 5 || ((r == 3 || r == 4) && f % 2 == 0)
            })
            .collect(),
        _ => all.collect(),
    };
    match color {
        Color::Red => red,
        Color::Black => red.into_iter().map(Square::flip).collect(),
    }
}

fn in_palace(s: Square) -> bool {
    (3..=5).contains(&s.file().index()) && s.rank().index() <= 2
}

/// A random legal position: two kings and one to four other pieces a side.
fn random_position(rng: &mut SplitMix64) -> Option<Position> {
    let mut board: [Option<(Color, PieceKind)>; 90] = [None; 90];
    let mut counts: HashMap<(Color, PieceKind), u32> = HashMap::new();
    let mut place = |rng: &mut SplitMix64, color: Color, kind: PieceKind| {
        let count = counts.entry((color, kind)).or_default();
        if *count >= kind.max_count() {
            return;
        }
        let free: Vec<Square> = homes(kind, color)
            .into_iter()
            .filter(|s| board[s.index()].is_none())
            .collect();
        if !free.is_empty() {
            board[free[rng.below(free.len())].index()] = Some((color, kind));
            *count += 1;
        }
    };
    for color in Color::ALL {
        place(rng, color, PieceKind::King);
        let n = 1 + rng.below(4);
        let total: u64 = KINDS.iter().map(|k| k.1).sum();
        for _ in 0..n {
            let mut r = rng.below(total as usize) as u64;
            let kind = KINDS
                .iter()
                .find(|(_, w)| {
                    let hit = r < *w;
                    r = r.saturating_sub(*w);
                    hit
                })
                .map_or(PieceKind::Rook, |k| k.0);
            place(rng, color, kind);
        }
    }
    let side = if rng.below(2) == 0 { 'w' } else { 'b' };
    let fen = format!("{} {side} - - 0 1", placement_fen(&board));
    let pos = Position::from_fen(&fen).ok()?;
    pos.has_legal_move().then_some(pos)
}

fn placement_fen(board: &[Option<(Color, PieceKind)>; 90]) -> String {
    let mut rows = Vec::new();
    for r in (0..10).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..9 {
            match board[r * 9 + f] {
                None => empty += 1,
                Some((c, k)) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let ch = k.fen_char();
                    row.push(if c == Color::Red {
                        ch
                    } else {
                        ch.to_ascii_lowercase()
                    });
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

/// What one move of a loop is to be.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// A new quiet move of any piece (the loop's first or second piece), of a rook
    /// or cannon if `slider`.
    Out { piece: usize, slider: bool },
    /// A quiet move of the loop's `piece` to a point on the line of its origin.
    Along { piece: usize },
    /// A quiet move of `piece` back to the point it came from.
    Back { piece: usize },
    /// A quiet move of `piece` back to its origin.
    Home { piece: usize },
}

fn steps(shape: Shape) -> Vec<Step> {
    use Step::*;
    match shape {
        Shape::OutAndBack => vec![
            Out {
                piece: 0,
                slider: false,
            },
            Back { piece: 0 },
        ],
        Shape::Triangle => vec![
            Out {
                piece: 0,
                slider: true,
            },
            Along { piece: 0 },
            Home { piece: 0 },
        ],
        Shape::TwoPiecesCrossed => vec![
            Out {
                piece: 0,
                slider: false,
            },
            Out {
                piece: 1,
                slider: false,
            },
            Back { piece: 0 },
            Back { piece: 1 },
        ],
        Shape::TwoPiecesInTurn => vec![
            Out {
                piece: 0,
                slider: false,
            },
            Back { piece: 0 },
            Out {
                piece: 1,
                slider: false,
            },
            Back { piece: 1 },
        ],
        Shape::TwoStepsOutAndBack => vec![
            Out {
                piece: 0,
                slider: false,
            },
            Out {
                piece: 0,
                slider: false,
            },
            Back { piece: 0 },
            Back { piece: 0 },
        ],
    }
}

/// Where a side's loop pieces are: for each, the points it has passed through (its
/// origin first).
#[derive(Clone, Debug, Default)]
struct Walk {
    paths: [Vec<Square>; 2],
}

/// Plays both sides' loops from `start` for up to three periods, until some
/// position occurs a third time; `None` if a loop cannot be walked (no legal move
/// of the kind wanted, a capture, the game ending).
fn play_loops(
    start: &Position,
    shapes: [Shape; 2],
    roles: [Role; 2],
    rng: &mut SplitMix64,
) -> Option<Vec<Move>> {
    // Both sides move equally often in a period: a shorter loop (2 against 4) is
    // walked twice.
    let plans = [steps(shapes[0]), steps(shapes[1])];
    let n = plans[0].len().max(plans[1].len());
    let plan = |side: usize, i: usize| plans[side][i % plans[side].len()];
    let mut pos = start.clone();
    let mut walks = [Walk::default(), Walk::default()];
    let mut period = Vec::new();
    for i in 0..n {
        for side in 0..2 {
            if plans[side].len() < n && i == plans[side].len() {
                // The shorter loop starts again: its pieces are home.
                walks[side] = Walk::default();
            }
            let m = choose(&pos, plan(side, i), &mut walks[side], roles[side], rng)?;
            pos.make_move(m);
            period.push(m);
        }
    }
    if pos.key() != start.key() {
        return None;
    }
    // Replay until a third occurrence.
    let mut pos = start.clone();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    seen.insert(pos.key(), 1);
    let mut moves = Vec::new();
    for &m in period.iter().cycle().take(3 * period.len()) {
        if !pos.is_legal(m) {
            return None;
        }
        pos.make_move(m);
        moves.push(m);
        let c = seen.entry(pos.key()).or_default();
        *c += 1;
        if *c == 3 {
            return Some(moves);
        }
    }
    None
}

/// The move for `step` of the side to move in `pos`, updating its walk.
fn choose(
    pos: &Position,
    step: Step,
    walk: &mut Walk,
    role: Role,
    rng: &mut SplitMix64,
) -> Option<Move> {
    let quiet: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| pos.piece_at(m.to()).is_none())
        .collect();
    let m = match step {
        Step::Back { piece } => {
            let path = &mut walk.paths[piece];
            let at = *path.last()?;
            let to = path[path.len().checked_sub(2)?];
            let m = Move::new(at, to);
            quiet.contains(&m).then_some(m)?
        }
        Step::Home { piece } => {
            let path = &walk.paths[piece];
            let m = Move::new(*path.last()?, *path.first()?);
            quiet.contains(&m).then_some(m)?
        }
        Step::Along { piece } => {
            let path = &walk.paths[piece];
            let (origin, at) = (*path.first()?, *path.last()?);
            let line = |s: Square| {
                s.file() == origin.file() && s.file() == at.file()
                    || s.rank() == origin.rank() && s.rank() == at.rank()
            };
            let kind = pos.piece_at(at)?.kind;
            if !matches!(kind, PieceKind::Rook | PieceKind::Cannon) {
                return None;
            }
            let options: Vec<Move> = quiet
                .iter()
                .copied()
                .filter(|m| m.from() == at && m.to() != origin && line(m.to()))
                .collect();
            pick(pos, &options, role, rng)?
        }
        Step::Out { piece, slider } => {
            let path = &walk.paths[piece];
            let other = &walk.paths[1 - piece];
            let options: Vec<Move> = quiet
                .iter()
                .copied()
                .filter(|m| match path.last() {
                    // A second step of the same piece, not straight back.
                    Some(&at) => m.from() == at && Some(&m.to()) != path.first(),
                    // A piece the other loop does not move.
                    None => other.last() != Some(&m.from()),
                })
                .filter(|m| {
                    !slider
                        || pos
                            .piece_at(m.from())
                            .is_some_and(|p| matches!(p.kind, PieceKind::Rook | PieceKind::Cannon))
                })
                .collect();
            pick(pos, &options, role, rng)?
        }
    };
    let piece = match step {
        Step::Out { piece, .. }
        | Step::Along { piece }
        | Step::Back { piece }
        | Step::Home { piece } => piece,
    };
    let path = &mut walk.paths[piece];
    if path.is_empty() {
        path.push(m.from());
    }
    match step {
        Step::Back { .. } => {
            path.pop();
        }
        Step::Home { .. } => path.truncate(1),
        _ => path.push(m.to()),
    }
    Some(m)
}

/// How a side's moves are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Towards checks and attacks on enemy pieces by the moved piece.
    Chaser,
    /// Towards moves of attacked pieces.
    Defender,
    /// Uniformly.
    Free,
}

/// A random move from `options`, weighted as the side's `role` says.
fn pick(pos: &Position, options: &[Move], role: Role, rng: &mut SplitMix64) -> Option<Move> {
    if options.is_empty() {
        return None;
    }
    if role == Role::Free {
        return Some(options[rng.below(options.len())]);
    }
    let us = pos.side_to_move();
    let weights: Vec<usize> = options
        .iter()
        .map(|&m| {
            let mut w = 1;
            let check = pos.gives_check(m);
            let mut after = pos.clone();
            after.make_move(m);
            let hits = (after.pseudo_targets(m.to()) & after.color(!us)).any();
            let attacked = (pos.attackers_to(m.from(), pos.occupied()) & pos.color(!us)).any();
            match role {
                Role::Chaser => w += 6 * usize::from(check) + 12 * usize::from(hits),
                _ => w += 10 * usize::from(attacked) + 2 * usize::from(hits),
            }
            w
        })
        .collect();
    let total: usize = weights.iter().sum();
    let mut r = rng.below(total);
    for (m, w) in options.iter().zip(weights) {
        if r < w {
            return Some(*m);
        }
        r -= w;
    }
    options.last().copied()
}

fn finish(id: String, start: &Position, moves: Vec<Move>, shapes: [Shape; 2]) -> Generated {
    let mut pos = start.clone();
    let mut checks = false;
    for &m in &moves {
        checks |= pos.gives_check(m);
        pos.make_move(m);
    }
    let period = (4..=moves.len())
        .step_by(2)
        .find(|&p| {
            let h = pos.history();
            h.len() >= p && h[h.len() - p].key == pos.key()
        })
        .unwrap_or(moves.len());
    let ruling = |rules: RuleSet| {
        let j = judge_position(&pos, rules);
        match j.repetition {
            Some(r) => Ruling {
                repeated: true,
                must_vary: r.must_vary.map_or("draw", |c| c.name()).to_string(),
                red: r.red,
                black: r.black,
            },
            None => Ruling {
                repeated: false,
                must_vary: "none".to_string(),
                red: String::new(),
                black: String::new(),
            },
        }
    };
    Generated {
        id,
        fen: start.to_fen(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        period,
        shapes,
        checks,
        to_move: pos.side_to_move().name().to_string(),
        axf: ruling(RuleSet::Axf),
        cxa2011: ruling(RuleSet::Cxa2011),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_end_at_a_third_occurrence_and_cover_the_shapes() {
        let mut periods = std::collections::BTreeSet::new();
        let mut checks = 0;
        for i in 0..60 {
            let g = generate(7, i);
            let mut pos = Position::from_fen(&g.fen).unwrap();
            let mut seen: HashMap<u64, u32> = HashMap::new();
            seen.insert(pos.key(), 1);
            for (k, text) in g.moves.iter().enumerate() {
                let m: Move = text.parse().unwrap();
                assert!(pos.is_legal(m), "{}: {text}", g.id);
                assert!(pos.piece_at(m.to()).is_none(), "{}: a capture", g.id);
                pos.make_move(m);
                let c = seen.entry(pos.key()).or_default();
                *c += 1;
                // The third occurrence comes with the last move and not before.
                assert_eq!(*c == 3, k + 1 == g.moves.len(), "{}", g.id);
            }
            assert!(g.axf.repeated && g.cxa2011.repeated, "{}", g.id);
            periods.insert(g.period);
            checks += usize::from(g.checks);
        }
        assert!(
            periods.contains(&4) && periods.contains(&6) && periods.contains(&8),
            "{periods:?}"
        );
        assert!(checks > 5, "{checks} games with checks");
    }
}
