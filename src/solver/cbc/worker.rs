//! The CBC worker: the child process that runs one CBC solve ([`worker_main`], behind the
//! hidden `milptree cbc-worker` command), through the shared worker side
//! ([`crate::solver::worker::child`]).

use super::library::solve_job;
use crate::solver::worker::child::serve;

/// Runs the worker on this process's standard streams; returns the process exit code.
pub fn worker_main() -> i32 {
    serve("cbc-worker", |job, started| {
        solve_job(job, started).map_err(|e| e.to_string())
    })
}
