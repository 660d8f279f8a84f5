//! The cost model of the search: class weights, split cost, leaf minimum and the tolerance
//! under which two costs count as equal. A leaf's cost is the weight of the rows it
//! misclassifies when it predicts the class of largest weight (ties: the lowest class index).
//!
//! # Tolerance
//! Costs are `f64` sums of class weights and split costs. Two costs that differ by a whole
//! error (at least the least positive class weight, the *unit*) must never count as equal,
//! whatever the scale of the weights; the tolerance ([`CostModel::tol`]) only absorbs rounding:
//! - when every class weight and the split cost are whole numbers and every cost stays below
//!   2^53 (accuracy, integral class weights, no split cost), every sum is exact, and the
//!   tolerance is `1e-9` of the unit;
//! - otherwise a cost summed from `t` terms is off by at most `t * 2^-52` of the largest cost
//!   the search compares, taken as twice the data's total weight; a tree on `n` rows has at
//!   most `n` leaves (none is empty), so a cost has at most `t = 2n + 2K + 2` terms (the leaves'
//!   costs, each of `K` class weights, and the splits): the tolerance is that bound (at least
//!   `1e-9` of the unit).
//!
//! Weights whose tolerance would reach a quarter of the unit (the unit is then lost in the
//! rounding of the total, e.g. a class weight of 1e17 beside one of 1) are refused, naming
//! `--class-weight`. Within that, a returned optimum is optimal up to the tolerance, and costs
//! that differ by a whole error never merge.

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::search_core::feature_levels::FeatureLevels;

/// The bound on the relative rounding of one term of a sum: 2^-52.
const ROUNDING: f64 = f64::EPSILON;

/// The largest integer below which every sum of whole numbers is exact in `f64`.
const EXACT_LIMIT: f64 = 9_007_199_254_740_992.0;

/// Class weights, split cost, leaf minimum and tolerance.
#[derive(Debug, Clone)]
pub(crate) struct CostModel {
    pub weights: Vec<f64>,
    pub split_cost: f64,
    pub min_leaf: u32,
    /// A leaf holds at most this many rows (`u32::MAX`: no cap): a leaf of more costs
    /// infinity, so that a subproblem no tree can meet is one of infinite cost.
    pub max_leaf: u32,
    /// The largest class weight: the most one row can change any subtree's cost.
    pub max_weight: f64,
    /// The weight of every class, when they are all equal and positive (accuracy): costs are
    /// then that weight times a count of errors.
    pub uniform_weight: Option<f64>,
    /// Costs closer than this are equal; an improvement must exceed it (see the module
    /// documentation).
    pub tol: f64,
    /// The levels at which each feature may split (`None`: every feature at every level).
    pub levels: Option<Arc<FeatureLevels>>,
}

/// What the tolerance of a cost model is derived from: the rows' count and total weight.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scale {
    pub rows: usize,
    pub total_weight: f64,
}

impl CostModel {
    /// The cost model of `weights` (one per class), `split_cost`, `min_leaf` on rows of
    /// `scale`; an error naming `--class-weight` when the weights span more than `f64` costs
    /// can tell apart by one error.
    pub fn new(weights: &[f64], split_cost: f64, min_leaf: usize, scale: Scale) -> Result<Self> {
        let mut cost = CostModel {
            weights: weights.to_vec(),
            split_cost,
            min_leaf: min_leaf.max(1) as u32,
            max_leaf: u32::MAX,
            max_weight: weights.iter().copied().fold(0.0, f64::max),
            uniform_weight: weights
                .first()
                .copied()
                .filter(|&w| w > 0.0 && weights.iter().all(|&v| v == w)),
            tol: 0.0,
            levels: None,
        };
        cost.tol = cost.tolerance(scale)?;
        Ok(cost)
    }

    /// The least positive class weight: the least cost of one error (1 when no class weighs
    /// anything, and every cost is 0).
    fn unit(&self) -> f64 {
        let least = self
            .weights
            .iter()
            .copied()
            .filter(|&w| w > 0.0)
            .fold(f64::INFINITY, f64::min);
        if least.is_finite() {
            least
        } else {
            1.0
        }
    }

    /// The tolerance of these weights (see the module documentation).
    fn tolerance(&self, scale: Scale) -> Result<f64> {
        let unit = self.unit();
        let total_weight = scale.total_weight;
        let largest = 2.0 * total_weight.max(0.0);
        let terms = 2.0 * (scale.rows as f64 + self.weights.len() as f64 + 1.0);
        let whole = |w: f64| w.fract() == 0.0;
        let exact = self.weights.iter().all(|&w| whole(w))
            && whole(self.split_cost)
            && largest + self.split_cost < EXACT_LIMIT;
        let rounding = if exact {
            0.0
        } else {
            terms * ROUNDING * largest
        };
        if !(rounding.is_finite() && 4.0 * rounding <= unit) {
            return Err(Error::parameter(
                "--class-weight",
                format!(
                    "the least error costs {unit:e} and all the errors together {:e}, {:.1e} \
                     times more: the search's 64-bit sums of costs cannot tell apart trees one \
                     error apart; bring the class weights closer together",
                    total_weight,
                    total_weight / unit
                ),
            ));
        }
        Ok(rounding.max(1e-9 * unit))
    }

