//! The arbiter interface: [`judge_position`] rules on a game (a position whose
//! history is the game; [`crate::notation::replay`] builds it from a FEN and move
//! texts) — status, winner, the latest
//! repetition with every cycle move classified, and a verdict for each legal move
//! of the side to move — in one serialisable [`Judgement`]. The `chuhan judge`
//! command and the daemon's `judge` command print it.

use super::classify::{ClassCache, Label};
use super::cycle;
use super::repetition::{Analysis, MoveRuling, analyse};
use super::ruleset::RuleSet;
use super::status::{Status, status_with};
use super::threat::ChaseKind;
use super::verdict::Article;
use crate::core::{Color, GameResult, Move, Position, Square};
use serde::Serialize;
use std::fmt;

/// A ruling on a game (the JSON of `chuhan judge --json` and of the daemon's
/// `judgeok` line).
#[derive(Clone, Debug, Serialize)]
pub struct Judgement {
    /// The rule set applied.
    pub rules: RuleSet,
    /// The final position.
    pub fen: String,
    /// How the game stands after its last move.
    pub status: Status,
    /// The result, `null` while play goes on; written `red`, `black` or `draw`
    /// ([`GameResult::winner_name`]).
    #[serde(serialize_with = "winner_json")]
    pub winner: Option<GameResult>,
    /// The latest position that has occurred three times, `null` if none.
    pub repetition: Option<RepetitionReport>,
    /// Every legal move of the side to move with its verdict.
    pub moves: Vec<MoveVerdict>,
    /// Plies played from the given position.
    pub plies: usize,
    /// Plies since the last capture (the natural-limit counter, §4.2.4).
    pub rule60: u32,
}

/// The ruling on one repetition.
#[derive(Clone, Debug, Serialize)]
pub struct RepetitionReport {
    /// The side whose moves are forbidden (the violator), `None` for a draw;
    /// written `red`, `black` or `none`.
    #[serde(serialize_with = "side_or_none")]
    pub must_vary: Option<Color>,
    /// How many times the position has occurred.
    pub occurrences: u32,
    /// Red's pattern (長將, 長捉車, 一將一捉, 閒, ...; [`Pattern::name`](super::verdict::Pattern::name)).
    pub red: String,
    /// Black's pattern.
    pub black: String,
    /// Articles applied, written as section numbers (`25.1`) or AXF rule names.
    pub articles: &'static [Article],
    /// The judged moves in order.
    pub cycle: Vec<CycleMove>,
    /// Ply of the repeated position.
    pub ply: usize,
    /// The violator loses at once (CXA unilateral 長將, §23.5.1).
    pub immediate: bool,
    /// The applied rule in words.
    pub reason: &'static str,
}

/// One classified move of a cycle.
#[derive(Clone, Debug, Serialize)]
pub struct CycleMove {
    /// The ply the move leads to.
    pub ply: usize,
    /// The move, written in ICCS.
    #[serde(rename = "move", serialize_with = "as_text")]
    pub mv: Move,
    /// Who played it, written `red` or `black`.
    #[serde(serialize_with = "as_text")]
    pub side: Color,
    /// Its label, written 將, 殺, 捉 or 閒.
    #[serde(serialize_with = "as_text")]
    pub kind: Label,
    /// Squares of the pieces it counts as chasing (after the move).
    #[serde(serialize_with = "all_as_text")]
    pub targets: Vec<Square>,
    /// The chase kinds (捉車, 捉無根子, 聯合捉車, 聯合捉子), one per target.
    #[serde(serialize_with = "all_as_text")]
    pub chases: Vec<ChaseKind>,
    /// Why, citing the article.
    pub why: String,
}

/// The verdict on one legal move of the side to move.
#[derive(Clone, Debug, Serialize)]
pub struct MoveVerdict {
    /// The move, written in ICCS.
    #[serde(rename = "move", serialize_with = "as_text")]
    pub mv: Move,
    /// What playing it does: `ban` (it makes the mover the violator of a cycle
    /// completed for the third time), `draw` (it completes a cycle ruled a draw),
    /// `none` otherwise.
    #[serde(serialize_with = "as_text")]
    pub verdict: MoveRuling,
    /// Why (empty when it completes no cycle).
    pub why: String,
}

