//! OLCT: optimal logistic classification trees (Aldinucci and Lapucci), of any depth.
//!
//! Every branch node `t` is an oblique split `w_t . z + b_t` over the standardised features;
//! rows are routed (binary `z[i,s]`) only to the last branching level, whose splits make the
//! prediction (left leaf negative, right leaf positive). The loss of every level is the
//! piecewise-linear tangent underestimator of the logistic loss, and the weights carry an L1
//! penalty. The statement of the model as built is in `formulations/olct.md`.
//!
//! Around the model: the greedy logistic tree as warm start
//! ([`crate::greedy::logistic_tree`]), refinement of the last level by exact L1-logistic
//! regression ([`refine`]), and the per-node report ([`report`]).

mod objective;
mod refine;
mod report;
mod tangents;
mod training;

pub use tangents::{surrogate_of, TangentLine, TangentPoint, TangentSet};

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::greedy::check_depth;

use training::Settings;

/// The deepest OLCT milptree builds (2^10 - 1 branch nodes).
pub const MAX_OLCT_DEPTH: usize = 10;

/// Parameters of the OLCT formulation.
#[derive(Debug, Clone, PartialEq)]
pub struct Olct {
    pub depth: usize,
    /// The class y = +1; required when the data has more than two classes (the others are
    /// then classified together). Default for two classes: the second class.
    pub positive_class: Option<String>,
    pub tangents: TangentSet,
    /// `C_h`: one value for every level, or one per level (root first).
    pub c: Vec<f64>,
    pub big_m: f64,
    pub epsilon: f64,
    /// At most one feature per branch node (the paper's Remark 2).
    pub univariate: bool,
    /// Refit the last level by exact L1-logistic regression after the solve (Remark 1).
    pub refine: bool,
}

impl Olct {
    /// Depth `depth`, tangent set V0, C = 1 at every level, M = 100, epsilon = 1e-5, oblique
    /// splits, refinement on.
    pub fn new(depth: usize) -> Olct {
        Olct {
            depth,
            positive_class: None,
            tangents: TangentSet::V0,
            c: vec![1.0],
            big_m: 100.0,
            epsilon: 1e-5,
            univariate: false,
            refine: true,
        }
    }

    /// Checks the parameters and derives the per-level weights and the score bound.
    pub(crate) fn settings(&self) -> Result<Settings> {
        check_depth(self.depth, MAX_OLCT_DEPTH)?;
        let c = match self.c.len() {
            1 => vec![self.c[0]; self.depth],
            n if n == self.depth => self.c.clone(),
            n => {
                return Err(Error::parameter(
                    "--c",
                    format!(
                        "{n} values for a depth-{} tree: give one value for every level or one \
                         per level",
                        self.depth
                    ),
                ))
            }
        };
        if let Some(bad) = c.iter().find(|c| !(c.is_finite() && **c > 0.0)) {
            return Err(Error::parameter(
                "--c",
                format!("{bad} is not a positive number (the weight of a level's loss)"),
            ));
        }
        if !(self.epsilon.is_finite() && self.epsilon > 0.0) {
            return Err(Error::parameter(
                "--epsilon",
                format!("{} is not a positive number", self.epsilon),
            ));
        }
        let margin = self.epsilon.max(std::f64::consts::LN_2);
        if !(self.big_m.is_finite() && self.big_m > 2.0 * margin) {
            return Err(Error::parameter(
                "--big-m",
                format!(
                    "{} is too small: it must exceed 2 max(epsilon, ln 2) = {}",
                    self.big_m,
                    2.0 * margin
                ),
            ));
        }
        Ok(Settings {
            depth: self.depth,
            c,
            big_m: self.big_m,
            epsilon: self.epsilon,
            score_limit: self.big_m - margin,
        })
    }

    /// The two-class data OLCT learns from when `data` has more than two classes.
    pub fn relabel_data(&self, data: &Dataset) -> Result<Option<Dataset>> {
        training::relabel(data, self.positive_class.as_deref())
    }
}
