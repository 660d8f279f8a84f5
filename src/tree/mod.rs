//! The classification tree model and its evaluation.
//!
//! A [`Tree`] lives in the positions of a complete binary tree of depth `depth`, numbered in
//! breadth-first order: the root is 1 and the children of node `t` are `2t` (left) and `2t + 1`
//! (right). Every present node is a split or a leaf; a leaf may sit above the last level.
//! A split is axis-aligned (`x[feature] <= threshold` goes left, in the data's original units)
//! or oblique (`w . z + b <= 0` goes left, over the standardised features `z = (x - mean) / scale`
//! whose scaling the tree keeps). Every node stores the per-class counts of the training rows
//! that reach it, recomputed from data by plain code ([`Tree::recount`]). A learned tree's
//! counts follow one rule whatever learned it ([`Tree::recount_on`]): with row weights that are
//! all whole numbers each row counts its weight (the counts of the rows repeated by weight),
//! otherwise each row counts 1.
//!
//! A missing value (`NaN`) at an axis split goes the split's learned [`MissingSide`] when it
//! has one; otherwise (a feature with no missing value in training, or an oblique split that
//! needs a missing value) it goes to the child more training rows reached, right on a tie
//! (scikit-learn's rule).

mod auc;
pub mod derived;
mod eval;
mod json;
pub mod kept_features;
pub mod missing_copies;
mod probability;
mod provenance;

use serde::{Deserialize, Serialize};

use crate::data::Schema;
use crate::error::{Error, Result};

pub use auc::auc;
pub use eval::{evaluate, from_confusion, ClassMetrics, Evaluation, Summary};
pub use json::{TREE_FORMAT, TREE_FORMAT_VERSION};
pub use probability::{sigmoid, ProbabilityModel};
pub use provenance::{CertificateNote, Provenance, TrainingRows};

/// The deepest tree milptree represents (2^(depth+1) node positions).
pub const MAX_DEPTH: usize = 20;

/// Feature scaling of oblique splits: `z_j = (x_j - mean_j) / scale_j`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standardisation {
    pub mean: Vec<f64>,
    pub scale: Vec<f64>,
}

impl Standardisation {
    /// Zero mean, unit variance over `rows` (population standard deviation, as scikit-learn's
    /// `StandardScaler`); a constant feature gets scale 1, so it standardises to 0.
    pub fn fit(rows: &[Vec<f64>], n_features: usize) -> Standardisation {
        Standardisation::fit_weighted(rows, n_features, &vec![1.0; rows.len()])
    }

    /// [`Standardisation::fit`] with row `i` counted `weights[i]` times (weighted mean and
    /// population variance): for whole weights, the fit over the rows repeated that often.
    pub fn fit_weighted(rows: &[Vec<f64>], n_features: usize, weights: &[f64]) -> Standardisation {
        let total: f64 = weights.iter().sum();
        let total = if total > 0.0 { total } else { 1.0 };
        let mut mean = vec![0.0; n_features];
        for (row, w) in rows.iter().zip(weights) {
            for (m, x) in mean.iter_mut().zip(row) {
                *m += w * x / total;
            }
        }
        let mut variance = vec![0.0; n_features];
        for (row, w) in rows.iter().zip(weights) {
            for j in 0..n_features {
                variance[j] += w * (row[j] - mean[j]).powi(2) / total;
            }
        }
        let scale = variance
            .iter()
            .map(|v| if v.sqrt() > 1e-12 { v.sqrt() } else { 1.0 })
            .collect();
        Standardisation { mean, scale }
    }

    /// The standardised values of one row.
    pub fn apply(&self, row: &[f64]) -> Vec<f64> {
        row.iter()
            .zip(self.mean.iter().zip(&self.scale))
            .map(|(x, (m, s))| (x - m) / s)
            .collect()
    }

    /// The oblique score `weights . z + bias` of `row` (original units), `z` its standardised
    /// values: the one formula by which oblique splits route rows. NaN when `weights` or `row`
    /// does not have one value per standardised feature.
    pub fn score(&self, weights: &[f64], bias: f64, row: &[f64]) -> f64 {
        let n = self.mean.len();
        if weights.len() != n || row.len() != n || self.scale.len() != n {
            return f64::NAN;
        }
        weights
            .iter()
            .zip(row)
            .zip(self.mean.iter().zip(&self.scale))
            // A feature of weight 0 takes no part, whatever its value: 0 * NaN would be NaN.
            .filter(|((w, _), _)| **w != 0.0)
            .map(|((w, x), (m, s))| w * (x - m) / s)
            .sum::<f64>()
            + bias
    }
}