/// Judges the game held in `pos` (its history is the game).
///
/// ```
/// use chuhan_engine::core::Validation;
/// use chuhan_engine::notation::replay;
/// use chuhan_engine::rules::{judge_position, RuleSet};
/// let line = replay(None, &["h2e2", "h9g7"], Validation::Lenient).unwrap();
/// let j = judge_position(&line.position, RuleSet::Cxa2011);
/// assert_eq!(j.status.name(), "ongoing");
/// assert_eq!(j.moves.len(), line.position.legal_moves().len()); // every legal move of red
/// ```
pub fn judge_position(pos: &Position, rules: RuleSet) -> Judgement {
    let mut cache = ClassCache::new();
    let st = status_with(pos, rules, Some(&mut cache));
    let repetition = match &st.cycle {
        Some(a) => Some(report(a, rules)),
        None => latest_repetition(pos, rules, &mut cache),
    };
    let moves = verdicts_with(pos, rules, 3, &mut cache);
    Judgement {
        rules,
        fen: pos.to_fen(),
        status: st.status,
        winner: st.winner,
        repetition,
        moves,
        plies: pos.game_ply(),
        rule60: pos.rule60(),
    }
}

/// The verdict on every legal move of the side to move of `pos` (its history is
/// the game), a move being ruled when it makes a position occur `fold` times (3,
/// as in [`judge_position`]: the 待判局面 of §23.1; 2 rules at the first
/// repetition, as some online servers do).
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::rules::{move_verdicts, MoveRuling, RuleSet};
/// // Both sides shuffle idly (閒): red's e1f2 would make the position after its
/// // first move occur a second time, which fold 2 rules (a draw) and fold 3 not yet.
/// let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/3AK4 w").unwrap();
/// for m in ["e1f2", "d9d8", "f2e1", "d8d9"] {
///     pos.make_move(m.parse().unwrap());
/// }
/// let ruling = |fold| {
///     let v = move_verdicts(&pos, RuleSet::Cxa2011, fold);
///     v.iter().find(|v| v.mv.to_string() == "e1f2").unwrap().verdict
/// };
/// assert_eq!(ruling(2), MoveRuling::Draw);
/// assert_eq!(ruling(3), MoveRuling::None);
/// ```
pub fn move_verdicts(pos: &Position, rules: RuleSet, fold: u32) -> Vec<MoveVerdict> {
    verdicts_with(pos, rules, fold, &mut ClassCache::new())
}

/// [`move_verdicts`] with a classification cache.
fn verdicts_with(
    pos: &Position,
    rules: RuleSet,
    fold: u32,
    cache: &mut ClassCache,
) -> Vec<MoveVerdict> {
    let mut line = pos.clone();
    let mover = pos.side_to_move();
    let mut verdicts = Vec::new();
    for &m in pos.legal_moves().iter() {
        line.make_move(m);
        let completed =
            cycle::find(&line, fold, rules).map(|c| analyse(&line, c, rules, Some(&mut *cache)));
        line.unmake_move();
        verdicts.push(move_verdict(m, mover, completed.as_ref(), rules));
    }
    verdicts
}

/// The latest earlier ply whose position occurred three times.
fn latest_repetition(
    pos: &Position,
    rules: RuleSet,
    cache: &mut ClassCache,
) -> Option<RepetitionReport> {
    let n = pos.game_ply();
    for j in (0..n).rev() {
        if let Some(c) = cycle::find_at(pos.history(), pos.state(), j, 3, rules) {
            let mut at = pos.clone();
            for _ in j..n {
                at.unmake_move();
            }
            return Some(report(&analyse(&at, c, rules, Some(cache)), rules));
        }
    }
    None
}

/// The verdict on `m`, a move of `mover` that completes the cycle `completed` (if
/// any) for the third time.
fn move_verdict(
    m: Move,
    mover: Color,
    completed: Option<&Analysis>,
    rules: RuleSet,
) -> MoveVerdict {
    let why = match completed {
        None => String::new(),
        Some(a) => {
            let v = &a.verdict;
            let cited = cite(v.clause.articles);
            match v.must_vary {
                None => format!("completes a cycle ruled a draw ({cited})"),
                Some(s) => format!(
                    "completes a cycle in which {s} plays {} and {} ({cited})",
                    a.pattern(s).name(rules),
                    if s != mover && v.immediate {
                        "loses"
                    } else {
                        "must vary"
                    },
                ),
            }
        }
    };
    MoveVerdict {
        mv: m,
        verdict: MoveRuling::of(completed.map(|a| &a.verdict), mover),
        why,
    }
}

/// The report on the analysed cycle `a`.
fn report(a: &Analysis, rules: RuleSet) -> RepetitionReport {
    let v = &a.verdict;
    RepetitionReport {
        must_vary: v.must_vary,
        occurrences: a.cycle.occurrences,
        red: a.red.name(rules),
        black: a.black.name(rules),
        articles: v.clause.articles,
        cycle: a
            .moves
            .iter()
            .map(|(ply, c)| CycleMove {
                ply: *ply,
                mv: c.mv,
                side: c.side,
                kind: c.label(),
                targets: c.counted_chases().iter().map(|t| t.victim).collect(),
                chases: c.counted_chases().iter().map(|t| t.kind).collect(),
                why: c.why(),
            })
            .collect(),
        ply: a.cycle.ply,
        immediate: v.immediate,
        reason: v.clause.reason,
    }
}

