//! What a parent and its solver worker say to each other, whatever the solver.
//!
//! - Parent to worker, on the worker's stdin: one JSON [`Job`] (a backend's problem and
//!   settings), then end of file. Numbers survive JSON exactly (shortest round-trip
//!   formatting); infinite bounds travel as `f64::MAX` ([`WIRE_INFINITY`]), which JSON can hold
//!   and both solvers read as infinite.
//! - Worker to parent, on the worker's stdout: the solver's log, line by line, as it is
//!   printed; lines starting with [`EVENT_PREFIX`] followed by a JSON [`Event`] (an incumbent
//!   or a bound, from a backend that can tell them while it runs); then one line
//!   [`RESULT_PREFIX`] followed by the JSON [`WireOutcome`]. The worker's stderr carries its own
//!   errors.
//!
//! A job names the protocol version and the milptree version that wrote it; a worker of another
//! version refuses it, so a stale binary cannot misread a job.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::mip::{MipModel, RowSense};
use crate::solver::outcome::Outcome;
use crate::solver::{SolveOptions, Termination};

/// The version of this protocol; a change of any type here or in a backend's job changes it.
pub(crate) const PROTOCOL_VERSION: u32 = 5;

/// The start of the worker's result line on its stdout (no solver prints it).
pub(crate) const RESULT_PREFIX: &str = "@milptree-worker-result ";

/// The start of an event line on the worker's stdout.
pub(crate) const EVENT_PREFIX: &str = "@milptree-worker-event ";

/// An infinite bound on the wire.
pub(crate) const WIRE_INFINITY: f64 = f64::MAX;

/// One solve, as the worker receives it: a backend's problem `P` and settings `S`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Job<P, S> {
    pub protocol: u32,
    pub milptree_version: String,
    pub problem: P,
    pub settings: S,
}

impl<P, S> Job<P, S> {
    pub(crate) fn new(problem: P, settings: S) -> Job<P, S> {
        Job {
            protocol: PROTOCOL_VERSION,
            milptree_version: env!("CARGO_PKG_VERSION").to_string(),
            problem,
            settings,
        }
    }

    /// Why this worker cannot run the job, if it cannot.
    pub(crate) fn incompatibility(&self) -> Option<String> {
        let ours = env!("CARGO_PKG_VERSION");
        (self.protocol != PROTOCOL_VERSION || self.milptree_version != ours).then(|| {
            format!(
                "the job was written by milptree {} (worker protocol {}), this worker is \
                 milptree {ours} (protocol {PROTOCOL_VERSION})",
                self.milptree_version, self.protocol
            )
        })
    }
}

/// How a solver runs, for both solvers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Settings {
    /// The time the solver may take, counted from when the worker started.
    pub time_limit: Option<Duration>,
    pub mip_rel_gap: f64,
    pub threads: Option<usize>,
    pub integrality_tolerance: Option<f64>,
    /// Whether the solver's log is to be passed on (CBC's is always written: the parent reads it).
    pub log: bool,
    /// Solver parameters set last, in order ([`crate::solver::SolveOptions::solver_options`]).
    pub parameters: Vec<(String, String)>,
    /// An objective cutoff, objective constant included: only better solutions are sought
    /// ([`crate::solver::SolveOptions::start_as_cutoff`]).
    pub objective_cutoff: Option<f64>,
}

impl Settings {
    /// The settings of `options` for a solve that started at `started`.
    pub(crate) fn new(options: &SolveOptions, started: Instant) -> Settings {
        Settings {
            time_limit: options.remaining(started.elapsed()),
            mip_rel_gap: options.mip_rel_gap,
            threads: options.threads,
            integrality_tolerance: options.integrality_tolerance,
            log: options.log,
            parameters: options.solver_options.clone(),
            objective_cutoff: None,
        }
    }
}

/// A model as both solvers load it: a column-wise matrix, bounds (infinity as
/// [`WIRE_INFINITY`]), costs, integer columns and names, with its start.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct ColumnModel {
    pub column_lower: Vec<f64>,
    pub column_upper: Vec<f64>,
    pub costs: Vec<f64>,
    /// The columns that must take integer values.
    pub integers: Vec<usize>,
    pub column_names: Vec<String>,
    /// Column `j`'s entries are `row_indices[column_starts[j]..column_starts[j + 1]]`.
    pub column_starts: Vec<usize>,
    pub row_indices: Vec<usize>,
    pub values: Vec<f64>,
    pub row_lower: Vec<f64>,
    pub row_upper: Vec<f64>,
    pub row_names: Vec<String>,
    /// The objective's constant.
    pub objective_constant: f64,
    /// A complete start, one value per column.
    pub start: Option<Vec<f64>>,
}

