//! One node of a logistic tree: the score bound `sum_j Z_j |w_j| + |b| <= S` that keeps the
//! OLCT model's big-M constraints valid, the node's L1-logistic fit within that bound (used by
//! the greedy logistic tree and by OLCT's refinement), and making a split representable by the
//! model (within the bound, and clear of the forwarding margin above the last level).
//!
//! Special nodes: no rows gives `w = 0, b = 0` (or keeps a given start); rows of one class give
//! `w = 0, b = +-S`, the exact minimiser within the bound. With `univariate`, the best
//! single-feature fit (or the intercept alone) by the node's objective.

use crate::error::{Error, Result};
use crate::greedy::logistic_regression::L1Logistic;
use crate::tree::Standardisation;

/// The bound `sum_j Z_j |w_j| + |b| <= limit` on one node's weights and bias.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreBound {
    /// `Z_j`: the largest `|z_ij|` over the training rows (0 for a constant feature).
    pub feature_max: Vec<f64>,
    pub limit: f64,
}

/// Below this, a standardised feature counts as constant on the training rows.
const CONSTANT_FEATURE: f64 = 1e-9;

impl ScoreBound {
    /// The bound over standardised training rows `z`, `p` features wide.
    pub fn new(z: &[Vec<f64>], p: usize, limit: f64) -> ScoreBound {
        let mut feature_max = vec![0.0f64; p];
        for row in z {
            for (m, v) in feature_max.iter_mut().zip(row) {
                *m = m.max(v.abs());
            }
        }
        for m in &mut feature_max {
            if *m <= CONSTANT_FEATURE {
                *m = 0.0;
            }
        }
        ScoreBound { feature_max, limit }
    }

    /// Whether feature `j` is constant on the training rows (its weight is kept at 0).
    pub fn is_constant(&self, j: usize) -> bool {
        self.feature_max[j] == 0.0
    }

    /// `sum_j Z_j |w_j| + |b|`, an upper bound of `|w . z_i + b|` over the training rows.
    pub fn size(&self, weights: &[f64], bias: f64) -> f64 {
        weights
            .iter()
            .zip(&self.feature_max)
            .map(|(w, z)| w.abs() * z)
            .sum::<f64>()
            + bias.abs()
    }

    /// The same bound with another limit.
    pub fn with_limit(&self, limit: f64) -> ScoreBound {
        ScoreBound {
            feature_max: self.feature_max.clone(),
            limit,
        }
    }
}

/// The standardised training rows with constant features set to exactly 0.
pub fn standardised_rows(
    rows: &[Vec<f64>],
    standardisation: &Standardisation,
    bound: Option<&ScoreBound>,
) -> Vec<Vec<f64>> {
    rows.iter()
        .map(|row| {
            let mut z = standardisation.apply(row);
            if let Some(bound) = bound {
                for (j, v) in z.iter_mut().enumerate() {
                    if bound.is_constant(j) {
                        *v = 0.0;
                    }
                }
            }
            z
        })
        .collect()
}

/// One node's fitted split and its objective `||w||_1 + C sum_i f(y_i (w . z_i + b))` over
/// the rows it was fitted on.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeFit {
    pub weights: Vec<f64>,
    pub bias: f64,
    pub objective: f64,
    /// What was special about the fit (no rows, one class, scaled onto the bound, ...).
    pub note: Option<String>,
}

/// The node objective at `(weights, bias)`.
pub fn node_objective(z: &[&[f64]], positive: &[bool], c: f64, weights: &[f64], bias: f64) -> f64 {
    L1Logistic::new(c).objective(z, positive, weights, bias)
}

/// Fits one node: the L1-logistic regression of `positive` on the standardised rows `z`
/// (constant features zeroed), within `bound`, starting from `start` when given.
///
/// With a start inside the bound, the result's objective is never larger than the start's:
/// the regression only descends from it, and a fit outside the bound is replaced by the
/// furthest point inside it on the segment from the start (the objective is convex, so that
/// point is no worse than the start).
pub fn fit_node(
    z: &[&[f64]],
    positive: &[bool],
    c: f64,
    univariate: bool,
    bound: &ScoreBound,
    start: Option<(&[f64], f64)>,
) -> Result<NodeFit> {
    let p = bound.feature_max.len();
    let objective = |w: &[f64], b: f64| node_objective(z, positive, c, w, b);
    if z.is_empty() {
        let (weights, bias, note) = match start {
            Some((w, b)) => (w.to_vec(), b, "no training row reaches it: kept as it was"),
            None => (
                vec![0.0; p],
                0.0,
                "no training row reaches it: w = 0, b = 0",
            ),
        };
        return Ok(NodeFit {
            objective: objective(&weights, bias),
            weights,
            bias,
            note: Some(note.into()),
        });
    }
    let n_positive = positive.iter().filter(|&&y| y).count();
    if n_positive == 0 || n_positive == positive.len() {
        let bias = if n_positive > 0 {
            bound.limit
        } else {
            -bound.limit
        };
        let weights = vec![0.0; p];
        return Ok(NodeFit {
            objective: objective(&weights, bias),
            weights,
            bias,
            note: Some(format!(
                "its {} training rows are all {}: w = 0, b = {bias}",
                z.len(),
                if n_positive > 0 {
                    "positive"
                } else {
                    "negative"
                }
            )),
        });
    }
    if univariate {
        return fit_univariate(z, positive, c, bound, start);
    }
    let fit = L1Logistic::new(c).fit(z, positive, start)?;
    let mut note = convergence_note(&fit);
    let anchor = start.map_or((vec![0.0; p], 0.0), |(w, b)| (w.to_vec(), b));
    let (weights, bias, clamp) =
        clamp_to_bound(bound, (&anchor.0, anchor.1), fit.weights, fit.intercept);
    if let Some(clamp) = clamp {
        note = Some(join_notes(note, clamp));
    }
    Ok(NodeFit {
        objective: objective(&weights, bias),
        weights,
        bias,
        note,
    })
}

