//! HiGHS itself: the bundled HiGHS (crate `highs-sys`), driven through its C API (with the
//! `highs` crate for the instance and options). Only the worker process solves with it
//! ([`solve_job`]); the parent asks for the [`version`] and has solver options checked
//! ([`check_options`]).
//!
//! - The model is passed whole (`Highs_passMip`, column-wise) with its objective offset and the
//!   file names of its columns and rows (they appear in HiGHS's log). Options: `time_limit`
//!   (the time left of the wall-clock limit), `mip_rel_gap` (default 0), `threads` (with
//!   `parallel = on` when more than one, or HiGHS's MIP search stays on one worker).
//! - Each solve runs on a thread of its own with a large stack: HiGHS keeps one task scheduler
//!   per calling thread, reset only when an instance is destroyed, and fails a run whose
//!   `threads` differs while another instance lives on that thread.
//! - Callbacks: every improving solution becomes an event with its objective, bound and values
//!   (so the parent keeps the best solution whatever happens to the worker); the periodic MIP
//!   interrupt check sends the bound when it moved (at most every [`PROGRESS_INTERVAL`]) and
//!   stops HiGHS when the parent asked the worker to stop (`SIGTERM`); with `log`, the log
//!   lines go to stdout for the parent (`log_to_console` stays off).
//! - A warm start is passed whole (`Highs_setSolution`). HiGHS checks it before presolve: a
//!   feasible start becomes the incumbent (reported as the first improving solution when the
//!   search gets time to run; with a time limit of 0 it is returned as the solution without any
//!   callback); an infeasible one is dropped and the search goes on.
//! - Results: model status, `primal_solution_status`, `objective_function_value`,
//!   `mip_dual_bound`, `mip_node_count`, the column values. HiGHS's `unbounded or infeasible`
//!   verdict (its presolve gives it for unbounded MIPs) is reported as such and settled by
//!   [`crate::solver::solve`]. A pure LP has no branch-and-bound: no nodes, and its proven
//!   optimum is its bound.
#![allow(unsafe_code)]

use std::ffi::{c_void, CStr, CString};
use std::os::raw::{c_char, c_int};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;
use std::time::Instant;

use highs_sys::{
    kHighsCallbackLogging, kHighsCallbackMipGetCutPool, kHighsCallbackMipImprovingSolution,
    kHighsCallbackMipInterrupt, kHighsMatrixFormatColwise, kHighsMaximumStringLength,
    kHighsObjSenseMinimize, kHighsVarTypeContinuous, kHighsVarTypeInteger, HighsCallbackDataIn,
    HighsCallbackDataOut, HighsInt, Highs_getColName, Highs_getDoubleInfoValue,
    Highs_getInt64InfoValue, Highs_getIntInfoValue, Highs_getModelStatus, Highs_getNumCol,
    Highs_getSolution, Highs_passColName, Highs_passMip, Highs_passRowName, Highs_readModel,
    Highs_run, Highs_setCallback, Highs_setSolution, Highs_startCallback, Highs_version,
    MODEL_STATUS_INFEASIBLE, MODEL_STATUS_OPTIMAL, MODEL_STATUS_REACHED_INTERRUPT,
    MODEL_STATUS_REACHED_TIME_LIMIT, MODEL_STATUS_UNBOUNDED, MODEL_STATUS_UNBOUNDED_OR_INFEASIBLE,
    SOLUTION_STATUS_FEASIBLE, STATUS_ERROR,
};

use super::protocol::{Job, Problem};
use crate::error::{Error, Result};
use crate::solver::outcome::Outcome;
use crate::solver::progress::finite;
use crate::solver::report::Termination;
use crate::solver::worker::child::{emit_event, stop_asked, Solution};
use crate::solver::worker::protocol::{ColumnModel, Event, Settings};

/// Stack of the thread a HiGHS solve runs on (reserved address space, used on demand).
const SOLVE_THREAD_STACK: usize = 64 << 20;

