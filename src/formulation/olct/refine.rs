//! Refinement of an OLCT tree (the paper's Remark 1): every node of the last level is refitted
//! with the exact L1-logistic regression (its level's `C`) on the training rows that reach it,
//! starting from its current weights. The routing to the last level does not change, so only
//! those nodes' terms of the exact objective change, and none of them can increase (the fit
//! descends from the current weights and stays within the score bound; see
//! [`crate::greedy::logistic_node::fit_node`]). The exact objective is checked before and
//! after: an increase is reported as an internal error.
//!
//! The regression fits each node's rows unweighted. With row or class weights it may therefore
//! raise the (weighted) exact objective: the refined tree is then kept only when it does not,
//! and the tree as given is returned with a note otherwise.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::formulation::olct::objective::{exact_objective, training_splits};
use crate::formulation::olct::training::Training;
use crate::greedy::logistic_node::fit_node;
use crate::tree::{NodeKind, Split, Tree, TreeBuilder};

/// The refined tree, its exact objective, and notes on special nodes.
#[derive(Debug, Clone)]
pub(crate) struct Refinement {
    pub tree: Tree,
    pub after: f64,
    pub notes: Vec<String>,
}

/// `tree` with the splits of some nodes replaced, recounted on the training rows.
pub(crate) fn with_splits(
    tree: &Tree,
    replaced: &BTreeMap<usize, Split>,
    training: &Training,
) -> Result<Tree> {
    let mut builder =
        TreeBuilder::new(tree.schema().clone(), tree.classes().to_vec(), tree.depth())?;
    if let Some(standardisation) = tree.standardisation() {
        builder = builder.standardisation(standardisation.clone());
    }
    for (id, node) in tree.nodes() {
        match (&node.kind, replaced.get(&id)) {
            (_, Some(split)) => builder.split(id, split.clone())?,
            (NodeKind::Split(split), None) => builder.split(id, split.clone())?,
            (NodeKind::Leaf { class }, None) => builder.leaf(id, *class)?,
        };
    }
    let mut rebuilt = builder.build()?;
    rebuilt.recount(training.data.rows(), training.data.labels())?;
    rebuilt.learned_by = tree.learned_by.clone();
    Ok(rebuilt)
}

/// Refits the last level of `tree`.
pub(crate) fn refine(training: &Training, tree: &Tree, univariate: bool) -> Result<Refinement> {
    let depth = training.settings.depth;
    let splits = training_splits(training, tree)?;
    let before = exact_objective(training, tree)?;
    let first_last = 1usize << (depth - 1);
    let mut reaching: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, row) in training.data.rows().iter().enumerate() {
        reaching.entry(tree.leaf_of(row) / 2).or_default().push(i);
    }
    let c = training.settings.c[depth - 1];
    let mut replaced = BTreeMap::new();
    let mut notes = Vec::new();
    for (t, (weights, bias)) in splits.iter().enumerate().skip(first_last) {
        let rows = reaching.get(&t).map_or(&[][..], Vec::as_slice);
        let z: Vec<&[f64]> = rows.iter().map(|&i| training.z[i].as_slice()).collect();
        let positive: Vec<bool> = rows.iter().map(|&i| training.positive[i]).collect();
        let fit = fit_node(
            &z,
            &positive,
            c,
            univariate,
            &training.bound,
            Some((weights, *bias)),
        )?;
        if let Some(note) = fit.note {
            notes.push(format!("node {t}: {note}"));
        }
        replaced.insert(
            t,
            Split::Oblique {
                weights: fit.weights,
                bias: fit.bias,
            },
        );
    }
    let refined = with_splits(tree, &replaced, training)?;
    let after = exact_objective(training, &refined)?;
    let increased = after > before + 1e-9 * before.abs().max(1.0);
    if increased && training.is_weighted() {
        notes.push(format!(
            "the refinement fits unweighted regressions; on the weighted rows it would raise the              exact objective from {before} to {after}, so the tree was kept as it was"
        ));
        return Ok(Refinement {
            tree: tree.clone(),
            after: before,
            notes,
        });
    }
    if increased {
        return Err(Error::Internal(format!(
            "the refinement of the last level increased the exact objective from {before} to \
             {after}"
        )));
    }
    Ok(Refinement {
        tree: refined,
        after,
        notes,
    })
}