/// Where an axis split sends the rows missing its feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissingSide {
    Left,
    Right,
}

impl MissingSide {
    /// `left` or `right`.
    pub fn name(self) -> &'static str {
        match self {
            MissingSide::Left => "left",
            MissingSide::Right => "right",
        }
    }
}

/// How a split node routes a row.
#[derive(Debug, Clone, PartialEq)]
pub enum Split {
    /// `x[feature] <= threshold` goes left, in original units.
    Axis { feature: usize, threshold: f64 },
    /// `weights . z + bias <= 0` goes left, with `z` the standardised features.
    Oblique { weights: Vec<f64>, bias: f64 },
}

/// What a node is.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    Split(Split),
    Leaf { class: usize },
}

/// A node and the per-class counts of the training rows that reach it.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    pub counts: Vec<usize>,
}

impl Node {
    /// Number of training rows that reach the node.
    pub fn rows(&self) -> usize {
        self.counts.iter().sum()
    }
}

/// Depth of node `id` (the root, node 1, has depth 0). Node ids start at 1: `0` is no node,
/// and is given depth 0.
pub fn node_depth(id: usize) -> usize {
    id.max(1).ilog2() as usize
}

/// A validated classification tree. Build one with [`TreeBuilder`].
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    schema: Schema,
    classes: Vec<String>,
    depth: usize,
    standardisation: Option<Standardisation>,
    /// Indexed by node id; index 0 is unused.
    nodes: Vec<Option<Node>>,
    /// The learned missing side of each axis split, indexed by node id (`None`: not learned).
    missing: Vec<Option<MissingSide>>,
    /// Free-form description of how the tree was learned (method, parameters).
    pub learned_by: Option<serde_json::Value>,
    /// How the tree was made, when the run that made it recorded it (tree files version 2).
    pub provenance: Option<Provenance>,
}

/// Collects nodes, then validates them into a [`Tree`].
#[derive(Debug, Clone)]
pub struct TreeBuilder {
    schema: Schema,
    classes: Vec<String>,
    depth: usize,
    standardisation: Option<Standardisation>,
    nodes: Vec<Option<NodeKind>>,
    missing: Vec<Option<MissingSide>>,
}

impl TreeBuilder {
    /// A builder for a tree of at most `depth` split levels over `schema`'s features.
    pub fn new(schema: Schema, classes: Vec<String>, depth: usize) -> Result<TreeBuilder> {
        if depth > MAX_DEPTH {
            return Err(Error::parameter(
                "depth",
                format!("{depth} is larger than the largest supported depth, {MAX_DEPTH}"),
            ));
        }
        Ok(TreeBuilder {
            schema,
            classes,
            depth,
            standardisation: None,
            nodes: vec![None; 1 << (depth + 1)],
            missing: vec![None; 1 << (depth + 1)],
        })
    }

    /// The scaling that oblique splits apply to the features.
    pub fn standardisation(mut self, standardisation: Standardisation) -> Self {
        self.standardisation = Some(standardisation);
        self
    }

    fn slot(&mut self, id: usize) -> Result<&mut Option<NodeKind>> {
        let capacity = self.nodes.len();
        self.nodes.get_mut(id).filter(|_| id >= 1).ok_or_else(|| {
            Error::InvalidTree(format!(
                "node {id} is outside a tree of depth {} (nodes 1 to {})",
                node_depth(capacity - 1),
                capacity - 1
            ))
        })
    }

    /// Sets node `id` to a split.
    pub fn split(&mut self, id: usize, split: Split) -> Result<&mut Self> {
        *self.slot(id)? = Some(NodeKind::Split(split));
        Ok(self)
    }

    /// Sends the rows missing the feature of axis split `id` to `side`.
    pub fn missing_side(&mut self, id: usize, side: MissingSide) -> Result<&mut Self> {
        self.slot(id)?;
        self.missing[id] = Some(side);
        Ok(self)
    }

    /// Sets node `id` to a leaf predicting `class`.
    pub fn leaf(&mut self, id: usize, class: usize) -> Result<&mut Self> {
        *self.slot(id)? = Some(NodeKind::Leaf { class });
        Ok(self)
    }

