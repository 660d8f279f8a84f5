//! BinOCT's parameters as given (command line, grid files, reports: [`BinOctParams`]) and their
//! check into the formulation ([`BinOct`]).

use serde::{Deserialize, Serialize};

use crate::data::ThresholdMode;
use crate::error::{Error, Result};
use crate::formulation::binoct::{BinOct, BINOCT_MAX_DEPTH};
use crate::greedy::check_depth;
use crate::score::{ClassWeight, Objective};

/// BinOCT's parameters besides the depth; missing fields take their defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BinOctParams {
    /// Which candidate thresholds the splits choose from (the paper's: class-boundary).
    pub thresholds: ThresholdMode,
    /// What an error costs.
    pub objective: Objective,
    /// Penalty per leaf in units of the (weighted) error rate, as the sparse search's lambda
    /// (`lambda * W` weighted errors per leaf; 0: complete trees, no split indicators).
    pub leaf_penalty: f64,
    /// The cost of an error on each listed class, times the objective's (others: 1).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub class_weights: Vec<ClassWeight>,
}

impl Default for BinOctParams {
    fn default() -> Self {
        BinOctParams {
            thresholds: ThresholdMode::ClassBoundary,
            objective: Objective::Accuracy,
            leaf_penalty: 0.0,
            class_weights: Vec::new(),
        }
    }
}

impl BinOctParams {
    /// The formulation at `depth`, once the depth is checked.
    pub fn check(&self, depth: usize) -> Result<BinOct> {
        check_depth(depth, BINOCT_MAX_DEPTH)?;
        if !(self.leaf_penalty.is_finite() && self.leaf_penalty >= 0.0) {
            return Err(Error::parameter(
                "--leaf-penalty",
                format!("{} is not a finite non-negative number", self.leaf_penalty),
            ));
        }
        Ok(BinOct {
            depth,
            thresholds: self.thresholds,
            objective: self.objective,
            leaf_penalty: self.leaf_penalty,
            class_weights: self.class_weights.clone(),
        })
    }
}

impl BinOct {
    /// The parameters besides the depth.
    pub fn params(&self) -> BinOctParams {
        BinOctParams {
            thresholds: self.thresholds,
            objective: self.objective,
            leaf_penalty: self.leaf_penalty,
            class_weights: self.class_weights.clone(),
        }
    }
}
