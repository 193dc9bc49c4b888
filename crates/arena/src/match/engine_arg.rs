//! The `--engine` argument: a command line with optional settings.
//!
//! ```text
//! --engine "./chuhan"
//! --engine "cmd=./chuhan name=Chuhan-dev option.hashsize=64"
//! --engine "cmd='node --no-experimental-fetch uci.js' name=FSF proto=uci ranks=1 option.Threads=1"
//! --engine "./pikafish name=Pikafish proto=uci 'option.Move Overhead=50'"
//! ```
//!
//! Words are split as a shell would (white space, `'…'` and `"…"` quotes,
//! backslash escapes). Settings:
//!
//! | setting | meaning |
//! |---|---|
//! | `cmd=…` | the command line, run through `sh -c` |
//! | `name=…` | the name in output and records (default: the program's file name) |
//! | `proto=auto\|ucci\|uci` | the protocol (default: detected, UCCI first) |
//! | `ranks=auto\|0\|1` | rank base of the engine's moves (default: detected) |
//! | `option.NAME=VALUE` | set after the handshake; an empty value presses a button |
//!
//! Without `cmd=`, every word that is not a setting belongs to the command.

use crate::game::engine_config::{EngineConfig, parse_protocol};
use std::collections::BTreeMap;
use std::fmt;

/// Why an `--engine` argument is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineArgError(pub String);

impl fmt::Display for EngineArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EngineArgError {}

/// Splits text into words like a POSIX shell (no expansions).
fn words(text: &str) -> Result<Vec<String>, EngineArgError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err(EngineArgError("unclosed ' quote".into())),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => cur.push(c),
                            Some(c) => {
                                cur.push('\\');
                                cur.push(c);
                            }
                            None => return Err(EngineArgError("unclosed \" quote".into())),
                        },
                        Some(c) => cur.push(c),
                        None => return Err(EngineArgError("unclosed \" quote".into())),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    cur.push(c);
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    Ok(out)
}

/// Quotes a word for `sh -c` when it needs it.
fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The default name: the program's file name without extension.
fn default_name(command: &str) -> String {
    let program = words(command)
        .ok()
        .and_then(|w| w.into_iter().next())
        .unwrap_or_default();
    let file = program.rsplit(['/', '\\']).next().unwrap_or(&program);
    let stem = file.split('.').next().unwrap_or(file);
    if stem.is_empty() {
        "engine".to_string()
    } else {
        stem.to_string()
    }
}

/// Parses one `--engine` argument.
///
/// ```
/// use chuhan_arena::r#match::engine_arg::parse;
/// use chuhan_arena::game::engine_config::RankBase;
/// use chuhan_engine::protocol::dialect::Dialect;
/// let e = parse("cmd='node uci.js' name=FSF proto=uci ranks=1 option.Threads=2").unwrap();
/// assert_eq!((e.command.as_str(), e.name.as_str()), ("node uci.js", "FSF"));
/// assert_eq!((e.protocol, e.ranks), (Some(Dialect::Uci), RankBase::One));
/// assert_eq!(e.options["Threads"], "2");
/// let e = parse("./target/release/chuhan --flag option.hashsize=16").unwrap();
/// assert_eq!((e.command.as_str(), e.name.as_str()), ("./target/release/chuhan --flag", "chuhan"));
/// ```
pub fn parse(text: &str) -> Result<EngineConfig, EngineArgError> {
    let mut command: Option<String> = None;
    let mut rest = Vec::new();
    let mut name = None;
    let mut protocol = None;
    let mut ranks = Default::default();
    let mut options = BTreeMap::new();
    for w in words(text)? {
        let (key, value) = match w.split_once('=') {
            Some((k, v)) => (k.to_ascii_lowercase(), v.to_string()),
            None => {
                rest.push(w);
                continue;
            }
        };
        match key.as_str() {
            "cmd" => command = Some(value),
            "name" => name = Some(value),
            "proto" => {
                protocol = parse_protocol(&value).map_err(|_| {
                    EngineArgError(format!("proto={value}: expected auto, ucci or uci"))
                })?
            }
            "ranks" => ranks = value.parse().map_err(EngineArgError)?,
            k if k.starts_with("option.") => {
                let opt = &w["option.".len()..w.find('=').expect("split above")];
                if opt.is_empty() {
                    return Err(EngineArgError(format!("`{w}`: no option name")));
                }
                options.insert(opt.to_string(), value);
            }
            _ => rest.push(w),
        }
    }
    let command = match command {
        Some(c) => {
            if !rest.is_empty() {
                return Err(EngineArgError(format!(
                    "`{}`: not a setting (cmd= is given)",
                    rest.join(" ")
                )));
            }
            c
        }
        None => rest
            .iter()
            .map(|w| shell_quote(w))
            .collect::<Vec<_>>()
            .join(" "),
    };
    if command.trim().is_empty() {
        return Err(EngineArgError(format!("`{text}`: no command")));
    }
    let name = name.unwrap_or_else(|| default_name(&command));
    if name.trim().is_empty() {
        return Err(EngineArgError("name= is empty".into()));
    }
    Ok(EngineConfig {
        name,
        command,
        protocol,
        options,
        ranks,
    })
}

/// Makes names unique by numbering repeats: `chuhan`, `chuhan-2`, …
pub fn unique_names(engines: &mut [EngineConfig]) {
    let mut used: Vec<String> = Vec::new();
    for e in engines.iter_mut() {
        let mut candidate = e.name.clone();
        let mut n = 1;
        while used.contains(&candidate) {
            n += 1;
            candidate = format!("{}-{n}", e.name);
        }
        e.name = candidate.clone();
        used.push(candidate);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::engine_config::RankBase;

    #[test]
    fn shell_words() {
        assert_eq!(
            words(r#"a 'b c' "d \"e\"" f\ g "$x""#).unwrap(),
            ["a", "b c", "d \"e\"", "f g", "$x"]
        );
        assert_eq!(words("  ").unwrap(), Vec::<String>::new());
        assert_eq!(words("''").unwrap(), [""]);
        assert!(words("'open").is_err());
        assert!(words("\"open").is_err());
    }

    #[test]
    fn settings_and_commands() {
        let e =
            parse("./pikafish name=Pika proto=uci 'option.Move Overhead=50' option.Clear_Hash=")
                .unwrap();
        assert_eq!(e.command, "./pikafish");
        assert_eq!(e.options["Move Overhead"], "50");
        assert_eq!(e.options["Clear_Hash"], "");
        assert_eq!(e.ranks, RankBase::Auto);
        let e = parse("cmd=\"sh -c 'exec ./x'\"").unwrap();
        assert_eq!(e.command, "sh -c 'exec ./x'");
        assert_eq!(e.name, "sh");
        // Words that need quoting are quoted again for the shell.
        let e = parse("\"./my engine\" --x 'a b'").unwrap();
        assert_eq!(e.command, "'./my engine' --x 'a b'");
        assert_eq!(e.name, "my engine");
    }

    #[test]
    fn bad_arguments() {
        for bad in [
            "",
            "name=x",
            "./e proto=xboard",
            "./e ranks=2",
            "./e option.=1",
            "cmd=./e extra",
            "./e name=",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn repeated_names_are_numbered() {
        let mut v = vec![
            parse("./chuhan").unwrap(),
            parse("./chuhan").unwrap(),
            parse("./other name=chuhan").unwrap(),
        ];
        unique_names(&mut v);
        let names: Vec<&str> = v.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["chuhan", "chuhan-2", "chuhan-3"]);
    }
}