/// The shortest time between two bound events (improving solutions are sent at once).
pub(crate) const PROGRESS_INTERVAL: f64 = 0.1;

/// The HiGHS library's version, e.g. `1.15.0`.
pub(crate) fn version() -> String {
    // SAFETY: `Highs_version` returns a pointer to a static NUL-terminated string (or null).
    let version = unsafe { Highs_version() };
    if version.is_null() {
        return "unknown".to_string();
    }
    // SAFETY: non-null, NUL-terminated and static, as above.
    unsafe { CStr::from_ptr(version) }
        .to_string_lossy()
        .into_owned()
}

/// Checks solver options by setting them on an empty instance.
pub(crate) fn check_options(options: &[(String, String)]) -> Result<()> {
    on_own_thread(|| {
        let mut highs = highs::Model::new(highs::ColProblem::default());
        highs.make_quiet();
        for (name, value) in options {
            set_named_option(&mut highs, name, value)?;
        }
        Ok(())
    })
}

/// Solves `job` in the worker, which started at `started`.
pub(crate) fn solve_job(job: &Job, started: Instant) -> Result<Solution> {
    on_own_thread(|| {
        let mut highs = highs::ColProblem::default()
            .try_optimise(highs::Sense::Minimise)
            .map_err(|status| solver_error(format!("cannot create a model: {status:?}")))?;
        match &job.problem {
            Problem::Model(model) => {
                load(&mut highs, model)?;
                configure(&mut highs, &job.settings, started)?;
                let mut notes = Vec::new();
                if let Some(values) = &model.start {
                    // SAFETY: `values` holds one value per column of the loaded model (checked
                    // by the parent); the other arrays are optional (null).
                    let status = unsafe {
                        Highs_setSolution(
                            highs.as_mut_ptr(),
                            values.as_ptr(),
                            std::ptr::null(),
                            std::ptr::null(),
                            std::ptr::null(),
                        )
                    };
                    if status == STATUS_ERROR {
                        notes
                            .push("HiGHS refused the warm start (Highs_setSolution failed)".into());
                    }
                }
                let mut outcome = run(&mut highs, &job.settings, !model.integers.is_empty());
                outcome.notes.extend(notes);
                Ok((outcome, None))
            }
            Problem::File { path, start } => {
                let c_path = c_path(path)?;
                // SAFETY: `highs` is a live instance and `c_path` a NUL-terminated path.
                let status = unsafe { Highs_readModel(highs.as_mut_ptr(), c_path.as_ptr()) };
                if status == STATUS_ERROR {
                    return Err(solver_error(format!("cannot read {path}")));
                }
                configure(&mut highs, &job.settings, started)?;
                if let Some(start) = start {
                    set_option(&mut highs, "read_solution_file", start.as_str())?;
                }
                // A file may hold integer columns or not; HiGHS's MIP figures are read if
                // present.
                let outcome = run(&mut highs, &job.settings, true);
                let names = outcome.values.as_ref().map(|_| column_names(&highs));
                Ok((outcome, names))
            }
        }
    })
}

/// Runs `work` on a fresh thread (see the module documentation) and returns its result.
fn on_own_thread<T: Send>(work: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("highs".to_string())
            .stack_size(SOLVE_THREAD_STACK)
            .spawn_scoped(scope, work)
            .map_err(|e| Error::Internal(format!("cannot start the HiGHS thread: {e}")))?;
        handle
            .join()
            .map_err(|_| Error::Internal("the HiGHS solve thread panicked".to_string()))?
    })
}

