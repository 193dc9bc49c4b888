//! What the options mean: a validated option value ([`super::options::validate`]) becomes a
//! [`Setting`] — of the session itself, or typed engine settings. The UCCI words
//! (the four [`Level`]s of `pruning`, `knowledge` and `idle`, the [`Style`]s, the
//! `randomness` levels) are given their meaning here; the engine below knows only
//! typed values (a [`Pruning`], a [`Knowledge`], a draw value in centipawns, ...).

use super::options::{OptionId, Value};
use crate::book::Randomness;
use crate::engine::EngineOption;
use crate::eval::Knowledge;
use crate::rules::Referee;
use crate::search::Pruning;
use crate::search::params::CONTEMPT;
use crate::search::repetition::RepetitionRules;

/// A four-step setting of the UCCI combo options `pruning`, `knowledge` and `idle`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// `none`.
    None,
    /// `small` (also ElephantEye's `tiny`).
    Small,
    /// `medium`.
    Medium,
    /// `large` (also ElephantEye's `huge`).
    Large,
}

impl Level {
    /// The level a (lower-case) option word names.
    ///
    /// ```
    /// use chuhan_engine::protocol::translate::Level;
    /// assert_eq!(Level::parse("huge"), Some(Level::Large));
    /// assert_eq!(Level::parse("enormous"), None);
    /// ```
    pub fn parse(word: &str) -> Option<Level> {
        match word {
            "none" | "off" => Some(Level::None),
            "small" | "tiny" => Some(Level::Small),
            "medium" => Some(Level::Medium),
            "large" | "huge" => Some(Level::Large),
            _ => None,
        }
    }

    /// What a `pruning` level means: `none` is plain PVS, `small` everything but
    /// the null move, `medium` and `large` everything.
    pub fn pruning(self) -> Pruning {
        match self {
            Level::None => Pruning::None,
            Level::Small => Pruning::NoNullMove,
            Level::Medium | Level::Large => Pruning::Full,
        }
    }

    /// What a `knowledge` level means: `none` counts material, `small` material and
    /// piece-square values, `medium` and `large` every term.
    pub fn knowledge(self) -> Knowledge {
        match self {
            Level::None => Knowledge::Material,
            Level::Small => Knowledge::Basic,
            Level::Medium | Level::Large => Knowledge::Full,
        }
    }

    /// What an `idle` level means: the share of time (percent) each search thread
    /// sleeps (ours, first version: a quarter per step).
    pub fn idle_percent(self) -> u32 {
        match self {
            Level::None => 0,
            Level::Small => 25,
            Level::Medium => 50,
            Level::Large => 75,
        }
    }
}

/// Playing style (the UCCI `style` option): how much the engine likes draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Draws are welcome (positive draw value).
    Solid,
    /// Draws are worth 0.
    Normal,
    /// Draws are avoided (negative draw value).
    Risky,
}

impl Style {
    /// The style a (lower-case) option word names.
    pub fn parse(word: &str) -> Option<Style> {
        match word {
            "solid" => Some(Style::Solid),
            "normal" => Some(Style::Normal),
            "risky" => Some(Style::Risky),
            _ => None,
        }
    }

    /// The draw value of the style for the side that starts a search: ±[`CONTEMPT`].
    pub fn draw_value(self) -> i32 {
        match self {
            Style::Solid => CONTEMPT,
            Style::Normal => 0,
            Style::Risky => -CONTEMPT,
        }
    }
}

/// The evaluation noise of a `randomness` level: none for `none`, a little for
/// `tiny` and `small`, more for `medium`, most for `large` and `huge` (ours, first
/// version: amplitudes in centipawns, small next to a pawn's 100).
pub fn eval_noise(r: Randomness) -> i32 {
    match r {
        Randomness::None => 0,
        Randomness::Tiny | Randomness::Small => 8,
        Randomness::Medium => 20,
        Randomness::Large | Randomness::Huge => 50,
    }
}

