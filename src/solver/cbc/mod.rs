//! The CBC backend. Every CBC solve runs in a child process, the CBC worker: the milptree
//! binary itself, run as `milptree cbc-worker` (a hidden command; [`worker_program`] says how
//! the binary is found when the caller is not milptree). Debian's CBC 2.10 crashes in some
//! states (see below), and a crash in a worker is a report, not the end of milptree or of an
//! experiment grid.
//!
//! How a solve goes ([`protocol`] has the messages, [`supervisor`] the process handling):
//! 1. The parent writes the job (the model in CBC's terms, the start, the settings) as JSON to
//!    the worker's stdin. The worker loads it into CBC (log level 1), solves, and writes its
//!    result line after CBC's log on its stdout.
//! 2. The parent reads the log as it is printed ([`log`]): every improving solution CBC
//!    reports (`Cbc0045I` for the warm start, `Cbc0012I` / `Cbc0004I` / `Cbc0016I`) becomes a
//!    trajectory point and updates the progress line, and so do bound moves (`Cbc0010I`,
//!    `Cbc0013I`); the first one gives `time_to_first_incumbent` and `first_incumbent`, hence
//!    the warm start's acceptance. With `log` on, the lines are copied to stderr.
//! 3. The parent owns the wall clock and Ctrl-C. It gives CBC the time left of the limit, and
//!    kills the worker [`KILL_GRACE`] seconds past the limit (CBC checks its clock only between
//!    nodes and heuristics, and was seen to run 133 s on a 120 s limit), reporting
//!    `time_limit`. A raised interrupt flag kills the worker at once (CBC 2.10's C interface
//!    has no way to stop a running solve), reporting `interrupted`.
//! 4. A worker that ends without a result (a crash, a signal) gives `solver_error`, with how it
//!    ended and the last lines of its output.
//!
//! How far past its limit a CBC solve ends (`scripts/cbc-overshoot`: OCT depth 3 on
//! breast_cancer, greedy warm start, 20 runs per limit, release build, an otherwise idle
//! two-core machine; "report" is the report's `seconds` minus the limit, "process" the whole
//! `milptree solve` process, model build included):
//!
//! | limit | median report | max report | median process | max process |
//! |---|---|---|---|---|
//! | 1 s | +0.53 s | +0.83 s | +0.72 s | +1.00 s |
//! | 5 s | -0.35 s | +0.09 s | -0.20 s | +0.24 s |
//! | 30 s | -0.22 s | +0.55 s | -0.02 s | +0.68 s |
//!
//! (With a 1.5 s grace and the machine busy with builds, the 30 s runs reached +2.04 s, which
//! is why the grace is 1 s.)
//!
//! When the parent stops the worker or it dies, CBC's last incumbent and bound are those its
//! log showed, printed with about six significant digits. CBC 2.10 gives no solution values
//! while it runs: its C interface has no incumbent callback (CBC 3 added one), its message
//! callback carries numbers but not solutions, and it writes solution files only at the end.
//! So the values of that incumbent are known only when it is the warm start, or has the warm
//! start's objective (the start, feasible by our check, is then returned, with its exact
//! objective); otherwise the report has the incumbent's objective and no solution, and a note
//! says the values are lost.
//!
//! The crash avoided: with a warm start, Debian's CBC 2.10.8 dies with `SIGSEGV` in
//! `CglPreProcess::postProcess` when its time limit runs out during or just after
//! preprocessing. Measured with `milptree solve DATA --formulation oct --solver cbc
//! --time-limit L` (greedy warm start, release build, two cores):
//!
//! | model (non-zeros) | runs | before (CBC in process) | worker, preprocessing on | worker, as chosen |
//! |---|---|---|---|---|
//! | iris depth 3 (32,611), L = 0.1, 0.2, 0.3 s | 20 each | 20, 20, 20 crashes | 20 at 0.2 s | 0, 0, 0 |
//! | iris depth 3, L = 0.4 s | 20 | 7 | 10 | 0 |
//! | iris depth 3, L = 0.5 s | 20 | 0 | - | 0 |
//! | iris depth 3, L = 0.6, 0.8 s | 10 each | - | 0, 0 | - |
//! | iris depth 2 (12,019), L = 0.1 s | 20 | 18 | - | 0 |
//! | breast_cancer depth 3 (463,531), L = 1 s | 3 | - | 3 | 0 |
//! | breast_cancer depth 3, L = 2, 4 s | 3 each | - | 0, 0 | - |
//!
//! ("worker" runs end in a report either way: a crash is `solver_error` with exit 1.) The log
//! shows preprocessing ending 0.6 s into the solve for iris depth 3 and 1.8 s for
//! breast_cancer depth 3, so the danger grows with the model. A solve with a warm start and a
//! time limit under [`preprocess_min_limit`] (1 s plus 5 µs per non-zero: 1.2 s for iris
//! depth 3, 3.3 s for breast_cancer depth 3) runs with `preprocess off` (a note says so);
//! longer solves keep CBC's preprocessing, which pays off when there is time for it.

