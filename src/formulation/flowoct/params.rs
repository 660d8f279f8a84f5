//! FlowOCT's parameters as given (command line, grid files, reports: [`FlowOctParams`]) and
//! their check into the formulation ([`FlowOct`]).

use serde::{Deserialize, Serialize};

use crate::data::ThresholdMode;
use crate::error::Result;
use crate::formulation::flowoct::{FlowOct, FLOWOCT_MAX_DEPTH};
use crate::greedy::check_depth;
use crate::score::{ClassWeight, Objective};

/// FlowOCT's parameters besides the depth; missing fields take their defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FlowOctParams {
    /// Which candidate thresholds make the binary features (default: every midpoint, exact).
    pub thresholds: ThresholdMode,
    /// What an error costs.
    pub objective: Objective,
    /// The cost of an error on each listed class, times the objective's (others: 1).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub class_weights: Vec<ClassWeight>,
}

impl Default for FlowOctParams {
    fn default() -> Self {
        FlowOctParams {
            thresholds: ThresholdMode::All,
            objective: Objective::Accuracy,
            class_weights: Vec::new(),
        }
    }
}

impl FlowOctParams {
    /// The formulation at `depth`, once the depth is checked.
    pub fn check(&self, depth: usize) -> Result<FlowOct> {
        check_depth(depth, FLOWOCT_MAX_DEPTH)?;
        Ok(FlowOct {
            depth,
            thresholds: self.thresholds,
            objective: self.objective,
            class_weights: self.class_weights.clone(),
        })
    }
}

impl FlowOct {
    /// The parameters besides the depth.
    pub fn params(&self) -> FlowOctParams {
        FlowOctParams {
            thresholds: self.thresholds,
            objective: self.objective,
            class_weights: self.class_weights.clone(),
        }
    }
}
