//! The greedy baseline of a run: the accuracy of the method's own greedy tree (CART for OCT and
//! BinOCT; the tree a greedy warm start starts from) on the run's split, so that every row can be
//! compared with what greedy splitting achieves on the same data.

use crate::data::{Dataset, Sets};
use crate::error::Result;
use crate::learn::Method;
use crate::tree::{Summary, Tree};

/// The evaluator's figures of the greedy tree on the training and test sets.
#[derive(Debug, Clone, PartialEq)]
pub struct GreedyFigures {
    pub train: Summary,
    pub test: Option<Summary>,
}

/// The greedy figures of `method` on `data`.
pub fn greedy_figures(method: &Method, data: &Sets) -> Result<GreedyFigures> {
    let tree = method.greedy_tree(&data.train)?;
    Ok(GreedyFigures {
        train: summary_on(&tree, &data.train)?,
        test: data
            .test
            .as_ref()
            .map(|test| summary_on(&tree, test))
            .transpose()?,
    })
}

/// The plain evaluation of `tree` on `set`.
pub fn summary_on(tree: &Tree, set: &Dataset) -> Result<Summary> {
    Ok(tree
        .evaluate(set.rows(), set.labels(), set.classes())?
        .summary())
}
