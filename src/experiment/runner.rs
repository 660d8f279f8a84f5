//! The in-process runner: every configuration of a grid not yet in the results is solved, in
//! grid order, and recorded as soon as it finishes (row, trajectory, tables), so that an
//! interrupted grid resumes where it stopped.
//!
//! Each run is claimed in the results directory before it is solved and until it is recorded
//! (see `ResultsStore::claim`): several runners on one directory (processes, or machines
//! sharing it) split a grid between them, each run solved once; a run whose claim is held by
//! another live runner is left to it, and one left by a runner that died is taken over.
//!
//! A run that fails before the solver reports (the model cannot be built, the warm start
//! cannot be encoded, ...) is recorded with termination `error` and its message, so a rerun
//! does not try it again. A run stopped by Ctrl-C is not recorded, and the grid stops.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::budget::Budget;
use crate::data::Sets;
use crate::error::{Error, Result};
use crate::experiment::baseline::{greedy_figures, GreedyFigures};
use crate::experiment::config::RunConfig;
use crate::experiment::datasets::{prepare, LoadedDatasets};
use crate::experiment::grid::Grid;
use crate::experiment::progress::{GridProgress, ProgressMode};
use crate::experiment::row::Row;
use crate::experiment::store::ResultsStore;
use crate::learn::{learn, LearnOptions, Method, SolveDocument};
use crate::solver::{Progress, Termination, TrajectoryPoint};

/// How to run a grid.
#[derive(Debug, Clone)]
pub struct RunnerOptions {
    pub progress: ProgressMode,
    /// Set by a Ctrl-C handler: the running solve stops, and so does the grid.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// The exact search's budget for the certificate of each MILP run (`None`: none).
    pub certify: Option<Duration>,
}

/// What a grid run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RunnerReport {
    /// Runs solved and recorded now.
    pub ran: usize,
    /// Configurations already in the results, or being solved by another runner.
    pub skipped: usize,
    /// Runs recorded with termination `error`.
    pub failed: usize,
    /// Whether Ctrl-C stopped the grid.
    pub interrupted: bool,
}

/// Runs every configuration of `grid` that `store` does not hold yet.
pub fn run_grid(
    grid: &Grid,
    datasets: &LoadedDatasets,
    store: &mut ResultsStore,
    options: &RunnerOptions,
) -> Result<RunnerReport> {
    let configs = grid.configs();
    let todo: Vec<&RunConfig> = configs
        .iter()
        .filter(|c| !store.contains(&c.key()))
        .collect();
    let mut report = RunnerReport {
        skipped: configs.len() - todo.len(),
        ..RunnerReport::default()
    };
    let mut progress = GridProgress::new(todo.len(), options.progress);
    let interrupted = || {
        options
            .interrupt
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::SeqCst))
    };
    for config in todo {
        if interrupted() {
            report.interrupted = true;
            break;
        }
        let Some(claim) = store.claim(&config.key())? else {
            report.skipped += 1;
            continue;
        };
        progress.start(config);
        let data = datasets.get(&config.dataset.name)?;
        let solve_progress = progress.solve_progress();
        let Some((row, trajectory)) = run_one(config, data, solve_progress, options)? else {
            report.interrupted = true;
            break;
        };
        if row.termination.is_error() {
            report.failed += 1;
            progress.message(&format!(
                "{}: error: {}",
                row.run_key,
                row.error.as_deref().unwrap_or("")
            ));
        }
        store.add(row.clone(), trajectory)?;
        store.write_tables()?;
        drop(claim);
        report.ran += 1;
        progress.finished(&row);
    }
    progress.finish();
    Ok(report)
}

/// Runs one configuration; `None` when Ctrl-C stopped it.
fn run_one(
    config: &RunConfig,
    dataset: &crate::data::Dataset,
    progress: Progress,
    options: &RunnerOptions,
) -> Result<Option<(Row, Vec<TrajectoryPoint>)>> {
    let method = config.checked_method()?;
    let data = prepare(dataset, config.seed, config.test_fraction, &method)?;
    let greedy = match greedy_figures(&method, &data) {
        Ok(greedy) => greedy,
        Err(error) => return Ok(Some(failed(config, &data, &method, None, &error))),
    };
    let learn_options = LearnOptions {
        budget: Budget::of(config.time_limit).with_interrupt(options.interrupt.clone()),
        threads: config.threads,
        solver_options: config.solver_options.clone(),
        progress,
        warm_start: config.warm_start,
        dp_bounds: config.dp_bounds,
        certify: options.certify,
        constraints: config.constraints.clone(),
        ..LearnOptions::default()
    };
    let outcome = match learn(&method, &data.train, learn_options) {
        Ok(outcome) => outcome,
        Err(error) => return Ok(Some(failed(config, &data, &method, Some(&greedy), &error))),
    };
    if outcome.report.termination == Termination::Interrupted {
        return Ok(None);
    }
    let document = SolveDocument::new(
        &outcome,
        &data,
        &config.dataset.path,
        Some(config.seed),
        (config.test_fraction > 0.0).then_some(config.test_fraction),
    )?;
    let row = Row::from_solve(config, &document, &greedy);
    Ok(Some((row, document.report.trajectory)))
}

fn failed(
    config: &RunConfig,
    data: &Sets,
    method: &Method,
    greedy: Option<&GreedyFigures>,
    error: &Error,
) -> (Row, Vec<TrajectoryPoint>) {
    let row = Row::failed(
        config,
        data,
        &method.parameters(),
        greedy,
        error_chain(error),
    );
    (row, Vec::new())
}

/// The error's message with its causes.
fn error_chain(error: &Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}
