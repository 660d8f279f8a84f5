//! `milptree cbc-worker` (hidden): the child process that runs one CBC solve for a parent
//! milptree (see `solver::cbc`). It is not meant to be run by hand.

use crate::solver::cbc::worker_main;

/// Runs the worker; returns the process exit code.
pub fn run() -> i32 {
    worker_main()
}
