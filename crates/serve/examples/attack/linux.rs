//! The Linux body of the attack harness: every phase, the server's start and its
//! memory readings (`/proc`, `rlimit`, `kill`).

use crate::measure::{ms, percentile};
use chuhan_serve::client::Connection;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::task::JoinSet;
use tokio::time::{sleep, timeout};

/// The ordinary clients' address: they must never be refused.
const ORDINARY_FROM: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 1);
/// The slow keep-alive clients of slow-client.
const SLOW_FROM: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);
/// The silent reconnecting sockets of slow-client.
const SILENT_FROM: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 3);
/// The readers that never read, of slow-read.
const SLOW_READ_FROM: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 4);
/// The uploaders of big-upload.
const UPLOAD_FROM: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 5);
/// The fuzzer.
const FUZZ_FROM: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 6);
/// The clients that abandon their analyses.
const ABANDON_FROM: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 7);

/// Bound: the ordinary clients' 99th percentile latency, connect included.
const ORDINARY_P99: Duration = Duration::from_secs(1);
/// Bound: a reader that never reads is closed by then (the server's 10 s write
/// timeout and 5 s of slack).
const SLOW_READ_CLOSED: Duration = Duration::from_secs(15);
/// Bound: the server's peak resident memory while the records arrive, in MB.
const UPLOAD_PEAK_MB: f64 = 200.0;
/// Bound: its resident memory [`UPLOAD_SETTLE`] after the last answer, in MB.
const UPLOAD_AFTER_MB: f64 = 60.0;
/// How long after the last upload the memory is measured again.
const UPLOAD_SETTLE: Duration = Duration::from_secs(10);
/// Past the bound at [`UPLOAD_SETTLE`], how much longer it is measured again.
const UPLOAD_RECHECK: Duration = Duration::from_secs(5);
/// Bound: an analysis asked for after the abandoned ones is answered within this.
const NEXT_ANALYSIS: Duration = Duration::from_millis(200);

/// A connect that takes longer has failed (the kernel retries a dropped SYN after
/// 1 s and 3 s).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// An ordinary request (connect, send, answer) that takes longer has failed.
const ORDINARY_TIMEOUT: Duration = Duration::from_secs(5);
/// An ordinary client's pause between requests: 22 clients make about 200
/// requests/s, an arbiters' room at its busiest many times over.
const ORDINARY_PAUSE: Duration = Duration::from_millis(100);
/// How often a slow keep-alive client sends its request (the server's head timeout
/// is 5 s, so the connection is never idle long enough to be closed for it).
const SLOW_PERIOD: Duration = Duration::from_secs(4);
/// A silent socket closed by the server reconnects after this pause; without it
/// the harness's own reconnect loop would take the two cores it shares with the
/// server once the server closes such sockets at once.
const RECONNECT_PAUSE: Duration = Duration::from_millis(200);
/// Receive buffer of a reader that never reads: small, so that the server's writes
/// block after a few answers.
const SLOW_READ_RCVBUF: u32 = 4096;
/// A fuzzed request unanswered for this long is counted as unanswered (its length
/// may have promised more body than was sent).
const FUZZ_PATIENCE: Duration = Duration::from_secs(3);
/// Concurrent fuzzing connections.
const FUZZ_TASKS: usize = 16;
/// The library client's guard against a server that never answers (the sequential
/// requests of abandoned-analysis, unreadable-records and the health check).
const PATIENCE: Duration = Duration::from_secs(5);
/// Largest answer body read.
const MAX_ANSWER: usize = 8 << 20;
/// Size of a big-upload record: just under the server's 2 MiB body limit, so the
/// record is read, not refused at the door.
const RECORD_BYTES: usize = 2_000_000;

/// The judge request of the ordinary clients: the AXF rule book's
/// check-and-mate-threat cycle.
const JUDGE: &str = r#"{"fen": "2bak4/4a4/4b4/8p/5R3/8P/n8/1r2C4/9/1cBAKAB2 w", "moves": "f5h5 e9f9 h5f5 f9e9 f5h5", "rules": "cxa2011"}"#;

/// How big the attack is.
#[derive(Clone, Copy, Debug)]
struct Size {
    slow_clients: usize,
    silent: usize,
    ordinary: usize,
    ordinary_time: Duration,
    /// The attackers of slow-client and slow-read start this long before the
    /// ordinary clients, so that the ordinary clients meet the attack at full
    /// strength.
    ramp: Duration,
    slow_readers: usize,
    slow_read_wait: Duration,
    uploaders: usize,
    upload_wait: Duration,
    analysis_retry: Duration,
    fuzz_time: Duration,
    /// The whole run's hard deadline: past it the server is killed and the
    /// harness exits non-zero.
    deadline: Duration,
}

impl Size {
    /// The attack of issue 46 (about three minutes).
    const FULL: Size = Size {
        slow_clients: 520,
        silent: 700,
        ordinary: 22,
        ordinary_time: Duration::from_secs(20),
        ramp: Duration::from_secs(2),
        slow_readers: 512,
        slow_read_wait: Duration::from_secs(30),
        uploaders: 300,
        upload_wait: Duration::from_secs(60),
        analysis_retry: Duration::from_secs(20),
        fuzz_time: Duration::from_secs(30),
        deadline: Duration::from_secs(290),
    };

    /// CI's version: the same phases, about six times smaller and shorter.
    const SHORT: Size = Size {
        slow_clients: 90,
        silent: 120,
        ordinary: 8,
        ordinary_time: Duration::from_secs(5),
        ramp: Duration::from_secs(1),
        slow_readers: 64,
        slow_read_wait: Duration::from_secs(16),
        uploaders: 50,
        upload_wait: Duration::from_secs(20),
        analysis_retry: Duration::from_secs(3),
        fuzz_time: Duration::from_secs(5),
        deadline: Duration::from_secs(100),
    };
}

