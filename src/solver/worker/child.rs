//! The worker's side, whatever the solver: [`serve`] reads the job on stdin, makes the C
//! library's stdout line-buffered (so that a solver's log reaches the parent line by line, as
//! it is printed, and a crash loses at most an unfinished line), runs the backend's solve, and
//! writes the result line after the log (see [`super::protocol`]). Errors go to stderr; the
//! exit code is 0 when a result was written, 1 otherwise. [`emit_event`] writes an event line.
#![allow(unsafe_code)]

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde::de::DeserializeOwned;

use super::protocol::{Event, Job, WireOutcome, EVENT_PREFIX, RESULT_PREFIX};
use crate::solver::outcome::Outcome;

extern "C" {
    /// The C library's standard output stream (glibc exports it under this name).
    static mut stdout: *mut libc::FILE;
}

/// What a backend's worker returns: the outcome, and the column names of a model file.
pub(crate) type Solution = (Outcome, Option<Vec<String>>);

/// Raised by `SIGTERM` in a worker that called [`catch_stop`]: the parent asks it to stop.
static STOP_ASKED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_stop(_signal: libc::c_int) {
    STOP_ASKED.store(true, Ordering::Relaxed);
}

/// Makes `SIGTERM` raise [`stop_asked`] instead of ending the process, and unblocks it (the
/// parent starts the worker with it blocked, so one sent before now is delivered here).
pub(crate) fn catch_stop() {
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe; the signal
    // set lives on this stack for the calls.
    unsafe {
        libc::signal(
            libc::SIGTERM,
            on_stop as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGTERM);
        libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
    }
}

/// Whether the parent asked this worker to stop.
pub(crate) fn stop_asked() -> bool {
    STOP_ASKED.load(Ordering::Relaxed)
}

/// Writes `event` as an event line on stdout (ignored if stdout is gone: the parent is).
pub(crate) fn emit_event(event: &Event) {
    if let Ok(line) = serde_json::to_string(event) {
        let mut out = io::stdout().lock();
        let _ = writeln!(out, "{EVENT_PREFIX}{line}");
        let _ = out.flush();
    }
}

/// Runs a worker named `name` whose job is a `Job<P, S>`, solved by `solve` (given the job and
/// when the worker started); returns the process exit code.
pub(crate) fn serve<P, S>(
    name: &str,
    solve: impl FnOnce(&Job<P, S>, Instant) -> Result<Solution, String>,
) -> i32
where
    P: DeserializeOwned,
    S: DeserializeOwned,
{
    let started = Instant::now();
    // SAFETY: `stdout` is the C library's initialised stream; nothing has been written to it
    // yet, which `setvbuf` requires.
    unsafe {
        libc::setvbuf(stdout, std::ptr::null_mut(), libc::_IOLBF, 0);
    }
    match run(started, solve) {
        Ok(()) => 0,
        Err(message) => {
            crate::noteln!("milptree {name}: {message}");
            1
        }
    }
}

fn run<P, S>(
    started: Instant,
    solve: impl FnOnce(&Job<P, S>, Instant) -> Result<Solution, String>,
) -> Result<(), String>
where
    P: DeserializeOwned,
    S: DeserializeOwned,
{
    let mut text = String::new();
    io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| format!("cannot read the job on stdin: {e}"))?;
    let job: Job<P, S> = serde_json::from_str(&text).map_err(|e| format!("not a job: {e}"))?;
    drop(text);
    if let Some(reason) = job.incompatibility() {
        return Err(reason);
    }
    let (outcome, column_names) = solve(&job, started)?;
    let line = serde_json::to_string(&WireOutcome::new(outcome, column_names))
        .map_err(|e| format!("the result does not serialise: {e}"))?;
    // SAFETY: flushing the C stream the solver printed to, so its last log lines come first.
    unsafe {
        libc::fflush(stdout);
    }
    let mut out = io::stdout().lock();
    writeln!(out, "{RESULT_PREFIX}{line}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write the result: {e}"))
}
