//! OCT: the axis-aligned optimal classification tree model of Bertsimas & Dunn (2017), as
//! stated in `formulations/oct.md`: the parameters ([`Oct`]) and the [`Formulation`] impl, whose
//! parts live in [`model`] (the variables and rows), [`encode`] (a tree as a complete warm start)
//! and [`decode`] (a solution as a tree, and the model's objective of a tree by plain code).
//!
//! Features are min-max scaled to [0, 1] on the training rows. Branch node `m` splits on the
//! feature `j` with `a[j,m] = 1` when `d[m] = 1`: a row goes left when
//! `x_j + eps_j <= b[m]`, right when `x_j >= b[m]`. A node with `d[m] = 0` does not split and
//! every row reaching it goes right. Rows are assigned to leaves by `z[i,t]`; a leaf with
//! `l[t] = 1` predicts the class `k` with `c[k,t] = 1`, and `L[t]` counts its (weighted) errors.
//! The objective is `sum_t L[t] / L^ + alpha * sum_t d[t]`, `L^` the (weighted) errors of the
//! majority-class baseline; a leaf penalty `lambda` (the sparse search's, in units of the
//! weighted error rate `errors / W`) adds `lambda * W / L^` per leaf: per split, and once as a
//! constant for the root's leaf.

mod decode;
mod encode;
mod model;
mod params;
mod rows;

use crate::data::{Dataset, ThresholdMode};
use crate::error::{Error, Result};
use crate::formulation::cuts::Cuts;
use crate::formulation::{ClassErrors, Decoded, Encoded, Formulation};
use crate::greedy::{cart, check_depth, CartParams};
use crate::mip::{Assignment, Expression};
use crate::score::{ClassWeight, Objective};
use crate::tree::Tree;

pub use model::{LeafRule, OctModel};
pub use params::OctParams;

/// The deepest OCT model milptree builds (the model has `n * 2^D` routing binaries).
pub const OCT_MAX_DEPTH: usize = 8;

/// OCT's parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Oct {
    pub depth: usize,
    /// Cost of each split, in units of the normalised error (`--alpha`, default 0).
    pub alpha: f64,
    /// Minimum rows in a leaf that is used (`--min-leaf`, default 1, which restricts nothing).
    pub min_leaf: usize,
    pub objective: Objective,
    /// Penalty per leaf (`--leaf-penalty`, default 0), in units of the weighted error rate.
    pub leaf_penalty: f64,
    /// The user's cost of an error on each listed class (`--class-weight`), times the
    /// objective's.
    pub class_weights: Vec<ClassWeight>,
    /// Strengthenings the model is built with (`--cuts`).
    pub cuts: Cuts,
}

impl Oct {
    pub fn new(depth: usize) -> Oct {
        Oct {
            depth,
            alpha: 0.0,
            min_leaf: 1,
            objective: Objective::Accuracy,
            leaf_penalty: 0.0,
            class_weights: Vec::new(),
            cuts: Cuts::default(),
        }
    }

    fn validate(&self, data: &Dataset) -> Result<()> {
        check_depth(self.depth, OCT_MAX_DEPTH)?;
        if !(self.alpha.is_finite() && self.alpha >= 0.0) {
            return Err(Error::parameter(
                "--alpha",
                format!("{} is not a finite non-negative number", self.alpha),
            ));
        }
        if self.min_leaf == 0 || self.min_leaf > data.n_rows() {
            return Err(Error::parameter(
                "--min-leaf",
                format!(
                    "{} is not between 1 and the number of training rows ({})",
                    self.min_leaf,
                    data.n_rows()
                ),
            ));
        }
        Ok(())
    }

    /// CART of the same depth and leaf minimum over every midpoint: the default warm start.
    pub fn greedy_tree(&self, data: &Dataset) -> Result<Tree> {
        cart(
            data,
            &CartParams {
                depth: self.depth,
                min_leaf: self.min_leaf,
                thresholds: ThresholdMode::All,
            },
        )
    }
}

impl ClassErrors for Oct {
    /// The model with free leaves ([`LeafRule::Free`]): each class's errors in each leaf have
    /// their own variable.
    fn build_with_class_errors(&self, data: &Dataset) -> Result<(OctModel, Vec<Expression>)> {
        self.validate(data)?;
        let built = model::build(self, data, LeafRule::Free)?;
        let errors = built
            .class_errors
            .iter()
            .map(|by_leaf| by_leaf.iter().copied().map(Expression::from).sum())
            .collect();
        Ok((built, errors))
    }
}

impl Formulation for Oct {
    type Built = OctModel;

    fn name(&self) -> &'static str {
        "oct"
    }

    fn depth(&self) -> usize {
        self.depth
    }

    fn parameters(&self) -> serde_json::Value {
        crate::formulation::parameters_json(self.depth, &self.params())
    }

    fn build(&self, data: &Dataset) -> Result<OctModel> {
        self.validate(data)?;
        model::build(self, data, LeafRule::Majority)
    }

    /// Under fairness constraints a leaf may predict any class ([`LeafRule::Free`]): the
    /// fairest trees may predict a minority class.
    fn build_under(
        &self,
        data: &Dataset,
        constraints: &crate::constraints::SideConstraints,
    ) -> Result<OctModel> {
        if constraints.fairness.is_none() {
            return self.build(data);
        }
        self.validate(data)?;
        model::build(self, data, LeafRule::Free)
    }

    fn encode(&self, built: &OctModel, tree: &Tree) -> Result<Encoded> {
        encode::encode(self, built, tree)
    }

    fn decode(&self, built: &OctModel, solution: &Assignment) -> Result<Decoded> {
        decode::decode(self, built, solution)
    }

    fn objective_of(&self, built: &OctModel, tree: &Tree) -> Result<f64> {
        Ok(decode::objective_of(self, built, tree))
    }
}
