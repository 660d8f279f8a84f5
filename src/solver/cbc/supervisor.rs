//! The parent's side of a CBC worker: [`supervise`] starts the worker, feeds it the job, reads
//! its log as it comes, and ends it when the wall clock or an interrupt says so.
//!
//! - The worker runs in a process group of its own, so a Ctrl-C at the terminal reaches only
//!   the parent, which decides; it is killed (`SIGKILL`) if the parent dies (Linux's
//!   parent-death signal, tied to the thread that waits for it).
//! - Its stdout (CBC's log, then the result line) and stderr are read by one thread each,
//!   line by line; every line goes to the caller's `on_line` as it arrives, and the last
//!   [`KEPT_LINES`] are kept for the report of a worker that dies.
//! - The worker is killed when the interrupt flag is raised, or at the deadline.
#![allow(unsafe_code)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use super::protocol::{WireOutcome, RESULT_PREFIX};
use crate::error::{Error, Result};

/// The hidden command that makes milptree a CBC worker.
pub const WORKER_COMMAND: &str = "cbc-worker";

/// Lines of the worker's output kept for the report of a worker that dies.
pub(crate) const KEPT_LINES: usize = 12;

/// How often the parent looks at the clock and the interrupt flag while the worker is quiet.
const POLL: Duration = Duration::from_millis(20);

/// What the caller wants after a log line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineAction {
    Continue,
    /// Send the worker `SIGABRT` (a crash on purpose, for tests).
    Abort,
}

/// Why the parent ended the worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    Interrupted,
    Deadline,
}

/// How a worker ended.
#[derive(Debug)]
pub(crate) struct Finished {
    /// Its result line, parsed; `Err` with the reason when the line is not a result.
    pub result: Option<std::result::Result<WireOutcome, String>>,
    pub status: ExitStatus,
    /// Set when the parent killed it.
    pub stopped: Option<Stop>,
    /// The last lines it wrote (stdout and stderr, in arrival order), the result excluded.
    pub last_lines: Vec<String>,
}

impl Finished {
    /// How the process ended, in words: `exit code 1`, `signal 11 (SIGSEGV, core dumped)`.
    pub(crate) fn status_text(&self) -> String {
        describe_status(self.status)
    }
}

enum Message {
    Line(String),
    Result(String),
}

/// Runs `program` as a CBC worker on `job` (its JSON text): see the module documentation.
/// `on_line` sees every line of the worker's log as it arrives.
pub(crate) fn supervise(
    program: &Path,
    job: String,
    deadline: Option<Instant>,
    interrupt: Option<&AtomicBool>,
    on_line: &mut dyn FnMut(&str) -> LineAction,
) -> Result<Finished> {
    let mut child = spawn(program)?;
    let (sender, receiver) = mpsc::channel();
    let feeder = child.stdin.take().map(|mut stdin| {
        thread::spawn(move || {
            // A worker that dies early closes its stdin: its exit status tells why.
            let _ = stdin.write_all(job.as_bytes());
        })
    });
    let readers = [
        child
            .stdout
            .take()
            .map(|s| read_lines(s, sender.clone(), true)),
        child
            .stderr
            .take()
            .map(|s| read_lines(s, sender.clone(), false)),
    ];
    drop(sender);
    let outcome = watch(&mut child, &receiver, deadline, interrupt, on_line);
    // Whatever happened, the worker does not outlive the solve.
    if outcome.is_err() {
        let _ = child.kill();
        let _ = child.wait();
    }
    for handle in readers.into_iter().flatten().chain(feeder) {
        let _ = handle.join();
    }
    outcome
}

fn spawn(program: &Path) -> Result<Child> {
    let mut command = Command::new(program);
    command
        .arg(WORKER_COMMAND)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let parent = libc::pid_t::try_from(std::process::id()).unwrap_or(0);
    // SAFETY: the closure runs in the child between fork and exec and only makes two system
    // calls (`prctl`, `getppid`), which are async-signal-safe; `_exit` ends a child whose
    // parent died before the death signal was armed.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
    command.spawn().map_err(|e| Error::Solver {
        solver: "cbc".to_string(),
        message: format!("cannot start the CBC worker {}: {e}", program.display()),
    })
}

/// Sends every line of `stream` to `sender`; on stdout, the result line as a result.
fn read_lines(
    stream: impl Read + Send + 'static,
    sender: Sender<Message>,
    stdout: bool,
) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let mut reader = BufReader::new(stream);
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match reader.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&bytes);
            let line = line.trim_end_matches(['\n', '\r']);
            let message = match line.strip_prefix(RESULT_PREFIX) {
                Some(result) if stdout => Message::Result(result.to_string()),
                _ => Message::Line(line.to_string()),
            };
            if sender.send(message).is_err() {
                return;
            }
        }
    })
}

