//! The objective of any tree under a [`SparseProblem`], by plain counting: the yardstick every
//! tree the search returns is held against. It shares no code with the search (only the loss
//! definitions of [`super::loss`]).

use std::collections::HashMap;

use crate::data::Dataset;
use crate::sparse::loss::{scored_roc_area, Leaf};
use crate::sparse::{Loss, SparseProblem};
use crate::tree::{NodeKind, Tree};

/// What a tree is worth under a problem: its loss, its leaves and the objective
/// `loss + leaf_penalty * leaves`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SparseScore {
    pub loss: f64,
    pub leaves: usize,
    pub objective: f64,
}

/// The score of `tree` on `data` under `problem`, rows routed with [`Tree::leaf_of`], each row
/// counted its weight (1 without weights). Additive losses count the class weight of every row
/// its leaf's class misclassifies, over the class-weighted total; F1 counts the
/// rows of leaves predicting the positive class as predicted positive; the AUCs score each
/// row by the fraction of positive training rows in its leaf (the counts the tree stores; 0
/// for a leaf without any) and count the (positive, negative) pairs of `data` ranked right,
/// ties one half. On the training data that is the ROC convex hull of the leaves. `None` when
/// the tree is deeper than the problem's cap or predicts a class the data does not have.
pub fn score_of(tree: &Tree, data: &Dataset, problem: &SparseProblem) -> Option<SparseScore> {
    if let Some(depth) = problem.depth {
        if tree.actual_depth() > depth {
            return None;
        }
    }
    let leaf_ids = tree.leaves();
    let k = data.n_classes();
    let mut counts: HashMap<usize, Vec<f64>> =
        leaf_ids.iter().map(|&id| (id, vec![0.0; k])).collect();
    for (i, (row, &label)) in data.rows().iter().zip(data.labels()).enumerate() {
        *counts.get_mut(&tree.leaf_of(row))?.get_mut(label)? += data.weight(i);
    }
    let class_of = |id: usize| match tree.node(id).map(|node| &node.kind) {
        Some(NodeKind::Leaf { class }) if *class < k => Some(*class),
        _ => None,
    };
    let loss = match &problem.loss {
        Loss::Accuracy | Loss::Balanced | Loss::Weighted { .. } => {
            let weights = problem.loss.class_weights(data)?;
            let total: f64 = (0..data.n_rows())
                .map(|i| weights[data.labels()[i]] * data.weight(i))
                .sum();
            let mut errors = 0.0;
            for &id in &leaf_ids {
                let class = class_of(id)?;
                for (label, &count) in counts[&id].iter().enumerate() {
                    if label != class {
                        errors += weights[label] * count;
                    }
                }
            }
            errors / total
        }
        Loss::F1 { positive } => {
            let (mut tp, mut fp, mut positives) = (0.0, 0.0, 0.0);
            for &id in &leaf_ids {
                let here = &counts[&id];
                let rows: f64 = here.iter().sum();
                positives += here[*positive];
                if class_of(id)? == *positive {
                    tp += here[*positive];
                    fp += rows - here[*positive];
                }
            }
            let denominator = tp + fp + positives;
            1.0 - if denominator > 0.0 {
                2.0 * tp / denominator
            } else {
                0.0
            }
        }
        Loss::Auc { positive } | Loss::PartialAuc { positive, .. } => {
            let mut leaves: Vec<(f64, Leaf)> = Vec::with_capacity(leaf_ids.len());
            for &id in &leaf_ids {
                let stored = &tree.node(id)?.counts;
                let stored_rows: usize = stored.iter().sum();
                let score = if stored_rows > 0 {
                    *stored.get(*positive)? as f64 / stored_rows as f64
                } else {
                    0.0
                };
                let here = &counts[&id];
                let rows: f64 = here.iter().sum();
                leaves.push((score, Leaf::new(here[*positive], rows - here[*positive])));
            }
            let total = leaves.iter().fold(Leaf::default(), |sum, (_, leaf)| {
                Leaf::new(sum.positive + leaf.positive, sum.negative + leaf.negative)
            });
            let theta = match &problem.loss {
                Loss::PartialAuc { theta, .. } => *theta,
                _ => 1.0,
            };
            1.0 - scored_roc_area(&leaves, total, theta) / theta
        }
    };
    let leaves = leaf_ids.len();
    Some(SparseScore {
        loss,
        leaves,
        objective: loss + problem.leaf_penalty * leaves as f64,
    })
}

/// The objective of `tree` on `data` under `problem` (see [`score_of`]).
pub fn objective_of(tree: &Tree, data: &Dataset, problem: &SparseProblem) -> Option<f64> {
    score_of(tree, data, problem).map(|score| score.objective)
}
