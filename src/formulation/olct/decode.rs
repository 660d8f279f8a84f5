//! Decoding a solution into an OLCT tree: the weights and biases as the solver gave them, each
//! node of the last level split into a negative left leaf and a positive right leaf, and the
//! tree recounted on the training rows by its own routing (`w . z + b <= 0` goes left).
//!
//! Within the solver's tolerances a row the solution sends left (by its `z`) may have a small
//! positive score, and a row it sends right a score in `(0, epsilon)` or slightly below 0.
//! The tree routes by its own rule; where that would disagree with the solution's routing at a
//! node above the last level, the node's bias is moved by the smallest amount that makes them
//! agree, when one exists (the notes give each such move), so that the tree is the one the
//! solver scored. Rows whose routing still differs are listed in the notes; the surrogate
//! objective of the tree then differs from the solver's objective, which the caller compares.

use std::collections::BTreeMap;

use crate::error::Result;
use crate::formulation::olct::model::{Layout, OlctModel};
use crate::mip::Assignment;
use crate::tree::{Split, Tree, TreeBuilder};

/// Weights the solver reports below this in magnitude are read as 0.
const ZERO_WEIGHT: f64 = 1e-12;

pub(crate) fn decode(built: &OlctModel, solution: &Assignment) -> Result<(Tree, Vec<String>)> {
    let training = &built.training;
    let layout = Layout {
        depth: training.settings.depth,
    };
    let vars = &built.vars;
    let scaling = &training.standardisation;
    let mut notes = Vec::new();
    // The solver's routing: the last-level node each row reaches (largest z).
    let reached: Vec<usize> = vars
        .z
        .iter()
        .map(|zs| {
            let k = zs
                .iter()
                .enumerate()
                .max_by(|a, b| solution.value(*a.1).total_cmp(&solution.value(*b.1)))
                .map_or(0, |(k, _)| k);
            layout.first_last() + k
        })
        .collect();
    let mut splits: BTreeMap<usize, (Vec<f64>, f64)> = BTreeMap::new();
    for t in 1..=layout.branches() {
        let weights: Vec<f64> = vars.w[t - 1]
            .iter()
            .map(|&w| {
                let value = solution.value(w);
                if value.abs() < ZERO_WEIGHT {
                    0.0
                } else {
                    value
                }
            })
            .collect();
        splits.insert(t, (weights, solution.value(vars.b[t - 1])));
    }
    // Honour the solver's routing above the last level, top down.
    for t in 1..layout.first_last() {
        let span = layout.depth - layout.level(t);
        let (weights, bias) = splits[&t].clone();
        let mut left_max = f64::NEG_INFINITY;
        let mut right_min = f64::INFINITY;
        let mut disagreeing = 0;
        for (i, row) in training.data.rows().iter().enumerate() {
            // Row i passes t in the solution when its last-level node descends from t.
            let ancestor = reached[i] >> span;
            if ancestor != t {
                continue;
            }
            let goes_left = (reached[i] >> (span - 1)) == 2 * t;
            let score = scaling.score(&weights, bias, row);
            if goes_left {
                left_max = left_max.max(score);
                disagreeing += usize::from(score > 0.0);
            } else {
                right_min = right_min.min(score);
                disagreeing += usize::from(score <= 0.0);
            }
        }
        if disagreeing == 0 {
            continue;
        }
        if left_max < right_min {
            // Shifts d with every left score + d <= 0 < every right score + d form
            // (-right_min, -left_max]; try the one nearest 0, then with a margin for rounding,
            // then the middle.
            let tiny = |v: f64| 1e-12 * (1.0 + v.abs());
            let candidates = if left_max > 0.0 {
                [
                    -left_max,
                    -left_max - tiny(left_max),
                    -0.5 * (left_max + right_min),
                ]
            } else {
                [
                    -right_min + tiny(right_min).min(0.5 * (right_min - left_max)),
                    -right_min + 2.0 * tiny(right_min).min(0.25 * (right_min - left_max)),
                    -0.5 * (left_max + right_min),
                ]
            };
            let agrees = |b: f64| {
                training.data.rows().iter().enumerate().all(|(i, row)| {
                    if (reached[i] >> span) != t {
                        return true;
                    }
                    let goes_left = (reached[i] >> (span - 1)) == 2 * t;
                    (scaling.score(&weights, b, row) <= 0.0) == goes_left
                })
            };
            if let Some(&shift) = candidates
                .iter()
                .find(|&&d| d.is_finite() && agrees(bias + d))
            {
                notes.push(format!(
                    "node {t}: bias moved by {shift:.3e} so that the tree routes the \
                     {disagreeing} rows the solution placed within tolerance of the boundary as \
                     the solution did"
                ));
                splits.insert(t, (weights, bias + shift));
                continue;
            }
        }
        notes.push(format!(
            "node {t}: {disagreeing} rows are routed by the tree's rule (w . z + b <= 0 goes \
             left) differently from the solution, which placed them within its tolerances"
        ));
    }
    let mut builder = TreeBuilder::new(
        training.data.schema().clone(),
        training.data.classes().to_vec(),
        layout.depth,
    )?
    .standardisation(training.standardisation.clone());
    for (&t, (weights, bias)) in &splits {
        builder.split(
            t,
            Split::Oblique {
                weights: weights.clone(),
                bias: *bias,
            },
        )?;
        if t >= layout.first_last() {
            builder.leaf(2 * t, training.negative_class())?;
            builder.leaf(2 * t + 1, training.positive_class)?;
        }
    }
    let mut tree = builder.build()?;
    tree.recount(training.data.rows(), training.data.labels())?;
    Ok((tree, notes))
}