/// Loads `model` into `highs`, with offset and names.
fn load(highs: &mut highs::Model, model: &ColumnModel) -> Result<()> {
    let columns = model.costs.len();
    let to_ints = |indices: &[usize]| -> Result<Vec<HighsInt>> {
        indices.iter().map(|&i| to_highs_int(i)).collect()
    };
    let starts = to_ints(&model.column_starts)?;
    let indices = to_ints(&model.row_indices)?;
    let mut integrality = vec![kHighsVarTypeContinuous; columns];
    for &j in &model.integers {
        integrality[j] = kHighsVarTypeInteger;
    }
    let ptr = highs.as_mut_ptr();
    // SAFETY: `ptr` is live; every array has the length the call documents (one entry per
    // column or row, `starts` one more than the columns, `indices` and `values` one per
    // non-zero), all built by `ColumnModel::new`; HiGHS copies them.
    let status = unsafe {
        Highs_passMip(
            ptr,
            to_highs_int(columns)?,
            to_highs_int(model.row_lower.len())?,
            to_highs_int(model.values.len())?,
            kHighsMatrixFormatColwise,
            kHighsObjSenseMinimize,
            model.objective_constant,
            model.costs.as_ptr(),
            model.column_lower.as_ptr(),
            model.column_upper.as_ptr(),
            model.row_lower.as_ptr(),
            model.row_upper.as_ptr(),
            starts.as_ptr(),
            indices.as_ptr(),
            model.values.as_ptr(),
            integrality.as_ptr(),
        )
    };
    if status == STATUS_ERROR {
        return Err(solver_error("HiGHS rejected the model"));
    }
    for (j, name) in model.column_names.iter().enumerate() {
        let name = c_name(name)?;
        // SAFETY: `j` is a column of the loaded model; `name` is NUL-terminated and copied.
        unsafe { Highs_passColName(ptr, to_highs_int(j)?, name.as_ptr()) };
    }
    for (i, name) in model.row_names.iter().enumerate() {
        let name = c_name(name)?;
        // SAFETY: `i` is a row of the loaded model; `name` is NUL-terminated and copied.
        unsafe { Highs_passRowName(ptr, to_highs_int(i)?, name.as_ptr()) };
    }
    Ok(())
}

/// Sets the options of a solve in a worker that started at `started`.
fn configure(highs: &mut highs::Model, options: &Settings, started: Instant) -> Result<()> {
    if let Some(limit) = options.time_limit {
        let remaining = limit.saturating_sub(started.elapsed()).as_secs_f64();
        set_option(highs, "time_limit", remaining)?;
    }
    set_option(highs, "mip_rel_gap", options.mip_rel_gap)?;
    if let Some(tolerance) = options.integrality_tolerance {
        set_option(highs, "mip_feasibility_tolerance", tolerance)?;
    }
    if let Some(threads) = options.threads {
        let threads = i32::try_from(threads)
            .map_err(|_| Error::parameter("threads", format!("{threads} is too many")))?;
        set_option(highs, "threads", threads)?;
        if threads > 1 {
            set_option(highs, "parallel", "on")?;
        }
    }
    if let Some(cutoff) = options.objective_cutoff {
        set_option(highs, "objective_bound", cutoff)?;
    }
    set_option(highs, "output_flag", options.log)?;
    set_option(highs, "log_to_console", false)?;
    for (name, value) in &options.parameters {
        set_named_option(highs, name, value)?;
    }
    Ok(())
}

fn set_option<V: highs::HighsOptionValue>(
    highs: &mut highs::Model,
    name: &str,
    value: V,
) -> Result<()> {
    highs
        .try_set_option(name, value)
        .map_err(|_| solver_error(format!("cannot set option `{name}`")))
}

/// Sets a HiGHS option given as text, as the first of bool (`true`/`false`), integer, real or
/// string that HiGHS takes for that name.
fn set_named_option(highs: &mut highs::Model, name: &str, value: &str) -> Result<()> {
    let taken = (matches!(value, "true" | "false")
        && highs.try_set_option(name, value == "true").is_ok())
        || value
            .parse::<i32>()
            .is_ok_and(|number| highs.try_set_option(name, number).is_ok())
        || value
            .parse::<f64>()
            .is_ok_and(|number| highs.try_set_option(name, number).is_ok())
        || highs.try_set_option(name, value).is_ok();
    if taken {
        Ok(())
    } else {
        Err(Error::parameter(
            "solver option",
            format!("HiGHS has no option `{name}` that takes the value `{value}`"),
        ))
    }
}

