//! Solving a [`MipModel`] with HiGHS or CBC, behind one [`Backend`] trait, with a report that
//! tells the whole truth: figures a solver does not give are `None`, never invented.
//!
//! [`solve`] is the one entry point for a model, [`solve_file`] the one for a model file. They
//! are the one place where the options ([`SolveOptions::validate`]), the model and the warm
//! start (its length, objective, feasibility and worst violation, see [`WarmStartReport`]) are
//! checked; the backends (behind the crate-private `Backend` trait) trust them. [`solve`] runs
//! the backend,
//! settles "infeasible or unbounded" verdicts with a feasibility solve, computes the gaps with
//! one formula for every solver ([`gaps`]: `abs_gap = max(0, objective - bound)`,
//! `rel_gap = abs_gap / |objective|`, 0 when `abs_gap` is 0, `None` when the objective is 0 and
//! the gap is not), decides whether the warm start was accepted, and checks the returned
//! solution against the model.
//!
//! Both backends load the model from our record (so the solvers see exactly the model that is
//! checked and exported), minimise with the objective constant included in every figure, and
//! default to a relative gap of 0: "optimal" means optimal. With a positive `mip_rel_gap` the
//! solvers stop on their own gap formulas (their denominators differ slightly); the reported
//! gaps always use ours.
//!
//! Both backends run each solve in a worker process of their own ([`worker`]: the milptree
//! binary run as a hidden command): the parent owns the wall clock and Ctrl-C whatever phase
//! the solver is in, and a crash is a `solver_error` report, not the end of the caller. What
//! each backend can tell (established by experiment, see the backends' documentation):
//! - HiGHS reports every improving solution (with its values) and, periodically, its bound,
//!   through callbacks that its worker turns into events: the trajectory has a point per
//!   incumbent and bound movements, `time_to_first_incumbent` is known, its log can be routed
//!   to stderr. Ctrl-C asks the worker to stop (HiGHS then returns its best solution); the
//!   worker is killed [`highs::KILL_GRACE`] seconds past the limit or [`highs::STOP_GRACE`]
//!   after an interrupt it did not heed (presolve and probing never check), the report keeping
//!   the last incumbent and its values.
//! - CBC's log, read by the parent as it is printed, gives the same figures: a trajectory point
//!   per incumbent and bound movement, `time_to_first_incumbent`, the warm start's acceptance.
//!   Its worker is killed [`cbc::KILL_GRACE`] seconds past the limit and at once on an
//!   interrupt. Its solution values come only at the end (see [`cbc`] for what a killed worker
//!   leaves).

pub mod cbc;
mod cutoff;
mod gap;
pub mod highs;
mod kind;
mod options;
mod outcome;
pub(crate) mod progress;
mod report;
mod warm_start;
mod watch;
pub mod worker;

use std::path::Path;
use std::time::{Duration, Instant};

pub use gap::gaps;
pub use kind::{SolverKind, CBC_BUILT_IN, CBC_MISSING};
pub use options::{check_threads, machine_threads, Progress, SolveOptions};
pub use report::{FileSolved, SolveReport, Solved, Termination, TrajectoryPoint, WarmStartReport};
pub use watch::{Watch, WatchPoint};

use crate::error::Result;
use crate::mip::{Expression, MipModel};
use kind::backend;

/// A solver. Its methods run on options, model and start already checked by [`solve`] or
/// [`solve_file`].
pub(crate) trait Backend: Send + Sync {
    /// `highs` or `cbc`.
    fn name(&self) -> &'static str;

    /// The solver library's version, e.g. `1.15.0`.
    fn version(&self) -> String;

    /// Runs the solver on `model` with `options`. The report holds what the solver says; the
    /// gaps, the warm-start verdict and the solution check are left to [`solve`], which should
    /// be used instead.
    fn solve(&self, model: &MipModel, options: &SolveOptions) -> Result<Solved>;

    /// Whether the solver reports every incumbent it finds while it runs.
    fn observes_incumbents(&self) -> bool;