    /// Sets the split cost (a sparse search's next penalty); the tolerance never shrinks, so
    /// what was decided under the previous one stays valid.
    pub fn set_split_cost(&mut self, split_cost: f64, scale: Scale) -> Result<()> {
        self.split_cost = split_cost;
        self.tol = self.tol.max(self.tolerance(scale)?);
        Ok(())
    }

    /// Cost of a leaf holding `counts[k]` rows of class `k`, and the class it predicts;
    /// infinite when the leaf holds more rows than the cap ([`CostModel::max_leaf`]).
    pub fn leaf(&self, counts: &[u32]) -> (f64, usize) {
        let mut best = 0;
        let mut best_weight = f64::NEG_INFINITY;
        let mut total = 0.0;
        for (k, (&c, &w)) in counts.iter().zip(&self.weights).enumerate() {
            let weight = f64::from(c) * w;
            total += weight;
            if weight > best_weight {
                best_weight = weight;
                best = k;
            }
        }
        if self.caps_leaves()
            && counts.iter().map(|&c| u64::from(c)).sum::<u64>() > u64::from(self.max_leaf)
        {
            return (f64::INFINITY, best);
        }
        ((total - best_weight).max(0.0), best)
    }

    /// Whether a leaf holds at most a number of rows ([`CostModel::max_leaf`]).
    #[inline]
    pub fn caps_leaves(&self) -> bool {
        self.max_leaf < u32::MAX
    }

    /// The split positions (rows on the left) of a row set of `size` rows whose both sides can
    /// be leaves: at least the leaf minimum on each side, at most the cap. Empty (`lowest >
    /// highest`) when there is none.
    #[inline]
    pub fn leaf_split_range(&self, size: usize) -> (usize, usize) {
        let (min_leaf, max_leaf) = (self.min_leaf as usize, self.max_leaf as usize);
        (
            min_leaf.max(size.saturating_sub(max_leaf)),
            size.saturating_sub(min_leaf).min(max_leaf),
        )
    }

    /// Whether `cost` improves on `bound` (is below it by more than the tolerance).
    pub fn improves(&self, cost: f64, bound: f64) -> bool {
        cost < bound - self.tol
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scale(rows: usize, total_weight: f64) -> Scale {
        Scale { rows, total_weight }
    }

    #[test]
    fn whole_weights_keep_a_tolerance_below_one_error_at_any_scale() {
        for big in [1.0, 2e9, 1e12, 1e15] {
            let cost =
                CostModel::new(&[big, 1.0], 0.0, 1, scale(6, 2.0 * big + 4.0)).expect("exact");
            assert!(cost.tol < 1e-6, "weight {big}: tolerance {}", cost.tol);
            // The leaf that misclassifies four rows of weight 1 against the split that
            // misclassifies one: three errors apart, never equal.
            assert!(cost.improves(1.0, 4.0));
        }
    }

    #[test]
    fn fractional_weights_round_within_a_quarter_of_the_least_error() {
        let cost = CostModel::new(&[1.5, 0.25], 0.1, 1, scale(1_000_000, 1e6)).expect("resolvable");
        assert!(cost.tol > 0.0 && 4.0 * cost.tol <= 0.25);
        assert!(cost.improves(10.0, 10.25));
    }

    #[test]
    fn weights_no_cost_can_tell_apart_by_one_error_are_refused() {
        // Past 2^53 sums of whole numbers round; 1e300 beside 1 loses the 1 altogether.
        for big in [1e17, 1e300] {
            let refused =
                CostModel::new(&[big, 1.0], 0.0, 1, scale(4, 3.0 * big)).expect_err("refused");
            assert!(refused.to_string().contains("--class-weight"), "{refused}");
        }
        assert!(CostModel::new(&[0.5, 1e-9], 0.0, 1, scale(1000, 1e8)).is_err());
        // A fractional split cost on large weights: rounding is bounded by the rows' count.
        assert!(CostModel::new(&[2e9, 1.0], 4.000000004, 1, scale(6, 4e9 + 4.0)).is_ok());
    }

    #[test]
    fn a_higher_split_cost_never_shrinks_the_tolerance() {
        let mut cost = CostModel::new(&[1.0, 1.0], 0.0, 1, scale(1000, 1e6)).expect("exact");
        let exact = cost.tol;
        cost.set_split_cost(0.37, scale(1000, 1e6))
            .expect("resolvable");
        assert!(cost.tol >= exact && cost.tol > 1e-9);
        let fractional = cost.tol;
        cost.set_split_cost(2.0, scale(1000, 1e6))
            .expect("resolvable");
        assert_eq!(cost.tol, fractional);
    }
}