    /// Validates the structure and returns the tree, with all counts zero.
    pub fn build(self) -> Result<Tree> {
        let n_features = self.schema.n_features();
        let n_classes = self.classes.len();
        let invalid = |message: String| Err(Error::InvalidTree(message));
        if self.nodes.get(1).is_none_or(Option::is_none) {
            return invalid("the root (node 1) is missing".into());
        }
        if let Some(s) = &self.standardisation {
            if s.mean.len() != n_features || s.scale.len() != n_features {
                return invalid(format!(
                    "the standardisation has {} means and {} scales for {n_features} features",
                    s.mean.len(),
                    s.scale.len()
                ));
            }
            if s.scale.iter().any(|v| !(v.is_finite() && *v > 0.0))
                || s.mean.iter().any(|v| !v.is_finite())
            {
                return invalid(
                    "the standardisation has a non-finite mean or a non-positive scale".into(),
                );
            }
        }
        for id in 1..self.nodes.len() {
            if self.missing[id].is_some()
                && !matches!(self.nodes[id], Some(NodeKind::Split(Split::Axis { .. })))
            {
                return invalid(format!(
                    "node {id} has a missing side but is not an axis split"
                ));
            }
            let Some(kind) = &self.nodes[id] else {
                continue;
            };
            if id > 1 && !matches!(self.nodes[id / 2], Some(NodeKind::Split(_))) {
                return invalid(format!(
                    "node {id} is present but its parent {} is not a split",
                    id / 2
                ));
            }
            match kind {
                NodeKind::Leaf { class } => {
                    if *class >= n_classes {
                        return invalid(format!("leaf {id} predicts class {class} of {n_classes}"));
                    }
                }
                NodeKind::Split(split) => {
                    if node_depth(id) >= self.depth {
                        return invalid(format!(
                            "node {id} splits at the last level of a depth-{} tree",
                            self.depth
                        ));
                    }
                    if self.nodes[2 * id].is_none() || self.nodes[2 * id + 1].is_none() {
                        return invalid(format!("split {id} lacks a child"));
                    }
                    match split {
                        Split::Axis { feature, threshold } => {
                            if *feature >= n_features {
                                return invalid(format!(
                                    "split {id} uses feature {feature} of {n_features}"
                                ));
                            }
                            if !threshold.is_finite() {
                                return invalid(format!("split {id} has a non-finite threshold"));
                            }
                        }
                        Split::Oblique { weights, bias } => {
                            if weights.len() != n_features {
                                return invalid(format!(
                                    "split {id} has {} weights for {n_features} features",
                                    weights.len()
                                ));
                            }
                            if weights.iter().any(|w| !w.is_finite()) || !bias.is_finite() {
                                return invalid(format!(
                                    "split {id} has a non-finite weight or bias"
                                ));
                            }
                            if self.standardisation.is_none() {
                                return invalid(format!(
                                    "split {id} is oblique but the tree has no standardisation"
                                ));
                            }
                        }
                    }
                }
            }
        }
        let nodes = self
            .nodes
            .into_iter()
            .map(|kind| {
                kind.map(|kind| Node {
                    kind,
                    counts: vec![0; n_classes],
                })
            })
            .collect();
        Ok(Tree {
            schema: self.schema,
            classes: self.classes,
            depth: self.depth,
            standardisation: self.standardisation,
            nodes,
            missing: self.missing,
            learned_by: None,
            provenance: None,
        })
    }
}

impl Tree {
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    pub fn classes(&self) -> &[String] {
        &self.classes
    }

    pub fn features(&self) -> &[String] {
        &self.schema.features
    }

    /// The depth the tree was built for (its deepest possible split level).
    pub fn depth(&self) -> usize {
        self.depth
    }

    pub fn standardisation(&self) -> Option<&Standardisation> {
        self.standardisation.as_ref()
    }

    /// Node `id`, if present.
    pub fn node(&self, id: usize) -> Option<&Node> {
        self.nodes.get(id).and_then(Option::as_ref)
    }

    /// All present nodes with their ids, in breadth-first order.
    pub fn nodes(&self) -> impl Iterator<Item = (usize, &Node)> {
        self.nodes
            .iter()
            .enumerate()
            .filter_map(|(id, node)| node.as_ref().map(|node| (id, node)))
    }

