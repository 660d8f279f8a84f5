//! BinOCT (Verwer & Zhang): optimal classification trees of a given depth whose split thresholds
//! are selected by a binary search over each feature's candidate thresholds, in a few bits per
//! node shared by all features. The model, its exactness argument, the decode and warm-start
//! rules are stated in `formulations/binoct.md`.
//!
//! Submodules: [`ranges`] (Algorithm 1 and the range rules), [`candidates`] (thresholds, bins,
//! snapping one threshold), [`snap`] (snapping a tree), [`full_tree`] (the complete tree in the
//! model's terms), [`model`] (the variables and rows).

pub(crate) mod candidates;
mod full_tree;
mod model;
mod params;
mod ranges;
pub(crate) mod snap;

use serde_json::json;

use crate::constraints::SideConstraints;
use crate::data::{Dataset, ThresholdMode};
use crate::error::{Error, Result};
use crate::formulation::costs::ErrorCosts;
use crate::formulation::{ClassErrors, Decoded, Encoded, Formulation};
use crate::greedy::{cart, check_depth, CartParams};
use crate::mip::{Assignment, Expression};
use crate::score::{ClassWeight, Objective};
use crate::tree::{NodeKind, Tree};

use candidates::Candidates;
use full_tree::FullTree;
pub use model::BinOctModel;
pub use params::BinOctParams;

/// The deepest BinOCT model milptree builds (the model has `n * 2^D` routing columns).
pub const BINOCT_MAX_DEPTH: usize = 8;

/// The BinOCT formulation and its parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct BinOct {
    /// The tree depth (at least 1).
    pub depth: usize,
    /// Which candidate thresholds the splits choose from (the paper's: `ClassBoundary`).
    pub thresholds: ThresholdMode,
    /// What a misclassification costs.
    pub objective: Objective,
    /// Penalty per leaf, in units of the weighted error rate (0: complete trees).
    pub leaf_penalty: f64,
    /// The user's cost of an error on each listed class (`--class-weight`), times the
    /// objective's.
    pub class_weights: Vec<ClassWeight>,
}

impl BinOct {
    /// The model, with split indicators when the leaf penalty or `split_indicators` asks.
    fn build_model(&self, data: &Dataset, split_indicators: bool) -> Result<BinOctModel> {
        self.check(data)?;
        BinOctModel::build(
            data,
            self.depth,
            Candidates::new(data, self.thresholds),
            ErrorCosts::new(self.objective, &self.class_weights, data)?,
            self.leaf_penalty,
            split_indicators,
        )
    }

    /// Depth `depth`, class-boundary thresholds (as in the paper), accuracy objective.
    pub fn new(depth: usize) -> BinOct {
        BinOct {
            depth,
            thresholds: ThresholdMode::ClassBoundary,
            objective: Objective::Accuracy,
            leaf_penalty: 0.0,
            class_weights: Vec::new(),
        }
    }

    fn check(&self, data: &Dataset) -> Result<()> {
        check_depth(self.depth, BINOCT_MAX_DEPTH)?;
        if data.n_features() == 0 {
            return Err(Error::input(data.source(), "the data has no features"));
        }
        if data.n_rows() == 0 {
            return Err(Error::input(data.source(), "the data has no rows"));
        }
        Ok(())
    }

    /// CART of the same depth over the candidates of the mode in use (so its thresholds are
    /// candidates already): the default warm start.
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

impl BinOctModel {
    /// The tree the model expresses for `tree` (its splits snapped to candidate thresholds; see
    /// `formulations/binoct.md`), with counts on the training data. `tree` must be axis-aligned,
    /// over the training data's features and classes, and no deeper than the model.
    pub fn snapped(&self, tree: &Tree) -> Result<Tree> {
        Ok(snap::snap_tree(tree, &self.data, &self.candidates, self.depth)?.0)
    }
}

impl ClassErrors for BinOct {
    /// The model as built (its leaves predict any class): the errors on class `c` are the sum
    /// of its `e[l,c]` over the leaves.
    fn build_with_class_errors(&self, data: &Dataset) -> Result<(BinOctModel, Vec<Expression>)> {
        let built = self.build(data)?;
        let errors = (0..data.n_classes())
            .map(|class| built.class_errors(class))
            .collect();
        Ok((built, errors))
    }
}

impl Formulation for BinOct {
    type Built = BinOctModel;

    fn name(&self) -> &'static str {
        "binoct"
    }

    fn depth(&self) -> usize {
        self.depth
    }

    fn parameters(&self) -> serde_json::Value {
        crate::formulation::parameters_json(self.depth, &self.params())
    }

    fn build(&self, data: &Dataset) -> Result<BinOctModel> {
        self.build_model(data, false)
    }

    /// The model with split indicators (a node may be a leaf without a filler split, which
    /// would use a feature the tree does not).
    fn build_under(&self, data: &Dataset, _constraints: &SideConstraints) -> Result<BinOctModel> {
        self.build_model(data, true)
    }

    /// Encodes the snapped tree (see [`BinOctModel::snapped`]), filled to the full depth. With
    /// a leaf penalty, splits that send every training row one way are removed first (each
    /// would cost a leaf for nothing), and nodes below a leaf do not split.
    fn encode(&self, built: &BinOctModel, tree: &Tree) -> Result<Encoded> {
        let (tree, mut notes) = if built.penalised() {
            snap::without_one_sided_splits(tree, &built.data)?
        } else {
            (tree.clone(), Vec::new())
        };
        let (snapped, snap_notes) =
            snap::snap_tree(&tree, &built.data, &built.candidates, built.depth)?;
        notes.extend(snap_notes);
        let full =
            FullTree::from_snapped(&snapped, &built.candidates, built.depth, built.penalised())?;
        Ok(Encoded {
            assignment: built.assignment_of(&full)?,
            tree: snapped,
            notes,
        })
    }

    fn decode(&self, built: &BinOctModel, solution: &Assignment) -> Result<Decoded> {
        let full = built.full_tree_of(solution)?;
        let mut tree = full.to_tree(&built.data, &built.candidates)?;
        tree.learned_by = Some(json!({ "method": "binoct", "parameters": self.parameters() }));
        let notes = built
            .twins
            .note()
            .into_iter()
            .chain(tree.leaves().into_iter().filter_map(|id| {
                let node = tree.node(id)?;
                match node.kind {
                    NodeKind::Leaf { class } if node.rows() == 0 => Some(format!(
                        "leaf {id} receives no training row; it keeps the class the solution \
                         gives it ({})",
                        built.data.classes()[class]
                    )),
                    _ => None,
                }
            }))
            .collect();
        Ok(Decoded { tree, notes })
    }

    /// The summed error costs of the training rows the tree misclassifies as the model
    /// expresses it (after snapping), plus the leaf penalty (`lambda * W` per leaf) of its
    /// leaves.
    fn objective_of(&self, built: &BinOctModel, tree: &Tree) -> Result<f64> {
        let snapped = built.snapped(tree)?;
        let errors = built
            .costs
            .errors_of(&built.data, snapped.predict(built.data.rows()));
        Ok(errors + built.leaf_cost() * snapped.leaves().len() as f64)
    }
}
