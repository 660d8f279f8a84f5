//! Class probabilities of a tree's predictions, by one of two rules:
//!
//! - logistic trees (OLCT): a row's probability of the positive class is `sigma(w . z + b)` at
//!   the last split it passes, the logistic model fitted on the region of the rows that reach
//!   that split. A tree qualifies when every leaf hangs under an oblique split whose two leaves
//!   predict different classes, every right leaf the same class (the positive one) and every
//!   left leaf the other;
//! - every other tree: each class's frequency among the training rows of the row's leaf, from
//!   the class counts every node stores, with Laplace smoothing `A >= 0`:
//!   `(n_c + A) / (n + K A)` over `K` classes. A leaf that no training row reached takes the
//!   counts of its nearest ancestor that some did; a tree whose root has no counts gives every
//!   class `1 / K`.

use crate::error::{Error, Result};
use crate::tree::auc::auc;
use crate::tree::{Node, NodeKind, Split, Tree};

/// A checked view of a tree that gives probabilities.
#[derive(Debug, Clone, Copy)]
pub struct ProbabilityModel<'a> {
    tree: &'a Tree,
    rule: Rule,
}

/// How the probabilities are computed.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Rule {
    /// `sigma(w . z + b)` at the last split, for the class of the right leaves.
    Logistic {
        negative_class: usize,
        positive_class: usize,
    },
    /// The leaf's class frequencies, smoothed by this pseudo-count per class.
    LeafFrequency { smoothing: f64 },
}

fn not_logistic(message: String) -> Error {
    Error::parameter(
        "--proba",
        format!(
            "probabilities need a logistic tree (as OLCT learns) whose last splits are oblique \
             with a negative left leaf and a positive right leaf: {message}"
        ),
    )
}

