//! An OLCT tree from the exact search's axis-aligned tree, for the `dp` warm start: the search's
//! tree of depth `D - 1` (minimising training errors) routes the rows to the last level, whose
//! nodes become logistic leaves fitted by the refinement.
//!
//! An axis split `x_j <= t` becomes the oblique split with weight 1 on the standardised
//! `z_j = (x_j - m_j) / s_j` and bias `-(t - m_j) / s_j`, whose score `(x_j - t) / s_j` is
//! non-positive exactly when `x_j <= t`. A leaf of the search's tree above level `D - 1` is
//! continued by splits with no weight and bias 1, which send every row right. The last level
//! starts with no weight (bias 0) and is then refitted by exact L1-logistic regression; the
//! whole tree is first made representable (scores within the model's bound and margins), as
//! any warm start is.

use crate::data::Dataset;
use crate::dp::{self, DpOptions, DpOutcome, DpProblem, DpTermination};
use crate::error::Result;
use crate::formulation::olct::encode::representable;
use crate::formulation::olct::objective::exact_objective;
use crate::formulation::olct::refine::refine;
use crate::formulation::olct::training::Training;
use crate::formulation::olct::Olct;
use crate::tree::{node_depth, NodeKind, Split, Tree, TreeBuilder};

impl Olct {
    /// The warm-start tree from the exact search (see the module documentation), a short
    /// description of the search's result, and the search's outcome. `data` is the prepared
    /// (two-class) training data.
    pub fn start_from_search(
        &self,
        data: &Dataset,
        options: &DpOptions,
    ) -> Result<(Tree, String, DpOutcome)> {
        let training = self.training(data)?;
        let depth = self.depth;
        // The search needs a depth of at least one; at depth one its tree is not used.
        // Training errors, every row counted once (the search would count whole-number row
        // weights, and refuses others).
        let rows = training.data.clone().without_weights();
        let problem = DpProblem::accuracy(&rows, (depth - 1).max(1));
        let found = dp::solve(&rows, &problem, options)?;
        let described = match found.termination {
            DpTermination::Optimal => format!("optimal at depth {}", problem.depth),
            _ => format!("best found at depth {} within its budget", problem.depth),
        };
        let routing = if depth == 1 { None } else { Some(&found.tree) };
        let tree = logistic_tree_from(&training, routing, depth)?;
        let (tree, _) = representable(&training, &tree)?;
        let refined = refine(&training, &tree, self.univariate)?;
        Ok((refined.tree, described, found))
    }

    /// The exact objective (logistic loss and L1 weights) of an OLCT tree on the prepared
    /// training data `data`.
    pub fn exact_objective_on(&self, data: &Dataset, tree: &Tree) -> Result<f64> {
        exact_objective(&self.training(data)?, tree)
    }
}

/// The OLCT tree of depth `depth` whose levels above the last route as `routing` does (no
/// routing: depth one, only the root's logistic leaf).
fn logistic_tree_from(training: &Training, routing: Option<&Tree>, depth: usize) -> Result<Tree> {
    let data = &training.data;
    let scaling = &training.standardisation;
    let n_features = data.n_features();
    let mut builder = TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), depth)?
        .standardisation(scaling.clone());
    let first_last = 1usize << (depth - 1);
    for id in 1..first_last {
        // The routing tree's node at `id`, or the split that sends every row right when the
        // routing stopped above it.
        let split = match routing
            .and_then(|tree| tree.node(id))
            .map(|node| &node.kind)
        {
            Some(NodeKind::Split(Split::Axis { feature, threshold })) => {
                let mut weights = vec![0.0; n_features];
                weights[*feature] = 1.0;
                let bias = -(threshold - scaling.mean[*feature]) / scaling.scale[*feature];
                Split::Oblique { weights, bias }
            }
            _ => Split::Oblique {
                weights: vec![0.0; n_features],
                bias: 1.0,
            },
        };
        builder.split(id, split)?;
    }
    for id in first_last..2 * first_last {
        debug_assert_eq!(node_depth(id), depth - 1);
        builder.split(
            id,
            Split::Oblique {
                weights: vec![0.0; n_features],
                bias: 0.0,
            },
        )?;
        builder.leaf(2 * id, training.negative_class())?;
        builder.leaf(2 * id + 1, training.positive_class)?;
    }
    let mut tree = builder.build()?;
    tree.recount(data.rows(), data.labels())?;
    Ok(tree)
}
