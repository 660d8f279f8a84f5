//! CBC itself: the system's COIN-OR CBC 2.10 through its C interface (`coin_cbc_sys`, plus the
//! functions declared here that the crate lacks). Only the worker process solves with it
//! ([`solve_job`]); the parent only asks for the [`version`].
//!
//! - Options: `timeMode elapsed` with `Cbc_setMaximumSeconds` (fractions work; without
//!   `timeMode elapsed` CBC counts CPU seconds), `ratioGap`, `integerTolerance`, `threads`,
//!   `preprocess off` when the job says so. Log level 1 always: the parent reads the log.
//! - A warm start is passed whole (`Cbc_setMIPStartI`, continuous columns included). CBC fixes
//!   its integer values and solves for the rest: a start it can complete becomes its incumbent,
//!   even with a time limit of 0; otherwise it is dropped.
//! - Results: no incumbent is detected by `Cbc_bestSolution` being null (CBC then returns junk
//!   objective values such as 1e50); the bound is `Cbc_getBestPossibleObjValue`; both get the
//!   objective constant added (CBC's model has none). CBC may stop on a very short time limit
//!   during preprocessing and claim the model infeasible: an "infeasible" verdict with the time
//!   limit used up is reported as `time_limit`. An unbounded relaxation is reported as
//!   "infeasible or unbounded" and settled by [`crate::solver::solve`].
#![allow(unsafe_code)]

use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int};
use std::ptr::NonNull;
use std::time::Instant;

use coin_cbc_sys::{
    Cbc_Model, Cbc_deleteModel, Cbc_getBestPossibleObjValue, Cbc_getColName, Cbc_getColSolution,
    Cbc_getNodeCount, Cbc_getNumCols, Cbc_getObjValue, Cbc_getVersion, Cbc_isAbandoned,
    Cbc_isContinuousUnbounded, Cbc_isInitialSolveProvenOptimal,
    Cbc_isInitialSolveProvenPrimalInfeasible, Cbc_isProvenInfeasible, Cbc_isProvenOptimal,
    Cbc_isSecondsLimitReached, Cbc_loadProblem, Cbc_newModel, Cbc_readMps, Cbc_secondaryStatus,
    Cbc_setColName, Cbc_setInteger, Cbc_setLogLevel, Cbc_setObjSense, Cbc_setParameter,
    Cbc_setRowName, Cbc_solve, Cbc_status,
};

use super::protocol::{Job, Problem, Settings};
use crate::error::{Error, Result};
use crate::solver::outcome::Outcome;
use crate::solver::progress::finite;
use crate::solver::worker::protocol::ColumnModel;
use crate::solver::Termination;

// Functions of CBC's C interface (Cbc_C_Interface.h, CBC 2.10) that `coin_cbc_sys` does not
// declare; the library is linked through `coin_cbc_sys`.
extern "C" {
    fn Cbc_setMIPStartI(
        model: *mut Cbc_Model,
        count: c_int,
        col_idxs: *const c_int,
        col_values: *const f64,
    );
    fn Cbc_setMIPStart(
        model: *mut Cbc_Model,
        count: c_int,
        col_names: *const *const c_char,
        col_values: *const f64,
    );
    fn Cbc_bestSolution(model: *mut Cbc_Model) -> *const f64;
    fn Cbc_setMaximumSeconds(model: *mut Cbc_Model, max_seconds: f64);
    fn Cbc_setAllowableFractionGap(model: *mut Cbc_Model, allowed_fraction_gap: f64);
    fn Cbc_readLp(model: *mut Cbc_Model, filename: *const c_char) -> c_int;
    fn Cbc_getNumIntegers(model: *mut Cbc_Model) -> c_int;
}

/// CBC is built in: nothing to refuse.
pub(crate) fn check() -> Result<()> {
    Ok(())
}

/// The CBC library's version, e.g. `2.10.8`.
pub(crate) fn version() -> String {
    // SAFETY: `Cbc_getVersion` returns a pointer to a static NUL-terminated string (or null).
    let version = unsafe { Cbc_getVersion() };
    if version.is_null() {
        return "unknown".to_string();
    }
    // SAFETY: non-null, NUL-terminated and static, as above.
    unsafe { CStr::from_ptr(version) }
        .to_string_lossy()
        .into_owned()
}

