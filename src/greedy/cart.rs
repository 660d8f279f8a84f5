//! CART with Gini impurity, grown depth-first to a maximum depth, as scikit-learn's
//! `DecisionTreeClassifier` grows it, with deterministic tie-breaking.
//!
//! At each node the split maximising `S_L / n_L + S_R / n_R` (with `S = sum_k count_k^2`), which
//! minimises the weighted Gini impurity of the children, is chosen. The comparison is done in
//! exact integer arithmetic, so equally good splits are truly equal; among them the lowest
//! feature index wins, then the lowest threshold. A node becomes a leaf when it is pure, at the
//! maximum depth, when it has fewer than `2 * min_leaf` rows, or when no split leaves at least
//! `min_leaf` rows on each side. Like scikit-learn, a split is made even when it does not lower
//! the impurity. Leaves predict their majority class (lowest class index on ties).
//!
//! Row weights: the class counts are weights (a row of weight `w` counts as `w` rows of its
//! class, as if repeated when `w` is whole), a side that weighs nothing is no split, and
//! `min_leaf` counts rows whatever their weights, as scikit-learn's `min_samples_leaf` and
//! OCT's model do. Whole-number weights adding up to at most 1e7 are compared exactly; any
//! other non-negative weights as `f64`, two scores within a relative 1e-12 of each other a tie
//! (scikit-learn's `sample_weight`).
//!
//! Thresholds come from the dataset's candidate thresholds (see [`crate::data::ThresholdMode`]):
//! between the node's two neighbouring values the candidate nearest to their midpoint is used.

use serde_json::json;

use crate::data::{feature_thresholds, midpoint, Dataset, ThresholdMode};
use crate::error::{Error, Result};
use crate::tree::{Split, Tree, TreeBuilder, MAX_DEPTH};

/// Parameters of CART.
#[derive(Debug, Clone, PartialEq)]
pub struct CartParams {
    /// Maximum number of split levels (at least 1).
    pub depth: usize,
    /// Minimum number of training rows in each leaf (at least 1).
    pub min_leaf: usize,
    /// Which candidate thresholds splits may use.
    pub thresholds: ThresholdMode,
}

impl CartParams {
    /// Depth `depth`, at least one row per leaf, all candidate thresholds.
    pub fn new(depth: usize) -> CartParams {
        CartParams {
            depth,
            min_leaf: 1,
            thresholds: ThresholdMode::All,
        }
    }
}

/// A class count: a row's weight, whole (compared exactly, as scikit-learn's counts of rows)
/// or any non-negative `f64` (compared within a relative [`REAL_TIE`]).
trait Weight:
    Copy
    + Default
    + PartialOrd
    + std::ops::AddAssign
    + std::ops::SubAssign
    + std::ops::Sub<Output = Self>
{
    /// A split's score `S_L / n_L + S_R / n_R`.
    type Score: Copy;
    fn of(weight: f64) -> Self;
    fn score(left: &[Self], n_left: Self, right: &[Self], n_right: Self) -> Self::Score;
    /// Whether `a` is strictly better (larger) than `b`.
    fn better(a: &Self::Score, b: &Self::Score) -> bool;
}

/// The largest total weight of whole-number weights compared exactly (above it, or with
/// weights that are not whole numbers, scores are compared as `f64`).
const EXACT_TOTAL: f64 = 1e7;

/// How far apart, relatively, two real-weighted scores are still a tie (the rounding of sums
/// of weights, far below any difference of impurity a split makes).
const REAL_TIE: f64 = 1e-12;

/// A whole-number score `S_L / n_L + S_R / n_R`, compared exactly.
#[derive(Debug, Clone, Copy)]
struct Score {
    sum_sq_left: u128,
    n_left: u128,
    sum_sq_right: u128,
    n_right: u128,
}

