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
//! Row weights (whole numbers): the class counts are weights (a row of weight `w` counts as `w`
//! rows of its class, as if repeated), a side that weighs nothing is no split, and `min_leaf`
//! counts rows whatever their weights, as scikit-learn's `min_samples_leaf` and OCT's model do.
//!
//! Thresholds come from the dataset's candidate thresholds (see [`crate::data::ThresholdMode`]):
//! between the node's two neighbouring values the candidate nearest to their midpoint is used.

use std::cmp::Ordering;

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

/// A split score `S_L / n_L + S_R / n_R`, compared exactly.
#[derive(Debug, Clone, Copy)]
struct Score {
    sum_sq_left: u128,
    n_left: u128,
    sum_sq_right: u128,
    n_right: u128,
}

impl Score {
    fn cmp(&self, other: &Score) -> Ordering {
        // a/b + c/d  vs  e/f + g/h   <=>   (a d + c b) f h  vs  (e h + g f) b d
        let lhs = (self.sum_sq_left * self.n_right + self.sum_sq_right * self.n_left)
            * (other.n_left * other.n_right);
        let rhs = (other.sum_sq_left * other.n_right + other.sum_sq_right * other.n_left)
            * (self.n_left * self.n_right);
        lhs.cmp(&rhs)
    }
}

struct Best {
    score: Score,
    feature: usize,
    threshold: f64,
}

struct Grower<'a> {
    data: &'a Dataset,
    params: &'a CartParams,
    thresholds: Vec<Vec<f64>>,
    builder: TreeBuilder,
    /// Each row's whole-number weight (1 without weights).
    weights: Vec<usize>,
}

fn sum_of_squares(counts: &[usize]) -> u128 {
    counts.iter().map(|&c| (c as u128) * (c as u128)).sum()
}

/// The majority class of `counts` (lowest index on ties).
pub fn majority(counts: &[usize]) -> usize {
    let mut best = 0;
    for (class, &count) in counts.iter().enumerate() {
        if count > counts[best] {
            best = class;
        }
    }
    best
}

impl Grower<'_> {
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

    fn best_split(&self, rows: &[usize]) -> Option<Best> {
        let n_classes = self.data.n_classes();
        let min_leaf = self.params.min_leaf;
        let mut best: Option<Best> = None;
        let mut order = rows.to_vec();
        for feature in 0..self.data.n_features() {
            let value = |i: usize| self.data.rows()[i][feature];
            order.sort_by(|&a, &b| value(a).total_cmp(&value(b)));
            let mut left = vec![0usize; n_classes];
            let mut right = vec![0usize; n_classes];
            for &i in &order {
                right[self.data.labels()[i]] += self.weights[i];
            }
            let total: usize = right.iter().sum();
            let mut weight_left = 0;
            for position in 0..order.len() - 1 {
                let row = order[position];
                let label = self.data.labels()[row];
                left[label] += self.weights[row];
                right[label] -= self.weights[row];
                weight_left += self.weights[row];
                let (low, high) = (value(row), value(order[position + 1]));
                let rows_left = position + 1;
                let rows_right = order.len() - rows_left;
                if low == high
                    || rows_left < min_leaf
                    || rows_right < min_leaf
                    || weight_left == 0
                    || weight_left == total
                {
                    continue;
                }
                let score = Score {
                    sum_sq_left: sum_of_squares(&left),
                    n_left: weight_left as u128,
                    sum_sq_right: sum_of_squares(&right),
                    n_right: (total - weight_left) as u128,
                };
                if best
                    .as_ref()
                    .is_some_and(|b| score.cmp(&b.score) != Ordering::Greater)
                {
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
        let mut counts = vec![0usize; self.data.n_classes()];
        for &i in &rows {
            counts[self.data.labels()[i]] += self.weights[i];
        }
        let pure = counts.iter().filter(|&&c| c > 0).count() <= 1;
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

/// Checks a depth given by the user: at least 1, at most `max`.
pub fn check_depth(depth: usize, max: usize) -> Result<()> {
    if depth == 0 {
        return Err(Error::parameter(
            "--depth",
            "0 is not a tree depth: a depth-1 tree has one split (use --depth 1 or more)",
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

/// CART as a MILP's warm start: [`cart`] on the rows repeated by their weights when they are
/// whole numbers, on the rows without their weights otherwise (a start need not be optimal; the
/// model prices it with the weights).
pub fn cart_start(data: &Dataset, params: &CartParams) -> Result<Tree> {
    if data.counts_as_rows() {
        cart(data, params)
    } else {
        cart(&data.clone().without_weights(), params)
    }
}

/// Grows a CART tree on `data`, with training counts in every node. A row of whole-number weight
/// `w` counts as `w` rows of its class (as if repeated, see [`Dataset::repeated_by_weight`]);
/// other weights are refused; `min_leaf` counts rows.
pub fn cart(data: &Dataset, params: &CartParams) -> Result<Tree> {
    check_depth(params.depth, MAX_DEPTH)?;
    if let Some(refusal) = data.refuses_repeating(&crate::setting::Named::same("CART")) {
        return Err(refusal);
    }
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
    let mut grower = Grower {
        data,
        params,
        thresholds: feature_thresholds(data, params.thresholds),
        builder: TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), params.depth)?,
        weights: (0..data.n_rows())
            .map(|i| data.weight(i) as usize)
            .collect(),
    };
    grower.grow(1, 0, (0..data.n_rows()).collect())?;
    let mut tree = grower.builder.build()?;
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
