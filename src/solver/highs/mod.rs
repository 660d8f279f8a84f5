//! The HiGHS backend. Every HiGHS solve runs in a worker process (the milptree binary run as
//! the hidden `milptree highs-worker`, see [`crate::solver::worker`]); [`library`] drives HiGHS
//! inside it.
//!
//! How a solve goes:
//! 1. The parent writes the job (the model in column form, the start, the settings) to the
//!    worker's stdin. The worker loads it into HiGHS and solves with the time left.
//! 2. The worker sends an event for every improving solution HiGHS reports (objective, bound and
//!    values) and for bound moves; the parent turns them into trajectory points and the progress
//!    line, and keeps the last solution's values. With `log` on, HiGHS's log lines come the
//!    same way and go to stderr.
//! 3. The parent owns the wall clock: the worker is killed [`KILL_GRACE`] seconds past the
//!    limit whatever HiGHS is doing (its presolve and probing never look at the clock; upstream
//!    HiGHS was seen to run 10 s on a 5 s limit and 1829 s on 60 s), and the report keeps the
//!    last incumbent and bound HiGHS sent, with that incumbent's values. A stopped HiGHS
//!    that had sent no incumbent but was given a warm start feasible by our check returns the
//!    start (HiGHS takes a feasible start as its incumbent before presolve).
//! 4. Ctrl-C (the interrupt flag) sends the worker `SIGTERM`: HiGHS stops at its next check and
//!    returns its best solution; a worker still running [`STOP_GRACE`] later is killed, and the
//!    report is built as at the deadline.
//! 5. A worker that ends without a result (a crash, a signal) gives `solver_error`, with how it
//!    ended, its last lines and the last incumbent it sent.

mod library;
pub(crate) mod protocol;
mod worker;

use std::path::Path;
use std::time::{Duration, Instant};

pub use worker::worker_main;

use self::protocol::{Job, Problem};
use super::outcome::Outcome;
use super::progress::Monitor;
use super::report::{FileSolved, SolveReport, Solved, Termination};
use super::worker::parent::{deadline, file_solved, interrupted_before_worker, solved, KnownStart};
use super::worker::protocol::{ColumnModel, Event, Settings, WireOutcome, EVENT_PREFIX};
use super::worker::supervisor::{json_job, supervise, Finished, LineAction, Stop, WorkerSpec};
use super::worker::{abort_after_first_incumbent, worker_program};
use super::{Backend, SolveOptions};
use crate::error::{Error, Result};
use crate::mip::MipModel;

/// The hidden command that makes milptree a HiGHS worker.
pub const WORKER_COMMAND: &str = "highs-worker";

/// Seconds past the time limit after which a still running worker is killed.
pub const KILL_GRACE: f64 = 0.5;

/// Seconds a worker asked to stop by an interrupt has before it is killed.
pub const STOP_GRACE: f64 = 0.5;

/// The HiGHS backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct Highs;

impl Backend for Highs {
    fn name(&self) -> &'static str {
        "highs"
    }

    fn version(&self) -> String {
        library::version()
    }

    fn solve(&self, model: &MipModel, options: &SolveOptions) -> Result<Solved> {
        if model.vars().is_empty() {
            return super::solve_without_variables(self, model, options);
        }
        let started = Instant::now();
        let monitor = Monitor::new(self.name(), options, started);
        let report = SolveReport::new(self.name(), self.version(), options);
        let start = KnownStart::of(model, options);
        let problem = ColumnModel::new(model, start.as_ref().map(|s| s.values.clone()));
        if options.interrupted() {
            // Freeing a large model's columns is no reason to keep an interrupted caller.
            let _ = std::thread::Builder::new().spawn(move || drop(problem));
            let outcome = interrupted_before_worker(start.as_ref());
            return solved(model, outcome, report, monitor, started);
        }
        let mut settings = Settings::new(options, started);
        settings.objective_cutoff = start.as_ref().and_then(|s| s.cutoff(options));
        let run = run_worker(
            Problem::Model(Box::new(problem)),
            settings,
            options,
            &monitor,
        )?;
        let (outcome, _) = run.outcome(start.as_ref(), model.vars().len());
        solved(model, outcome, report, monitor, started)
    }

    fn observes_incumbents(&self) -> bool {
        true
    }

    fn check_options(&self, options: &[(String, String)]) -> Result<()> {
        library::check_options(options)
    }

    fn solve_file(
        &self,
        path: &Path,
        start: Option<&Path>,
        options: &SolveOptions,
    ) -> Result<FileSolved> {
        let started = Instant::now();
        let monitor = Monitor::new(self.name(), options, started);
        let report = SolveReport::new(self.name(), self.version(), options);
        let text = |path: &Path, what: &str| {
            path.to_str()
                .map(str::to_string)
                .ok_or_else(|| Error::parameter(what, format!("{} is not UTF-8", path.display())))
        };
        let problem = Problem::File {
            path: text(path, "model file")?,
            start: start.map(|s| text(s, "start file")).transpose()?,
        };
        let run = run_worker(problem, Settings::new(options, started), options, &monitor)?;
        let (outcome, names) = run.outcome(None, 0);
        Ok(file_solved(outcome, names, report, monitor, started))
    }
}

