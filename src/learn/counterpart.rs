//! The exact search's counterpart of a MILP formulation: the same learning problem (thresholds,
//! class weights, split cost, leaf minimum) as a [`DpSearch`], and the factor that turns the
//! search's objective (weighted errors plus split costs) into the formulation's.
//!
//! OCT minimises `errors / L^ + alpha * splits` over every midpoint: the search with the same
//! `alpha` (which it prices at `alpha * L^`), leaf minimum and objective, scaled by `1 / L^`.
//! BinOCT and FlowOCT minimise the weighted errors over their candidate thresholds: the search
//! over the same thresholds, scaled by 1. OLCT's objective (logistic loss and L1 weights over
//! oblique splits) has no counterpart.

use crate::data::{Dataset, ThresholdMode};
use crate::formulation::AnyFormulation;
use crate::learn::dp_search::{baseline_errors, DpParams, DpSearch};

/// The search that solves a formulation's problem, and the factor from the search's objective
/// to the formulation's.
#[derive(Debug, Clone, PartialEq)]
pub struct Counterpart {
    pub search: DpSearch,
    /// The formulation's objective of a tree is the search's times this.
    pub scale: f64,
}

impl Counterpart {
    /// The search's objective in the formulation's units.
    pub fn to_model(&self, dp_objective: f64) -> f64 {
        dp_objective * self.scale
    }
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
    let (params, scale) = match formulation {
        AnyFormulation::Oct(oct) => {
            let weights = oct.objective.class_weights(train);
            let baseline = baseline_errors(train, &weights);
            if baseline <= 0.0 {
                return None;
            }
            (
                DpParams {
                    objective: oct.objective.into(),
                    alpha: oct.alpha,
                    min_leaf: oct.min_leaf,
                    thresholds: ThresholdMode::All,
                    ..DpParams::default()
                },
                1.0 / baseline,
            )
        }
        AnyFormulation::BinOct(binoct) => (
            DpParams {
                objective: binoct.objective.into(),
                thresholds: binoct.thresholds,
                ..DpParams::default()
            },
            1.0,
        ),
        AnyFormulation::FlowOct(flowoct) => (
            DpParams {
                objective: flowoct.objective.into(),
                thresholds: flowoct.thresholds,
                ..DpParams::default()
            },
            1.0,
        ),
        AnyFormulation::Olct(_) => return None,
    };
    let params = DpParams {
        thresholds: thresholds.unwrap_or(params.thresholds),
        ..params
    };
    let search = params.check(depth).ok()?;
    Some(Counterpart { search, scale })
}
