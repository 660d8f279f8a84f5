//! The CBC worker: the child process that runs one CBC solve ([`worker_main`], behind the
//! hidden `milptree cbc-worker` command). It reads a [`Job`] from stdin, makes its C stdout
//! line-buffered (so that CBC's log reaches the parent line by line, as it is printed, and a
//! crash loses at most an unfinished line), solves, and writes the result line after the log
//! (see [`super::protocol`]). Errors go to stderr; the exit code is 0 when a result was
//! written, 1 otherwise.
#![allow(unsafe_code)]

use std::io::{self, Read, Write};
use std::time::Instant;

use super::library::solve_job;
use super::protocol::{Job, WireOutcome, RESULT_PREFIX};

extern "C" {
    /// The C library's standard output stream (glibc exports it under this name).
    static mut stdout: *mut libc::FILE;
}

/// Runs the worker on this process's standard streams; returns the process exit code.
pub fn worker_main() -> i32 {
    let started = Instant::now();
    // SAFETY: `stdout` is the C library's initialised stream; nothing has been written to it
    // yet, which `setvbuf` requires.
    unsafe {
        libc::setvbuf(stdout, std::ptr::null_mut(), libc::_IOLBF, 0);
    }
    match run(started) {
        Ok(()) => 0,
        Err(message) => {
            crate::noteln!("milptree cbc-worker: {message}");
            1
        }
    }
}

fn run(started: Instant) -> Result<(), String> {
    let mut text = String::new();
    io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| format!("cannot read the job on stdin: {e}"))?;
    let job: Job = serde_json::from_str(&text).map_err(|e| format!("not a job: {e}"))?;
    if let Some(reason) = job.incompatibility() {
        return Err(reason);
    }
    let (outcome, column_names) = solve_job(&job, started).map_err(|e| e.to_string())?;
    let line = serde_json::to_string(&WireOutcome::new(outcome, column_names))
        .map_err(|e| format!("the result does not serialise: {e}"))?;
    // SAFETY: flushing the C stream CBC printed to, so its last log lines come before ours.
    unsafe {
        libc::fflush(stdout);
    }
    let mut out = io::stdout().lock();
    writeln!(out, "{RESULT_PREFIX}{line}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write the result: {e}"))
}
