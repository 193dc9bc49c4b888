//! The option table: every option of both dialects, its names (UCCI, UCI and
//! aliases), type, default and range, how `setoption` names it, and how the
//! handshake lists it.

use crate::echo::echo;
use std::fmt::Write as _;

/// The options the daemon knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionId {
    /// UCCI: times in milliseconds (else seconds).
    UseMillisec,
    /// UCCI: do not read input while thinking.
    Batch,
    /// UCCI: echo received lines.
    Debug,
    /// The GUI may ponder.
    Ponder,
    /// Consult the opening books (UCI `OwnBook`).
    UseBook,
    /// Book files, `;`-separated (UCI `BookFile`); `builtin` is the shipped book.
    BookFiles,
    /// Hash size in MB.
    Hash,
    /// Search threads.
    Threads,
    /// CPU idling.
    Idle,
    /// Pruning level.
    Pruning,
    /// Evaluation knowledge.
    Knowledge,
    /// How book moves are chosen (and evaluation noise).
    Randomness,
    /// Playing style.
    Style,
    /// New game (button).
    NewGame,
    /// Principal variations to report.
    MultiPv,
    /// Communication reserve per move in ms.
    MoveOverhead,
    /// Empty the hash (button).
    ClearHash,
    /// Resign hopeless positions (UCCI).
    Resign,
    /// Repetition rules (棋例): `cxa2011` or `axf`.
    Rules,
    /// When a forbidden cycle ends the game for the search: `strict` or `text`.
    Referee,
    /// Evaluate with the loaded net (NNUE) instead of the hand-written evaluation.
    UseNnue,
    /// The net file to load (empty: none).
    EvalFile,
    /// The search scores sixty moves without a capture as a draw (on by default).
    SixtyMoveRule,
    /// Plies without a capture after which the search scores a draw (0: never).
    Rule60MaxPly,
    /// UCI: `info` lines carry win/draw/loss chances (`wdl W D L`).
    ShowWdl,
    /// Playing level, 0 to 20 (20: full strength).
    SkillLevel,
    /// Play at the strength `UCI_Elo` names.
    LimitStrength,
    /// The Elo to play at under `UCI_LimitStrength`.
    Elo,
}

/// The type of an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// On/off, with its default.
    Check(bool),
    /// An integer in a range.
    Spin {
        /// Default value.
        default: i64,
        /// Minimum.
        min: i64,
        /// Maximum.
        max: i64,
    },
    /// One of several words.
    Combo {
        /// Default word.
        default: &'static str,
        /// The words.
        vars: &'static [&'static str],
    },
    /// An action without a value.
    Button,
    /// Free text.
    Text(&'static str),
}

/// One row of the option table.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// Which option.
    pub id: OptionId,
    /// UCCI name (lower case, one word).
    pub ucci: &'static str,
    /// UCI name.
    pub uci: &'static str,
    /// Other accepted names (compared after normalisation).
    pub aliases: &'static [&'static str],
    /// Type, default and range.
    pub kind: Kind,
    /// Listed in the UCCI handshake.
    pub in_ucci: bool,
    /// Listed in the UCI handshake.
    pub in_uci: bool,
}

const LEVELS: &[&str] = &["none", "small", "medium", "large"];