    /// Ids of the leaves, in breadth-first order.
    pub fn leaves(&self) -> Vec<usize> {
        self.nodes()
            .filter(|(_, node)| matches!(node.kind, NodeKind::Leaf { .. }))
            .map(|(id, _)| id)
            .collect()
    }

    /// Number of split nodes.
    pub fn n_splits(&self) -> usize {
        self.nodes()
            .filter(|(_, node)| matches!(node.kind, NodeKind::Split(_)))
            .count()
    }

    /// The depth of the deepest leaf.
    pub fn actual_depth(&self) -> usize {
        self.leaves().into_iter().map(node_depth).max().unwrap_or(0)
    }

    /// Whether `split` sends `row` (original units) to the left child: `x[feature] <=
    /// threshold` or `w . z + b <= 0`. A row that is not one value per feature of the tree
    /// cannot be read as the tree's features and goes right at every split, as does a NaN
    /// value (NaN is not `<=` anything).
    pub fn goes_left(&self, split: &Split, row: &[f64]) -> bool {
        if row.len() != self.schema.n_features() {
            return false;
        }
        match split {
            Split::Axis { feature, threshold } => {
                row.get(*feature).is_some_and(|value| value <= threshold)
            }
            Split::Oblique { weights, bias } => self.oblique_value(weights, *bias, row) <= 0.0,
        }
    }

    /// For an axis split on one category of a categorical column whose threshold separates 0
    /// from 1 (`0 <= threshold < 1`), the column and the category: rows with that category go
    /// right (`column = category`), the others left (`column != category`), a category unseen
    /// in training included (it encodes as 0).
    pub fn category_split(&self, split: &Split) -> Option<(&str, &str)> {
        match split {
            Split::Axis { feature, threshold } if (0.0..1.0).contains(threshold) => {
                self.schema.category_of(*feature)
            }
            _ => None,
        }
    }

    /// For split node `id`, an axis split on a category of a categorical column that separates
    /// the rows missing the column (`NaN` in each of its categories' features) from every other
    /// row (a threshold below 0 with the missing rows sent left, or at 1 or above with them sent
    /// right), the column and the side of the missing rows: it reads `column is missing` on that
    /// side and `column is present` on the other.
    pub fn missing_test(&self, id: usize) -> Option<(&str, MissingSide)> {
        let NodeKind::Split(Split::Axis { feature, threshold }) = &self.node(id)?.kind else {
            return None;
        };
        let (column, _) = self.schema.category_of(*feature)?;
        match self.missing_side(id)? {
            MissingSide::Left if *threshold < 0.0 => Some((column, MissingSide::Left)),
            MissingSide::Right if *threshold >= 1.0 => Some((column, MissingSide::Right)),
            _ => None,
        }
    }

    /// `weights . z + bias` for `row`, with `z` the standardised row; NaN when the tree has no
    /// standardisation (then it has no oblique split) or the lengths do not fit.
    pub fn oblique_value(&self, weights: &[f64], bias: f64, row: &[f64]) -> f64 {
        self.standardisation
            .as_ref()
            .map_or(f64::NAN, |s| s.score(weights, bias, row))
    }

    /// The learned missing side of axis split `id`, if any.
    pub fn missing_side(&self, id: usize) -> Option<MissingSide> {
        self.missing.get(id).copied().flatten()
    }

    /// Whether split node `id` sends `row` to the left child: as [`Tree::goes_left`] when the
    /// split can read the row; a row missing (`NaN`) a value the split needs goes the split's
    /// learned missing side, or, without one, to the child more training rows reached (right
    /// on a tie).
    pub fn goes_left_at(&self, id: usize, split: &Split, row: &[f64]) -> bool {
        if row.len() != self.schema.n_features() {
            return false;
        }
        let needs_missing = match split {
            Split::Axis { feature, .. } => row.get(*feature).is_some_and(|v| v.is_nan()),
            Split::Oblique { weights, .. } => weights
                .iter()
                .zip(row)
                .any(|(w, x)| *w != 0.0 && x.is_nan()),
        };
        if !needs_missing {
            return self.goes_left(split, row);
        }
        match self.missing_side(id) {
            Some(side) => side == MissingSide::Left,
            None => {
                let rows = |child: usize| self.node(child).map_or(0, Node::rows);
                rows(2 * id) > rows(2 * id + 1)
            }
        }
    }

