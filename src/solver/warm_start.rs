//! Warm starts: checked against the model before solving, and judged after solving.
//!
//! Acceptance is decided from what the solver reports, never guessed (`tol` is
//! [`crate::mip::FEASIBILITY_TOLERANCE`] times `max(1, |start objective|)`):
//! - the solver reported its first incumbent: accepted if its objective is at most the start's
//!   plus `tol`;
//! - the solver ended without any incumbent: not accepted (both solvers keep an accepted start
//!   as their incumbent, even with a time limit of 0), unless an error or an interrupt stopped
//!   it, perhaps before it read the start (then it cannot be told);
//! - a solver that reports every incumbent (HiGHS) returned a solution without reporting any:
//!   that solution can only be the start, so accepted if its objective is at most the start's
//!   plus `tol`;
//! - a solver that does not report incumbents (CBC) returned a solution worse than the start:
//!   not accepted (an accepted start would have bounded it); otherwise it cannot be told.

use super::report::{SolveReport, Termination, WarmStartReport};
use crate::error::Result;
use crate::mip::{Assignment, MipModel, FEASIBILITY_TOLERANCE};

/// Checks `start` against `model`: its objective, feasibility and worst violation;
/// `accepted` is left undecided.
pub(crate) fn check_start(model: &MipModel, start: &Assignment) -> Result<WarmStartReport> {
    model.values_of(start)?;
    let feasibility = model.check(start);
    Ok(WarmStartReport {
        objective: model.objective_value(start),
        feasible: feasibility.feasible,
        violations: feasibility.violations,
        worst_violation: feasibility.worst,
        accepted: None,
    })
}

/// Whether the solver accepted a start of objective `start_objective`, from its report;
/// `observes_incumbents` says whether the solver reports every incumbent it finds.
pub(crate) fn accepted(
    start_objective: f64,
    report: &SolveReport,
    observes_incumbents: bool,
) -> Option<bool> {
    let tolerance = FEASIBILITY_TOLERANCE * 1f64.max(start_objective.abs());
    let at_least_as_good = |objective: f64| objective <= start_objective + tolerance;
    if let Some(first) = report.first_incumbent {
        return Some(at_least_as_good(first));
    }
    let Some(objective) = report.objective.filter(|_| report.has_solution) else {
        // Stopped by an error, an interrupt or a limit of its options, the solver may not have
        // read the start yet.
        let stopped_early = matches!(
            report.termination,
            Termination::Error(_) | Termination::Interrupted | Termination::SolverLimit
        );
        return if stopped_early { None } else { Some(false) };
    };
    if observes_incumbents {
        Some(at_least_as_good(objective))
    } else if at_least_as_good(objective) {
        None
    } else {
        Some(false)
    }
}
