//! The one typed report of a learning run ([`SolveDocument`]), made from an [`Outcome`]:
//! `milptree solve --json` prints it, the experiment runner builds its rows from it, and
//! `milptree experiment --collect` reads it back from emitted jobs. Its fields are documented
//! in README ("JSON reports"); a figure the method does not give is `null`.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::data::{Dataset, Sets};
use crate::dp::DpStats;
use crate::error::{Error, Result};
use crate::learn::certificate::Certificate;
use crate::learn::dp_search::FrontSummary;
use crate::learn::search_rows::{DpBounds, SearchRowsReport};
use crate::learn::{DecodeMismatch, Outcome, TreeSource, WarmStartMode};
use crate::mip::ModelSize;
use crate::solver::{SolveReport, Termination};
use crate::sparse::SparseStats;
use crate::tree::{Summary, Tree};

/// The `data` block of a report: where the data came from and the sets learned and tested on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DataBlock {
    pub path: String,
    pub features: usize,
    pub classes: Vec<String>,
    pub train_rows: usize,
    pub test_rows: Option<usize>,
    /// The seed of the train/test split.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The fraction held out as the test set (`null`: none).
    #[serde(default)]
    pub test_fraction: Option<f64>,
    /// The column of row weights (absent without weights).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_column: Option<String>,
    /// The total weight of the training rows (absent without weights).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub train_weight: Option<f64>,
}

impl DataBlock {
    /// The block of `sets` read from `path`.
    pub fn new(path: &Path, sets: &Sets, seed: Option<u64>, test_fraction: Option<f64>) -> Self {
        DataBlock {
            path: path.display().to_string(),
            features: sets.train.n_features(),
            classes: sets.train.classes().to_vec(),
            train_rows: sets.train.n_rows(),
            test_rows: sets.test.as_ref().map(Dataset::n_rows),
            seed,
            test_fraction,
            weight_column: sets
                .train
                .schema()
                .columns
                .iter()
                .find(|column| column.kind == crate::data::ColumnKind::Weight)
                .map(|column| column.name.clone()),
            train_weight: sets.train.is_weighted().then(|| sets.train.total_weight()),
        }
    }
}

/// A split that sends every training row the same way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OneSidedSplit {
    pub node: usize,
    /// `left` or `right`: the side that receives no training row.
    pub empty_side: String,
}

impl OneSidedSplit {
    /// The one-sided splits of `tree` (by its stored counts).
    pub fn of(tree: &Tree) -> Vec<OneSidedSplit> {
        tree.one_sided_splits()
            .into_iter()
            .map(|(node, side)| OneSidedSplit {
                node,
                empty_side: side.to_string(),
            })
            .collect()
    }
}

