//! CBC when milptree is built without the `cbc` feature (the Python wheel): the backend's
//! functions, each refusing with the message of [`crate::solver::kind::CBC_MISSING`]. `--solver cbc` is refused
//! when it is parsed ([`crate::solver::SolverKind`]); these cover a backend reached otherwise.

use std::time::Instant;

use super::protocol::Job;
use crate::error::Result;
use crate::solver::kind::cbc_missing;
use crate::solver::outcome::Outcome;

/// What the report names as CBC's version: none is built in.
pub(crate) fn version() -> String {
    "not built in".to_string()
}

/// Refuses the job: there is no CBC to solve it with.
pub(crate) fn solve_job(_job: &Job, _started: Instant) -> Result<(Outcome, Option<Vec<String>>)> {
    Err(cbc_missing())
}

/// Refuses before a worker is started.
pub(crate) fn check() -> Result<()> {
    Err(cbc_missing())
}