impl Weight for u64 {
    type Score = Score;
    fn of(weight: f64) -> u64 {
        weight as u64
    }
    fn score(left: &[u64], n_left: u64, right: &[u64], n_right: u64) -> Score {
        let sum_of_squares = |counts: &[u64]| -> u128 {
            counts.iter().map(|&c| u128::from(c) * u128::from(c)).sum()
        };
        Score {
            sum_sq_left: sum_of_squares(left),
            n_left: u128::from(n_left),
            sum_sq_right: sum_of_squares(right),
            n_right: u128::from(n_right),
        }
    }
    fn better(a: &Score, b: &Score) -> bool {
        // a/b + c/d  vs  e/f + g/h   <=>   (a d + c b) f h  vs  (e h + g f) b d
        let lhs = (a.sum_sq_left * a.n_right + a.sum_sq_right * a.n_left) * (b.n_left * b.n_right);
        let rhs = (b.sum_sq_left * b.n_right + b.sum_sq_right * b.n_left) * (a.n_left * a.n_right);
        lhs > rhs
    }
}

impl Weight for f64 {
    type Score = f64;
    fn of(weight: f64) -> f64 {
        weight
    }
    fn score(left: &[f64], n_left: f64, right: &[f64], n_right: f64) -> f64 {
        let sum_of_squares = |counts: &[f64]| -> f64 { counts.iter().map(|c| c * c).sum() };
        sum_of_squares(left) / n_left + sum_of_squares(right) / n_right
    }
    fn better(a: &f64, b: &f64) -> bool {
        a - b > REAL_TIE * a.abs().max(b.abs())
    }
}

struct Best<S> {
    score: S,
    feature: usize,
    threshold: f64,
}

struct Grower<'a, W> {
    data: &'a Dataset,
    params: &'a CartParams,
    thresholds: Vec<Vec<f64>>,
    builder: TreeBuilder,
    /// Each row's weight (1 without weights).
    weights: Vec<W>,
}

/// The majority class of `counts` (lowest index on ties).
pub fn majority<C: PartialOrd>(counts: &[C]) -> usize {
    let mut best = 0;
    for (class, count) in counts.iter().enumerate() {
        if *count > counts[best] {
            best = class;
        }
    }
    best
}

impl<W: Weight> Grower<'_, W> {
    /// The candidate threshold between the node's neighbouring values `low < high` that is
    /// nearest to their midpoint, if the candidate set has one in `[low, high)`.
    fn threshold_between(&self, feature: usize, low: f64, high: f64) -> Option<f64> {
        let candidates = &self.thresholds[feature];
        let first = candidates.partition_point(|&t| t < low);
        let last = candidates.partition_point(|&t| t < high);
        let middle = midpoint(low, high);
        candidates[first..last]
            .iter()
            .copied()
            .min_by(|a, b| (a - middle).abs().total_cmp(&(b - middle).abs()))
    }

    fn best_split(&self, rows: &[usize]) -> Option<Best<W::Score>> {
        let n_classes = self.data.n_classes();
        let min_leaf = self.params.min_leaf;
        let zero = W::default();
        let mut best: Option<Best<W::Score>> = None;
        let mut order = rows.to_vec();
        // Rows that weigh something: a side with none of them is no split.
        let weighing = rows.iter().filter(|&&i| self.weights[i] > zero).count();
        for feature in 0..self.data.n_features() {
            let value = |i: usize| self.data.rows()[i][feature];
            order.sort_by(|&a, &b| value(a).total_cmp(&value(b)));
            let mut left = vec![zero; n_classes];
            let mut right = vec![zero; n_classes];
            let mut total = zero;
            for &i in &order {
                right[self.data.labels()[i]] += self.weights[i];
                total += self.weights[i];
            }
            let (mut weight_left, mut weighing_left) = (zero, 0);
            for position in 0..order.len() - 1 {
                let row = order[position];
                let label = self.data.labels()[row];
                left[label] += self.weights[row];
                right[label] -= self.weights[row];
                weight_left += self.weights[row];
                weighing_left += usize::from(self.weights[row] > zero);
                let (low, high) = (value(row), value(order[position + 1]));
                let rows_left = position + 1;
                let rows_right = order.len() - rows_left;
                if low == high
                    || rows_left < min_leaf
                    || rows_right < min_leaf
                    || weighing_left == 0
                    || weighing_left == weighing
                {
                    continue;
                }
                let score = W::score(&left, weight_left, &right, total - weight_left);
                if best.as_ref().is_some_and(|b| !W::better(&score, &b.score)) {
                    continue;
                }
                if let Some(threshold) = self.threshold_between(feature, low, high) {
                    best = Some(Best {
                        score,
                        feature,
                        threshold,
                    });
                }
            }
        }
        best
    }

    fn grow(&mut self, id: usize, level: usize, rows: Vec<usize>) -> Result<()> {
        let zero = W::default();
        let mut counts = vec![zero; self.data.n_classes()];
        for &i in &rows {
            counts[self.data.labels()[i]] += self.weights[i];
        }
        let pure = counts.iter().filter(|&&c| c > zero).count() <= 1;
        let can_split =
            level < self.params.depth && !pure && rows.len() >= 2 * self.params.min_leaf;
        let best = if can_split {
            self.best_split(&rows)
        } else {
            None
        };
        match best {
            None => {
                self.builder.leaf(id, majority(&counts))?;
            }
            Some(Best {
                feature, threshold, ..
            }) => {
                self.builder.split(id, Split::Axis { feature, threshold })?;
                let (left, right): (Vec<usize>, Vec<usize>) = rows
                    .into_iter()
                    .partition(|&i| self.data.rows()[i][feature] <= threshold);
                self.grow(2 * id, level + 1, left)?;
                self.grow(2 * id + 1, level + 1, right)?;
            }
        }
        Ok(())
    }
}

