//! `milptree._core.rashomon_set`: the Rashomon set of the data `fit` takes, with the
//! estimator's problem (the exact search's, from the same settings: `max_depth`, `alpha`,
//! `min_samples_leaf`, `class_weight`) and the set's margin (`epsilon` or `max_errors`), built
//! by the same library code as `milptree rashomon` ([`RashomonSet`], [`Report`]) and
//! interruptible as `fit` is. The set stays in Rust; Python reads it through
//! [`PyRashomonSet`]'s methods.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use num_bigint::BigUint;
use pyo3::prelude::*;
use serde_json::{Map, Value};

use super::{dataset_of, rows_of, run_interruptibly, value_error, PyTree};
use crate::budget::Budget;
use crate::cli::pages::rashomon_page;
use crate::error::Error;
use crate::export::html::Rows;
use crate::learn::rashomon_problem::rashomon_problem;
use crate::learn::settings::Settings;
use crate::rashomon::report::Report;
use crate::rashomon::{Limits, Margin, Ranked, RashomonSet};

/// The settings a Rashomon set takes besides its margin: the exact search's problem and the
/// limits.
const PROBLEM_SETTINGS: [&str; 14] = [
    "max_depth",
    "group_column",
    "allow_group_as_feature",
    "max_parity_gap",
    "max_opportunity_gap",
    "positive_class",
    "forbidden_features",
    "constraints",
    "alpha",
    "min_samples_leaf",
    "max_leaf_rows",
    "class_weight",
    "time_limit",
    "memory_limit",
];

/// A built Rashomon set.
#[pyclass(name = "RashomonSet", module = "milptree._core", frozen)]
pub struct PyRashomonSet {
    set: RashomonSet,
    /// `milptree rashomon --json`'s report of the set (without the command's data block).
    report: String,
    /// The report itself (its importances, one row per tree, among it).
    reported: Report,
}

/// What the set's report reads besides the set: the importances' trees and seed.
struct ReportSettings {
    importance_trees: usize,
    seed: u64,
}

/// The set's margin, the settings of its problem and of its report, from the JSON `settings`.
fn parse(settings: &str) -> crate::Result<(Margin, Settings, ReportSettings)> {
    let object: Map<String, Value> = serde_json::from_str(settings)
        .map_err(|e| Error::parameter("settings", format!("not a JSON object: {e}")))?;
    let number = |key: &str| -> crate::Result<Option<f64>> {
        match object.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => value
                .as_f64()
                .map(Some)
                .ok_or_else(|| Error::parameter(key, format!("{value} is not a number"))),
        }
    };
    let margin = match (number("epsilon")?, number("max_errors")?) {
        (Some(_), Some(_)) => {
            return Err(Error::parameter(
                "epsilon",
                "give epsilon or max_errors, not both",
            ))
        }
        (Some(e), None) => Margin::Relative(e),
        (None, Some(n)) => Margin::Objective(n),
        (None, None) => {
            return Err(Error::parameter(
                "epsilon",
                "give epsilon (relative to the optimum) or max_errors (an objective)",
            ))
        }
    };
    let whole = |key: &str, default: u64| -> crate::Result<u64> {
        match object.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(value) => value.as_u64().ok_or_else(|| {
                Error::parameter(key, format!("{value} is not a whole number of at least 0"))
            }),
        }
    };
    let report = ReportSettings {
        importance_trees: usize::try_from(whole("importance_trees", 1000)?).unwrap_or(usize::MAX),
        seed: whole("random_state", 0)?,
    };
    let mut problem = Map::new();
    problem.insert("method".into(), Value::from("dp"));
    for (key, value) in &object {
        match key.as_str() {
            "epsilon" | "max_errors" | "importance_trees" | "random_state" => {}
            "objective" => match value.as_str() {
                Some("accuracy" | "balanced") => {
                    problem.insert(key.to_string(), value.clone());
                }
                _ => {
                    return Err(Error::parameter(
                        "objective",
                        format!("{value}: the Rashomon set takes accuracy or balanced"),
                    ))
                }
            },
            key if PROBLEM_SETTINGS.contains(&key) => {
                problem.insert(key.to_string(), value.clone());
            }
            other => {
                return Err(Error::parameter(
                    other,
                    format!(
                        "is not a setting of the Rashomon set (it takes epsilon, max_errors, \
                         importance_trees, random_state, {})",
                        PROBLEM_SETTINGS.join(", ")
                    ),
                ))
            }
        }
    }
    let settings = Settings::from_json(&Value::Object(problem).to_string())?;
    Ok((margin, settings, report))
}