    /// The ids of the nodes `row` passes through, root first, leaf last.
    pub fn path(&self, row: &[f64]) -> Vec<usize> {
        let mut id = 1;
        let mut path = vec![1];
        while let Some(Node {
            kind: NodeKind::Split(split),
            ..
        }) = self.node(id)
        {
            id = if self.goes_left_at(id, split, row) {
                2 * id
            } else {
                2 * id + 1
            };
            path.push(id);
        }
        path
    }

    /// The leaf `row` reaches.
    pub fn leaf_of(&self, row: &[f64]) -> usize {
        *self.path(row).last().expect("a path has at least the root")
    }

    /// The class predicted for one row.
    pub fn predict_row(&self, row: &[f64]) -> usize {
        match self.node(self.leaf_of(row)) {
            Some(Node {
                kind: NodeKind::Leaf { class },
                ..
            }) => *class,
            _ => unreachable!("a validated tree routes every row to a leaf"),
        }
    }

    /// The class predicted for each row.
    pub fn predict(&self, rows: &[Vec<f64>]) -> Vec<usize> {
        rows.iter().map(|row| self.predict_row(row)).collect()
    }

    /// Changes the class leaf `id` predicts.
    pub fn set_leaf_class(&mut self, id: usize, class: usize) -> Result<()> {
        if class >= self.classes.len() {
            return Err(Error::InvalidTree(format!(
                "leaf {id} cannot predict class {class} of {}",
                self.classes.len()
            )));
        }
        match self.nodes.get_mut(id).and_then(Option::as_mut) {
            Some(Node {
                kind: NodeKind::Leaf { class: current },
                ..
            }) => {
                *current = class;
                Ok(())
            }
            _ => Err(Error::InvalidTree(format!("node {id} is not a leaf"))),
        }
    }

    /// Recomputes every node's per-class counts from training rows and their labels.
    ///
    /// Fails with [`Error::TreeMismatch`], leaving the counts as they were, when the rows and
    /// labels differ in number, a row is not one value per feature of the tree, or a label is
    /// not one of the tree's classes.
    pub fn recount(&mut self, rows: &[Vec<f64>], labels: &[usize]) -> Result<()> {
        self.count_rows(rows, labels, |_| 1)
    }

    /// Recomputes every node's per-class counts from the training rows of `data`, by the one
    /// rule of a learned tree, whatever learned it and however: when `data` has row weights that
    /// are all whole numbers, each row counts its weight (the counts of the rows repeated by
    /// weight, so that class frequencies, and the side a missing value takes where no side was
    /// learned, are those of a tree learned on the repeated rows); otherwise each row counts 1.
    pub fn recount_on(&mut self, data: &crate::data::Dataset) -> Result<()> {
        let whole = data
            .weights()
            .filter(|weights| weights.iter().all(|w| w.fract() == 0.0 && *w >= 0.0));
        match whole {
            Some(weights) => self.count_rows(data.rows(), data.labels(), |i| weights[i] as usize),
            None => self.count_rows(data.rows(), data.labels(), |_| 1),
        }
    }

    /// Sets every node's counts from `rows` and `labels`, row `i` counting `weight(i)`.
    fn count_rows(
        &mut self,
        rows: &[Vec<f64>],
        labels: &[usize],
        weight: impl Fn(usize) -> usize,
    ) -> Result<()> {
        self.check_rows(rows, labels)?;
        let n_classes = self.classes.len();
        for node in self.nodes.iter_mut().flatten() {
            node.counts = vec![0; n_classes];
        }
        for (i, (row, &label)) in rows.iter().zip(labels).enumerate() {
            for id in self.path(row) {
                if let Some(count) = self
                    .nodes
                    .get_mut(id)
                    .and_then(Option::as_mut)
                    .and_then(|node| node.counts.get_mut(label))
                {
                    *count += weight(i);
                }
            }
        }
        Ok(())
    }

