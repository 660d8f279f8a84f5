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
//!
//! Row weights and class weights: the factors above are computed from the formulation's error
//! costs ([`ErrorCosts`]: class cost times class weight times row weight); the search gets the
//! class weights times each class's unit and runs on the rows repeated by their multiples of
//! it ([`Counterpart::search_data`], [`Counterpart::search_problem`]). It counts rows, so row
//! weights that are not whole multiples of one unit per class are beyond it: the counterpart then
//! says why it does not apply ([`Counterpart::not_applicable`], decided by [`search_lacks`]
//! alone), its tree (searched on the rows without weights) is only a heuristic warm start, and
//! the certificate's verdict is `not_applicable`.

use std::borrow::Cow;

use crate::data::{Dataset, Factored, ThresholdMode};
use crate::dp::DpProblem;
use crate::formulation::costs::ErrorCosts;
use crate::formulation::AnyFormulation;
use crate::learn::dp_search::{DpParams, DpSearch};
use crate::score::ClassWeight;
use crate::setting::Named;

/// The search that solves a formulation's problem, and the factor from the search's objective
/// to the formulation's.
#[derive(Debug, Clone, PartialEq)]
pub struct Counterpart {
    pub search: DpSearch,
    /// The formulation's objective of a tree is the search's plus `offset`, times this.
    pub scale: f64,
    /// The cost of the root's leaf under a leaf penalty, in the search's units.
    pub offset: f64,
    /// Why the search's optimum is not the formulation's (see [`search_lacks`]), if it is not.
    pub not_applicable: Option<String>,
}

impl Counterpart {
    /// The search's objective in the formulation's units.
    pub fn to_model(&self, dp_objective: f64) -> f64 {
        (dp_objective + self.offset) * self.scale
    }

    /// The least cost of one error on `train` in the formulation's units: the least positive
    /// class weight of the search's problem on its copies (times the class's unit), scaled.
    pub fn unit(&self, train: &Dataset) -> f64 {
        let least = self
            .search_problem(train, &self.search_data(train))
            .class_weights
            .into_iter()
            .filter(|&w| w > 0.0)
            .fold(f64::INFINITY, f64::min);
        if least.is_finite() {
            least * self.scale
        } else {
            self.scale
        }
    }
}

/// What the formulation's problem has that the exact search does not solve, in words: row
/// weights that are not whole multiples of one unit per class (the search counts a row of
/// weight `m u_k` as `m` rows of class cost times `u_k`, see [`Dataset::factored_by_class`]), or
/// more copies than it holds. Class weights and such row weights it solves exactly.
pub fn search_lacks(train: &Dataset) -> Option<String> {
    train
        .refuses_factoring(&Named::same("the exact search"))
        .map(|e| format!("{e}, so its optimum is not this model's"))
}

impl Counterpart {
    /// The data the search runs on for `train`: the rows repeated by their multiples of their
    /// class's unit when the search applies, the rows without weights (a heuristic, every unit
    /// 1) when it does not.
    pub fn search_data<'a>(&self, train: &'a Dataset) -> Factored<'a> {
        if self.not_applicable.is_none() {
            if let Ok(factored) = train.factored_by_class(&Named::same("the exact search")) {
                return factored;
            }
        }
        Factored {
            rows: Cow::Owned(train.clone().without_weights()),
            units: vec![1.0; train.n_classes()],
        }
    }

    /// The search's problem on `searched` (this counterpart's [`Counterpart::search_data`] of
    /// `train`): the problem on the weighted rows `train`, each class cost times its unit; on
    /// the rows without weights when the search does not apply.
    pub fn search_problem(&self, train: &Dataset, searched: &Factored) -> DpProblem {
        if self.not_applicable.is_some() {
            return self.search.problem(&searched.rows);
        }
        let weighted = self.search.problem(train);
        DpProblem {
            class_weights: searched.scaled(&weighted.class_weights),
            ..weighted
        }
    }
}

/// The user's class weights of `formulation`.
fn class_weights_of(formulation: &AnyFormulation) -> &[ClassWeight] {
    match formulation {
        AnyFormulation::Oct(f) => &f.class_weights,
        AnyFormulation::BinOct(f) => &f.class_weights,
        AnyFormulation::FlowOct(f) => &f.class_weights,
        AnyFormulation::Olct(f) => &f.class_weights,
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
    let class_weights = class_weights_of(formulation);
    let (params, scale, offset) = match formulation {
        AnyFormulation::Oct(oct) => {
            let costs = ErrorCosts::new(oct.objective, class_weights, train).ok()?;
            let baseline = costs.baseline();
            if baseline <= 0.0 {
                return None;
            }
            let leaf = oct.leaf_penalty * costs.total();
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
            let costs = ErrorCosts::new(binoct.objective, class_weights, train).ok()?;
            let leaf = binoct.leaf_penalty * costs.total();
            let alpha = if leaf > 0.0 {
                let baseline = costs.baseline();
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
        class_weights: class_weights.to_vec(),
        ..params
    };
    let search = params.check(depth).ok()?;
    let not_applicable = search_lacks(train).or_else(|| {
        (!train.copies_count_leaf_rows(search.params.min_leaf)).then(|| {
            "--min-leaf counts rows, whatever their weights, and the exact search, which holds \
             a row of weight w as w copies, cannot count rows, so its optimum is not this \
             model's"
                .to_string()
        })
    });
    Some(Counterpart {
        search,
        scale,
        offset,
        not_applicable,
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
        // A metric's front, and the sparse search's loss with its leaf penalty.
        crate::learn::Method::Dp(_) | crate::learn::Method::Sparse(_) => return None,
    };
    crate::dp::objective_of(tree, train, &search.problem(train))
}