/// Solves `job`, its time limit counted from `started`: the outcome, and the column names of
/// a model read from a file.
pub(crate) fn solve_job(job: &Job, started: Instant) -> Result<(Outcome, Option<Vec<String>>)> {
    let cbc = CbcModel::new()?;
    match &job.problem {
        Problem::Model(model) => {
            cbc.load(model)?;
            if let Some(start) = &model.start {
                cbc.set_start(start)?;
            }
            let mip = !model.integers.is_empty();
            let outcome = cbc.run(&job.settings, started, mip, model.objective_constant)?;
            Ok((outcome, None))
        }
        Problem::File { path, start } => {
            cbc.read(path)?;
            if let Some(start) = start {
                cbc.set_start_by_name(start)?;
            }
            // SAFETY: `cbc` is a live model.
            let mip = unsafe { Cbc_getNumIntegers(cbc.ptr()) } > 0;
            let outcome = cbc.run(&job.settings, started, mip, 0.0)?;
            let names = outcome.values.as_ref().map(|_| cbc.column_names());
            Ok((outcome, names))
        }
    }
}

/// A CBC model, deleted when dropped.
struct CbcModel(NonNull<Cbc_Model>);

impl Drop for CbcModel {
    fn drop(&mut self) {
        // SAFETY: the pointer came from `Cbc_newModel` and is deleted exactly once, here.
        unsafe { Cbc_deleteModel(self.0.as_ptr()) };
    }
}

impl CbcModel {
    fn new() -> Result<CbcModel> {
        // SAFETY: `Cbc_newModel` has no preconditions; it returns a new model or null.
        let ptr = unsafe { Cbc_newModel() };
        let model = NonNull::new(ptr)
            .map(CbcModel)
            .ok_or_else(|| solver_error("cannot create a model"))?;
        // SAFETY: the model is live.
        unsafe { Cbc_setLogLevel(model.ptr(), 1) };
        Ok(model)
    }

    fn ptr(&self) -> *mut Cbc_Model {
        self.0.as_ptr()
    }

    /// Loads a model: column-wise matrix, bounds, costs, integrality, names.
    fn load(&self, model: &ColumnModel) -> Result<()> {
        let columns = model.costs.len();
        let starts = to_c_ints(&model.column_starts)?;
        let indices = to_c_ints(&model.row_indices)?;
        let consistent = starts.len() == columns + 1
            && model.column_lower.len() == columns
            && model.column_upper.len() == columns
            && model.column_names.len() == columns
            && model.row_indices.len() == model.values.len()
            && model.column_starts.last() == Some(&model.values.len())
            && model.row_upper.len() == model.row_lower.len()
            && model.row_names.len() == model.row_lower.len()
            && model.start.as_ref().is_none_or(|s| s.len() == columns)
            && model.row_indices.iter().all(|&i| i < model.row_lower.len())
            && model.integers.iter().all(|&j| j < columns);
        if !consistent {
            return Err(Error::Internal(
                "the CBC worker received an inconsistent model".into(),
            ));
        }
        // SAFETY: the arrays describe a column-wise matrix of `columns` columns (`starts` has
        // columns + 1 entries, `indices` / `values` as many as its last entry, every index a
        // row) and as many rows as `row_lower` holds, all checked above; CBC copies them.
        unsafe {
            Cbc_loadProblem(
                self.ptr(),
                to_c_int(columns)?,
                to_c_int(model.row_lower.len())?,
                starts.as_ptr(),
                indices.as_ptr(),
                model.values.as_ptr(),
                model.column_lower.as_ptr(),
                model.column_upper.as_ptr(),
                model.costs.as_ptr(),
                model.row_lower.as_ptr(),
                model.row_upper.as_ptr(),
            );
            Cbc_setObjSense(self.ptr(), 1.0);
        }
        for &j in &model.integers {
            // SAFETY: `j` is a column of the loaded model (checked above).
            unsafe { Cbc_setInteger(self.ptr(), to_c_int(j)?) };
        }
        for (j, name) in model.column_names.iter().enumerate() {
            let name = c_string(name)?;
            // SAFETY: `j` is a column; CBC copies the NUL-terminated name.
            unsafe { Cbc_setColName(self.ptr(), to_c_int(j)?, name.as_ptr()) };
        }
        for (i, name) in model.row_names.iter().enumerate() {
            let name = c_string(name)?;
            // SAFETY: `i` is a row; CBC copies the NUL-terminated name.
            unsafe { Cbc_setRowName(self.ptr(), to_c_int(i)?, name.as_ptr()) };
        }
        Ok(())
    }

