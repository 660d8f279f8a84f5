//! Encoding a tree as a complete OCT warm start: every variable set so that the assignment
//! satisfies every row and its objective is the plain evaluation of the (possibly relabelled)
//! tree.

use crate::error::{Error, Result};
use crate::formulation::oct::{LeafRule, Oct, OctModel};
use crate::formulation::Encoded;
use crate::mip::AssignmentBuilder;
use crate::score::Objective;
use crate::tree::{NodeKind, Split, Tree};

pub(super) fn encode(oct: &Oct, built: &OctModel, tree: &Tree) -> Result<Encoded> {
    if tree.actual_depth() > built.depth {
        return Err(Error::parameter(
            "warm start",
            format!(
                "the tree has depth {}, deeper than the model's {}",
                tree.actual_depth(),
                built.depth
            ),
        ));
    }
    let mut start = built.mip.start();
    encode_branches(built, tree, &mut start)?;
    let (encoded, notes) = relabel(oct, built, tree)?;
    let leaf_rows = leaf_rows(built, &encoded);
    encode_leaves(built, &encoded, &leaf_rows, &mut start)?;
    Ok(Encoded {
        assignment: start.finish()?,
        tree: encoded,
        notes,
    })
}

/// Sets each branch node's `a`, `d` and `b` from the tree's split there (none below a leaf).
fn encode_branches(built: &OctModel, tree: &Tree, start: &mut AssignmentBuilder<'_>) -> Result<()> {
    let data = &built.data;
    let splits = |m: usize| match tree.node(m + 1).map(|n| &n.kind) {
        Some(NodeKind::Split(split)) => Some(split),
        _ => None,
    };
    for m in 0..built.n_branch() {
        let id = m + 1;
        let (feature, b_value) = match splits(m) {
            None => (None, 0.0),
            Some(Split::Oblique { .. }) => {
                return Err(Error::parameter(
                    "warm start",
                    format!("node {id} is an oblique split; OCT encodes axis-aligned trees"),
                ))
            }
            Some(Split::Axis { feature, threshold }) => {
                let scaled = &built.features[*feature];
                if scaled.epsilon.is_none() {
                    return Err(Error::parameter(
                        "warm start",
                        format!(
                            "node {id} splits on a feature that is constant in the training data"
                        ),
                    ));
                }
                // b is the scaled value of the smallest training value above the threshold.
                let Some(&above) = scaled.values.iter().find(|&&v| v > *threshold) else {
                    return Err(Error::parameter(
                        "warm start",
                        format!(
                            "node {id} sends the largest value of `{}` left, which OCT cannot represent",
                            data.schema().features[*feature]
                        ),
                    ));
                };
                (Some(*feature), scaled.scale(above))
            }
        };
        for (j, var) in built.a.iter().enumerate() {
            if let Some(var) = var[m] {
                start.set(var, f64::from(u8::from(feature == Some(j))));
            }
        }
        start.set(built.d[m], f64::from(u8::from(feature.is_some())));
        start.set(built.b[m], b_value);
    }
    Ok(())
}