/// Articles as a report cites them: `§25.3, §23.5.2.2`.
fn cite(articles: &[Article]) -> String {
    articles
        .iter()
        .map(|a| a.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Serialises a value as its text ([`fmt::Display`]).
fn as_text<T: fmt::Display, S: serde::Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// Serialises values as an array of their texts.
fn all_as_text<T: fmt::Display, S: serde::Serializer>(v: &[T], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|x| x.to_string()))
}

/// A side, or `none`.
fn side_or_none<S: serde::Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(c.map_or("none", Color::name))
}

/// A judgement's `winner` field: the winner's colour name or `draw`, `null` while
/// play goes on.
fn winner_json<S: serde::Serializer>(winner: &Option<GameResult>, s: S) -> Result<S::Ok, S::Error> {
    match winner {
        Some(r) => s.serialize_str(r.winner_name()),
        None => s.serialize_none(),
    }
}

impl Judgement {
    /// The JSON on one line (the daemon's `judgeok` payload).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("a judgement always serialises")
    }

    /// The JSON on one line with `"warnings"`, what reading the game let pass
    /// (a composed start position, ...), when there are any: `chuhan judge --json`
    /// and `POST /api/judge` write this.
    pub fn to_json_line_warning<W: fmt::Display>(&self, warnings: &[W]) -> String {
        if warnings.is_empty() {
            return self.to_json_line();
        }
        let mut v = serde_json::to_value(self).expect("a judgement always serialises");
        v["warnings"] = warnings.iter().map(|w| w.to_string()).collect();
        v.to_string()
    }

    /// A readable report citing the articles, one line per entry (the CLI without
    /// `--json`; the daemon may send each line as an `info` line).
    pub fn report_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        out.push(format!("rules: {}", self.rules));
        out.push(format!("position: {}", self.fen));
        let result = match self.winner {
            None => "game goes on".to_string(),
            Some(GameResult::Draw) => "draw".to_string(),
            Some(w) => format!("{} wins", w.winner_name()),
        };
        let basis = match self.status {
            Status::Ongoing => "ongoing".to_string(),
            Status::Checkmate => "checkmate (將死, §3.2, §4.1.1)".to_string(),
            Status::Stalemate => "no legal move (困斃, §3.3, §4.1.2)".to_string(),
            Status::Repetition => "repetition (待判局面, §23.1)".to_string(),
            Status::SixtyMoves => {
                "sixty moves without a capture (自然限著, §4.2.4, §22.2)".to_string()
            }
            Status::DeadPosition => {
                "neither side can win (§4.2.2: no rook, horse, cannon or pawn)".to_string()
            }
        };
        out.push(format!("status: {basis}; {result}"));
        out.push(format!("plies since the last capture: {}", self.rule60));
        match &self.repetition {
            None => out.push("repetition: none (no position has occurred three times)".to_string()),
            Some(r) => {
                out.push(format!(
                    "repetition: the position at ply {} has occurred {} times",
                    r.ply, r.occurrences
                ));
                for c in &r.cycle {
                    let targets = if c.targets.is_empty() {
                        String::new()
                    } else {
                        let squares: Vec<String> =
                            c.targets.iter().map(|t| t.to_string()).collect();
                        format!(" [{}]", squares.join(" "))
                    };
                    out.push(format!(
                        "  ply {:>3} {:<5} {} {}{} — {}",
                        c.ply,
                        c.side.name(),
                        c.mv,
                        c.kind,
                        targets,
                        c.why
                    ));
                }
                out.push(format!("  red: {}; black: {}", r.red, r.black));
                let ruling = match r.must_vary {
                    None => "nobody must vary: drawn if neither side varies".to_string(),
                    Some(s) if r.immediate => format!("{s} loses at once"),
                    Some(s) => format!("{s} must vary"),
                };
                out.push(format!(
                    "  ruling ({}): {ruling} — {}",
                    cite(r.articles),
                    r.reason
                ));
            }
        }
        let flagged: Vec<&MoveVerdict> = self
            .moves
            .iter()
            .filter(|m| m.verdict != MoveRuling::None || !m.why.is_empty())
            .collect();
        out.push(format!(
            "legal moves: {} ({} banned, {} drawing)",
            self.moves.len(),
            self.moves
                .iter()
                .filter(|m| m.verdict == MoveRuling::Ban)
                .count(),
            self.moves
                .iter()
                .filter(|m| m.verdict == MoveRuling::Draw)
                .count()
        ));
        for m in flagged {
            out.push(format!("  {} {}: {}", m.mv, m.verdict, m.why));
        }
        out
    }
}
