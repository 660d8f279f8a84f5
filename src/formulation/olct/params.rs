//! OLCT's parameters as given (command line, grid files, reports: [`OlctParams`]) and their
//! check into the formulation ([`Olct`]).

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::formulation::olct::{Olct, TangentSet};
use crate::score::ClassWeight;

/// OLCT's parameters besides the depth; missing fields take their defaults (tangent set V0,
/// C = 1 at every level, M = 100, epsilon = 1e-5, oblique splits, refinement on).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OlctParams {
    /// The class y = +1 (default: the second class); required with more than two classes.
    pub positive_class: Option<String>,
    /// Tangent set of the log-loss underestimator.
    pub tangents: TangentSet,
    /// `C_h`: one value for every level, or one per level (root first).
    pub c: Vec<f64>,
    pub big_m: f64,
    pub epsilon: f64,
    /// At most one feature per split.
    pub univariate: bool,
    /// Refit the last level by exact L1-logistic regression after the solve.
    pub refine: bool,
    /// The weight of each listed class's rows in the loss (others: 1).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub class_weights: Vec<ClassWeight>,
}

impl Default for OlctParams {
    fn default() -> Self {
        Olct::new(1).params()
    }
}

impl OlctParams {
    /// The formulation at `depth`, once every parameter is checked.
    pub fn check(&self, depth: usize) -> Result<Olct> {
        let olct = Olct {
            depth,
            positive_class: self.positive_class.clone(),
            tangents: self.tangents,
            c: self.c.clone(),
            big_m: self.big_m,
            epsilon: self.epsilon,
            univariate: self.univariate,
            refine: self.refine,
            class_weights: self.class_weights.clone(),
        };
        olct.settings()?;
        Ok(olct)
    }
}

impl Olct {
    /// The parameters besides the depth.
    pub fn params(&self) -> OlctParams {
        OlctParams {
            positive_class: self.positive_class.clone(),
            tangents: self.tangents,
            c: self.c.clone(),
            big_m: self.big_m,
            epsilon: self.epsilon,
            univariate: self.univariate,
            refine: self.refine,
            class_weights: self.class_weights.clone(),
        }
    }
}
