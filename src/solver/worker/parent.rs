//! Pieces of a backend's parent side that do not depend on the solver: the warm start as the
//! parent knows it ([`KnownStart`]), the worker's deadline ([`deadline`]), and the report and
//! solution made from a worker's outcome ([`solved`], [`file_solved`]).

use std::time::{Duration, Instant};

use crate::error::Result;
use crate::mip::MipModel;
use crate::solver::outcome::Outcome;
use crate::solver::progress::Monitor;
use crate::solver::report::{FileSolved, SolveReport, Solved};
use crate::solver::SolveOptions;

/// A warm start as the parent knows it: its values, its objective and our feasibility verdict.
pub(crate) struct KnownStart {
    pub values: Vec<f64>,
    pub objective: f64,
    pub feasible: bool,
}

impl KnownStart {
    /// The warm start of `options` for `model`, if any.
    pub(crate) fn of(model: &MipModel, options: &SolveOptions) -> Option<KnownStart> {
        options.warm_start.as_ref().map(|start| KnownStart {
            values: start.values().to_vec(),
            objective: model.objective_value(start),
            feasible: model.check(start).feasible,
        })
    }

    /// The objective cutoff the solver is given: the start's objective and a margin, when
    /// `options` ask for it and the start is feasible by our check.
    pub(crate) fn cutoff(&self, options: &SolveOptions) -> Option<f64> {
        (options.start_as_cutoff && self.feasible)
            .then(|| crate::solver::cutoff::cutoff_above(self.objective))
    }
}

/// The outcome of a solve interrupted after the model was handed over but before its worker
/// started (Ctrl-C while the model was converted): the warm start, when feasible by our
/// check, is its solution.
pub(crate) fn interrupted_before_worker(start: Option<&KnownStart>) -> Outcome {
    let start = start.filter(|s| s.feasible);
    Outcome {
        termination: crate::solver::Termination::Interrupted,
        objective: start.map(|s| s.objective),
        bound: None,
        nodes: None,
        values: start.map(|s| s.values.clone()),
        notes: vec!["interrupted before the solver's worker started".to_string()],
    }
}

/// When a worker still running is killed: `grace` seconds past the time limit of `options`,
/// `monitor` telling how much of it is gone; `None` without a limit or with one too far away to
/// be a clock time.
pub(crate) fn deadline(options: &SolveOptions, grace: f64, monitor: &Monitor) -> Option<Instant> {
    let limit = options.budget.limit_seconds()?;
    let left = (limit + grace - monitor.elapsed()).max(0.0);
    Duration::try_from_secs_f64(left)
        .ok()
        .and_then(|left| Instant::now().checked_add(left))
}

/// The report of a solve of `model` that started at `started`, completed from `outcome`, and
/// its solution.
pub(crate) fn solved(
    model: &MipModel,
    outcome: Outcome,
    mut report: SolveReport,
    monitor: Monitor,
    started: Instant,
) -> Result<Solved> {
    outcome.fill(&mut report, monitor);
    let solution = match outcome.values {
        Some(values) => Some(model.assignment_from_values(values)?),
        None => None,
    };
    report.seconds = started.elapsed().as_secs_f64();
    Ok(Solved { report, solution })
}

/// The report of a solve of a model file that started at `started`, completed from `outcome`
/// (gaps included), and its solution by column name (`names`).
pub(crate) fn file_solved(
    outcome: Outcome,
    names: Option<Vec<String>>,
    mut report: SolveReport,
    monitor: Monitor,
    started: Instant,
) -> FileSolved {
    outcome.fill(&mut report, monitor);
    let solution = match (outcome.values, names) {
        (Some(values), Some(names)) => Some(names.into_iter().zip(values).collect()),
        _ => None,
    };
    crate::solver::set_gaps(&mut report);
    report.seconds = started.elapsed().as_secs_f64();
    FileSolved { report, solution }
}