impl Size {
    /// A phase's hard deadline: its own waits and timeouts with room to spare
    /// (past it the phase fails and its tasks are dropped).
    fn phase_limit(&self, phase: &str) -> Duration {
        let ordinary = self.ramp + self.ordinary_time + ORDINARY_TIMEOUT;
        let spare = Duration::from_secs(10);
        spare
            + match phase {
                "slow-client" => ordinary,
                "slow-read" => ordinary.max(self.slow_read_wait),
                "big-upload" => self.upload_wait + UPLOAD_SETTLE,
                "abandoned-analysis" => self.analysis_retry + 2 * PATIENCE,
                "unreadable-records" => 6 * PATIENCE,
                _ => self.fuzz_time + FUZZ_PATIENCE + PATIENCE,
            }
    }
}

/// The phases, in the order they run.
const PHASES: [&str; 6] = [
    "slow-client",
    "slow-read",
    "big-upload",
    "abandoned-analysis",
    "unreadable-records",
    "fuzz",
];

struct Args {
    chuhan: String,
    size: Size,
    phases: Vec<String>,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        chuhan: "target/release/chuhan".into(),
        size: Size::FULL,
        phases: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--chuhan" => a.chuhan = value,
            "--size" => {
                a.size = match value.as_str() {
                    "full" => Size::FULL,
                    "short" => Size::SHORT,
                    _ => return Err("--size: full or short".into()),
                }
            }
            "--phase" if PHASES.contains(&value.as_str()) => a.phases.push(value),
            "--phase" => return Err(format!("--phase: one of {}", PHASES.join(", "))),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if a.phases.is_empty() {
        a.phases = PHASES.iter().map(|p| p.to_string()).collect();
    }
    Ok(a)
}

/// A phase's outcome: its line of the report.
struct Verdict {
    figures: String,
    bound: String,
    pass: bool,
}

/// Raises the soft limit on open files to the hard limit (the attack holds over a
/// thousand sockets; CI machines may start at 1,024). The server, started after,
/// inherits it.
fn raise_file_limit() -> libc::rlim_t {
    let mut l = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `l` is a valid rlimit for getrlimit to fill and setrlimit to read;
    // both only touch this process's limits.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut l) == 0 && l.rlim_cur < l.rlim_max {
            l.rlim_cur = l.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &l);
            libc::getrlimit(libc::RLIMIT_NOFILE, &mut l);
        }
    }
    l.rlim_cur
}

/// The server under attack; killed when dropped, whatever ended the run.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    /// Starts `chuhan serve` on a free loopback port and reads its address.
    fn start(chuhan: &str) -> Result<Server, String> {
        let mut child = Command::new(chuhan)
            .args(["serve", "--listen", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{chuhan}: {e}"))?;
        let mut out = BufReader::new(child.stdout.take().expect("piped"));
        let mut line = String::new();
        let _ = out.read_line(&mut line);
        // Anything more it prints is passed on, so it never writes to a closed pipe.
        std::thread::spawn(move || {
            for l in out.lines().map_while(Result::ok) {
                eprintln!("server: {l}");
            }
        });
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|a| a.parse::<SocketAddr>().ok());
        match addr {
            Some(addr) => Ok(Server { child, addr }),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                Err(format!("no address from chuhan serve: {line:?}"))
            }
        }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A process's resident memory in MB.
fn rss_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// A process's CPU time (user and system) so far.
fn cpu_time(pid: u32) -> Duration {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Duration::ZERO;
    };
    // The fields after the command name (which may hold spaces) in parentheses.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|t| t.parse::<u64>().ok()).unwrap_or(0);
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the name.
    // SAFETY: sysconf only reads a system constant.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    Duration::from_secs_f64((ticks(11) + ticks(12)) as f64 / hz)
}

/// `{key ×count, …}` of a tally.
fn tally<K: std::fmt::Display>(t: &BTreeMap<K, u64>) -> String {
    if t.is_empty() {
        return "none".into();
    }
    t.iter()
        .map(|(k, n)| format!("{k} ×{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn timed_out(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, what.to_string())
}

/// Connects to `to` from address `from` (any port), with a receive buffer of
/// `rcvbuf` bytes if given.
async fn connect(from: Ipv4Addr, to: SocketAddr, rcvbuf: Option<u32>) -> io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    if let Some(n) = rcvbuf {
        socket.set_recv_buffer_size(n)?;
    }
    socket.bind(SocketAddr::new(IpAddr::V4(from), 0))?;
    let stream = timeout(CONNECT_TIMEOUT, socket.connect(to))
        .await
        .map_err(|_| timed_out("connect timed out"))??;
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// The bytes of a request with a correct `Host` and `Content-Length`.
fn request(method: &str, path: &str, host: SocketAddr, content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut r = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\n");
    if !body.is_empty() || method == "POST" {
        r.push_str(&format!(
            "Content-Type: {content_type}\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    r.push_str("\r\n");
    let mut bytes = r.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// An answer read off a socket.
#[derive(Debug, Default)]
struct Answer {
    status: u16,
    body: Vec<u8>,
}

/// Reads one answer (skipping 1xx ones); `head` if it answers a HEAD request (no
/// body whatever the headers say).
async fn read_answer<R: AsyncBufRead + Unpin>(r: &mut R, head: bool) -> io::Result<Answer> {
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_string());
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line).await? == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "closed without an answer",
            ));
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("bad status line"))?;
        let mut length = None;
        let mut chunked = false;
        loop {
            line.clear();
            if r.read_line(&mut line).await? == 0 {
                return Err(bad("closed in the head"));
            }
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            let (n, v) = l.split_once(':').ok_or_else(|| bad("bad header"))?;
            let (n, v) = (n.trim(), v.trim());
            if n.eq_ignore_ascii_case("content-length") {
                length = Some(v.parse::<usize>().map_err(|_| bad("bad length"))?);
            } else if n.eq_ignore_ascii_case("transfer-encoding") {
                chunked = v.eq_ignore_ascii_case("chunked");
            }
        }
        if (100..200).contains(&status) {
            continue;
        }
        let mut body = Vec::new();
        if head || status == 204 || status == 304 {
        } else if chunked {
            loop {
                line.clear();
                r.read_line(&mut line).await?;
                let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
                    .map_err(|_| bad("bad chunk size"))?;
                if body.len() + size > MAX_ANSWER {
                    return Err(bad("answer too large"));
                }
                let mut chunk = vec![0; size + 2];
                r.read_exact(&mut chunk).await?;
                if size == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..size]);
            }
        } else if let Some(n) = length {
            if n > MAX_ANSWER {
                return Err(bad("answer too large"));
            }
            body.resize(n, 0);
            r.read_exact(&mut body).await?;
        } else {
            r.take(MAX_ANSWER as u64).read_to_end(&mut body).await?;
        }
        return Ok(Answer { status, body });
    }
}

