//! The HiGHS worker: the child process that runs one HiGHS solve ([`worker_main`], behind the
//! hidden `milptree highs-worker` command), through the shared worker side
//! ([`crate::solver::worker::child`]). It catches `SIGTERM` (the parent's interrupt) and stops
//! HiGHS at its next check, which then returns its best solution.

use super::library::solve_job;
use crate::solver::worker::child::{catch_stop, serve};

/// Runs the worker on this process's standard streams; returns the process exit code.
pub fn worker_main() -> i32 {
    catch_stop();
    serve("highs-worker", |job, started| {
        solve_job(job, started).map_err(|e| e.to_string())
    })
}
