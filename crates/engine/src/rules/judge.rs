//! The arbiter interface: [`judge`] rules on a game — status, winner, the latest
//! repetition with every cycle move classified, and a verdict for each legal move
//! of the side to move — in one serialisable [`Judgement`]. The `chuhan judge`
//! command and the daemon's `judge` command print it.

use super::classify::ClassCache;
use super::cycle;
use super::repetition::{Analysis, analyse};
use super::ruleset::RuleSet;
use super::status::{Status, status_with};
use super::verdict::Article;
use crate::core::{Color, FenError, GameResult, Move, Position};
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
    /// The side whose moves are forbidden: `red`, `black` or `none`.
    pub must_vary: String,
    /// How many times the position has occurred.
    pub occurrences: u32,
    /// Red's pattern (長將, 長捉車, 一將一捉, 閒, ...).
    pub red: String,
    /// Black's pattern.
    pub black: String,
    /// Articles applied.
    pub articles: Vec<String>,
    /// The judged moves in order.
    pub cycle: Vec<CycleMove>,
    /// Ply of the repeated position.
    pub ply: usize,
    /// The violator loses at once (CXA unilateral 長將, §23.5.1).
    pub immediate: bool,
    /// The applied rule in words.
    pub reason: String,
}

/// One classified move of a cycle.
#[derive(Clone, Debug, Serialize)]
pub struct CycleMove {
    /// The ply the move leads to.
    pub ply: usize,
    /// The move (ICCS).
    #[serde(rename = "move")]
    pub mv: String,
    /// Who played it.
    pub side: String,
    /// 將, 殺, 捉 or 閒.
    pub kind: String,
    /// Squares of the chased pieces (after the move).
    pub targets: Vec<String>,
    /// The chase kinds (捉車, 捉無根子, 聯合捉車, 聯合捉子), one per target.
    pub chases: Vec<String>,
    /// Why, citing the article.
    pub why: String,
}

/// The verdict on one legal move of the side to move.
#[derive(Clone, Debug, Serialize)]
pub struct MoveVerdict {
    /// The move (ICCS).
    #[serde(rename = "move")]
    pub mv: String,
    /// `ban`: playing it makes the mover the violator of a cycle; `draw`: it
    /// completes a cycle ruled a draw; `none` otherwise.
    pub verdict: String,
    /// Why.
    pub why: String,
}

/// Why a game could not be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JudgeError {
    /// The FEN is invalid.
    Fen(FenError),
    /// A move is not ICCS text.
    Syntax {
        /// The offending text.
        text: String,
        /// Its ply (1 = first move).
        ply: usize,
    },
    /// A move is illegal in its position.
    Illegal {
        /// The move.
        mv: Move,
        /// Its ply (1 = first move).
        ply: usize,
    },
}

impl JudgeError {
    /// The ply at fault: 0 for the FEN, else the 1-based number of the move.
    pub fn ply(&self) -> usize {
        match self {
            JudgeError::Fen(_) => 0,
            JudgeError::Syntax { ply, .. } | JudgeError::Illegal { ply, .. } => *ply,
        }
    }

    /// `{"error": "…", "ply": N}` on one line.
    pub fn to_json_line(&self) -> String {
        serde_json::json!({"error": self.to_string(), "ply": self.ply()}).to_string()
    }
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeError::Fen(e) => write!(f, "{e}"),
            JudgeError::Syntax { text, ply } => write!(f, "ply {ply}: invalid move text {text:?}"),
            JudgeError::Illegal { mv, ply } => write!(f, "ply {ply}: illegal move {mv}"),
        }
    }
}

impl std::error::Error for JudgeError {}

/// Plays `moves` from `fen` (the start position when `None`) and judges the game.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::rules::{judge, RuleSet};
/// let j = judge(None, &["h2e2", "h9g7"], RuleSet::Cxa2011).unwrap();
/// assert_eq!(j.status.name(), "ongoing");
/// let mut pos = Position::startpos();
/// pos.make_move("h2e2".parse().unwrap());
/// pos.make_move("h9g7".parse().unwrap());
/// assert_eq!(j.moves.len(), pos.legal_moves().len()); // every legal move of red
/// let e = judge(None, &["h2e2", "h2e2"], RuleSet::Cxa2011).unwrap_err();
/// assert_eq!(e.ply(), 2);
/// ```
pub fn judge<S: AsRef<str>>(
    fen: Option<&str>,
    moves: &[S],
    rules: RuleSet,
) -> Result<Judgement, JudgeError> {
    let mut pos = match fen {
        None => Position::startpos(),
        Some(f) => Position::from_fen(f).map_err(JudgeError::Fen)?,
    };
    for (i, text) in moves.iter().enumerate() {
        let text = text.as_ref();
        let m: Move = text.parse().map_err(|_| JudgeError::Syntax {
            text: text.chars().take(32).collect(),
            ply: i + 1,
        })?;
        if !pos.is_legal(m) {
            return Err(JudgeError::Illegal { mv: m, ply: i + 1 });
        }
        pos.make_move(m);
    }
    Ok(judge_position(&pos, rules))
}