/// Every option.
pub const TABLE: &[Spec] = &[
    Spec {
        id: OptionId::UseMillisec,
        ucci: "usemillisec",
        uci: "usemillisec",
        aliases: &[],
        kind: Kind::Check(true),
        in_ucci: true,
        in_uci: false,
    },
    Spec {
        id: OptionId::Batch,
        ucci: "batch",
        uci: "batch",
        aliases: &[],
        kind: Kind::Check(false),
        in_ucci: true,
        in_uci: false,
    },
    Spec {
        id: OptionId::Debug,
        ucci: "debug",
        uci: "debug",
        aliases: &[],
        kind: Kind::Check(false),
        in_ucci: true,
        in_uci: false,
    },
    Spec {
        id: OptionId::Ponder,
        ucci: "ponder",
        uci: "Ponder",
        aliases: &[],
        kind: Kind::Check(false),
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::UseBook,
        ucci: "usebook",
        uci: "OwnBook",
        aliases: &[],
        kind: Kind::Check(true),
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::BookFiles,
        ucci: "bookfiles",
        uci: "BookFile",
        aliases: &["bookfiles"],
        kind: Kind::Text(crate::book::builtin::BUILTIN_NAME),
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::Hash,
        ucci: "hashsize",
        uci: "Hash",
        aliases: &["hash"],
        kind: Kind::Spin {
            default: crate::search::searcher::DEFAULT_HASH_MB as i64,
            min: 0,
            max: crate::search::searcher::MAX_HASH_MB as i64,
        },
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::Threads,
        ucci: "threads",
        uci: "Threads",
        aliases: &[],
        kind: Kind::Spin {
            default: 1,
            min: 0,
            max: crate::search::searcher::MAX_THREADS as i64,
        },
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::Idle,
        ucci: "idle",
        uci: "Idle",
        aliases: &[],
        kind: Kind::Combo {
            default: "none",
            vars: LEVELS,
        },
        in_ucci: true,
        in_uci: false,
    },
    Spec {
        id: OptionId::Pruning,
        ucci: "pruning",
        uci: "Pruning",
        aliases: &[],
        kind: Kind::Combo {
            default: "large",
            vars: LEVELS,
        },
        in_ucci: true,
        in_uci: false,
    },
    Spec {
        id: OptionId::Knowledge,
        ucci: "knowledge",
        uci: "Knowledge",
        aliases: &[],
        kind: Kind::Combo {
            default: "large",
            vars: LEVELS,
        },
        in_ucci: true,
        in_uci: false,
    },
    Spec {
        id: OptionId::Randomness,
        ucci: "randomness",
        uci: "Randomness",
        aliases: &["selectivity"],
        kind: Kind::Combo {
            default: "none",
            vars: &["none", "tiny", "small", "medium", "large", "huge"],
        },
        in_ucci: true,
        in_uci: false,
    },
    Spec {
        id: OptionId::Style,
        ucci: "style",
        uci: "Style",
        aliases: &[],
        kind: Kind::Combo {
            default: "normal",
            vars: &["solid", "normal", "risky"],
        },
        in_ucci: true,
        in_uci: false,
    },
    Spec {
        id: OptionId::NewGame,
        ucci: "newgame",
        uci: "NewGame",
        aliases: &[],
        kind: Kind::Button,
        in_ucci: true,
        in_uci: false,
    },
    Spec {
        id: OptionId::MultiPv,
        ucci: "multipv",
        uci: "MultiPV",
        aliases: &[],
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: crate::search::settings::MAX_MULTIPV as i64,
        },
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::MoveOverhead,
        ucci: "moveoverhead",
        uci: "Move Overhead",
        aliases: &[],
        kind: Kind::Spin {
            default: crate::search::params::MOVE_OVERHEAD_MS as i64,
            min: 0,
            max: crate::search::settings::MAX_MOVE_OVERHEAD_MS as i64,
        },
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::ClearHash,
        ucci: "clearhash",
        uci: "Clear Hash",
        aliases: &[],
        kind: Kind::Button,
        in_ucci: false,
        in_uci: true,
    },
    Spec {
        id: OptionId::Resign,
        ucci: "resign",
        uci: "Resign",
        aliases: &[],
        kind: Kind::Check(false),
        in_ucci: true,
        in_uci: false,
    },
    Spec {
        id: OptionId::Rules,
        ucci: "rules",
        uci: "Rules",
        // Pikafish's `Repetition Rule` (2023) and ElephantEye's `repetition`.
        aliases: &["repetitionrule", "repetition"],
        kind: Kind::Combo {
            default: "cxa2011",
            vars: &["cxa2011", "axf"],
        },
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::Referee,
        ucci: "referee",
        uci: "Repetition Referee",
        aliases: &["repetitionreferee", "adjudication"],
        kind: Kind::Combo {
            default: "strict",
            vars: &["strict", "text"],
        },
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::UseNnue,
        ucci: "usennue",
        uci: "UseNNUE",
        aliases: &[],
        kind: Kind::Check(true),
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::EvalFile,
        ucci: "evalfile",
        uci: "EvalFile",
        aliases: &[],
        kind: Kind::Text(crate::eval::nnue::builtin::BUILTIN_NAME),
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::SixtyMoveRule,
        ucci: "sixtymoverule",
        uci: "Sixty Move Rule",
        aliases: &["rule60"],
        kind: Kind::Check(true),
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::Rule60MaxPly,
        ucci: "rule60maxply",
        uci: "Rule60MaxPly",
        aliases: &[],
        kind: Kind::Spin {
            default: crate::rules::params::SIXTY_MOVE_PLIES as i64,
            min: 0,
            max: MAX_RULE60_PLIES as i64,
        },
        in_ucci: false,
        in_uci: false,
    },
    Spec {
        id: OptionId::SkillLevel,
        ucci: "skilllevel",
        uci: "Skill Level",
        aliases: &[],
        kind: Kind::Spin {
            default: crate::search::skill::MAX_SKILL_LEVEL as i64,
            min: 0,
            max: crate::search::skill::MAX_SKILL_LEVEL as i64,
        },
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::LimitStrength,
        ucci: "limitstrength",
        uci: "UCI_LimitStrength",
        aliases: &[],
        kind: Kind::Check(false),
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::Elo,
        ucci: "elo",
        uci: "UCI_Elo",
        aliases: &[],
        kind: Kind::Spin {
            default: crate::search::skill::MAX_ELO as i64,
            min: crate::search::skill::MIN_ELO as i64,
            max: crate::search::skill::MAX_ELO as i64,
        },
        in_ucci: true,
        in_uci: true,
    },
    Spec {
        id: OptionId::ShowWdl,
        ucci: "showwdl",
        uci: "UCI_ShowWDL",
        aliases: &[],
        kind: Kind::Check(false),
        in_ucci: false,
        in_uci: true,
    },
];