#[cfg(not(feature = "cbc"))]
#[path = "absent.rs"]
mod library;
#[cfg(feature = "cbc")]
mod library;
mod log;
pub(crate) mod protocol;
mod worker;

use std::time::Instant;

pub use worker::worker_main;

use self::log::{parse_line, LogEvent};
use self::protocol::{Job, Problem, Settings};
use super::outcome::Outcome;
use super::progress::Monitor;
use super::report::{FileSolved, SolveReport, Solved, Termination};
use super::worker::parent::{deadline, file_solved, interrupted_before_worker, solved, KnownStart};
use super::worker::protocol::{ColumnModel, WireOutcome};
use super::worker::supervisor::{json_job, supervise, Finished, LineAction, Stop, WorkerSpec};
use super::worker::{abort_after_first_incumbent, worker_program};
use super::{Backend, SolveOptions};
use crate::error::{Error, Result};
use crate::mip::{read_mst, MipModel};

/// The hidden command that makes milptree a CBC worker.
pub const WORKER_COMMAND: &str = "cbc-worker";

/// Seconds past the time limit after which a still running worker is killed.
pub const KILL_GRACE: f64 = 1.0;

/// With a warm start, time limits under [`preprocess_min_limit`] run without CBC's
/// preprocessing: this many seconds...
pub const PREPROCESS_MIN_SECONDS: f64 = 1.0;

/// ... plus this many per non-zero of the constraint matrix (see the module documentation).
pub const PREPROCESS_SECONDS_PER_NONZERO: f64 = 5e-6;

/// The shortest time limit with which a solve with a warm start keeps CBC's preprocessing, for
/// a model of `nonzeros` matrix entries.
pub fn preprocess_min_limit(nonzeros: usize) -> f64 {
    PREPROCESS_MIN_SECONDS + PREPROCESS_SECONDS_PER_NONZERO * nonzeros as f64
}

/// Relative difference under which a logged objective (about six significant digits) is
/// taken to be the warm start's.
const LOG_PRECISION: f64 = 1e-5;

/// The CBC backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cbc;

