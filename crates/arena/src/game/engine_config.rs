//! [`EngineConfig`]: one engine as the arena starts it — name, command line,
//! protocol, options and rank base — the same for `chuhan match` (`--engine`
//! settings, `r#match::engine_arg`) and for a tournament's entrants (the
//! `engines` of its JSON configuration).

use chuhan_engine::protocol::dialect::Dialect;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::str::FromStr;

/// The configured protocol that means "detect it": the client's handshake tries
/// UCCI first, then UCI.
pub const AUTO_PROTOCOL: &str = "auto";

/// Reads a protocol setting (`proto=` on the command line, `"protocol"` in JSON):
/// `auto` (`None`: detected), `ucci` or `uci`, in any case.
///
/// ```
/// use chuhan_arena::game::engine_config::parse_protocol;
/// use chuhan_engine::protocol::dialect::Dialect;
/// assert_eq!(parse_protocol("UCI"), Ok(Some(Dialect::Uci)));
/// assert_eq!(parse_protocol("auto"), Ok(None));
/// assert!(parse_protocol("xboard").is_err());
/// ```
pub fn parse_protocol(text: &str) -> Result<Option<Dialect>, String> {
    let text = text.trim().to_ascii_lowercase();
    if text == AUTO_PROTOCOL {
        return Ok(None);
    }
    Dialect::ALL
        .into_iter()
        .find(|d| d.name() == text)
        .map(Some)
        .ok_or_else(|| format!("protocol `{text}`: expected auto, ucci or uci"))
}

/// `"protocol"` in JSON: `"auto"` for `None`, else the dialect's name.
mod protocol_json {
    use super::{AUTO_PROTOCOL, Dialect, parse_protocol};
    use serde::Deserialize;

    pub fn serialize<S: serde::Serializer>(p: &Option<Dialect>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(p.map_or(AUTO_PROTOCOL, Dialect::name))
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Dialect>, D::Error> {
        parse_protocol(&String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// One engine: how to start it and set it up.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EngineConfig {
    /// The name in tables and records (unique in a match or event).
    pub name: String,
    /// The shell command line that starts it.
    pub command: String,
    /// Its protocol; `None` (`auto`, the default): detected by the handshake.
    #[serde(default, with = "protocol_json")]
    pub protocol: Option<Dialect>,
    /// Options set after the handshake (values as text; JSON numbers and booleans
    /// are accepted and written as text).
    #[serde(default, deserialize_with = "option_values")]
    pub options: BTreeMap<String, String>,
    /// How its moves number the ranks (`"ranks": 0`, `1` or `"auto"`).
    #[serde(default, skip_serializing_if = "RankBase::is_auto")]
    pub ranks: RankBase,
}

/// How an engine numbers the ranks in its move text. Xiangqi UCCI and UCI use
/// `a0`–`i9`; Fairy-Stockfish in plain UCI mode uses `a1`–`i10`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RankBase {
    /// Decided by the match runner after the handshake: 1 for a UCI engine that
    /// advertises `UCI_Variant` (Fairy-Stockfish's plain UCI), otherwise 0.
    #[default]
    Auto,
    /// Ranks 0–9 (`h2e2`).
    Zero,
    /// Ranks 1–10 (`h3e3`).
    One,
}

impl RankBase {
    /// True for [`RankBase::Auto`].
    pub fn is_auto(&self) -> bool {
        *self == RankBase::Auto
    }

    /// The base as text: `auto`, `0` or `1`.
    pub fn name(self) -> &'static str {
        match self {
            RankBase::Auto => "auto",
            RankBase::Zero => "0",
            RankBase::One => "1",
        }
    }
}

impl FromStr for RankBase {
    type Err = String;

    /// Parses `0`, `1` or `auto`.
    fn from_str(s: &str) -> Result<RankBase, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(RankBase::Auto),
            "0" => Ok(RankBase::Zero),
            "1" => Ok(RankBase::One),
            other => Err(format!("rank base `{other}` is not 0, 1 or auto")),
        }
    }
}

impl Serialize for RankBase {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RankBase::Auto => s.serialize_str("auto"),
            RankBase::Zero => s.serialize_u8(0),
            RankBase::One => s.serialize_u8(1),
        }
    }
}

impl<'de> Deserialize<'de> for RankBase {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RankBase, D::Error> {
        let text = match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(s) => s,
            serde_json::Value::Number(n) => n.to_string(),
            other => other.to_string(),
        };
        text.parse().map_err(serde::de::Error::custom)
    }
}

fn option_values<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, String>, D::Error> {
    use serde::de::Error;
    let raw = BTreeMap::<String, serde_json::Value>::deserialize(d)?;
    raw.into_iter()
        .map(|(k, v)| {
            let text = match v {
                serde_json::Value::String(s) => s,
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::Bool(b) => b.to_string(),
                other => {
                    return Err(D::Error::custom(format!(
                        "option `{k}`: value {other} is not text, a number or a boolean"
                    )));
                }
            };
            Ok((k, text))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_reads_and_writes_as_before() {
        let read = |json: &str| serde_json::from_str::<EngineConfig>(json);
        let e = read(r#"{"name": "a", "command": "x", "protocol": "uci"}"#).unwrap();
        assert_eq!(e.protocol, Some(Dialect::Uci));
        let e = read(r#"{"name": "a", "command": "x"}"#).unwrap();
        assert_eq!(e.protocol, None);
        let json = serde_json::to_string(&e).unwrap();
        assert!(json.contains(r#""protocol":"auto""#), "{json}");
        assert_eq!(read(&json).unwrap(), e);
        assert!(read(r#"{"name": "a", "command": "x", "protocol": "xboard"}"#).is_err());
    }
}
