//! An engine process: started through the shell, written to line by line, read on
//! its own thread so the runner never blocks on a silent or chatty engine, and
//! killed with everything it started.
//!
//! On Unix the engine runs in a process group of its own, so a kill reaches the
//! shell, the engine and anything the engine spawned (a Node host and its
//! workers, for instance). The flip side: Ctrl-C on the runner does not reach the
//! engines, which see their input close instead and, if well behaved, exit.

use crossbeam_channel::{Receiver, RecvTimeoutError};
use parking_lot::Mutex;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A shared log of every line sent to and received from every engine, for
/// debugging engines (`--log FILE`). Lines look like `12.345 Chuhan#1 > go depth 5`.
#[derive(Clone, Debug)]
pub struct TrafficLog {
    file: Arc<Mutex<File>>,
    start: Instant,
}

impl TrafficLog {
    /// Creates (truncates) the log file.
    pub fn create(path: &Path) -> io::Result<TrafficLog> {
        Ok(TrafficLog {
            file: Arc::new(Mutex::new(File::create(path)?)),
            start: Instant::now(),
        })
    }

    /// Writes one line; `arrow` is `>` for sent, `<` for received, `!` for stderr
    /// and runner notes. Errors writing the log are ignored: a full disk must not
    /// stop a match.
    pub fn line(&self, who: &str, arrow: char, text: &str) {
        let t = self.start.elapsed().as_secs_f64();
        let mut f = self.file.lock();
        let _ = writeln!(f, "{t:.3} {who} {arrow} {text}");
    }
}

/// What waiting for a line gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recv {
    /// A line of output (without its line ending; invalid UTF-8 replaced).
    Line(String),
    /// Nothing before the deadline.
    Timeout,
    /// The engine closed its output: it exited or crashed.
    Closed,
}

/// A running engine process.
#[derive(Debug)]
pub struct Process {
    child: Child,
    /// On Windows, the job object holding the shell and everything it starts.
    #[cfg(windows)]
    job: Option<job::Job>,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    label: String,
    log: Option<TrafficLog>,
}

impl Process {
    /// Starts `command` through the shell (`sh -c`; `cmd /C` on Windows) with
    /// piped input and output. `label` names the process in the traffic log.
    pub fn spawn(command: &str, label: &str, log: Option<TrafficLog>) -> io::Result<Process> {
        let mut cmd = shell(command);
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn()?;
        // `cmd /C` has not started the engine yet when this returns (it parses
        // its line first), so the engine and its helpers are born in the job.
        #[cfg(windows)]
        let job = job::Job::holding(&child).ok();
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = crossbeam_channel::unbounded();
        std::thread::Builder::new()
            .name(format!("{label} stdout"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let text = String::from_utf8_lossy(&buf);
                            let line = text.trim_end_matches(['\n', '\r']).to_string();
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })?;
        if let (Some(stderr), Some(log)) = (child.stderr.take(), log.clone()) {
            let who = label.to_string();
            std::thread::Builder::new()
                .name(format!("{label} stderr"))
                .spawn(move || {
                    for line in BufReader::new(stderr).lines() {
                        match line {
                            Ok(l) => log.line(&who, '!', &l),
                            Err(_) => break,
                        }
                    }
                })?;
        }
        if let Some(l) = &log {
            l.line(label, '!', &format!("started `{command}`"));
        }
        Ok(Process {
            child,
            #[cfg(windows)]
            job,
            stdin,
            lines,
            label: label.to_string(),
            log,
        })
    }

    /// Sends one line (a newline is added) and flushes.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        if let Some(l) = &self.log {
            l.line(&self.label, '>', line);
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "input closed"))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// Waits for the next line until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Recv {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                if let Some(l) = &self.log {
                    l.line(&self.label, '<', &line);
                }
                Recv::Line(line)
            }
            Err(RecvTimeoutError::Timeout) => Recv::Timeout,
            Err(RecvTimeoutError::Disconnected) => Recv::Closed,
        }
    }

    /// Writes a runner note about this process to the traffic log.
    pub fn note(&self, text: &str) {
        if let Some(l) = &self.log {
            l.line(&self.label, '!', text);
        }
    }

    /// True once the process (the shell it was started by) has exited.
    pub fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Asks the engine to leave (`quit`), waits up to `grace` for it to exit, then
    /// kills whatever is left.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if self.has_exited() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Drop kills the group and reaps the child.
    }

    /// Kills the engine and everything it started, and reaps it.
    pub fn kill(&mut self) {
        self.note("killed");
        self.stdin = None;
        self.kill_tree();
    }

    /// Kills the child and every process it started: its process group on Unix,
    /// its job object on Windows.
    fn kill_tree(&mut self) {
        #[cfg(unix)]
        kill_group(&mut self.child);
        #[cfg(windows)]
        if let Some(job) = &self.job {
            job.terminate();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stdin = None;
        // The group may outlive the shell (a compound command, a spawned helper).
        self.kill_tree();
    }
}

#[cfg(unix)]
fn shell(command: &str) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c").arg(command);
    c
}

#[cfg(windows)]
fn shell(command: &str) -> Command {
    use std::os::windows::process::CommandExt;
    let mut c = Command::new("cmd");
    // `/S /C "…"`: cmd runs the text between the outer quotes as written, so a
    // command with quoted paths (`"C:\Program Files\…\engine.exe" -x`) arrives
    // whole; Rust's own argument quoting uses backslashes, which cmd ignores.
    c.arg("/S").arg("/C").raw_arg(format!("\"{command}\""));
    c
}

