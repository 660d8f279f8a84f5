//! The objective of any tree under a [`DpProblem`], by plain counting: the yardstick every
//! tree the search returns is held against. It shares no code with the search.

use crate::data::Dataset;
use crate::dp::DpProblem;
use crate::tree::{NodeKind, Tree};

/// The objective of `tree` on `data` under `problem`: the class weight times the row weight of
/// every row its leaf misclassifies (rows are routed with [`Tree::leaf_of`], leaves predict
/// their own class), plus `split_cost` per split node. `None` when the tree is not a solution
/// of the problem: deeper than `problem.depth`, more split nodes than `max_splits`, a leaf that
/// receives between 0 and `min_leaf` rows (both excluded; rows, whatever their weights, as
/// OCT's model counts them) or more than `max_leaf` rows, or a class without a weight.
pub fn objective_of(tree: &Tree, data: &Dataset, problem: &DpProblem) -> Option<f64> {
    let splits = tree.n_splits();
    if problem.max_splits.is_some_and(|limit| splits > limit) {
        return None;
    }
    if tree.actual_depth() > problem.depth {
        return None;
    }
    let mut rows_in_leaf = vec![0usize; 1 << (tree.depth() + 1)];
    let mut errors = 0.0;
    for (i, (row, &label)) in data.rows().iter().zip(data.labels()).enumerate() {
        let leaf = tree.leaf_of(row);
        *rows_in_leaf.get_mut(leaf)? += 1;
        let NodeKind::Leaf { class } = tree.node(leaf)?.kind else {
            return None;
        };
        if class != label {
            errors += problem.class_weights.get(label)? * data.weight(i);
        }
    }
    if rows_in_leaf.iter().any(|&rows| {
        (rows > 0 && rows < problem.min_leaf) || problem.max_leaf.is_some_and(|m| rows > m)
    }) {
        return None;
    }
    Some(errors + problem.split_cost * splits as f64)
}