/// The largest `Rule60MaxPly`: a thousand plies without a capture.
pub const MAX_RULE60_PLIES: u32 = 1_000;

/// Combo words that GUIs still send for the same setting, and the word each stands
/// for (compared after [`normalize`]). Pikafish's `Repetition Rule` had `AsianRule`
/// and `ChineseRule` (2023-02), renamed `Computer` and `Chinese` (2023-11): the
/// Asian rules and Pikafish's "computer rule" are played as AXF, the Chinese rule as
/// CXA 2011. ElephantEye's old `repetition` combo had `ASIANRULE` and
/// `CHINESERULE` too; its `ALWAYSDRAW` and `CHECKBAN` (only perpetual check loses)
/// are refused: a GUI that does not know the 棋例 should not switch them off.
const VALUE_ALIASES: &[(OptionId, &str, &str)] = &[
    (OptionId::Rules, "asianrule", "axf"),
    (OptionId::Rules, "asian", "axf"),
    (OptionId::Rules, "computer", "axf"),
    (OptionId::Rules, "computerrule", "axf"),
    (OptionId::Rules, "chineserule", "cxa2011"),
    (OptionId::Rules, "chinese", "cxa2011"),
    (OptionId::Rules, "cxa", "cxa2011"),
];

/// The combo word `word` of option `id` stands for: itself, or what a GUI's older
/// spelling means (see [`VALUE_ALIASES`]).
///
/// ```
/// use chuhan_engine::protocol::options::{OptionId, combo_word};
/// assert_eq!(combo_word(OptionId::Rules, "AsianRule"), "axf");
/// assert_eq!(combo_word(OptionId::Rules, "ChineseRule"), "cxa2011");
/// assert_eq!(combo_word(OptionId::Rules, "axf"), "axf");
/// ```
pub fn combo_word(id: OptionId, word: &str) -> String {
    let w = normalize(word);
    VALUE_ALIASES
        .iter()
        .find(|(i, from, _)| *i == id && *from == w)
        .map_or(w, |(_, _, to)| (*to).to_string())
}

/// Lower case without spaces, underscores or dashes: `Move_Overhead`,
/// `move overhead` and `moveoverhead` are one name.
pub fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The option called `name` in either dialect or by an alias.
///
/// ```
/// use chuhan_engine::protocol::options::{find, OptionId};
/// assert_eq!(find("hashsize").unwrap().id, OptionId::Hash);
/// assert_eq!(find("HASH").unwrap().id, OptionId::Hash);
/// assert_eq!(find("Move_Overhead").unwrap().id, OptionId::MoveOverhead);
/// assert!(find("nosuch").is_none());
/// ```
pub fn find(name: &str) -> Option<&'static Spec> {
    let n = normalize(name);
    TABLE.iter().find(|s| {
        normalize(s.ucci) == n || normalize(s.uci) == n || s.aliases.iter().any(|a| *a == n)
    })
}

/// A typed option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A check.
    Bool(bool),
    /// A spin.
    Int(i64),
    /// A combo word (lower case) or text.
    Text(String),
    /// A button press.
    Press,
}

