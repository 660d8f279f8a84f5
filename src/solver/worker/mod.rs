//! Solver workers: every HiGHS and CBC solve runs in a child process, the milptree binary
//! itself run as a hidden command (`milptree highs-worker`, `milptree cbc-worker`). What is
//! shared by both lives here; each backend has its own job, its worker's solve and its reading
//! of the worker's output.
//!
//! - [`protocol`]: the job on the worker's stdin, its log, events and result on its stdout,
//!   and the column form of a model both solvers load.
//! - [`supervisor`] (parent side): starts the worker, follows its output, owns the wall clock
//!   and Ctrl-C (stops or kills it), and says how it ended.
//! - [`child`] (worker side): reads the job, runs the backend, writes the result.
//! - [`parent`]: the parent's pieces that do not depend on the solver (the warm start as it
//!   knows it, the deadline, the report from an outcome).
//! - [`program`]: which binary runs the workers.
//!
//! Why a process: the parent keeps its word on the time limit whatever phase the solver is in
//! (HiGHS's presolve and probing never look at the clock or the interrupt; CBC checks its
//! clock only between nodes), and a solver that crashes is a report, not the end of milptree
//! or of an experiment grid. A worker dies with its parent (Linux's parent-death signal).

pub(crate) mod child;
pub(crate) mod parent;
mod program;
pub(crate) mod protocol;
pub(crate) mod supervisor;

pub use program::{worker_program, workers_run_this_program, WORKER_ENV};

/// Set (to anything but the empty string) in the environment of the parent, it makes the
/// parent send `SIGABRT` to a worker right after the first incumbent appears in its output: a
/// crash on purpose, for tests.
pub const ABORT_AFTER_FIRST_INCUMBENT_ENV: &str =
    "MILPTREE_TEST_ABORT_WORKER_AFTER_FIRST_INCUMBENT";

/// Whether [`ABORT_AFTER_FIRST_INCUMBENT_ENV`] is set.
pub(crate) fn abort_after_first_incumbent() -> bool {
    std::env::var_os(ABORT_AFTER_FIRST_INCUMBENT_ENV).is_some_and(|v| !v.is_empty())
}
