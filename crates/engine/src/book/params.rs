//! The book's tunables: selection temperatures and the builder's weighting, each
//! with where its value came from.

/// Temperature of [`super::Randomness::Tiny`]: `p ∝ weight⁴`, nearly always the top
/// move. The five levels double from 0.25 to 4 so that `medium` is exactly
/// ElephantEye's rule (probability proportional to weight).
pub const TEMPERATURE_TINY: f64 = 0.25;
/// Temperature of [`super::Randomness::Small`]: `p ∝ weight²`.
pub const TEMPERATURE_SMALL: f64 = 0.5;
/// Temperature of [`super::Randomness::Medium`]: `p ∝ weight` (ElephantEye's
/// choice, `DOC/eleeye_book.htm` §7.3).
pub const TEMPERATURE_MEDIUM: f64 = 1.0;
/// Temperature of [`super::Randomness::Large`]: `p ∝ √weight`.
pub const TEMPERATURE_LARGE: f64 = 2.0;
/// Temperature of [`super::Randomness::Huge`]: `p ∝ weight^¼`, close to uniform over
/// the moves with a positive weight.
pub const TEMPERATURE_HUGE: f64 = 4.0;

/// Builder: points a move earns for each game its side went on to win. The
/// 3 / 1 / −1 scheme is the one ElephantEye documents for its book
/// (`DOC/eleeye_book.htm` §7.2), so built weights are on a familiar scale.
pub const WIN_POINTS: i64 = 3;
/// Builder: points for each drawn game.
pub const DRAW_POINTS: i64 = 1;
/// Builder: points for each lost game (negative: a move that keeps losing fades).
pub const LOSS_POINTS: i64 = -1;
/// Builder: points for each game without a result (`*` or none). Counted like a draw:
/// the move was played by someone, which says something, but nothing about how good
/// it was.
pub const UNKNOWN_POINTS: i64 = 1;

/// Builder default for `--max-ply`: the first 15 moves of each side. Master opening
/// theory rarely goes deeper as a mainline, and deeper positions are mostly unique to
/// one game.
pub const DEFAULT_MAX_PLY: u32 = 30;
/// Builder default for `--min-games`: a move must have been played from its position
/// in at least two games, so that one game's oddity does not enter the book.
pub const DEFAULT_MIN_GAMES: u32 = 2;

/// Generator: weight of the best move of a position. Large enough that the weights
/// of moves a little worse stay distinct integers, small enough to read at a glance
/// (`info depth 0 score 1000 pv ...`).
pub const GENERATED_TOP_WEIGHT: f64 = 1000.0;
/// Generator: a move this many centipawns below the best gets half the best move's
/// weight (`weight = 1000 · 2^(−Δ/25)`). With `randomness medium` a move 25 cp worse
/// is then played half as often as the best and one 50 cp worse a quarter as often:
/// variety among near-equal moves, rarely a clearly worse one.
pub const GENERATED_HALF_LIFE_CP: f64 = 25.0;
/// Generator default for `--width`: at most three different replies per position.
/// The engine's MultiPV cost grows with the width, and with three the tree reaches
/// ten thousand positions within about a dozen plies.
pub const DEFAULT_GENERATE_WIDTH: usize = 3;
/// Generator default for `--margin`: replies more than 40 cp below the best are
/// left out (their weight would be under a third of the best's).
pub const DEFAULT_GENERATE_MARGIN_CP: i32 = 40;
/// Generator default for `--hash`: each search starts from an empty table of this
/// many MB (clearing it per search keeps every result independent of the order and
/// the number of threads). 16 MB holds the few million nodes of a depth-12 search.
pub const DEFAULT_GENERATE_HASH_MB: usize = 16;