/// One strength option's new value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrengthSetting {
    /// `Skill Level`.
    Level(u32),
    /// `UCI_LimitStrength`.
    Limit(bool),
    /// `UCI_Elo`.
    Elo(i32),
}

/// What setting an option changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// UCCI time fields are in milliseconds (else seconds).
    UseMillisec(bool),
    /// UCCI batch mode: no input is read while thinking.
    Batch(bool),
    /// Echo received lines.
    Debug(bool),
    /// UCI `UCI_ShowWDL`: `info` lines carry win/draw/loss chances.
    ShowWdl(bool),
    /// One of the strength options (`Skill Level`, `UCI_LimitStrength`,
    /// `UCI_Elo`): the session combines them into a skill.
    Strength(StrengthSetting),
    /// Start a new game (the UCCI `newgame` button).
    NewGame,
    /// Engine settings, applied in this order.
    Engine(Vec<EngineOption>),
    /// The books to consult (`bookfiles`), `;`-separated;
    /// [`crate::book::builtin::BUILTIN_NAME`] is the shipped book, the option's
    /// default.
    BookFiles(String),
}

/// The setting a validated `value` of option `id` stands for; `None` if the value
/// is not of the option's kind (what [`super::options::validate`] rules out).
///
/// ```
/// use chuhan_engine::protocol::options::{OptionId, Value};
/// use chuhan_engine::protocol::translate::{Setting, setting};
/// use chuhan_engine::engine::EngineOption;
/// use chuhan_engine::search::Pruning;
/// assert_eq!(
///     setting(OptionId::Pruning, &Value::Text("small".into())),
///     Some(Setting::Engine(vec![EngineOption::Pruning(Pruning::NoNullMove)]))
/// );
/// ```
pub fn setting(id: OptionId, value: &Value) -> Option<Setting> {
    let engine = |o: EngineOption| Some(Setting::Engine(vec![o]));
    let level = || match value {
        Value::Text(t) => Level::parse(t),
        _ => None,
    };
    match (id, value) {
        (OptionId::UseMillisec, Value::Bool(b)) => Some(Setting::UseMillisec(*b)),
        (OptionId::Batch, Value::Bool(b)) => Some(Setting::Batch(*b)),
        (OptionId::Debug, Value::Bool(b)) => Some(Setting::Debug(*b)),
        (OptionId::ShowWdl, Value::Bool(b)) => Some(Setting::ShowWdl(*b)),
        (OptionId::SkillLevel, Value::Int(n)) => {
            Some(Setting::Strength(StrengthSetting::Level(*n as u32)))
        }
        (OptionId::LimitStrength, Value::Bool(b)) => {
            Some(Setting::Strength(StrengthSetting::Limit(*b)))
        }
        (OptionId::Elo, Value::Int(n)) => Some(Setting::Strength(StrengthSetting::Elo(*n as i32))),
        (OptionId::NewGame, _) => Some(Setting::NewGame),
        (OptionId::BookFiles, Value::Text(t)) => Some(Setting::BookFiles(t.clone())),
        (OptionId::Ponder, Value::Bool(b)) => engine(EngineOption::Ponder(*b)),
        (OptionId::UseBook, Value::Bool(b)) => engine(EngineOption::UseBook(*b)),
        (OptionId::Resign, Value::Bool(b)) => engine(EngineOption::Resign(*b)),
        (OptionId::UseNnue, Value::Bool(b)) => engine(EngineOption::UseNnue(*b)),
        (OptionId::EvalFile, Value::Text(t)) => engine(EngineOption::EvalFile(t.clone())),
        (OptionId::Hash, Value::Int(n)) => engine(EngineOption::Hash(*n as usize)),
        (OptionId::Threads, Value::Int(n)) => engine(EngineOption::Threads(*n as usize)),
        (OptionId::MultiPv, Value::Int(n)) => engine(EngineOption::MultiPv(*n as usize)),
        (OptionId::MoveOverhead, Value::Int(n)) => engine(EngineOption::MoveOverhead(*n as u64)),
        (OptionId::ClearHash, _) => engine(EngineOption::ClearHash),
        (OptionId::Idle, _) => engine(EngineOption::IdlePercent(level()?.idle_percent())),
        (OptionId::Pruning, _) => engine(EngineOption::Pruning(level()?.pruning())),
        (OptionId::Knowledge, _) => engine(EngineOption::Knowledge(level()?.knowledge())),
        (OptionId::Randomness, Value::Text(t)) => {
            // ElephantEye's meaning: book choice and evaluation noise together.
            let r = t.parse::<Randomness>().ok()?;
            Some(Setting::Engine(vec![
                EngineOption::BookRandomness(r),
                EngineOption::EvalNoise(eval_noise(r)),
            ]))
        }
        (OptionId::Style, Value::Text(t)) => {
            engine(EngineOption::DrawValue(Style::parse(t)?.draw_value()))
        }
        (OptionId::Rules, Value::Text(t)) => engine(EngineOption::Rules(RepetitionRules::Judged(
            t.parse::<crate::rules::RuleSet>().ok()?,
        ))),
        (OptionId::SixtyMoveRule, Value::Bool(b)) => engine(EngineOption::SixtyMovePlies(if *b {
            crate::rules::params::SIXTY_MOVE_PLIES
        } else {
            0
        })),
        (OptionId::Rule60MaxPly, Value::Int(n)) => engine(EngineOption::SixtyMovePlies(*n as u32)),
        (OptionId::Referee, Value::Text(t)) => {
            engine(EngineOption::Referee(t.parse::<Referee>().ok()?))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::options;

    /// Every value the option table accepts translates.
    #[test]
    fn every_valid_value_has_a_meaning() {
        for spec in options::TABLE {
            let words: Vec<String> = match spec.kind {
                options::Kind::Check(_) => vec!["true".into(), "false".into()],
                options::Kind::Spin { min, max, .. } => vec![min.to_string(), max.to_string()],
                options::Kind::Combo { vars, .. } => vars.iter().map(|v| v.to_string()).collect(),
                options::Kind::Button => vec![String::new()],
                options::Kind::Text(_) => vec![String::new(), "builtin".into()],
            };
            for w in words {
                let v = options::validate(spec, Some(&w)).unwrap();
                assert!(setting(spec.id, &v).is_some(), "{} {w}", spec.ucci);
            }
        }
    }

    /// Each option's advertised default is what a fresh engine already does:
    /// setting every option to its default changes none of the search's
    /// settings. (A default kept in two places that disagree fails here.)
    #[test]
    fn every_default_is_the_engines_own() {
        let mut engine = crate::engine::Engine::with_hash_mb(1).unwrap();
        let fresh = *engine.settings();
        for spec in options::TABLE {
            let word = match spec.kind {
                options::Kind::Check(b) => b.to_string(),
                options::Kind::Spin { default, .. } => default.to_string(),
                options::Kind::Combo { default, .. } => default.to_string(),
                options::Kind::Button | options::Kind::Text(_) => continue,
            };
            let v = options::validate(spec, Some(&word)).unwrap();
            if let Some(Setting::Engine(opts)) = setting(spec.id, &v) {
                for o in opts {
                    engine.set_option(o).unwrap();
                }
            }
            assert_eq!(*engine.settings(), fresh, "{} default {word}", spec.ucci);
        }
    }

    #[test]
    fn levels_order_strength() {
        assert_eq!(Level::parse("tiny"), Some(Level::Small));
        assert_eq!(Level::None.pruning(), Pruning::None);
        assert_eq!(Level::Large.knowledge(), Knowledge::Full);
        assert!(Level::Small.idle_percent() < Level::Large.idle_percent());
        assert!(Style::Solid.draw_value() > 0 && Style::Risky.draw_value() < 0);
        assert!(eval_noise(Randomness::Huge) > eval_noise(Randomness::Tiny));
        assert_eq!(eval_noise(Randomness::None), 0);
    }
}