/// Follows the worker until it ends; kills it on an interrupt or at the deadline.
fn watch(
    child: &mut Child,
    receiver: &Receiver<Message>,
    deadline: Option<Instant>,
    interrupt: Option<&AtomicBool>,
    on_line: &mut dyn FnMut(&str) -> LineAction,
) -> Result<Finished> {
    let mut last_lines = VecDeque::with_capacity(KEPT_LINES + 1);
    let mut result = None;
    let mut stopped = None;
    let mut streams_open = true;
    loop {
        if streams_open {
            match receiver.recv_timeout(POLL) {
                Ok(Message::Line(line)) => {
                    if on_line(&line) == LineAction::Abort {
                        signal(child, libc::SIGABRT);
                    }
                    last_lines.push_back(line);
                    if last_lines.len() > KEPT_LINES {
                        last_lines.pop_front();
                    }
                }
                Ok(Message::Result(text)) => {
                    result = Some(serde_json::from_str(&text).map_err(|e| e.to_string()));
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => streams_open = false,
            }
        } else {
            if let Some(status) = child.try_wait().map_err(wait_error)? {
                return Ok(Finished {
                    result,
                    status,
                    stopped,
                    last_lines: last_lines.into(),
                });
            }
            thread::sleep(POLL);
        }
        if stopped.is_none() {
            if interrupt.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
                stopped = Some(Stop::Interrupted);
            } else if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                stopped = Some(Stop::Deadline);
            }
            if stopped.is_some() {
                // Killing an already reaped child fails harmlessly.
                let _ = child.kill();
            }
        }
    }
}

/// Sends `signal` to the worker.
fn signal(child: &Child, signal: libc::c_int) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: `kill` only sends a signal; `pid` is our child, not yet reaped (we reap it
        // only after its streams close), so the id names no other process.
        unsafe {
            libc::kill(pid, signal);
        }
    }
}

fn wait_error(error: std::io::Error) -> Error {
    Error::Solver {
        solver: "cbc".to_string(),
        message: format!("cannot wait for the CBC worker: {error}"),
    }
}

/// `exit code N`, or `signal N (NAME[, core dumped])`.
fn describe_status(status: ExitStatus) -> String {
    if let Some(signal) = status.signal() {
        let name = match signal {
            libc::SIGSEGV => "SIGSEGV",
            libc::SIGABRT => "SIGABRT",
            libc::SIGKILL => "SIGKILL",
            libc::SIGBUS => "SIGBUS",
            libc::SIGFPE => "SIGFPE",
            libc::SIGILL => "SIGILL",
            libc::SIGTERM => "SIGTERM",
            libc::SIGINT => "SIGINT",
            libc::SIGPIPE => "SIGPIPE",
            _ => "",
        };
        let core = if status.core_dumped() {
            ", core dumped"
        } else {
            ""
        };
        return match name {
            "" => format!("signal {signal}{core}"),
            name => format!("signal {signal} ({name}{core})"),
        };
    }
    match status.code() {
        Some(code) => format!("exit code {code}"),
        None => "an unknown status".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An executable shell script `body` standing in for the worker.
    fn fake_worker(body: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("worker");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("written");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        (dir, path)
    }

    fn run(body: &str, deadline: Option<Duration>, interrupt: Option<&AtomicBool>) -> Finished {
        let (_dir, program) = fake_worker(body);
        let deadline = deadline.map(|d| Instant::now() + d);
        let mut lines = Vec::new();
        let mut on_line = |line: &str| {
            lines.push(line.to_string());
            LineAction::Continue
        };
        supervise(&program, "{}".into(), deadline, interrupt, &mut on_line).expect("supervised")
    }

    #[test]
    fn kills_a_worker_still_running_at_the_deadline() {
        let started = Instant::now();
        let finished = run(
            "echo 'Cbc0010I still going'; exec sleep 30",
            Some(Duration::from_millis(300)),
            None,
        );
        let seconds = started.elapsed().as_secs_f64();
        assert!((0.3..2.0).contains(&seconds), "{seconds} s");
        assert_eq!(finished.stopped, Some(Stop::Deadline));
        assert_eq!(finished.status.signal(), Some(libc::SIGKILL));
        assert_eq!(
            finished.last_lines,
            vec!["Cbc0010I still going".to_string()]
        );
        assert!(finished.result.is_none());
    }

    #[test]
    fn kills_a_worker_when_the_interrupt_flag_is_raised() {
        let flag = AtomicBool::new(true);
        let started = Instant::now();
        let finished = run("exec sleep 30", None, Some(&flag));
        assert!(started.elapsed() < Duration::from_secs(2));
        assert_eq!(finished.stopped, Some(Stop::Interrupted));
    }

    #[test]
    fn a_crash_is_a_status_with_the_last_lines_and_a_result_is_read() {
        let finished = run(
            "cat > /dev/null; echo one; echo two >&2; kill -SEGV $$",
            None,
            None,
        );
        assert_eq!(finished.status.signal(), Some(libc::SIGSEGV));
        assert_eq!(finished.status_text(), "signal 11 (SIGSEGV)");
        let mut lines = finished.last_lines.clone();
        lines.sort();
        assert_eq!(lines, vec!["one".to_string(), "two".to_string()]);
        assert_eq!(finished.stopped, None);
        let finished = run(
            &format!(
                "cat > /dev/null; echo 'log'; echo '{RESULT_PREFIX}{{\"termination\":\"optimal\",\
                 \"error\":null,\"objective\":1.5,\"bound\":1.5,\"nodes\":0,\"values\":[1.0],\
                 \"notes\":[],\"column_names\":null}}'"
            ),
            None,
            None,
        );
        assert_eq!(finished.last_lines, vec!["log".to_string()]);
        let result = finished.result.expect("a result").expect("readable");
        assert_eq!(result.objective, Some(1.5));
        assert!(finished.status.success());
    }

    #[test]
    fn names_signals_and_exit_codes() {
        assert_eq!(
            describe_status(ExitStatus::from_raw(11)),
            "signal 11 (SIGSEGV)"
        );
        assert_eq!(
            describe_status(ExitStatus::from_raw(6 | 0x80)),
            "signal 6 (SIGABRT, core dumped)"
        );
        assert_eq!(describe_status(ExitStatus::from_raw(1 << 8)), "exit code 1");
    }
}
