//! OLCT objectives of a tree, computed by plain code from the tree's weights and the tree's own
//! routing (never from a solver's values):
//!
//! ```text
//! sum_h ( C_h sum_i v_i loss(y_i (w_t(i,h) . z_i + b_t(i,h))) + sum_{t in T_h} ||w_t||_1 )
//! ```
//!
//! where `t(i, h)` is the node of level `h` on row `i`'s path and `v_i` the weight of row `i`'s
//! loss (its row weight times its class's weight; 1 without weights). With `loss` the tangent
//! underestimator this is the model's (surrogate) objective; with the logistic loss itself it
//! is the exact objective.

use crate::error::{Error, Result};
use crate::formulation::olct::tangents::{surrogate_of, TangentSet};
use crate::formulation::olct::training::Training;
use crate::greedy::logistic_regression::logistic_loss;
use crate::tree::{NodeKind, Split, Tree};

/// [`olct_splits`] of `tree` for the model of `training` (its depth and its two classes).
pub(crate) fn training_splits(training: &Training, tree: &Tree) -> Result<Vec<(Vec<f64>, f64)>> {
    olct_splits(
        tree,
        training.settings.depth,
        training.negative_class(),
        training.positive_class,
    )
}

/// The `(weights, bias)` of every branch node of an OLCT tree of depth `depth`, indexed by
/// node id (index 0 unused), after checking the tree's shape: nodes `1 .. 2^d - 1` are oblique
/// splits, and each node of the last level has a left leaf of the negative class and a right
/// leaf of the positive class.
pub(crate) fn olct_splits(
    tree: &Tree,
    depth: usize,
    negative: usize,
    positive: usize,
) -> Result<Vec<(Vec<f64>, f64)>> {
    let mismatch = |message: String| {
        Err(Error::TreeMismatch(format!(
            "not a logistic tree (OLCT) of depth {depth}: {message}"
        )))
    };
    let branches = 1usize << depth;
    let mut splits = vec![(Vec::new(), 0.0); branches];
    for (id, split) in splits.iter_mut().enumerate().skip(1) {
        match tree.node(id).map(|node| &node.kind) {
            Some(NodeKind::Split(Split::Oblique { weights, bias })) => {
                *split = (weights.clone(), *bias);
            }
            Some(_) => return mismatch(format!("node {id} is not an oblique split")),
            None => return mismatch(format!("node {id} is missing")),
        }
    }
    for id in branches..2 * branches {
        let expected = if id % 2 == 0 { negative } else { positive };
        match tree.node(id).map(|node| &node.kind) {
            Some(NodeKind::Leaf { class }) if *class == expected => {}
            _ => {
                return mismatch(format!(
                    "node {id} is not a leaf of class `{}`",
                    tree.classes().get(expected).map_or("?", String::as_str)
                ))
            }
        }
    }
    Ok(splits)
}

/// The objective of `tree` on the training rows with `loss` applied to each margin.
pub(crate) fn tree_objective(
    training: &Training,
    tree: &Tree,
    loss: &dyn Fn(f64) -> f64,
) -> Result<f64> {
    let depth = training.settings.depth;
    let splits = training_splits(training, tree)?;
    let penalty: f64 = splits
        .iter()
        .skip(1)
        .map(|(w, _)| w.iter().map(|v| v.abs()).sum::<f64>())
        .sum();
    let mut level_loss = vec![0.0; depth];
    for (i, row) in training.data.rows().iter().enumerate() {
        let path = tree.path(row);
        for (h, &t) in path.iter().take(depth).enumerate() {
            let (weights, bias) = &splits[t];
            let margin = training.y(i) * tree.oblique_value(weights, *bias, row);
            level_loss[h] += training.loss_weights[i] * loss(margin);
        }
    }
    Ok(penalty
        + level_loss
            .iter()
            .zip(&training.settings.c)
            .map(|(loss, c)| c * loss)
            .sum::<f64>())
}

/// The model's objective: the tangent underestimator `tangents` in place of the loss.
pub(crate) fn surrogate_objective(
    training: &Training,
    tangents: TangentSet,
    tree: &Tree,
) -> Result<f64> {
    let lines = tangents.lines();
    tree_objective(training, tree, &|u| surrogate_of(&lines, u))
}

/// The exact objective: the logistic loss itself.
pub(crate) fn exact_objective(training: &Training, tree: &Tree) -> Result<f64> {
    tree_objective(training, tree, &logistic_loss)
}
