//! The problem the sparse search solves ([`SparseProblem`]): a loss, a penalty per leaf, an
//! optional depth cap and the candidate thresholds, checked once against the data.

use serde::{Deserialize, Serialize};

use crate::data::{Dataset, ThresholdMode};
use crate::error::{Error, Result};
use crate::sparse::Loss;
use crate::tree::MAX_DEPTH;

/// Minimise `loss(tree) + leaf_penalty * leaves(tree)` over the trees whose splits are
/// `x_j <= t` with `t` a candidate threshold of feature `j`, of depth at most `depth`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SparseProblem {
    pub loss: Loss,
    /// The penalty per leaf, in the loss's units (a fraction of the training rows for
    /// accuracy): the seed's `lambda`.
    pub leaf_penalty: f64,
    /// At most this many split levels; `None`: no cap (the leaf penalty alone bounds the
    /// tree; the tree returned must still fit in [`MAX_DEPTH`] levels).
    pub depth: Option<usize>,
    /// Which midpoints are candidate thresholds (computed once on the whole data).
    pub thresholds: ThresholdMode,
}

impl SparseProblem {
    /// The depth the search may use: the cap, or [`MAX_DEPTH`].
    pub fn depth_limit(&self) -> usize {
        self.depth.unwrap_or(MAX_DEPTH)
    }

    /// Checks the problem against `data`: a finite non-negative penalty (positive without a
    /// depth cap), a depth between 1 and [`MAX_DEPTH`], one finite non-negative weight per class
    /// (not all zero), two classes and a valid positive class for F1 and the AUCs, and a
    /// partial-AUC `theta` in `(0, 1]`.
    pub fn check(&self, data: &Dataset) -> Result<()> {
        if !(self.leaf_penalty.is_finite() && self.leaf_penalty >= 0.0) {
            return Err(Error::parameter(
                "--leaf-penalty",
                format!("{} is not a finite non-negative number", self.leaf_penalty),
            ));
        }
        match self.depth {
            Some(depth) if depth == 0 || depth > MAX_DEPTH => {
                return Err(Error::parameter(
                    "--depth",
                    format!("{depth} is not a tree depth between 1 and {MAX_DEPTH} (or `none`)"),
                ));
            }
            None if self.leaf_penalty <= 0.0 => {
                return Err(Error::parameter(
                    "--leaf-penalty",
                    "must be positive without a depth cap (0 asks for a tree of every row)",
                ));
            }
            _ => {}
        }
        if data.n_rows() == 0 {
            return Err(Error::input(data.source(), "the data has no rows"));
        }
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
        match &self.loss {
            Loss::Weighted { weights } => {
                if weights.len() != data.n_classes() {
                    return Err(Error::parameter(
                        "--class-weight",
                        format!(
                            "{} weights for the {} classes of the data",
                            weights.len(),
                            data.n_classes()
                        ),
                    ));
                }
                if let Some((k, w)) = weights
                    .iter()
                    .enumerate()
                    .find(|(_, w)| !(w.is_finite() && **w >= 0.0))
                {
                    return Err(Error::parameter(
                        "--class-weight",
                        format!(
                            "the weight of class `{}` is {w}; weights must be finite and non-negative",
                            data.classes()[k]
                        ),
                    ));
                }
                let total: f64 = data
                    .labels()
                    .iter()
                    .map(|&label| weights[label])
                    .sum::<f64>();
                if total <= 0.0 {
                    return Err(Error::parameter(
                        "--class-weight",
                        "every row of the data weighs 0: the loss would be undefined",
                    ));
                }
            }
            Loss::F1 { positive } | Loss::Auc { positive } | Loss::PartialAuc { positive, .. } => {
                if data.n_classes() != 2 {
                    return Err(Error::parameter(
                        "--objective",
                        format!(
                            "{} needs two classes; the data has {}",
                            self.loss.name(),
                            data.n_classes()
                        ),
                    ));
                }
                if *positive >= 2 {
                    return Err(Error::parameter(
                        "--positive-class",
                        format!("class index {positive} of a two-class problem"),
                    ));
                }
                if let Loss::PartialAuc { theta, .. } = &self.loss {
                    if !(theta.is_finite() && *theta > 0.0 && *theta <= 1.0) {
                        return Err(Error::parameter(
                            "--pauc-theta",
                            format!("{theta} is not a false positive rate in (0, 1]"),
                        ));
                    }
                }
            }
            Loss::Accuracy | Loss::Balanced => {}
        }
        Ok(())
    }
}