    /// Reads an MPS (`.mps`) or LP (anything else) file.
    fn read(&self, path: &str) -> Result<()> {
        let c_path = c_string(path)?;
        let mps = path.to_ascii_lowercase().ends_with(".mps");
        // SAFETY: the model is live and `c_path` NUL-terminated.
        let status = unsafe {
            if mps {
                Cbc_readMps(self.ptr(), c_path.as_ptr())
            } else {
                Cbc_readLp(self.ptr(), c_path.as_ptr())
            }
        };
        if status != 0 {
            return Err(solver_error(format!(
                "cannot read {path} (status {status})"
            )));
        }
        Ok(())
    }

    /// Passes a complete start by column index.
    fn set_start(&self, values: &[f64]) -> Result<()> {
        let indices = (0..values.len())
            .map(to_c_int)
            .collect::<Result<Vec<c_int>>>()?;
        // SAFETY: one index and one value per column of the loaded model; CBC copies them.
        unsafe {
            Cbc_setMIPStartI(
                self.ptr(),
                to_c_int(values.len())?,
                indices.as_ptr(),
                values.as_ptr(),
            )
        };
        Ok(())
    }

    /// Passes a start given by column names.
    fn set_start_by_name(&self, start: &[(String, f64)]) -> Result<()> {
        let names = start
            .iter()
            .map(|(name, _)| c_string(name))
            .collect::<Result<Vec<CString>>>()?;
        let pointers: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
        let values: Vec<f64> = start.iter().map(|&(_, v)| v).collect();
        // SAFETY: `pointers` holds NUL-terminated names alive until the call returns, one per
        // value; CBC copies them.
        unsafe {
            Cbc_setMIPStart(
                self.ptr(),
                to_c_int(values.len())?,
                pointers.as_ptr(),
                values.as_ptr(),
            )
        };
        Ok(())
    }

    /// Sets the options, solves and reads the results; `mip` says whether the model has integer
    /// columns, `constant` is the objective constant CBC's model lacks.
    fn run(
        &self,
        settings: &Settings,
        started: Instant,
        mip: bool,
        constant: f64,
    ) -> Result<Outcome> {
        let ptr = self.ptr();
        self.parameter("timeMode", "elapsed")?;
        self.parameter("ratioGap", &settings.common.mip_rel_gap.to_string())?;
        if let Some(tolerance) = settings.common.integrality_tolerance {
            self.parameter("integerTolerance", &tolerance.to_string())?;
        }
        if let Some(threads) = settings.common.threads {
            self.parameter("threads", &threads.to_string())?;
        }
        if !settings.preprocess {
            self.parameter("preprocess", "off")?;
        }
        if let Some(cutoff) = settings.common.objective_cutoff {
            // CBC's model lacks the objective constant.
            self.parameter("cutoff", &(cutoff - constant).to_string())?;
        }
        for (name, value) in &settings.common.parameters {
            self.parameter(name, value)?;
        }
        let remaining = settings
            .common
            .time_limit
            .map(|limit| limit.saturating_sub(started.elapsed()).as_secs_f64());
        if let Some(remaining) = remaining {
            // SAFETY: the model is live.
            unsafe { Cbc_setMaximumSeconds(ptr, remaining) };
        }
        // SAFETY: the model is live.
        unsafe { Cbc_setAllowableFractionGap(ptr, settings.common.mip_rel_gap) };
        let solve_started = Instant::now();
        // SAFETY: the model is live and loaded.
        unsafe { Cbc_solve(ptr) };
        let out_of_time =
            remaining.is_some_and(|limit| solve_started.elapsed().as_secs_f64() >= limit);
        let mut notes = Vec::new();
        let status = self.status();
        let (termination, trust_bound, solution) = if mip {
            let best = self.best_solution();
            let (termination, trust_bound) =
                mip_termination(&status, best.is_some(), out_of_time, &mut notes);
            (termination, trust_bound, best)
        } else {
            let termination = lp_termination(&status);
            let solution = if termination == Termination::Optimal {
                self.column_solution()
            } else {
                None
            };
            (termination, true, solution)
        };
        let objective = solution
            .as_ref()
            .and_then(|_| finite(self.objective_value()))
            .map(|objective| objective + constant);
        let bound = if !termination.has_meaningful_bound() || !trust_bound {
            None
        } else if mip {
            finite(self.best_possible_value()).map(|bound| bound + constant)
        } else {
            // An LP solved to optimality: its optimum is its bound.
            objective
        };
        let nodes = if mip {
            u64::try_from(self.node_count()).ok()
        } else {
            None
        };
        Ok(Outcome {
            termination,
            objective,
            bound,
            nodes,
            values: solution,
            notes,
        })
    }

