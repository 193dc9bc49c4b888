//! `chuhan serve` as a process: it prints the address it got, answers on it, and
//! refuses a non-loopback address unless asked.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

fn chuhan() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chuhan"))
}

#[test]
fn serve_prints_its_address_and_answers() {
    let mut child = chuhan()
        .args(["serve", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    let r = chuhan_serve::client::Connection::open(addr.parse().unwrap(), Duration::from_secs(60))
        .and_then(|mut c| c.get("/api/health"));
    let _ = child.kill();
    let _ = child.wait();
    let r = r.unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["ok"], true);
}

#[test]
fn serve_refuses_a_wide_address_without_allow_remote() {
    let out = chuhan()
        .args(["serve", "--listen", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--allow-remote"), "{err}");
}
