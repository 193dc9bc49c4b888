//! One game between two engines, refereed by Chuhan's rules.
//!
//! After every move the position is judged with [`rules::status_under`] under the
//! setup's [`Referee`]: mate, 困斃, a 棋例 verdict against the violator of a
//! forbidden cycle, the sixty-move limit, a dead position. The strict referee (the
//! default: how GUIs and match tools rule) ends the game at the third occurrence
//! with the violator's loss, whoever made the last move; by the text the violator
//! loses when it completes the cycle itself (or at once, where the rules say so).
//! An engine loses at once for an illegal move (or text that is
//! no move), for a crash, for overstepping its time (§21: the move that oversteps
//! still wins if it mates or stalemates), for a hang (no answer within the hang
//! guard under a depth or node limit) and for answering without a move while it
//! has legal moves. It loses by resigning (`bestmove … resign`); a draw is agreed
//! when a UCCI engine answers our `go draw` (its opponent offered with
//! `bestmove … draw`) with `bestmove … draw`, as in the UCCI League. Optional
//! score adjudication ([`super::adjudication`]) comes last.
//!
//! When a repetition leaves the violator to move under the text referee (it must
//! vary, §23.5.2), UCCI engines are sent `banmoves` with the moves that would lose
//! by repeating; under the strict referee the game is already over.
//!
//! The record is a [`notation::Game`] with the usual tags plus `Termination`
//! (`repetition rule loss (strict)` names the referee), `TimeControl`, `Rules` and
//! `Referee`, each move commented `score/depth time` (`+35/12 0.84s`), and the
//! reason the game ended as the last comment.

use super::adjudication::{Adjudication, Adjudicator, Decision};
use super::client::{Answer, ClientError, EngineClient, GameSoFar, Search};
use super::dialect::{self, InfoLine};
use super::limit::{GameLimit, Limit};
use crate::game::clock::{MoveTiming, loses_on_time};
use crate::game::opening::Opening;
use crate::game::play::Termination;
use chuhan_engine::core::{Color, GameResult, Move, Position};
use chuhan_engine::notation;
use chuhan_engine::rules::{self, GameStatus, Referee, RuleSet, Status};
use chuhan_engine::search::event::Offer;
use chuhan_engine::search::score::Score;
use std::fmt;
use std::time::Duration;

/// Everything about a game except the engines.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// PGN `Event`.
    pub event: String,
    /// PGN `Round` (the game number in a match, `round.board.game` in a tournament).
    pub round: String,
    /// PGN `Date` (`yyyy.mm.dd`).
    pub date: String,
    /// The start position and forced moves; the standard start when `None`.
    pub opening: Option<Opening>,
    /// The rules the game is judged by.
    pub rules: RuleSet,
    /// When a forbidden repetition ends the game.
    pub referee: Referee,
    /// The search limit.
    pub limit: Limit,
    /// Latency forgiven beyond the clock or move time.
    pub tolerance: Duration,
    /// How long an untimed search may take before the engine counts as hung.
    pub hang_timeout: Duration,
    /// Score adjudication.
    pub adjudication: Adjudication,
}

/// An engine misbehaving (what a soak test counts).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// It could not be started or made ready for the game.
    Start,
    /// Its output closed during the game.
    Crash,
    /// No answer within the hang guard (depth or node limit).
    Hang,
    /// An illegal move, or move text that is no move.
    IllegalMove,
    /// Overstepped its time.
    TimeForfeit,
    /// Answered without a move while it had legal moves.
    NoMove,
}

impl Fault {
    /// All faults, in report order.
    pub const ALL: [Fault; 6] = [
        Fault::Start,
        Fault::Crash,
        Fault::Hang,
        Fault::IllegalMove,
        Fault::TimeForfeit,
        Fault::NoMove,
    ];

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Fault::Start => "start failure",
            Fault::Crash => "crash",
            Fault::Hang => "hang",
            Fault::IllegalMove => "illegal move",
            Fault::TimeForfeit => "time forfeit",
            Fault::NoMove => "no move",
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// The same in a sentence (`Black's move h9h0 is illegal`).
    pub reason: String,
    /// The engine fault that ended it, and whose.
    pub fault: Option<(Color, Fault)>,
    /// The moves played after the opening.
    pub moves: Vec<Move>,
    /// The record (opening moves included).
    pub record: notation::Game,
}

/// Engines that could not be made ready for a game (the game is not played).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartFailure {
    /// Red's error, if Red failed.
    pub red: Option<ClientError>,
    /// Black's error, if Black failed.
    pub black: Option<ClientError>,
}

