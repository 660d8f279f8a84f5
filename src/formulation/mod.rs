//! The tree formulations and what they share.
//!
//! Every formulation has the same shape ([`Formulation`]): build the model on the training
//! data, encode a tree as a complete warm start, decode a solution into a tree, and compute by
//! plain code the objective the model assigns to a tree. The method layer runs them and uses that
//! last one to check every decoded tree against the solver's figure.
//!
//! Each formulation is a folder with the same shape: `mod.rs` (the formulation and its
//! [`Formulation`] impl), `params.rs` (its parameters as given, checked into it), `model.rs`
//! (the variables and rows) and the encode/decode modules.

mod any;
pub mod binoct;
pub mod costs;
pub mod cuts;
pub mod fairness_rows;
pub mod flowoct;
pub mod leaf_rows;
pub mod oct;
pub mod olct;
pub mod parameters;
pub mod predictions;
pub mod side_constraints;
pub mod twins;

pub use crate::score::Objective;
pub use any::{AnyBuilt, AnyFormulation, FormulationName, FormulationParams};

use serde::Serialize;

use crate::constraints::SideConstraints;
use crate::data::Dataset;
use crate::error::Result;
use crate::mip::{Assignment, Expression, MipModel};
use crate::solver::SolverKind;
use crate::tree::Tree;

/// What one variable of a built model means, for the map written next to exported models.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VariableRole {
    /// The variable's name in the model (e.g. `a[f=3,n=1]`).
    pub name: String,
    /// The tree node it belongs to, if any.
    pub node: Option<usize>,
    /// What it means, in words (e.g. "node 1 splits on feature petal_width_cm").
    pub meaning: String,
}

/// A built model: the MIP, what the formulation needs to encode and decode, and what the model
/// asks of whoever solves it and checks its solutions.
pub trait BuiltModel {
    fn mip(&self) -> &MipModel;
    /// The meaning of every variable, in column order.
    fn variable_roles(&self) -> Vec<VariableRole>;
    /// The relative tolerance within which the solver's objective and the plain evaluation of
    /// the decoded tree must agree.
    fn objective_tolerance(&self) -> f64 {
        1e-6
    }
    /// The integrality tolerance the model needs from a solver, when the solvers' defaults are
    /// too loose for it (big-M rows with a small margin); used unless the solve options set one,
    /// and written next to exported models.
    fn integrality_tolerance(&self) -> Option<f64> {
        None
    }
    /// Solver parameters this model runs best with on `solver` (measured; see the formulation's
    /// statement), given what the solve starts from. Set before the user's own
    /// (`SolveOptions::solver_options`), which therefore win. By default none.
    fn solver_options(&self, _solver: SolverKind, _start: StartKind) -> Vec<(String, String)> {
        Vec::new()
    }
    /// Whether each branch node splits on each feature, as expressions of the model's variables
    /// (1 when it does, 0 when not, in every integer solution), for the rows of side
    /// constraints on features; `None` for a model that does not take them. A feature a node
    /// cannot split on has no entry.
    fn feature_usage(&self) -> Option<Vec<FeatureUse>> {
        None
    }
    /// Whether each training row is predicted `class`, by units of rows the model routes
    /// alike, as expressions of its variables exact in every integer solution (for the rows of
    /// fairness constraints); `None` for a model that does not take them.
    fn class_predictions(&self, _class: usize) -> Option<Vec<predictions::ClassPrediction>> {
        None
    }

    /// The training rows each leaf of the tree receives, as expressions of the model's
    /// variables or as a routing of the rows to build them from, for the bounds on the rows
    /// per leaf; `None` for a model that does not take them.
    fn leaf_rows(&self) -> Option<leaf_rows::LeafRowSource> {
        None
    }
    /// The root's candidate splits and its leaf as expressions of the model's variables,
    /// exactly one of them 1 in every integer solution, for the rows that bound the objective
    /// by the exact search's bound of each root split; `None` for a model that does not take
    /// them.
    fn root_splits(&self) -> Option<RootSplits> {
        self.node_choices(1)
    }
    /// The choices of the branch node `node` (1-based, breadth-first) as for the root
    /// ([`BuiltModel::root_splits`]): exactly one of them is 1 when the node's parent splits,
    /// for the rows that bound the objective along a path of splits; `None` for a model that
    /// does not take them.
    fn node_choices(&self, _node: usize) -> Option<RootSplits> {
        None
    }
    /// A step applied to the decoded tree after it was checked against the solver (OLCT's
    /// refinement). Returns the final tree and a report of what was done; by default nothing.
    fn post_process(&self, tree: Tree) -> Result<(Tree, serde_json::Value)> {
        Ok((tree, serde_json::Value::Null))
    }
}

/// CBC's parameters that switch off its cut generators and primal heuristics, for models whose
/// warm start leaves them little to do ([`BuiltModel::solver_options`]).
pub(crate) fn cbc_without_cuts_and_heuristics() -> Vec<(String, String)> {
    vec![
        ("cutsOnOff".to_string(), "off".to_string()),
        ("heuristicsOnOff".to_string(), "off".to_string()),
    ]
}

/// What a solve starts from, as far as the choice of solver parameters goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartKind {
    /// No warm start.
    None,
    /// A tree that may be improved on (the greedy tree, or the exact search's unfinished best).
    Heuristic,
    /// A tree the exact search proved optimal for the model's objective.
    Optimal,
}