/// What the callbacks need, behind the `user_data` pointer: the last bound event sent.
#[derive(Default)]
struct CallbackContext {
    sent: Mutex<Sent>,
}

/// The last bound event: when (since the run started), and what it said.
#[derive(Default)]
struct Sent {
    started: Option<Instant>,
    at: f64,
    incumbent: Option<f64>,
    bound: Option<f64>,
    /// Whether the root bound was sent.
    root_sent: bool,
}

impl CallbackContext {
    /// Sends an improving solution, with its values when HiGHS gives them.
    fn improving(&self, out: &HighsCallbackDataOut) {
        let columns = usize::try_from(out.mip_solution_size).unwrap_or(0);
        let values = (!out.mip_solution.is_null() && columns > 0).then(|| {
            // SAFETY: HiGHS passes `mip_solution_size` values at `mip_solution`, valid for
            // the duration of the call.
            unsafe { std::slice::from_raw_parts(out.mip_solution, columns) }.to_vec()
        });
        let event = Event {
            incumbent: finite(out.objective_function_value),
            bound: finite(out.mip_dual_bound),
            values,
            root: false,
        };
        emit_event(&event);
        let mut sent = self.lock();
        sent.incumbent = event.incumbent;
        sent.bound = event.bound;
    }

    /// Sends the bound at the end of the first root node evaluation, once.
    fn root(&self, out: &HighsCallbackDataOut) {
        let mut sent = self.lock();
        if sent.root_sent {
            return;
        }
        sent.root_sent = true;
        emit_event(&Event {
            incumbent: finite(out.mip_primal_bound),
            bound: finite(out.mip_dual_bound),
            values: None,
            root: true,
        });
    }

    /// Sends the incumbent and bound if they moved and the last event is old enough.
    fn progress(&self, out: &HighsCallbackDataOut) {
        let incumbent = finite(out.mip_primal_bound);
        let bound = finite(out.mip_dual_bound);
        let mut sent = self.lock();
        let started = *sent.started.get_or_insert_with(Instant::now);
        let now = started.elapsed().as_secs_f64();
        if (incumbent, bound) == (sent.incumbent, sent.bound) || now - sent.at < PROGRESS_INTERVAL {
            return;
        }
        emit_event(&Event {
            incumbent,
            bound,
            values: None,
            root: false,
        });
        *sent = Sent {
            started: Some(started),
            at: now,
            incumbent,
            bound,
            root_sent: sent.root_sent,
        };
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Sent> {
        match self.sent.lock() {
            Ok(sent) => sent,
            Err(poisoned) => poisoned.into_inner(),
        }
    }
}

/// The HiGHS callback: improving solutions, periodic MIP checks (bound, stop) and log lines.
/// It must not unwind into C++: any panic is caught and dropped.
unsafe extern "C" fn on_callback(
    kind: c_int,
    message: *const c_char,
    data_out: *const HighsCallbackDataOut,
    data_in: *mut HighsCallbackDataIn,
    user_data: *mut c_void,
) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `user_data` is the `CallbackContext` that `run` registered; it outlives
        // `Highs_run`, during which alone HiGHS calls back.
        let Some(context) = (unsafe { user_data.cast::<CallbackContext>().as_ref() }) else {
            return;
        };
        // SAFETY: HiGHS passes a valid (or null) output record for the duration of the call.
        let out = unsafe { data_out.as_ref() };
        if kind == kHighsCallbackLogging {
            if !message.is_null() {
                // SAFETY: non-null log messages are NUL-terminated strings valid for the call.
                let text = unsafe { CStr::from_ptr(message) }.to_string_lossy();
                let mut stdout = std::io::stdout().lock();
                let _ = std::io::Write::write_all(&mut stdout, text.as_bytes());
                let _ = std::io::Write::flush(&mut stdout);
            }
        } else if kind == kHighsCallbackMipImprovingSolution {
            if let Some(out) = out {
                context.improving(out);
            }
        } else if kind == kHighsCallbackMipGetCutPool {
            // Called once HiGHS has evaluated the root node (after its cut rounds): its bound
            // then is the root bound. A restart evaluates the root again; the first is kept.
            if let Some(out) = out {
                context.root(out);
            }
        } else if kind == kHighsCallbackMipInterrupt {
            if let Some(out) = out {
                context.progress(out);
            }
            if stop_asked() {
                // SAFETY: for interrupt callbacks HiGHS passes a valid input record to fill.
                if let Some(input) = unsafe { data_in.as_mut() } {
                    input.user_interrupt = 1;
                }
            }
        }
    }));
}