    /// Checks solver options (`SolveOptions::solver_options`) before any solve, as far as the
    /// solver can tell; by default it cannot, and they are checked when a solve sets them.
    fn check_options(&self, _options: &[(String, String)]) -> Result<()> {
        Ok(())
    }

    /// Reads a model file with the solver's own reader (`.mps` as free MPS, anything else as
    /// CPLEX LP) and solves it; `start` is a start file for it (HiGHS: a `.sol` file as
    /// written by [`MipModel::write_highs_solution`]; CBC: a `.mst` file as written by
    /// [`MipModel::write_mst`]). The gaps are computed; `options.warm_start` is ignored.
    fn solve_file(
        &self,
        path: &Path,
        start: Option<&Path>,
        options: &SolveOptions,
    ) -> Result<FileSolved>;
}

/// Checks the solver options `options` for the solver `kind` as far as it can tell without a
/// model: HiGHS refuses unknown names and values of the wrong type; CBC takes any name.
pub fn check_solver_options(kind: SolverKind, options: &[(String, String)]) -> Result<()> {
    backend(kind).check_options(options)
}

/// Solves `model` with the solver `kind`: see the module documentation.
pub fn solve(model: &MipModel, kind: SolverKind, options: &SolveOptions) -> Result<Solved> {
    solve_with(backend(kind).as_ref(), model, options)
}

/// Reads the model file `path` with the solver's own reader (`.mps` as free MPS, anything else
/// as CPLEX LP) and solves it; `start` is a start file for it (HiGHS: a `.sol` file as written
/// by [`MipModel::write_highs_solution`]; CBC: a `.mst` file as written by
/// [`MipModel::write_mst`]). The gaps are computed; `options.warm_start` is ignored.
pub fn solve_file(
    kind: SolverKind,
    path: &Path,
    start: Option<&Path>,
    options: &SolveOptions,
) -> Result<FileSolved> {
    options.validate()?;
    backend(kind).solve_file(path, start, options)
}

/// [`solve`] with a given backend.
pub(crate) fn solve_with(
    backend: &dyn Backend,
    model: &MipModel,
    options: &SolveOptions,
) -> Result<Solved> {
    let started = Instant::now();
    options.validate()?;
    model.validate()?;
    let start = match &options.warm_start {
        Some(start) => Some(warm_start::check_start(model, start)?),
        None => None,
    };
    let stopped = if options.interrupted() {
        Some(Termination::Interrupted)
    } else if options.budget.duration() == Some(Duration::ZERO) {
        Some(Termination::TimeLimit)
    } else {
        None
    };
    let mut solved = match stopped {
        Some(termination) => not_started(backend, model, options, start.as_ref(), termination),
        None => backend.solve(model, options)?,
    };
    if let (Some(given), Some(checked)) = (&options.warm_start, &start) {
        if checked.feasible {
            cutoff::settle(&mut solved, options, given, checked.objective);
        }
    }
    let report = &mut solved.report;
    if report.termination == Termination::InfeasibleOrUnbounded {
        settle_infeasible_or_unbounded(backend, model, options, started, report)?;
    }
    set_gaps(report);
    if let Some(mut start) = start {
        if !start.feasible {
            report.notes.push(format!(
                "the warm start is infeasible ({} violations); the solver was given it anyway",
                start.violations
            ));
        }
        start.accepted =
            warm_start::accepted(start.objective, report, backend.observes_incumbents());
        report.warm_start = Some(start);
    }
    if let Some(solution) = &solved.solution {
        let check = model.check(solution);
        if let Some(worst) = check.worst.as_ref().filter(|_| !check.feasible) {
            report.notes.push(format!(
                "the solver's solution violates {} `{}` by {} (our tolerance: {} relative)",
                worst.kind.name(),
                worst.name,
                worst.amount,
                crate::mip::FEASIBILITY_TOLERANCE
            ));
        }
        report.solution_check = Some(check);
    }
    report.error = report.termination.error_text().map(str::to_string);
    report.seconds = started.elapsed().as_secs_f64();
    Ok(solved)
}

