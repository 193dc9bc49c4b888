//! Byte and text mutators: what turns a seed into a hostile input.

use crate::corpus::DICTIONARY;
use chuhan_engine::core::SplitMix64;

/// Largest input the mutators make (inputs past it are cut).
pub const MAX_INPUT: usize = 256 * 1024;

/// Integers at the edges, written over four bytes (little-endian), as binary
/// formats hold counts and offsets.
const EDGES: [u32; 8] = [0, 1, 0x7F, 0x80, 0xFF, 0xFFFF, 0x7FFF_FFFF, u32::MAX];

/// Applies one to four mutations to `input`; `other` is a seed to splice from;
/// `text` adds the text mutations (dictionary words, repeated lines).
pub fn mutate(rng: &mut SplitMix64, input: &mut Vec<u8>, other: &[u8], text: bool) {
    for _ in 0..1 + rng.below(4) {
        let len = input.len();
        let at = if len == 0 { 0 } else { rng.below(len) };
        match rng.below(if text { 11 } else { 8 }) {
            0 if len > 0 => input[at] ^= 1 << rng.below(8),
            1 if len > 0 => input[at] = [0u8, 0xFF, 0x7F, 0x80, b'\n', b'"'][rng.below(6)],
            2 if len > 0 => {
                let end = (at + 1 + rng.below(64)).min(len);
                input.drain(at..end);
            }
            3 if len > 0 => {
                let end = (at + 1 + rng.below(256)).min(len);
                let chunk = input[at..end].to_vec();
                let times = 1 + rng.below(8);
                for _ in 0..times {
                    input.splice(at..at, chunk.iter().copied());
                }
            }
            4 => {
                let n = 1 + rng.below(16);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
                input.splice(at..at, bytes);
            }
            5 if len > 0 => input.truncate(at),
            6 if !other.is_empty() => {
                let from = rng.below(other.len());
                let end = (from + 1 + rng.below(512)).min(other.len());
                input.splice(at..at, other[from..end].iter().copied());
            }
            7 if len >= 4 => {
                let at = rng.below(len - 3);
                let v = EDGES[rng.below(EDGES.len())].to_le_bytes();
                input[at..at + 4].copy_from_slice(&v);
            }
            8 => {
                let word = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes();
                let at = boundary(input, at);
                input.splice(at..at, word.iter().copied());
            }
            9 => {
                // Replace a whitespace-separated word with a dictionary word.
                let start = boundary(input, at);
                let end = input[start..]
                    .iter()
                    .position(|b| b.is_ascii_whitespace())
                    .map_or(len, |p| start + p);
                let word = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes();
                input.splice(start..end, word.iter().copied());
            }
            10 => {
                // Repeat a line many times: long games, deep nesting, many tags.
                let start = input[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1);
                let end = input[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(len, |p| at + p + 1);
                let line = input[start..end].to_vec();
                for _ in 0..rng.below(200) {
                    input.splice(end..end, line.iter().copied());
                }
            }
            _ => {}
        }
        input.truncate(MAX_INPUT);
    }
}

/// The nearest index at or before `at` that starts a UTF-8 character, so that
/// text mutations keep the text around them readable.
fn boundary(input: &[u8], mut at: usize) -> usize {
    at = at.min(input.len());
    while at > 0 && at < input.len() && (input[at] & 0xC0) == 0x80 {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_stay_within_the_size_cap_and_change_inputs() {
        let mut rng = SplitMix64::new(7);
        let seed = b"position startpos moves h2e2 h9g7\n".to_vec();
        let mut changed = 0;
        for _ in 0..2000 {
            let mut input = seed.clone();
            mutate(&mut rng, &mut input, b"go depth 5", true);
            assert!(input.len() <= MAX_INPUT);
            changed += usize::from(input != seed);
        }
        assert!(changed > 1800, "only {changed} of 2000 inputs changed");
    }
}
