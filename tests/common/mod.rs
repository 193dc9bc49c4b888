//! What the end-to-end tests of the daemon share: the built binary as a child
//! process, spoken to line by line. Timeouts are hang guards only (generous), never
//! performance assertions. Each test file uses the part it needs.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How long to wait for a line before calling the daemon hung.
pub const HANG_GUARD: Duration = Duration::from_secs(120);

/// The daemon (`chuhan` with no subcommand) as a child process.
pub struct Daemon {
    /// The process.
    pub child: Child,
    /// Its standard input; `None` once closed.
    pub stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Daemon {
    /// Starts the daemon, before any handshake.
    pub fn start() -> Daemon {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Daemon {
            child,
            stdin,
            lines: rx,
        }
    }

    /// Starts the daemon and shakes hands (`ucci` or `uci`), up to `ucciok`/`uciok`.
    pub fn after(handshake: &str) -> Daemon {
        let mut d = Daemon::start();
        d.send(handshake);
        let ok = format!("{handshake}ok");
        d.until(|l| l == ok);
        d
    }

    /// Sends one line.
    pub fn send(&mut self, s: &str) {
        self.send_bytes(format!("{s}\n").as_bytes());
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, b: &[u8]) {
        let w = self.stdin.as_mut().expect("stdin open");
        w.write_all(b).unwrap();
        w.flush().unwrap();
    }

    /// The next line.
    pub fn next(&mut self) -> String {
        match self.lines.recv_timeout(HANG_GUARD) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => panic!("the daemon hung"),
            Err(RecvTimeoutError::Disconnected) => panic!("the daemon exited"),
        }
    }

    /// Reads lines until one satisfies `pred`; returns all lines read.
    pub fn until(&mut self, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.next();
            let done = pred(&l);
            out.push(l);
            if done {
                return out;
            }
        }
    }

    /// Reads lines up to the first starting with `p`.
    pub fn until_prefix(&mut self, p: &str) -> Vec<String> {
        self.until(|l| l.starts_with(p))
    }

    /// Sends `isready` and returns everything printed before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut v = self.until(|l| l == "readyok");
        v.pop();
        v
    }

    /// The `bestmove …` (or `nobestmove`) line ending a search.
    pub fn bestmove(&mut self) -> String {
        self.until(|l| l.starts_with("bestmove") || l == "nobestmove")
            .pop()
            .unwrap()
    }

    /// Closes standard input and waits (up to two minutes) for the daemon to exit.
    pub fn wait_exit(mut self) -> bool {
        self.stdin.take();
        for _ in 0..1200 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        false
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