impl ColumnModel {
    /// `model` in column form, with the start `start` (one value per column).
    pub(crate) fn new(model: &MipModel, start: Option<Vec<f64>>) -> ColumnModel {
        let columns = model.vars().len();
        // Column-wise by counting: each column's entries, in row order, without a vector per
        // column (a model of a million columns would allocate a million).
        let mut column_starts = vec![0usize; columns + 1];
        for row in model.rows() {
            for &(j, _) in &row.terms {
                column_starts[j + 1] += 1;
            }
        }
        for j in 0..columns {
            column_starts[j + 1] += column_starts[j];
        }
        let entries = column_starts[columns];
        let mut next = column_starts.clone();
        let mut row_indices = vec![0usize; entries];
        let mut values = vec![0.0; entries];
        for (i, row) in model.rows().iter().enumerate() {
            for &(j, c) in &row.terms {
                row_indices[next[j]] = i;
                values[next[j]] = c;
                next[j] += 1;
            }
        }
        let mut problem = ColumnModel {
            column_starts,
            row_indices,
            values,
            ..ColumnModel::default()
        };
        let bound = |value: f64| value.clamp(-WIRE_INFINITY, WIRE_INFINITY);
        problem.costs = vec![0.0; columns];
        for &(j, c) in model.objective_terms() {
            problem.costs[j] = c;
        }
        for (j, var) in model.vars().iter().enumerate() {
            problem.column_lower.push(bound(var.lower));
            problem.column_upper.push(bound(var.upper));
            if var.kind.is_integral() {
                problem.integers.push(j);
            }
            problem.column_names.push(model.file_name(j).to_string());
        }
        for (i, row) in model.rows().iter().enumerate() {
            let (lower, upper) = match row.sense {
                RowSense::Le => (-WIRE_INFINITY, row.rhs),
                RowSense::Ge => (row.rhs, WIRE_INFINITY),
                RowSense::Eq => (row.rhs, row.rhs),
            };
            problem.row_lower.push(lower);
            problem.row_upper.push(upper);
            problem.row_names.push(model.file_row_name(i).to_string());
        }
        problem.objective_constant = model.objective_constant();
        problem.start = start;
        problem
    }
}

/// What a worker tells while it solves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Event {
    /// The incumbent's objective (constant included), if any.
    pub incumbent: Option<f64>,
    /// The bound (constant included), if known.
    pub bound: Option<f64>,
    /// An improving solution's values, one per column: present when this event is a new
    /// incumbent.
    pub values: Option<Vec<f64>>,
    /// Whether `bound` is the bound at the end of the solver's first root node evaluation (its
    /// root LP and cut rounds).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub root: bool,
}

/// An [`Outcome`] on the wire, with the column names of a model read from a file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct WireOutcome {
    /// [`Termination::name`], and the text of an error.
    pub termination: String,
    pub error: Option<String>,
    pub objective: Option<f64>,
    pub bound: Option<f64>,
    pub nodes: Option<u64>,
    pub values: Option<Vec<f64>>,
    pub notes: Vec<String>,
    /// The model's column names (files only).
    pub column_names: Option<Vec<String>>,
}

impl WireOutcome {
    pub(crate) fn new(outcome: Outcome, column_names: Option<Vec<String>>) -> WireOutcome {
        let error = match &outcome.termination {
            Termination::Error(text) | Termination::SolverError(text) => Some(text.clone()),
            _ => None,
        };
        WireOutcome {
            termination: outcome.termination.name().to_string(),
            error,
            objective: outcome.objective,
            bound: outcome.bound,
            nodes: outcome.nodes,
            values: outcome.values,
            notes: outcome.notes,
            column_names,
        }
    }

    /// The outcome, and the column names of a file's model.
    pub(crate) fn into_outcome(self) -> (Outcome, Option<Vec<String>>) {
        let text = self.error.unwrap_or_default();
        let termination =
            Termination::from_name(&self.termination, text.clone()).unwrap_or_else(|| {
                Termination::Error(format!(
                    "the solver worker reported an unknown termination `{}` {text}",
                    self.termination
                ))
            });
        let outcome = Outcome {
            termination,
            objective: self.objective,
            bound: self.bound,
            nodes: self.nodes,
            values: self.values,
            notes: self.notes,
        };
        (outcome, self.column_names)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_cross_the_wire_unchanged() {
        for termination in [
            Termination::Optimal,
            Termination::TimeLimit,
            Termination::SolverLimit,
            Termination::InfeasibleOrUnbounded,
            Termination::Error("status 3".into()),
            Termination::SolverError("signal 11".into()),
        ] {
            let outcome = Outcome {
                termination,
                objective: Some(0.1 + 0.2),
                bound: Some(f64::MAX),
                nodes: Some(7),
                values: Some(vec![1.0, 1e-300, -0.0]),
                notes: vec!["a note".into()],
            };
            let wire = WireOutcome::new(outcome.clone(), None);
            let text = serde_json::to_string(&wire).expect("serialises");
            let back: WireOutcome = serde_json::from_str(&text).expect("parses");
            assert_eq!(back.into_outcome().0, outcome);
        }
    }

    #[test]
    fn a_job_of_another_version_is_refused() {
        let mut job = Job::new((), ());
        assert_eq!(job.incompatibility(), None);
        job.protocol += 1;
        assert!(job
            .incompatibility()
            .is_some_and(|text| text.contains("protocol")));
    }

    #[test]
    fn a_model_in_column_form_keeps_every_entry() {
        use crate::mip::{constraint, MipModel};
        let mut model = MipModel::new("m");
        let x = model.integer("x", 0.0, f64::INFINITY);
        let y = model.continuous("y", -1.0, 1.0);
        model.add_constraint("r0", constraint!(x + 2.0 * y <= 3.0));
        model.add_constraint("r1", constraint!(y >= -0.5));
        model.set_objective(x - y + 4.0);
        let columns = ColumnModel::new(&model, Some(vec![1.0, 0.0]));
        assert_eq!(columns.column_starts, vec![0, 1, 3]);
        assert_eq!(columns.row_indices, vec![0, 0, 1]);
        assert_eq!(columns.values, vec![1.0, 2.0, 1.0]);
        assert_eq!(columns.column_upper, vec![WIRE_INFINITY, 1.0]);
        assert_eq!(columns.row_lower, vec![-WIRE_INFINITY, -0.5]);
        assert_eq!(columns.row_upper, vec![3.0, WIRE_INFINITY]);
        assert_eq!(columns.costs, vec![1.0, -1.0]);
        assert_eq!(columns.integers, vec![0]);
        assert_eq!(columns.objective_constant, 4.0);
    }
}
