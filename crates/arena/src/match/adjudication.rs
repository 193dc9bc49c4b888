//! Optional score adjudication: end a game both engines agree is decided (resign
//! adjudication) or dead level (draw adjudication), to save time in long test
//! matches. The rules (mate, 困斃, 棋例, sixty moves) always apply first.
//!
//! * `--resign moves=N score=S`: a side loses when its last `N` reported scores
//!   were all at most `−S` **and** its opponent's last `N` were all at least `S`.
//! * `--draw moves=N score=S [after=M]`: from move `M` on, the game is drawn when
//!   the last `N` scores of both engines were all within `±S`.
//!
//! Scores are each engine's own (side-to-move) view, in its own centipawns; a move
//! without a score breaks a streak.

use chuhan_engine::core::Color;
use chuhan_engine::search::score::Score;
use std::fmt;
use std::str::FromStr;

/// Resign adjudication: see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ResignRule {
    /// Consecutive moves of each side.
    pub moves: u32,
    /// The score margin (centipawns).
    pub score: i32,
}

/// Draw adjudication: see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DrawRule {
    /// Consecutive moves of each side.
    pub moves: u32,
    /// The largest absolute score (centipawns).
    pub score: i32,
    /// The first full-move number at which the rule applies.
    pub after: u32,
}

/// Why an adjudication setting does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdjudicationError(pub String);

impl fmt::Display for AdjudicationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AdjudicationError {}

/// Reads `key=value` pairs separated by spaces or commas.
fn pairs(text: &str, known: &[&str]) -> Result<Vec<(String, i64)>, AdjudicationError> {
    let mut out = Vec::new();
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        let (k, v) = word
            .split_once('=')
            .ok_or_else(|| AdjudicationError(format!("`{word}` is not key=value")))?;
        let k = k.to_ascii_lowercase();
        if !known.contains(&k.as_str()) {
            return Err(AdjudicationError(format!(
                "unknown key `{k}` (expected {})",
                known.join(", ")
            )));
        }
        let v: i64 = v
            .parse()
            .map_err(|_| AdjudicationError(format!("`{word}`: the value is not a number")))?;
        if v < 0 {
            return Err(AdjudicationError(format!(
                "`{word}`: the value is negative"
            )));
        }
        out.push((k, v));
    }
    Ok(out)
}

fn get(pairs: &[(String, i64)], key: &str) -> Option<i64> {
    pairs.iter().rev().find(|(k, _)| k == key).map(|&(_, v)| v)
}

fn required(pairs: &[(String, i64)], key: &str, what: &str) -> Result<i64, AdjudicationError> {
    get(pairs, key).ok_or_else(|| AdjudicationError(format!("{what} needs {key}=…")))
}

fn small(v: i64, key: &str) -> Result<i64, AdjudicationError> {
    if v > i64::from(i32::MAX) {
        Err(AdjudicationError(format!("{key}={v} is too large")))
    } else {
        Ok(v)
    }
}

impl FromStr for ResignRule {
    type Err = AdjudicationError;

    /// `moves=N score=S`.
    ///
    /// ```
    /// use chuhan_arena::r#match::adjudication::ResignRule;
    /// let r: ResignRule = "moves=3 score=800".parse().unwrap();
    /// assert_eq!((r.moves, r.score), (3, 800));
    /// assert!("moves=3".parse::<ResignRule>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<ResignRule, AdjudicationError> {
        let p = pairs(text, &["moves", "score"])?;
        let moves = small(required(&p, "moves", "--resign")?, "moves")?;
        let score = small(required(&p, "score", "--resign")?, "score")?;
        if moves == 0 {
            return Err(AdjudicationError("--resign needs moves ≥ 1".into()));
        }
        Ok(ResignRule {
            moves: moves as u32,
            score: score as i32,
        })
    }
}

impl FromStr for DrawRule {
    type Err = AdjudicationError;

    /// `moves=N score=S [after=M]`.
    ///
    /// ```
    /// use chuhan_arena::r#match::adjudication::DrawRule;
    /// let r: DrawRule = "moves=8,score=10,after=40".parse().unwrap();
    /// assert_eq!((r.moves, r.score, r.after), (8, 10, 40));
    /// ```
    fn from_str(text: &str) -> Result<DrawRule, AdjudicationError> {
        let p = pairs(text, &["moves", "score", "after"])?;
        let moves = small(required(&p, "moves", "--draw")?, "moves")?;
        let score = small(required(&p, "score", "--draw")?, "score")?;
        let after = small(get(&p, "after").unwrap_or(0), "after")?;
        if moves == 0 {
            return Err(AdjudicationError("--draw needs moves ≥ 1".into()));
        }
        Ok(DrawRule {
            moves: moves as u32,
            score: score as i32,
            after: after as u32,
        })
    }
}

/// Both optional rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Adjudication {
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
}

/// What the adjudicator decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// This side loses.
    Loss(Color),
    /// Drawn.
    Draw,
}

/// A score on one centipawn scale, mates beyond any material score, for comparison
/// with the adjudication thresholds.
fn centipawns(score: Score) -> i32 {
    const MATE: i32 = 1_000_000;
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => MATE - n,
        Score::Mate(n) => -MATE - n,
    }
}

/// Follows the scores of one game.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    rules: Adjudication,
    scores: [Vec<Option<i32>>; 2],
}

