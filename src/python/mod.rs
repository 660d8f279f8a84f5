//! The Python extension module `milptree._core` (cargo feature `python`): a thin layer over
//! [`crate::learn::learn`] that converts arrays, options and errors at the edge. The
//! scikit-learn estimators are written in Python on top of it (`python/milptree/`).
//!
//! - [`fit`]: learns a tree from a matrix of features (the bytes of a C-ordered `float64`
//!   array), class indices and optional row weights, with `solve`'s options, and returns the
//!   tree and the report `milptree solve --json` prints (after learning, what `solve` does: a
//!   MILP's certificate's better tree returned, the report's `dp_objective`). The search runs on its own thread with
//!   the GIL released; every tenth of a second the caller's thread checks for signals, and on
//!   Ctrl-C it asks the search to stop and waits for it: the best tree found is returned with
//!   the interruption (`KeyboardInterrupt`) beside it, for the caller to keep or raise; a run
//!   stopped before it had a tree raises the interruption. A callback given to `fit` is
//!   handed the run's points of progress on the caller's thread at the same ticks, and may
//!   stop the run.
//! - [`front::pareto_front`]: the front of false positives and false negatives from the same
//!   data as `fit` and the front's settings, as `milptree pareto` learns it (interruptible
//!   alike): the front's report and each point's tree.
//! - [`rashomon::rashomon_set`]: the Rashomon set of the same data and the estimator's
//!   problem, as `milptree rashomon` builds it: its report, trees by rank, samples and votes.
//! - [`tree`]: the learned tree as a Python object: prediction, probabilities, leaves, paths,
//!   text, DOT and JSON renderings, tree files, pickling.
//! - [`run_command_line`]: the `milptree` command line, for the package's console script (which
//!   also runs the HiGHS and CBC workers).
//!
//! Every library error becomes a `ValueError` carrying the library's message.