/// Runs HiGHS with the callbacks and reads the results; `mip` says whether branch-and-bound
/// figures (bound, nodes) are to be read.
fn run(highs: &mut highs::Model, options: &Settings, mip: bool) -> Outcome {
    let ptr = highs.as_mut_ptr();
    let context = CallbackContext::default();
    let context_ptr = std::ptr::addr_of!(context).cast_mut().cast::<c_void>();
    // SAFETY: `ptr` is live; the callback only reads `context`, which outlives `Highs_run`
    // below and is unregistered right after it.
    let run_status = unsafe {
        Highs_setCallback(ptr, Some(on_callback), context_ptr);
        Highs_startCallback(ptr, kHighsCallbackMipImprovingSolution);
        Highs_startCallback(ptr, kHighsCallbackMipInterrupt);
        Highs_startCallback(ptr, kHighsCallbackMipGetCutPool);
        if options.log {
            Highs_startCallback(ptr, kHighsCallbackLogging);
        }
        let status = Highs_run(ptr);
        Highs_setCallback(ptr, None, std::ptr::null_mut());
        status
    };
    // SAFETY: `ptr` is live.
    let model_status = unsafe { Highs_getModelStatus(ptr) };
    let termination = termination(run_status, model_status);
    let feasible = info_int(ptr, c"primal_solution_status") == Some(SOLUTION_STATUS_FEASIBLE);
    let values = if feasible { column_values(ptr) } else { None };
    let objective = values
        .as_ref()
        .and_then(|_| info_double(ptr, c"objective_function_value"))
        .and_then(finite);
    let bound = if !termination.has_meaningful_bound() {
        None
    } else if mip && info_int64(ptr, c"mip_node_count").is_some_and(|n| n >= 0) {
        info_double(ptr, c"mip_dual_bound").and_then(finite)
    } else if termination == Termination::Optimal {
        // An LP solved to optimality: its optimum is its bound.
        objective
    } else {
        None
    };
    let nodes = if mip {
        info_int64(ptr, c"mip_node_count").and_then(|n| u64::try_from(n).ok())
    } else {
        None
    };
    let notes = match termination {
        Termination::SolverLimit => vec![format!(
            "HiGHS stopped at a limit of its options: {} (model status {model_status}); the \
             incumbent, if any, is not proven optimal",
            model_status_text(model_status)
        )],
        _ => Vec::new(),
    };
    Outcome {
        termination,
        objective,
        bound,
        nodes,
        values,
        notes,
    }
}

/// Our termination for HiGHS's run status and model status.
fn termination(run_status: HighsInt, model_status: HighsInt) -> Termination {
    match model_status {
        MODEL_STATUS_OPTIMAL => Termination::Optimal,
        MODEL_STATUS_INFEASIBLE => Termination::Infeasible,
        MODEL_STATUS_UNBOUNDED_OR_INFEASIBLE => Termination::InfeasibleOrUnbounded,
        MODEL_STATUS_UNBOUNDED => Termination::Unbounded,
        MODEL_STATUS_REACHED_TIME_LIMIT => Termination::TimeLimit,
        MODEL_STATUS_REACHED_INTERRUPT => Termination::Interrupted,
        // The limits of HiGHS's own options: objective bound and target, iterations,
        // solutions (`mip_max_improving_sols`, `mip_max_nodes`, `mip_max_leaves`).
        11 | 12 | 14 | 16 if run_status != STATUS_ERROR => Termination::SolverLimit,
        other => {
            let call = if run_status == STATUS_ERROR {
                "HiGHS failed"
            } else {
                "HiGHS stopped"
            };
            Termination::Error(format!(
                "{call} with model status {other} ({})",
                model_status_text(other)
            ))
        }
    }
}

