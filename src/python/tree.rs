//! A learned tree as a Python object (`milptree._core.Tree`): prediction, class
//! probabilities, leaves and paths for a matrix of rows given as the bytes of a C-ordered
//! `float64` array; the text, DOT, JSON and HTML renderings; tree files (the format `milptree
//! predict` reads); pickling through the JSON text.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::cli::pages::solve_page;
use crate::error::Error;
use crate::export::html::{tree_page, Rows};
use crate::export::{DotView, TextView};
use crate::learn::SolveDocument;
use crate::tree::ProbabilityModel;
use crate::tree::Tree;

use super::{rows_of, value_error};

/// A learned tree.
#[pyclass(name = "Tree", module = "milptree._core", frozen)]
pub struct PyTree {
    tree: Tree,
}

impl PyTree {
    pub fn new(tree: Tree) -> PyTree {
        PyTree { tree }
    }

    /// The rows of `x`, checked to have one value per feature of the tree.
    fn rows(&self, x: &[u8], n_rows: usize) -> PyResult<Vec<Vec<f64>>> {
        let n_features = self.tree.features().len();
        if n_rows > 0 && x.len() != n_rows * n_features * 8 {
            return Err(value_error(Error::TreeMismatch(format!(
                "X has {} values per row, but the tree has {n_features} features",
                x.len() / 8 / n_rows
            ))));
        }
        rows_of(x, n_rows, n_features)
    }
}

/// `values` as the bytes of a native-endian array of `i64` (read with `numpy.frombuffer`).
fn int_bytes<'py>(py: Python<'py>, values: impl Iterator<Item = usize>) -> Bound<'py, PyBytes> {
    let bytes: Vec<u8> = values.flat_map(|v| (v as i64).to_ne_bytes()).collect();
    PyBytes::new(py, &bytes)
}