/// Sends `bytes` on a new connection from `from` and reads the answer.
async fn exchange(from: Ipv4Addr, to: SocketAddr, bytes: &[u8]) -> io::Result<Answer> {
    let stream = connect(from, to, None).await?;
    let mut r = tokio::io::BufReader::new(stream);
    r.get_mut().write_all(bytes).await?;
    read_answer(&mut r, false).await
}

/// True if `body` is a JSON object with a non-empty `error` text.
fn json_error(body: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            v.get("error")
                .and_then(|e| e.as_str())
                .map(|e| !e.is_empty())
        })
        .unwrap_or(false)
}

/// What the ordinary clients saw.
#[derive(Default)]
struct Ordinary {
    /// Every request's time, connect included (a failed one: until it failed).
    latencies: Vec<Duration>,
    /// Failures by kind.
    failures: BTreeMap<String, u64>,
}

impl Ordinary {
    fn failed(&self) -> u64 {
        self.failures.values().sum()
    }

    fn p99(&self) -> Duration {
        percentile(&self.latencies, 0.99)
    }

    fn pass(&self) -> bool {
        !self.latencies.is_empty() && self.failed() == 0 && self.p99() <= ORDINARY_P99
    }

    fn figures(&self) -> String {
        format!(
            "ordinary: {} requests, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms, {} failed ({})",
            self.latencies.len(),
            ms(percentile(&self.latencies, 0.50)),
            ms(self.p99()),
            ms(percentile(&self.latencies, 1.0)),
            self.failed(),
            tally(&self.failures)
        )
    }
}

/// `clients` ordinary clients from 127.0.0.1 judge for `time`, each request on a
/// new connection. They run on a thread and runtime of their own, so that the
/// attackers' tasks in the harness cannot delay them: what they measure is the
/// server.
async fn ordinary(addr: SocketAddr, clients: usize, time: Duration) -> Ordinary {
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let _ = tx.send(rt.block_on(ordinary_run(addr, clients, time)));
    });
    rx.await.unwrap_or_default()
}

async fn ordinary_run(addr: SocketAddr, clients: usize, time: Duration) -> Ordinary {
    let end = Instant::now() + time;
    let judge = Arc::new(request(
        "POST",
        "/api/judge",
        addr,
        "application/json",
        JUDGE.as_bytes(),
    ));
    let mut set = JoinSet::new();
    for i in 0..clients {
        let judge = judge.clone();
        set.spawn(async move {
            // Spread the clients over the pause.
            sleep(ORDINARY_PAUSE * i as u32 / clients as u32).await;
            let mut o = Ordinary::default();
            while Instant::now() < end {
                let t = Instant::now();
                let kind =
                    match timeout(ORDINARY_TIMEOUT, exchange(ORDINARY_FROM, addr, &judge)).await {
                        Ok(Ok(a)) if a.status == 200 && a.body.starts_with(b"{\"rules\"") => None,
                        Ok(Ok(a)) => Some(format!("status {}", a.status)),
                        Ok(Err(e)) if e.kind() == io::ErrorKind::TimedOut => {
                            Some("connect timeout".into())
                        }
                        Ok(Err(e)) => Some(format!("{:?}", e.kind())),
                        Err(_) => Some(format!("no answer in {} s", ORDINARY_TIMEOUT.as_secs())),
                    };
                o.latencies.push(t.elapsed());
                if let Some(k) = kind {
                    *o.failures.entry(k).or_default() += 1;
                }
                sleep(ORDINARY_PAUSE).await;
            }
            o
        });
    }
    let mut all = Ordinary::default();
    while let Some(Ok(o)) = set.join_next().await {
        all.latencies.extend(o.latencies);
        for (k, n) in o.failures {
            *all.failures.entry(k).or_default() += n;
        }
    }
    all.latencies.sort();
    all
}

/// Counters shared by a phase's attackers.
#[derive(Default)]
struct Counters {
    answered: AtomicU64,
    refused: AtomicU64,
    closed: AtomicU64,
    silent_connects: AtomicU64,
    silent_closed: AtomicU64,
}

fn bump(c: &AtomicU64) {
    c.fetch_add(1, Ordering::Relaxed);
}

fn read(c: &AtomicU64) -> u64 {
    c.load(Ordering::Relaxed)
}

