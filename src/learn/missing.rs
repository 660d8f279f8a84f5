//! Learning on data with missing values: every method learns over the data's
//! [`MissingCopies`] and its trees are mapped back to the original features, each split with
//! its learned missing side. The one place where methods meet missing values; on data without
//! any, each function here is the method itself.

use crate::data::Dataset;
use crate::error::Result;
use crate::learn::front::FrontResult;
use crate::learn::Outcome;
use crate::tree::missing_copies::MissingCopies;
use crate::tree::Tree;

/// Runs `run` on the data a method learns from: `data` itself when it has no missing value,
/// its copies otherwise; then maps every tree of the result back with `map`.
pub fn with_copies<T>(
    data: &Dataset,
    run: impl FnOnce(&Dataset) -> Result<T>,
    map: impl FnOnce(T, &dyn Fn(&Tree) -> Result<Tree>) -> Result<T>,
) -> Result<T> {
    match MissingCopies::of(data)? {
        None => run(data),
        Some(copies) => {
            let result = run(copies.data())?;
            map(result, &|tree: &Tree| copies.original_tree(tree, data))
        }
    }
}

/// [`with_copies`] for a run that needs to know where the features it learns over come from:
/// `run` also receives the original feature of each feature of its data (`None` when it is
/// `data` itself).
pub fn with_origins<T>(
    data: &Dataset,
    run: impl FnOnce(&Dataset, Option<Vec<usize>>) -> Result<T>,
    map: impl FnOnce(T, &dyn Fn(&Tree) -> Result<Tree>) -> Result<T>,
) -> Result<T> {
    match MissingCopies::of(data)? {
        None => run(data, None),
        Some(copies) => {
            let result = run(copies.data(), Some(copies.origins()))?;
            map(result, &|tree: &Tree| copies.original_tree(tree, data))
        }
    }
}

/// Maps every tree of a method's outcome (the tree, the warm start, the one set aside, the
/// certificate's).
pub fn map_outcome(mut outcome: Outcome, map: &dyn Fn(&Tree) -> Result<Tree>) -> Result<Outcome> {
    let map_option = |tree: &mut Option<Tree>| -> Result<()> {
        if let Some(t) = tree.as_ref() {
            *tree = Some(map(t)?);
        }
        Ok(())
    };
    map_option(&mut outcome.tree)?;
    map_option(&mut outcome.warm_start_tree)?;
    if let Some(replaced) = outcome.replaced.as_mut() {
        map_option(&mut replaced.tree)?;
    }
    if let Some(certificate) = outcome.certificate.as_mut() {
        map_option(&mut certificate.dp_tree)?;
    }
    Ok(outcome)
}

/// Maps every tree of a front (its points' trees and the reference trees).
pub fn map_front(
    mut result: FrontResult,
    map: &dyn Fn(&Tree) -> Result<Tree>,
) -> Result<FrontResult> {
    for point in &mut result.outcome.front {
        point.tree = map(&point.tree)?;
    }
    for reference in &mut result.references {
        reference.tree = map(&reference.tree)?;
    }
    Ok(result)
}
