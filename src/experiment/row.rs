//! One row of the results tables (`runs.csv`, `runs.jsonl`): one run, every column filled or
//! explicitly empty (an empty CSV cell, JSON `null`). The columns and their meaning are
//! documented on the fields, in table order; README lists them too.

use serde::{Deserialize, Serialize};

use crate::budget::seconds_of;
use crate::data::Sets;
use crate::experiment::baseline::GreedyFigures;
use crate::experiment::config::RunConfig;
use crate::learn::certificate::Verdict;
use crate::learn::search_rows::DpBounds;
use crate::learn::{MethodSpec, SolveDocument, WarmStartMode};
use crate::solver::Termination;

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
    /// The formulation's name (`oct`, ...).
    pub formulation: String,
    /// The formulation's parameters, as JSON text.
    pub parameters: String,
    pub depth: usize,
    pub solver: String,
    /// The solver options of the run, `NAME=VALUE` separated by spaces; empty: none.
    #[serde(default)]
    pub solver_options: String,
    /// The solver library's version; empty when the run failed before solving.
    pub solver_version: Option<String>,
    /// `none` or `greedy`.
    pub warm_start: WarmStartMode,
    pub seed: u64,
    /// `0`: no test set.
    pub test_fraction: f64,
    /// Seconds allowed for the solve.
    pub time_limit: f64,
    /// Solver threads; empty: the solver's default.
    pub threads: Option<usize>,
    /// The exact search's rows asked for (`none`, `objective`, `splits`, `all`; `solve
    /// --dp-bounds`); empty for the searches.
    #[serde(default)]
    pub dp_bounds: Option<DpBounds>,
    /// Rows of the exact search the model was solved with (objective and split rows; 0: none);
    /// empty for the searches and runs that failed before the model.
    #[serde(default)]
    pub search_rows: Option<usize>,
    /// What the reported bound rests on: `solver`, `solver_with_search_rows` or `search`
    /// (see the report's `bound_source`); empty without a bound.
    #[serde(default)]
    pub bound_source: Option<String>,
    /// Model size; empty when the run failed before the model was built.
    pub variables: Option<usize>,
    pub binaries: Option<usize>,
    pub integers: Option<usize>,
    pub continuous: Option<usize>,
    pub constraints: Option<usize>,
    pub nonzeros: Option<usize>,
    /// Seconds to build the model.
    pub build_seconds: Option<f64>,
    /// `optimal`, `time_limit`, `infeasible`, `unbounded`, `infeasible_or_unbounded` or `error`
    /// (the text of an error is in `error`).
    pub termination: Termination,
    pub has_solution: bool,
    /// Objective of the returned solution (the solver's figure).
    pub objective: Option<f64>,
    pub best_bound: Option<f64>,
    /// HiGHS's bound once it evaluated the root node (LP and cut rounds; the report's
    /// `root_bound`); empty for CBC, the searches, and solves that ended before.
    #[serde(default)]
    pub root_bound: Option<f64>,
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
    /// The tree the warm start used (`greedy`, `dp (optimal, 0.02 s)`, ...).
    pub warm_start_source: Option<String>,
    /// The warm start's objective in the model, whether it satisfies the model, and whether the
    /// solver took it (empty: no warm start, or the solver does not say).
    pub warm_start_objective: Option<f64>,
    pub warm_start_feasible: Option<bool>,
    pub warm_start_accepted: Option<bool>,
    /// The model's objective of the decoded tree, computed by plain code.
    pub evaluated_objective: Option<f64>,
    /// Whether the solver's objective and `evaluated_objective` disagree.
    pub decode_mismatch: bool,
    /// The certificate's verdict (`agrees`, `incumbent_optimal`, `incumbent_suboptimal`,
    /// `unknown`, `CONTRADICTION`, `not_applicable`); empty without a certificate.
    pub certificate: Option<Verdict>,
    /// The exact search's objective and bound of the same problem (the formulation's units),
    /// its seconds, and the MILP tree's objective above the optimum when suboptimal.
    pub certificate_objective: Option<f64>,
    pub certificate_bound: Option<f64>,
    pub certificate_seconds: Option<f64>,
    pub certificate_difference: Option<f64>,
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
    /// The side constraints the run took, as JSON text (the grid's `constraints` file); empty:
    /// none.
    #[serde(default)]
    pub side_constraints: Option<String>,
}

/// Solver options as a row holds them: `NAME=VALUE` separated by spaces.
fn options_text(options: &[(String, String)]) -> String {
    let options: Vec<String> = options
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    options.join(" ")
}

