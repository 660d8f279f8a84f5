//! `milptree cbc-worker` and `milptree highs-worker` (hidden): the child processes that run
//! one solve for a parent milptree (see `solver::worker`). They are not meant to be run by hand.

/// Runs a CBC worker; returns the process exit code.
pub fn run_cbc() -> i32 {
    crate::solver::cbc::worker_main()
}

/// Runs a HiGHS worker; returns the process exit code.
pub fn run_highs() -> i32 {
    crate::solver::highs::worker_main()
}
