//! The plain-code evaluation of a tree against the side constraints on its features and
//! leaves: the distinct features it splits on and their cost, its leaves, the training rows of
//! each leaf (the tree's counts, recounted on the training data), and every constraint it
//! breaks. A tree
//! returned under side constraints is checked with it; so are warm starts, and the exhaustive
//! search of the tests filters trees with it.

use serde::Serialize;

use crate::tree::{node_depth, NodeKind, Split, Tree};

use super::SideConstraints;

/// What a tree's features amount to under a set of side constraints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConstraintValues {
    /// The distinct features the tree splits on, in feature order.
    pub features_used: Vec<String>,
    /// Their indices.
    #[serde(skip)]
    pub feature_indices: Vec<usize>,
    /// The tree's leaves.
    pub leaves: usize,
    /// The training rows of each leaf some training row reaches, `(leaf id, rows)` (from the
    /// tree's counts), when the constraints bound the rows per leaf.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaf_rows: Option<Vec<(usize, usize)>>,
    /// Their summed cost, when the constraints have a budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
    /// Each constraint the tree breaks, in words (empty: it meets them all).
    pub broken: Vec<String>,
    /// The groups' rates and the gaps, under fairness constraints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fairness: Option<super::fairness::FairnessValues>,
}

/// The values of `tree` under `constraints` (oblique splits use every feature).
pub fn evaluate(constraints: &SideConstraints, tree: &Tree) -> ConstraintValues {
    let n = constraints.feature_names.len();
    let mut used = vec![false; n];
    let mut broken = Vec::new();
    for (id, node) in tree.nodes() {
        let features: Vec<usize> = match &node.kind {
            NodeKind::Split(Split::Axis { feature, .. }) => vec![*feature],
            NodeKind::Split(Split::Oblique { .. }) => (0..n).collect(),
            NodeKind::Leaf { .. } => Vec::new(),
        };
        for j in features.into_iter().filter(|&j| j < n) {
            used[j] = true;
            if !constraints.permits(j, node_depth(id)) {
                broken.push(format!(
                    "node {id} (depth {}) splits on `{}`, which is not allowed there",
                    node_depth(id),
                    constraints.feature_names[j]
                ));
            }
        }
    }
    let feature_indices: Vec<usize> = (0..n).filter(|&j| used[j]).collect();
    let features_used: Vec<String> = feature_indices
        .iter()
        .map(|&j| constraints.feature_names[j].clone())
        .collect();
    if let Some(k) = constraints.max_features {
        if features_used.len() > k {
            broken.push(format!(
                "{} distinct features are used, more than max_features = {k}",
                features_used.len()
            ));
        }
    }
    let leaves = tree.leaves().len();
    if let Some(most) = constraints.max_leaves {
        if leaves > most {
            broken.push(format!(
                "the tree has {leaves} leaves, more than max_leaves = {most}"
            ));
        }
    }
    let leaf_rows = constraints
        .bounds_leaf_rows()
        .then(|| leaf_rows_of(constraints, tree, &mut broken));
    let cost = constraints.budget.map(|budget| {
        let cost: f64 = (0..n)
            .filter(|&j| used[j])
            .map(|j| constraints.costs[j])
            .sum();
        if cost > budget + 1e-9 * budget.abs().max(1.0) {
            broken.push(format!(
                "the features used cost {cost}, more than the budget {budget}"
            ));
        }
        cost
    });
    let fairness = constraints.fairness.as_ref().map(|f| f.values(tree));
    broken.extend(fairness.iter().flat_map(|f| f.broken.clone()));
    ConstraintValues {
        features_used,
        feature_indices,
        leaves,
        leaf_rows,
        cost,
        broken,
        fairness,
    }
}

/// The rows of each leaf of `tree` some training row reaches (its counts), with the bounds
/// on them that it breaks added to `broken`. A leaf no row reaches is not bounded.
fn leaf_rows_of(
    constraints: &SideConstraints,
    tree: &Tree,
    broken: &mut Vec<String>,
) -> Vec<(usize, usize)> {
    let sizes: Vec<(usize, usize)> = tree
        .leaves()
        .into_iter()
        .filter_map(|id| Some((id, tree.node(id)?.rows())))
        .filter(|&(_, rows)| rows > 0)
        .collect();
    for &(id, rows) in &sizes {
        if let Some(min) = constraints.min_leaf_rows.filter(|&min| rows < min) {
            broken.push(format!(
                "leaf {id} has {rows} training rows, fewer than min_leaf_rows = {min}"
            ));
        }
        if let Some(max) = constraints.max_leaf_rows.filter(|&max| rows > max) {
            broken.push(format!(
                "leaf {id} has {rows} training rows, more than max_leaf_rows = {max}"
            ));
        }
    }
    sizes
}

/// The report of `tree` under `constraints` (the constraints, the features used, the leaves,
/// the cost under a budget, the rows of each leaf under bounds on them, what is broken) and whether it meets them all.
pub fn report(constraints: &SideConstraints, tree: &Tree) -> (serde_json::Value, bool) {
    let evaluated = evaluate(constraints, tree);
    let ok = evaluated.broken.is_empty();
    let mut report = serde_json::json!({
        "constraints": constraints.to_json(),
        "features_used": evaluated.features_used,
        "leaves": evaluated.leaves,
        "broken": evaluated.broken,
    });
    if let Some(cost) = evaluated.cost {
        report["feature_cost"] = cost.into();
    }
    if let Some(fairness) = &evaluated.fairness {
        report["fairness"] = serde_json::to_value(fairness).unwrap_or_default();
    }
    if let Some(sizes) = &evaluated.leaf_rows {
        let sizes: serde_json::Map<String, serde_json::Value> = sizes
            .iter()
            .map(|&(id, rows)| (id.to_string(), rows.into()))
            .collect();
        report["leaf_rows"] = sizes.into();
    }
    (report, ok)
}
