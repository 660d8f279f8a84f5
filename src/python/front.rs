//! `milptree._core.pareto_front`: the front of false positives and false negatives learned
//! from the data `fit` takes and the front's settings (JSON keyed by the Python names), by the
//! same library code as `milptree pareto` ([`Settings::front`], [`learn_front`],
//! [`crate::learn::front_run`]), interruptible as `fit` is.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use pyo3::exceptions::PyBaseException;
use pyo3::prelude::*;

use super::{dataset_of, run_interruptibly, value_error, PyTree};
use crate::data::Sets;
use crate::error::Error;
use crate::learn::front::learn_front;
use crate::learn::front_document::{FrontDocument, FrontRunInfo};
use crate::learn::front_run::{method_names, point_trees, two_class};
use crate::learn::settings::Settings;
use crate::learn::DataBlock;

/// Learns the front. The data as [`super::fit`] takes it (`x`, `n_rows`, `features`,
/// `classes`, `labels`, `weights`, `categories`); `settings`: a JSON object keyed by
/// `pareto_front`'s parameter names (`method`, `solver`, `max_depth`, `positive_class`,
/// `max_splits`, `thresholds`, `time_limit`, `memory_limit`, `threads`).
/// Returns the front's report as JSON text (`milptree pareto --json`'s document), each point's
/// tree (in the report's order), and the exception a signal handler raised while the front
/// was searched (Ctrl-C's `KeyboardInterrupt`: the search stopped early, the points are those
/// found), or `None`.
#[pyfunction]
#[pyo3(signature = (x, n_rows, features, classes, labels, weights, settings, categories=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn pareto_front(
    py: Python<'_>,
    x: &[u8],
    n_rows: usize,
    features: Vec<String>,
    classes: Vec<String>,
    labels: Vec<usize>,
    weights: Option<Vec<f64>>,
    settings: &str,
    categories: Option<Vec<Option<Vec<String>>>>,
) -> PyResult<(String, Vec<PyTree>, Option<Py<PyBaseException>>)> {
    let settings = Settings::from_json(settings).map_err(value_error)?;
    let mut request = settings.front().map_err(value_error)?;
    let data = dataset_of(x, n_rows, features, classes, labels, weights, categories)?;
    let original = Sets {
        train: data,
        test: None,
    };
    let (sets, rule) =
        two_class(&original, settings.positive_class.as_deref()).map_err(value_error)?;
    let interrupt = Arc::new(AtomicBool::new(false));
    request.budget = request
        .budget
        .clone()
        .with_interrupt(Some(Arc::clone(&interrupt)));
    let (learned, interruption) = {
        let (request, train) = (request.clone(), sets.train.clone());
        run_interruptibly(py, &interrupt, move || learn_front(&request, &train))?
    };
    let (result, interruption) = match (learned, interruption) {
        (Ok(result), interruption) => (result, interruption),
        // Stopped before it had a front: the interruption is the answer.
        (Err(_), Some(interruption)) => return Err(interruption),
        (Err(error), None) => return Err(value_error(error)),
    };
    let trees = point_trees(
        &result,
        &request.method,
        &request.problem,
        &sets.train,
        rule.as_ref(),
    )
    .map_err(value_error)?;
    let (method, solver) = method_names(&request.method);
    let document = FrontDocument::new(
        &result,
        &sets,
        FrontRunInfo {
            method,
            solver,
            problem: request.problem.clone(),
            data: DataBlock::new(Path::new("X"), &sets, None, None),
        },
        &vec![None; trees.len()],
    );
    let report = serde_json::to_string(&document).map_err(|e| {
        value_error(Error::Internal(format!(
            "the report cannot be written: {e}"
        )))
    })?;
    Ok((
        report,
        trees
            .into_iter()
            .map(|(tree, _)| PyTree::new(tree))
            .collect(),
        interruption.map(|error| error.into_value(py)),
    ))
}
