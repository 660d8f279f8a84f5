//! Optimal subtrees as the search knows them (splits on searched features and threshold
//! bins), rebuilt from the cache or solved again, and the cost of a given subtree.

use crate::dp::known::Solution;
use crate::dp::search::Search;
use crate::error::{Error, Result};
use crate::search_core::subtree::SubTree;
use crate::search_core::view::View;

/// The rows of `view` that a split on searched feature `feature` at `bin` sends left, as a
/// position in the view's list of that feature (`None`: the feature no longer splits the
/// view).
fn split_position(search: &Search, view: &View, feature: u32, bin: u32) -> Option<(usize, usize)> {
    let index = search.arena.feature_index(view, feature)?;
    let position = search
        .arena
        .list(view, index)
        .partition_point(|e| e.bin <= bin);
    (position > 0 && position < view.size).then_some((index, position))
}

/// Rebuilds the optimal subtree of `view` at `depth` and `budget`, known to cost `cost`:
/// from the cache, or by solving again where the cache no longer holds it.
pub(crate) fn rebuild(
    search: &mut Search,
    view: &View,
    depth: usize,
    budget: usize,
    cost: f64,
) -> Result<SubTree> {
    let (depth, budget) = search.normalize(view, depth, budget);
    if depth == 0 {
        return Ok(SubTree::Leaf);
    }
    let cached = if depth >= 2 {
        let key = search.key_depth(view, depth);
        search
            .cache
            .get(view.hash, key, budget, search.arena.list(view, 0))
            .and_then(|known| known.solution)
    } else {
        None
    };
    let solution = match cached {
        Some(solution) => solution,
        None => search
            // At least a step of `f64` above the cost (a cost of weights counted millions of
            // times over is past the tolerance's resolution).
            .solve(
                view,
                depth,
                budget,
                cost + 2.0 * search.cost.tol.max(cost.abs() * f64::EPSILON),
            )
            .solution
            .ok_or_else(|| {
                Error::Internal(format!(
                    "a subtree of cost {cost} (depth {depth}, {} rows) could not be found again",
                    view.size
                ))
            })?,
    };
    rebuild_solution(search, view, depth, budget, solution)
}

/// Rebuilds the subtree of a known optimal `solution` of `view` (its root split, with its
/// children rebuilt from the cache or solved again).
pub(crate) fn rebuild_solution(
    search: &mut Search,
    view: &View,
    depth: usize,
    budget: usize,
    solution: Solution,
) -> Result<SubTree> {
    let (depth, _) = search.normalize(view, depth, budget);
    let Some(choice) = solution.split else {
        return Ok(SubTree::Leaf);
    };
    let (index, position) = split_position(search, view, choice.feature, choice.bin)
        .ok_or_else(|| Error::Internal("a cached split does not split its rows".into()))?;
    let (left_view, right_view) = search.arena.split(view, index, position);
    let left = rebuild(
        search,
        &left_view,
        depth - 1,
        choice.left_budget as usize,
        choice.left_cost,
    )?;
    let right = rebuild(
        search,
        &right_view,
        depth - 1,
        choice.right_budget as usize,
        choice.right_cost,
    )?;
    Ok(SubTree::Split {
        feature: choice.feature,
        bin: choice.bin,
        left: Box::new(left),
        right: Box::new(right),
    })
}

/// The cost of `tree` on `view`'s rows, the view of each leaf being split off on the way.
pub(crate) fn cost_of(search: &mut Search, view: &View, tree: &SubTree) -> Result<f64> {
    match tree {
        SubTree::Leaf => Ok(search.cost.leaf(search.arena.counts(view)).0),
        SubTree::Split {
            feature,
            bin,
            left,
            right,
        } => {
            let (index, position) = split_position(search, view, *feature, *bin)
                .ok_or_else(|| Error::Internal("a split does not split its rows".into()))?;
            let (left_view, right_view) = search.arena.split(view, index, position);
            let left_cost = cost_of(search, &left_view, left)?;
            let right_cost = cost_of(search, &right_view, right)?;
            Ok(search.cost.split_cost + left_cost + right_cost)
        }
    }
}
