//! Game end (chapter 1 §3–4, §22.2, §23): checkmate, 困斃, repetition rulings, the
//! sixty-move natural limit and dead positions — what a match runner or the daemon
//! asks after every move.

use super::classify::ClassCache;
use super::cycle;
use super::params;
use super::referee::Referee;
use super::repetition::{Analysis, analyse};
use super::ruleset::RuleSet;
use crate::core::{Color, GameResult, PieceKind, Position, Terminal};

/// How the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Play goes on.
    Ongoing,
    /// The side to move is in check with no legal move (將死, §3.2): it loses.
    Checkmate,
    /// The side to move has no legal move (困斃, §3.3): it loses.
    Stalemate,
    /// The position has occurred three times (待判局面, §23.1); see the winner and
    /// the ruling.
    Repetition,
    /// Sixty moves without a capture (自然限著, §4.2.4, §22.2): drawn.
    SixtyMoves,
    /// Neither side has a rook, horse, cannon or pawn left (§4.2.2): drawn.
    DeadPosition,
}

impl Status {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Checkmate => "checkmate",
            Status::Stalemate => "stalemate",
            Status::Repetition => "repetition",
            Status::SixtyMoves => "sixty_moves",
            Status::DeadPosition => "dead_position",
        }
    }
}

/// The state of a game after its last move.
#[derive(Clone, Debug)]
pub struct GameStatus {
    /// What happened.
    pub status: Status,
    /// The result, or `None` while the game goes on — which includes a repetition
    /// in which the side to move is the violator and must now vary (§23.5.2).
    pub winner: Option<GameResult>,
    /// The analysed cycle when `status` is [`Status::Repetition`].
    pub cycle: Option<Analysis>,
}

impl GameStatus {
    /// True when the game is over.
    pub fn is_over(&self) -> bool {
        self.winner.is_some()
    }
}

/// The game's status after its last move.
///
/// A repetition (the third occurrence) is ruled by the cycle: a draw if nobody must
/// vary; a loss for the violator if it is the side that just completed the cycle
/// (it did not vary) or if the violation is a unilateral perpetual check (§23.5.1);
/// otherwise the violator is to move and must vary, and the game goes on.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::core::GameResult;
/// use chuhan_engine::rules::{game_status, RuleSet, Status};
/// let pos = Position::from_fen("3k5/R8/1R7/9/9/9/9/9/9/4K4 w").unwrap();
/// assert_eq!(game_status(&pos, RuleSet::Cxa2011).status, Status::Ongoing);
/// let mut pos = pos;
/// pos.make_move("b7b9".parse().unwrap());
/// let s = game_status(&pos, RuleSet::Cxa2011);
/// assert_eq!((s.status, s.winner), (Status::Checkmate, Some(GameResult::RedWins)));
/// ```
pub fn game_status(pos: &Position, rules: RuleSet) -> GameStatus {
    status_with(pos, rules, None)
}

/// [`game_status`] with a classification cache.
pub fn status_with(pos: &Position, rules: RuleSet, cache: Option<&mut ClassCache>) -> GameStatus {
    status_under(pos, rules, Referee::Text, cache)
}

/// The game's status after its last move as `referee` rules it: by the text
/// ([`game_status`]), or strictly, where the violator of a forbidden cycle loses
/// at the third occurrence whoever made the last move (how GUIs and match tools
/// rule).
///
/// ```
/// use chuhan_engine::core::{GameResult, Position};
/// use chuhan_engine::rules::{status_under, Referee, RuleSet};
/// // Red checks with the rook forever; black's king steps up and back. After
/// // black's eighth move the position before red's first check is there for the
/// // third time, red to move.
/// let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
/// for m in "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8".split(' ') {
///     pos.make_move(m.parse().unwrap());
/// }
/// let text = status_under(&pos, RuleSet::Axf, Referee::Text, None);
/// assert_eq!(text.winner, None, "by the text red must vary");
/// let strict = status_under(&pos, RuleSet::Axf, Referee::Strict, None);
/// assert_eq!(strict.winner, Some(GameResult::BlackWins));
/// ```
pub fn status_under(
    pos: &Position,
    rules: RuleSet,
    referee: Referee,
    cache: Option<&mut ClassCache>,
) -> GameStatus {
    let stm = pos.side_to_move();
    let done = |status, winner| GameStatus {
        status,
        winner: Some(winner),
        cycle: None,
    };
    match pos.terminal() {
        Terminal::Checkmate => return done(Status::Checkmate, GameResult::win_for(!stm)),
        Terminal::Stalemate => return done(Status::Stalemate, GameResult::win_for(!stm)),
        Terminal::Ongoing => {}
    }
    if let Some(c) = cycle::find(pos, 3, rules) {
        let a = analyse(pos, c, rules, cache);
        let winner = match a.verdict.must_vary {
            None => Some(GameResult::Draw),
            Some(_) => a
                .verdict
                .loser_under(stm, referee)
                .map(|l| GameResult::win_for(!l)),
        };
        return GameStatus {
            status: Status::Repetition,
            winner,
            cycle: Some(a),
        };
    }
    if sixty_moves(pos) {
        return done(Status::SixtyMoves, GameResult::Draw);
    }
    if dead_position(pos) {
        return done(Status::DeadPosition, GameResult::Draw);
    }
    GameStatus {
        status: Status::Ongoing,
        winner: None,
        cycle: None,
    }
}

