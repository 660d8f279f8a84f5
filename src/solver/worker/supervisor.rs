//! The parent's side of a solver worker, whatever the solver: [`supervise`] starts the worker,
//! feeds it the job, reads its log and events as they come, and ends it when the wall clock or
//! an interrupt says so.
//!
//! - The worker runs in a process group of its own, so a Ctrl-C at the terminal reaches only
//!   the parent, which decides; it is killed (`SIGKILL`) if the parent dies (Linux's
//!   parent-death signal, tied to the thread that waits for it).
//! - Its stdout (the solver's log and events, then the result line) and stderr are read by one
//!   thread each, line by line; every line goes to the caller's `on_line` as it arrives, and
//!   the last [`KEPT_LINES`] (events excepted) are kept for the report of a worker that dies.
//! - At the deadline the worker is killed. When the interrupt flag is raised it is killed at
//!   once, or, for a worker that can stop cleanly ([`WorkerSpec::stop_grace`]), sent `SIGTERM`
//!   (blocked from its start until it is ready to catch it, so none is lost) and killed only if
//!   it is still running after the grace.
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

use super::protocol::{EVENT_PREFIX, RESULT_PREFIX};
use crate::error::{Error, Result};

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

/// Which worker to run, and how it stops.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WorkerSpec<'a> {
    /// The milptree binary.
    pub program: &'a Path,
    /// The hidden command that makes it the worker, e.g. `highs-worker`.
    pub command: &'a str,
    /// The solver's name, for messages.
    pub solver: &'a str,
    /// For a worker that stops cleanly on `SIGTERM`: how long it has to do so after an
    /// interrupt before it is killed. `None`: it is killed at once.
    pub stop_grace: Option<Duration>,
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
    /// The text of its result line, after the prefix.
    pub result: Option<String>,
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

    /// Why a worker that was not stopped left no usable result, in words: how it ended,
    /// `problem` (why its result line is unusable, or empty when it wrote none) and its last
    /// lines.
    pub(crate) fn failure(&self, solver: &str, problem: &str) -> String {
        let status = self.status_text();
        let how = if problem.is_empty() {
            format!("ended with {status} before reporting a result")
        } else {
            format!("ended with {status}: {problem}")
        };
        let lines = if self.last_lines.is_empty() {
            "it printed nothing".to_string()
        } else {
            format!("its last lines: {}", self.last_lines.join(" | "))
        };
        format!("the {solver} worker {how}; {lines}")
    }
}

enum Message {
    Line(String),
    Result(String),
}

/// Writes a job to the worker's stdin (on a thread of its own, while the parent watches the
/// clock: a large model takes time to write).
pub(crate) type JobWriter = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()> + Send>;

/// The writer of the job `job`, as JSON.
pub(crate) fn json_job<T: serde::Serialize + Send + 'static>(job: T) -> JobWriter {
    Box::new(move |out: &mut dyn Write| {
        let mut buffered = std::io::BufWriter::with_capacity(1 << 20, out);
        serde_json::to_writer(&mut buffered, &job)?;
        buffered.flush()
    })
}

