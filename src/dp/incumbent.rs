//! A first incumbent before the exact search: the optimal depth-two tree, each of whose leaves
//! is replaced by the same construction on its rows while depth remains (optimal depth-two
//! trees stacked greedily). It is cheap next to the exact search, and its cost is the search's
//! first upper bound.

use crate::dp::search::{full, Search};
use crate::dp::subtree::{rebuild_solution, SubTree};
use crate::dp::view::View;
use crate::error::Result;

/// The greedy tree of `view` with at most `depth` levels and `budget` splits, and its cost.
/// `None` if the search was stopped meanwhile.
pub(crate) fn greedy(
    search: &mut Search,
    view: &View,
    depth: usize,
    budget: usize,
) -> Result<Option<(SubTree, f64)>> {
    let (depth, budget) = search.normalize(view, depth, budget);
    let top_depth = depth.min(2);
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
    if depth <= 2 || budget < full(depth) || top == SubTree::Leaf {
        return Ok(Some((top, solution.cost)));
    }
    extend(search, view, top, depth)
}

/// Replaces every leaf of `tree` that has depth to spare by a greedy subtree of its rows.
fn extend(
    search: &mut Search,
    view: &View,
    tree: SubTree,
    depth: usize,
) -> Result<Option<(SubTree, f64)>> {
    match tree {
        SubTree::Leaf => {
            let leaf = search.cost.leaf(search.arena.counts(view)).0;
            if depth == 0 || view.n_features == 0 {
                return Ok(Some((SubTree::Leaf, leaf)));
            }
            Ok(
                greedy(search, view, depth, full(depth))?.map(|(subtree, cost)| {
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
            let Some((left, left_cost)) = extend(search, &left_view, *left, depth - 1)? else {
                return Ok(None);
            };
            let Some((right, right_cost)) = extend(search, &right_view, *right, depth - 1)? else {
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
