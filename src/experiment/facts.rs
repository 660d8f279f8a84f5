//! What one solve produced, in the shape of `milptree solve --json`'s report: [`SolveFacts`].
//!
//! The in-process runner builds it from the pipeline's [`Outcome`]; `--collect` reads it from
//! the JSON reports of the emitted jobs. The field names are the report's, so one definition
//! serves both, and a row built from either is the same.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::experiment::baseline::accuracy_on;
use crate::experiment::config::RunConfig;
use crate::experiment::datasets::RunData;
use crate::experiment::trajectory::Point;
use crate::formulation::pipeline::Outcome;

/// Accuracy figures of a tree on one set of rows.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct Accuracy {
    pub accuracy: f64,
    pub balanced_accuracy: f64,
}

/// The report's `data` block.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct DataFacts {
    pub path: String,
    pub features: usize,
    pub classes: Vec<String>,
    pub train_rows: usize,
    pub test_rows: Option<usize>,
    /// The split: present in reports of this version; absent in older ones.
    #[serde(default)]
    pub seed: Option<u64>,
    #[serde(default)]
    pub test_fraction: Option<f64>,
}

/// The report's `warm_start` block.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct WarmStartFacts {
    pub objective: f64,
    pub feasible: bool,
    pub accepted: Option<bool>,
}

/// The report's `model_size` block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct SizeFacts {
    pub variables: usize,
    pub binaries: usize,
    pub integers: usize,
    pub continuous: usize,
    pub constraints: usize,
    pub nonzeros: usize,
}

/// The figures of one solve that the results tables use.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SolveFacts {
    pub formulation: String,
    pub parameters: Value,
    pub depth: usize,
    pub data: DataFacts,
    pub solver: String,
    pub solver_version: String,
    /// `optimal`, `time_limit`, `interrupted`, `infeasible`, ... (see `Termination::name`).
    pub termination: String,
    pub error: Option<String>,
    pub has_solution: bool,
    pub objective: Option<f64>,
    pub best_bound: Option<f64>,
    pub abs_gap: Option<f64>,
    pub rel_gap: Option<f64>,
    pub seconds: f64,
    pub nodes: Option<u64>,
    pub time_to_first_incumbent: Option<f64>,
    pub first_incumbent: Option<f64>,
    pub trajectory: Vec<Point>,
    pub warm_start: Option<WarmStartFacts>,
    pub time_limit: Option<f64>,
    /// `none` or `greedy`: present in reports of this version.
    #[serde(default)]
    pub warm_start_mode: Option<String>,
    pub model_size: SizeFacts,
    pub build_seconds: f64,
    pub evaluated_objective: Option<f64>,
    /// Present (an object) when the solver's objective and the decoded tree's disagree.
    pub decode_mismatch: Value,
    pub train: Option<Accuracy>,
    pub test: Option<Accuracy>,
}

impl SolveFacts {
    /// The facts of a `milptree solve --json` report.
    pub fn from_report(report: &Value) -> std::result::Result<SolveFacts, String> {
        SolveFacts::deserialize(report).map_err(|e| e.to_string())
    }

    /// The facts of an in-process run of `config` on `data`: the figures `solve` reports.
    pub fn from_outcome(
        outcome: &Outcome,
        data: &RunData,
        config: &RunConfig,
    ) -> Result<SolveFacts> {
        let report = &outcome.report;
        let (train, test) = match &outcome.tree {
            Some(tree) => (
                Some(accuracy_on(tree, &data.train)?),
                data.test
                    .as_ref()
                    .map(|test| accuracy_on(tree, test))
                    .transpose()?,
            ),
            None => (None, None),
        };
        let size = outcome.size;
        Ok(SolveFacts {
            formulation: outcome.formulation.to_string(),
            parameters: outcome.parameters.clone(),
            depth: config.depth,
            data: DataFacts {
                path: config.dataset.path.display().to_string(),
                features: data.train.n_features(),
                classes: data.train.classes().to_vec(),
                train_rows: data.train.n_rows(),
                test_rows: data.test.as_ref().map(|t| t.n_rows()),
                seed: Some(config.seed),
                test_fraction: (config.test_fraction > 0.0).then_some(config.test_fraction),
            },
            solver: report.solver.clone(),
            solver_version: report.solver_version.clone(),
            termination: report.termination.name().to_string(),
            error: report.error.clone(),
            has_solution: report.has_solution,
            objective: report.objective,
            best_bound: report.best_bound,
            abs_gap: report.abs_gap,
            rel_gap: report.rel_gap,
            seconds: report.seconds,
            nodes: report.nodes,
            time_to_first_incumbent: report.time_to_first_incumbent,
            first_incumbent: report.first_incumbent,
            trajectory: report.trajectory.iter().map(Point::from).collect(),
            warm_start: report.warm_start.as_ref().map(|w| WarmStartFacts {
                objective: w.objective,
                feasible: w.feasible,
                accepted: w.accepted,
            }),
            time_limit: report.time_limit,
            warm_start_mode: Some(config.warm_start.name().to_string()),
            model_size: SizeFacts {
                variables: size.variables,
                binaries: size.binaries,
                integers: size.integers,
                continuous: size.continuous,
                constraints: size.constraints,
                nonzeros: size.nonzeros,
            },
            build_seconds: outcome.build_seconds,
            evaluated_objective: outcome.evaluated_objective,
            decode_mismatch: match &outcome.decode_mismatch {
                Some(mismatch) => serde_json::to_value(mismatch)
                    .map_err(|e| Error::Internal(format!("a mismatch report: {e}")))?,
                None => Value::Null,
            },
            train,
            test,
        })
    }

    /// Whether the solver's objective and the decoded tree's evaluation disagreed.
    pub fn has_decode_mismatch(&self) -> bool {
        !self.decode_mismatch.is_null()
    }
}
