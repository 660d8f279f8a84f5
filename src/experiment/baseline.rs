//! The greedy baseline of a run: the accuracy of the formulation's own greedy tree (CART for
//! OCT and BinOCT; the tree a greedy warm start starts from) on the run's split, so that every
//! row can be compared with what greedy splitting achieves on the same data.

use crate::error::Result;
use crate::experiment::datasets::RunData;
use crate::experiment::facts::Accuracy;
use crate::formulation::AnyFormulation;
use crate::tree::Tree;

/// Train and test accuracy of the greedy tree.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GreedyFigures {
    pub train: Accuracy,
    pub test: Option<Accuracy>,
}

/// The greedy figures of `formulation` on `data`.
pub fn greedy_figures(formulation: &AnyFormulation, data: &RunData) -> Result<GreedyFigures> {
    let tree = formulation.greedy_tree(&data.train)?;
    Ok(GreedyFigures {
        train: accuracy_on(&tree, &data.train)?,
        test: data
            .test
            .as_ref()
            .map(|test| accuracy_on(&tree, test))
            .transpose()?,
    })
}

/// The plain evaluation of `tree` on `set`.
pub fn accuracy_on(tree: &Tree, set: &crate::data::Dataset) -> Result<Accuracy> {
    let summary = tree
        .evaluate(set.rows(), set.labels(), set.classes())?
        .summary();
    Ok(Accuracy {
        accuracy: summary.accuracy,
        balanced_accuracy: summary.balanced_accuracy,
    })
}