    /// Number of columns.
    fn columns(&self) -> usize {
        // SAFETY: the model is live.
        usize::try_from(unsafe { Cbc_getNumCols(self.ptr()) }).unwrap_or(0)
    }

    /// The best integer solution of a solved MIP, `None` without an incumbent.
    fn best_solution(&self) -> Option<Vec<f64>> {
        // SAFETY: the model is live and solved; the result is null or one value per column.
        let values = unsafe { Cbc_bestSolution(self.ptr()) };
        copy_values(values, self.columns())
    }

    /// The column solution of a solved LP.
    fn column_solution(&self) -> Option<Vec<f64>> {
        // SAFETY: the model is live and solved; the result is null or one value per column.
        let values = unsafe { Cbc_getColSolution(self.ptr()) };
        copy_values(values, self.columns())
    }

    /// CBC's objective value of its solution (without our objective constant).
    fn objective_value(&self) -> f64 {
        // SAFETY: the model is live and solved.
        unsafe { Cbc_getObjValue(self.ptr()) }
    }

    /// CBC's best possible objective value (without our objective constant).
    fn best_possible_value(&self) -> f64 {
        // SAFETY: the model is live and solved.
        unsafe { Cbc_getBestPossibleObjValue(self.ptr()) }
    }

    /// Branch-and-bound nodes explored.
    fn node_count(&self) -> c_int {
        // SAFETY: the model is live and solved.
        unsafe { Cbc_getNodeCount(self.ptr()) }
    }

    /// CBC's status flags after a solve.
    fn status(&self) -> CbcStatus {
        let ptr = self.ptr();
        // SAFETY: the model is live and solved; these calls only read its state.
        unsafe {
            CbcStatus {
                status: Cbc_status(ptr),
                secondary: Cbc_secondaryStatus(ptr),
                abandoned: Cbc_isAbandoned(ptr) != 0,
                proven_optimal: Cbc_isProvenOptimal(ptr) != 0,
                proven_infeasible: Cbc_isProvenInfeasible(ptr) != 0,
                relaxation_unbounded: Cbc_isContinuousUnbounded(ptr) != 0,
                seconds_limit_reached: Cbc_isSecondsLimitReached(ptr) != 0,
                lp_optimal: Cbc_isInitialSolveProvenOptimal(ptr) != 0,
                lp_infeasible: Cbc_isInitialSolveProvenPrimalInfeasible(ptr) != 0,
            }
        }
    }

    fn parameter(&self, name: &str, value: &str) -> Result<()> {
        let name = c_string(name)?;
        let value = c_string(value)?;
        // SAFETY: the model is live; CBC copies both NUL-terminated strings.
        unsafe { Cbc_setParameter(self.ptr(), name.as_ptr(), value.as_ptr()) };
        Ok(())
    }

