//! What a run of any method produced ([`Outcome`]): the search's report, the optional parts only
//! some methods have (the model's size), the warm start, the check of the returned tree by
//! plain code, and the tree.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::dp::DpStats;
use crate::learn::certificate::Certificate;
use crate::learn::dp_search::FrontSummary;
use crate::learn::WarmStartMode;
use crate::mip::ModelSize;
use crate::solver::SolveReport;
use crate::sparse::SparseStats;
use crate::tree::Tree;

/// The method's own objective and the plain evaluation of the returned tree, when they differ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecodeMismatch {
    pub solver_objective: f64,
    pub evaluated_objective: f64,
    pub message: String,
}

/// The size of a MILP and the time it took to build it.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelFacts {
    pub size: ModelSize,
    pub build_seconds: f64,
    /// The exact search's rows the model was solved with, if any.
    pub search_rows: Option<crate::learn::search_rows::SearchRowsReport>,
    /// The rows asked for (`--dp-bounds`), whether or not any were added.
    pub dp_bounds: crate::learn::search_rows::DpBounds,
}

/// Everything a run produced.
#[derive(Debug)]
pub struct Outcome {
    /// The formulation's name (`oct`, ...).
    pub name: &'static str,
    /// The parameters, depth included, as reported.
    pub parameters: Value,
    pub depth: usize,
    /// What the solver reported: termination, incumbent, bound, gaps, time, trajectory.
    pub report: SolveReport,
    /// The model's size and build time (MILP methods).
    pub model: Option<ModelFacts>,
    /// The exact search's statistics (the `dp` method).
    pub search: Option<DpStats>,
    /// The sparse search's statistics (the `sparse` method).
    pub sparse: Option<SparseStats>,
    /// Where the warm start came from.
    pub warm_start_mode: WarmStartMode,
    /// The solver options the user gave (none for the exact and sparse searches).
    pub solver_options: Vec<(String, String)>,
    /// The tree the warm start used (`greedy`, `dp (optimal, 0.02 s)`, ...).
    pub warm_start_source: Option<String>,
    /// The exact search's certificate of a MILP result.
    pub certificate: Option<Certificate>,
    /// The warm-start tree (as encoded) and the method's objective of it (plain code).
    pub warm_start_tree: Option<Tree>,
    pub warm_start_objective: Option<f64>,
    /// The method's objective of the returned tree, computed by plain code.
    pub evaluated_objective: Option<f64>,
    pub decode_mismatch: Option<DecodeMismatch>,
    /// Notes from encoding and decoding.
    pub notes: Vec<String>,
    /// What post-processing did (e.g. OLCT's refinement), or null.
    pub post_process: Value,
    /// The final tree (after post-processing), when a solution was found.
    pub tree: Option<Tree>,
    /// The exact search with a metric objective: the front and its best point.
    pub front: Option<FrontSummary>,
    /// A MILP's own tree when the certificate's tree beat it and took its place in `tree`.
    pub replaced: Option<ReplacedTree>,
    /// The side constraints and their values on the returned tree, or null.
    pub side_constraints: Value,
}

/// The tree a run set aside for a better one (none when the solver found none), and its
/// objective by plain code.
#[derive(Debug, Clone)]
pub struct ReplacedTree {
    pub tree: Option<Tree>,
    pub objective: Option<f64>,
}

/// Which run's tree an outcome returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TreeSource {
    /// The MILP solver's incumbent, decoded.
    Solver,
    /// The exact search run as the MILP result's certificate, whose tree was better.
    Certificate,
    /// The method's own search (dp, sparse).
    Search,
}

impl Outcome {
    /// Where the returned tree came from; `None` without a tree.
    pub fn tree_source(&self) -> Option<TreeSource> {
        self.tree.as_ref()?;
        Some(match (&self.model, &self.replaced) {
            (_, Some(_)) => TreeSource::Certificate,
            (Some(_), None) => TreeSource::Solver,
            (None, None) => TreeSource::Search,
        })
    }
}

/// Whether two objective values agree to `tolerance`, relative to their size (at least 1).
pub fn objectives_agree(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * a.abs().max(b.abs()).max(1.0)
}