    /// Checks that `rows` and `labels` can be routed and counted by this tree: as many of
    /// each, one value per feature in every row, every label one of the tree's classes.
    fn check_rows(&self, rows: &[Vec<f64>], labels: &[usize]) -> Result<()> {
        if rows.len() != labels.len() {
            return Err(Error::TreeMismatch(format!(
                "{} rows but {} labels",
                rows.len(),
                labels.len()
            )));
        }
        let n_features = self.schema.n_features();
        if let Some((i, row)) = rows.iter().enumerate().find(|(_, r)| r.len() != n_features) {
            return Err(Error::TreeMismatch(format!(
                "row {i} has {} values, but the tree has {n_features} features",
                row.len()
            )));
        }
        let n_classes = self.classes.len();
        if let Some((i, label)) = labels.iter().enumerate().find(|(_, &l)| l >= n_classes) {
            return Err(Error::TreeMismatch(format!(
                "row {i} has label {label}, but the tree has {n_classes} classes"
            )));
        }
        Ok(())
    }

    /// Splits that send every training row reaching them the same way (by the stored counts),
    /// with the side that receives no row: `(id, "left" | "right")`.
    pub fn one_sided_splits(&self) -> Vec<(usize, &'static str)> {
        self.nodes()
            .filter(|(_, node)| matches!(node.kind, NodeKind::Split(_)))
            .filter_map(|(id, _)| {
                let left = self.node(2 * id).map_or(0, Node::rows);
                let right = self.node(2 * id + 1).map_or(0, Node::rows);
                match (left, right) {
                    (0, _) => Some((id, "left")),
                    (_, 0) => Some((id, "right")),
                    _ => None,
                }
            })
            .collect()
    }

    /// Per-class counts of the training rows the tree was counted on (the root's counts).
    pub fn training_counts(&self) -> &[usize] {
        self.node(1).map_or(&[], |root| &root.counts)
    }

    /// Whether every split's counts are the sum of its children's counts (a consistency check
    /// on trees read from files).
    pub fn counts_consistent(&self) -> bool {
        self.nodes()
            .filter(|(_, node)| matches!(node.kind, NodeKind::Split(_)))
            .all(
                |(id, node)| match (self.node(2 * id), self.node(2 * id + 1)) {
                    (Some(left), Some(right)) => node
                        .counts
                        .iter()
                        .zip(left.counts.iter().zip(&right.counts))
                        .all(|(n, (l, r))| l.checked_add(*r) == Some(*n)),
                    _ => false,
                },
            )
    }

    /// Evaluates the tree on rows with known labels (classes index `classes`, which must start
    /// with the tree's own classes). Fails when the rows and labels differ in number, a row is
    /// not one value per feature of the tree, or a label is not one of `classes`.
    pub fn evaluate(
        &self,
        rows: &[Vec<f64>],
        labels: &[usize],
        classes: &[String],
    ) -> Result<Evaluation> {
        let n_features = self.schema.n_features();
        if let Some((i, row)) = rows.iter().enumerate().find(|(_, r)| r.len() != n_features) {
            return Err(Error::TreeMismatch(format!(
                "row {i} has {} values, but the tree has {n_features} features",
                row.len()
            )));
        }
        if classes.get(..self.classes.len()) != Some(self.classes.as_slice()) {
            return Err(Error::TreeMismatch(format!(
                "the classes [{}] do not start with the tree's classes [{}]",
                classes.join(", "),
                self.classes.join(", ")
            )));
        }
        evaluate(&self.predict(rows), labels, classes)
    }

    /// The headline figures of the tree on `data` ([`Tree::evaluate`]), with the weighted ones
    /// when the rows have weights.
    pub fn summary_on(&self, data: &crate::data::Dataset) -> Result<Summary> {
        let summary = self
            .evaluate(data.rows(), data.labels(), data.classes())?
            .summary();
        Ok(match data.weights() {
            Some(weights) => {
                summary.with_row_weights(&self.predict(data.rows()), data.labels(), Some(weights))
            }
            None => summary,
        })
    }

    /// The evaluator's figures on the rows the tree was counted on (its training rows), from
    /// the stored leaf counts.
    pub fn training_evaluation(&self) -> Evaluation {
        let k = self.classes.len();
        let mut confusion = vec![vec![0usize; k]; k];
        for id in self.leaves() {
            if let Some(Node {
                kind: NodeKind::Leaf { class },
                counts,
            }) = self.node(id)
            {
                for (row, &count) in confusion.iter_mut().zip(counts) {
                    if let Some(cell) = row.get_mut(*class) {
                        *cell += count;
                    }
                }
            }
        }
        eval::from_square_confusion(confusion, &self.classes)
    }
}
