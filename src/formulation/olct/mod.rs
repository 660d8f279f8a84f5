//! OLCT: optimal logistic classification trees (Aldinucci and Lapucci), of any depth.
//!
//! Every branch node `t` is an oblique split `w_t . z + b_t` over the standardised features;
//! rows are routed (binary `z[i,s]`) only to the last branching level, whose splits make the
//! prediction (left leaf negative, right leaf positive). The loss of every level is the
//! piecewise-linear tangent underestimator of the logistic loss, and the weights carry an L1
//! penalty. The statement of the model as built is in `formulations/olct.md`.
//!
//! Around the model: the greedy logistic tree as warm start
//! ([`mod@crate::greedy::logistic_tree`]), refinement of the last level by exact L1-logistic
//! regression (`refine`), and the per-node report (`report`).

mod decode;
mod encode;
mod from_search;
mod model;
mod objective;
mod params;
mod refine;
mod report;
mod tangents;
mod training;

pub use model::OlctModel;
pub use params::OlctParams;
pub use tangents::{surrogate_of, TangentLine, TangentPoint, TangentSet};

use serde_json::{json, Value};

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::formulation::{BuiltModel, Decoded, Encoded, Formulation, VariableRole};
use crate::greedy::{check_depth, logistic_tree, LogisticTreeParams};
use crate::mip::{Assignment, MipModel};
use crate::score::ClassWeight;
use crate::tree::Tree;

use training::{Settings, Training};

/// The deepest OLCT milptree builds (2^10 - 1 branch nodes).
pub const MAX_OLCT_DEPTH: usize = 10;

