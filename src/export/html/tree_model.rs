//! What a page knows of a tree ([`TreeModel`]): every node with the text of its split (as the
//! text and DOT renderings write it), where missing values go, its training counts (and their
//! weights when the rows have weights), each leaf's class and probabilities; the columns a row
//! needs to be routed, with the scaling of oblique splits; and the rows a page may embed for
//! picking ([`RowsModel`], only when they are few enough: [`MAX_EMBEDDED_VALUES`]).

use serde::Serialize;

use crate::data::ColumnKind;
use crate::export::{constant_note, constant_side, split_condition, worded_conditions};
use crate::tree::{node_depth, NodeKind, ProbabilityModel, Split, Standardisation, Tree};

/// The most feature values (rows times features) a page embeds for picking rows; past it, the
/// page routes typed values only and says why.
pub const MAX_EMBEDDED_VALUES: usize = 20_000;

/// One node of a page's tree.
#[derive(Debug, Clone, Serialize)]
pub struct NodeModel {
    pub id: usize,
    pub depth: usize,
    /// The condition that sends a row left (`petal_length <= 2.45`, `colour != blue`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The condition of the right branch (`petal_length > 2.45`, `colour = blue`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right_text: Option<String>,
    /// An axis split's feature and threshold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feature: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f64>,
    /// An oblique split's non-zero weights as `(feature, weight)` and its bias (standardised
    /// features).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terms: Option<Vec<(usize, f64)>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bias: Option<f64>,
    /// The learned side of the rows missing the split's feature (`left` or `right`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<&'static str>,
    /// The split's own conditions say where the missing rows go (`colour is missing`), so the
    /// page adds no missing-side mark to its branches.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub missing_test: bool,
    /// For a split whose condition holds or fails whatever the row, the note saying so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constant: Option<String>,
    /// A leaf's class.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<usize>,
    /// A leaf's class probabilities (the class frequencies of its training rows, or of its
    /// nearest ancestor's when none reached it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probability: Option<Vec<f64>>,
    /// The training rows of each class that reach the node.
    pub counts: Vec<usize>,
    /// Their weight per class, when the rows have weights.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weighted: Option<Vec<f64>>,
}

/// A column a row needs to be routed: one some split reads.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Input {
    Numeric {
        name: String,
        feature: usize,
    },
    /// A categorical column: its categories, the feature of each (1 for the row's category).
    Categorical {
        name: String,
        categories: Vec<String>,
        features: Vec<usize>,
    },
}

/// A tree as a page draws and routes it.
#[derive(Debug, Clone, Serialize)]
pub struct TreeModel {
    pub classes: Vec<String>,
    pub features: Vec<String>,
    pub inputs: Vec<Input>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standardisation: Option<Standardisation>,
    pub nodes: Vec<NodeModel>,
    /// A logistic tree's negative and positive classes: a row's probability is the logistic
    /// model of the last split it passes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logistic: Option<(usize, usize)>,
    /// Whether the nodes carry the weights of their rows.
    pub weighted: bool,
}

/// Rows a page embeds: their feature values (`null` for a missing value), and their labels and
/// weights when known.
#[derive(Debug, Clone, Serialize)]
pub struct RowsModel {
    /// What the rows are (`training rows of datasets/iris.csv`).
    pub source: String,
    /// The labels `labels` index (the tree's classes first).
    pub classes: Vec<String>,
    pub values: Vec<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weights: Option<Vec<f64>>,
}

/// Rows given to a page: feature values in the tree's feature order, labels indexing
/// `classes`, and weights.
#[derive(Debug, Clone, Copy)]
pub struct Rows<'a> {
    pub source: &'a str,
    pub values: &'a [Vec<f64>],
    pub classes: &'a [String],
    pub labels: Option<&'a [usize]>,
    pub weights: Option<&'a [f64]>,
}

impl<'a> Rows<'a> {
    /// The rows, labels and weights of `data`, described as `source`.
    pub fn of(data: &'a crate::data::Dataset, source: &'a str) -> Rows<'a> {
        Rows {
            source,
            values: data.rows(),
            classes: data.classes(),
            labels: Some(data.labels()),
            weights: data.weights(),
        }
    }

    /// The rows to embed, or why they are not: more than [`MAX_EMBEDDED_VALUES`] values.
    pub fn embedded(&self) -> Result<RowsModel, String> {
        let width = self.values.first().map_or(0, Vec::len).max(1);
        let values = self.values.len() * width;
        if values > MAX_EMBEDDED_VALUES {
            return Err(format!(
                "the {} {} ({} rows x {} features = {values} values) are not embedded: a page \
                 embeds at most {MAX_EMBEDDED_VALUES} values; type a row's values instead",
                self.values.len(),
                self.source,
                self.values.len(),
                width
            ));
        }
        Ok(RowsModel {
            source: self.source.to_string(),
            classes: self.classes.to_vec(),
            values: self.values.to_vec(),
            labels: self.labels.map(<[usize]>::to_vec),
            weights: self.weights.map(<[f64]>::to_vec),
        })
    }
}

/// Per node (indexed by id): its rows of each class, and their weight.
type RoutedCounts = (Vec<Vec<usize>>, Vec<Vec<f64>>);