/// The report of one `milptree solve`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SolveDocument {
    /// `solve`.
    pub command: String,
    /// The method: a formulation (`oct`, `binoct`, `flowoct`, `olct`) or the exact search (`dp`).
    pub formulation: String,
    /// Its parameters, depth included.
    pub parameters: Value,
    pub depth: usize,
    pub data: DataBlock,
    /// The solver's figures, at the top level.
    #[serde(flatten)]
    pub report: SolveReport,
    pub model_size: Option<ModelSize>,
    pub build_seconds: Option<f64>,
    /// The exact search's rows the MILP was solved with (`--dp-bounds`): which, how many, and
    /// the bounds they carry; `null` without them.
    #[serde(default)]
    pub search_rows: Option<SearchRowsReport>,
    /// The exact search's rows asked for (`--dp-bounds`; the families added are in
    /// `search_rows`); `null` for the searches.
    #[serde(default)]
    pub dp_bounds: Option<DpBounds>,
    /// What the solver's bound rests on: `solver` (its own proof), `solver_with_search_rows`
    /// (a proof that uses the rows of the exact search, whose own bound goes with it in
    /// `search_rows`), `search` (the exact and sparse searches); `null` without a bound.
    #[serde(default)]
    pub bound_source: Option<String>,
    /// Wall seconds of the whole command, from reading the data to the report (`seconds` is the
    /// solve's alone); set by the command line.
    #[serde(default)]
    pub command_seconds: Option<f64>,
    pub warm_start_mode: WarmStartMode,
    /// The solver options given with `--solver-option NAME=VALUE`, as `[name, value]` pairs in
    /// the order given (the model's own defaults, set before them, are in the notes).
    #[serde(default)]
    pub solver_options: Vec<(String, String)>,
    /// The tree the warm start used (`greedy`, `dp (optimal, 0.02 s)`, ...).
    #[serde(default)]
    pub warm_start_source: Option<String>,
    /// The model's objective of the warm-start tree, by plain code.
    pub warm_start_tree_objective: Option<f64>,
    /// The model's objective of the returned tree, by plain code.
    pub evaluated_objective: Option<f64>,
    /// One scale for every method: the returned tree's training errors (each costing its row's
    /// weight where rows are weighted), by plain code.
    #[serde(default)]
    pub errors: Option<f64>,
    /// The returned tree's objective in the exact search's units (weighted errors plus
    /// `alpha * L^` per split, see [`crate::learn::counterpart`]), by plain code: for the
    /// exact search its own objective, for OCT, BinOCT and FlowOCT that of their counterpart
    /// problem; `null` for the sparse search, a metric objective and OLCT.
    #[serde(default)]
    pub dp_objective: Option<f64>,
    pub decode_mismatch: Option<DecodeMismatch>,
    /// Formulation-specific post-processing (OLCT's refinement), or null.
    pub post_process: Value,
    /// With side constraints: the constraints, the features the tree uses (and their cost),
    /// each user row's value, and what the tree breaks (nothing, or the run is an error).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub side_constraints: Value,
    /// The plain evaluator's figures of the tree on the training and test sets.
    pub train: Option<Summary>,
    pub test: Option<Summary>,
    pub one_sided_splits: Option<Vec<OneSidedSplit>>,
    /// The tree file's JSON.
    pub tree: Option<Value>,
    /// Where `tree` came from: `solver` (a MILP's incumbent), `certificate` (the certificate's
    /// exact search found a better one) or `search` (the exact and sparse searches); `null`
    /// without a tree.
    #[serde(default)]
    pub tree_source: Option<TreeSource>,
    /// With `tree_source` `certificate`: the solver's own tree (`null` if it found none) and its
    /// objective by plain code.
    #[serde(default)]
    pub milp_tree: Option<Value>,
    #[serde(default)]
    pub milp_tree_objective: Option<f64>,
    /// The exact search's statistics (method `dp`).
    #[serde(default)]
    pub dp: Option<DpStats>,
    /// The sparse search's statistics (method `sparse`).
    #[serde(default)]
    pub sparse: Option<SparseStats>,
    /// The exact search's certificate of a MILP result.
    #[serde(default)]
    pub certificate: Option<Certificate>,
    /// The exact search with a metric objective (`f1`, `mcc`, `fowlkes-mallows`): the metric's
    /// value, the front's size and the returned tree's point.
    #[serde(default)]
    pub front: Option<FrontSummary>,
}

/// What `outcome`'s bound rests on (see [`SolveDocument::bound_source`]).
fn bound_source(outcome: &Outcome) -> Option<String> {
    outcome.report.best_bound?;
    let rows = outcome
        .model
        .as_ref()
        .and_then(|m| m.search_rows.as_ref())
        .map_or(0, |r| r.objective_rows + r.split_rows);
    Some(
        match (&outcome.model, rows) {
            (None, _) => "search",
            (Some(_), 0) => "solver",
            (Some(_), _) => "solver_with_search_rows",
        }
        .to_string(),
    )
}

/// The training errors of `tree` on `train`, each costing its row's weight (1 without weights).
/// A fold from 0: a sum over no row would be -0.0.
pub fn weighted_errors(tree: &Tree, train: &Dataset) -> f64 {
    tree.predict(train.rows())
        .iter()
        .zip(train.labels())
        .enumerate()
        .filter(|(_, (predicted, label))| predicted != label)
        .fold(0.0, |sum, (i, _)| sum + train.weight(i))
}

