//! The report of a search that runs without a MILP (the exact search, its front, the sparse
//! search): the solver report's fields filled from the search's outcome, the check of its
//! objective against the plain evaluation of its tree, and the outcome of a search stopped
//! before it found any tree ([`stopped_without_tree`]).

use crate::budget::Budget;
use crate::dp::{DpProgress, DpTermination};
use crate::error::{Error, Result};
use crate::learn::{DecodeMismatch, Outcome, WarmStartMode};
use crate::solver::{gaps, SolveReport, Termination, TrajectoryPoint};

/// A search's termination as a solver's.
pub(crate) fn termination(termination: DpTermination) -> Termination {
    match termination {
        DpTermination::Optimal => Termination::Optimal,
        DpTermination::TimeLimit => Termination::TimeLimit,
        DpTermination::Interrupted => Termination::Interrupted,
    }
}

/// The report of search `solver` that ended with `termination`, its best tree of `objective`,
/// the lower bound `bound`, after `seconds`; its trajectory's first point is its first
/// incumbent.
pub(crate) fn search_report(
    solver: &str,
    stopped: DpTermination,
    (objective, bound): (f64, f64),
    seconds: f64,
    trajectory: &[DpProgress],
    time_limit: Option<f64>,
) -> SolveReport {
    let mut report = SolveReport {
        solver: solver.to_string(),
        solver_version: env!("CARGO_PKG_VERSION").to_string(),
        termination: termination(stopped),
        has_solution: true,
        objective: Some(objective),
        best_bound: Some(bound),
        seconds,
        time_to_first_incumbent: trajectory.first().map(|p| p.seconds),
        first_incumbent: trajectory.first().map(|p| p.incumbent),
        trajectory: trajectory
            .iter()
            .map(|p| TrajectoryPoint {
                seconds: p.seconds,
                incumbent: Some(p.incumbent),
                bound: Some(p.bound),
            })
            .collect(),
        time_limit,
        mip_rel_gap: 0.0,
        ..SolveReport::default()
    };
    (report.abs_gap, report.rel_gap) = gaps(report.objective, report.best_bound);
    report
}

/// The mismatch, if any, between the objective a search reports and the plain evaluation of
/// its tree (`None` when the tree does not fit the problem).
pub(crate) fn objective_mismatch(reported: f64, evaluated: Option<f64>) -> Option<DecodeMismatch> {
    match evaluated {
        Some(value) if (value - reported).abs() <= 1e-9 * value.abs().max(1.0) => None,
        other => Some(DecodeMismatch {
            solver_objective: reported,
            evaluated_objective: other.unwrap_or(f64::NAN),
            message: format!(
                "the search reports objective {reported}, but its tree evaluates to {other:?}"
            ),
        }),
    }
}

/// `found`, or, when the search stopped (the time limit, an interrupt) before it found any tree
/// that meets its limits ([`Error::NoTree`]: a cap on the rows of a leaf, or a rule on
/// features, that no tree it reached in time meets), the outcome of search `name` without a
/// tree: `has_solution` false, as a MILP stopped without a solution reports it, the reason in
/// its notes. A caller that needs the tree (a tree file) fails then.
pub(crate) fn stopped_without_tree(
    found: Result<Outcome>,
    (name, parameters, depth): (&'static str, serde_json::Value, usize),
    budget: &Budget,
    seconds: f64,
) -> Result<Outcome> {
    let why = match found {
        Err(Error::NoTree(why)) => why,
        other => return other,
    };
    let report = SolveReport {
        solver: name.to_string(),
        solver_version: env!("CARGO_PKG_VERSION").to_string(),
        termination: if budget.interrupted() {
            Termination::Interrupted
        } else {
            Termination::TimeLimit
        },
        has_solution: false,
        seconds,
        time_limit: budget.limit_seconds(),
        mip_rel_gap: 0.0,
        ..SolveReport::default()
    };
    Ok(Outcome {
        name,
        parameters,
        depth,
        report,
        model: None,
        search: None,
        sparse: None,
        warm_start_mode: WarmStartMode::None,
        solver_options: Vec::new(),
        warm_start_source: None,
        certificate: None,
        warm_start_tree: None,
        warm_start_objective: None,
        evaluated_objective: None,
        decode_mismatch: None,
        notes: vec![why],
        post_process: serde_json::Value::Null,
        tree: None,
        front: None,
        replaced: None,
        side_constraints: serde_json::Value::Null,
    })
}
