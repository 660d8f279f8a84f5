//! Points the process's standard output at standard error for a while: CBC writes its log to
//! stdout, which is reserved for results (`--json` prints its document there), so a CBC solve
//! with the log on runs inside a [`StdoutToStderr`] guard.
//!
//! File descriptor 1 is shared by the whole process: while the guard lives, anything written
//! to stdout by any thread goes to stderr. Only solves with the log on use it.
#![allow(unsafe_code)]

use std::io::{self, Write};

/// While alive, file descriptor 1 refers to what file descriptor 2 refers to.
#[derive(Debug)]
pub(crate) struct StdoutToStderr {
    saved: libc::c_int,
}

impl StdoutToStderr {
    /// Flushes every buffered stdout and redirects file descriptor 1 to file descriptor 2.
    pub(crate) fn new() -> io::Result<StdoutToStderr> {
        io::stdout().flush()?;
        flush_c_streams();
        // SAFETY: `dup` only duplicates a descriptor; 1 is open for the life of the process.
        let saved = unsafe { libc::dup(libc::STDOUT_FILENO) };
        if saved < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: both descriptors are open; `dup2` atomically makes 1 refer to stderr's file.
        if unsafe { libc::dup2(libc::STDERR_FILENO, libc::STDOUT_FILENO) } < 0 {
            let error = io::Error::last_os_error();
            // SAFETY: `saved` is a descriptor we own and no longer need.
            unsafe { libc::close(saved) };
            return Err(error);
        }
        Ok(StdoutToStderr { saved })
    }
}

impl Drop for StdoutToStderr {
    fn drop(&mut self) {
        let _ = io::stdout().flush();
        flush_c_streams();
        // SAFETY: `saved` is the descriptor duplicated in `new`, still open and owned by us;
        // restoring it on 1 and closing our copy leaves the process as it was.
        unsafe {
            libc::dup2(self.saved, libc::STDOUT_FILENO);
            libc::close(self.saved);
        }
    }
}

/// Flushes the C library's output buffers (where CBC's messages wait).
fn flush_c_streams() {
    // SAFETY: `fflush(NULL)` flushes all open C output streams; it takes no pointer we own.
    unsafe {
        libc::fflush(std::ptr::null_mut());
    }
}