/// HiGHS's name of a model status we do not map to a termination of our own.
fn model_status_text(status: HighsInt) -> &'static str {
    match status {
        0 => "not set",
        1 => "load error",
        2 => "model error",
        3 => "presolve error",
        4 => "solve error",
        5 => "postsolve error",
        6 => "model empty",
        11 => "objective bound reached",
        12 => "objective target reached",
        14 => "iteration limit reached",
        15 => "unknown",
        16 => "solution limit reached",
        18 => "memory limit reached",
        _ => "unrecognised",
    }
}

/// The column values of the current solution.
fn column_values(ptr: *mut c_void) -> Option<Vec<f64>> {
    // SAFETY: `ptr` is live.
    let columns = usize::try_from(unsafe { Highs_getNumCol(ptr) }).ok()?;
    let mut values = vec![0.0; columns];
    // SAFETY: `values` has room for every column (HiGHS's solution has one value per column);
    // the other outputs are optional (null).
    let status = unsafe {
        Highs_getSolution(
            ptr,
            values.as_mut_ptr(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    };
    (status != STATUS_ERROR).then_some(values)
}

/// The names of the loaded model's columns.
fn column_names(highs: &highs::Model) -> Vec<String> {
    let ptr = highs.as_ptr();
    // SAFETY: `ptr` is live.
    let columns = unsafe { Highs_getNumCol(ptr) }.max(0);
    (0..columns)
        .map(|j| {
            let mut buffer = vec![0 as c_char; kHighsMaximumStringLength as usize + 1];
            // SAFETY: `j` is a column; `buffer` has the length the C API requires.
            let status = unsafe { Highs_getColName(ptr, j, buffer.as_mut_ptr()) };
            if status == STATUS_ERROR {
                return format!("column {j}");
            }
            // SAFETY: HiGHS wrote a NUL-terminated name into `buffer`.
            unsafe { CStr::from_ptr(buffer.as_ptr()) }
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

fn info_double(ptr: *const c_void, name: &CStr) -> Option<f64> {
    let mut value = f64::NAN;
    // SAFETY: `ptr` is live, `name` NUL-terminated, `value` a valid output location.
    let status = unsafe { Highs_getDoubleInfoValue(ptr, name.as_ptr(), &mut value) };
    (status != STATUS_ERROR).then_some(value)
}

fn info_int(ptr: *const c_void, name: &CStr) -> Option<HighsInt> {
    let mut value: HighsInt = 0;
    // SAFETY: `ptr` is live, `name` NUL-terminated, `value` a valid output location.
    let status = unsafe { Highs_getIntInfoValue(ptr, name.as_ptr(), &mut value) };
    (status != STATUS_ERROR).then_some(value)
}

fn info_int64(ptr: *const c_void, name: &CStr) -> Option<i64> {
    let mut value: i64 = 0;
    // SAFETY: `ptr` is live, `name` NUL-terminated, `value` a valid output location.
    let status = unsafe { Highs_getInt64InfoValue(ptr, name.as_ptr(), &mut value) };
    (status != STATUS_ERROR).then_some(value)
}

fn to_highs_int(index: usize) -> Result<HighsInt> {
    HighsInt::try_from(index).map_err(|_| solver_error(format!("index {index} is too large")))
}

fn c_name(name: &str) -> Result<CString> {
    CString::new(name).map_err(|_| Error::Internal(format!("name `{name}` holds a NUL byte")))
}

fn c_path(path: &str) -> Result<CString> {
    CString::new(path)
        .map_err(|_| Error::parameter("model file", format!("{path} holds a NUL byte")))
}

fn solver_error(message: impl Into<String>) -> Error {
    Error::Solver {
        solver: "highs".to_string(),
        message: message.into(),
    }
}