fn convergence_note(fit: &crate::greedy::LogisticFit) -> Option<String> {
    (!fit.converged).then(|| {
        format!(
            "the logistic fit stopped after {} iterations with optimality violation {:.3e}",
            fit.iterations, fit.kkt_violation
        )
    })
}

fn join_notes(first: Option<String>, second: String) -> String {
    match first {
        Some(first) => format!("{first}; {second}"),
        None => second,
    }
}

/// Keeps `(weights, bias)` within `bound`: unchanged when inside, otherwise the furthest point
/// inside the bound on the segment from `anchor` (which must be inside) to it.
fn clamp_to_bound(
    bound: &ScoreBound,
    anchor: (&[f64], f64),
    weights: Vec<f64>,
    bias: f64,
) -> (Vec<f64>, f64, Option<String>) {
    let size = bound.size(&weights, bias);
    if size <= bound.limit {
        return (weights, bias, None);
    }
    let at = |t: f64| -> (Vec<f64>, f64) {
        (
            anchor
                .0
                .iter()
                .zip(&weights)
                .map(|(a, w)| a + t * (w - a))
                .collect(),
            anchor.1 + t * (bias - anchor.1),
        )
    };
    let (mut inside, mut outside) = (0.0f64, 1.0f64);
    for _ in 0..100 {
        let middle = 0.5 * (inside + outside);
        let (w, b) = at(middle);
        if bound.size(&w, b) <= bound.limit {
            inside = middle;
        } else {
            outside = middle;
        }
    }
    let (w, b) = at(inside);
    (
        w,
        b,
        Some(format!(
            "the fit (sum_j Z_j |w_j| + |b| = {size:.4}) was moved onto the score bound {:.4} \
             (fraction {inside:.6} of the way from {})",
            bound.limit,
            if anchor.0.iter().all(|&a| a == 0.0) && anchor.1 == 0.0 {
                "zero"
            } else {
                "the previous weights"
            }
        )),
    )
}

/// The best fit using at most one feature (or none), by the node objective.
fn fit_univariate(
    z: &[&[f64]],
    positive: &[bool],
    c: f64,
    bound: &ScoreBound,
    start: Option<(&[f64], f64)>,
) -> Result<NodeFit> {
    let p = bound.feature_max.len();
    let start_feature = start.and_then(|(w, _)| w.iter().position(|&v| v != 0.0));
    let start_is_univariate =
        start.is_some_and(|(w, _)| w.iter().filter(|&&v| v != 0.0).count() <= 1);
    let solver = L1Logistic::new(c);
    let mut best: Option<NodeFit> = None;
    // Candidate `None` is the intercept alone; `Some(j)` uses feature j only.
    let candidates =
        std::iter::once(None).chain((0..p).filter(|&j| !bound.is_constant(j)).map(Some));
    for feature in candidates {
        let columns: Vec<Vec<f64>> = z
            .iter()
            .map(|row| feature.map(|j| vec![row[j]]).unwrap_or_default())
            .collect();
        let column_refs: Vec<&[f64]> = columns.iter().map(Vec::as_slice).collect();
        // The start's own feature (or the intercept alone, for a start without weights) is
        // refitted from the start, so the best candidate is never worse than the start.
        let own_start = start.filter(|_| start_is_univariate && start_feature == feature);
        let sub_start =
            own_start.map(|(w, b)| (feature.map(|j| vec![w[j]]).unwrap_or_default(), b));
        let fit = solver.fit(
            &column_refs,
            positive,
            sub_start.as_ref().map(|(w, b)| (w.as_slice(), *b)),
        )?;
        let embed = |sub: &[f64]| -> Vec<f64> {
            let mut w = vec![0.0; p];
            if let (Some(j), Some(&v)) = (feature, sub.first()) {
                w[j] = v;
            }
            w
        };
        let anchor = own_start.map_or((vec![0.0; p], 0.0), |(w, b)| (w.to_vec(), b));
        let (weights, bias, clamp) = clamp_to_bound(
            bound,
            (&anchor.0, anchor.1),
            embed(&fit.weights),
            fit.intercept,
        );
        let note = match (convergence_note(&fit), clamp) {
            (first, Some(second)) => Some(join_notes(first, second)),
            (first, None) => first,
        };
        let objective = node_objective(z, positive, c, &weights, bias);
        if best.as_ref().is_none_or(|b| objective < b.objective) {
            best = Some(NodeFit {
                weights,
                bias,
                objective,
                note,
            });
        }
    }
    best.ok_or_else(|| Error::Internal("univariate fit without candidates".into()))
}

