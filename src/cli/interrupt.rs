//! Ctrl-C during a solve: the first press asks the solver to stop and report its best solution
//! (HiGHS stops at its next check; CBC's worker process is killed, see `solver::cbc`), a
//! second press exits at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use crate::noteln;

/// The process's interrupt flag, with the Ctrl-C handler installed on first use.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = Arc::clone(&flag);
        let installed = ctrlc::set_handler(move || {
            if handler_flag.swap(true, Ordering::SeqCst) {
                noteln!("\ninterrupted again: exiting");
                std::process::exit(130);
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
