//! Trees out of the additive search: a greedy first incumbent, the extraction of the optimal
//! tree from the solved subproblems (the seed's Algorithm 6: from the root, follow each
//! subproblem's best split, solving again where the cache no longer holds it), a known tree
//! read into the search's terms, and the conversion into the project's [`Tree`].

use crate::data::Dataset;
use crate::dp::Solution;
use crate::error::{Error, Result};
use crate::search_core::binned::Binned;
use crate::search_core::subtree::{to_tree, SubTree};
use crate::search_core::view::View;
use crate::sparse::additive::AdditiveSearch;
use crate::tree::{NodeKind, Split, Tree};

/// The rows of `view` that a split on searched feature `feature` at `bin` sends left, as the
/// feature's index in the view and a position in its list (`None` when it does not split
/// them).
fn split_position(
    search: &AdditiveSearch,
    view: &View,
    feature: u32,
    bin: u32,
) -> Option<(usize, usize)> {
    let index = search.dp.arena.feature_index(view, feature)?;
    let position = search
        .dp
        .arena
        .list(view, index)
        .partition_point(|e| e.bin <= bin);
    (position > 0 && position < view.size).then_some((index, position))
}

/// The greedy tree of `view` with at most `depth` levels and its cost: the best single split
/// (or the leaf), its children grown the same way, and every split that does not pay for its
/// leaf pruned on the way back. `None` if the search was stopped meanwhile.
pub(crate) fn greedy(
    search: &mut AdditiveSearch,
    view: &View,
    depth: usize,
) -> Option<(SubTree, f64)> {
    let (leaf, _) = search.dp.cost.leaf(search.dp.arena.counts(view));
    if depth == 0 || view.n_features == 0 || view.size <= 1 {
        return Some((SubTree::Leaf, leaf));
    }
    let out = search.dp.solve(view, 1, 1, f64::INFINITY);
    if search.dp.deadline.aborted() {
        return None;
    }
    let Some(choice) = out.solution.and_then(|s| s.split) else {
        return Some((SubTree::Leaf, leaf));
    };
    let (index, position) = split_position(search, view, choice.feature, choice.bin)?;
    let (left_view, right_view) = search.dp.arena.split(view, index, position);
    let (left, left_cost) = greedy(search, &left_view, depth - 1)?;
    let (right, right_cost) = greedy(search, &right_view, depth - 1)?;
    let total = search.penalty + left_cost + right_cost;
    if total < leaf {
        Some((
            SubTree::Split {
                feature: choice.feature,
                bin: choice.bin,
                left: Box::new(left),
                right: Box::new(right),
            },
            total,
        ))
    } else {
        Some((SubTree::Leaf, leaf))
    }
}

/// Extracts the optimal subtree of `view` at `depth`, known to cost `cost`.
pub(crate) fn extract(
    search: &mut AdditiveSearch,
    view: &View,
    depth: usize,
    cost: f64,
) -> Result<SubTree> {
    let tol = search.dp.cost.tol;
    let solution = search
        .solve(view, depth, cost + 2.0 * tol)
        .solution
        .ok_or_else(|| {
            Error::Internal(format!(
                "a subtree of cost {cost} ({} rows, depth {depth}) could not be found again",
                view.size
            ))
        })?;
    extract_solution(search, view, depth, solution)
}

/// Extracts the subtree of `view` whose root split `solution` gives (a stopped search's best,
/// say), its children from the cache or solved again.
pub(crate) fn extract_solution(
    search: &mut AdditiveSearch,
    view: &View,
    depth: usize,
    solution: Solution,
) -> Result<SubTree> {
    let Some(choice) = solution.split else {
        return Ok(SubTree::Leaf);
    };
    let (index, position) = split_position(search, view, choice.feature, choice.bin)
        .ok_or_else(|| Error::Internal("a stored split does not split its rows".into()))?;
    let (left_view, right_view) = search.dp.arena.split(view, index, position);
    let left = extract(search, &left_view, depth - 1, choice.left_cost)?;
    let right = extract(search, &right_view, depth - 1, choice.right_cost)?;
    Ok(SubTree::Split {
        feature: choice.feature,
        bin: choice.bin,
        left: Box::new(left),
        right: Box::new(right),
    })
}

/// The cost of `tree` on `view`'s rows in the search's units (`None` if one of its splits no
/// longer splits the rows that reach it).
pub(crate) fn cost_of(search: &mut AdditiveSearch, view: &View, tree: &SubTree) -> Option<f64> {
    match tree {
        SubTree::Leaf => Some(search.dp.cost.leaf(search.dp.arena.counts(view)).0),
        SubTree::Split {
            feature,
            bin,
            left,
            right,
        } => {
            let (index, position) = split_position(search, view, *feature, *bin)?;
            let (left_view, right_view) = search.dp.arena.split(view, index, position);
            let left_cost = cost_of(search, &left_view, left)?;
            let right_cost = cost_of(search, &right_view, right)?;
            Some(search.penalty + left_cost + right_cost)
        }
    }
}

/// Levels of splits of `tree`.
pub(crate) fn depth_of(tree: &SubTree) -> usize {
    match tree {
        SubTree::Leaf => 0,
        SubTree::Split { left, right, .. } => 1 + depth_of(left).max(depth_of(right)),
    }
}

/// `tree` (a tree of the project's model) in the search's terms, if each of its splits is
/// axis-aligned on a candidate threshold of a searched feature.
pub(crate) fn from_tree(tree: &Tree, binned: &Binned) -> Option<SubTree> {
    fn node(tree: &Tree, binned: &Binned, id: usize) -> Option<SubTree> {
        match &tree.node(id)?.kind {
            NodeKind::Leaf { .. } => Some(SubTree::Leaf),
            NodeKind::Split(Split::Axis { feature, threshold }) => {
                let searched = binned.data_feature.iter().position(|f| f == feature)?;
                let thresholds = &binned.thresholds[searched];
                let bin = thresholds.iter().position(|t| t == threshold)?;
                Some(SubTree::Split {
                    feature: searched as u32,
                    bin: bin as u32,
                    left: Box::new(node(tree, binned, 2 * id)?),
                    right: Box::new(node(tree, binned, 2 * id + 1)?),
                })
            }
            NodeKind::Split(Split::Oblique { .. }) => None,
        }
    }
    node(tree, binned, 1)
}

/// The project's tree of `subtree`, leaves predicting their class of least weighted error.
pub(crate) fn into_tree(
    subtree: &SubTree,
    binned: &Binned,
    data: &Dataset,
    search: &AdditiveSearch,
) -> Result<Tree> {
    to_tree(
        subtree,
        binned,
        data,
        &search.dp.cost,
        depth_of(subtree).max(1),
    )
}