/// What a root split sends left: `x_feature <= threshold` (a model's candidate), or any
/// threshold of the feature (a model whose threshold is a continuous or encoded column).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RootSplit {
    Threshold { feature: usize, threshold: f64 },
    AnyThreshold { feature: usize },
}

/// The root's choices in a model (see [`BuiltModel::root_splits`]): each candidate split with
/// the expression that is 1 when the root takes it, and the expression that is 1 when the root
/// is a leaf (`None` when the model's root always splits, a split that may send every row one
/// way). In every integer solution exactly one of them is 1.
#[derive(Debug, Clone)]
pub struct RootSplits {
    pub splits: Vec<(RootSplit, Expression)>,
    pub leaf: Option<Expression>,
}

/// A tree encoded as a warm start.
#[derive(Debug, Clone)]
pub struct Encoded {
    /// A complete assignment of every variable of the model.
    pub assignment: Assignment,
    /// The tree the assignment represents: the given tree, or the closest tree the model can
    /// represent (e.g. thresholds snapped to candidates, leaves relabelled to a class the model
    /// allows), with counts recomputed on the training data.
    pub tree: Tree,
    /// What was changed to make the tree representable, if anything.
    pub notes: Vec<String>,
}

/// Whether a branch node splits on a feature, as an expression of a model's variables.
#[derive(Debug, Clone)]
pub struct FeatureUse {
    /// The node (1-based, breadth-first).
    pub node: usize,
    /// The feature.
    pub feature: usize,
    /// 1 when the node splits on the feature, 0 when not.
    pub expression: Expression,
}

/// A decoded solution.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The tree, with counts recomputed on the training data.
    pub tree: Tree,
    /// Formulation-specific notes on decoding (e.g. a threshold snapped to a candidate).
    pub notes: Vec<String>,
}

/// The common shape of every formulation: build the model on the training data, encode a tree as
/// a complete warm start, decode a solution into a tree, and the objective the model assigns to a
/// tree by plain code. Data preparation (e.g. relabelling), the choice of warm start and the
/// solver tolerances live elsewhere (the formulation's parameters, the method layer, the built
/// model).
pub trait Formulation {
    type Built: BuiltModel;
    /// `oct`, `binoct` or `olct`.
    fn name(&self) -> &'static str;
    /// The tree depth the model is built for.
    fn depth(&self) -> usize;
    /// The parameters, for reports.
    fn parameters(&self) -> serde_json::Value;
    /// Builds the model on the training data.
    fn build(&self, data: &Dataset) -> Result<Self::Built>;
    /// Builds the model to take side constraints on features (`constraints`), when the model
    /// as usual cannot express every tree that meets them (a filler split on a forbidden
    /// feature, a duplicate feature merged away); by default [`Formulation::build`]. The rows of
    /// the constraints are added by [`side_constraints::Constrained`].
    fn build_under(&self, data: &Dataset, _constraints: &SideConstraints) -> Result<Self::Built> {
        self.build(data)
    }
    /// Why `tree` (with its encoding `assignment`, once encoded) may not be a warm start of the
    /// model, if it may not (a tree or assignment that breaks a side constraint); by default
    /// it may.
    fn refuses_start(
        &self,
        _built: &Self::Built,
        _tree: &Tree,
        _assignment: Option<&Assignment>,
    ) -> Option<String> {
        None
    }
    /// Encodes `tree` (learned on the same training data) as a complete assignment of every
    /// variable of the model, with the tree that assignment represents. Errors when the tree
    /// cannot be represented at all (e.g. too deep, or a kind of split the model lacks).
    fn encode(&self, built: &Self::Built, tree: &Tree) -> Result<Encoded>;
    /// Decodes a solver's solution into a tree.
    fn decode(&self, built: &Self::Built, solution: &Assignment) -> Result<Decoded>;
    /// The objective value the model assigns to `tree`, computed by plain code from the
    /// training data (never from a solution). A decoded optimum must match the solver's.
    fn objective_of(&self, built: &Self::Built, tree: &Tree) -> Result<f64>;
    /// The side constraints' values on `tree` (and on `solution`, for rows over the model's
    /// variables), as reported; null without side constraints.
    fn side_constraints_report(
        &self,
        _built: &Self::Built,
        _tree: &Tree,
        _solution: Option<&Assignment>,
    ) -> serde_json::Value {
        serde_json::Value::Null
    }
}

/// A formulation whose model counts the errors on each class as linear expressions, with leaves
/// free to predict any class: the capability the epsilon-constraint front of false positives
/// and false negatives needs (minimise one class's errors with the other's bounded).
pub trait ClassErrors: Formulation {
    /// The model over `data` (leaves predicting any class), and the (class-weighted) errors on
    /// each class, in class order, as expressions of its variables. The expressions are exact
    /// wherever they are minimised or bounded above: each is at least the errors of the tree
    /// the solution encodes.
    fn build_with_class_errors(&self, data: &Dataset) -> Result<(Self::Built, Vec<Expression>)>;
}

/// A formulation's reported parameters: `depth` first, then every parameter of `params`.
pub(crate) fn parameters_json<P: Serialize>(depth: usize, params: &P) -> serde_json::Value {
    let mut fields = serde_json::Map::new();
    fields.insert("depth".into(), serde_json::json!(depth));
    if let Ok(serde_json::Value::Object(given)) = serde_json::to_value(params) {
        fields.extend(given);
    }
    serde_json::Value::Object(fields)
}