/// What the parent learned from the worker's events.
#[derive(Debug, Default)]
struct Seen {
    /// The last incumbent's objective (constant included).
    incumbent: Option<f64>,
    /// The last bound (constant included).
    bound: Option<f64>,
    /// The last improving solution's values.
    values: Option<Vec<f64>>,
}

/// A finished worker and what its events said.
struct WorkerRun {
    finished: Finished,
    seen: Seen,
}

/// Runs the worker on `problem` and follows its events and log.
fn run_worker(
    problem: Problem,
    settings: Settings,
    options: &SolveOptions,
    monitor: &Monitor,
) -> Result<WorkerRun> {
    let program = worker_program()?;
    let deadline = deadline(options, KILL_GRACE, monitor);
    let job = json_job(Job::new(problem, settings));
    let abort_test = abort_after_first_incumbent();
    let mut seen = Seen::default();
    let mut on_line = |line: &str| {
        let Some(text) = line.strip_prefix(EVENT_PREFIX) else {
            if options.log {
                monitor.log(&format!("{line}\n"));
            }
            return LineAction::Continue;
        };
        let Ok(event) = serde_json::from_str::<Event>(text) else {
            return LineAction::Continue;
        };
        let first = seen.incumbent.is_none();
        if event.bound.is_some() {
            seen.bound = event.bound;
        }
        if event.root {
            monitor.root_bound(event.bound);
        }
        match (event.values, event.incumbent) {
            (Some(values), Some(objective)) => {
                seen.incumbent = Some(objective);
                seen.values = Some(values);
                monitor.incumbent(objective, seen.bound);
            }
            (_, incumbent) => {
                if incumbent.is_some() {
                    seen.incumbent = incumbent;
                }
                monitor.progress(seen.incumbent, seen.bound);
            }
        }
        if abort_test && first && seen.incumbent.is_some() {
            LineAction::Abort
        } else {
            LineAction::Continue
        }
    };
    let spec = WorkerSpec {
        program: &program,
        command: WORKER_COMMAND,
        solver: "HiGHS",
        stop_grace: Some(Duration::from_secs_f64(STOP_GRACE)),
    };
    let finished = supervise(
        &spec,
        job,
        deadline,
        options.budget.interrupt().map(|flag| &**flag),
        &mut on_line,
    )?;
    Ok(WorkerRun { finished, seen })
}

impl WorkerRun {
    /// The outcome: the worker's result, or what its events showed when it has none. `start`
    /// is the warm start given, if any, and `columns` the model's columns (0 for a file).
    fn outcome(self, start: Option<&KnownStart>, columns: usize) -> (Outcome, Option<Vec<String>>) {
        let WorkerRun { finished, seen } = self;
        let problem = match finished
            .result
            .as_deref()
            .map(serde_json::from_str::<WireOutcome>)
        {
            // A worker that ended cleanly (stopped by an interrupt or not) gave HiGHS's result.
            Some(Ok(wire)) => return wire.into_outcome(),
            Some(Err(reason)) => format!("its result line cannot be read ({reason})"),
            _ => String::new(),
        };
        let mut notes = Vec::new();
        let termination = match finished.stopped {
            Some(Stop::Interrupted) => {
                notes.push(format!(
                    "HiGHS did not stop within {STOP_GRACE} s of the interrupt and was killed; \
                     the incumbent and bound are the last it reported"
                ));
                Termination::Interrupted
            }
            Some(Stop::Deadline) => {
                notes.push(format!(
                    "HiGHS was still running {KILL_GRACE} s past the time limit and was stopped \
                     (its worker was killed); the incumbent and bound are the last it reported"
                ));
                Termination::TimeLimit
            }
            None => Termination::SolverError(finished.failure("HiGHS", &problem)),
        };
        let mut outcome = Outcome {
            termination,
            objective: seen.incumbent,
            bound: seen.bound,
            nodes: None,
            values: None,
            notes,
        };
        match seen.values.filter(|v| columns == 0 || v.len() == columns) {
            Some(values) => outcome.values = Some(values),
            None => {
                if let Some(start) = start.filter(|s| s.feasible && seen.incumbent.is_none()) {
                    outcome.objective = Some(start.objective);
                    outcome.values = Some(start.values.clone());
                    outcome.notes.push(
                        "HiGHS reported no incumbent before it was stopped; the warm start, \
                         feasible by our check (HiGHS takes such a start as its first \
                         incumbent), is returned"
                            .to_string(),
                    );
                } else if let Some(incumbent) = seen.incumbent {
                    outcome.notes.push(format!(
                        "HiGHS had found a solution of objective {incumbent}; its values did \
                         not reach the parent"
                    ));
                }
            }
        }
        (outcome, None)
    }
}