mod front;
mod groups;
mod rashomon;
mod tree;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::{PyBaseException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::cli::embed::refuse_failed_run;
use crate::data::{Column, ColumnKind, Dataset, Schema, Sets};
use crate::error::Error;
use crate::learn::counterpart;
use crate::learn::milp_method::adopt_certificate_tree;
use crate::learn::settings::Settings;
use crate::learn::{self, Method, SolveDocument};
use crate::setting::{Names, Setting};
use crate::solver::{Progress, Watch, WatchPoint};
use groups::Groups;

pub use tree::PyTree;

/// A library error as a Python `ValueError` with the library's message, settings named as the
/// estimator names them ([`Names::Python`]).
pub(crate) fn value_error(error: Error) -> PyErr {
    PyValueError::new_err(error.render(Names::Python))
}

/// The rows of a C-ordered `n_rows` x `n_features` matrix of `f64` given as its bytes.
pub(crate) fn rows_of(bytes: &[u8], n_rows: usize, n_features: usize) -> PyResult<Vec<Vec<f64>>> {
    let expected = n_rows
        .checked_mul(n_features)
        .and_then(|cells| cells.checked_mul(8));
    if expected != Some(bytes.len()) {
        return Err(PyValueError::new_err(format!(
            "X has {} bytes, not the {n_rows} x {n_features} float64 values it should hold",
            bytes.len()
        )));
    }
    let values: Vec<f64> = bytes
        .chunks_exact(8)
        .map(|cell| f64::from_ne_bytes(cell.try_into().unwrap_or([0; 8])))
        .collect();
    Ok(if n_features == 0 {
        vec![Vec::new(); n_rows]
    } else {
        values.chunks(n_features).map(<[f64]>::to_vec).collect()
    })
}

/// Learns a tree. `x`: the bytes of a C-ordered `n_rows` x `len(features)` float64 matrix;
/// `labels`: each row's index into `classes`; `weights`: each row's weight, or `None`;
/// `settings`: the run's settings as a JSON object keyed by the estimator's parameter names
/// ([`Settings::from_json`]; side constraints without a parameter of their own, such as
/// feature costs, under `constraints`); `categories`: when given, one entry
/// per name of `features`, `None` for a numeric column and its categories for a categorical
/// one, whose features (one 0/1 column per category, in that order) `x` then holds in its
/// place; `groups`: when given, each row's group for the fairness bounds, beside the rows (the
/// tree does not split on them and predicts without them); `callback`: when given, called with
/// each point of progress as a dict ([`run_watched`]).
/// Returns the tree, the solve report as JSON text, and the exception a signal handler (or
/// the callback) raised while the run went on (Ctrl-C's `KeyboardInterrupt`; the run then stopped early and the tree
/// is the best it found), or `None`.
#[pyfunction]
#[pyo3(signature = (
    x, n_rows, features, classes, labels, weights, settings, categories=None, groups=None,
    callback=None,
))]
#[allow(clippy::too_many_arguments)]
fn fit(
    py: Python<'_>,
    x: &[u8],
    n_rows: usize,
    features: Vec<String>,
    classes: Vec<String>,
    labels: Vec<usize>,
    weights: Option<Vec<f64>>,
    settings: &str,
    categories: Option<Vec<Option<Vec<String>>>>,
    groups: Option<Vec<String>>,
    callback: Option<Py<PyAny>>,
) -> PyResult<(PyTree, String, Option<Py<PyBaseException>>)> {
    let (method, mut learn_options) = Settings::from_json(settings)
        .and_then(|settings| settings.build())
        .map_err(value_error)?;
    let data = dataset_of(x, n_rows, features, classes, labels, weights, categories)?;
    let mut classes = data.classes().to_vec();
    let training = learn::provenance::training_rows(&data, Path::new("X"), None, None);
    let (data, beside) = match groups {
        Some(groups) => {
            let prepare = |data| method.prepare(data);
            let (grouped, beside) =
                Groups::add(data, &groups, &mut learn_options.constraints, prepare)
                    .map_err(|error| value_error(groups_beside(error)))?;
            (grouped, Some(beside))
        }
        None => (data, None),
    };
    let prepared = method.prepare(data).map_err(value_error)?;
    // A method may order the classes its own way (the positive class second), but not
    // learn other ones.
    let mut learned = prepared.classes().to_vec();
    classes.sort();
    learned.sort();
    if learned != classes {
        return Err(value_error(Error::parameter(
            "positive_class",
            format!(
                "{} learns one class against the others on data with more than two classes; \
                 give y two classes (e.g. y == label)",
                method.name()
            ),
        )));
    }
    let interrupt = Arc::new(AtomicBool::new(false));
    learn_options.budget = learn_options
        .budget
        .clone()
        .with_interrupt(Some(Arc::clone(&interrupt)));
    let time_limit = learn_options.budget.limit_seconds();
    let constraints = learn_options.constraints.clone();
    let watcher = callback.map(Watcher::new);
    if let Some(watcher) = &watcher {
        learn_options.progress = Progress::Watched(watcher.watch());
    }
    let (outcome, interruption) = {
        let (method, train) = (method.clone(), prepared.clone());
        run_watched(py, &interrupt, watcher, move || {
            learn::learn(&method, &train, learn_options)
        })?
    };
    let learned = outcome.and_then(|mut outcome| {
        // What `milptree solve` does after learning, in the same order: the certificate's
        // better tree returned, and the report's figures of the returned tree.
        if let Method::Milp { formulation, .. } = &method {
            adopt_certificate_tree(formulation, &prepared, constraints.as_ref(), &mut outcome)?;
        }
        outcome.report.time_limit = time_limit;
        refuse_failed_run(&method, &outcome)?;
        let made = learn::provenance::of_outcome(&outcome, training);
        if let Some(tree) = outcome.tree.as_mut() {
            tree.provenance = Some(made);
        }
        let sets = Sets {
            train: prepared,
            test: None,
        };
        let mut document = SolveDocument::new(&outcome, &sets, Path::new("X"), None, None)?;
        document.dp_objective = outcome
            .tree
            .as_ref()
            .and_then(|tree| counterpart::dp_objective(&method, &sets.train, tree));
        let mut tree = outcome
            .tree
            .ok_or_else(|| Error::Internal("a run without a tree passed".into()))?;
        let mut report = document.to_json();
        if let Some(beside) = &beside {
            tree = beside.tree_without(&tree, &sets.train)?;
            report = beside.report_without(&report, &sets.train, &tree)?;
        }
        Ok((tree, report))
    });
    match (learned, interruption) {
        (Ok((tree, report)), interruption) => Ok((
            PyTree::new(tree),
            report,
            interruption.map(|error| error.into_value(py)),
        )),
        // Stopped before it had a tree to keep: the interruption is the answer.
        (Err(_), Some(interruption)) => Err(interruption),
        (Err(error), None) if beside.is_some() => Err(value_error(groups_beside(error))),
        (Err(error), None) => Err(value_error(error)),
    }
}

