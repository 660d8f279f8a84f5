//! The losses the sparse search minimises ([`Loss`]), each a number in `[0, 1]` that grows with
//! the false positives and false negatives of a tree, as the seed paper (Lin et al., GOSDT,
//! ICML 2020) states them:
//!
//! - additive losses, a weighted count of the misclassified rows divided by the total weight:
//!   accuracy (every error costs 1), balanced accuracy (an error on class `k` costs
//!   `n / (K n_k)`), and weighted (cost-sensitive) accuracy (an error on class `k` costs a
//!   given `w_k`);
//! - losses of the tree's leaves as a whole, for two classes with one of them positive:
//!   `1 - F1` of the positive class, with the leaves labelled to maximise F1 (see [`f1_loss`]);
//!   `1 - AUC` and `1 - pAUC(theta)` of the ROC convex hull, the leaves ranked by their
//!   fraction of positive rows (see [`roc_area`]).
//!
//! The functions here compute the losses of leaf sets; they are the definitions the search and
//! the plain evaluator ([`super::objective_of`]) share.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::data::Dataset;
use crate::score::Objective;

/// What a tree's loss counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Loss {
    /// Misclassified rows over rows.
    Accuracy,
    /// One minus balanced accuracy: an error on class `k` weighs `n / (K n_k)`.
    Balanced,
    /// Cost-sensitive: an error on class `k` weighs `weights[k]`, over the total weight.
    Weighted { weights: Vec<f64> },
    /// One minus the F1 score of class `positive`.
    F1 { positive: usize },
    /// One minus the area under the ROC convex hull, class `positive` ranked first.
    Auc { positive: usize },
    /// One minus the area under the ROC convex hull up to a false positive rate of `theta`,
    /// divided by `theta`.
    PartialAuc { positive: usize, theta: f64 },
}

impl Loss {
    /// The objective's name, as `--objective` spells it.
    pub fn name(&self) -> &'static str {
        match self {
            Loss::Accuracy => "accuracy",
            Loss::Balanced => "balanced",
            Loss::Weighted { .. } => "weighted",
            Loss::F1 { .. } => "f1",
            Loss::Auc { .. } => "auc",
            Loss::PartialAuc { .. } => "pauc",
        }
    }

    /// The cost of one error on each class of `data` when the loss is a weighted count of
    /// errors (accuracy, balanced, weighted); `None` for the losses of whole leaf sets.
    pub fn class_weights(&self, data: &Dataset) -> Option<Vec<f64>> {
        match self {
            Loss::Accuracy => Some(Objective::Accuracy.class_weights(data)),
            Loss::Balanced => Some(Objective::Balanced.class_weights(data)),
            Loss::Weighted { weights } => Some(weights.clone()),
            Loss::F1 { .. } | Loss::Auc { .. } | Loss::PartialAuc { .. } => None,
        }
    }

    /// The positive class of a two-class loss (F1, AUC, pAUC).
    pub fn positive_class(&self) -> Option<usize> {
        match self {
            Loss::F1 { positive } | Loss::Auc { positive } | Loss::PartialAuc { positive, .. } => {
                Some(*positive)
            }
            _ => None,
        }
    }

    /// The loss of a set of leaves given by their (positive, negative) row counts, for the
    /// two-class losses; `None` for the additive ones.
    pub fn of_binary_leaves(&self, leaves: &[Leaf], total: Leaf) -> Option<f64> {
        match self {
            Loss::F1 { .. } => Some(f1_loss(leaves, total.positive).0),
            Loss::Auc { .. } => Some(1.0 - roc_area(leaves, total, 1.0)),
            Loss::PartialAuc { theta, .. } => Some(1.0 - roc_area(leaves, total, *theta) / theta),
            _ => None,
        }
    }
}

/// The rows of one leaf (or of any row set) of a two-class problem.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Leaf {
    pub positive: f64,
    pub negative: f64,
}

impl Leaf {
    pub fn new(positive: f64, negative: f64) -> Leaf {
        Leaf { positive, negative }
    }

    fn rows(self) -> f64 {
        self.positive + self.negative
    }
}

/// `a` before `b` when its fraction of positive rows is higher (empty leaves last).
fn by_positive_fraction(a: &Leaf, b: &Leaf) -> Ordering {
    match (a.rows() > 0.0, b.rows() > 0.0) {
        (true, true) => (b.positive * a.rows()).total_cmp(&(a.positive * b.rows())),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => Ordering::Equal,
    }
}

/// The leaves' indices from the highest fraction of positive rows to the lowest.
pub fn ranked(leaves: &[Leaf]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..leaves.len()).collect();
    order.sort_by(|&i, &j| by_positive_fraction(&leaves[i], &leaves[j]).then(i.cmp(&j)));
    order
}

/// `1 - F1` of the best labelling of `leaves` (`total_positive` positive rows in all), and
/// which leaves that labelling calls positive.
///
/// F1 is `2 TP / (TP + FP + P)`; the labelling that maximises it calls positive exactly the
/// leaves whose fraction of positives is above `F1* / 2` (maximising `sum_S (2 p_i - F n_i)`
/// over subsets `S` at the optimal `F`), so the best labelling is one of the prefixes of the
/// leaves ranked by that fraction, and a sweep over them finds it (the seed's "sweep from the
/// highest to the lowest prediction"). With no positive prediction F1 is 0.
pub fn f1_loss(leaves: &[Leaf], total_positive: f64) -> (f64, Vec<bool>) {
    let order = ranked(leaves);
    let (mut tp, mut fp) = (0.0, 0.0);
    let (mut best, mut best_prefix) = (0.0, 0);
    for (count, &i) in order.iter().enumerate() {
        tp += leaves[i].positive;
        fp += leaves[i].negative;
        let denominator = tp + fp + total_positive;
        let f1 = if denominator > 0.0 {
            2.0 * tp / denominator
        } else {
            0.0
        };
        if f1 > best {
            best = f1;
            best_prefix = count + 1;
        }
    }
    let mut positive = vec![false; leaves.len()];
    for &i in &order[..best_prefix] {
        positive[i] = true;
    }
    (1.0 - best, positive)
}