    /// The names of the model's columns.
    fn column_names(&self) -> Vec<String> {
        // SAFETY: the model is live.
        let columns = unsafe { Cbc_getNumCols(self.ptr()) }.max(0);
        (0..columns)
            .map(|j| {
                let mut buffer = vec![0 as c_char; 512];
                // SAFETY: `j` is a column; CBC writes at most `buffer.len() - 1` bytes and a NUL.
                unsafe { Cbc_getColName(self.ptr(), j, buffer.as_mut_ptr(), buffer.len() - 1) };
                // SAFETY: the buffer is NUL-terminated (zero-filled, last byte never written).
                unsafe { CStr::from_ptr(buffer.as_ptr()) }
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    }
}

/// CBC's status after a solve (see `Cbc_status` and `Cbc_secondaryStatus`: secondary 1
/// infeasible, 2 stopped on gap, 4 stopped on time, 7 relaxation unbounded).
#[derive(Debug, Clone, Copy)]
struct CbcStatus {
    status: c_int,
    secondary: c_int,
    abandoned: bool,
    proven_optimal: bool,
    proven_infeasible: bool,
    relaxation_unbounded: bool,
    seconds_limit_reached: bool,
    lp_optimal: bool,
    lp_infeasible: bool,
}

/// Our termination of a MIP solve, and whether CBC's bound can be trusted.
fn mip_termination(
    status: &CbcStatus,
    has_incumbent: bool,
    out_of_time: bool,
    notes: &mut Vec<String>,
) -> (Termination, bool) {
    let termination = mip_verdict(status, has_incumbent);
    if termination == Termination::SolverLimit {
        let limit = match status.secondary {
            3 => "its node limit",
            6 => "its solution limit",
            _ => "its iteration limit",
        };
        notes.push(format!(
            "CBC stopped at {limit} (secondary status {}), a limit of its options; the \
             incumbent, if any, is not proven optimal",
            status.secondary
        ));
    }
    if termination == Termination::Infeasible && out_of_time {
        notes.push(
            "CBC reported the model infeasible after its time limit ran out (it does so when \
             stopped during preprocessing); reported as time_limit, without CBC's bound"
                .to_string(),
        );
        return (Termination::TimeLimit, false);
    }
    (termination, true)
}

/// CBC's own verdict on a MIP solve, in our terms.
fn mip_verdict(status: &CbcStatus, has_incumbent: bool) -> Termination {
    let stopped_on_time = status.secondary == 4 || status.seconds_limit_reached;
    // Its node (3), solution (6) and iteration (8) limits, which only its options set.
    let stopped_on_a_limit = matches!(status.secondary, 3 | 6 | 8);
    if status.abandoned {
        return Termination::Error("CBC abandoned the search (numerical difficulties)".into());
    }
    if has_incumbent {
        if (status.status == 0 && status.proven_optimal) || status.secondary == 2 {
            return Termination::Optimal;
        }
        if stopped_on_time {
            return Termination::TimeLimit;
        }
        if stopped_on_a_limit {
            return Termination::SolverLimit;
        }
        return Termination::Error(format!(
            "CBC stopped with status {}, secondary status {}",
            status.status, status.secondary
        ));
    }
    if status.proven_infeasible || status.secondary == 1 {
        return Termination::Infeasible;
    }
    if status.secondary == 7 || status.relaxation_unbounded {
        return Termination::InfeasibleOrUnbounded;
    }
    if stopped_on_time {
        return Termination::TimeLimit;
    }
    if stopped_on_a_limit {
        return Termination::SolverLimit;
    }
    Termination::Error(format!(
        "CBC stopped without a solution, status {}, secondary status {}",
        status.status, status.secondary
    ))
}

/// Our termination of a solve of a model without integer columns (CBC only solves the LP).
fn lp_termination(status: &CbcStatus) -> Termination {
    if status.lp_optimal || status.proven_optimal {
        Termination::Optimal
    } else if status.lp_infeasible || status.proven_infeasible {
        Termination::Infeasible
    } else if status.relaxation_unbounded {
        Termination::InfeasibleOrUnbounded
    } else {
        Termination::Error("CBC did not solve the LP".to_string())
    }
}

/// Copies `columns` values from a CBC solution array, if there is one.
fn copy_values(values: *const f64, columns: usize) -> Option<Vec<f64>> {
    if values.is_null() {
        return None;
    }
    // SAFETY: CBC's solution arrays hold one value per column and stay valid until the model
    // is changed or deleted; we copy them at once.
    Some(unsafe { std::slice::from_raw_parts(values, columns) }.to_vec())
}

fn to_c_int(index: usize) -> Result<c_int> {
    c_int::try_from(index).map_err(|_| solver_error(format!("index {index} is too large")))
}

fn to_c_ints(indices: &[usize]) -> Result<Vec<c_int>> {
    indices.iter().map(|&i| to_c_int(i)).collect()
}

fn c_string(text: &str) -> Result<CString> {
    CString::new(text).map_err(|_| Error::Internal(format!("`{text}` holds a NUL byte")))
}

fn solver_error(message: impl Into<String>) -> Error {
    Error::Solver {
        solver: "cbc".to_string(),
        message: message.into(),
    }
}
