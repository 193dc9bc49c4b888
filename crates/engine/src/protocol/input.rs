//! The daemon's input: a thread of its own reads the bytes, cuts them into lines of
//! at most [`MAX_LINE`] bytes and hands them over as [`Input`]s, so the session can
//! watch its input while a search runs (in every mode) and learns at once when the
//! input ends.
//!
//! A longer line is not kept: its bytes are dropped as they arrive and it becomes
//! one [`Input::TooLong`], so a line of any length costs at most [`MAX_LINE`] bytes
//! of memory, and only while it is read. Bytes are decoded as UTF-8; a line that is
//! not UTF-8 but is valid GBK (what a GUI on a code-page-936 Windows sends for a
//! Chinese book path) is decoded as GBK; anything else is decoded as UTF-8 with
//! U+FFFD for the invalid sequences. Control characters other than tabs become
//! spaces, and a final line without a newline still counts.

use crossbeam_channel::{Receiver, Sender, bounded};
use std::io::{ErrorKind, Read};

/// Longest accepted line in bytes (without its line end). UCCI's reference engine
/// takes 8,192 characters; a `position … moves` line of a 1,000-move game needs
/// 5,000 bytes.
pub const MAX_LINE: usize = 1 << 20;

/// How many lines may wait for the session before the reader waits in turn (and
/// the writer behind the pipe with it).
const QUEUE: usize = 256;

/// Size of one read from the input.
const CHUNK: usize = 64 << 10;

/// Line buffers larger than this are given back after the line is handed over.
const KEEP_CAPACITY: usize = 64 << 10;

/// One item of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line, decoded, without its line end.
    Line(String),
    /// A line longer than [`MAX_LINE`], dropped.
    TooLong {
        /// Its length in bytes.
        bytes: usize,
    },
    /// The input has ended (or can no longer be read). Nothing follows.
    End,
}

/// Starts the reader thread over `source`; the items arrive in order and the last
/// is [`Input::End`].
pub fn spawn<R: Read + Send + 'static>(source: R) -> Receiver<Input> {
    let (tx, rx) = bounded(QUEUE);
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || read_lines(source, &tx))
        .expect("the input thread starts");
    rx
}

/// Turns a line's bytes into text for the parser: UTF-8, else GBK, else UTF-8
/// with replacement characters.
fn decode(bytes: &[u8]) -> String {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => crate::notation::charset::decode_gbk_exact(bytes)
            .map_or_else(|| String::from_utf8_lossy(bytes), std::borrow::Cow::Owned),
    };
    text.chars()
        .map(|c| if c.is_control() && c != '\t' { ' ' } else { c })
        .collect()
}

/// Cuts the bytes of `source` into [`Input`]s sent to `tx` until the input ends or
/// nobody listens any more.
pub fn read_lines<R: Read>(mut source: R, tx: &Sender<Input>) {
    let mut chunk = vec![0u8; CHUNK];
    let mut line: Vec<u8> = Vec::new();
    // Bytes of the current line when it is being dropped.
    let mut dropped: Option<usize> = None;
    let emit = |line: &mut Vec<u8>, dropped: &mut Option<usize>| -> bool {
        let item = match dropped.take() {
            Some(bytes) => Input::TooLong { bytes },
            None => {
                let mut end = line.len();
                if end > 0 && line[end - 1] == b'\r' {
                    end -= 1;
                }
                Input::Line(decode(&line[..end]))
            }
        };
        line.clear();
        if line.capacity() > KEEP_CAPACITY {
            line.shrink_to(0);
        }
        tx.send(item).is_ok()
    };
    loop {
        let n = match source.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let mut rest = &chunk[..n];
        while !rest.is_empty() {
            let (part, newline) = match rest.iter().position(|&b| b == b'\n') {
                Some(i) => (&rest[..i], true),
                None => (rest, false),
            };
            rest = &rest[part.len() + usize::from(newline)..];
            match dropped.as_mut() {
                Some(bytes) => *bytes += part.len(),
                None if line.len() + part.len() > MAX_LINE => {
                    dropped = Some(line.len() + part.len());
                    line.clear();
                    line.shrink_to(0);
                }
                None => line.extend_from_slice(part),
            }
            if newline && !emit(&mut line, &mut dropped) {
                return;
            }
        }
    }
    if (!line.is_empty() || dropped.is_some()) && !emit(&mut line, &mut dropped) {
        return;
    }
    let _ = tx.send(Input::End);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossbeam_channel::unbounded;
    use std::io::Cursor;

    fn items(bytes: Vec<u8>) -> Vec<Input> {
        let (tx, rx) = unbounded();
        read_lines(Cursor::new(bytes), &tx);
        drop(tx);
        rx.iter().collect()
    }

    #[test]
    fn a_gbk_line_is_decoded_as_gbk_and_junk_as_utf8_with_replacements() {
        let (gbk, _, _) = encoding_rs::GBK.encode("setoption bookfiles 书/象棋.obk");
        let mut bytes = gbk.into_owned();
        bytes.extend_from_slice(b"\nposition \xff\xff startpos\n");
        assert_eq!(
            items(bytes),
            vec![
                Input::Line("setoption bookfiles 书/象棋.obk".into()),
                Input::Line("position \u{FFFD}\u{FFFD} startpos".into()),
                Input::End,
            ]
        );
    }

    #[test]
    fn lines_crlf_and_a_last_line_without_newline() {
        let got = items(b"ucci\r\nisready\n\nquit".to_vec());
        assert_eq!(
            got,
            vec![
                Input::Line("ucci".into()),
                Input::Line("isready".into()),
                Input::Line(String::new()),
                Input::Line("quit".into()),
                Input::End
            ]
        );
    }

    #[test]
    fn an_overlong_line_becomes_one_item_and_the_next_line_survives() {
        let mut bytes = vec![b'x'; 3 * MAX_LINE + 17];
        bytes.extend_from_slice(b"\nisready\n");
        let got = items(bytes);
        assert_eq!(
            got,
            vec![
                Input::TooLong {
                    bytes: 3 * MAX_LINE + 17
                },
                Input::Line("isready".into()),
                Input::End
            ]
        );
        // Exactly the limit is still a line.
        let got = items(vec![b'y'; MAX_LINE]);
        assert!(matches!(&got[0], Input::Line(l) if l.len() == MAX_LINE));
        // Over it without a newline: dropped at the end of input.
        let got = items(vec![b'z'; MAX_LINE + 1]);
        assert_eq!(
            got,
            vec![
                Input::TooLong {
                    bytes: MAX_LINE + 1
                },
                Input::End
            ]
        );
    }

    #[test]
    fn bytes_are_decoded_leniently() {
        let got = items(b"go\x00depth\xff 3\n".to_vec());
        assert_eq!(got[0], Input::Line("go depth\u{FFFD} 3".into()));
    }
}