impl Adjudicator {
    /// An adjudicator with `rules` at the start of a game.
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            scores: [Vec::new(), Vec::new()],
        }
    }

    /// Records the score `side`'s engine gave with its move.
    pub fn record(&mut self, side: Color, score: Option<Score>) {
        self.scores[side.index()].push(score.map(centipawns));
    }

    /// The last `n` scores of `side`, if it has made that many moves, all with a
    /// score.
    fn last(&self, side: Color, n: u32) -> Option<Vec<i32>> {
        let s = &self.scores[side.index()];
        let n = n as usize;
        if s.len() < n {
            return None;
        }
        s[s.len() - n..].iter().copied().collect()
    }

    /// The decision after a move, at full-move number `fullmove`, if any.
    ///
    /// ```
    /// use chuhan_engine::core::Color;
    /// use chuhan_arena::r#match::adjudication::{Adjudication, Adjudicator, Decision};
    /// use chuhan_engine::search::score::Score;
    /// let rules = Adjudication { resign: Some("moves=2 score=500".parse().unwrap()), draw: None };
    /// let mut a = Adjudicator::new(rules);
    /// for (red, black) in [(600, -700), (550, -900)] {
    ///     a.record(Color::Red, Some(Score::Cp(red)));
    ///     a.record(Color::Black, Some(Score::Cp(black)));
    /// }
    /// assert_eq!(a.decision(3), Some(Decision::Loss(Color::Black)));
    /// ```
    pub fn decision(&self, fullmove: u32) -> Option<Decision> {
        if let Some(r) = self.rules.resign {
            for side in Color::ALL {
                let lost = self
                    .last(side, r.moves)
                    .is_some_and(|s| s.iter().all(|&v| v <= -r.score));
                let won = self
                    .last(!side, r.moves)
                    .is_some_and(|s| s.iter().all(|&v| v >= r.score));
                if lost && won {
                    return Some(Decision::Loss(side));
                }
            }
        }
        if let Some(d) = self.rules.draw
            && fullmove >= d.after
            && Color::ALL.iter().all(|&side| {
                self.last(side, d.moves)
                    .is_some_and(|s| s.iter().all(|&v| v.abs() <= d.score))
            })
        {
            return Some(Decision::Draw);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(a: &mut Adjudicator, moves: &[(Option<i32>, Option<i32>)]) {
        for &(r, b) in moves {
            a.record(Color::Red, r.map(Score::Cp));
            a.record(Color::Black, b.map(Score::Cp));
        }
    }

    #[test]
    fn resign_needs_both_engines_to_agree() {
        let rules = Adjudication {
            resign: Some("moves=3 score=400".parse().unwrap()),
            draw: None,
        };
        let mut a = Adjudicator::new(rules);
        // Red thinks it is lost, Black does not agree yet.
        play(
            &mut a,
            &[
                (Some(-500), Some(300)),
                (Some(-600), Some(450)),
                (Some(-700), Some(500)),
            ],
        );
        assert_eq!(a.decision(4), None);
        // Black wavers once, so its streak starts again.
        play(&mut a, &[(Some(-800), Some(350))]);
        assert_eq!(a.decision(5), None);
        play(&mut a, &[(Some(-900), Some(700)), (Some(-900), Some(800))]);
        assert_eq!(a.decision(6), None, "only two agreeing moves so far");
        play(&mut a, &[(Some(-950), Some(900))]);
        assert_eq!(a.decision(7), Some(Decision::Loss(Color::Red)));
    }

    #[test]
    fn scores_order_mates_beyond_material() {
        assert!(centipawns(Score::Mate(1)) > centipawns(Score::Mate(5)));
        assert!(centipawns(Score::Mate(5)) > centipawns(Score::Cp(30_000)));
        assert!(centipawns(Score::Mate(-1)) < centipawns(Score::Mate(-4)));
        assert!(centipawns(Score::Mate(-4)) < centipawns(Score::Cp(-30_000)));
    }

    #[test]
    fn a_missing_score_breaks_the_streak_and_mates_count() {
        let rules = Adjudication {
            resign: Some("moves=2 score=1000".parse().unwrap()),
            draw: None,
        };
        let mut a = Adjudicator::new(rules);
        play(&mut a, &[(Some(2000), None), (Some(3000), Some(-3000))]);
        assert_eq!(a.decision(3), None);
        a.record(Color::Red, Some(Score::Mate(3)));
        a.record(Color::Black, Some(Score::Mate(-2)));
        assert_eq!(a.decision(4), Some(Decision::Loss(Color::Black)));
    }

    #[test]
    fn draw_after_the_given_move_only() {
        let rules = Adjudication {
            resign: None,
            draw: Some("moves=2 score=10 after=30".parse().unwrap()),
        };
        let mut a = Adjudicator::new(rules);
        play(&mut a, &[(Some(5), Some(-3)), (Some(0), Some(10))]);
        assert_eq!(a.decision(29), None);
        assert_eq!(a.decision(30), Some(Decision::Draw));
        play(&mut a, &[(Some(11), Some(0))]);
        assert_eq!(a.decision(31), None);
    }

    #[test]
    fn settings_are_checked() {
        for bad in [
            "",
            "moves=0 score=5",
            "moves=x score=1",
            "moves=1 score=-4",
            "moves=2 score=3 foo=1",
            "moves",
        ] {
            assert!(bad.parse::<ResignRule>().is_err(), "{bad}");
        }
        assert!("moves=2".parse::<DrawRule>().is_err());
        assert_eq!(
            "score=5 moves=4".parse::<DrawRule>().unwrap(),
            DrawRule {
                moves: 4,
                score: 5,
                after: 0
            }
        );
    }
}
