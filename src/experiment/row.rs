//! One row of the results tables (`runs.csv`, `runs.jsonl`): one run, every column filled or
//! explicitly empty (an empty CSV cell, JSON `null`). The columns and their meaning are
//! documented on the fields, in table order; README lists them too.

use serde::{Deserialize, Serialize};

use crate::experiment::baseline::GreedyFigures;
use crate::experiment::config::RunConfig;
use crate::experiment::datasets::RunData;
use crate::experiment::facts::SolveFacts;

/// One run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The run key (see `RunConfig::key`): every grid parameter.
    pub run_key: String,
    /// The dataset's name (its file stem) and path.
    pub dataset: String,
    pub dataset_path: String,
    /// Rows (training + test), features and classes of the data the formulation learns from
    /// (after its relabelling, if any; one-hot encoded features counted one by one).
    pub rows: usize,
    pub features: usize,
    pub classes: usize,
    pub train_rows: usize,
    /// Empty without a test set.
    pub test_rows: Option<usize>,
    pub formulation: String,
    /// The formulation's parameters, as JSON text.
    pub parameters: String,
    pub depth: usize,
    pub solver: String,
    /// The solver library's version; empty when the run failed before solving.
    pub solver_version: Option<String>,
    /// `none` or `greedy`.
    pub warm_start: String,
    pub seed: u64,
    /// `0`: no test set.
    pub test_fraction: f64,
    /// Seconds allowed for the solve.
    pub time_limit: f64,
    /// Model size; empty when the run failed before the model was built.
    pub variables: Option<usize>,
    pub binaries: Option<usize>,
    pub integers: Option<usize>,
    pub continuous: Option<usize>,
    pub constraints: Option<usize>,
    pub nonzeros: Option<usize>,
    /// Seconds to build the model.
    pub build_seconds: Option<f64>,
    /// `optimal`, `time_limit`, `infeasible`, `unbounded`, `infeasible_or_unbounded` or `error`.
    pub termination: String,
    pub has_solution: bool,
    /// Objective of the returned solution (the solver's figure).
    pub objective: Option<f64>,
    pub best_bound: Option<f64>,
    /// `max(0, objective - best_bound)` and that over `|objective|`.
    pub abs_gap: Option<f64>,
    pub rel_gap: Option<f64>,
    /// Wall seconds of the solve (model load to result).
    pub seconds: Option<f64>,
    pub nodes: Option<u64>,
    /// Seconds until the solver reported its first solution; empty when it found none (or its
    /// report does not say).
    pub time_to_first_incumbent: Option<f64>,
    pub first_incumbent: Option<f64>,
    /// Points in the trajectory file.
    pub trajectory_points: usize,
    /// Whether the trajectory says when every solution was found; `false` when only the final
    /// state is known.
    pub trajectory_complete: bool,
    /// Primal integral over the time limit, in seconds (see `primal_integral`); empty when the
    /// trajectory is not complete.
    pub primal_integral: Option<f64>,
    /// The reference objective of the primal integral: the best objective of any run of the
    /// same instance in the results.
    pub primal_integral_reference: Option<f64>,
    /// The warm start's objective in the model, whether it satisfies the model, and whether the
    /// solver took it (empty: no warm start, or the solver does not say).
    pub warm_start_objective: Option<f64>,
    pub warm_start_feasible: Option<bool>,
    pub warm_start_accepted: Option<bool>,
    /// The model's objective of the decoded tree, computed by plain code.
    pub evaluated_objective: Option<f64>,
    /// Whether the solver's objective and `evaluated_objective` disagree.
    pub decode_mismatch: bool,
    /// Accuracy and balanced accuracy of the returned tree (plain evaluation).
    pub train_accuracy: Option<f64>,
    pub train_balanced_accuracy: Option<f64>,
    pub test_accuracy: Option<f64>,
    pub test_balanced_accuracy: Option<f64>,
    /// The same for the formulation's greedy tree (CART for OCT and BinOCT) on the same split.
    pub greedy_train_accuracy: Option<f64>,
    pub greedy_train_balanced_accuracy: Option<f64>,
    pub greedy_test_accuracy: Option<f64>,
    pub greedy_test_balanced_accuracy: Option<f64>,
    /// What went wrong, for `error` terminations.
    pub error: Option<String>,
}

