//! Decoding an OCT solution into a tree (splits from `a` and `d`, thresholds from the rows'
//! leaves, leaf classes from `c`), and the model's objective of a tree by plain code.

use serde_json::json;

use crate::error::{Error, Result};
use crate::formulation::oct::{Oct, OctModel};
use crate::formulation::{Decoded, Formulation};
use crate::greedy::majority;
use crate::mip::{Assignment, Variable};
use crate::tree::{node_depth, Split, Tree, TreeBuilder};

pub(super) fn decode(oct: &Oct, built: &OctModel, solution: &Assignment) -> Result<Decoded> {
    let data = &built.data;
    let on = |v: Variable| solution.value(v) > 0.5;
    let mut notes = Vec::new();
    // Each row's leaf, from z.
    let row_leaf: Vec<usize> = built
        .z
        .iter()
        .map(|row| {
            row.iter()
                .position(|&v| on(v))
                .map_or(0, |t| built.leaf_id(t))
        })
        .collect();
    let mut builder =
        TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), built.depth)?;
    let mut stack = vec![1usize];
    while let Some(id) = stack.pop() {
        let depth = node_depth(id);
        let splits = depth < built.depth && on(built.d[id - 1]);
        if splits {
            let m = id - 1;
            let feature = built
                .a
                .iter()
                .position(|var| var[m].is_some_and(on))
                .ok_or_else(|| Error::Internal(format!("node {id} splits on no feature")))?;
            let threshold = decode_threshold(built, solution, id, feature, &row_leaf, &mut notes);
            builder.split(id, Split::Axis { feature, threshold })?;
            stack.push(2 * id);
            stack.push(2 * id + 1);
        } else {
            // Every row reaching `id` goes right to the rightmost model leaf below it.
            let mut leaf = id;
            while node_depth(leaf) < built.depth {
                leaf = 2 * leaf + 1;
            }
            let t = leaf - built.n_leaves();
            let class = (0..data.n_classes()).find(|&k| on(built.c[k][t]));
            let class = match class {
                Some(class) => class,
                None => {
                    // No row reaches this leaf: predict the parent's majority.
                    let parent_rows: Vec<usize> = (0..data.n_rows())
                        .filter(|&i| is_descendant(row_leaf[i], (id / 2).max(1)))
                        .map(|i| data.labels()[i])
                        .collect();
                    majority(&crate::data::count_classes(&parent_rows, data.n_classes()))
                }
            };
            builder.leaf(id, class)?;
        }
    }
    let mut tree = builder.build()?;
    tree.recount(data.rows(), data.labels())?;
    tree.learned_by = Some(json!({ "method": "oct", "parameters": oct.parameters() }));
    Ok(Decoded { tree, notes })
}

/// The model's objective of `tree`, by plain code: the summed error costs of its misclassified
/// rows (class cost, class weight and row weight) over the baseline's, plus
/// alpha per split and the leaf penalty per leaf.
pub(super) fn objective_of(oct: &Oct, built: &OctModel, tree: &Tree) -> f64 {
    let data = &built.data;
    let errors = built.costs.errors_of(data, tree.predict(data.rows()));
    errors / built.baseline
        + oct.alpha * tree.n_splits() as f64
        + built.leaf_cost(oct.leaf_penalty) * tree.leaves().len() as f64
}

/// Whether node `id` is `ancestor` or below it.
fn is_descendant(mut id: usize, ancestor: usize) -> bool {
    while id > ancestor {
        id /= 2;
    }
    id == ancestor
}

/// The threshold (original units) of node `id` splitting on `feature`: the candidate
/// midpoint that routes the rows reaching the node as the solution's `z` does; when several
/// candidates do (values no row at the node takes lie between the two sides), the one that
/// `b` points to; when none does (solver tolerances), the one `b` points to, with a note.
fn decode_threshold(
    built: &OctModel,
    solution: &Assignment,
    id: usize,
    feature: usize,
    row_leaf: &[usize],
    notes: &mut Vec<String>,
) -> f64 {
    let scaled = &built.features[feature];
    let b = solution.value(built.b[id - 1]);
    let eps = scaled.epsilon.unwrap_or(0.0);
    // How many distinct values lie left of b (robust to tolerances: halfway into the gap).
    let by_b = scaled
        .values
        .iter()
        .filter(|&&v| scaled.scale(v) < b - eps / 2.0)
        .count();
    let mut max_left = None::<f64>;
    let mut min_right = None::<f64>;
    for (i, &leaf) in row_leaf.iter().enumerate() {
        let value = built.data.rows()[i][feature];
        if is_descendant(leaf, 2 * id) {
            max_left = Some(max_left.map_or(value, |m: f64| m.max(value)));
        } else if is_descendant(leaf, 2 * id + 1) {
            min_right = Some(min_right.map_or(value, |m: f64| m.min(value)));
        }
    }
    // Range of "number of distinct values going left" consistent with z.
    let lowest = max_left.map_or(0, |m| scaled.values.iter().filter(|&&v| v <= m).count());
    let highest = min_right.map_or(scaled.values.len(), |m| {
        scaled.values.iter().filter(|&&v| v < m).count()
    });
    let count = if lowest <= highest {
        by_b.clamp(lowest, highest)
    } else {
        notes.push(format!(
            "node {id}: the solution routes rows on `{}` inconsistently with any threshold \
                 (solver tolerance on the epsilon constraints); the threshold follows b = {b}",
            built.data.schema().features[feature]
        ));
        by_b
    };
    match count {
        0 => scaled.values[0] - 1.0,
        k if k >= scaled.values.len() => scaled.values[scaled.values.len() - 1],
        k => scaled.thresholds[k - 1],
    }
}