/// Grows the tree of `params` on `data`, each row weighing its weight as a `W`.
fn grow<W: Weight>(data: &Dataset, params: &CartParams) -> Result<Tree> {
    let mut grower = Grower::<W> {
        data,
        params,
        thresholds: feature_thresholds(data, params.thresholds),
        builder: TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), params.depth)?,
        weights: (0..data.n_rows()).map(|i| W::of(data.weight(i))).collect(),
    };
    grower.grow(1, 0, (0..data.n_rows()).collect())?;
    grower.builder.build()
}

/// Checks a depth given by the user: at least 1, at most `max`.
pub fn check_depth(depth: usize, max: usize) -> Result<()> {
    if depth == 0 {
        return Err(Error::parameter(
            "--depth",
            "0 is not a tree depth: a depth-1 tree has one split (give 1 or more)",
        ));
    }
    if depth > max {
        return Err(Error::parameter(
            "--depth",
            format!("{depth} is larger than the largest supported depth here, {max}"),
        ));
    }
    Ok(())
}

/// Grows a CART tree on `data`, with training counts in every node. A row of weight `w`
/// counts as `w` of its class: whole-number weights as if the row were repeated `w` times
/// (compared exactly, see [`Dataset::repeated_by_weight`]), other non-negative weights in
/// `f64` (a weighted Gini impurity, ties within a relative 1e-12); `min_leaf` counts rows.
pub fn cart(data: &Dataset, params: &CartParams) -> Result<Tree> {
    check_depth(params.depth, MAX_DEPTH)?;
    if params.min_leaf == 0 {
        return Err(Error::parameter("--min-leaf", "must be at least 1"));
    }
    if data.n_rows() < 2 * params.min_leaf {
        return Err(Error::parameter(
            "--min-leaf",
            format!(
                "{} training rows cannot be split into two leaves of at least {} rows each",
                data.n_rows(),
                params.min_leaf
            ),
        ));
    }
    // Exact scores hold `2 T^5` for a total weight `T` in 128 bits: up to `T` = 5e7.
    let whole = data.weights().is_none_or(|weights| {
        weights.iter().all(|w| w.fract() == 0.0) && weights.iter().sum::<f64>() <= EXACT_TOTAL
    });
    let mut tree = if whole {
        grow::<u64>(data, params)?
    } else {
        grow::<f64>(data, params)?
    };
    tree.recount_on(data)?;
    tree.learned_by = Some(json!({
        "method": "cart",
        "criterion": "gini",
        "depth": params.depth,
        "min_leaf": params.min_leaf,
        "thresholds": params.thresholds.to_string(),
    }));
    Ok(tree)
}
