//! Class probabilities of logistic trees (OLCT): a row's probability of the positive class is
//! `sigma(w . z + b)` at the last split it passes, the logistic model fitted on the region of
//! the rows that reach that split.
//!
//! A tree qualifies when every leaf hangs under an oblique split whose two leaves predict
//! different classes, every right leaf the same class (the positive one) and every left leaf
//! the other.

use crate::error::{Error, Result};
use crate::tree::{Node, NodeKind, Split, Tree};

/// A checked view of a logistic tree that gives probabilities.
#[derive(Debug, Clone, Copy)]
pub struct ProbabilityModel<'a> {
    tree: &'a Tree,
    positive_class: usize,
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
    /// Checks that `tree` is a logistic tree.
    pub fn new(tree: &'a Tree) -> Result<ProbabilityModel<'a>> {
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
        let (_, positive_class) =
            classes.ok_or_else(|| not_logistic("the tree has no leaves".into()))?;
        Ok(ProbabilityModel {
            tree,
            positive_class,
        })
    }

    /// The class whose probability is given (the class of the right leaves).
    pub fn positive_class(&self) -> usize {
        self.positive_class
    }

    /// The probability of the positive class for `row` (original units).
    pub fn probability(&self, row: &[f64]) -> f64 {
        let parent = self.tree.leaf_of(row) / 2;
        match self.tree.node(parent).map(|node| &node.kind) {
            Some(NodeKind::Split(Split::Oblique { weights, bias })) => {
                sigmoid(self.tree.oblique_value(weights, *bias, row))
            }
            _ => unreachable!("checked by ProbabilityModel::new"),
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