impl Row {
    /// The solver with the run's options, as summaries name it: `cbc`, `cbc[cutsOnOff=off]`.
    pub fn solver_label(&self) -> String {
        if self.solver_options.is_empty() {
            self.solver.clone()
        } else {
            format!("{}[{}]", self.solver, self.solver_options.replace(' ', ","))
        }
    }

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
    pub fn from_solve(config: &RunConfig, document: &SolveDocument, greedy: &GreedyFigures) -> Row {
        let size = document.model_size;
        let certificate_search = document.certificate.as_ref().and_then(|c| c.dp.as_ref());
        let report = &document.report;
        let trajectory_complete = !report.has_solution || report.time_to_first_incumbent.is_some();
        let data = &document.data;
        let rows = data.train_rows + data.test_rows.unwrap_or(0);
        Row {
            run_key: config.key(),
            dataset: config.dataset.name.clone(),
            dataset_path: config.dataset.path.display().to_string(),
            rows,
            features: data.features,
            classes: data.classes.len(),
            train_rows: data.train_rows,
            test_rows: data.test_rows,
            formulation: config.method.name().to_string(),
            parameters: document.parameters.to_string(),
            depth: config.depth,
            solver: config.method.solver_name().to_string(),
            solver_options: options_text(&config.solver_options),
            solver_version: Some(report.solver_version.clone()),
            warm_start: config.warm_start,
            seed: config.seed,
            test_fraction: config.test_fraction,
            time_limit: seconds_of(config.time_limit),
            threads: config.threads,
            dp_bounds: document.dp_bounds,
            search_rows: document.dp_bounds.map(|_| {
                document
                    .search_rows
                    .as_ref()
                    .map_or(0, |r| r.objective_rows + r.split_rows)
            }),
            bound_source: document.bound_source.clone(),
            variables: size.map(|s| s.variables),
            binaries: size.map(|s| s.binaries),
            integers: size.map(|s| s.integers),
            continuous: size.map(|s| s.continuous),
            constraints: size.map(|s| s.constraints),
            nonzeros: size.map(|s| s.nonzeros),
            build_seconds: document.build_seconds,
            termination: report.termination.clone(),
            has_solution: report.has_solution,
            objective: report.objective,
            best_bound: report.best_bound,
            root_bound: report.root_bound,
            abs_gap: report.abs_gap,
            rel_gap: report.rel_gap,
            seconds: Some(report.seconds),
            nodes: report.nodes,
            time_to_first_incumbent: report.time_to_first_incumbent,
            first_incumbent: report.first_incumbent,
            trajectory_points: report.trajectory.len(),
            trajectory_complete,
            primal_integral: None,
            primal_integral_reference: None,
            warm_start_source: document.warm_start_source.clone(),
            warm_start_objective: report.warm_start.as_ref().map(|w| w.objective),
            warm_start_feasible: report.warm_start.as_ref().map(|w| w.feasible),
            warm_start_accepted: report.warm_start.as_ref().and_then(|w| w.accepted),
            evaluated_objective: document.evaluated_objective,
            decode_mismatch: document.decode_mismatch.is_some(),
            certificate: document.certificate.as_ref().map(|c| c.verdict),
            certificate_objective: certificate_search.map(|dp| dp.objective),
            certificate_bound: certificate_search.map(|dp| dp.bound),
            certificate_seconds: certificate_search.map(|dp| dp.seconds),
            certificate_difference: document.certificate.as_ref().and_then(|c| c.difference),
            train_accuracy: document.train.as_ref().map(|a| a.accuracy),
            train_balanced_accuracy: document.train.as_ref().map(|a| a.balanced_accuracy),
            test_accuracy: document.test.as_ref().map(|a| a.accuracy),
            test_balanced_accuracy: document.test.as_ref().map(|a| a.balanced_accuracy),
            greedy_train_accuracy: Some(greedy.train.accuracy),
            greedy_train_balanced_accuracy: Some(greedy.train.balanced_accuracy),
            greedy_test_accuracy: greedy.test.as_ref().map(|a| a.accuracy),
            greedy_test_balanced_accuracy: greedy.test.as_ref().map(|a| a.balanced_accuracy),
            error: report.error.clone(),
            side_constraints: constraints_text(config),
        }
    }

    /// The row of a run that failed before the solver reported (e.g. a model that could not be
    /// built): termination `error`, the message in `error`, the solve's columns empty.
    pub fn failed(
        config: &RunConfig,
        data: &Sets,
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
            formulation: config.method.name().to_string(),
            parameters: parameters.to_string(),
            depth: config.depth,
            solver: config.method.solver_name().to_string(),
            solver_options: options_text(&config.solver_options),
            solver_version: None,
            warm_start: config.warm_start,
            seed: config.seed,
            test_fraction: config.test_fraction,
            time_limit: seconds_of(config.time_limit),
            threads: config.threads,
            dp_bounds: matches!(config.method, MethodSpec::Milp { .. }).then_some(config.dp_bounds),
            search_rows: None,
            bound_source: None,
            variables: None,
            binaries: None,
            integers: None,
            continuous: None,
            constraints: None,
            nonzeros: None,
            build_seconds: None,
            termination: Termination::Error(message.clone()),
            has_solution: false,
            objective: None,
            best_bound: None,
            root_bound: None,
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
            warm_start_source: None,
            warm_start_objective: None,
            warm_start_feasible: None,
            warm_start_accepted: None,
            evaluated_objective: None,
            decode_mismatch: false,
            certificate: None,
            certificate_objective: None,
            certificate_bound: None,
            certificate_seconds: None,
            certificate_difference: None,
            train_accuracy: None,
            train_balanced_accuracy: None,
            test_accuracy: None,
            test_balanced_accuracy: None,
            greedy_train_accuracy: greedy.map(|g| g.train.accuracy),
            greedy_train_balanced_accuracy: greedy.map(|g| g.train.balanced_accuracy),
            greedy_test_accuracy: greedy.and_then(|g| g.test.as_ref().map(|a| a.accuracy)),
            greedy_test_balanced_accuracy: greedy
                .and_then(|g| g.test.as_ref().map(|a| a.balanced_accuracy)),
            error: Some(message),
            side_constraints: constraints_text(config),
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

/// The run's side constraints as JSON text (see
/// [`crate::experiment::grid_constraints::constraints_text`]), if it has any.
fn constraints_text(config: &RunConfig) -> Option<String> {
    config
        .constraints
        .as_ref()
        .map(crate::experiment::grid_constraints::constraints_text)
}