/// The report of a solve stopped before the solver started (`termination`: no time was left
/// after the build and the warm start, or Ctrl-C came first): the solver is not started, and
/// the warm start, when it is feasible by our check (`start`), is the solution returned.
fn not_started(
    backend: &dyn Backend,
    model: &MipModel,
    options: &SolveOptions,
    start: Option<&WarmStartReport>,
    termination: Termination,
) -> Solved {
    let mut report = SolveReport::new(backend.name(), backend.version(), options);
    report.notes.push(match termination {
        Termination::Interrupted => "interrupted before the solver started".to_string(),
        _ => "no time was left for the solver: it was not started".to_string(),
    });
    report.termination = termination;
    let solution = match (&options.warm_start, start) {
        (Some(given), Some(checked)) if checked.feasible => {
            report.objective = Some(model.objective_value(given));
            report.has_solution = true;
            report.notes.push(
                "the warm start, feasible by our check, is the solution returned".to_string(),
            );
            Some(given.clone())
        }
        _ => None,
    };
    report.trajectory.push(TrajectoryPoint {
        seconds: 0.0,
        incumbent: report.objective,
        bound: None,
    });
    Solved { report, solution }
}

/// Sets `abs_gap` and `rel_gap` from the objective and bound of `report`.
pub(crate) fn set_gaps(report: &mut SolveReport) {
    let (abs_gap, rel_gap) = gaps(report.objective, report.best_bound);
    report.abs_gap = abs_gap;
    report.rel_gap = rel_gap;
}

/// The solver said "infeasible or unbounded": a solve of the same rows with a zero objective
/// tells which (feasible: unbounded; infeasible: infeasible), if time allows.
fn settle_infeasible_or_unbounded(
    backend: &dyn Backend,
    model: &MipModel,
    options: &SolveOptions,
    started: Instant,
    report: &mut SolveReport,
) -> Result<()> {
    let remaining = options.budget.left_since(started);
    if remaining.duration() == Some(Duration::ZERO) {
        report.notes.push(
            "the solver found the model infeasible or unbounded; no time was left to tell which"
                .to_string(),
        );
        return Ok(());
    }
    let mut feasibility = model.clone();
    feasibility.set_objective(Expression::default());
    let feasibility_options = SolveOptions {
        budget: remaining,
        warm_start: None,
        progress: Progress::Hidden,
        ..options.clone()
    };
    let verdict = backend.solve(&feasibility, &feasibility_options)?.report;
    let (termination, note) = match verdict.termination {
        Termination::Optimal => (
            Termination::Unbounded,
            "the solver found the model infeasible or unbounded; a solve with a zero objective \
             found a feasible point, so it is unbounded",
        ),
        Termination::Infeasible => (
            Termination::Infeasible,
            "the solver found the model infeasible or unbounded; a solve with a zero objective \
             proved it infeasible",
        ),
        _ => (
            Termination::InfeasibleOrUnbounded,
            "the solver found the model infeasible or unbounded; a solve with a zero objective \
             could not tell which",
        ),
    };
    report.termination = termination;
    report.notes.push(note.to_string());
    Ok(())
}

/// A model without variables, evaluated directly: optimal with the objective constant if every
/// row holds, infeasible otherwise.
pub(crate) fn solve_without_variables(
    backend: &dyn Backend,
    model: &MipModel,
    options: &SolveOptions,
) -> Result<Solved> {
    let started = Instant::now();
    let mut report = SolveReport::new(backend.name(), backend.version(), options);
    let empty = model.assignment_from_values(Vec::new())?;
    let feasible = model.check(&empty).feasible;
    let constant = model.objective_constant();
    report
        .notes
        .push("the model has no variables; it was evaluated without calling the solver".into());
    let solution = if feasible {
        report.termination = Termination::Optimal;
        report.has_solution = true;
        report.objective = Some(constant);
        report.best_bound = Some(constant);
        Some(empty)
    } else {
        report.termination = Termination::Infeasible;
        None
    };
    report.trajectory.push(TrajectoryPoint {
        seconds: started.elapsed().as_secs_f64(),
        incumbent: report.objective,
        bound: report.best_bound,
    });
    report.seconds = started.elapsed().as_secs_f64();
    Ok(Solved { report, solution })
}