impl fmt::Display for StartFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(e) = &self.red {
            parts.push(format!("Red engine: {e}"));
        }
        if let Some(e) = &self.black {
            parts.push(format!("Black engine: {e}"));
        }
        f.write_str(&parts.join("; "))
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// How the game ended, before it is written up.
struct End {
    result: GameResult,
    termination: Termination,
    reason: String,
    fault: Option<(Color, Fault)>,
}

impl End {
    fn loss(side: Color, termination: Termination, reason: String, fault: Option<Fault>) -> End {
        End {
            result: GameResult::win_for(!side),
            termination,
            reason,
            fault: fault.map(|f| (side, f)),
        }
    }
}

/// The end the rules give, if the game is over: `status` is the position's after
/// its last move, with `to_move` to play, as `referee` ruled it.
fn rules_end(status: &GameStatus, rules: RuleSet, referee: Referee, to_move: Color) -> Option<End> {
    let result = status.winner?;
    let (termination, reason) = match (status.status, result.winner()) {
        // Mate and 困斃 always have a winner.
        (Status::Ongoing, _) | (Status::Checkmate | Status::Stalemate, None) => return None,
        (Status::Checkmate, Some(w)) => (Termination::Checkmate, format!("{} mates", side_name(w))),
        (Status::Stalemate, Some(w)) => (
            Termination::Stalemate,
            format!("{} has no legal move (困斃)", side_name(!w)),
        ),
        (Status::Repetition, winner) => {
            let why = status
                .cycle
                .as_ref()
                .map(|a| {
                    let clause = a.verdict.clause;
                    let articles: Vec<&str> = clause.articles.iter().map(|a| a.code()).collect();
                    if articles.is_empty() {
                        clause.reason.to_string()
                    } else {
                        format!("{} ({})", clause.reason, articles.join(", "))
                    }
                })
                .unwrap_or_default();
            match winner {
                None => (
                    Termination::RepetitionDraw,
                    format!("repetition, drawn by the {rules} rules: {why}"),
                ),
                Some(w) => (
                    Termination::RepetitionLoss,
                    format!(
                        "{} loses by the {rules} repetition rules {}: {why}",
                        side_name(!w),
                        repetition_ruling(referee, !w == to_move)
                    ),
                ),
            }
        }
        (Status::SixtyMoves, _) => (
            Termination::MoveLimit,
            "sixty moves without a capture (自然限著)".to_string(),
        ),
        (Status::DeadPosition, _) => (
            Termination::DeadPosition,
            "neither side has an attacking piece left".to_string(),
        ),
    };
    Some(End {
        result,
        termination,
        reason,
        fault: None,
    })
}

/// Which referee gave a repetition loss, and on what ground; `loser_to_move` when
/// the violator had not made the last move.
fn repetition_ruling(referee: Referee, loser_to_move: bool) -> &'static str {
    match (referee, loser_to_move) {
        (Referee::Strict, _) => "at the third occurrence (strict referee)",
        (Referee::Text, false) => "(text: the violator completed the cycle)",
        (Referee::Text, true) => "(text: the violation loses at once)",
    }
}

/// The PGN `Termination` tag: [`Termination::describe`], with the referee named
/// after a repetition loss (`repetition rule loss (strict)`), the one ending the
/// two referees rule differently. The JSON name of the termination does not change.
fn termination_tag(termination: Termination, referee: Referee) -> String {
    match termination {
        Termination::RepetitionLoss => format!("{} ({referee})", termination.describe()),
        _ => termination.describe().to_string(),
    }
}

/// The moves the side to move must not play: those that would complete the cycle
/// again and lose. Only the text referee leaves a violator to move at a
/// repetition (it must vary, and play goes on); a strict referee has already
/// ended the game there (`status.winner` is set), so nothing is banned.
fn banned_moves(pos: &Position, status: &GameStatus, rules: RuleSet) -> Vec<Move> {
    if status.status != Status::Repetition || status.winner.is_some() {
        return Vec::new();
    }
    let mover = pos.side_to_move();
    let mut line = pos.clone();
    let mut banned = Vec::new();
    for &m in pos.legal_moves().iter() {
        line.make_move(m);
        let after = rules::game_status(&line, rules);
        if after.status == Status::Repetition && after.winner == Some(GameResult::win_for(!mover)) {
            banned.push(m);
        }
        line.unmake_move();
    }
    banned
}

