//! The exact search's counterpart of a MILP formulation: the same learning problem (thresholds,
//! class weights, split cost, leaf minimum) as a [`DpSearch`], and the factor that turns the
//! search's objective (weighted errors plus split costs) into the formulation's.
//!
//! OCT minimises `errors / L^ + alpha * splits` over every midpoint: the search with the same
//! `alpha` (which it prices at `alpha * L^`), leaf minimum and objective, scaled by `1 / L^`.
//! BinOCT and FlowOCT minimise the weighted errors over their candidate thresholds: the search
//! over the same thresholds, scaled by 1. OLCT's objective (logistic loss and L1 weights over
//! oblique splits) has no counterpart.
//!
//! A leaf penalty `lambda` (OCT's and BinOCT's `--leaf-penalty`, the sparse search's lambda)
//! costs `lambda * W` weighted errors per leaf, `W` the data's total weight. A tree has one
//! leaf more than splits, so it is `lambda * W` more per split (the search's `alpha` grows by
//! `lambda * W / L^`) and `lambda * W` once (the `offset` added to the search's objective):
//! with a depth cap, the sparse search's problem in the exact search's terms.

use crate::data::{Dataset, ThresholdMode};
use crate::formulation::AnyFormulation;
use crate::learn::dp_search::{baseline_errors, DpParams, DpSearch};

/// The search that solves a formulation's problem, and the factor from the search's objective
/// to the formulation's.
#[derive(Debug, Clone, PartialEq)]
pub struct Counterpart {
    pub search: DpSearch,
    /// The formulation's objective of a tree is the search's plus `offset`, times this.
    pub scale: f64,
    /// The cost of the root's leaf under a leaf penalty, in the search's units.
    pub offset: f64,
}

impl Counterpart {
    /// The search's objective in the formulation's units.
    pub fn to_model(&self, dp_objective: f64) -> f64 {
        (dp_objective + self.offset) * self.scale
    }
}

/// The data's total weight under `weights` (one weight per class).
fn total_weight(data: &Dataset, weights: &[f64]) -> f64 {
    data.labels().iter().map(|&label| weights[label]).sum()
}

/// The counterpart of `formulation` on the training data `train`, if it has one. With
/// `thresholds`, the search runs over those thresholds instead of the formulation's (BinOCT's
/// class-boundary model against every midpoint).
pub fn counterpart(
    formulation: &AnyFormulation,
    train: &Dataset,
    thresholds: Option<ThresholdMode>,
) -> Option<Counterpart> {
    let depth = formulation.depth();
    let (params, scale, offset) = match formulation {
        AnyFormulation::Oct(oct) => {
            let weights = oct.objective.class_weights(train);
            let baseline = baseline_errors(train, &weights);
            if baseline <= 0.0 {
                return None;
            }
            let leaf = oct.leaf_penalty * total_weight(train, &weights);
            (
                DpParams {
                    objective: oct.objective.into(),
                    alpha: oct.alpha + leaf / baseline,
                    min_leaf: oct.min_leaf,
                    thresholds: ThresholdMode::All,
                    ..DpParams::default()
                },
                1.0 / baseline,
                leaf,
            )
        }
        AnyFormulation::BinOct(binoct) => {
            let weights = binoct.objective.class_weights(train);
            let leaf = binoct.leaf_penalty * total_weight(train, &weights);
            let alpha = if leaf > 0.0 {
                let baseline = baseline_errors(train, &weights);
                if baseline <= 0.0 {
                    return None;
                }
                leaf / baseline
            } else {
                0.0
            };
            (
                DpParams {
                    objective: binoct.objective.into(),
                    alpha,
                    thresholds: binoct.thresholds,
                    ..DpParams::default()
                },
                1.0,
                leaf,
            )
        }
        AnyFormulation::FlowOct(flowoct) => (
            DpParams {
                objective: flowoct.objective.into(),
                thresholds: flowoct.thresholds,
                ..DpParams::default()
            },
            1.0,
            0.0,
        ),
        AnyFormulation::Olct(_) => return None,
    };
    let params = DpParams {
        thresholds: thresholds.unwrap_or(params.thresholds),
        ..params
    };
    let search = params.check(depth).ok()?;
    Some(Counterpart {
        search,
        scale,
        offset,
    })
}

/// The objective of `tree` in the exact search's units for `method`'s problem, by plain code
/// ([`crate::dp::objective_of`]): the search's own problem for `dp` with an error objective,
/// the counterpart's for OCT, BinOCT and FlowOCT; `None` for the others, or when the tree is
/// outside the problem.
pub fn dp_objective(
    method: &crate::learn::Method,
    train: &Dataset,
    tree: &crate::tree::Tree,
) -> Option<f64> {
    let search = match method {
        crate::learn::Method::Dp(search) if search.params.objective.metric().is_none() => {
            search.clone()
        }
        crate::learn::Method::Milp { formulation, .. } => {
            counterpart(formulation, train, None)?.search
        }
        _ => return None,
    };
    crate::dp::objective_of(tree, train, &search.problem(train))
}