impl<'a> ProbabilityModel<'a> {
    /// The logistic model of `tree`; an error unless `tree` is a logistic tree.
    pub fn new(tree: &'a Tree) -> Result<ProbabilityModel<'a>> {
        let (negative_class, positive_class) = logistic_classes(tree)?;
        Ok(ProbabilityModel {
            tree,
            rule: Rule::Logistic {
                negative_class,
                positive_class,
            },
        })
    }

    /// The leaf frequencies of `tree`, smoothed by `smoothing` (finite, at least 0).
    pub fn leaf_frequencies(tree: &'a Tree, smoothing: f64) -> Result<ProbabilityModel<'a>> {
        if !(smoothing.is_finite() && smoothing >= 0.0) {
            return Err(Error::parameter(
                "--proba-smoothing",
                format!("{smoothing} is not a finite number at least 0"),
            ));
        }
        Ok(ProbabilityModel {
            tree,
            rule: Rule::LeafFrequency { smoothing },
        })
    }

    /// The model a tree calls for: the logistic model of a logistic tree, the leaf frequencies
    /// of any other. `smoothing` (leaf frequencies only) is refused for a logistic tree.
    pub fn for_tree(tree: &'a Tree, smoothing: Option<f64>) -> Result<ProbabilityModel<'a>> {
        match (logistic_classes(tree), smoothing) {
            (Ok(_), Some(_)) => Err(Error::parameter(
                "--proba-smoothing",
                "applies to leaf frequencies; this tree is a logistic tree, whose probabilities \
                 are its last splits' logistic models",
            )),
            (Ok((negative_class, positive_class)), None) => Ok(ProbabilityModel {
                tree,
                rule: Rule::Logistic {
                    negative_class,
                    positive_class,
                },
            }),
            (Err(_), smoothing) => Self::leaf_frequencies(tree, smoothing.unwrap_or(0.0)),
        }
    }

    /// Whether the probabilities are a logistic tree's (rather than leaf frequencies).
    pub fn is_logistic(&self) -> bool {
        matches!(self.rule, Rule::Logistic { .. })
    }

    /// The class whose probability [`ProbabilityModel::probability`] gives: the class of the
    /// right leaves of a logistic tree, the second class otherwise (the positive class of the
    /// evaluator's two-class figures).
    pub fn positive_class(&self) -> usize {
        match self.rule {
            Rule::Logistic { positive_class, .. } => positive_class,
            Rule::LeafFrequency { .. } => 1.min(self.tree.classes().len().saturating_sub(1)),
        }
    }

    /// The probability of the positive class for `row` (original units).
    pub fn probability(&self, row: &[f64]) -> f64 {
        match self.rule {
            Rule::Logistic { .. } => self.logistic(row),
            Rule::LeafFrequency { .. } => self
                .class_probabilities(row)
                .get(self.positive_class())
                .copied()
                .unwrap_or(0.0),
        }
    }

    /// The probability of every class of the tree for `row`, in the tree's class order; they
    /// add up to 1.
    pub fn class_probabilities(&self, row: &[f64]) -> Vec<f64> {
        let n_classes = self.tree.classes().len();
        match self.rule {
            Rule::Logistic {
                negative_class,
                positive_class,
            } => {
                let p = self.logistic(row);
                let mut probabilities = vec![0.0; n_classes];
                probabilities[negative_class] = 1.0 - p;
                probabilities[positive_class] = p;
                probabilities
            }
            Rule::LeafFrequency { .. } => self.leaf_probabilities(self.tree.leaf_of(row)),
        }
    }

    /// The leaf-frequency probabilities of every class at leaf `leaf` (those of its nearest
    /// counted ancestor when no training row reached it), smoothed as the model says; with
    /// the logistic rule, the unsmoothed frequencies.
    pub fn leaf_probabilities(&self, leaf: usize) -> Vec<f64> {
        let n_classes = self.tree.classes().len();
        let smoothing = match self.rule {
            Rule::LeafFrequency { smoothing } => smoothing,
            Rule::Logistic { .. } => 0.0,
        };
        let counts = self.counts_for(leaf);
        if counts.len() != n_classes {
            return vec![1.0 / n_classes as f64; n_classes];
        }
        let total: usize = counts.iter().sum();
        let denominator = total as f64 + n_classes as f64 * smoothing;
        if denominator <= 0.0 {
            return vec![1.0 / n_classes as f64; n_classes];
        }
        counts
            .iter()
            .map(|&count| (count as f64 + smoothing) / denominator)
            .collect()
    }

    /// The negative and positive classes of a logistic tree (`None` for leaf frequencies).
    pub fn logistic_classes(&self) -> Option<(usize, usize)> {
        match self.rule {
            Rule::Logistic {
                negative_class,
                positive_class,
            } => Some((negative_class, positive_class)),
            Rule::LeafFrequency { .. } => None,
        }
    }

    /// The AUC of the positive class's probability over `rows` whose classes (the tree's) are
    /// `labels`; `None` unless the tree has two classes and both occur in `labels`.
    pub fn auc(&self, rows: &[Vec<f64>], labels: &[usize]) -> Option<f64> {
        if self.tree.classes().len() != 2 {
            return None;
        }
        let positive = self.positive_class();
        let scores: Vec<f64> = rows
            .iter()
            .map(|row| self.class_probabilities(row)[positive])
            .collect();
        let is_positive: Vec<bool> = labels.iter().map(|&label| label == positive).collect();
        auc(&scores, &is_positive)
    }

    /// The counts of `leaf`, or of its nearest ancestor that training rows reached (the
    /// root's when none did).
    fn counts_for(&self, leaf: usize) -> &'a [usize] {
        let mut id = leaf;
        while id > 1 && self.tree.node(id).is_none_or(|node| node.rows() == 0) {
            id /= 2;
        }
        self.tree.node(id).map_or(&[], |node| &node.counts)
    }

    /// A row missing a value the last split needs (its score is NaN) gets the share of the
    /// positive class among the training rows of the leaf it reaches (one half for none).
    fn logistic(&self, row: &[f64]) -> f64 {
        let leaf = self.tree.leaf_of(row);
        match self.tree.node(leaf / 2).map(|node| &node.kind) {
            Some(NodeKind::Split(Split::Oblique { weights, bias })) => {
                let score = self.tree.oblique_value(weights, *bias, row);
                if !score.is_nan() {
                    return sigmoid(score);
                }
                let Rule::Logistic { positive_class, .. } = self.rule else {
                    unreachable!("logistic is called for the logistic rule")
                };
                let counts = self.counts_for(leaf);
                let total: usize = counts.iter().sum();
                match (total, counts.get(positive_class)) {
                    (0, _) | (_, None) => 0.5,
                    (_, Some(&positive)) => positive as f64 / total as f64,
                }
            }
            _ => unreachable!("checked by logistic_classes"),
        }
    }
}

/// `sigma(u) = 1 / (1 + exp(-u))`, computed without overflow.
pub fn sigmoid(u: f64) -> f64 {
    if u >= 0.0 {
        1.0 / (1.0 + (-u).exp())
    } else {
        let e = u.exp();
        e / (1.0 + e)
    }
}

/// The classes of a logistic tree's left (negative) and right (positive) leaves; an error
/// saying why `tree` is not one otherwise.
fn logistic_classes(tree: &Tree) -> Result<(usize, usize)> {
    let mut classes: Option<(usize, usize)> = None;
    for leaf in tree.leaves() {
        if leaf == 1 {
            return Err(not_logistic("the tree is a single leaf".into()));
        }
        let parent = leaf / 2;
        if !matches!(
            tree.node(parent).map(|node| &node.kind),
            Some(NodeKind::Split(Split::Oblique { .. }))
        ) {
            return Err(not_logistic(format!(
                "leaf {leaf} hangs under a split that is not oblique (node {parent})"
            )));
        }
        let class_of = |id: usize| match tree.node(id) {
            Some(Node {
                kind: NodeKind::Leaf { class },
                ..
            }) => Some(*class),
            _ => None,
        };
        let (Some(left), Some(right)) = (class_of(2 * parent), class_of(2 * parent + 1)) else {
            return Err(not_logistic(format!(
                "split {parent} has a child that is not a leaf next to leaf {leaf}"
            )));
        };
        if left == right {
            return Err(not_logistic(format!(
                "both leaves under split {parent} predict `{}`",
                tree.classes()[left]
            )));
        }
        match classes {
            None => classes = Some((left, right)),
            Some(expected) if expected != (left, right) => {
                return Err(not_logistic(format!(
                    "split {parent} predicts `{}` on its right, another split `{}`",
                    tree.classes()[right],
                    tree.classes()[expected.1]
                )))
            }
            Some(_) => {}
        }
    }
    classes.ok_or_else(|| not_logistic("the tree has no leaves".into()))
}