/// A score in a move comment, from the mover's view: `+34`, `-120`, `+M3`, `-M2`.
fn score_text(score: Score) -> String {
    match score {
        Score::Cp(v) => format!("{v:+}"),
        Score::Mate(n) if n > 0 => format!("+M{n}"),
        Score::Mate(n) => format!("-M{}", n.unsigned_abs()),
    }
}

/// `+35/12 0.84s`, `0.84s` without a score.
fn move_comment(info: Option<&InfoLine>, elapsed: Duration) -> String {
    let time = format!("{:.2}s", elapsed.as_secs_f64());
    match info.and_then(|i| i.score.map(|s| (score_text(s), i.depth))) {
        Some((s, Some(d))) => format!("{s}/{d} {time}"),
        Some((s, None)) => format!("{s} {time}"),
        None => time,
    }
}

/// The moves so far and the last capture, for UCCI's `position` line.
struct Played {
    moves: Vec<Move>,
    reset_fen: String,
    reset_at: usize,
}

impl Played {
    fn push(&mut self, pos: &mut Position, m: Move) {
        let capture = pos.piece_at(m.to()).is_some();
        pos.make_move(m);
        self.moves.push(m);
        if capture {
            self.reset_fen = pos.to_fen();
            self.reset_at = self.moves.len();
        }
    }
}

/// Makes both engines ready for a new game (starting them if needed).
pub fn prepare(red: &mut EngineClient, black: &mut EngineClient) -> Result<(), StartFailure> {
    let r = red.new_game().err();
    let b = black.new_game().err();
    if r.is_none() && b.is_none() {
        Ok(())
    } else {
        Err(StartFailure { red: r, black: b })
    }
}