/// The area under the ROC convex hull of `leaves` between false positive rates 0 and
/// `theta` (in `(0, 1]`), `total` the positive and negative rows of the data.
///
/// Ranked by their fraction of positives, the leaves trace the hull from (0, 0) to (1, 1):
/// each adds `negative / N-` to the false positive rate and `positive / N+` to the true
/// positive rate (leaves of equal fraction lie on one line, so their order does not matter).
/// With `theta = 1` this is the AUC of the hull, the fraction of (positive, negative) pairs
/// ranked correctly, ties counting one half.
pub fn roc_area(leaves: &[Leaf], total: Leaf, theta: f64) -> f64 {
    let scored: Vec<(f64, Leaf)> = leaves
        .iter()
        .map(|&leaf| {
            let rows = leaf.rows();
            (
                if rows > 0.0 {
                    leaf.positive / rows
                } else {
                    0.0
                },
                leaf,
            )
        })
        .collect();
    scored_roc_area(&scored, total, theta)
}

/// The area under the ROC curve between false positive rates 0 and `theta` of rows scored by
/// the leaf they reach: `leaves[i] = (score, rows)`. Leaves of equal score are one point of
/// the curve (their rows tied). With each leaf scored by its own fraction of positives, this
/// is [`roc_area`]; scored by their training fractions, it measures a tree on other data.
pub fn scored_roc_area(leaves: &[(f64, Leaf)], total: Leaf, theta: f64) -> f64 {
    if total.positive <= 0.0 || total.negative <= 0.0 {
        return theta;
    }
    let mut order: Vec<usize> = (0..leaves.len()).collect();
    order.sort_by(|&i, &j| leaves[j].0.total_cmp(&leaves[i].0).then(i.cmp(&j)));
    let mut points: Vec<Leaf> = Vec::with_capacity(order.len());
    let mut last_score = None;
    for i in order {
        let (score, leaf) = leaves[i];
        match points.last_mut() {
            Some(point) if last_score == Some(score) => {
                point.positive += leaf.positive;
                point.negative += leaf.negative;
            }
            _ => points.push(leaf),
        }
        last_score = Some(score);
    }
    let (mut x, mut y, mut area) = (0.0f64, 0.0f64, 0.0f64);
    for point in points {
        if x >= theta {
            break;
        }
        let dx = point.negative / total.negative;
        let dy = point.positive / total.positive;
        if x + dx <= theta {
            area += dx * (y + dy / 2.0);
        } else {
            let part = theta - x;
            area += part * (y + dy * part / dx / 2.0);
        }
        x += dx;
        y += dy;
    }
    if x < theta {
        // The hull ends at (1, 1); rounding can leave a sliver.
        area += (theta - x) * y.min(1.0);
    }
    area
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaves(counts: &[(f64, f64)]) -> Vec<Leaf> {
        counts.iter().map(|&(p, n)| Leaf::new(p, n)).collect()
    }

    #[test]
    fn the_auc_of_one_leaf_is_one_half_and_of_pure_leaves_one() {
        let total = Leaf::new(3.0, 5.0);
        assert!((roc_area(&leaves(&[(3.0, 5.0)]), total, 1.0) - 0.5).abs() < 1e-12);
        let pure = leaves(&[(0.0, 5.0), (3.0, 0.0)]);
        assert!((roc_area(&pure, total, 1.0) - 1.0).abs() < 1e-12);
        // Two leaves (2+, 1-) and (1+, 4-): pairs ranked right 2*4 = 8, ties 2*1 + 1*4 = 6.
        let two = leaves(&[(1.0, 4.0), (2.0, 1.0)]);
        assert!((roc_area(&two, total, 1.0) - (8.0 + 3.0) / 15.0).abs() < 1e-12);
    }

    #[test]
    fn partial_auc_integrates_up_to_theta() {
        let total = Leaf::new(4.0, 4.0);
        // One leaf: the diagonal, area theta^2 / 2.
        let one = leaves(&[(4.0, 4.0)]);
        assert!((roc_area(&one, total, 0.5) - 0.125).abs() < 1e-12);
        // A pure positive leaf first: TPR 1 from FPR 0.
        let pure = leaves(&[(0.0, 4.0), (4.0, 0.0)]);
        assert!((roc_area(&pure, total, 0.25) - 0.25).abs() < 1e-12);
    }

    #[test]
    fn f1_labels_a_prefix_of_the_ranked_leaves() {
        // (3+, 1-), (1+, 1-), (0+, 4-): best is the first leaf alone or the first two.
        let counts = leaves(&[(1.0, 1.0), (0.0, 4.0), (3.0, 1.0)]);
        let (loss, positive) = f1_loss(&counts, 4.0);
        // First alone: 2*3 / (3+1+4) = 0.75; first two: 2*4 / (4+2+4) = 0.8.
        assert!((loss - 0.2).abs() < 1e-12);
        assert_eq!(positive, vec![true, false, true]);
    }
}