#[pymethods]
impl PyTree {
    /// The class index of each row.
    fn predict<'py>(
        &self,
        py: Python<'py>,
        x: &[u8],
        n_rows: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let rows = self.rows(x, n_rows)?;
        Ok(int_bytes(
            py,
            rows.iter().map(|row| self.tree.predict_row(row)),
        ))
    }

    /// The id of the leaf each row reaches (the root is 1, the children of `k` are `2k` and
    /// `2k + 1`).
    fn apply<'py>(
        &self,
        py: Python<'py>,
        x: &[u8],
        n_rows: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let rows = self.rows(x, n_rows)?;
        Ok(int_bytes(py, rows.iter().map(|row| self.tree.leaf_of(row))))
    }

    /// The ids of the nodes each row passes through, root first: the concatenated ids and the
    /// offset of each row's path in them (`n_rows + 1` offsets).
    fn decision_paths<'py>(
        &self,
        py: Python<'py>,
        x: &[u8],
        n_rows: usize,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let rows = self.rows(x, n_rows)?;
        let paths: Vec<Vec<usize>> = rows.iter().map(|row| self.tree.path(row)).collect();
        let offsets = std::iter::once(0).chain(paths.iter().scan(0, |end, path| {
            *end += path.len();
            Some(*end)
        }));
        let offsets = int_bytes(py, offsets);
        Ok((int_bytes(py, paths.into_iter().flatten()), offsets))
    }

    /// Each row's probability of every class, row after row, as the bytes of a native-endian
    /// `float64` array: a logistic tree's (OLCT's) logistic models, every other tree's leaf
    /// class frequencies, smoothed by `smoothing` pseudo-rows per class when given (as
    /// `milptree predict --proba-smoothing`; refused for a logistic tree).
    #[pyo3(signature = (x, n_rows, smoothing=None))]
    fn predict_proba<'py>(
        &self,
        py: Python<'py>,
        x: &[u8],
        n_rows: usize,
        smoothing: Option<f64>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let rows = self.rows(x, n_rows)?;
        let model = ProbabilityModel::for_tree(&self.tree, smoothing).map_err(value_error)?;
        let bytes: Vec<u8> = rows
            .iter()
            .flat_map(|row| model.class_probabilities(row))
            .flat_map(f64::to_ne_bytes)
            .collect();
        Ok(PyBytes::new(py, &bytes))
    }

    /// The class labels, in class-index order.
    #[getter]
    fn classes(&self) -> Vec<String> {
        self.tree.classes().to_vec()
    }

    /// The feature names, in feature order.
    #[getter]
    fn features(&self) -> Vec<String> {
        self.tree.features().to_vec()
    }

    /// The depth of the deepest leaf.
    #[getter]
    fn depth(&self) -> usize {
        self.tree.actual_depth()
    }

    /// The depth the tree was learned for.
    #[getter]
    fn max_depth(&self) -> usize {
        self.tree.depth()
    }

    /// The number of leaves.
    #[getter]
    fn n_leaves(&self) -> usize {
        self.tree.leaves().len()
    }

    /// The number of split nodes.
    #[getter]
    fn n_splits(&self) -> usize {
        self.tree.n_splits()
    }

    /// One more than the largest node id (the columns of a decision path).
    #[getter]
    fn node_count(&self) -> usize {
        self.tree.nodes().map(|(id, _)| id + 1).max().unwrap_or(0)
    }

    /// The tree as indented text (as `milptree show` prints it).
    fn to_text(&self) -> String {
        TextView(&self.tree).to_string()
    }

    /// The tree as a Graphviz DOT digraph.
    fn to_dot(&self) -> String {
        DotView(&self.tree).to_string()
    }

    /// The tree file's JSON text.
    fn to_json(&self) -> String {
        self.tree.to_json_string()
    }

    /// A self-contained HTML page of the tree (`milptree show --format html`): with `report`
    /// (the JSON text of the solve report) the solve's page (`milptree solve --html`); with
    /// `x` (the bytes of `n_rows` rows, as `predict` takes them) and `labels` (each row's
    /// index into the tree's classes), rows to pick and route, embedded when few enough.
    #[pyo3(signature = (report=None, x=None, n_rows=0, labels=None))]
    fn to_html(
        &self,
        report: Option<&str>,
        x: Option<&[u8]>,
        n_rows: usize,
        labels: Option<Vec<usize>>,
    ) -> PyResult<String> {
        let values = x.map(|x| self.rows(x, n_rows)).transpose()?;
        if let (Some(values), Some(labels)) = (&values, &labels) {
            let n_classes = self.tree.classes().len();
            if labels.len() != values.len() || labels.iter().any(|&l| l >= n_classes) {
                return Err(value_error(Error::TreeMismatch(format!(
                    "{} labels for {} rows, each one of the tree's {n_classes} classes",
                    labels.len(),
                    values.len()
                ))));
            }
        }
        let rows = values.as_ref().map(|values| Rows {
            source: "rows given",
            values,
            classes: self.tree.classes(),
            labels: labels.as_deref(),
            weights: None,
        });
        Ok(match report {
            Some(text) => {
                let document = SolveDocument::from_json(text, "report").map_err(value_error)?;
                solve_page(
                    &document,
                    self.tree.provenance.as_ref(),
                    Some(&self.tree),
                    rows.as_ref(),
                )
            }
            None => tree_page(&self.tree, rows.as_ref()),
        })
    }

    /// Writes the tree file that `milptree predict --tree` and `milptree show` read.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        std::fs::write(&path, self.tree.to_json_string()).map_err(|source| {
            value_error(Error::Output {
                path: path.display().to_string(),
                source,
            })
        })
    }

    /// A one-line summary: depth, leaves, features and classes.
    fn __repr__(&self) -> String {
        format!(
            "<milptree Tree: depth {}, {} leaves, {} features, {} classes>",
            self.tree.actual_depth(),
            self.tree.leaves().len(),
            self.tree.features().len(),
            self.tree.classes().len()
        )
    }

    /// Pickling: the tree rebuilt from its JSON text.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        let rebuild = py.import("milptree._core")?.getattr("tree_from_json")?;
        Ok((rebuild.unbind(), (self.tree.to_json_string(),)))
    }
}

/// A tree from the JSON text of a tree file.
#[pyfunction]
#[pyo3(signature = (text, source = "tree"))]
pub fn tree_from_json(text: &str, source: &str) -> PyResult<PyTree> {
    Tree::from_json_str(text, source)
        .map(PyTree::new)
        .map_err(value_error)
}

/// The tree of a tree file (as `milptree solve -o` writes it).
#[pyfunction]
pub fn read_tree(path: PathBuf) -> PyResult<PyTree> {
    Tree::read(&path).map(PyTree::new).map_err(value_error)
}