/// Runs the worker `spec` on the job `job` writes: see the module documentation. `on_line`
/// sees every line of the worker's output (log and events) as it arrives.
pub(crate) fn supervise(
    spec: &WorkerSpec<'_>,
    job: JobWriter,
    deadline: Option<Instant>,
    interrupt: Option<&AtomicBool>,
    on_line: &mut dyn FnMut(&str) -> LineAction,
) -> Result<Finished> {
    let mut child = spawn(spec)?;
    let (sender, receiver) = mpsc::channel();
    let feeder = child.stdin.take().map(|mut stdin| {
        thread::spawn(move || {
            // A worker that dies early closes its stdin: its exit status tells why.
            let _ = job(&mut stdin);
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
    let outcome = watch(&mut child, spec, &receiver, deadline, interrupt, on_line);
    // Whatever happened, the worker does not outlive the solve.
    if outcome.is_err() {
        let _ = child.kill();
        let _ = child.wait();
    }
    for handle in readers.into_iter().flatten() {
        let _ = handle.join();
    }
    // The feeder is not waited for: once the worker has ended, its write fails at once, and
    // freeing a large job's memory is no reason to keep the caller past its limit.
    drop(feeder);
    outcome
}

fn spawn(spec: &WorkerSpec<'_>) -> Result<Child> {
    let mut command = Command::new(spec.program);
    command
        .arg(spec.command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let parent = libc::pid_t::try_from(std::process::id()).unwrap_or(0);
    let block_stop = spec.stop_grace.is_some();
    // SAFETY: the closure runs in the child between fork and exec and only makes
    // async-signal-safe system calls (`prctl`, `getppid`, `sigemptyset`, `sigaddset`,
    // `sigprocmask` on a set on its own stack); `_exit` ends a child whose parent died before
    // the death signal was armed.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            if block_stop {
                // Kept pending across `exec` until the worker catches it.
                let mut set: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut set);
                libc::sigaddset(&mut set, libc::SIGTERM);
                if libc::sigprocmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    command.spawn().map_err(|e| Error::Solver {
        solver: spec.solver.to_string(),
        message: format!(
            "cannot start the {} worker {}: {e}",
            spec.solver,
            spec.program.display()
        ),
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

/// Follows the worker until it ends; stops it on an interrupt or at the deadline.
fn watch(
    child: &mut Child,
    spec: &WorkerSpec<'_>,
    receiver: &Receiver<Message>,
    deadline: Option<Instant>,
    interrupt: Option<&AtomicBool>,
    on_line: &mut dyn FnMut(&str) -> LineAction,
) -> Result<Finished> {
    let mut last_lines = VecDeque::with_capacity(KEPT_LINES + 1);
    let mut result = None;
    let mut stopped = None;
    // When a worker asked to stop cleanly is killed if it still runs.
    let mut kill_at: Option<Instant> = None;
    let mut streams_open = true;
    loop {
        if streams_open {
            match receiver.recv_timeout(POLL) {
                Ok(Message::Line(line)) => {
                    if on_line(&line) == LineAction::Abort {
                        signal(child, libc::SIGABRT);
                    }
                    if !line.starts_with(EVENT_PREFIX) {
                        last_lines.push_back(line);
                        if last_lines.len() > KEPT_LINES {
                            last_lines.pop_front();
                        }
                    }
                }
                Ok(Message::Result(text)) => result = Some(text),
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
        let now = Instant::now();
        let past_deadline = deadline.is_some_and(|deadline| now >= deadline);
        if stopped.is_none() && interrupt.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            stopped = Some(Stop::Interrupted);
            match spec.stop_grace {
                Some(grace) if !past_deadline => {
                    signal(child, libc::SIGTERM);
                    kill_at = Some(now + grace);
                }
                // Killing an already reaped child fails harmlessly.
                _ => drop(child.kill()),
            }
        } else if stopped.is_none() && past_deadline {
            stopped = Some(Stop::Deadline);
            drop(child.kill());
        } else if kill_at.is_some_and(|at| now >= at) || (kill_at.is_some() && past_deadline) {
            kill_at = None;
            drop(child.kill());
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
        solver: "worker".to_string(),
        message: format!("cannot wait for a solver worker: {error}"),
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
        run_with_grace(body, deadline, interrupt, None)
    }

    fn run_with_grace(
        body: &str,
        deadline: Option<Duration>,
        interrupt: Option<&AtomicBool>,
        stop_grace: Option<Duration>,
    ) -> Finished {
        let (_dir, program) = fake_worker(body);
        let deadline = deadline.map(|d| Instant::now() + d);
        let mut lines = Vec::new();
        let mut on_line = |line: &str| {
            lines.push(line.to_string());
            LineAction::Continue
        };
        let spec = WorkerSpec {
            program: &program,
            command: "test-worker",
            solver: "test",
            stop_grace,
        };
        // Another test's fork may still hold the script open for writing when this one
        // executes it (ETXTBSY, "Text file busy"): that start is tried again.
        for _ in 0..20 {
            let job = json_job(serde_json::json!({}));
            match supervise(&spec, job, deadline, interrupt, &mut on_line) {
                Err(error) if error.to_string().contains("Text file busy") => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                result => return result.expect("supervised"),
            }
        }
        panic!("the test worker stayed busy")
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
        let text = finished.result.expect("a result");
        let result: super::super::protocol::WireOutcome =
            serde_json::from_str(&text).expect("readable");
        assert_eq!(result.objective, Some(1.5));
        assert!(finished.status.success());
    }

    #[test]
    fn an_interrupted_worker_that_stops_cleanly_gives_its_result() {
        // SIGTERM is blocked from the start: raised before the trap is set, the flag's
        // signal waits for it. Event lines are not kept among the last lines.
        let flag = AtomicBool::new(true);
        let started = Instant::now();
        let finished = run_with_grace(
            &format!(
                "echo '{EVENT_PREFIX}{{}}'; trap 'echo {RESULT_PREFIX}done; exit 0' TERM; \
                 echo ready; while true; do sleep 0.05; done"
            ),
            None,
            Some(&flag),
            Some(Duration::from_secs(5)),
        );
        assert!(started.elapsed() < Duration::from_secs(4));
        assert_eq!(finished.stopped, Some(Stop::Interrupted));
        assert_eq!(finished.result.as_deref(), Some("done"));
        assert!(finished.status.success(), "{}", finished.status_text());
        assert_eq!(finished.last_lines, vec!["ready".to_string()]);
    }

    #[test]
    fn a_worker_that_ignores_the_stop_is_killed_after_the_grace() {
        let flag = AtomicBool::new(true);
        let started = Instant::now();
        let finished = run_with_grace(
            "trap '' TERM; exec sleep 30",
            None,
            Some(&flag),
            Some(Duration::from_millis(300)),
        );
        let seconds = started.elapsed().as_secs_f64();
        assert!((0.3..2.0).contains(&seconds), "{seconds} s");
        assert_eq!(finished.stopped, Some(Stop::Interrupted));
        assert_eq!(finished.status.signal(), Some(libc::SIGKILL));
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
