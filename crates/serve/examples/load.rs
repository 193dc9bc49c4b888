//! The load test of `chuhan serve` (`make load-test`; not part of CI): starts the
//! given `chuhan` binary as `chuhan serve` on an ephemeral loopback port, has
//! `--clients` clients (default 64) post judge requests on kept-alive connections
//! for `--seconds` (default 30), and reports requests per second, latency
//! percentiles, errors and the server's resident memory over the run; then sends
//! four times as many analysis requests as the pool and queue hold at once and
//! counts the 503s. Fails if any judge request fails, the memory grows by more than
//! half, no analysis is refused, or the server dies.
//!
//! ```text
//! cargo run --release -p chuhan-serve --example load -- --chuhan target/release/chuhan
//! ```

#[path = "measure/mod.rs"]
mod measure;

use chuhan_serve::client::Connection;
use measure::{ms, percentile};
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A guard against a server that never answers.
const PATIENCE: Duration = Duration::from_secs(60);

struct Args {
    chuhan: String,
    clients: usize,
    seconds: u64,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        chuhan: "target/release/chuhan".into(),
        clients: 64,
        seconds: 30,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--chuhan" => a.chuhan = value,
            "--clients" => a.clients = value.parse().map_err(|_| "--clients: a number")?,
            "--seconds" => a.seconds = value.parse().map_err(|_| "--seconds: a number")?,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(a)
}

/// The server's resident memory in kB.
fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() -> ExitCode {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut server = match Command::new(&a.chuhan)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--engines",
            "1",
            "--queue",
            "4",
            // Every client comes from 127.0.0.1: lift the per-client limits.
            "--client-connections",
            "0",
            "--client-rate",
            "0",
        ])
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {}: {e}", a.chuhan);
            return ExitCode::from(2);
        }
    };
    let mut line = String::new();
    let _ = BufReader::new(server.stdout.take().expect("piped")).read_line(&mut line);
    let Some(addr) = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|a| a.parse::<SocketAddr>().ok())
    else {
        eprintln!("error: no address from chuhan serve: {line:?}");
        let _ = server.kill();
        return ExitCode::from(2);
    };
    let pid = server.id();
    let outcome = run(&a, addr, pid);
    let alive = matches!(server.try_wait(), Ok(None));
    let _ = server.kill();
    let _ = server.wait();
    match outcome {
        Ok(()) if alive => ExitCode::SUCCESS,
        Ok(()) => {
            eprintln!("FAIL: the server died");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("FAIL: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(a: &Args, addr: SocketAddr, pid: u32) -> Result<(), String> {
    // A real arbiter's request: the AXF rule book's check-and-mate-threat cycle.
    let request = json!({
        "fen": "2bak4/4a4/4b4/8p/5R3/8P/n8/1r2C4/9/1cBAKAB2 w",
        "moves": "f5h5 e9f9 h5f5 f9e9 f5h5 e9f9 h5f5 f9e9 f5h5",
        "rules": "cxa2011",
    });
    println!(
        "chuhan serve at {addr} (pid {pid}): {} clients, judge requests for {} s",
        a.clients, a.seconds
    );
    let stop = Arc::new(AtomicBool::new(false));
    let sampler = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut samples = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                samples.extend(rss_kb(pid));
                std::thread::sleep(Duration::from_secs(1));
            }
            samples
        })
    };
    let deadline = Instant::now() + Duration::from_secs(a.seconds);
    let began = Instant::now();
    let clients: Vec<_> = (0..a.clients)
        .map(|_| {
            let request = request.clone();
            std::thread::spawn(move || {
                let mut lat = Vec::new();
                let mut errors = 0u64;
                let mut conn = Connection::open(addr, PATIENCE).ok();
                while Instant::now() < deadline {
                    let Some(c) = conn.as_mut() else {
                        errors += 1;
                        conn = Connection::open(addr, PATIENCE).ok();
                        continue;
                    };
                    let t = Instant::now();
                    match c.post_json("/api/judge", &request) {
                        Ok(r) if r.status == 200 && r.body.starts_with(b"{\"rules\"") => {
                            lat.push(t.elapsed())
                        }
                        Ok(_) => errors += 1,
                        Err(_) => {
                            errors += 1;
                            conn = None;
                        }
                    }
                }
                (lat, errors)
            })
        })
        .collect();
    let mut lat = Vec::new();
    let mut errors = 0;
    for c in clients {
        let (l, e) = c.join().map_err(|_| "a client thread panicked")?;
        lat.extend(l);
        errors += e;
    }
    let elapsed = began.elapsed();
    stop.store(true, Ordering::Relaxed);
    let rss = sampler.join().map_err(|_| "the sampler panicked")?;
    lat.sort();
    let n = lat.len();
    println!(
        "judge: {n} requests in {:.1} s = {:.0} requests/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; errors {errors}",
        elapsed.as_secs_f64(),
        n as f64 / elapsed.as_secs_f64(),
        ms(percentile(&lat, 0.50)),
        ms(percentile(&lat, 0.99)),
        ms(percentile(&lat, 1.0)),
    );
    // Memory after the first seconds (connections open, buffers grown) and at the end.
    let early = rss
        .get(3.min(rss.len().saturating_sub(1)))
        .copied()
        .unwrap_or(0);
    let peak = rss.iter().copied().max().unwrap_or(0);
    let last = rss.last().copied().unwrap_or(0);
    println!(
        "memory (VmRSS, {} samples, 1 s apart): {:.1} MB at 3 s, {:.1} MB peak, {:.1} MB at the end",
        rss.len(),
        early as f64 / 1024.0,
        peak as f64 / 1024.0,
        last as f64 / 1024.0
    );

    // Analysis beyond the queue: 1 engine + 4 waiting, 20 asked at once.
    let asked = 20;
    let analyses: Vec<_> = (0..asked)
        .map(|_| {
            std::thread::spawn(move || {
                Connection::open(addr, PATIENCE)
                    .and_then(|mut c| c.post_json("/api/analyse", &json!({"movetime_ms": 1000})))
                    .map(|r| (r.status, r.header("retry-after").map(str::to_string)))
            })
        })
        .collect();
    let mut ok = 0;
    let mut busy = 0;
    let mut other = 0;
    let mut retry = None;
    for t in analyses {
        match t.join().map_err(|_| "an analysis thread panicked")? {
            Ok((200, _)) => ok += 1,
            Ok((503, r)) => {
                busy += 1;
                retry = retry.or(r);
            }
            _ => other += 1,
        }
    }
    println!(
        "analysis: {asked} at once on 1 engine with 4 waiting: {ok} answered, {busy} refused 503 (Retry-After: {}), {other} other",
        retry.as_deref().unwrap_or("none")
    );
    let health = Connection::open(addr, PATIENCE)
        .and_then(|mut c| c.get("/api/health"))
        .map(|r| r.status)
        .unwrap_or(0);
    println!("after the load: GET /api/health -> {health}");
    if errors > 0 {
        return Err(format!("{errors} judge requests failed"));
    }
    if early > 0 && last > early + early / 2 {
        return Err(format!("memory grew from {early} kB to {last} kB"));
    }
    if busy == 0 || other > 0 || retry.is_none() {
        return Err("the analysis queue did not refuse cleanly".into());
    }
    if health != 200 {
        return Err("the server does not answer after the load".into());
    }
    Ok(())
}
