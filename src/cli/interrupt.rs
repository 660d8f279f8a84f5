//! Ctrl-C during a solve: the first press asks the solver to stop and report its best solution
//! (HiGHS stops at its next check; CBC's worker process is killed, see `solver::cbc`), a
//! second press exits at once. A command that the first press stopped writes what it has and
//! then exits with 130, the shell's code for an interrupt ([`INTERRUPTED_EXIT_CODE`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use crate::noteln;

/// The exit code of a command stopped by Ctrl-C (128 + SIGINT).
pub const INTERRUPTED_EXIT_CODE: i32 = 130;

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Whether Ctrl-C was pressed during this process's command (never, when no command asked
/// for the flag).
pub fn was_interrupted() -> bool {
    FLAG.get().is_some_and(|flag| flag.load(Ordering::SeqCst))
}

/// The process's interrupt flag, with the Ctrl-C handler installed on first use.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = Arc::clone(&flag);
        let installed = ctrlc::set_handler(move || {
            if handler_flag.swap(true, Ordering::SeqCst) {
                noteln!("\ninterrupted again: exiting");
                std::process::exit(INTERRUPTED_EXIT_CODE);
            }
            noteln!("\ninterrupt: stopping the solver (press Ctrl-C again to exit now)");
        });
        if let Err(error) = installed {
            noteln!("warning: cannot catch Ctrl-C ({error}); it will end the process");
        }
        flag
    })
    .clone()
}
