//! The per-node description of an OLCT tree (the paper's Section 4.4): for every branch node,
//! the rows that reach it, its nonzero weights over standardised features and in the data's
//! original units, its bias in both, and the influence `r_j = w_j * sigma_j` of each feature,
//! `sigma_j` the (population) standard deviation of the standardised feature over the training
//! rows that reach the node.

use serde_json::{json, Value};

use crate::error::Result;
use crate::formulation::olct::objective::training_splits;
use crate::formulation::olct::training::Training;
use crate::tree::{node_depth, Tree};

/// One JSON object per branch node, root first.
pub(crate) fn node_report(training: &Training, tree: &Tree) -> Result<Vec<Value>> {
    let depth = training.settings.depth;
    let splits = training_splits(training, tree)?;
    let scaling = &training.standardisation;
    let mut reaching: Vec<Vec<usize>> = vec![Vec::new(); splits.len()];
    for (i, row) in training.data.rows().iter().enumerate() {
        for t in tree.path(row).into_iter().take(depth) {
            reaching[t].push(i);
        }
    }
    let features = tree.features();
    let mut nodes = Vec::new();
    for (t, (weights, bias)) in splits.iter().enumerate().skip(1) {
        let rows = &reaching[t];
        let n = rows.len() as f64;
        let spread = |j: usize| -> Option<f64> {
            if rows.is_empty() {
                return None;
            }
            let mean = rows.iter().map(|&i| training.z[i][j]).sum::<f64>() / n;
            let variance = rows
                .iter()
                .map(|&i| (training.z[i][j] - mean).powi(2))
                .sum::<f64>()
                / n;
            Some(variance.sqrt())
        };
        let nonzero: Vec<Value> = weights
            .iter()
            .enumerate()
            .filter(|(_, w)| **w != 0.0)
            .map(|(j, &w)| {
                json!({
                    "feature": features[j],
                    "weight": w,
                    "weight_original_units": w / scaling.scale[j],
                    "influence": spread(j).map(|sigma| w * sigma),
                })
            })
            .collect();
        let bias_original = bias
            - weights
                .iter()
                .enumerate()
                .map(|(j, w)| w * scaling.mean[j] / scaling.scale[j])
                .sum::<f64>();
        nodes.push(json!({
            "node": t,
            "level": node_depth(t) + 1,
            "rows": rows.len(),
            "counts": tree.node(t).map(|node| node.counts.clone()),
            "bias": bias,
            "bias_original_units": bias_original,
            "l1_norm": weights.iter().map(|w| w.abs()).sum::<f64>(),
            "weights": nonzero,
        }));
    }
    Ok(nodes)
}
