//! The learning problem the search solves: depth and split limits, the threshold candidates,
//! the objective's weights and the leaf-size rule ([`DpProblem`]), checked once against the data.

use serde::{Deserialize, Serialize};

use crate::data::{Dataset, ThresholdMode, MAX_MULTIPLIED_WEIGHT};
use crate::error::{Error, Result};
use crate::search_core::cost::{CostModel, Scale};
use crate::tree::MAX_DEPTH;

/// An optimal-tree problem: every tree of depth at most `depth` (and at most `max_splits` split
/// nodes) whose splits are `x_j <= t` with `t` a candidate threshold of feature `j`, scored by
/// the weighted errors of its leaves plus `split_cost` per split node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DpProblem {
    /// Number of split levels, `1..=`[`MAX_DEPTH`].
    pub depth: usize,
    /// At most this many split nodes (`None`: only the depth limits them).
    pub max_splits: Option<usize>,
    /// Which midpoints are candidate thresholds (computed once on the whole data).
    pub thresholds: ThresholdMode,
    /// Cost of one error on a row of each class (all 1 for accuracy).
    pub class_weights: Vec<f64>,
    /// Cost added for every split node.
    pub split_cost: f64,
    /// A leaf that receives any row receives at least this many (empty leaves are allowed).
    pub min_leaf: usize,
    /// A leaf receives at most this many rows (`None`: no cap). A row set of more must be
    /// split, and no tree meets the problem when the depth (or the split budget) cannot split
    /// the data finely enough.
    #[serde(default)]
    pub max_leaf: Option<usize>,
}

impl DpProblem {
    /// Accuracy (every error costs 1) at `depth`, no split limit, every midpoint a candidate.
    pub fn accuracy(data: &Dataset, depth: usize) -> DpProblem {
        DpProblem {
            depth,
            max_splits: None,
            thresholds: ThresholdMode::All,
            class_weights: vec![1.0; data.n_classes()],
            split_cost: 0.0,
            min_leaf: 1,
            max_leaf: None,
        }
    }

    /// The search's cost model of this problem on `data`: the class weights scaled by the
    /// data's total weight, the split cost, the leaf minimum and the leaf cap (when below the
    /// rows).
    pub(crate) fn cost_model(&self, data: &Dataset) -> Result<CostModel> {
        let total_weight: f64 = data
            .labels()
            .iter()
            .enumerate()
            .map(|(row, &label)| self.class_weights[label] * data.weight(row))
            .sum();
        let mut cost = CostModel::new(
            &self.class_weights,
            self.split_cost,
            self.min_leaf,
            Scale {
                rows: data.n_rows(),
                total_weight,
            },
        )?;
        if let Some(max_leaf) = self.max_leaf.filter(|&m| m < data.n_rows()) {
            cost.max_leaf = max_leaf as u32;
        }
        // A row changes a cost by at most its class weight times its multiplicity.
        let most = data
            .weights()
            .map_or(1.0, |w| w.iter().copied().fold(0.0, f64::max));
        cost.max_weight *= most.max(1.0);
        Ok(cost)
    }

    /// Checks the problem against `data`: a depth in range, one finite non-negative weight per
    /// class, a finite non-negative split cost, and a leaf minimum the data can meet.
    pub fn check(&self, data: &Dataset) -> Result<()> {
        if self.depth == 0 || self.depth > MAX_DEPTH {
            return Err(Error::parameter(
                "depth",
                format!(
                    "{} is not between 1 and {MAX_DEPTH} (the deepest tree milptree represents)",
                    self.depth
                ),
            ));
        }
        if data.n_classes() == 0 {
            return Err(Error::parameter("data", "the data has no class"));
        }
        if self.class_weights.len() != data.n_classes() {
            return Err(Error::parameter(
                "class weights",
                format!(
                    "{} weights for {} classes",
                    self.class_weights.len(),
                    data.n_classes()
                ),
            ));
        }
        if let Some((k, w)) = self
            .class_weights
            .iter()
            .enumerate()
            .find(|(_, w)| !(w.is_finite() && **w >= 0.0))
        {
            return Err(Error::parameter(
                "class weights",
                format!(
                    "the weight of class `{}` is {w}; weights must be finite and non-negative",
                    data.classes()[k]
                ),
            ));
        }
        if !(self.split_cost.is_finite() && self.split_cost >= 0.0) {
            return Err(Error::parameter(
                "split cost",
                format!("{} is not a finite non-negative number", self.split_cost),
            ));
        }
        if self.min_leaf == 0 {
            return Err(Error::parameter("min leaf", "must be at least 1"));
        }
        if data.n_rows() > 0 && self.min_leaf > data.n_rows() {
            return Err(Error::parameter(
                "min leaf",
                format!(
                    "{} is more than the {} rows of the data: no tree can meet it",
                    self.min_leaf,
                    data.n_rows()
                ),
            ));
        }
        match self.max_leaf {
            Some(0) => return Err(Error::parameter("max leaf rows", "must be at least 1")),
            Some(max) if max < self.min_leaf => {
                return Err(Error::parameter(
                    "max leaf rows",
                    format!(
                        "{max} is below the leaf minimum {}: no leaf can meet both",
                        self.min_leaf
                    ),
                ))
            }
            _ => {}
        }
        self.check_multiplicities(data)?;
        if u32::try_from(data.n_rows()).is_err() || u16::try_from(2 * data.n_classes()).is_err() {
            return Err(Error::parameter(
                "data",
                format!(
                    "{} rows and {} classes: the search handles fewer than 2^32 rows and 2^15 classes",
                    data.n_rows(),
                    data.n_classes()
                ),
            ));
        }
        Ok(())
    }

    /// Checks the row weights of `data`, which the search counts as multiplicities: whole
    /// numbers adding up to at most [`MAX_MULTIPLIED_WEIGHT`] (the search counts weight in 32
    /// bits), and, when some row counts more than once, no leaf minimum above 1 nor cap on
    /// the rows of a leaf (both count rows; learn through [`crate::learn`], which factors row
    /// weights by class, see [`Dataset::multiplied_by_class`]).
    fn check_multiplicities(&self, data: &Dataset) -> Result<()> {
        let Some(weights) = data.weights() else {
            return Ok(());
        };
        if let Some((row, weight)) = weights.iter().enumerate().find(|(_, w)| w.fract() != 0.0) {
            return Err(Error::parameter(
                "--weight-column",
                format!(
                    "the exact search counts a row of weight w as w rows, but row {row} weighs \
                     {weight}, not a whole number"
                ),
            ));
        }
        let total: f64 = weights.iter().sum();
        if total > MAX_MULTIPLIED_WEIGHT {
            return Err(Error::parameter(
                "--weight-column",
                format!(
                    "the exact search counts weight in 32 bits: the row weights add up to \
                     {total}, more than {MAX_MULTIPLIED_WEIGHT}"
                ),
            ));
        }
        if weights.iter().any(|&w| w != 1.0) && (self.min_leaf > 1 || self.max_leaf.is_some()) {
            return Err(Error::parameter(
                "--weight-column",
                "the exact search counts a row of weight w as w rows and takes no leaf minimum \
                 above 1 nor cap on the rows of a leaf with row weights other than 1",
            ));
        }
        Ok(())
    }
}