/// Plays one game to the end. The engines must be ready ([`prepare`]).
pub fn play(red: &mut EngineClient, black: &mut EngineClient, setup: &GameSetup) -> GameReport {
    let (mut pos, forced) = match &setup.opening {
        Some(o) => (
            Position::from_fen(o.fen()).expect("openings hold a validated FEN"),
            o.moves().to_vec(),
        ),
        None => (Position::startpos(), Vec::new()),
    };
    let start_fen = pos.to_fen();
    let mut record = notation::Game::new(pos.clone());
    for (k, v) in [
        ("Event", setup.event.as_str()),
        ("Site", "?"),
        ("Date", setup.date.as_str()),
        ("Round", setup.round.as_str()),
        ("Red", red.config().name.as_str()),
        ("Black", black.config().name.as_str()),
    ] {
        record.set_tag(k, v);
    }
    record.set_tag("TimeControl", &setup.limit.to_string());
    record.set_tag("Rules", setup.rules.name());
    record.set_tag("Referee", setup.referee.name());
    let mut line = Played {
        moves: Vec::new(),
        reset_fen: start_fen.clone(),
        reset_at: 0,
    };
    for &m in &forced {
        line.push(&mut pos, m);
        record.push(m);
    }
    if let Some(last) = record.line.nodes.last_mut() {
        last.comment = Some("end of opening".to_string());
    }
    let mut limit = GameLimit::new(&setup.limit, setup.tolerance, setup.hang_timeout);
    let mut adjudicator = Adjudicator::new(setup.adjudication);
    let mut draw_offer: Option<Color> = None;
    let mut status = rules::status_under(&pos, setup.rules, setup.referee, None);
    let end = loop {
        if let Some(end) = rules_end(&status, setup.rules, setup.referee, pos.side_to_move()) {
            break end;
        }
        let side = pos.side_to_move();
        let engine: &mut EngineClient = match side {
            Color::Red => &mut *red,
            Color::Black => &mut *black,
        };
        let banned = banned_moves(&pos, &status, setup.rules);
        let thought = engine.think(&Search {
            game: GameSoFar {
                start_fen: &start_fen,
                moves: &line.moves,
                reset_fen: &line.reset_fen,
                reset_at: line.reset_at,
            },
            limit: limit.go(side),
            draw_offer: draw_offer == Some(!side),
            banned: &banned,
            deadline: limit.deadline(side),
        });
        let who = side_name(side);
        let (text, offer) = match thought.answer {
            Answer::Crashed => {
                break End::loss(
                    side,
                    Termination::EngineFailure,
                    format!("{who}'s engine crashed"),
                    Some(Fault::Crash),
                );
            }
            Answer::Late { killed } => {
                let what = if killed { ", and was killed" } else { "" };
                break if setup.limit.is_timed() {
                    End::loss(
                        side,
                        Termination::TimeForfeit,
                        format!("{who} lost on time{what}"),
                        Some(Fault::TimeForfeit),
                    )
                } else {
                    End::loss(
                        side,
                        Termination::EngineFailure,
                        format!(
                            "{who}'s engine did not answer within {} s{what}",
                            setup.hang_timeout.as_secs_f64()
                        ),
                        Some(Fault::Hang),
                    )
                };
            }
            Answer::NoMove => {
                break End::loss(
                    side,
                    Termination::EngineFailure,
                    format!(
                        "{who}'s engine gave no move with {} legal moves",
                        pos.legal_moves().len()
                    ),
                    Some(Fault::NoMove),
                );
            }
            Answer::Move { text, offer } => (text, offer),
        };
        if offer == Some(Offer::Resign) {
            break End::loss(
                side,
                Termination::Resignation,
                format!("{who} resigns"),
                None,
            );
        }
        if offer == Some(Offer::Draw) && draw_offer == Some(!side) {
            break End {
                result: GameResult::Draw,
                termination: Termination::Agreement,
                reason: format!("{who} accepts the draw offer"),
                fault: None,
            };
        }
        let Some(m) = dialect::parse_move(&text, engine.ranks()).filter(|&m| pos.is_legal(m))
        else {
            break End::loss(
                side,
                Termination::IllegalMove,
                format!("{who}'s move `{text}` is illegal"),
                Some(Fault::IllegalMove),
            );
        };
        let timing = limit.charge(side, thought.elapsed);
        line.push(&mut pos, m);
        record.push(m);
        let comment = move_comment(thought.info.as_ref(), thought.elapsed);
        if let Some(node) = record.line.nodes.last_mut() {
            node.comment = Some(match node.comment.take() {
                Some(c) => format!("{c}; {comment}"),
                None => comment,
            });
        }
        if let MoveTiming::Overstepped { by } = timing
            && loses_on_time(timing, pos.terminal())
        {
            break End::loss(
                side,
                Termination::TimeForfeit,
                format!("{who} lost on time ({:.3} s over)", by.as_secs_f64()),
                Some(Fault::TimeForfeit),
            );
        }
        draw_offer = (offer == Some(Offer::Draw)).then_some(side);
        adjudicator.record(side, thought.info.as_ref().and_then(|i| i.score));
        status = rules::status_under(&pos, setup.rules, setup.referee, None);
        if status.is_over() {
            continue;
        }
        match adjudicator.decision(pos.fullmove()) {
            Some(Decision::Loss(loser)) => {
                break End::loss(
                    loser,
                    Termination::Adjudication,
                    format!("{} is lost by the engines' agreed scores", side_name(loser)),
                    None,
                );
            }
            Some(Decision::Draw) => {
                break End {
                    result: GameResult::Draw,
                    termination: Termination::Adjudication,
                    reason: "drawn by the engines' agreed scores".to_string(),
                    fault: None,
                };
            }
            None => {}
        }
    };
    record.result = Some(end.result);
    record.set_tag(
        "Termination",
        &termination_tag(end.termination, setup.referee),
    );
    match record.line.nodes.last_mut() {
        Some(node) => {
            node.comment = Some(match node.comment.take() {
                Some(c) => format!("{c}; {}", end.reason),
                None => end.reason.clone(),
            });
        }
        None => record.line.comment = Some(end.reason.clone()),
    }
    GameReport {
        result: end.result,
        termination: end.termination,
        reason: end.reason,
        fault: end.fault,
        moves: line.moves[forced.len()..].to_vec(),
        record,
    }
}

/// Today's date as PGN writes it (`yyyy.mm.dd`, UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    pgn_date(secs / 86_400)
}

