//! What the parent and the CBC worker say to each other.
//!
//! - Parent to worker, on the worker's stdin: one JSON [`Job`] (the model in CBC's terms, or a
//!   file to read, the start and the settings), then end of file. Numbers survive JSON exactly
//!   (shortest round-trip formatting); CBC's infinity is `f64::MAX`, which JSON can hold.
//! - Worker to parent, on the worker's stdout: CBC's log, line by line, as CBC prints it, then
//!   one line [`RESULT_PREFIX`] followed by the JSON [`WireOutcome`]. Nothing else is written
//!   there. The worker's stderr carries its own errors.
//!
//! A job names the protocol version and the milptree version that wrote it; a worker of another
//! version refuses it, so a stale binary cannot misread a job.

use serde::{Deserialize, Serialize};

use crate::solver::outcome::Outcome;
use crate::solver::Termination;

/// The version of this protocol; a change of any type here changes it.
pub(crate) const PROTOCOL_VERSION: u32 = 2;

/// The start of the worker's result line on its stdout (CBC never prints it).
pub(crate) const RESULT_PREFIX: &str = "@milptree-cbc-worker-result ";

/// One CBC solve, as the worker receives it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Job {
    pub protocol: u32,
    pub milptree_version: String,
    pub problem: Problem,
    pub settings: Settings,
}

impl Job {
    pub(crate) fn new(problem: Problem, settings: Settings) -> Job {
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

/// The problem to solve.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Problem {
    /// A model given whole, with its start.
    Model(Box<ModelProblem>),
    /// A model file read by CBC's own reader (`.mps` as MPS, anything else as LP), with a start
    /// given by column names.
    File {
        path: String,
        start: Option<Vec<(String, f64)>>,
    },
}

/// A model in CBC's terms: a column-wise matrix, bounds (infinity as `f64::MAX`), costs,
/// integer columns and names.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct ModelProblem {
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
    /// The objective's constant, which CBC's model lacks; added to CBC's figures.
    pub objective_constant: f64,
    /// A complete start, one value per column.
    pub start: Option<Vec<f64>>,
}

/// How CBC runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Settings {
    /// Seconds CBC may take, counted from when the worker started.
    pub time_limit: Option<f64>,
    pub mip_rel_gap: f64,
    pub threads: Option<usize>,
    pub integrality_tolerance: Option<f64>,
    /// Whether CBC preprocesses the model (see the module documentation of the backend).
    pub preprocess: bool,
    /// CBC parameters set last, in order ([`crate::solver::SolveOptions::solver_options`]).
    pub parameters: Vec<(String, String)>,
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
                    "the CBC worker reported an unknown termination `{}` {text}",
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
        let mut job = Job::new(
            Problem::Model(Box::default()),
            Settings {
                time_limit: None,
                mip_rel_gap: 0.0,
                threads: None,
                integrality_tolerance: None,
                preprocess: true,
                parameters: Vec::new(),
            },
        );
        assert_eq!(job.incompatibility(), None);
        job.protocol += 1;
        assert!(job
            .incompatibility()
            .is_some_and(|text| text.contains("protocol")));
    }
}
