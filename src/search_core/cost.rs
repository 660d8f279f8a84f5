//! The cost model of the search: class weights, split cost, leaf minimum and the tolerance
//! under which two costs count as equal. A leaf's cost is the weight of the rows it
//! misclassifies when it predicts the class of largest weight (ties: the lowest class index).
//!
//! Costs are `f64`. With integral weights (accuracy) every cost is an exact integer; otherwise
//! costs within [`CostModel::tol`] (1e-9 of the total weight of the data) count as equal, so a
//! returned optimum is optimal up to that tolerance.

/// Class weights, split cost, leaf minimum and tolerance.
#[derive(Debug, Clone)]
pub(crate) struct CostModel {
    pub weights: Vec<f64>,
    pub split_cost: f64,
    pub min_leaf: u32,
    /// The largest class weight: the most one row can change any subtree's cost.
    pub max_weight: f64,
    /// The weight of every class, when they are all equal and positive (accuracy): costs are
    /// then that weight times a count of errors.
    pub uniform_weight: Option<f64>,
    /// Costs closer than this are equal; an improvement must exceed it.
    pub tol: f64,
}

impl CostModel {
    pub fn new(weights: &[f64], split_cost: f64, min_leaf: usize, total_weight: f64) -> Self {
        CostModel {
            weights: weights.to_vec(),
            split_cost,
            min_leaf: min_leaf.max(1) as u32,
            max_weight: weights.iter().copied().fold(0.0, f64::max),
            uniform_weight: weights
                .first()
                .copied()
                .filter(|&w| w > 0.0 && weights.iter().all(|&v| v == w)),
            tol: 1e-9 * total_weight.max(1.0),
        }
    }

    /// Cost of a leaf holding `counts[k]` rows of class `k`, and the class it predicts.
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
        ((total - best_weight).max(0.0), best)
    }

    /// Whether `cost` improves on `bound` (is below it by more than the tolerance).
    pub fn improves(&self, cost: f64, bound: f64) -> bool {
        cost < bound - self.tol
    }
}
