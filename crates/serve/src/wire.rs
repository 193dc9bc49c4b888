//! The connection's byte stream as the server writes it: every answer goes out
//! within [`ServeConfig::write_timeout`](crate::ServeConfig::write_timeout)
//! (`tokio-io-timeout`), and the refusals hyper writes itself, before any route
//! sees the request (400 for a request it cannot parse, 431 for a head too large),
//! get a JSON body like every other refusal.
//!
//! hyper writes those refusals as a bare head with `content-length: 0`; no answer
//! of the routes is ever a 4xx or 5xx without a body (see `server::finish`), so
//! such a head can only be one of them. It is the last thing written on its
//! connection, which hyper closes after it.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A stream whose bodiless error answers are given a JSON body.
pub struct JsonRefusals<S> {
    inner: S,
    /// The rewritten answer still to be written, and the length of the head
    /// hyper handed over for it (reported written once all of it is).
    pending: Option<(Vec<u8>, usize)>,
}

impl<S> JsonRefusals<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> JsonRefusals<S> {
        JsonRefusals {
            inner,
            pending: None,
        }
    }
}

/// The answer to write instead of `head`, if `head` is a whole error head without
/// a body: the same status, `application/json` and `{"error": "<reason>"}`.
pub fn with_json_body(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let (version, rest) = text.split_once(' ')?;
    if !matches!(version, "HTTP/1.1" | "HTTP/1.0") {
        return None;
    }
    let status_line = rest.split("\r\n").next()?;
    let (code, reason) = status_line.split_once(' ')?;
    if !(code.starts_with('4') || code.starts_with('5'))
        || !text.ends_with("\r\n\r\n")
        || !text
            .to_ascii_lowercase()
            .contains("\r\ncontent-length: 0\r\n")
    {
        return None;
    }
    let body = serde_json::json!({ "error": reason.to_lowercase() }).to_string();
    let mut out = format!("{version} {status_line}\r\n");
    for line in text.split("\r\n").skip(1).filter(|l| !l.is_empty()) {
        if !line.to_ascii_lowercase().starts_with("content-length:") {
            out.push_str(line);
            out.push_str("\r\n");
        }
    }
    out.push_str(&format!(
        "content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    ));
    Some(out.into_bytes())
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonRefusals<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonRefusals<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.pending.is_none() {
            match with_json_body(buf) {
                Some(answer) => this.pending = Some((answer, buf.len())),
                None => return Pin::new(&mut this.inner).poll_write(cx, buf),
            }
        }
        // hyper hands the same head again until it is reported written.
        while let Some((answer, handed)) = this.pending.as_mut() {
            if answer.is_empty() {
                let handed = *handed;
                this.pending = None;
                return Poll::Ready(Ok(handed));
            }
            match Pin::new(&mut this.inner).poll_write(cx, answer) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    answer.drain(..n);
                }
                other => return other,
            }
        }
        Poll::Ready(Ok(0))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_error_heads_get_a_json_body() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: Sat, 05 Dec 2026 15:16:23 GMT\r\n\r\n";
        let out = String::from_utf8(with_json_body(head).unwrap()).unwrap();
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(
            head.contains("connection: close") && head.contains("content-type: application/json")
        );
        assert!(head.contains(&format!("content-length: {}", body.len())));
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(body).unwrap()["error"],
            "request header fields too large"
        );
    }

    #[test]
    fn other_writes_pass_unchanged() {
        for w in [
            &b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"[..],
            b"HTTP/1.1 404 Not Found\r\ncontent-length: 12\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{\"error\":1}",
            b"{\"error\": \"HTTP/1.1 400\"}",
        ] {
            assert!(with_json_body(w).is_none(), "{w:?}");
        }
    }
}