/// The tightest integrality tolerance OLCT asks of a solver; its tolerance `epsilon / (100 M)`
/// needs `M <= epsilon / (100 MIN_INTEGRALITY_TOLERANCE)`.
const MIN_INTEGRALITY_TOLERANCE: f64 = 1e-10;
/// The loosest integrality tolerance OLCT asks of a solver (the solvers' default).
const MAX_INTEGRALITY_TOLERANCE: f64 = 1e-6;

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
    /// The weight of each listed class's rows in the loss (`--class-weight`; others: 1),
    /// times the rows' own weights.
    pub class_weights: Vec<ClassWeight>,
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
            class_weights: Vec::new(),
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
        let (least, largest) = crate::formulation::costs::COST_RANGE;
        if let Some(bad) = c.iter().find(|c| !(least..=largest).contains(*c)) {
            return Err(Error::parameter(
                "--c",
                format!(
                    "{bad}: the weight of a level's loss is a coefficient of the model, from \
                     {least:e} to {largest:e} (solvers drop smaller ones and fail on larger)"
                ),
            ));
        }
        if !(self.epsilon.is_finite() && self.epsilon > 0.0) {
            return Err(Error::parameter(
                "--epsilon",
                format!("{} is not a positive number", self.epsilon),
            ));
        }
        let margin = self.epsilon.max(std::f64::consts::LN_2);
        if !self.big_m.is_finite() {
            return Err(Error::parameter("--big-m", "must be a finite number"));
        }
        let largest = self.epsilon / (100.0 * MIN_INTEGRALITY_TOLERANCE);
        if self.big_m <= 2.0 * margin || self.big_m > largest {
            let size = if self.big_m > largest {
                "too large"
            } else {
                "too small"
            };
            return Err(Error::parameter(
                "--big-m",
                format!(
                    "{} is {size}: it must exceed 2 max(--epsilon, ln 2) = {}, and be at most \
                     --epsilon / (100 * {MIN_INTEGRALITY_TOLERANCE:e}) = {} (the model needs an \
                     integrality tolerance of epsilon / (100 M), and solvers hold none tighter \
                     than {MIN_INTEGRALITY_TOLERANCE:e})",
                    self.big_m,
                    2.0 * margin,
                    // Shown without the last bit of rounding error (1000, not 1000.0000000000001).
                    (largest * 1e6).round() / 1e6
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

impl Olct {
    /// The greedy logistic tree on the model's training data: the default warm start.
    pub fn greedy_tree(&self, data: &Dataset) -> Result<Tree> {
        let training = self.training(data)?;
        let settings = &training.settings;
        logistic_tree(
            &training.data,
            &LogisticTreeParams {
                depth: settings.depth,
                c: settings.c.clone(),
                positive_class: training.positive_class,
                univariate: self.univariate,
                score_limit: settings.score_limit,
                margin: settings.epsilon,
            },
        )
    }

    /// The training data as the model sees it (relabelled, standardised, with the bounds).
    fn training(&self, data: &Dataset) -> Result<Training> {
        Training::new(
            data,
            self.positive_class.as_deref(),
            &self.class_weights,
            self.settings()?,
        )
    }

    /// The exact objective of `tree` on the model's training data: the objective with the
    /// logistic loss itself in place of its tangent underestimator,
    /// `sum_h (C_h sum_i log(1 + exp(-y_i (w . z_i + b))) + sum_{t in T_h} ||w_t||_1)`, each row
    /// scored at the nodes on its path by the tree's own routing. NaN for a tree that is not a
    /// logistic tree of the model's depth and classes.
    pub fn exact_objective(&self, built: &OlctModel, tree: &Tree) -> f64 {
        objective::exact_objective(&built.training, tree).unwrap_or(f64::NAN)
    }
}

impl BuiltModel for OlctModel {
    fn mip(&self) -> &MipModel {
        &self.mip
    }

    /// `epsilon / (100 M)` (1e-9 with the defaults, as the paper's Gurobi setting), within
    /// [1e-10, 1e-6]: a binary that is integral only to the solver's default 1e-6 relaxes a
    /// forwarding row by `M * 1e-6 = 1e-4`, ten times the margin epsilon, and lets a solver
    /// route rows scoring 0 either way.
    fn integrality_tolerance(&self) -> Option<f64> {
        let settings = &self.training.settings;
        Some(
            (settings.epsilon / (100.0 * settings.big_m))
                .clamp(MIN_INTEGRALITY_TOLERANCE, MAX_INTEGRALITY_TOLERANCE),
        )
    }

    fn post_process(&self, tree: Tree) -> Result<(Tree, Value)> {
        let training = &self.training;
        let after_solve = objective::exact_objective(training, &tree)?;
        let (tree, after_refinement, notes) = if self.refine {
            let refinement = refine::refine(training, &tree, self.univariate)?;
            (refinement.tree, Some(refinement.after), refinement.notes)
        } else {
            (tree, None, Vec::new())
        };
        let nodes = report::node_report(training, &tree)?;
        Ok((
            tree,
            json!({
                "positive_class": training.data.classes()[training.positive_class],
                "negative_class": training.data.classes()[training.negative_class()],
                "exact_objective": {
                    "after_solve": after_solve,
                    "after_refinement": after_refinement,
                },
                "refined": self.refine,
                "refinement_notes": notes,
                "nodes": nodes,
            }),
        ))
    }

    fn variable_roles(&self) -> Vec<VariableRole> {
        let features = &self.training.data.schema().features;
        let mut roles = Vec::new();
        let mut put = |var, node: Option<usize>, meaning: String| {
            let column = self.mip.col(var);
            roles.push((
                column,
                VariableRole {
                    name: self.mip.vars()[column].name.clone(),
                    node,
                    meaning,
                },
            ));
        };
        let vars = &self.vars;
        for t in 1..=vars.b.len() {
            for (j, feature) in features.iter().enumerate() {
                put(
                    vars.w[t - 1][j],
                    Some(t),
                    format!("weight of standardised `{feature}` at node {t}"),
                );
                put(
                    vars.w_plus[t - 1][j],
                    Some(t),
                    format!("positive part of the weight of `{feature}` at node {t}"),
                );
                put(
                    vars.w_minus[t - 1][j],
                    Some(t),
                    format!("negative part of the weight of `{feature}` at node {t}"),
                );
                if let Some(delta) = &vars.delta {
                    put(
                        delta[t - 1][j],
                        Some(t),
                        format!("1 if node {t} may use `{feature}`"),
                    );
                }
            }
            put(vars.b[t - 1], Some(t), format!("bias of node {t}"));
        }
        let first_last = 1 << (self.training.settings.depth - 1);
        for (i, zs) in vars.z.iter().enumerate() {
            for (k, &z) in zs.iter().enumerate() {
                let node = first_last + k;
                put(
                    z,
                    Some(node),
                    format!("1 if training row {} reaches node {node}", i + 1),
                );
            }
        }
        for (i, xis) in vars.xi.iter().enumerate() {
            for (h, &xi) in xis.iter().enumerate() {
                put(
                    xi,
                    None,
                    format!(
                        "approximate logistic loss of training row {} at level {}",
                        i + 1,
                        h + 1
                    ),
                );
            }
        }
        roles.sort_by_key(|(column, _)| *column);
        roles.into_iter().map(|(_, role)| role).collect()
    }
}

impl Formulation for Olct {
    type Built = OlctModel;

    fn name(&self) -> &'static str {
        "olct"
    }

    fn depth(&self) -> usize {
        self.depth
    }

    fn parameters(&self) -> Value {
        let mut parameters = crate::formulation::parameters_json(self.depth, &self.params());
        parameters["score_limit"] = json!(self.settings().ok().map(|s| s.score_limit));
        parameters
    }

    fn build(&self, data: &Dataset) -> Result<OlctModel> {
        let training = self.training(data)?;
        model::build_model(training, self.tangents, self.univariate, self.refine)
    }

    fn encode(&self, built: &OlctModel, tree: &Tree) -> Result<Encoded> {
        let (tree, notes) = encode::representable(&built.training, tree)?;
        let assignment = encode::encode(built, &tree)?;
        Ok(Encoded {
            assignment,
            tree,
            notes,
        })
    }

    fn decode(&self, built: &OlctModel, solution: &Assignment) -> Result<Decoded> {
        let (mut tree, notes) = decode::decode(built, solution)?;
        tree.learned_by = Some(json!({ "method": "olct", "parameters": self.parameters() }));
        Ok(Decoded { tree, notes })
    }

    fn objective_of(&self, built: &OlctModel, tree: &Tree) -> Result<f64> {
        objective::surrogate_objective(&built.training, built.tangents, tree)
    }
}