impl Backend for Cbc {
    fn name(&self) -> &'static str {
        "cbc"
    }

    fn version(&self) -> String {
        library::version()
    }

    fn solve(&self, model: &MipModel, options: &SolveOptions) -> Result<Solved> {
        library::check()?;
        if model.vars().is_empty() {
            return super::solve_without_variables(self, model, options);
        }
        let started = Instant::now();
        let monitor = Monitor::new(self.name(), options, started);
        let mut report = SolveReport::new(self.name(), self.version(), options);
        if options.interrupted() {
            interrupted_before_start(&mut report, monitor);
            return Ok(Solved {
                report,
                solution: None,
            });
        }
        let start = KnownStart::of(model, options);
        let (problem, preprocess_note) = model_problem(model, options);
        report.notes.extend(preprocess_note);
        let preprocess =
            keeps_preprocessing(options, problem.start.is_some(), problem.values.len());
        let mut settings = settings(options, started, preprocess);
        settings.common.objective_cutoff = start.as_ref().and_then(|s| s.cutoff(options));
        let constant = problem.objective_constant;
        if options.interrupted() {
            // Freeing a large model's columns is no reason to keep an interrupted caller.
            let _ = std::thread::Builder::new().spawn(move || drop(problem));
            let outcome = interrupted_before_worker(start.as_ref());
            return solved(model, outcome, report, monitor, started);
        }
        let run = run_worker(
            Problem::Model(Box::new(problem)),
            settings,
            options,
            &monitor,
            constant,
        )?;
        let (outcome, _) = run.outcome(start.as_ref());
        solved(model, outcome, report, monitor, started)
    }

    fn observes_incumbents(&self) -> bool {
        true
    }

    fn solve_file(
        &self,
        path: &std::path::Path,
        start: Option<&std::path::Path>,
        options: &SolveOptions,
    ) -> Result<FileSolved> {
        library::check()?;
        let start = start.map(read_mst).transpose()?;
        let started = Instant::now();
        let monitor = Monitor::new(self.name(), options, started);
        let mut report = SolveReport::new(self.name(), self.version(), options);
        if options.interrupted() {
            interrupted_before_start(&mut report, monitor);
            return Ok(FileSolved {
                report,
                solution: None,
            });
        }
        let text = path.to_str().ok_or_else(|| {
            Error::parameter("model file", format!("{} is not UTF-8", path.display()))
        })?;
        let preprocess = keeps_preprocessing(options, start.is_some(), 0);
        let settings = settings(options, started, preprocess);
        let problem = Problem::File {
            path: text.to_string(),
            start,
        };
        let run = run_worker(problem, settings, options, &monitor, 0.0)?;
        let (outcome, names) = run.outcome(None);
        if !is_mps(path) {
            report.notes.push(
                "CBC's LP reader drops the objective's constant term: objective and bound \
                 exclude it"
                    .into(),
            );
        }
        Ok(file_solved(outcome, names, report, monitor, started))
    }
}

/// Whether `path` is read as MPS (extension `.mps`) rather than LP.
fn is_mps(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("mps"))
}

/// A solve stopped by the interrupt flag before the worker started.
fn interrupted_before_start(report: &mut SolveReport, monitor: Monitor) {
    report.termination = Termination::Interrupted;
    report.trajectory = monitor.finish(None, None).points;
    report
        .notes
        .push("interrupted before CBC started; CBC was not run".to_string());
}

/// The model in CBC's terms, with its start; and a note when preprocessing is switched off.
fn model_problem(model: &MipModel, options: &SolveOptions) -> (ColumnModel, Option<String>) {
    let nonzeros = model.size().nonzeros;
    let start = options.warm_start.as_ref().map(|s| s.values().to_vec());
    let problem = ColumnModel::new(model, start);
    let note = (!keeps_preprocessing(options, problem.start.is_some(), nonzeros)).then(|| {
        format!(
            "CBC ran without preprocessing: with a warm start, a time limit under {:.2} s for \
             this model can fall inside CBC 2.10's preprocessing, which then crashes",
            preprocess_min_limit(nonzeros)
        )
    });
    (problem, note)
}

/// Whether CBC preprocesses a model of `nonzeros` entries (0 when unknown).
fn keeps_preprocessing(options: &SolveOptions, has_start: bool, nonzeros: usize) -> bool {
    !(has_start
        && options
            .budget
            .limit_seconds()
            .is_some_and(|limit| limit < preprocess_min_limit(nonzeros)))
}

/// The worker's settings, `started` being when the solve started.
fn settings(options: &SolveOptions, started: Instant, preprocess: bool) -> Settings {
    Settings {
        common: super::worker::protocol::Settings::new(options, started),
        preprocess,
    }
}

/// What the parent learned from the worker's log.
#[derive(Debug, Default)]
struct LogState {
    /// The last incumbent's objective (constant included).
    incumbent: Option<f64>,
    /// The last bound (constant included).
    bound: Option<f64>,
    /// Whether CBC said it took the warm start.
    start_accepted: bool,
}

/// A finished worker and what its log said.
struct WorkerRun {
    finished: Finished,
    log: LogState,
}

