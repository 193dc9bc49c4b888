//! A small blocking HTTP/1.1 client over [`std::net::TcpStream`], enough for the
//! service's own tests and its load generator (`examples/load.rs`): one request at a
//! time on a kept-alive connection, bodies by `Content-Length` or chunked.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// An answer.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Reply {
    /// The first header called `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as text (lossy UTF-8).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON (`Null` if it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

/// A kept-alive connection.
pub struct Connection {
    reader: BufReader<TcpStream>,
    host: String,
    /// Extra headers sent with every request (`Authorization`, say).
    pub headers: Vec<(String, String)>,
}

impl Connection {
    /// Connects to `addr`; a read waiting longer than `patience` fails (a guard
    /// against a server that never answers, not a measure of speed).
    pub fn open(addr: SocketAddr, patience: Duration) -> io::Result<Connection> {
        let stream = TcpStream::connect(addr)?;
        stream.set_read_timeout(Some(patience))?;
        stream.set_nodelay(true)?;
        Ok(Connection {
            reader: BufReader::new(stream),
            host: addr.to_string(),
            headers: Vec::new(),
        })
    }

    /// Sends `method path` with `body` (typed `content_type`) and reads the answer.
    pub fn request(
        &mut self,
        method: &str,
        path: &str,
        content_type: &str,
        body: &[u8],
    ) -> io::Result<Reply> {
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n",
            self.host,
            body.len()
        );
        if !body.is_empty() {
            head.push_str(&format!("Content-Type: {content_type}\r\n"));
        }
        for (n, v) in &self.headers {
            head.push_str(&format!("{n}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let stream = self.reader.get_mut();
        stream.write_all(head.as_bytes())?;
        stream.write_all(body)?;
        read_reply(&mut self.reader)
    }

    /// `POST path` with a JSON body.
    pub fn post_json(&mut self, path: &str, json: &serde_json::Value) -> io::Result<Reply> {
        self.request(
            "POST",
            path,
            "application/json",
            json.to_string().as_bytes(),
        )
    }

    /// `GET path`.
    pub fn get(&mut self, path: &str) -> io::Result<Reply> {
        self.request("GET", path, "", b"")
    }
}

/// Reads one answer.
fn read_reply(r: &mut BufReader<TcpStream>) -> io::Result<Reply> {
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_string());
    let mut line = String::new();
    if r.read_line(&mut line)? == 0 {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the server closed the connection",
        ));
    }
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("bad status line"))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        r.read_line(&mut line)?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let (n, v) = l.split_once(':').ok_or_else(|| bad("bad header"))?;
        headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    let get = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let mut body = Vec::new();
    if get("transfer-encoding").is_some_and(|t| t.eq_ignore_ascii_case("chunked")) {
        loop {
            line.clear();
            r.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
                .map_err(|_| bad("bad chunk size"))?;
            let mut chunk = vec![0; size + 2];
            r.read_exact(&mut chunk)?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(n) = get("content-length") {
        let n: usize = n.parse().map_err(|_| bad("bad length"))?;
        body.resize(n, 0);
        r.read_exact(&mut body)?;
    }
    Ok(Reply {
        status,
        headers,
        body,
    })
}