/// The dataset `fit` and `pareto_front` are given: the bytes `x` of a C-ordered `n_rows` x
/// `len(features)` float64 matrix (with `categories`, one entry per name of `features`, `None`
/// for a numeric column and its categories for a categorical one, whose 0/1 features `x` holds
/// in its place), each row's index into `classes`, and each row's weight or `None`.
pub(crate) fn dataset_of(
    x: &[u8],
    n_rows: usize,
    features: Vec<String>,
    classes: Vec<String>,
    labels: Vec<usize>,
    weights: Option<Vec<f64>>,
    categories: Option<Vec<Option<Vec<String>>>>,
) -> PyResult<Dataset> {
    let mut data = match categories {
        None => {
            let rows = rows_of(x, n_rows, features.len())?;
            Dataset::from_parts("X", features, classes, rows, labels)
        }
        Some(categories) => {
            let schema = categorical_schema(features, categories).map_err(value_error)?;
            let rows = rows_of(x, n_rows, schema.n_features())?;
            Dataset::with_schema("X", schema, classes, rows, labels)
        }
    }
    .map_err(value_error)?;
    if let Some(weights) = weights {
        data = data.with_weights(weights).map_err(value_error)?;
    }
    Ok(data)
}

/// An error of a run whose groups were given beside the rows: the group column is the
/// estimator's `sensitive_features`.
fn groups_beside(error: Error) -> Error {
    match error {
        Error::Parameter { parameter, message } if parameter == Setting::GroupColumn.flag() => {
            Error::parameter("sensitive_features", message)
        }
        other => other,
    }
}

/// The schema of columns `names`, each numeric (`None`) or categorical with the categories
/// given, and a label column `class`.
fn categorical_schema(
    names: Vec<String>,
    categories: Vec<Option<Vec<String>>>,
) -> crate::Result<Schema> {
    if names.len() != categories.len() {
        return Err(Error::parameter(
            "categorical_features",
            format!(
                "{} categories for {} columns",
                categories.len(),
                names.len()
            ),
        ));
    }
    let mut columns: Vec<Column> = names
        .into_iter()
        .zip(categories)
        .map(|(name, categories)| Column {
            name,
            kind: match categories {
                None => ColumnKind::Numeric,
                Some(categories) => ColumnKind::Categorical { categories },
            },
        })
        .collect();
    columns.push(Column {
        name: "class".into(),
        kind: ColumnKind::Target,
    });
    let schema = Schema {
        features: Schema::features_of(&columns),
        columns,
        target: "class".into(),
    };
    schema
        .check()
        .map_err(|message| Error::parameter("categorical_features", message))?;
    Ok(schema)
}

/// Runs `work` on its own thread with the GIL released, checking for signals every tenth of a
/// second; on a Python exception (Ctrl-C), sets `interrupt` (which `work`'s budget holds) and
/// waits for it. Returns `work`'s result and the exception, if one was raised meanwhile. A
/// panic of the run is an error, not a crash.
pub(crate) fn run_interruptibly<T: Send + 'static>(
    py: Python<'_>,
    interrupt: &AtomicBool,
    work: impl FnOnce() -> crate::Result<T> + Send + 'static,
) -> PyResult<(crate::Result<T>, Option<PyErr>)> {
    run_watched(py, interrupt, None, work)
}