/// The tree as the model holds it, recounted, with a note per relabelled leaf: the model's
/// leaves predict a (weighted) majority class of their rows under majority leaves, so a leaf
/// of the tree that predicts another class is relabelled.
fn relabel(oct: &Oct, built: &OctModel, tree: &Tree) -> Result<(Tree, Vec<String>)> {
    let data = &built.data;
    let mut encoded = tree.clone();
    let mut notes = Vec::new();
    let mut leaf_weights: std::collections::BTreeMap<usize, Vec<f64>> = Default::default();
    for (i, row) in data.rows().iter().enumerate() {
        let weights = leaf_weights
            .entry(tree.leaf_of(row))
            .or_insert_with(|| vec![0.0; data.n_classes()]);
        weights[data.labels()[i]] += built.costs.rows[i];
    }
    let majority = built.leaves == LeafRule::Majority;
    for (&id, weights) in leaf_weights.iter().filter(|_| majority) {
        let best = weights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let Some(NodeKind::Leaf { class }) = tree.node(id).map(|n| n.kind.clone()) else {
            continue;
        };
        if weights[class] < best - 1e-9 {
            let majority_class = weights
                .iter()
                .position(|&w| w >= best - 1e-9)
                .unwrap_or(class);
            encoded.set_leaf_class(id, majority_class)?;
            notes.push(format!(
                "leaf {id} predicted `{}`, but OCT's leaves predict a{} majority class of \
                 their rows: encoded as `{}`",
                data.classes()[class],
                if oct.objective == Objective::Balanced || !oct.class_weights.is_empty() {
                    " (class-weighted)"
                } else if data.is_weighted() {
                    " (row-weighted)"
                } else {
                    ""
                },
                data.classes()[majority_class]
            ));
        }
    }
    encoded.recount(data.rows(), data.labels())?;
    Ok((encoded, notes))
}

/// The rows of each model leaf (by leaf index): at a split a row follows the tree; at a leaf
/// of the tree (or below) it goes right.
fn leaf_rows(built: &OctModel, tree: &Tree) -> Vec<Vec<usize>> {
    let mut leaf_rows = vec![Vec::new(); built.n_leaves()];
    for (i, row) in built.data.rows().iter().enumerate() {
        let mut id = 1;
        for _ in 0..built.depth {
            id = match tree.node(id).map(|n| &n.kind) {
                Some(NodeKind::Split(split)) if tree.goes_left(split, row) => 2 * id,
                _ => 2 * id + 1,
            };
        }
        leaf_rows[id - built.n_leaves()].push(i);
    }
    leaf_rows
}

/// The class of the tree's leaf that covers model leaf `id`: its deepest present ancestor's,
/// `None` when that is a split.
fn covering_class(tree: &Tree, id: usize) -> Option<usize> {
    let mut node = id;
    while node >= 1 {
        if let Some(n) = tree.node(node) {
            return match n.kind {
                NodeKind::Leaf { class } => Some(class),
                NodeKind::Split(_) => None,
            };
        }
        node /= 2;
    }
    None
}

/// Sets each model leaf's `z`, `l`, `c`, counts, loss and class errors from its rows
/// `leaf_rows`.
fn encode_leaves(
    built: &OctModel,
    tree: &Tree,
    leaf_rows: &[Vec<usize>],
    start: &mut AssignmentBuilder<'_>,
) -> Result<()> {
    let data = &built.data;
    for (t, rows) in leaf_rows.iter().enumerate() {
        let used = !rows.is_empty();
        let class = covering_class(tree, built.leaf_id(t));
        for (i, row) in built.z.iter().enumerate() {
            start.set(row[t], f64::from(u8::from(rows.contains(&i))));
        }
        start.set(built.l[t], f64::from(u8::from(used)));
        let mut weighted = vec![0.0; data.n_classes()];
        for &i in rows {
            weighted[data.labels()[i]] += built.costs.rows[i];
        }
        let total: f64 = weighted.iter().sum();
        let predicted = if used {
            Some(class.ok_or_else(|| {
                Error::Internal(format!(
                    "leaf {} receives rows but has no class",
                    built.leaf_id(t)
                ))
            })?)
        } else {
            None
        };
        for (class_index, &weight) in weighted.iter().enumerate() {
            start.set(
                built.c[class_index][t],
                f64::from(u8::from(predicted == Some(class_index))),
            );
            start.set(built.n_kt[class_index][t], weight);
        }
        start.set(built.n_t[t], total);
        start.set(
            built.loss[t],
            predicted.map_or(0.0, |p| total - weighted[p]),
        );
        for (class_index, errors) in built.class_errors.iter().enumerate() {
            let missed = if predicted == Some(class_index) {
                0.0
            } else {
                weighted[class_index]
            };
            start.set(errors[t], missed);
        }
    }
    Ok(())
}