/// Runs the worker on `problem` and follows its log; `constant` is the objective constant
/// CBC's figures lack.
fn run_worker(
    problem: Problem,
    settings: Settings,
    options: &SolveOptions,
    monitor: &Monitor,
    constant: f64,
) -> Result<WorkerRun> {
    let program = worker_program()?;
    let deadline = deadline(options, KILL_GRACE, monitor);
    let job = json_job(Job::new(problem, settings));
    let abort_test = abort_after_first_incumbent();
    let mut log = LogState::default();
    let mut on_line = |line: &str| {
        if options.log {
            // Best effort: a log whose stderr is closed or full is lost, the solve goes on.
            crate::noteln!("{line}");
        }
        let Some(event) = parse_line(line) else {
            return LineAction::Continue;
        };
        let first = log.incumbent.is_none();
        match event {
            LogEvent::StartAccepted(cost) | LogEvent::Incumbent(cost) => {
                let objective = cost + constant;
                if matches!(event, LogEvent::StartAccepted(_)) {
                    log.start_accepted = true;
                }
                if log.incumbent.is_none_or(|best| objective < best) {
                    log.incumbent = Some(objective);
                    monitor.incumbent(objective, log.bound);
                }
            }
            LogEvent::Progress { incumbent, bound } => {
                if let Some(bound) = bound {
                    log.bound = Some(bound + constant);
                }
                if let Some(incumbent) = incumbent.map(|i| i + constant) {
                    if log.incumbent.is_none_or(|best| incumbent < best) {
                        log.incumbent = Some(incumbent);
                        monitor.incumbent(incumbent, log.bound);
                    }
                }
                monitor.progress(log.incumbent, log.bound);
            }
        }
        if abort_test && first && log.incumbent.is_some() {
            LineAction::Abort
        } else {
            LineAction::Continue
        }
    };
    let spec = WorkerSpec {
        program: &program,
        command: WORKER_COMMAND,
        solver: "CBC",
        stop_grace: None,
    };
    let finished = supervise(
        &spec,
        job,
        deadline,
        options.budget.interrupt().map(|flag| &**flag),
        &mut on_line,
    )?;
    Ok(WorkerRun { finished, log })
}

impl WorkerRun {
    /// The outcome: the worker's result, or what its log showed when it has none. `start` is
    /// the warm start given, if any.
    fn outcome(self, start: Option<&KnownStart>) -> (Outcome, Option<Vec<String>>) {
        let WorkerRun { finished, log } = self;
        let problem = match finished
            .result
            .as_deref()
            .map(serde_json::from_str::<WireOutcome>)
        {
            Some(Ok(wire)) if finished.stopped.is_none() => return wire.into_outcome(),
            Some(Err(reason)) => format!("its result line cannot be read ({reason})"),
            _ => String::new(),
        };
        let mut notes = Vec::new();
        let termination = match finished.stopped {
            Some(Stop::Interrupted) => {
                notes.push(
                    "CBC was stopped by the interrupt (its worker was killed); the incumbent \
                     and bound are the last its log showed"
                        .to_string(),
                );
                Termination::Interrupted
            }
            Some(Stop::Deadline) => {
                notes.push(format!(
                    "CBC was still running {KILL_GRACE} s past the time limit and was stopped \
                     (its worker was killed); the incumbent and bound are the last its log \
                     showed"
                ));
                Termination::TimeLimit
            }
            None => Termination::SolverError(finished.failure("CBC", &problem)),
        };
        let mut outcome = Outcome {
            termination,
            objective: log.incumbent,
            bound: log.bound,
            nodes: None,
            values: None,
            notes,
        };
        if let Some(incumbent) = log.incumbent {
            let start_matches = start.filter(|start| {
                start.feasible
                    && (incumbent - start.objective).abs()
                        <= LOG_PRECISION * start.objective.abs().max(1.0)
            });
            match start_matches {
                Some(start) => {
                    outcome.objective = Some(start.objective);
                    outcome.values = Some(start.values.clone());
                    let how = if log.start_accepted {
                        "is the warm start"
                    } else {
                        "has the warm start's objective"
                    };
                    outcome.notes.push(format!(
                        "CBC's last incumbent {how}: the warm start is returned"
                    ));
                }
                None => outcome.notes.push(format!(
                    "CBC had found a solution of objective {incumbent} (as its log prints it); \
                     its values are lost with the worker"
                )),
            }
        }
        (outcome, None)
    }
}
