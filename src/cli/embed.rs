//! The command line for programs that embed the library (the Python package): a command line
//! given as a list of words run in this process, and what `solve` refuses after a run. (The
//! settings of a run are the library's, [`crate::learn::settings`].)

use std::ffi::OsString;

use crate::error::{Error, Result};
use crate::learn::certificate::Verdict;
use crate::learn::{Method, Outcome};

/// Runs the command line `args` (the program name first) in this process, printing to the
/// standard streams, and returns its exit code. Solves that need a worker process find it as
/// any library caller does ([`crate::solver::worker::worker_program`]).
pub fn run_command_line(args: Vec<OsString>) -> i32 {
    super::exit_code(args)
}

/// What `solve` refuses after a run, as an error: a certificate that contradicts the solver,
/// and a run that failed (infeasible, unbounded, a solver error) or found no tree.
pub fn refuse_failed_run(method: &Method, outcome: &Outcome) -> Result<()> {
    let failure = |message: String| Error::Solver {
        solver: method.solver_name().to_string(),
        message,
    };
    if let Some(certificate) = outcome
        .certificate
        .as_ref()
        .filter(|c| c.verdict == Verdict::Contradiction)
    {
        return Err(failure(format!(
            "CONTRADICTION: {}. This is a bug in the solver or in milptree's model",
            certificate.message
        )));
    }
    let termination = &outcome.report.termination;
    if termination.is_failure(outcome.report.has_solution) || outcome.tree.is_none() {
        let tree = if outcome.tree.is_some() {
            "the tree reported is the solver's last incumbent"
        } else {
            "no tree"
        };
        return Err(failure(format!(
            "{tree}: the solve ended with {termination}"
        )));
    }
    Ok(())
}