/// Per node (indexed by id), routing `rows` by the tree's own rule: the rows of each class and
/// their weight; `None` without weights or labels. (A tree file's own counts are the classes'
/// weights when every row weight is whole, so the rows are counted here.)
fn weighted_counts(tree: &Tree, rows: &Rows<'_>) -> Option<RoutedCounts> {
    let (weights, labels) = (rows.weights?, rows.labels?);
    let n_classes = tree.classes().len();
    let size = tree.nodes().map(|(id, _)| id + 1).max().unwrap_or(1);
    let mut counts = vec![vec![0; n_classes]; size];
    let mut sums = vec![vec![0.0; n_classes]; size];
    for ((row, &label), &weight) in rows.values.iter().zip(labels).zip(weights) {
        if label >= n_classes {
            continue;
        }
        for id in tree.path(row) {
            counts[id][label] += 1;
            sums[id][label] += weight;
        }
    }
    Some((counts, sums))
}

/// The columns the splits of `tree` read, in the file's column order.
fn inputs(tree: &Tree) -> Vec<Input> {
    let n = tree.features().len();
    let mut read = vec![false; n];
    for (_, node) in tree.nodes() {
        match &node.kind {
            NodeKind::Split(Split::Axis { feature, .. }) => read[*feature] = true,
            NodeKind::Split(Split::Oblique { weights, .. }) => {
                for (j, w) in weights.iter().enumerate() {
                    read[j] |= *w != 0.0;
                }
            }
            NodeKind::Leaf { .. } => {}
        }
    }
    let schema = tree.schema();
    let mut inputs = Vec::new();
    let mut feature = 0;
    for column in &schema.columns {
        match &column.kind {
            ColumnKind::Numeric => {
                if read[feature] {
                    inputs.push(Input::Numeric {
                        name: column.name.clone(),
                        feature,
                    });
                }
                feature += 1;
            }
            ColumnKind::Categorical { categories } => {
                let features: Vec<usize> = (feature..feature + categories.len()).collect();
                if features.iter().any(|&j| read[j]) {
                    inputs.push(Input::Categorical {
                        name: column.name.clone(),
                        categories: categories.clone(),
                        features,
                    });
                }
                feature += categories.len();
            }
            ColumnKind::Target | ColumnKind::Weight => {}
        }
    }
    inputs
}

/// The texts of split `id`: the left condition and the right one.
fn split_texts(tree: &Tree, id: usize, split: &Split) -> (String, String) {
    if let Some(worded) = worded_conditions(tree, id, split) {
        return worded;
    }
    let (lhs, rhs) = split_condition(tree, split);
    (format!("{lhs} <= {rhs}"), format!("{lhs} > {rhs}"))
}

impl TreeModel {
    /// The model of `tree`; with `rows` that have weights and labels, each node carries the
    /// weight of its rows (route by the tree's rule).
    pub fn of(tree: &Tree, rows: Option<&Rows<'_>>) -> TreeModel {
        let weighted = rows.and_then(|rows| weighted_counts(tree, rows));
        let probabilities = ProbabilityModel::for_tree(tree, None).ok();
        let nodes = tree
            .nodes()
            .map(|(id, node)| {
                let mut model = NodeModel {
                    id,
                    depth: node_depth(id),
                    text: None,
                    right_text: None,
                    feature: None,
                    threshold: None,
                    terms: None,
                    bias: None,
                    missing: tree.missing_side(id).map(|side| side.name()),
                    missing_test: tree.missing_test(id).is_some(),
                    constant: None,
                    class: None,
                    probability: None,
                    counts: weighted
                        .as_ref()
                        .map_or_else(|| node.counts.clone(), |(counts, _)| counts[id].clone()),
                    weighted: weighted.as_ref().map(|(_, sums)| sums[id].clone()),
                };
                match &node.kind {
                    NodeKind::Split(split) => {
                        let (left, right) = split_texts(tree, id, split);
                        model.text = Some(left);
                        model.right_text = Some(right);
                        model.constant = constant_side(split).map(constant_note);
                        match split {
                            Split::Axis { feature, threshold } => {
                                model.feature = Some(*feature);
                                model.threshold = Some(*threshold);
                            }
                            Split::Oblique { weights, bias } => {
                                model.terms = Some(
                                    weights
                                        .iter()
                                        .enumerate()
                                        .filter(|(_, w)| **w != 0.0)
                                        .map(|(j, w)| (j, *w))
                                        .collect(),
                                );
                                model.bias = Some(*bias);
                            }
                        }
                    }
                    NodeKind::Leaf { class } => {
                        model.class = Some(*class);
                        model.probability = probabilities.map(|p| p.leaf_probabilities(id));
                    }
                }
                model
            })
            .collect();
        TreeModel {
            classes: tree.classes().to_vec(),
            features: tree.features().to_vec(),
            inputs: inputs(tree),
            standardisation: tree.standardisation().cloned(),
            nodes,
            logistic: probabilities.and_then(|p| p.logistic_classes()),
            weighted: weighted.is_some(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_embedded_up_to_the_limit_of_values() {
        let classes = vec!["a".to_string(), "b".to_string()];
        let fits = vec![vec![1.0; 4]; MAX_EMBEDDED_VALUES / 4];
        let rows = Rows {
            source: "rows",
            values: &fits,
            classes: &classes,
            labels: None,
            weights: None,
        };
        assert_eq!(rows.embedded().expect("embedded").values.len(), fits.len());
        let more = vec![vec![1.0; 4]; MAX_EMBEDDED_VALUES / 4 + 1];
        let note = Rows {
            values: &more,
            ..rows
        }
        .embedded()
        .expect_err("too many values");
        assert!(note.contains("are not embedded"), "{note}");
    }
}
