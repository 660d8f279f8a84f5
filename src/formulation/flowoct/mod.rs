//! FlowOCT (Aghaei, Gomez & Vayanos, "Strong Optimal Classification Trees", Operations
//! Research): optimal classification trees over binary features `x_j <= t` (the candidate
//! thresholds of each feature), as a flow of the rows from a source at the root to a sink at the
//! nodes that classify them correctly. Its LP relaxation is stronger than big-M routing models.
//! The model, why it is valid, its decode rule and its sizes are in `formulations/flowoct.md`.
//!
//! Submodules: [`params`] (the parameters), [`groups`] (rows identical on the binary features,
//! merged into one flow with per-class counts), [`features`] (the binary features each level may
//! split on: class boundaries at the last split level, one of each set of duplicates), [`model`]
//! (the variables and rows, the assignment of a tree, the tree of a solution), [`express`] (a
//! given tree in the model's features). The binarisation and the snapping of a given
//! tree onto candidate thresholds are BinOCT's ([`crate::formulation::binoct`]).

mod columns;
mod express;
mod features;
mod groups;
mod model;
mod params;

pub use features::BinaryFeature;
pub use model::FlowOctModel;
pub use params::FlowOctParams;

use serde_json::json;

use crate::constraints::SideConstraints;
use crate::data::{Dataset, ThresholdMode};
use crate::error::{Error, Result};
use crate::formulation::binoct::candidates::Candidates;
use crate::formulation::costs::ErrorCosts;
use crate::formulation::{Decoded, Encoded, Formulation};
use crate::greedy::{cart, CartParams};
use crate::mip::Assignment;
use crate::score::{ClassWeight, Objective};
use crate::tree::Tree;

/// The deepest FlowOCT model milptree builds (`groups * 2^(D+1)` flow columns).
pub const FLOWOCT_MAX_DEPTH: usize = 8;

/// The FlowOCT formulation and its parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct FlowOct {
    /// The tree depth (at least 1).
    pub depth: usize,
    /// Which candidate thresholds make the binary features.
    pub thresholds: ThresholdMode,
    /// What a misclassification costs.
    pub objective: Objective,
    /// The user's cost of an error on each listed class (`--class-weight`), times the
    /// objective's.
    pub class_weights: Vec<ClassWeight>,
}

impl FlowOct {
    /// The model, its features restricted by `constraints` when given.
    fn build_model(
        &self,
        data: &Dataset,
        constraints: Option<&SideConstraints>,
    ) -> Result<FlowOctModel> {
        self.check(data)?;
        FlowOctModel::build(
            data,
            self.depth,
            Candidates::new(data, self.thresholds),
            ErrorCosts::new(self.objective, &self.class_weights, data)?,
            constraints,
        )
    }

    /// Depth `depth`, every midpoint as a threshold, accuracy objective.
    pub fn new(depth: usize) -> FlowOct {
        FlowOctParams::default().check(depth).unwrap_or(FlowOct {
            depth,
            thresholds: ThresholdMode::All,
            objective: Objective::Accuracy,
            class_weights: Vec::new(),
        })
    }

    fn check(&self, data: &Dataset) -> Result<()> {
        crate::greedy::check_depth(self.depth, FLOWOCT_MAX_DEPTH)?;
        if data.n_features() == 0 {
            return Err(Error::input(data.source(), "the data has no features"));
        }
        if data.n_rows() == 0 {
            return Err(Error::input(data.source(), "the data has no rows"));
        }
        Ok(())
    }

    /// CART of the same depth over the same candidate thresholds: the default warm start.
    pub fn greedy_tree(&self, data: &Dataset) -> Result<Tree> {
        self.check(data)?;
        cart(
            data,
            &CartParams {
                depth: self.depth,
                min_leaf: 1,
                thresholds: self.thresholds,
            },
        )
    }
}

impl Formulation for FlowOct {
    type Built = FlowOctModel;

    fn name(&self) -> &'static str {
        "flowoct"
    }

    fn depth(&self) -> usize {
        self.depth
    }

    fn parameters(&self) -> serde_json::Value {
        crate::formulation::parameters_json(self.depth, &self.params())
    }

    fn build(&self, data: &Dataset) -> Result<FlowOctModel> {
        self.build_model(data, None)
    }

    /// The model whose levels take only the features `constraints` permit there, with
    /// duplicates merged within one feature when they count features.
    fn build_under(&self, data: &Dataset, constraints: &SideConstraints) -> Result<FlowOctModel> {
        self.build_model(data, Some(constraints))
    }

    fn encode(&self, built: &FlowOctModel, tree: &Tree) -> Result<Encoded> {
        let (expressed, notes) = built.express(tree)?;
        Ok(Encoded {
            assignment: built.assignment_of(&expressed)?,
            tree: expressed,
            notes,
        })
    }

    fn decode(&self, built: &FlowOctModel, solution: &Assignment) -> Result<Decoded> {
        let mut tree = built.tree_of(solution)?;
        tree.learned_by = Some(json!({ "method": "flowoct", "parameters": self.parameters() }));
        let (rows, groups) = built.rows_and_groups();
        let notes = if groups < rows {
            vec![format!(
                "{rows} training rows were {groups} groups of rows identical on the binary \
                 features, one flow each"
            )]
        } else {
            Vec::new()
        };
        Ok(Decoded { tree, notes })
    }

    /// The summed error costs of the training rows the tree misclassifies as the model
    /// expresses it (see [`FlowOctModel::express`]).
    fn objective_of(&self, built: &FlowOctModel, tree: &Tree) -> Result<f64> {
        let (snapped, _) = built.express(tree)?;
        Ok(built
            .costs
            .errors_of(&built.data, snapped.predict(built.data.rows())))
    }
}
