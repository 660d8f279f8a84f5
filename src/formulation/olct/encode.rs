//! Encoding an OLCT tree as a complete assignment of the model's variables (a warm start):
//! weights and biases from the tree, `w+ = max(w, 0)`, `w- = max(-w, 0)`, `z` from the tree's
//! own routing of the training rows, `xi[i,h]` the tangent underestimator at the row's node of
//! level `h` (the smallest value the loss rows allow), and `delta[j,t] = 1` exactly for the
//! nonzero weights. The assignment is feasible when the tree is within the model's bounds and
//! no row reaching a node above the last level has a score in `(0, epsilon)`; the greedy
//! logistic tree is built to be (the solver layer checks every start).

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::formulation::olct::model::{Layout, OlctModel};
use crate::formulation::olct::objective::{olct_splits, training_splits};
use crate::formulation::olct::refine::with_splits;
use crate::formulation::olct::tangents::surrogate_of;
use crate::formulation::olct::training::Training;
use crate::greedy::logistic_node::representable_split;
use crate::mip::Assignment;
use crate::tree::{Split, Tree};

/// `tree` made representable (see the module comment), recounted on the training rows, with
/// notes on what changed.
pub(crate) fn representable(training: &Training, tree: &Tree) -> Result<(Tree, Vec<String>)> {
    let layout = Layout {
        depth: training.settings.depth,
    };
    let splits = checked_splits(training, tree)?;
    if tree.features() != training.data.schema().features.as_slice() {
        return Err(Error::TreeMismatch(
            "the tree's features are not the training data's".into(),
        ));
    }
    let mut notes = Vec::new();
    let (mut current, splits) = if tree.standardisation() == Some(&training.standardisation) {
        (tree.clone(), splits)
    } else {
        notes.push(
            "warm start: the tree's splits were re-expressed over the training data's \
             standardisation"
                .to_string(),
        );
        let restated = restandardised(tree, &splits, training)?;
        let splits = olct_splits(
            &restated,
            layout.depth,
            training.negative_class(),
            training.positive_class,
        )?;
        (restated, splits)
    };
    let scaling = &training.standardisation;
    let score = |w: &[f64], b: f64, i: usize| scaling.score(w, b, &training.data.rows()[i]);
    for (t, (weights, bias)) in splits.into_iter().enumerate().skip(1) {
        let rows: Vec<usize> = (0..training.data.n_rows())
            .filter(|&i| current.path(&training.data.rows()[i]).contains(&t))
            .collect();
        let margin = (t < layout.first_last()).then_some(training.settings.epsilon);
        let (new_weights, new_bias, changes) =
            representable_split(weights, bias, &rows, &score, &training.bound, margin)?;
        if !changes.is_empty() {
            notes.extend(
                changes
                    .into_iter()
                    .map(|c| format!("warm start, node {t}: {c}")),
            );
            let replaced = BTreeMap::from([(
                t,
                Split::Oblique {
                    weights: new_weights,
                    bias: new_bias,
                },
            )]);
            current = with_splits(&current, &replaced, training)?;
        }
    }
    current.recount(training.data.rows(), training.data.labels())?;
    Ok((current, notes))
}

/// `tree` with every split re-expressed over the training data's standardisation:
/// `w . z' + b = sum_j (w_j s_j / s'_j) z_j + b + sum_j w_j (m_j - m'_j) / s'_j`.
fn restandardised(tree: &Tree, splits: &[(Vec<f64>, f64)], training: &Training) -> Result<Tree> {
    let own = tree.standardisation().ok_or_else(|| {
        Error::TreeMismatch("the tree has oblique splits but no standardisation".into())
    })?;
    let target = &training.standardisation;
    let mut builder = crate::tree::TreeBuilder::new(
        tree.schema().clone(),
        tree.classes().to_vec(),
        tree.depth(),
    )?
    .standardisation(target.clone());
    for (id, node) in tree.nodes() {
        match &node.kind {
            crate::tree::NodeKind::Leaf { class } => {
                builder.leaf(id, *class)?;
            }
            crate::tree::NodeKind::Split(_) => {
                let (weights, bias) = &splits[id];
                let restated: Vec<f64> = (0..weights.len())
                    .map(|j| weights[j] * target.scale[j] / own.scale[j])
                    .collect();
                let shift: f64 = (0..weights.len())
                    .map(|j| weights[j] * (target.mean[j] - own.mean[j]) / own.scale[j])
                    .sum();
                builder.split(
                    id,
                    Split::Oblique {
                        weights: restated,
                        bias: bias + shift,
                    },
                )?;
            }
        }
    }
    let mut restated = builder.build()?;
    restated.learned_by = tree.learned_by.clone();
    Ok(restated)
}

/// The splits of a logistic tree of the model's depth and classes, one `(weights, bias)` per
/// branch node (index = node id), checked to have one weight per feature of the data.
fn checked_splits(training: &Training, tree: &Tree) -> Result<Vec<(Vec<f64>, f64)>> {
    let splits = training_splits(training, tree)?;
    if splits[1].0.len() != training.data.n_features() {
        return Err(Error::TreeMismatch(format!(
            "the tree has {} features, the data {}",
            splits[1].0.len(),
            training.data.n_features()
        )));
    }
    Ok(splits)
}

/// The complete assignment of a representable tree.
pub(crate) fn encode(built: &OlctModel, tree: &Tree) -> Result<Assignment> {
    let training = &built.training;
    let layout = Layout {
        depth: training.settings.depth,
    };
    let splits = checked_splits(training, tree)?;
    let vars = &built.vars;
    let lines = built.tangents.lines();
    let mut start = built.mip.start();
    for t in 1..=layout.branches() {
        let (weights, bias) = &splits[t];
        for (j, &w) in weights.iter().enumerate() {
            start.set(vars.w[t - 1][j], w);
            start.set(vars.w_plus[t - 1][j], w.max(0.0));
            start.set(vars.w_minus[t - 1][j], (-w).max(0.0));
            if let Some(delta) = &vars.delta {
                start.set(delta[t - 1][j], if w != 0.0 { 1.0 } else { 0.0 });
            }
        }
        start.set(vars.b[t - 1], *bias);
    }
    for (i, row) in training.data.rows().iter().enumerate() {
        let path = tree.path(row);
        let last = path[layout.depth - 1];
        for (k, &z) in vars.z[i].iter().enumerate() {
            start.set(
                z,
                if layout.first_last() + k == last {
                    1.0
                } else {
                    0.0
                },
            );
        }
        for (h, &t) in path.iter().take(layout.depth).enumerate() {
            let (weights, bias) = &splits[t];
            let margin = training.y(i) * tree.oblique_value(weights, *bias, row);
            start.set(vars.xi[i][h], surrogate_of(&lines, margin));
        }
    }
    start.finish()
}
