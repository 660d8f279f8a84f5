//! The process's standard streams: the one place milptree writes to stdout and stderr.
//!
//! - Results (reports, trees, predictions, and `predict`'s metrics on stderr) go through
//!   [`outln!`](crate::outln), [`out!`](crate::out) and [`errln!`](crate::errln), which
//!   return an error when the stream cannot be written ([`Error::Stream`]). A closed pipe
//!   ([`Error::is_closed_pipe`], e.g. `| head -1`) is not a failure: the command line then
//!   ends quietly with exit 0.
//! - Diagnostics (warnings, notes, solver logs, error messages) go through
//!   [`noteln!`](crate::noteln) and [`note`], best effort: a stderr that cannot be written
//!   loses them but never stops the work, and never panics (`println!` and `eprintln!` panic
//!   on a write error).
//!
//! A standard stream the process was started without (`>&-`) is an error at the first result
//! written to it, not output silently lost ([`closed_at_start`]).
//!
//! Each write is flushed at once, so an error surfaces at the write that caused it. Output can
//! be captured in memory for the current thread ([`capture`]), which runs the command line in
//! process (tests, embedding); writes from other threads (the Ctrl-C handler, the progress
//! bars) still go to the real streams.

use std::cell::RefCell;
use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};

/// A standard stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    /// `stdout` or `stderr`, as in messages.
    pub fn name(self) -> &'static str {
        match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        }
    }
}

/// What the command line wrote while its output was captured.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Captured {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

thread_local! {
    static CAPTURE: RefCell<Option<Captured>> = const { RefCell::new(None) };
}

/// Whether the process was started without stdout, and without stderr: noted before `main`
/// ([`note_closed_streams`]), because Rust's runtime then puts `/dev/null` on a closed
/// standard stream, where results would be lost without an error.
static CLOSED_AT_START: [AtomicBool; 2] = [AtomicBool::new(false), AtomicBool::new(false)];

/// Runs [`note_closed_streams`] when the program is loaded, before Rust's runtime starts.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
#[used]
#[link_section = ".init_array"]
static NOTE_CLOSED_STREAMS: extern "C" fn() = note_closed_streams;

/// Notes which of stdout and stderr are closed (see [`CLOSED_AT_START`]).
#[allow(unsafe_code)]
extern "C" fn note_closed_streams() {
    for (fd, closed) in [libc::STDOUT_FILENO, libc::STDERR_FILENO]
        .into_iter()
        .zip(&CLOSED_AT_START)
    {
        // SAFETY: F_GETFD only reads the descriptor's flags; a closed descriptor gives -1.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
            closed.store(true, Ordering::Relaxed);
        }
    }
}

/// Whether the process was started without `stream` (on Linux; elsewhere `false`).
pub fn closed_at_start(stream: Stream) -> bool {
    let index = match stream {
        Stream::Stdout => 0,
        Stream::Stderr => 1,
    };
    CLOSED_AT_START[index].load(Ordering::Relaxed)
}

/// Runs `work` with this thread's output captured in memory, and returns its result with
/// what it wrote. Captures nest: the outer capture is restored afterwards, even if `work`
/// panics.
pub fn capture<R>(work: impl FnOnce() -> R) -> (R, Captured) {
    struct Restore(Option<Captured>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            CAPTURE.with_borrow_mut(|capture| *capture = outer);
        }
    }
    let outer = CAPTURE.with_borrow_mut(|capture| capture.replace(Captured::default()));
    let restore = Restore(outer);
    let result = work();
    let captured = CAPTURE.with_borrow_mut(Option::take).unwrap_or_default();
    drop(restore);
    (result, captured)
}

/// Whether this thread's output is being captured.
pub fn is_captured() -> bool {
    CAPTURE.with_borrow(Option::is_some)
}

/// Writes `args` to `stream` and flushes it.
fn write(stream: Stream, args: fmt::Arguments<'_>) -> io::Result<()> {
    let captured = CAPTURE.with_borrow_mut(|capture| {
        capture.as_mut().map(|captured| match stream {
            Stream::Stdout => captured.stdout.write_fmt(args),
            Stream::Stderr => captured.stderr.write_fmt(args),
        })
    });
    if let Some(result) = captured {
        return result;
    }
    if closed_at_start(stream) {
        return Err(io::Error::from_raw_os_error(libc::EBADF));
    }
    match stream {
        Stream::Stdout => {
            let mut out = io::stdout().lock();
            out.write_fmt(args)?;
            out.flush()
        }
        Stream::Stderr => {
            let mut err = io::stderr().lock();
            err.write_fmt(args)?;
            err.flush()
        }
    }
}

/// Writes a result to `stream`; a write error is [`Error::Stream`].
pub fn print(stream: Stream, args: fmt::Arguments<'_>) -> Result<()> {
    write(stream, args).map_err(|source| Error::Stream {
        stream: stream.name(),
        source,
    })
}

/// Writes a diagnostic to stderr, best effort: a write error is ignored.
pub fn note(args: fmt::Arguments<'_>) {
    let _ = write(Stream::Stderr, args);
}

/// Writes to stdout like `print!`; evaluates to `Result<()>`.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::console::print($crate::console::Stream::Stdout, format_args!($($arg)*))
    };
}

/// Writes a line to stdout like `println!`; evaluates to `Result<()>`.
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::console::print(
            $crate::console::Stream::Stdout,
            format_args!("{}\n", format_args!($($arg)*)),
        )
    };
}

/// Writes a line of results to stderr like `eprintln!`; evaluates to `Result<()>`.
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::console::print(
            $crate::console::Stream::Stderr,
            format_args!("{}\n", format_args!($($arg)*)),
        )
    };
}

/// Writes a diagnostic line to stderr like `eprintln!`, best effort (write errors are ignored).
#[macro_export]
macro_rules! noteln {
    ($($arg:tt)*) => {
        $crate::console::note(format_args!("{}\n", format_args!($($arg)*)))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_nest_and_restore_the_outer_capture() {
        let ((inner, ()), outer) = capture(|| {
            crate::outln!("outer {}", 1).expect("captured");
            let inner = capture(|| {
                crate::out!("inner").expect("captured");
                crate::noteln!("note");
            });
            crate::errln!("back").expect("captured");
            (inner, ())
        });
        assert_eq!(outer.stdout, b"outer 1\n");
        assert_eq!(outer.stderr, b"back\n");
        assert_eq!(inner.1.stdout, b"inner");
        assert_eq!(inner.1.stderr, b"note\n");
        assert!(!is_captured());
    }

    #[test]
    fn a_panic_inside_a_capture_restores_the_streams() {
        let result = std::panic::catch_unwind(|| capture(|| panic!("inside")));
        assert!(result.is_err());
        assert!(!is_captured());
    }
}