/// [`run_interruptibly`], handing the run's points of progress to `watcher`'s callback on the
/// caller's thread at each tenth of a second, and the last ones when the run ends. A callback
/// that returns a true value sets `interrupt` (the run stops and keeps its best tree); one
/// that raises sets it too, and its exception is returned as the interruption. Neither is
/// called again after that.
fn run_watched<T: Send + 'static>(
    py: Python<'_>,
    interrupt: &AtomicBool,
    mut watcher: Option<Watcher>,
    work: impl FnOnce() -> crate::Result<T> + Send + 'static,
) -> PyResult<(crate::Result<T>, Option<PyErr>)> {
    let (sender, receiver) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let outcome = work();
        // The receiver is gone only when the caller gave up waiting, so nothing is lost.
        let _ = sender.send(outcome);
    });
    let mut pending: Option<PyErr> = None;
    let mut receiver = receiver;
    let outcome = loop {
        // The receiver goes to the thread that waits without the GIL, and comes back.
        let (received, back) = py.detach(move || {
            let received = receiver.recv_timeout(Duration::from_millis(100));
            (received, receiver)
        });
        receiver = back;
        let finished = match received {
            Ok(outcome) => Some(Some(outcome)),
            Err(mpsc::RecvTimeoutError::Disconnected) => Some(None),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if pending.is_none() {
                    if let Err(error) = py.check_signals() {
                        interrupt.store(true, Ordering::SeqCst);
                        pending = Some(error);
                    }
                }
                None
            }
        };
        if pending.is_none() {
            if let Some(active) = watcher.as_ref() {
                match active.hand_on(py) {
                    Ok(false) => {}
                    Ok(true) => {
                        interrupt.store(true, Ordering::SeqCst);
                        watcher = None;
                    }
                    Err(error) => {
                        interrupt.store(true, Ordering::SeqCst);
                        pending = Some(error);
                    }
                }
            }
        }
        if let Some(outcome) = finished {
            break outcome;
        }
    };
    let joined = py.detach(|| worker.join());
    match (outcome, joined) {
        (Some(outcome), _) => Ok((outcome, pending)),
        (None, Err(panic)) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(value_error(Error::Internal(format!(
                "the run stopped on a bug: {message}"
            ))))
        }
        (None, Ok(())) => Err(value_error(Error::Internal(
            "the run ended without an outcome".into(),
        ))),
    }
}

/// A Python callback watching a run: the points the run's [`Watch`] collects, handed to the
/// callback as dicts (`seconds`, `source`, `incumbent`, `bound`) on the caller's thread.
struct Watcher {
    points: Arc<Mutex<Vec<WatchPoint>>>,
    callback: Py<PyAny>,
}

impl Watcher {
    fn new(callback: Py<PyAny>) -> Watcher {
        Watcher {
            points: Arc::default(),
            callback,
        }
    }

    /// The watch the run reports to: it keeps each point for [`Watcher::hand_on`].
    fn watch(&self) -> Watch {
        let points = Arc::clone(&self.points);
        Watch::new(move |point| match points.lock() {
            Ok(mut points) => points.push(point),
            Err(poisoned) => poisoned.into_inner().push(point),
        })
    }

    /// Calls the callback on each point kept since the last call, in order; `true` when it
    /// returned a true value (the run is to stop; the later points are dropped).
    fn hand_on(&self, py: Python<'_>) -> PyResult<bool> {
        let points = match self.points.lock() {
            Ok(mut points) => std::mem::take(&mut *points),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        };
        for point in points {
            let seen = PyDict::new(py);
            seen.set_item("seconds", point.seconds)?;
            seen.set_item("source", point.source)?;
            seen.set_item("incumbent", point.incumbent)?;
            seen.set_item("bound", point.bound)?;
            if self.callback.bind(py).call1((seen,))?.is_truthy()? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// Runs the `milptree` command line `args` (the program name first) with the GIL released;
/// returns its exit code.
#[pyfunction]
fn run_command_line(py: Python<'_>, args: Vec<String>) -> i32 {
    let args = args.into_iter().map(Into::into).collect();
    py.detach(|| crate::cli::embed::run_command_line(args))
}

/// The extension module `milptree._core`.
#[pymodule]
#[pyo3(name = "_core")]
fn core_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(fit, module)?)?;
    module.add_function(wrap_pyfunction!(front::pareto_front, module)?)?;
    module.add_function(wrap_pyfunction!(run_command_line, module)?)?;
    module.add_function(wrap_pyfunction!(tree::tree_from_json, module)?)?;
    module.add_function(wrap_pyfunction!(tree::read_tree, module)?)?;
    module.add_function(wrap_pyfunction!(rashomon::rashomon_set, module)?)?;
    module.add_class::<PyTree>()?;
    module.add_class::<rashomon::PyRashomonSet>()?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