impl SolveDocument {
    /// The report of `outcome`, learned on `sets` (read from `path`, split with `seed` and
    /// `test_fraction`). The notes of the solver and of the method are given together.
    pub fn new(
        outcome: &Outcome,
        sets: &Sets,
        path: &Path,
        seed: Option<u64>,
        test_fraction: Option<f64>,
    ) -> Result<SolveDocument> {
        let mut report = outcome.report.clone();
        report.notes.extend(outcome.notes.iter().cloned());
        let summary = |tree: &Tree, set: &Dataset| tree.summary_on(set);
        let tree = outcome.tree.as_ref();
        let train = tree.map(|t| summary(t, &sets.train)).transpose()?;
        let test = tree
            .and_then(|t| sets.test.as_ref().map(|test| summary(t, test)))
            .transpose()?;
        Ok(SolveDocument {
            command: "solve".to_string(),
            formulation: outcome.name.to_string(),
            parameters: outcome.parameters.clone(),
            depth: outcome.depth,
            data: DataBlock::new(path, sets, seed, test_fraction),
            report,
            model_size: outcome.model.as_ref().map(|m| m.size),
            build_seconds: outcome.model.as_ref().map(|m| m.build_seconds),
            search_rows: outcome.model.as_ref().and_then(|m| m.search_rows.clone()),
            dp_bounds: outcome.model.as_ref().map(|m| m.dp_bounds),
            bound_source: bound_source(outcome),
            command_seconds: None,
            warm_start_mode: outcome.warm_start_mode,
            solver_options: outcome.solver_options.clone(),
            warm_start_source: outcome.warm_start_source.clone(),
            warm_start_tree_objective: outcome.warm_start_objective,
            evaluated_objective: outcome.evaluated_objective,
            errors: tree.map(|t| weighted_errors(t, &sets.train)),
            dp_objective: None,
            decode_mismatch: outcome.decode_mismatch.clone(),
            post_process: outcome.post_process.clone(),
            side_constraints: outcome.side_constraints.clone(),
            train,
            test,
            one_sided_splits: tree.map(OneSidedSplit::of),
            tree: tree.map(Tree::to_json_value),
            tree_source: outcome.tree_source(),
            milp_tree: outcome
                .replaced
                .as_ref()
                .and_then(|r| r.tree.as_ref().map(Tree::to_json_value)),
            milp_tree_objective: outcome.replaced.as_ref().and_then(|r| r.objective),
            dp: outcome.search.clone(),
            sparse: outcome.sparse.clone(),
            certificate: outcome.certificate.clone(),
            front: outcome.front.clone(),
        })
    }

    /// Reads a report from its JSON text (`source` names it in errors).
    pub fn from_json(text: &str, source: &str) -> Result<SolveDocument> {
        let value: Value = serde_json::from_str(text).map_err(|e| Error::Format {
            path: source.to_string(),
            message: format!("not a complete JSON document ({e})"),
        })?;
        SolveDocument::from_value(&value).map_err(|message| Error::Format {
            path: source.to_string(),
            message,
        })
    }

    /// Reads a report from its JSON value; the error says why it is not one.
    pub fn from_value(value: &Value) -> std::result::Result<SolveDocument, String> {
        if value.get("command").and_then(Value::as_str) != Some("solve") {
            return Err("not a `milptree solve` report".to_string());
        }
        let mut document = SolveDocument::deserialize(value)
            .map_err(|e| format!("not a usable solve report: {e}"))?;
        if document.report.termination.is_error() {
            document.report.termination =
                Termination::Error(document.report.error.clone().unwrap_or_default());
        }
        Ok(document)
    }

    /// The report as pretty JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| {
            // Every field is plain data; a failure here is a bug, reported as such.
            format!("{{\"command\": \"solve\", \"error\": \"the report cannot be written: {e}\"}}")
        })
    }
}