/// Kills the process group the child leads, through the shell's `kill` builtin
/// (no `unsafe`, no extra crate). The group id cannot be reused while any member
/// lives, so this never reaches a stranger.
#[cfg(unix)]
fn kill_group(child: &mut Child) {
    let _ = Command::new("sh")
        .arg("-c")
        .arg(format!("kill -KILL -{} 2>/dev/null", child.id()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Windows job objects: the counterpart of a Unix process group. A job closed
/// with `KILL_ON_JOB_CLOSE` also takes its processes with it if the runner dies.
#[cfg(windows)]
mod job {
    use std::os::windows::io::AsRawHandle;
    use std::process::Child;
    use windows_sys::Win32::Foundation::{CloseHandle, HANDLE};
    use windows_sys::Win32::System::JobObjects::{
        AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectExtendedLimitInformation,
        SetInformationJobObject, TerminateJobObject,
    };

    /// An owned job object handle.
    #[derive(Debug)]
    pub struct Job(HANDLE);

    // SAFETY: a job handle may be used and closed from any thread.
    unsafe impl Send for Job {}

    impl Job {
        /// A new job, killing its processes when closed, holding `child`.
        pub fn holding(child: &Child) -> std::io::Result<Job> {
            // SAFETY: plain Win32 calls on handles this function owns or borrows
            // for the call; every failure is checked and the job closed on drop.
            unsafe {
                let handle = CreateJobObjectW(std::ptr::null(), std::ptr::null());
                if handle.is_null() {
                    return Err(std::io::Error::last_os_error());
                }
                let job = Job(handle);
                let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
                limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
                if SetInformationJobObject(
                    job.0,
                    JobObjectExtendedLimitInformation,
                    &limits as *const _ as *const core::ffi::c_void,
                    std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
                ) == 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                if AssignProcessToJobObject(job.0, child.as_raw_handle() as HANDLE) == 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(job)
            }
        }

        /// Kills every process in the job.
        pub fn terminate(&self) {
            // SAFETY: the handle is owned and open until drop.
            unsafe {
                TerminateJobObject(self.0, 1);
            }
        }
    }

    impl Drop for Job {
        fn drop(&mut self) {
            // SAFETY: closed once, here.
            unsafe {
                CloseHandle(self.0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(any(unix, windows))]
    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(10)
    }

    #[cfg(unix)]
    #[test]
    fn echoes_lines_and_sees_the_end() {
        let mut p = Process::spawn("read x; echo \"got $x\"; echo bye", "t", None).unwrap();
        p.send("hello").unwrap();
        assert_eq!(p.recv(soon()), Recv::Line("got hello".into()));
        assert_eq!(p.recv(soon()), Recv::Line("bye".into()));
        assert_eq!(p.recv(soon()), Recv::Closed);
    }

    #[cfg(unix)]
    #[test]
    fn a_silent_process_times_out_and_is_killed_with_its_children() {
        let mut p = Process::spawn("sleep 30 & sleep 30; echo late", "t", None).unwrap();
        let t = Instant::now() + Duration::from_millis(20);
        assert_eq!(p.recv(t), Recv::Timeout);
        p.kill();
        // The background sleep held the pipe open too; it died with the group.
        assert_eq!(p.recv(soon()), Recv::Closed);
        assert!(p.has_exited());
    }

    #[cfg(unix)]
    #[test]
    fn crlf_and_invalid_utf8_are_tolerated() {
        let mut p = Process::spawn("printf 'a\\r\\n\\377b\\n'", "t", None).unwrap();
        assert_eq!(p.recv(soon()), Recv::Line("a".into()));
        assert_eq!(p.recv(soon()), Recv::Line("\u{FFFD}b".into()));
    }

    #[cfg(windows)]
    #[test]
    fn echoes_lines_and_sees_the_end_under_cmd() {
        let mut p = Process::spawn("set /p x=& call echo got %x%& echo bye", "t", None).unwrap();
        p.send("hello").unwrap();
        assert_eq!(p.recv(soon()), Recv::Line("got hello".into()));
        assert_eq!(p.recv(soon()), Recv::Line("bye".into()));
        assert_eq!(p.recv(soon()), Recv::Closed);
    }

    #[cfg(windows)]
    #[test]
    fn a_silent_process_is_killed_with_its_job() {
        // This test binary, run as `sleeper_for_the_job_test`, prints a line every
        // 100 ms for 30 s. One copy runs in cmd's foreground, one through `start
        // /b` (a grandchild holding the output pipe): only the job reaches it.
        let exe = std::env::current_exe().unwrap();
        let sleeper = format!(
            "\"{}\" --ignored sleeper_for_the_job_test --nocapture",
            exe.display()
        );
        let mut p =
            Process::spawn(&format!("start /b \"\" {sleeper} & {sleeper}"), "t", None).unwrap();
        let first = soon();
        loop {
            match p.recv(first) {
                Recv::Line(l) if l == "tick" => break,
                Recv::Line(_) => {}
                other => panic!("the sleepers did not start: {other:?}"),
            }
        }
        p.kill();
        // Without the job, the background sleeper would go on printing for 30 s
        // and hold the pipe open past this deadline.
        let end = soon();
        let mut ticks = 0;
        loop {
            match p.recv(end) {
                Recv::Line(_) => ticks += 1,
                other => {
                    assert_eq!(other, Recv::Closed, "after {ticks} more lines");
                    break;
                }
            }
        }
        assert!(p.has_exited());
    }

    /// Not a check of its own: the long-lived grandchild of
    /// `a_silent_process_is_killed_with_its_job`.
    #[cfg(windows)]
    #[test]
    #[ignore = "started by a_silent_process_is_killed_with_its_job"]
    fn sleeper_for_the_job_test() {
        for _ in 0..300 {
            println!("tick");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}