/// Checks a value against an option's type.
pub fn validate(spec: &Spec, value: Option<&str>) -> Result<Value, String> {
    let v = value.map(str::trim).unwrap_or("");
    match spec.kind {
        Kind::Check(_) => match v.to_ascii_lowercase().as_str() {
            "true" | "on" | "1" | "yes" => Ok(Value::Bool(true)),
            "false" | "off" | "0" | "no" => Ok(Value::Bool(false)),
            _ => Err(format!(
                "{} needs true or false, not {}",
                spec.ucci,
                echo(v)
            )),
        },
        Kind::Spin { min, max, .. } => match v.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Value::Int(n)),
            _ => Err(format!(
                "{} needs an integer from {min} to {max}, not {}",
                spec.ucci,
                echo(v)
            )),
        },
        Kind::Combo { vars, .. } => {
            let w = combo_word(spec.id, v);
            let ok = vars.contains(&w.as_str())
                || (vars == LEVELS && matches!(w.as_str(), "tiny" | "huge"));
            if ok {
                Ok(Value::Text(w))
            } else {
                Err(format!(
                    "{} needs one of {}, not {}",
                    spec.ucci,
                    vars.join(", "),
                    echo(v)
                ))
            }
        }
        Kind::Button => Ok(Value::Press),
        Kind::Text(_) => Ok(Value::Text(v.to_string())),
    }
}

/// The `option` line of `spec` in UCCI (`ucci = true`) or UCI form.
pub fn describe(spec: &Spec, ucci: bool) -> String {
    let mut s = if ucci {
        format!("option {} type ", spec.ucci)
    } else {
        format!("option name {} type ", spec.uci)
    };
    match spec.kind {
        Kind::Check(d) => {
            let _ = write!(s, "check default {d}");
        }
        Kind::Spin { default, min, max } => {
            let _ = write!(s, "spin default {default} min {min} max {max}");
        }
        Kind::Combo { default, vars } => {
            let _ = write!(s, "combo default {default}");
            for v in vars {
                let _ = write!(s, " var {v}");
            }
        }
        Kind::Button => s.push_str("button"),
        Kind::Text(d) => {
            let _ = write!(
                s,
                "string default {}",
                if d.is_empty() { "<empty>" } else { d }
            );
        }
    }
    s
}

/// Splits the words after `setoption` into an option name and value, accepting
/// `name X [value Y]` (UCI) and `X [Y]` (UCCI), where a UCCI name may also be a
/// multi-word UCI name (`Move Overhead 50`). Unknown names come back as the first
/// word.
pub fn split_setoption(words: &[&str]) -> (String, Option<String>) {
    if words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("name"))
    {
        let rest = &words[1..];
        let vpos = rest.iter().position(|w| w.eq_ignore_ascii_case("value"));
        let (name, value) = match vpos {
            Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
            None => (rest, None),
        };
        return (name.join(" "), value);
    }
    for n in (1..=words.len().min(3)).rev() {
        let name = words[..n].join(" ");
        if find(&name).is_some() {
            let value = if words.len() > n {
                Some(words[n..].join(" "))
            } else {
                None
            };
            return (name, value);
        }
    }
    let value = if words.len() > 1 {
        Some(words[1..].join(" "))
    } else {
        None
    };
    (
        words.first().map_or(String::new(), |w| w.to_string()),
        value,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_syntaxes() {
        assert_eq!(
            split_setoption(&["name", "Move", "Overhead", "value", "50"]),
            ("Move Overhead".to_string(), Some("50".to_string()))
        );
        assert_eq!(
            split_setoption(&["Move", "Overhead", "50"]),
            ("Move Overhead".to_string(), Some("50".to_string()))
        );
        assert_eq!(
            split_setoption(&["hashsize", "128"]),
            ("hashsize".to_string(), Some("128".to_string()))
        );
        assert_eq!(split_setoption(&["newgame"]), ("newgame".to_string(), None));
        assert_eq!(
            split_setoption(&["name", "Clear", "Hash"]),
            ("Clear Hash".to_string(), None)
        );
    }

    #[test]
    fn values_are_checked() {
        let hash = find("Hash").unwrap();
        assert_eq!(validate(hash, Some("128")), Ok(Value::Int(128)));
        assert!(validate(hash, Some("-3")).is_err());
        assert!(validate(hash, Some("lots")).is_err());
        let p = find("pruning").unwrap();
        assert_eq!(validate(p, Some("Large")), Ok(Value::Text("large".into())));
        assert!(validate(p, Some("enormous")).is_err());
        let b = find("batch").unwrap();
        assert_eq!(validate(b, Some("on")), Ok(Value::Bool(true)));
        assert!(validate(b, None).is_err());
    }

    #[test]
    fn names_are_unique() {
        for (i, a) in TABLE.iter().enumerate() {
            for b in &TABLE[i + 1..] {
                assert_ne!(normalize(a.ucci), normalize(b.ucci));
                assert_ne!(normalize(a.uci), normalize(b.uci));
            }
        }
    }
}