/// §4.2.4 with §22.2: the plies without a capture that `claimant` may count — all
/// of them, less the claimant's checks beyond the first ten. Checks before the
/// position's known history are not seen (a FEN's counter is taken as check-free).
pub fn sixty_move_count(pos: &Position, claimant: Color) -> u32 {
    let plies = pos.rule60();
    let known = (plies as usize).min(pos.game_ply());
    let n = pos.game_ply();
    let mut checks = 0u32;
    for back in 0..known {
        let j = n - back;
        let st = if j == n {
            pos.state()
        } else {
            &pos.history()[j]
        };
        // The move into position j was made by the side not to move there.
        let mover = if back % 2 == 0 {
            !pos.side_to_move()
        } else {
            pos.side_to_move()
        };
        if mover == claimant && st.checkers.any() {
            checks += 1;
        }
    }
    plies - checks.saturating_sub(params::COUNTED_CHECKS)
}

/// True when either side may claim the sixty-move draw (§4.2.4, §22.2). Cheap when
/// fewer than 120 plies have passed since the last capture.
pub fn sixty_moves(pos: &Position) -> bool {
    sixty_moves_after(pos, params::SIXTY_MOVE_PLIES)
}

/// True when either side may claim a draw after `plies` plies without a capture,
/// counted as for the sixty-move rule (checks beyond the first ten are not
/// counted); `plies = 0` never. The search uses it with a GUI's own count.
pub fn sixty_moves_after(pos: &Position, plies: u32) -> bool {
    plies > 0
        && pos.rule60() >= plies
        && Color::ALL
            .iter()
            .any(|&c| sixty_move_count(pos, c) >= plies)
}

/// §4.2.2 as the issue defines it: no rook, horse, cannon or pawn on the board.
pub fn dead_position(pos: &Position) -> bool {
    [
        PieceKind::Rook,
        PieceKind::Horse,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ]
    .iter()
    .all(|&k| pos.kind(k).is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(fen: &str, moves: &str) -> Position {
        let mut pos = Position::from_fen(fen).unwrap();
        for m in moves.split_whitespace() {
            pos.make_move(m.parse().unwrap());
        }
        pos
    }

    #[test]
    fn dead_positions() {
        assert!(dead_position(
            &Position::from_fen("3ak4/4a4/9/9/9/9/9/4B4/9/3AK1B2 w").unwrap()
        ));
        assert!(!dead_position(
            &Position::from_fen("3ak4/4a4/9/9/9/9/p8/4B4/9/3AK1B2 w").unwrap()
        ));
        let s = game_status(
            &Position::from_fen("3ak4/4a4/9/9/9/9/9/4B4/9/3AK1B2 w").unwrap(),
            RuleSet::Axf,
        );
        assert_eq!(
            (s.status, s.winner),
            (Status::DeadPosition, Some(GameResult::Draw))
        );
    }

    #[test]
    fn stalemate_loses() {
        let pos = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 b").unwrap();
        let s = game_status(&pos, RuleSet::Cxa2011);
        assert_eq!(
            (s.status, s.winner),
            (Status::Stalemate, Some(GameResult::RedWins))
        );
    }

    #[test]
    fn sixty_moves_with_check_allowance() {
        // 118 quiet plies on the clock, then two more: the limit.
        let fen = "3k5/9/9/9/9/9/9/9/4A4/R2AK4 w - - 118 80";
        let pos = play(fen, "a0a1 d9d8");
        assert_eq!(pos.rule60(), 120);
        assert!(sixty_moves(&pos));
        assert_eq!(
            game_status(&pos, RuleSet::Cxa2011).status,
            Status::SixtyMoves
        );
        // §22.2: red gives 12 checks in the last plies; red's count loses 2 of them
        // but black may still claim.
        let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 96 80";
        let moves = "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 \
                     a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9";
        let mut pos = Position::from_fen(fen).unwrap();
        for m in moves.split_whitespace() {
            pos.make_move(m.parse().unwrap());
        }
        assert_eq!(pos.rule60(), 120);
        assert_eq!(sixty_move_count(&pos, Color::Red), 120 - 2);
        assert_eq!(sixty_move_count(&pos, Color::Black), 120);
        assert!(sixty_moves(&pos));
    }
}