/// A slow keep-alive client: one `GET /api/health` every [`SLOW_PERIOD`] on one
/// connection, reconnecting at its next turn when the server closed it.
async fn slow_keepalive(addr: SocketAddr, c: Arc<Counters>, first: Duration) {
    sleep(first).await;
    let get = request("GET", "/api/health", addr, "", b"");
    let mut tick = tokio::time::interval(SLOW_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut conn: Option<tokio::io::BufReader<TcpStream>> = None;
    loop {
        tick.tick().await;
        if conn.is_none() {
            match connect(SLOW_FROM, addr, None).await {
                Ok(s) => conn = Some(tokio::io::BufReader::new(s)),
                Err(_) => {
                    bump(&c.closed);
                    continue;
                }
            }
        }
        let r = conn.as_mut().expect("connected");
        let answer = timeout(Duration::from_secs(10), async {
            r.get_mut().write_all(&get).await?;
            read_answer(r, false).await
        })
        .await;
        match answer {
            Ok(Ok(a)) if a.status < 300 => bump(&c.answered),
            Ok(Ok(_)) => bump(&c.refused),
            _ => {
                bump(&c.closed);
                conn = None;
            }
        }
    }
}

/// A silent socket: connects, sends nothing, and reconnects when closed.
async fn silent(addr: SocketAddr, c: Arc<Counters>) {
    loop {
        if let Ok(mut s) = connect(SILENT_FROM, addr, None).await {
            bump(&c.silent_connects);
            let mut buf = [0u8; 512];
            while let Ok(n) = s.read(&mut buf).await {
                if n == 0 {
                    break;
                }
            }
            bump(&c.silent_closed);
        }
        sleep(RECONNECT_PAUSE).await;
    }
}

/// Phase 1.
async fn slow_client(addr: SocketAddr, size: Size) -> Verdict {
    let c = Arc::new(Counters::default());
    let mut attackers = JoinSet::new();
    for i in 0..size.slow_clients {
        let first = SLOW_PERIOD * i as u32 / size.slow_clients as u32;
        attackers.spawn(slow_keepalive(addr, c.clone(), first));
    }
    for _ in 0..size.silent {
        attackers.spawn(silent(addr, c.clone()));
    }
    sleep(size.ramp).await;
    let o = ordinary(addr, size.ordinary, size.ordinary_time).await;
    attackers.shutdown().await;
    Verdict {
        figures: format!(
            "{}; slow clients ({} from {SLOW_FROM}): {} answered, {} refused, {} closed or failed; silent ({} from {SILENT_FROM}): {} connects, {} closed by the server",
            o.figures(),
            size.slow_clients,
            read(&c.answered),
            read(&c.refused),
            read(&c.closed),
            size.silent,
            read(&c.silent_connects),
            read(&c.silent_closed),
        ),
        bound: format!("ordinary p99 ≤ {} ms, 0 failed", ms(ORDINARY_P99)),
        pass: o.pass(),
    }
}

/// A 1,000-ply game (a cannon and a horse going back and forth), as moves text.
fn long_game(plies: usize) -> String {
    ["h2e2", "h9g7", "e2h2", "g7h9"]
        .iter()
        .cycle()
        .take(plies)
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

/// How a reader that never reads ended.
enum ReaderEnd {
    /// The server closed it this long after it connected.
    Closed(Duration),
    /// It could not connect.
    NoConnect,
}

/// A reader that never reads: pipelines `batch` (requests whose answers are large)
/// until a write fails, which is the server closing the connection.
async fn never_reader(addr: SocketAddr, batch: Arc<Vec<u8>>) -> ReaderEnd {
    let Ok(mut s) = connect(SLOW_READ_FROM, addr, Some(SLOW_READ_RCVBUF)).await else {
        return ReaderEnd::NoConnect;
    };
    let t = Instant::now();
    while s.write_all(&batch).await.is_ok() {}
    ReaderEnd::Closed(t.elapsed())
}

/// Phase 2.
async fn slow_read(addr: SocketAddr, size: Size, pid: u32) -> Verdict {
    let cpu = cpu_time(pid);
    let body = format!(r#"{{"moves": "{}"}}"#, long_game(1000));
    let one = request(
        "POST",
        "/api/moves",
        addr,
        "application/json",
        body.as_bytes(),
    );
    let batch = Arc::new(one.repeat(16));
    let mut readers = JoinSet::new();
    for _ in 0..size.slow_readers {
        let batch = batch.clone();
        let wait = size.slow_read_wait;
        readers.spawn(async move { timeout(wait, never_reader(addr, batch)).await });
    }
    sleep(size.ramp).await;
    let o = ordinary(addr, size.ordinary, size.ordinary_time).await;
    let mut closed = Vec::new();
    let mut open = 0;
    let mut no_connect = 0;
    while let Some(r) = readers.join_next().await {
        match r {
            Ok(Ok(ReaderEnd::Closed(d))) => closed.push(d),
            Ok(Ok(ReaderEnd::NoConnect)) => no_connect += 1,
            _ => open += 1,
        }
    }
    closed.sort();
    let late = closed.iter().filter(|d| **d > SLOW_READ_CLOSED).count();
    // Closed at once: refused by a connection cap (or by the kernel's full queue).
    let (at_once, later): (Vec<Duration>, Vec<Duration>) =
        closed.iter().partition(|d| **d < Duration::from_secs(1));
    Verdict {
        figures: format!(
            "readers ({} from {SLOW_READ_FROM}): {} closed at once (< 1 s), {} closed later (median {:.1} s, last {:.1} s), {open} still open at {} s, {no_connect} could not connect; {}; server CPU {:.1} s",
            size.slow_readers,
            at_once.len(),
            later.len(),
            percentile(&later, 0.5).as_secs_f64(),
            percentile(&later, 1.0).as_secs_f64(),
            size.slow_read_wait.as_secs(),
            o.figures(),
            (cpu_time(pid).saturating_sub(cpu)).as_secs_f64(),
        ),
        bound: format!(
            "every reader closed within {} s; ordinary p99 ≤ {} ms, 0 failed",
            SLOW_READ_CLOSED.as_secs(),
            ms(ORDINARY_P99)
        ),
        pass: open == 0 && late == 0 && o.pass(),
    }
}

/// A plausible PGN of about `bytes` bytes: tags and a long move text in WXF, the
/// cannon and the horse going back and forth.
fn pgn_moves(bytes: usize) -> Vec<u8> {
    let mut s = String::from(
        "[Event \"Club championship\"]\n[Site \"Hall 2\"]\n[Date \"2024.05.01\"]\n[Round \"3\"]\n[Red \"Chen\"]\n[Black \"Lin\"]\n[Result \"1/2-1/2\"]\n[Format \"WXF\"]\n\n",
    );
    let mut n = 1;
    while s.len() < bytes - 40 {
        let (red, black) = if n % 2 == 1 {
            ("C2.5", "H8+7")
        } else {
            ("C5.2", "H7-8")
        };
        s.push_str(&format!("{n}. {red} {black}\n"));
        n += 1;
    }
    s.push_str("1/2-1/2\n");
    s.into_bytes()
}

/// A short PGN game with a comment of about `bytes` bytes.
fn pgn_comment(bytes: usize) -> Vec<u8> {
    let mut s = String::from(
        "[Event \"Annotated\"]\n[Red \"Chen\"]\n[Black \"Lin\"]\n[Result \"*\"]\n[Format \"WXF\"]\n\n1. C2.5 {",
    );
    let words = "the cannon takes the centre and the horse answers ";
    while s.len() < bytes - 40 {
        s.push_str(words);
    }
    s.push_str("} H8+7 2. H2+3 R9.8 *\n");
    s.into_bytes()
}

/// How an upload ended: the status, or what went wrong.
async fn upload(addr: SocketAddr, bytes: Arc<Vec<u8>>, wait: Duration) -> String {
    let go = async {
        let stream = match connect(UPLOAD_FROM, addr, None).await {
            Ok(s) => s,
            Err(_) => return "connect failed".to_string(),
        };
        let mut r = tokio::io::BufReader::new(stream);
        let head = format!(
            "POST /api/judge HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-chess-pgn\r\nContent-Length: {}\r\n\r\n",
            bytes.len()
        );
        let sent = async {
            r.get_mut().write_all(head.as_bytes()).await?;
            r.get_mut().write_all(&bytes).await
        }
        .await;
        match (read_answer(&mut r, false).await, sent) {
            (Ok(a), _) => a.status.to_string(),
            (Err(_), Err(_)) => "reset while sending".to_string(),
            (Err(_), Ok(())) => "closed without an answer".to_string(),
        }
    };
    timeout(wait, go)
        .await
        .unwrap_or_else(|_| format!("no answer in {} s", wait.as_secs()))
}

/// Phase 3.
async fn big_upload(addr: SocketAddr, size: Size, pid: u32) -> Verdict {
    let moves = Arc::new(pgn_moves(RECORD_BYTES));
    let comment = Arc::new(pgn_comment(RECORD_BYTES));
    let before = rss_mb(pid).unwrap_or(0.0);
    let cpu = cpu_time(pid);
    let (stop, mut stopped) = tokio::sync::watch::channel(false);
    let sampler = tokio::spawn(async move {
        let mut samples = Vec::new();
        let mut tick = tokio::time::interval(Duration::from_millis(50));
        loop {
            tokio::select! {
                _ = tick.tick() => samples.extend(rss_mb(pid)),
                _ = stopped.changed() => return samples,
            }
        }
    });
    let began = Instant::now();
    let mut set = JoinSet::new();
    for i in 0..size.uploaders {
        // One in thirty sends a short game with a 2 MB comment.
        let bytes = if i % 30 == 29 {
            comment.clone()
        } else {
            moves.clone()
        };
        set.spawn(upload(addr, bytes, size.upload_wait));
    }
    let mut outcomes = BTreeMap::new();
    while let Some(r) = set.join_next().await {
        let o = r.unwrap_or_else(|_| "harness task failed".into());
        *outcomes.entry(o).or_insert(0u64) += 1;
    }
    let answered = began.elapsed();
    let peak_during = rss_mb(pid).unwrap_or(0.0);
    sleep(UPLOAD_SETTLE).await;
    // The allocator gives memory back when the last large body is done, but a
    // request of another phase still in flight can hold some for a moment: past
    // the bound, look again every half second for [`UPLOAD_RECHECK`].
    let mut after = rss_mb(pid).unwrap_or(f64::MAX);
    let mut settled = UPLOAD_SETTLE;
    while after > UPLOAD_AFTER_MB && settled < UPLOAD_SETTLE + UPLOAD_RECHECK {
        sleep(Duration::from_millis(500)).await;
        settled += Duration::from_millis(500);
        after = after.min(rss_mb(pid).unwrap_or(f64::MAX));
    }
    let _ = stop.send(true);
    let samples = sampler.await.unwrap_or_default();
    let peak = samples.iter().copied().fold(peak_during, f64::max);
    let acceptable = |o: &str| {
        matches!(o, "200" | "413" | "422" | "429" | "503")
            || o == "reset while sending"
            || o == "closed without an answer"
    };
    let all_acceptable = outcomes.keys().all(|o| acceptable(o));
    Verdict {
        figures: format!(
            "{} uploads of {:.1} MB from {UPLOAD_FROM} answered in {:.1} s: {}; RSS {before:.0} MB before, peak {peak:.0} MB ({} samples, 50 ms apart), {after:.0} MB {:.1} s after; server CPU {:.1} s",
            size.uploaders,
            moves.len() as f64 / 1e6,
            answered.as_secs_f64(),
            tally(&outcomes),
            samples.len(),
            settled.as_secs_f64(),
            (cpu_time(pid).saturating_sub(cpu)).as_secs_f64(),
        ),
        bound: format!(
            "peak ≤ {UPLOAD_PEAK_MB:.0} MB, ≤ {UPLOAD_AFTER_MB:.0} MB 10–15 s after; answers 200/413/422/429/503 (or a close by the server)"
        ),
        pass: peak <= UPLOAD_PEAK_MB && after <= UPLOAD_AFTER_MB && all_acceptable,
    }
}

/// Posts `body` to `/api/analyse` from 127.0.0.1 with the library's blocking client:
/// the status and the time to the answer.
async fn analyse(addr: SocketAddr, body: serde_json::Value) -> (u16, Duration) {
    tokio::task::spawn_blocking(move || {
        let t = Instant::now();
        let status = Connection::open(addr, PATIENCE)
            .and_then(|mut c| c.post_json("/api/analyse", &body))
            .map(|r| r.status)
            .unwrap_or(0);
        (status, t.elapsed())
    })
    .await
    .unwrap_or((0, Duration::ZERO))
}

/// Phase 4.
async fn abandoned_analysis(addr: SocketAddr, size: Size) -> Verdict {
    let ask = request(
        "POST",
        "/api/analyse",
        addr,
        "application/json",
        br#"{"movetime_ms": 3000}"#,
    );
    let mut set = JoinSet::new();
    for _ in 0..5 {
        let ask = ask.clone();
        set.spawn(async move {
            let mut s = connect(ABANDON_FROM, addr, None).await.ok()?;
            s.write_all(&ask).await.ok()?;
            Some(s)
        });
    }
    let mut sockets = Vec::new();
    while let Some(r) = set.join_next().await {
        sockets.extend(r.ok().flatten());
    }
    let asked = sockets.len();
    sleep(Duration::from_millis(100)).await;
    drop(sockets);
    let depth1 = serde_json::json!({"depth": 1});
    let (status, took) = analyse(addr, depth1.clone()).await;
    // How long until an analysis is answered at all.
    let t = Instant::now();
    let retry = async {
        loop {
            sleep(Duration::from_millis(250)).await;
            if analyse(addr, depth1.clone()).await.0 == 200 {
                return took + t.elapsed();
            }
        }
    };
    let first_200 = match status {
        200 => Some(took),
        _ => timeout(size.analysis_retry, retry).await.ok(),
    };
    Verdict {
        figures: format!(
            "{asked} of 5 abandoned 3 s analyses asked from {ABANDON_FROM}; the next {{\"depth\": 1}}: {status} in {:.1} ms; first 200 {}",
            ms(took),
            match first_200 {
                Some(d) => format!("after {:.2} s", d.as_secs_f64()),
                None => format!("not within {} s", size.analysis_retry.as_secs()),
            }
        ),
        bound: format!("200 within {} ms", ms(NEXT_ANALYSIS)),
        pass: asked == 5 && status == 200 && took <= NEXT_ANALYSIS,
    }
}

/// The unreadable records: random bytes, Big5 prose, UTF-32 prose (none holds a
/// game, whatever its encoding).
fn unreadable() -> Vec<(&'static str, Vec<u8>)> {
    let mut rng = SmallRng::seed_from_u64(46);
    let random: Vec<u8> = (0..65_536).map(|_| rng.random::<u8>()).collect();
    let prose = "楚河漢界。這是一封給裁判長的信，說明比賽場地與時間安排，不是棋譜。";
    let (big5, _, _) = encoding_rs::BIG5.encode(prose);
    let mut utf32 = vec![0xFF, 0xFE, 0, 0];
    for ch in format!("A letter to the chief arbiter, not a game record. {prose}").chars() {
        utf32.extend_from_slice(&(ch as u32).to_le_bytes());
    }
    vec![
        ("random bytes", random),
        ("Big5", big5.into_owned()),
        ("UTF-32", utf32),
    ]
}

/// Phase 5.
async fn unreadable_records(addr: SocketAddr) -> Verdict {
    let answers = tokio::task::spawn_blocking(move || {
        let mut out = Vec::new();
        for path in ["/api/judge", "/api/record"] {
            for (what, bytes) in unreadable() {
                let r = Connection::open(addr, PATIENCE)
                    .and_then(|mut c| c.request("POST", path, "application/octet-stream", &bytes));
                let (status, reasons) = match r {
                    Ok(r) => (r.status, json_error(&r.body)),
                    Err(_) => (0, false),
                };
                out.push((path, what, status, reasons));
            }
        }
        out
    })
    .await
    .unwrap_or_default();
    let figures = answers
        .iter()
        .map(|(path, what, status, reasons)| {
            format!(
                "{path} {what}: {status}{}",
                if *reasons { " with reasons" } else { "" }
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    Verdict {
        figures,
        bound: "each 422 with {\"error\": …}".into(),
        pass: answers.len() == 6 && answers.iter().all(|a| a.2 == 422 && a.3),
    }
}

/// A random JSON text, sometimes invalid.
fn random_json(rng: &mut SmallRng, depth: u32) -> String {
    let keys = [
        "fen",
        "moves",
        "rules",
        "depth",
        "movetime_ms",
        "view",
        "marks",
        "game",
        "x",
        "",
    ];
    match rng.random_range(0..if depth > 3 { 6 } else { 9 }) {
        0 => "null".into(),
        1 => ["true", "false"][rng.random_range(0..2)].into(),
        2 => [
            "0",
            "-1",
            "3000",
            "1e999",
            "18446744073709551616",
            "-0.5",
            "1",
            "99999999",
        ][rng.random_range(0..8)]
        .into(),
        3 | 4 => format!(
            "\"{}\"",
            [
                "2bak4/4a4/4b4/8p/5R3/8P/n8/1r2C4/9/1cBAKAB2 w",
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                "h2e2 h9g7",
                "炮二平五 馬８進７",
                "C2.5",
                "cxa2011",
                "axf",
                "ruling",
                "\\ud800",
                "\\u0000",
                "kkkkkkkkk/9/9/9/9/9/9/9/9/KKKKKKKKK w",
            ][rng.random_range(0..11)]
        ),
        5 => String::from_utf8_lossy(&[b'"', 0xC3, 0x28, 0xFF, b'"']).into_owned(),
        6 => format!(
            "[{}]",
            (0..rng.random_range(0..6))
                .map(|_| random_json(rng, depth + 1))
                .collect::<Vec<_>>()
                .join(",")
        ),
        7 => "[".repeat(rng.random_range(1..3000)),
        _ => format!(
            "{{{}}}",
            (0..rng.random_range(0..5))
                .map(|_| format!(
                    "\"{}\":{}",
                    keys[rng.random_range(0..keys.len())],
                    random_json(rng, depth + 1)
                ))
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

/// A mutated request and whether it is a HEAD request.
fn fuzzed(rng: &mut SmallRng, addr: SocketAddr) -> (Vec<u8>, bool) {
    let methods = [
        "GET",
        "POST",
        "POST",
        "POST",
        "PUT",
        "DELETE",
        "PATCH",
        "OPTIONS",
        "HEAD",
        "TRACE",
        "CONNECT",
        "PRI",
        "get",
        "G\x00T",
        "POST POST",
    ];
    let paths = [
        "/api/health",
        "/api/judge",
        "/api/record",
        "/api/moves",
        "/api/diagram",
        "/api/analyse",
        "/chessdb.php?action=queryrule&board=x",
        "/",
        "/index.html",
        "/api/nope",
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/api/judge?game=0&ply=99999999999999999999",
        "/api/judge?rules=zzz&game=-1",
        "/api/diagram?view=ruling&marks=true&fen=%FF%FE",
        "*",
        "http://127.0.0.1/api/health",
        "/api/%00",
        "//api//judge",
    ];
    let mut method = methods[rng.random_range(0..methods.len())].to_string();
    if rng.random_range(0..50) == 0 {
        method = "A".repeat(9000);
    }
    let mut path = paths[rng.random_range(0..paths.len())].to_string();
    match rng.random_range(0..30) {
        0 => path = format!("/{}", "a/".repeat(rng.random_range(1..20_000))),
        1 => path.push_str(&format!("?{}", "x=1&".repeat(rng.random_range(1..5000)))),
        2 => path = format!("/api/{}", rng.random::<u64>()),
        _ => {}
    }
    let version = match rng.random_range(0..50) {
        0 => "HTTP/1.0",
        1 => "HTTP/2.0",
        2 => "HTTP/0.9",
        3 => "HTTX/1.1",
        4 => "",
        _ => "HTTP/1.1",
    };
    let body: Vec<u8> = match rng.random_range(0..10) {
        0 => Vec::new(),
        1 => (0..rng.random_range(0..4096))
            .map(|_| rng.random::<u8>())
            .collect(),
        2 => pgn_moves(rng.random_range(300..20_000)),
        3 => {
            let mut b = br#"{"moves": ""#.to_vec();
            b.extend((0..64).map(|_| rng.random::<u8>()));
            b.extend_from_slice(b"\"}");
            b
        }
        4 | 5 => format!(
            r#"{{"fen": {}, "moves": {}, "rules": {}}}"#,
            random_json(rng, 3),
            random_json(rng, 3),
            random_json(rng, 3)
        )
        .into_bytes(),
        _ => random_json(rng, 0).into_bytes(),
    };
    let eol = if rng.random_range(0..20) == 0 {
        "\n"
    } else {
        "\r\n"
    };
    let mut head = format!("{method} {path} {version}{eol}");
    match rng.random_range(0..40) {
        0 => {}
        1 => head.push_str(&format!("Host: {addr}{eol}Host: evil.example{eol}")),
        2 => head.push_str(&format!("Host: evil.example{eol}")),
        _ => head.push_str(&format!("Host: {addr}{eol}")),
    }
    let types = [
        "application/json",
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/x-chess-pgn",
        "multipart/form-data; boundary=x",
        "\u{1}\u{2}",
    ];
    if rng.random_range(0..3) > 0 {
        head.push_str(&format!(
            "Content-Type: {}{eol}",
            types[rng.random_range(0..types.len())]
        ));
    }
    let mut send = body.clone();
    match rng.random_range(0..30) {
        0 => {}
        1 => head.push_str(&format!(
            "Content-Length: {}{eol}",
            body.len().saturating_sub(1)
        )),
        2 if rng.random_range(0..4) == 0 => {
            head.push_str(&format!("Content-Length: {}{eol}", body.len() + 100))
        }
        3 => head.push_str(&format!("Content-Length: -1{eol}")),
        4 => head.push_str(&format!("Content-Length: 99999999999999999999{eol}")),
        5 => head.push_str(&format!(
            "Content-Length: {}{eol}Content-Length: {}{eol}",
            body.len(),
            body.len() + 1
        )),
        6 => head.push_str(&format!("Content-Length: abc{eol}")),
        7 => head.push_str(&format!("Content-Length: +{}{eol}", body.len())),
        8 => {
            // A proper chunked body.
            head.push_str(&format!("Transfer-Encoding: chunked{eol}"));
            send = format!("{:x}\r\n", body.len()).into_bytes();
            send.extend_from_slice(&body);
            send.extend_from_slice(b"\r\n0\r\n\r\n");
        }
        9 => {
            // Chunked garbage.
            head.push_str(&format!("Transfer-Encoding: chunked{eol}"));
            send = b"zz\r\nhello\r\nffffffffffffffffff\r\n".to_vec();
            send.extend_from_slice(&body);
        }
        10 => head.push_str(&format!(
            "Transfer-Encoding: chunked{eol}Content-Length: {}{eol}",
            body.len()
        )),
        11 => head.push_str(&format!("Transfer-Encoding: gzip, chunked{eol}")),
        _ => head.push_str(&format!("Content-Length: {}{eol}", body.len())),
    }
    match rng.random_range(0..32) {
        0 => head.push_str(&format!("X-Big: {}{eol}", "b".repeat(20_000))),
        1 => {
            for i in 0..150 {
                head.push_str(&format!("X-H{i}: {i}{eol}"));
            }
        }
        2 => head.push_str(&format!("X-Folded: a{eol} b{eol}")),
        3 => head.push_str(&format!("X-Nul: a\0b{eol}")),
        4 => head.push_str(&format!("Expect: 100-continue{eol}")),
        5 => head.push_str(&format!("Connection: Upgrade{eol}Upgrade: websocket{eol}")),
        6 => head.push_str(&format!("Authorization: bearer {}{eol}", "t".repeat(100))),
        7 => head.push_str(&format!("Bad Header Name: x{eol}")),
        8 => head.push_str(&format!("Origin: http://evil.example{eol}")),
        9 => head.push_str(&format!("Accept-Encoding: {}{eol}", "gzip, ".repeat(1000))),
        _ => {}
    }
    head.push_str(eol);
    let mut bytes = head.into_bytes();
    if rng.random_range(0..30) == 0 {
        // Invalid UTF-8 in the head.
        let at = rng.random_range(0..bytes.len());
        bytes.insert(at, 0xFF);
    }
    bytes.extend_from_slice(&send);
    (bytes, method == "HEAD")
}

/// What the fuzzer saw.
#[derive(Default)]
struct FuzzTally {
    requests: u64,
    by_status: BTreeMap<u16, u64>,
    server_errors: Vec<String>,
    not_json: Vec<String>,
    empty_refusals: u64,
    /// A few of them: status and request line.
    empty_samples: Vec<String>,
    unanswered: u64,
}

/// Phase 6.
async fn fuzz(addr: SocketAddr, size: Size) -> Verdict {
    let end = Instant::now() + size.fuzz_time;
    let mut set = JoinSet::new();
    for task in 0..FUZZ_TASKS {
        set.spawn(async move {
            let mut rng = SmallRng::seed_from_u64(4600 + task as u64);
            let mut t = FuzzTally::default();
            while Instant::now() < end {
                let (bytes, head) = fuzzed(&mut rng, addr);
                let first_line = String::from_utf8_lossy(&bytes[..bytes.len().min(60)])
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_string();
                t.requests += 1;
                let answer = timeout(FUZZ_PATIENCE, async {
                    let stream = connect(FUZZ_FROM, addr, None).await?;
                    let mut r = tokio::io::BufReader::new(stream);
                    // The server may answer and close before it has read it all.
                    let _ = r.get_mut().write_all(&bytes).await;
                    read_answer(&mut r, head).await
                })
                .await;
                let Ok(Ok(a)) = answer else {
                    t.unanswered += 1;
                    continue;
                };
                *t.by_status.entry(a.status).or_default() += 1;
                if a.status >= 500 {
                    t.server_errors
                        .push(format!("{} for {first_line:?}", a.status));
                }
                if a.status >= 400 {
                    // A HEAD answer has no body by definition.
                    if a.body.is_empty() && !first_line.starts_with("HEAD ") {
                        t.empty_refusals += 1;
                        if t.empty_samples.len() < 3 {
                            t.empty_samples
                                .push(format!("{} for {first_line:?}", a.status));
                        }
                    } else if !a.body.is_empty()
                        && serde_json::from_slice::<serde_json::Value>(&a.body).is_err()
                    {
                        t.not_json.push(format!(
                            "{} {:?} for {first_line:?}",
                            a.status,
                            String::from_utf8_lossy(&a.body[..a.body.len().min(40)])
                        ));
                    }
                }
            }
            t
        });
    }
    let mut all = FuzzTally::default();
    while let Some(Ok(t)) = set.join_next().await {
        all.requests += t.requests;
        for (s, n) in t.by_status {
            *all.by_status.entry(s).or_default() += n;
        }
        all.server_errors.extend(t.server_errors);
        all.not_json.extend(t.not_json);
        all.empty_refusals += t.empty_refusals;
        all.empty_samples.extend(t.empty_samples);
        all.unanswered += t.unanswered;
    }
    let health = tokio::task::spawn_blocking(move || {
        Connection::open(addr, PATIENCE)
            .and_then(|mut c| c.get("/api/health"))
            .map(|r| r.status)
            .unwrap_or(0)
    })
    .await
    .unwrap_or(0);
    let example = |v: &[String]| {
        v.first()
            .map(|e| format!(" (e.g. {e})"))
            .unwrap_or_default()
    };
    Verdict {
        figures: format!(
            "{} requests from {FUZZ_FROM} in {} s: {}; 5xx {}{}; refusals not JSON {}{}; refusals with empty bodies {}{}; unanswered in {} s {}; GET /api/health after: {health}",
            all.requests,
            size.fuzz_time.as_secs(),
            tally(&all.by_status),
            all.server_errors.len(),
            example(&all.server_errors),
            all.not_json.len(),
            example(&all.not_json),
            all.empty_refusals,
            example(&all.empty_samples),
            FUZZ_PATIENCE.as_secs(),
            all.unanswered,
        ),
        bound: "no 5xx, every refusal JSON, health 200 after".into(),
        pass: all.server_errors.is_empty()
            && all.not_json.is_empty()
            && all.empty_refusals == 0
            && health == 200,
    }
}

/// Runs the attack (see the crate-level description in `main.rs`).
pub fn main() -> ExitCode {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let files = raise_file_limit();
    let mut server = match Server::start(&a.chuhan) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let (addr, pid) = (server.addr, server.pid());
    // The run's hard deadline, whatever hangs: kill the server and leave.
    let deadline = a.size.deadline;
    std::thread::spawn(move || {
        std::thread::sleep(deadline);
        eprintln!(
            "FAIL: the attack overran its {} s deadline",
            deadline.as_secs()
        );
        // SAFETY: kill only sends a signal to the server we started (still our
        // unreaped child while this process runs).
        unsafe {
            libc::kill(pid as libc::pid_t, libc::SIGKILL);
        }
        std::process::exit(1);
    });
    println!(
        "chuhan serve at {addr} (pid {pid}, {:.0} MB); {} phases, {:?} size; open files limit {files}",
        rss_mb(pid).unwrap_or(0.0),
        a.phases.len(),
        if a.size.slow_clients == Size::FULL.slow_clients {
            "full"
        } else {
            "short"
        }
    );
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: a runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let size = a.size;
    let mut failed = 0;
    let began = Instant::now();
    for (i, phase) in a.phases.iter().enumerate() {
        if i > 0 {
            // Room for the server to close what the last phase left behind.
            std::thread::sleep(size.ramp);
        }
        let t = Instant::now();
        let limit = size.phase_limit(phase);
        let v = rt.block_on(async {
            let run = async {
                match phase.as_str() {
                    "slow-client" => slow_client(addr, size).await,
                    "slow-read" => slow_read(addr, size, pid).await,
                    "big-upload" => big_upload(addr, size, pid).await,
                    "abandoned-analysis" => abandoned_analysis(addr, size).await,
                    "unreadable-records" => unreadable_records(addr).await,
                    _ => fuzz(addr, size).await,
                }
            };
            // Dropping a phase's future aborts its tasks and closes its sockets.
            timeout(limit, run).await.unwrap_or_else(|_| Verdict {
                figures: format!("did not finish within its {} s", limit.as_secs()),
                bound: "finishes in time".into(),
                pass: false,
            })
        });
        let alive = server.alive();
        let pass = v.pass && alive;
        failed += usize::from(!pass);
        println!(
            "{phase:<19} {}{} | bound: {} | {:.1} s | {}",
            v.figures,
            if alive { "" } else { "; THE SERVER DIED" },
            v.bound,
            t.elapsed().as_secs_f64(),
            if pass { "PASS" } else { "FAIL" }
        );
        if !alive {
            break;
        }
    }
    // Whatever a phase left behind (aborted tasks' sockets) goes with the runtime.
    rt.shutdown_timeout(Duration::from_secs(1));
    let alive = server.alive();
    println!(
        "attack: {} of {} phases passed in {:.0} s; server {}, {:.0} MB at the end",
        a.phases.len().saturating_sub(failed),
        a.phases.len(),
        began.elapsed().as_secs_f64(),
        if alive { "alive" } else { "dead" },
        rss_mb(pid).unwrap_or(0.0)
    );
    drop(server);
    if failed == 0 && alive {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