/// Builds the set. The data as [`super::fit`] takes it (`x`, `n_rows`, `features`,
/// `classes`, `labels`, `weights`, `categories`); `settings`: a JSON object with `epsilon` or
/// `max_errors`, and optionally `max_depth`, `alpha`, `min_samples_leaf`, `class_weight`,
/// `objective` (`accuracy` or `balanced`),
/// `max_leaf_rows`, `time_limit`, `memory_limit`, and the fairness settings (`group_column`,
/// `max_parity_gap`, `max_opportunity_gap`, `allow_group_as_feature`, `positive_class`). Returns the set, or raises the
/// interruption (Ctrl-C) or a `ValueError` with the library's message.
#[pyfunction]
#[pyo3(signature = (x, n_rows, features, classes, labels, weights, settings, categories=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn rashomon_set(
    py: Python<'_>,
    x: &[u8],
    n_rows: usize,
    features: Vec<String>,
    classes: Vec<String>,
    labels: Vec<usize>,
    weights: Option<Vec<f64>>,
    settings: &str,
    categories: Option<Vec<Option<Vec<String>>>>,
) -> PyResult<PyRashomonSet> {
    let (margin, settings, reading) = parse(settings).map_err(value_error)?;
    let data = dataset_of(x, n_rows, features, classes, labels, weights, categories)?;
    let (problem, restriction) = rashomon_problem(&settings, &data).map_err(value_error)?;
    let interrupt = Arc::new(AtomicBool::new(false));
    let limits = Limits::new(
        settings
            .time_limit
            .map_or_else(Budget::unlimited, Budget::of)
            .with_interrupt(Some(Arc::clone(&interrupt))),
        settings
            .memory_limit
            .unwrap_or(crate::rashomon::DEFAULT_MEMORY_LIMIT_MB),
    );
    let (built, interruption) = run_interruptibly(py, &interrupt, move || {
        let set = RashomonSet::build_restricted(&data, &problem, &restriction, margin, &limits)?;
        let report = Report::of(&set, reading.importance_trees, reading.seed)?;
        Ok(PyRashomonSet {
            report: report.json(&set).to_string(),
            reported: report,
            set,
        })
    })?;
    match (built, interruption) {
        // A set is complete or not given: an interrupted build has nothing to return.
        (_, Some(interruption)) => Err(interruption),
        (Ok(set), None) => Ok(set),
        (Err(error), None) => Err(value_error(error)),
    }
}

/// A ranked tree as Python takes it: its rank (decimal text), objective, threshold variants
/// (decimal text) and tree.
type PyRanked = (String, f64, String, PyTree);

fn py_ranked(ranked: Ranked) -> PyRanked {
    (
        ranked.rank.to_string(),
        ranked.objective,
        ranked.shape.variants().to_string(),
        PyTree::new(ranked.tree),
    )
}

#[pymethods]
impl PyRashomonSet {
    /// The report (`milptree rashomon --json`'s, without the data block) as JSON text.
    fn report(&self) -> String {
        self.report.clone()
    }

    /// The tree of rank `rank` (decimal text; 0 is a best tree) in objective order, or `None`
    /// past the last.
    fn tree(&self, rank: &str) -> PyResult<Option<PyRanked>> {
        let rank: BigUint = rank.parse().map_err(|_| {
            value_error(Error::parameter(
                "rank",
                format!("`{rank}` is not a whole number"),
            ))
        })?;
        Ok(self.set.tree(&rank).map_err(value_error)?.map(py_ranked))
    }

    /// Each feature's importance in every tree of the report's importances (one row per tree).
    fn importances(&self) -> Vec<Vec<f64>> {
        self.reported.importances.per_tree.clone()
    }

    /// The set's page (`milptree rashomon --html`): its first `first` trees in objective
    /// order and `samples` drawn from seed `seed` in the browser, the training rows to route.
    fn to_html(&self, first: usize, samples: usize, seed: u64) -> PyResult<String> {
        let data = self.set.data();
        let listed = self.set.first(first).map_err(value_error)?;
        let drawn = self.set.sample(samples, seed).map_err(value_error)?;
        let source = "training rows given to fit";
        let rows = Rows::of(data, source);
        Ok(rashomon_page(
            &self.set,
            &self.reported,
            &listed,
            &drawn,
            &rows,
            source,
            &data.fingerprint(),
        ))
    }

    /// `k` trees drawn uniformly with replacement, from seed `seed`.
    fn sample(&self, k: usize, seed: u64) -> PyResult<Vec<PyRanked>> {
        Ok(self
            .set
            .sample(k, seed)
            .map_err(value_error)?
            .into_iter()
            .map(py_ranked)
            .collect())
    }

    /// Per row of the `n_rows` x features matrix `x` (its bytes), the number of the set's trees
    /// predicting each class, as decimal text.
    fn votes(&self, x: &[u8], n_rows: usize) -> PyResult<Vec<Vec<String>>> {
        let rows = rows_of(x, n_rows, self.set.data().n_features())?;
        let votes = self.set.votes(&rows).map_err(value_error)?;
        Ok(votes
            .iter()
            .map(|row| row.iter().map(ToString::to_string).collect())
            .collect())
    }
}