/// The smallest shift `delta` of the bias (by absolute value) such that no score `s + delta`
/// falls in `(0, margin)`, or 0 when none does. Scores within `guard` of 0 count as inside
/// the gap once a shift is needed, so that rounding cannot send a row across.
fn boundary_shift(scores: &[f64], margin: f64) -> f64 {
    if !scores.iter().any(|&s| s > 0.0 && s < margin) {
        return 0.0;
    }
    let guard = 1e-9 * (1.0 + scores.iter().fold(0.0f64, |m, s| m.max(s.abs())));
    // Forbidden shifts: (-s - guard, margin - s) for every score s.
    let mut intervals: Vec<(f64, f64)> = scores
        .iter()
        .map(|&s| (-s - guard, margin - s + guard))
        .collect();
    intervals.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut merged: Vec<(f64, f64)> = Vec::new();
    for (low, high) in intervals {
        match merged.last_mut() {
            Some(last) if low < last.1 => last.1 = last.1.max(high),
            _ => merged.push((low, high)),
        }
    }
    match merged.iter().find(|(low, high)| *low < 0.0 && 0.0 < *high) {
        Some(&(low, high)) => {
            if -low <= high {
                low
            } else {
                high
            }
        }
        None => 0.0,
    }
}

/// Makes one split representable by the OLCT model: within `bound` (scaled towards zero if it
/// is not, which keeps the signs of the scores) and, when `margin` is given (nodes above the
/// last level), with no row of `rows` scoring in `(0, margin)` (the bias is moved by the
/// smallest amount that clears them; room for that move is kept inside the bound).
/// `score(weights, bias, i)` must be the tree's own score of training row `i`. Returns the
/// split and notes on what was changed.
pub fn representable_split(
    weights: Vec<f64>,
    bias: f64,
    rows: &[usize],
    score: &dyn Fn(&[f64], f64, usize) -> f64,
    bound: &ScoreBound,
    margin: Option<f64>,
) -> Result<(Vec<f64>, f64, Vec<String>)> {
    let mut notes = Vec::new();
    let room = margin.map_or(0.0, |m| {
        (bound.limit / 2.0).min((rows.len() + 1) as f64 * m)
    });
    let limit = bound.limit - room;
    let size = bound.size(&weights, bias);
    let (weights, mut bias) = if size > limit {
        let factor = limit / size;
        notes.push(format!(
            "weights and bias scaled by {factor:.6} onto the score bound \
             (sum_j Z_j |w_j| + |b| was {size:.4}, the limit {limit:.4})"
        ));
        (
            weights.iter().map(|w| w * factor).collect::<Vec<f64>>(),
            bias * factor,
        )
    } else {
        (weights, bias)
    };
    if let Some(margin) = margin {
        let scores: Vec<f64> = rows.iter().map(|&i| score(&weights, bias, i)).collect();
        let shift = boundary_shift(&scores, margin);
        if shift != 0.0 {
            bias += shift;
            notes.push(format!(
                "bias moved by {shift:.3e} so that no row lands within the margin {margin} right \
                 of the boundary"
            ));
            if let Some(&i) = rows.iter().find(|&&i| {
                let s = score(&weights, bias, i);
                s > 0.0 && s < margin
            }) {
                return Err(Error::Internal(format!(
                    "row {i} still scores {} within the margin after the bias shift",
                    score(&weights, bias, i)
                )));
            }
        }
    }
    if bound.size(&weights, bias) > bound.limit {
        return Err(Error::Internal(
            "a split leaves the score bound after the bias shift".into(),
        ));
    }
    Ok((weights, bias, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_shift_without_rows_in_the_gap() {
        assert_eq!(boundary_shift(&[-1.0, 0.0, 1e-5, 2.0], 1e-5), 0.0);
    }

    #[test]
    fn the_shift_clears_every_row_and_is_small() {
        let margin = 1e-5;
        let scores = [-3.0, 2e-6, 4e-6, 5e-6, 1.0, -1e-6];
        let shift = boundary_shift(&scores, margin);
        assert!(shift.abs() <= 2.0 * margin, "{shift}");
        for s in scores {
            let moved = s + shift;
            assert!(moved <= 0.0 || moved >= margin, "{s} -> {moved}");
        }
    }

    #[test]
    fn clamping_moves_onto_the_bound() {
        let bound = ScoreBound {
            feature_max: vec![2.0, 0.0],
            limit: 10.0,
        };
        let (w, b, note) = clamp_to_bound(&bound, (&[0.0, 0.0], 0.0), vec![8.0, 0.0], 4.0);
        assert!(note.is_some());
        assert!((bound.size(&w, b) - 10.0).abs() < 1e-9);
        assert!((w[0] / b - 2.0).abs() < 1e-9);
    }
}
