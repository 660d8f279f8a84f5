//! First incumbents before the exact search:
//! - CART's tree (the split of least weighted Gini impurity at each node, [`gini`]) and the
//!   optimal single splits stacked greedily: each costs one scan of each feature per node, so
//!   they are built whatever the deadline, and even a search stopped at once returns a tree as
//!   good as a greedy one;
//! - the optimal depth-two tree, each of whose leaves is replaced by the same construction on
//!   its rows while depth remains (optimal depth-two trees stacked greedily): better, and cheap
//!   next to the exact search, built while there is time.
//!
//! The best one's cost is the search's first upper bound.

use crate::dp::search::Search;
use crate::dp::subtree::rebuild_solution;
use crate::error::Result;
use crate::search_core::binned::split_bin;
use crate::search_core::budget::full;
use crate::search_core::subtree::SubTree;
use crate::search_core::view::View;

/// The greedy tree of `view` with at most `depth` levels and `budget` splits, stacking optimal
/// trees of depth `step`, and its cost. `None` if the search was stopped meanwhile.
pub(crate) fn greedy(
    search: &mut Search,
    view: &View,
    depth: usize,
    budget: usize,
    step: usize,
) -> Result<Option<(SubTree, f64)>> {
    let (depth, budget) = search.normalize(view, depth, budget);
    let top_depth = depth.min(step);
    let top_budget = budget.min(full(top_depth));
    let out = search.solve(view, top_depth, top_budget, f64::INFINITY);
    if search.deadline.aborted() {
        return Ok(None);
    }
    let Some(solution) = out.solution else {
        return Ok(None);
    };
    let top = rebuild_solution(search, view, top_depth, top_budget, solution)?;
    // Only a complete budget leaves room below the top subtree; a top leaf stays a leaf.
    if depth <= top_depth || budget < full(depth) || top == SubTree::Leaf {
        return Ok(Some((top, solution.cost)));
    }
    extend(search, view, top, depth, step)
}

/// Replaces every leaf of `tree` that has depth to spare by a greedy subtree of its rows.
fn extend(
    search: &mut Search,
    view: &View,
    tree: SubTree,
    depth: usize,
    step: usize,
) -> Result<Option<(SubTree, f64)>> {
    match tree {
        SubTree::Leaf => {
            let leaf = search.cost.leaf(search.arena.counts(view)).0;
            if depth == 0 || view.n_features == 0 {
                return Ok(Some((SubTree::Leaf, leaf)));
            }
            Ok(
                greedy(search, view, depth, full(depth), step)?.map(|(subtree, cost)| {
                    if cost < leaf {
                        (subtree, cost)
                    } else {
                        (SubTree::Leaf, leaf)
                    }
                }),
            )
        }
        SubTree::Split {
            feature,
            bin,
            left,
            right,
        } => {
            let Some(index) = search.arena.feature_index(view, feature) else {
                return Ok(None);
            };
            let position = search
                .arena
                .list(view, index)
                .partition_point(|e| e.bin <= bin);
            let (left_view, right_view) = search.arena.split(view, index, position);
            let Some((left, left_cost)) = extend(search, &left_view, *left, depth - 1, step)?
            else {
                return Ok(None);
            };
            let Some((right, right_cost)) = extend(search, &right_view, *right, depth - 1, step)?
            else {
                return Ok(None);
            };
            Ok(Some((
                SubTree::Split {
                    feature,
                    bin,
                    left: Box::new(left),
                    right: Box::new(right),
                },
                search.cost.split_cost + left_cost + right_cost,
            )))
        }
    }
}

/// CART's tree of `view` with at most `depth` levels: at each node the split of least weighted
/// Gini impurity that leaves `min_leaf` rows on each side, a node whose subtree does not beat
/// its leaf being the leaf; and its cost. No split limit: for a problem without one.
pub(crate) fn gini(search: &mut Search, view: &View, depth: usize) -> (SubTree, f64) {
    let leaf = search.cost.leaf(search.arena.counts(view)).0;
    let min_leaf = (search.cost.min_leaf as usize).max(1);
    if depth == 0 || view.size < 2 * min_leaf || view.n_features == 0 {
        return (SubTree::Leaf, leaf);
    }
    let mut order = Vec::new();
    search.feature_order(view, &mut order);
    let Some(rank) = order.into_iter().find(|rank| {
        rank.impurity.is_finite()
            && rank.position >= min_leaf
            && view.size - rank.position >= min_leaf
    }) else {
        return (SubTree::Leaf, leaf);
    };
    let list = search.arena.list(view, rank.index);
    let bin = split_bin(list[rank.position - 1].bin, list[rank.position].bin);
    let feature = search.arena.feature(view, rank.index);
    let (left_view, right_view) = search.arena.split(view, rank.index, rank.position);
    let (left, left_cost) = gini(search, &left_view, depth - 1);
    let (right, right_cost) = gini(search, &right_view, depth - 1);
    let cost = search.cost.split_cost + left_cost + right_cost;
    if cost < leaf - search.cost.tol {
        (
            SubTree::Split {
                feature,
                bin,
                left: Box::new(left),
                right: Box::new(right),
            },
            cost,
        )
    } else {
        (SubTree::Leaf, leaf)
    }
}
