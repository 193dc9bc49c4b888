//! How a message repeats text the user sent: [`echo`] quotes it, cut to
//! [`ECHO_CHARS`] characters with an ellipsis, control characters shown as their
//! Unicode control pictures (`␀` … `␟`, `␡`) and other invisible ones as `<U+XXXX>`.
//! Every error message of the engine that names a value goes through it, so a
//! megabyte of input never comes back as a megabyte of output and a stray byte
//! never comes back as a Rust escape.

use std::fmt;

/// Longest echoed text in characters; longer text is cut and ends in `…`.
pub const ECHO_CHARS: usize = 40;

/// Text to repeat in a message; its [`fmt::Display`] writes it quoted and cut.
///
/// ```
/// use chuhan_engine::echo::echo;
/// assert_eq!(echo("h2e2").to_string(), "'h2e2'");
/// assert_eq!(echo("a\u{1}b\tc").to_string(), "'a␁b␉c'");
/// let long = "x".repeat(1 << 20);
/// assert_eq!(echo(&long).to_string(), format!("'{}…'", "x".repeat(40)));
/// assert_eq!(echo("\u{85}\u{200B}").to_string(), "'<U+0085><U+200B>'");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Echo<'a>(&'a str);

/// Quotes `text` for a message (see the module docs).
pub fn echo(text: &str) -> Echo<'_> {
    Echo(text)
}

/// The part of `text` an echo can show (one character more than [`ECHO_CHARS`], so
/// that the echo still knows to add the ellipsis): what an error value keeps of a
/// long input.
///
/// ```
/// use chuhan_engine::echo::{echo, keep};
/// let long = "y".repeat(100);
/// assert_eq!(keep(&long).chars().count(), 41);
/// assert_eq!(echo(&keep(&long)).to_string(), echo(&long).to_string());
/// ```
pub fn keep(text: &str) -> String {
    text.chars().take(ECHO_CHARS + 1).collect()
}

/// Writes one character readably (no quotes).
///
/// ```
/// use chuhan_engine::echo::readable;
/// assert_eq!(readable('\0'), "␀");
/// assert_eq!(readable('x'), "x");
/// assert_eq!(readable('\u{7f}'), "␡");
/// ```
pub fn readable(c: char) -> String {
    let mut s = String::new();
    push_readable(&mut s, c);
    s
}

fn push_readable(s: &mut String, c: char) {
    match c as u32 {
        0..=0x1F => s.push(char::from_u32(0x2400 + c as u32).unwrap_or('?')),
        0x7F => s.push('␡'),
        0x80..=0x9F | 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x2064 | 0xFEFF => {
            s.push_str(&format!("<U+{:04X}>", c as u32));
        }
        _ => s.push(c),
    }
}

impl fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::from("'");
        let mut chars = self.0.chars();
        for c in chars.by_ref().take(ECHO_CHARS) {
            push_readable(&mut s, c);
        }
        if chars.next().is_some() {
            s.push('…');
        }
        s.push('\'');
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_exactly_at_the_limit() {
        let forty = "z".repeat(ECHO_CHARS);
        assert_eq!(echo(&forty).to_string(), format!("'{forty}'"));
        let more = format!("{forty}!");
        assert_eq!(echo(&more).to_string(), format!("'{forty}…'"));
        assert_eq!(echo("").to_string(), "''");
        // Wide characters count as one each.
        let han = "楚".repeat(50);
        assert_eq!(echo(&han).to_string().chars().count(), ECHO_CHARS + 3);
    }
}
