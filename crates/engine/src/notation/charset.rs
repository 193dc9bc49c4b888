//! Text of game records from bytes: UTF-8, UTF-16 with a byte-order mark, or GBK
//! (read as its superset GB18030), the encoding of ElephantEye, XQWizard and most
//! Chinese PGN and XQF files.
//!
//! Decoding uses `encoding_rs` (the Firefox encoding library), whose GB18030 tables
//! are the WHATWG ones.

use encoding_rs::{GB18030, GBK};
use std::borrow::Cow;

/// The character set a text was decoded from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Charset {
    /// UTF-8 (with or without a byte-order mark).
    Utf8,
    /// UTF-16, little or big endian, recognised by its byte-order mark.
    Utf16,
    /// GBK / GB18030.
    Gbk,
}

/// Decodes record bytes: a byte-order mark decides if there is one; otherwise valid
/// UTF-8 is UTF-8 and anything else is GBK (GB18030). Never fails: bytes that are
/// not GB18030 become U+FFFD.
///
/// ```
/// use chuhan_engine::notation::charset::{decode, Charset};
/// let gbk = [0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5]; // 炮二平五 in GBK
/// assert_eq!(decode(&gbk), ("炮二平五".to_string(), Charset::Gbk));
/// assert_eq!(decode("炮二平五".as_bytes()).1, Charset::Utf8);
/// ```
pub fn decode(bytes: &[u8]) -> (String, Charset) {
    if let Some((enc, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, _) = enc.decode_without_bom_handling(&bytes[bom..]);
        let cs = if enc == encoding_rs::UTF_8 {
            Charset::Utf8
        } else {
            Charset::Utf16
        };
        return (text.into_owned(), cs);
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), Charset::Utf8),
        Err(_) => (decode_gbk(bytes).into_owned(), Charset::Gbk),
    }
}

/// Decodes GBK (GB18030) bytes, e.g. an XQF header string.
pub fn decode_gbk(bytes: &[u8]) -> Cow<'_, str> {
    GB18030.decode_without_bom_handling(bytes).0
}

/// Decodes bytes that are entirely valid GBK (GB18030); `None` at the first invalid
/// sequence (for input that may be GBK or may be junk: a GUI's command line).
///
/// ```
/// use chuhan_engine::notation::charset::decode_gbk_exact;
/// assert_eq!(decode_gbk_exact(&[0xC5, 0xDA]).as_deref(), Some("炮"));
/// assert_eq!(decode_gbk_exact(&[0xFF, 0xFF]), None);
/// ```
pub fn decode_gbk_exact(bytes: &[u8]) -> Option<String> {
    GB18030
        .decode_without_bom_handling_and_without_replacement(bytes)
        .map(Cow::into_owned)
}

/// Decodes a UTF-16LE text field that ends at its first zero code unit (or at the
/// end of the bytes), as CCBridge stores text; invalid units become U+FFFD.
///
/// ```
/// use chuhan_engine::notation::charset::decode_utf16le;
/// assert_eq!(decode_utf16le(&[0x5A, 0x69, 0x22, 0x6F, 0, 0, 0x41, 0]), "楚漢");
/// ```
pub fn decode_utf16le(bytes: &[u8]) -> String {
    let units = bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .take_while(|&u| u != 0);
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// Encodes text as GBK for tools that read nothing else (characters GBK lacks become
/// HTML numeric references, as the WHATWG encoder does).
///
/// ```
/// use chuhan_engine::notation::charset::encode_gbk;
/// assert_eq!(encode_gbk("炮二平五"), vec![0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5]);
/// ```
pub fn encode_gbk(text: &str) -> Vec<u8> {
    GBK.encode(text).0.into_owned()
}

/// Encodes text as GBK when every character has a GBK code; `None` otherwise.
///
/// ```
/// use chuhan_engine::notation::charset::encode_gbk_exact;
/// assert_eq!(encode_gbk_exact("炮").unwrap(), vec![0xC5, 0xDA]);
/// assert_eq!(encode_gbk_exact("😀"), None);
/// ```
pub fn encode_gbk_exact(text: &str) -> Option<Vec<u8>> {
    let (bytes, _, unmappable) = GBK.encode(text);
    (!unmappable).then(|| bytes.into_owned())
}
