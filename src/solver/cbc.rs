//! The CBC backend: the system's COIN-OR CBC through its C interface (`coin_cbc_sys`, plus the
//! functions declared here that the crate lacks), loaded from our record.
//!
//! - CBC is not thread-safe within a process: every CBC call sequence holds one global lock,
//!   so concurrent solves run one after the other (the time limit starts once the lock is
//!   held; the report's `seconds` includes the wait).
//! - Options: `timeMode elapsed` with `Cbc_setMaximumSeconds` (the time left of the wall-clock
//!   limit; fractions work; without `timeMode elapsed` CBC counts CPU seconds), `ratioGap`
//!   (default 0), `threads`. Log level 0, or 1 with `log` (CBC then writes to stdout, which is
//!   pointed at stderr during the solve).
//! - A warm start is passed whole (`Cbc_setMIPStartI`, continuous columns included). CBC fixes
//!   its integer values and solves for the rest: a start it can complete becomes its incumbent,
//!   even with a time limit of 0; otherwise it is dropped.
//! - No progress is available: the message callback of the C interface stops being called once
//!   the branch-and-bound starts and prints every message to stdout whatever the log level. The
//!   trajectory is the final point only, the first incumbent is unknown. A running CBC cannot be
//!   interrupted (an interrupt flag already set stops the solve before it starts).
//! - Results: no incumbent is detected by `Cbc_bestSolution` being null (CBC then returns junk
//!   objective values such as 1e50); the bound is `Cbc_getBestPossibleObjValue`; both get the
//!   objective constant added (CBC's model has none). CBC may stop on a very short time limit
//!   during preprocessing and claim the model infeasible: an "infeasible" verdict with the time
//!   limit used up is reported as `time_limit`. An unbounded relaxation is reported as
//!   "infeasible or unbounded" and settled by [`super::solve`].
#![allow(unsafe_code)]

use std::ffi::{CStr, CString};
use std::fs;
use std::os::raw::{c_char, c_int};
use std::path::Path;
use std::ptr::NonNull;
use std::sync::{Mutex, MutexGuard};
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

use super::progress::{finite, Monitor};
use super::report::{FileSolved, SolveReport, Solved, Termination};
use super::stdout_redirect::StdoutToStderr;
use super::{Backend, SolveOptions};
use crate::error::{Error, Result};
use crate::mip::{MipModel, RowSense};

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

/// CBC's "infinity" for bounds.
const CBC_INFINITY: f64 = f64::MAX;

/// The lock every CBC call sequence holds.
static CBC_LOCK: Mutex<()> = Mutex::new(());

/// The CBC backend.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cbc;

impl Backend for Cbc {
    fn name(&self) -> &'static str {
        "cbc"
    }

    fn version(&self) -> String {
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

    fn solve(&self, model: &MipModel, options: &SolveOptions) -> Result<Solved> {
        options.validate()?;
        model.validate()?;
        if model.vars().is_empty() {
            return super::solve_without_variables(self, model, options);
        }
        let _lock = lock();
        let started = Instant::now();
        let monitor = Monitor::new(self.name(), options, started);
        let mut report = SolveReport::new(self.name(), self.version(), options);
        if options.interrupted() {
            return Ok(interrupted_before_start(report, monitor));
        }
        let cbc = CbcModel::new()?;
        cbc.load(model)?;
        if let Some(start) = &options.warm_start {
            if start.values().len() != model.vars().len() {
                return Err(Error::Model(format!(
                    "the warm start has {} values but the model has {} columns",
                    start.values().len(),
                    model.vars().len()
                )));
            }
            cbc.set_start(start.values())?;
        }
        let outcome = cbc.run(
            options,
            &monitor,
            model.has_integers(),
            model.objective_constant(),
        )?;
        outcome.fill(&mut report, monitor);
        let solution = match outcome.values {
            Some(values) => Some(model.assignment_from_values(values)?),
            None => None,
        };
        report.seconds = started.elapsed().as_secs_f64();
        Ok(Solved { report, solution })
    }

    fn observes_incumbents(&self) -> bool {
        false
    }

    fn solve_file(
        &self,
        path: &Path,
        start: Option<&Path>,
        options: &SolveOptions,
    ) -> Result<FileSolved> {
        options.validate()?;
        let start = match start {
            Some(start) => Some(read_mst(start)?),
            None => None,
        };
        let _lock = lock();
        let started = Instant::now();
        let monitor = Monitor::new(self.name(), options, started);
        let mut report = SolveReport::new(self.name(), self.version(), options);
        if options.interrupted() {
            let report = interrupted_before_start(report, monitor).report;
            return Ok(FileSolved {
                report,
                solution: None,
            });
        }
        let cbc = CbcModel::new()?;
        cbc.read(path)?;
        if let Some(start) = &start {
            cbc.set_start_by_name(start)?;
        }
        // SAFETY: `cbc` is a live model.
        let integers = unsafe { Cbc_getNumIntegers(cbc.ptr()) } > 0;
        let outcome = cbc.run(options, &monitor, integers, 0.0)?;
        let solution = outcome
            .values
            .as_ref()
            .map(|values| cbc.column_names().into_iter().zip(values.clone()).collect());
        outcome.fill(&mut report, monitor);
        if !is_mps(path) {
            report.notes.push(
                "CBC's LP reader drops the objective's constant term: objective and bound \
                 exclude it"
                    .into(),
            );
        }
        super::set_gaps(&mut report);
        report.seconds = started.elapsed().as_secs_f64();
        Ok(FileSolved { report, solution })
    }
}

