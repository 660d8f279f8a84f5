//! OCT's parameters as given (command line, grid files, reports: [`OctParams`]) and their check
//! into the formulation ([`Oct`]).

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::formulation::cuts::Cuts;
use crate::formulation::oct::{Oct, OCT_MAX_DEPTH};
use crate::greedy::check_depth;
use crate::score::{ClassWeight, Objective};

/// OCT's parameters besides the depth; missing fields take their defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OctParams {
    /// Cost of each split, in units of the error normalised by the baseline's errors.
    pub alpha: f64,
    /// Minimum rows in a leaf that is used (1 restricts nothing).
    pub min_leaf: usize,
    /// What an error costs.
    pub objective: Objective,
    /// Penalty per leaf in units of the (weighted) error rate, as the sparse search's lambda:
    /// `lambda * W / L^` per split and once for the root, in OCT's units.
    pub leaf_penalty: f64,
    /// The cost of an error on each listed class, times the objective's (others: 1).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub class_weights: Vec<ClassWeight>,
    /// Strengthenings the model is built with.
    pub cuts: Cuts,
}

impl Default for OctParams {
    fn default() -> Self {
        OctParams {
            alpha: 0.0,
            min_leaf: 1,
            objective: Objective::Accuracy,
            leaf_penalty: 0.0,
            class_weights: Vec::new(),
            cuts: Cuts::default(),
        }
    }
}

impl OctParams {
    /// The formulation at `depth`, once every parameter is checked (the leaf minimum against
    /// the data is checked when the model is built).
    pub fn check(&self, depth: usize) -> Result<Oct> {
        check_depth(depth, OCT_MAX_DEPTH)?;
        if !(self.alpha.is_finite() && self.alpha >= 0.0) {
            return Err(Error::parameter(
                "--alpha",
                format!("{} is not a finite non-negative number", self.alpha),
            ));
        }
        if !(self.leaf_penalty.is_finite() && self.leaf_penalty >= 0.0) {
            return Err(Error::parameter(
                "--leaf-penalty",
                format!("{} is not a finite non-negative number", self.leaf_penalty),
            ));
        }
        if self.min_leaf == 0 {
            return Err(Error::parameter(
                "--min-leaf",
                "0 is not a number of rows: use 1 (no restriction) or more",
            ));
        }
        Ok(Oct {
            depth,
            alpha: self.alpha,
            min_leaf: self.min_leaf,
            objective: self.objective,
            leaf_penalty: self.leaf_penalty,
            class_weights: self.class_weights.clone(),
            cuts: self.cuts,
        })
    }
}

impl Oct {
    /// The parameters besides the depth.
    pub fn params(&self) -> OctParams {
        OctParams {
            alpha: self.alpha,
            min_leaf: self.min_leaf,
            objective: self.objective,
            leaf_penalty: self.leaf_penalty,
            class_weights: self.class_weights.clone(),
            cuts: self.cuts,
        }
    }
}