/// The PGN date of a day counted from 1970-01-01 (the proleptic Gregorian
/// calendar, H. Hinnant's `civil_from_days`).
pub fn pgn_date(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(11_016), "2000.02.29");
        assert_eq!(pgn_date(19_782), "2024.02.29");
        assert_eq!(pgn_date(20_454), "2026.01.01");
    }

    #[test]
    fn banned_moves_only_when_the_violator_must_vary() {
        // Perpetual mate threats (AXF-OR014): under CXA Red must vary. After Black
        // completes the third occurrence Red is to move, and repeating loses.
        let mut pos = Position::from_fen("2b2k3/9/4b2P1/3N5/1R6p/6P2/5p2r/8n/4p4/5K3 w").unwrap();
        for m in "d6c8 f9f8 c8d6 f8f9 d6c8 f9f8 c8d6 f8f9 d6c8 f9f8".split(' ') {
            pos.make_move(m.parse().unwrap());
        }
        let status = rules::game_status(&pos, RuleSet::Cxa2011);
        assert_eq!((status.status, status.winner), (Status::Repetition, None));
        let banned = banned_moves(&pos, &status, RuleSet::Cxa2011);
        assert_eq!(banned, ["c8d6".parse::<Move>().unwrap()]);
        // AXF rules the same cycle a draw: the game is over, nothing to ban.
        let axf = rules::game_status(&pos, RuleSet::Axf);
        assert!(banned_moves(&pos, &axf, RuleSet::Axf).is_empty());
        // No repetition, no ban.
        let start = Position::startpos();
        let s = rules::game_status(&start, RuleSet::Cxa2011);
        assert!(banned_moves(&start, &s, RuleSet::Cxa2011).is_empty());
    }

    /// Red checks with the rook forever, Black's king steps up and back; after
    /// Black's fifth move the position is there for the third time, Red to move.
    fn perpetual_check() -> Position {
        let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
        for m in "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8".split(' ') {
            pos.make_move(m.parse().unwrap());
        }
        pos
    }

    #[test]
    fn the_text_referee_tells_the_perpetual_checker_to_vary() {
        let pos = perpetual_check();
        let status = rules::status_under(&pos, RuleSet::Axf, Referee::Text, None);
        assert_eq!((status.status, status.winner), (Status::Repetition, None));
        assert!(rules_end(&status, RuleSet::Axf, Referee::Text, Color::Red).is_none());
        let banned = banned_moves(&pos, &status, RuleSet::Axf);
        assert!(!banned.is_empty());
        assert!(banned.contains(&"a9a8".parse().unwrap()), "{banned:?}");
        // Under CXA the text makes unilateral perpetual check lose at once (§23.5.1).
        let cxa = rules::status_under(&pos, RuleSet::Cxa2011, Referee::Text, None);
        let end = rules_end(&cxa, RuleSet::Cxa2011, Referee::Text, Color::Red).unwrap();
        assert_eq!(end.result, GameResult::BlackWins);
        assert!(
            end.reason.starts_with(
                "Red loses by the cxa2011 repetition rules (text: the violation loses at once): "
            ),
            "{}",
            end.reason
        );
    }

    #[test]
    fn the_strict_referee_ends_a_perpetual_check_at_the_third_occurrence() {
        let pos = perpetual_check();
        let status = rules::status_under(&pos, RuleSet::Axf, Referee::Strict, None);
        assert_eq!(
            (status.status, status.winner),
            (Status::Repetition, Some(GameResult::BlackWins))
        );
        assert!(banned_moves(&pos, &status, RuleSet::Axf).is_empty());
        let end = rules_end(&status, RuleSet::Axf, Referee::Strict, Color::Red).unwrap();
        assert_eq!(
            (end.result, end.termination, end.fault),
            (GameResult::BlackWins, Termination::RepetitionLoss, None)
        );
        assert!(
            end.reason.starts_with(
                "Red loses by the axf repetition rules at the third occurrence (strict referee): "
            ),
            "{}",
            end.reason
        );
        assert_eq!(
            termination_tag(end.termination, Referee::Strict),
            "repetition rule loss (strict)"
        );
    }

    #[test]
    fn a_text_loss_says_the_violator_completed_the_cycle() {
        // Red varies nothing and checks again: by the text it loses now.
        let mut pos = perpetual_check();
        pos.make_move("a9a8".parse().unwrap());
        let status = rules::status_under(&pos, RuleSet::Axf, Referee::Text, None);
        assert_eq!(status.winner, Some(GameResult::BlackWins));
        let end = rules_end(&status, RuleSet::Axf, Referee::Text, Color::Black).unwrap();
        assert!(
            end.reason.starts_with(
                "Red loses by the axf repetition rules (text: the violator completed the cycle): "
            ),
            "{}",
            end.reason
        );
        assert_eq!(
            termination_tag(end.termination, Referee::Text),
            "repetition rule loss (text)"
        );
        // Only the repetition loss names the referee.
        assert_eq!(
            termination_tag(Termination::RepetitionDraw, Referee::Strict),
            "repetition draw"
        );
    }

    #[test]
    fn comments() {
        let info = InfoLine {
            depth: Some(12),
            score: Some(Score::Cp(35)),
            ..Default::default()
        };
        assert_eq!(
            move_comment(Some(&info), Duration::from_millis(842)),
            "+35/12 0.84s"
        );
        assert_eq!(score_text(Score::Mate(-2)), "-M2");
        assert_eq!(score_text(Score::Mate(3)), "+M3");
        assert_eq!(score_text(Score::Cp(0)), "+0");
        assert_eq!(move_comment(None, Duration::from_millis(5)), "0.01s");
    }
}