/// Judges the game held in `pos` (its history is the game).
pub fn judge_position(pos: &Position, rules: RuleSet) -> Judgement {
    let mut cache = ClassCache::new();
    let st = status_with(pos, rules, Some(&mut cache));
    let repetition = match &st.cycle {
        Some(a) => Some(report(a, rules)),
        None => latest_repetition(pos, rules, &mut cache),
    };
    let mut line = pos.clone();
    let mut verdicts = Vec::new();
    let mover = pos.side_to_move();
    for &m in pos.legal_moves().iter() {
        line.make_move(m);
        let (verdict, why) = match cycle::find(&line, 3, rules) {
            None => ("none", String::new()),
            Some(c) => {
                let a = analyse(&line, c, rules, Some(&mut cache));
                let v = &a.verdict;
                match v.must_vary {
                    None => (
                        "draw",
                        format!(
                            "completes a cycle ruled a draw ({})",
                            cite(v.clause.articles)
                        ),
                    ),
                    Some(s) if s == mover => (
                        "ban",
                        format!(
                            "completes a cycle in which {} plays {} and must vary ({})",
                            s,
                            pattern_of(&a, s, rules),
                            cite(v.clause.articles)
                        ),
                    ),
                    Some(s) => (
                        "none",
                        format!(
                            "completes a cycle in which {} plays {} and {} ({})",
                            s,
                            pattern_of(&a, s, rules),
                            if v.immediate { "loses" } else { "must vary" },
                            cite(v.clause.articles)
                        ),
                    ),
                }
            }
        };
        line.unmake_move();
        verdicts.push(MoveVerdict {
            mv: m.to_string(),
            verdict: verdict.to_string(),
            why,
        });
    }
    Judgement {
        rules,
        fen: pos.to_fen(),
        status: st.status,
        winner: st.winner,
        repetition,
        moves: verdicts,
        plies: pos.game_ply(),
        rule60: pos.rule60(),
    }
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

/// A judgement's `winner` field: the winner's colour name or `draw`, `null` while
/// play goes on.
fn winner_json<S: serde::Serializer>(winner: &Option<GameResult>, s: S) -> Result<S::Ok, S::Error> {
    match winner {
        Some(r) => s.serialize_str(r.winner_name()),
        None => s.serialize_none(),
    }
}

fn cite(articles: &[Article]) -> String {
    articles
        .iter()
        .map(|a| a.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn pattern_of(a: &Analysis, c: Color, rules: RuleSet) -> String {
    match c {
        Color::Red => a.red.name(rules),
        Color::Black => a.black.name(rules),
    }
}

fn report(a: &Analysis, rules: RuleSet) -> RepetitionReport {
    let v = &a.verdict;
    RepetitionReport {
        must_vary: v.must_vary.map_or("none", |c| c.name()).to_string(),
        occurrences: a.cycle.occurrences,
        red: a.red.name(rules),
        black: a.black.name(rules),
        articles: v
            .clause
            .articles
            .iter()
            .map(|a| a.code().to_string())
            .collect(),
        cycle: a
            .moves
            .iter()
            .map(|(ply, c)| CycleMove {
                ply: *ply,
                mv: c.mv.to_string(),
                side: c.side.name().to_string(),
                kind: c.label().name().to_string(),
                targets: c
                    .counted_chases()
                    .iter()
                    .map(|t| t.victim.to_string())
                    .collect(),
                chases: c
                    .counted_chases()
                    .iter()
                    .map(|t| t.kind.name().to_string())
                    .collect(),
                why: c.why(),
            })
            .collect(),
        ply: a.cycle.ply,
        immediate: v.immediate,
        reason: v.clause.reason.to_string(),
    }
}

impl Judgement {
    /// The JSON on one line (the daemon's `judgeok` payload).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("a judgement always serialises")
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
                        format!(" [{}]", c.targets.join(" "))
                    };
                    out.push(format!(
                        "  ply {:>3} {:<5} {} {}{} — {}",
                        c.ply, c.side, c.mv, c.kind, targets, c.why
                    ));
                }
                out.push(format!("  red: {}; black: {}", r.red, r.black));
                let arts = r
                    .articles
                    .iter()
                    .map(|a| {
                        if a.starts_with("AXF") {
                            a.clone()
                        } else {
                            format!("§{a}")
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                let ruling = match r.must_vary.as_str() {
                    "none" => "nobody must vary: drawn if neither side varies".to_string(),
                    s if r.immediate => format!("{s} loses at once"),
                    s => format!("{s} must vary"),
                };
                out.push(format!("  ruling ({arts}): {ruling} — {}", r.reason));
            }
        }
        let flagged: Vec<&MoveVerdict> = self
            .moves
            .iter()
            .filter(|m| m.verdict != "none" || !m.why.is_empty())
            .collect();
        out.push(format!(
            "legal moves: {} ({} banned, {} drawing)",
            self.moves.len(),
            self.moves.iter().filter(|m| m.verdict == "ban").count(),
            self.moves.iter().filter(|m| m.verdict == "draw").count()
        ));
        for m in flagged {
            out.push(format!("  {} {}: {}", m.mv, m.verdict, m.why));
        }
        out
    }
}