impl Row {
    /// The column names, in table order (taken from the CSV serialisation of a row, so they
    /// cannot drift from the type).
    pub fn column_names() -> Vec<String> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        if writer.serialize(Row::default()).is_err() {
            return Vec::new();
        }
        let bytes = writer.into_inner().unwrap_or_default();
        let mut reader = csv::Reader::from_reader(bytes.as_slice());
        reader
            .headers()
            .map(|headers| headers.iter().map(str::to_string).collect())
            .unwrap_or_default()
    }

    /// The row of a finished solve. The primal integral is left empty: the results store
    /// computes it against the reference of all runs.
    pub fn from_solve(config: &RunConfig, facts: &SolveFacts, greedy: &GreedyFigures) -> Row {
        let size = facts.model_size;
        let trajectory_complete = !facts.has_solution || facts.time_to_first_incumbent.is_some();
        let rows = facts.data.train_rows + facts.data.test_rows.unwrap_or(0);
        Row {
            run_key: config.key(),
            dataset: config.dataset.name.clone(),
            dataset_path: config.dataset.path.display().to_string(),
            rows,
            features: facts.data.features,
            classes: facts.data.classes.len(),
            train_rows: facts.data.train_rows,
            test_rows: facts.data.test_rows,
            formulation: config.formulation.clone(),
            parameters: facts.parameters.to_string(),
            depth: config.depth,
            solver: config.solver.to_string(),
            solver_version: Some(facts.solver_version.clone()),
            warm_start: config.warm_start.to_string(),
            seed: config.seed,
            test_fraction: config.test_fraction,
            time_limit: config.time_limit,
            variables: Some(size.variables),
            binaries: Some(size.binaries),
            integers: Some(size.integers),
            continuous: Some(size.continuous),
            constraints: Some(size.constraints),
            nonzeros: Some(size.nonzeros),
            build_seconds: Some(facts.build_seconds),
            termination: facts.termination.clone(),
            has_solution: facts.has_solution,
            objective: facts.objective,
            best_bound: facts.best_bound,
            abs_gap: facts.abs_gap,
            rel_gap: facts.rel_gap,
            seconds: Some(facts.seconds),
            nodes: facts.nodes,
            time_to_first_incumbent: facts.time_to_first_incumbent,
            first_incumbent: facts.first_incumbent,
            trajectory_points: facts.trajectory.len(),
            trajectory_complete,
            primal_integral: None,
            primal_integral_reference: None,
            warm_start_objective: facts.warm_start.map(|w| w.objective),
            warm_start_feasible: facts.warm_start.map(|w| w.feasible),
            warm_start_accepted: facts.warm_start.and_then(|w| w.accepted),
            evaluated_objective: facts.evaluated_objective,
            decode_mismatch: facts.has_decode_mismatch(),
            train_accuracy: facts.train.map(|a| a.accuracy),
            train_balanced_accuracy: facts.train.map(|a| a.balanced_accuracy),
            test_accuracy: facts.test.map(|a| a.accuracy),
            test_balanced_accuracy: facts.test.map(|a| a.balanced_accuracy),
            greedy_train_accuracy: Some(greedy.train.accuracy),
            greedy_train_balanced_accuracy: Some(greedy.train.balanced_accuracy),
            greedy_test_accuracy: greedy.test.map(|a| a.accuracy),
            greedy_test_balanced_accuracy: greedy.test.map(|a| a.balanced_accuracy),
            error: facts.error.clone(),
        }
    }

    /// The row of a run that failed before the solver reported (e.g. a model that could not be
    /// built): termination `error`, the message in `error`, the solve's columns empty.
    pub fn failed(
        config: &RunConfig,
        data: &RunData,
        parameters: &serde_json::Value,
        greedy: Option<&GreedyFigures>,
        message: String,
    ) -> Row {
        let train_rows = data.train.n_rows();
        let test_rows = data.test.as_ref().map(|t| t.n_rows());
        Row {
            run_key: config.key(),
            dataset: config.dataset.name.clone(),
            dataset_path: config.dataset.path.display().to_string(),
            rows: train_rows + test_rows.unwrap_or(0),
            features: data.train.n_features(),
            classes: data.train.n_classes(),
            train_rows,
            test_rows,
            formulation: config.formulation.clone(),
            parameters: parameters.to_string(),
            depth: config.depth,
            solver: config.solver.to_string(),
            solver_version: None,
            warm_start: config.warm_start.to_string(),
            seed: config.seed,
            test_fraction: config.test_fraction,
            time_limit: config.time_limit,
            variables: None,
            binaries: None,
            integers: None,
            continuous: None,
            constraints: None,
            nonzeros: None,
            build_seconds: None,
            termination: "error".to_string(),
            has_solution: false,
            objective: None,
            best_bound: None,
            abs_gap: None,
            rel_gap: None,
            seconds: None,
            nodes: None,
            time_to_first_incumbent: None,
            first_incumbent: None,
            trajectory_points: 0,
            trajectory_complete: false,
            primal_integral: None,
            primal_integral_reference: None,
            warm_start_objective: None,
            warm_start_feasible: None,
            warm_start_accepted: None,
            evaluated_objective: None,
            decode_mismatch: false,
            train_accuracy: None,
            train_balanced_accuracy: None,
            test_accuracy: None,
            test_balanced_accuracy: None,
            greedy_train_accuracy: greedy.map(|g| g.train.accuracy),
            greedy_train_balanced_accuracy: greedy.map(|g| g.train.balanced_accuracy),
            greedy_test_accuracy: greedy.and_then(|g| g.test.map(|a| a.accuracy)),
            greedy_test_balanced_accuracy: greedy.and_then(|g| g.test.map(|a| a.balanced_accuracy)),
            error: Some(message),
        }
    }

    /// The instance of the run: what the model is (dataset, formulation and parameters, split);
    /// solver, warm start and time limit do not change it.
    pub fn instance(&self) -> (String, String, String, u64, String) {
        (
            self.dataset.clone(),
            self.formulation.clone(),
            self.parameters.clone(),
            self.seed,
            self.test_fraction.to_string(),
        )
    }
}