/// Whether `path` is read as MPS (extension `.mps`) rather than LP.
fn is_mps(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("mps"))
}

/// Takes the global CBC lock (a panic in another holder does not make CBC unusable).
fn lock() -> MutexGuard<'static, ()> {
    match CBC_LOCK.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// The report of a solve stopped by the interrupt flag before CBC started.
fn interrupted_before_start(mut report: SolveReport, monitor: Monitor) -> Solved {
    report.termination = Termination::Interrupted;
    report.trajectory = monitor.finish(None, None).points;
    report
        .notes
        .push("interrupted before CBC started; CBC was not run".to_string());
    Solved {
        report,
        solution: None,
    }
}

/// A CBC model, deleted when dropped. Only used while the global lock is held.
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
        // SAFETY: the model is live. Level 0 before anything else, or readers print to stdout.
        unsafe { Cbc_setLogLevel(model.ptr(), 0) };
        Ok(model)
    }

    fn ptr(&self) -> *mut Cbc_Model {
        self.0.as_ptr()
    }

    /// Loads our record: column-wise matrix, bounds, costs, integrality, names.
    fn load(&self, model: &MipModel) -> Result<()> {
        let columns = model.vars().len();
        let mut entries: Vec<Vec<(c_int, f64)>> = vec![Vec::new(); columns];
        for (i, row) in model.rows().iter().enumerate() {
            for &(j, c) in &row.terms {
                entries[j].push((to_c_int(i)?, c));
            }
        }
        let mut starts = Vec::with_capacity(columns + 1);
        let mut indices = Vec::new();
        let mut values = Vec::new();
        starts.push(0);
        for column in &entries {
            for &(i, c) in column {
                indices.push(i);
                values.push(c);
            }
            starts.push(to_c_int(indices.len())?);
        }
        let lower: Vec<f64> = model.vars().iter().map(|v| cbc_bound(v.lower)).collect();
        let upper: Vec<f64> = model.vars().iter().map(|v| cbc_bound(v.upper)).collect();
        let mut costs = vec![0.0; columns];
        for &(j, c) in model.objective_terms() {
            costs[j] = c;
        }
        let (row_lower, row_upper): (Vec<f64>, Vec<f64>) = model
            .rows()
            .iter()
            .map(|row| match row.sense {
                RowSense::Le => (-CBC_INFINITY, row.rhs),
                RowSense::Ge => (row.rhs, CBC_INFINITY),
                RowSense::Eq => (row.rhs, row.rhs),
            })
            .unzip();
        // SAFETY: the arrays describe a column-wise matrix of `columns` columns (`starts` has
        // columns + 1 entries, `indices` / `values` as many as `starts` says) and `rows` rows;
        // CBC copies them.
        unsafe {
            Cbc_loadProblem(
                self.ptr(),
                to_c_int(columns)?,
                to_c_int(model.rows().len())?,
                starts.as_ptr(),
                indices.as_ptr(),
                values.as_ptr(),
                lower.as_ptr(),
                upper.as_ptr(),
                costs.as_ptr(),
                row_lower.as_ptr(),
                row_upper.as_ptr(),
            );
            Cbc_setObjSense(self.ptr(), 1.0);
        }
        for (j, var) in model.vars().iter().enumerate() {
            let index = to_c_int(j)?;
            if var.kind.is_integral() {
                // SAFETY: `index` is a column of the loaded model.
                unsafe { Cbc_setInteger(self.ptr(), index) };
            }
            let name = c_string(model.file_name(j))?;
            // SAFETY: `index` is a column; CBC copies the NUL-terminated name.
            unsafe { Cbc_setColName(self.ptr(), index, name.as_ptr()) };
        }
        for i in 0..model.rows().len() {
            let name = c_string(model.file_row_name(i))?;
            // SAFETY: `i` is a row; CBC copies the NUL-terminated name.
            unsafe { Cbc_setRowName(self.ptr(), to_c_int(i)?, name.as_ptr()) };
        }
        Ok(())
    }

    /// Reads an MPS (`.mps`) or LP (anything else) file.
    fn read(&self, path: &Path) -> Result<()> {
        let text = path.to_str().ok_or_else(|| {
            Error::parameter("model file", format!("{} is not UTF-8", path.display()))
        })?;
        let c_path = c_string(text)?;
        // SAFETY: the model is live and `c_path` NUL-terminated.
        let status = unsafe {
            if is_mps(path) {
                Cbc_readMps(self.ptr(), c_path.as_ptr())
            } else {
                Cbc_readLp(self.ptr(), c_path.as_ptr())
            }
        };
        if status != 0 {
            return Err(solver_error(format!(
                "cannot read {} (status {status})",
                path.display()
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
        options: &SolveOptions,
        monitor: &Monitor,
        mip: bool,
        constant: f64,
    ) -> Result<Outcome> {
        let ptr = self.ptr();
        self.parameter("timeMode", "elapsed")?;
        self.parameter("ratioGap", &options.mip_rel_gap.to_string())?;
        if let Some(tolerance) = options.integrality_tolerance {
            self.parameter("integerTolerance", &tolerance.to_string())?;
        }
        if let Some(threads) = options.threads {
            self.parameter("threads", &threads.to_string())?;
        }
        if let Some(remaining) = options.remaining(monitor.elapsed()) {
            // SAFETY: the model is live.
            unsafe { Cbc_setMaximumSeconds(ptr, remaining) };
        }
        // SAFETY: the model is live.
        unsafe {
            Cbc_setAllowableFractionGap(ptr, options.mip_rel_gap);
            Cbc_setLogLevel(ptr, if options.log { 1 } else { 0 });
        }
        monitor.set_status("CBC shows no progress while it runs");
        let solve_started = monitor.elapsed();
        {
            let _redirect =
                if options.log {
                    Some(StdoutToStderr::new().map_err(|e| {
                        solver_error(format!("cannot send CBC's log to stderr: {e}"))
                    })?)
                } else {
                    None
                };
            // SAFETY: the model is live and loaded.
            unsafe { Cbc_solve(ptr) };
        }
        let solve_seconds = monitor.elapsed() - solve_started;
        let out_of_time = options
            .remaining(solve_started)
            .is_some_and(|limit| solve_seconds >= limit);
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

/// What a CBC run produced.
struct Outcome {
    termination: Termination,
    objective: Option<f64>,
    bound: Option<f64>,
    nodes: Option<u64>,
    values: Option<Vec<f64>>,
    notes: Vec<String>,
}

impl Outcome {
    fn fill(&self, report: &mut SolveReport, monitor: Monitor) {
        report.termination = self.termination.clone();
        report.has_solution = self.values.is_some();
        report.objective = self.objective;
        report.best_bound = self.bound;
        report.nodes = self.nodes;
        report.trajectory = monitor.finish(self.objective, self.bound).points;
        report.notes.extend(self.notes.iter().cloned());
    }
}

/// Reads a `.mst` start: `name value` lines, `#` comments.
fn read_mst(path: &Path) -> Result<Vec<(String, f64)>> {
    let text = fs::read_to_string(path)
        .map_err(|e| Error::input(path.display().to_string(), e.to_string()))?;
    let mut start = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split_whitespace();
        let (Some(name), Some(value), None) = (fields.next(), fields.next(), fields.next()) else {
            return Err(Error::input(
                path.display().to_string(),
                format!("line {}: expected `name value`", number + 1),
            ));
        };
        let value: f64 = value.parse().map_err(|_| {
            Error::input(
                path.display().to_string(),
                format!("line {}: `{value}` is not a number", number + 1),
            )
        })?;
        start.push((name.to_string(), value));
    }
    Ok(start)
}

/// A bound in CBC's terms (infinities as `f64::MAX`).
fn cbc_bound(value: f64) -> f64 {
    value.clamp(-CBC_INFINITY, CBC_INFINITY)
}

fn to_c_int(index: usize) -> Result<c_int> {
    c_int::try_from(index).map_err(|_| solver_error(format!("index {index} is too large")))
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
