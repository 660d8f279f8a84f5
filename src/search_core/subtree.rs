//! Trees over bins, as the searches find them (splits on searched features at threshold bins),
//! and their rebuilding into a [`Tree`] of the project's model: axis splits on the data's
//! features at the candidate thresholds' values, with counts recomputed from the data.

use crate::data::Dataset;
use crate::error::Result;
use crate::search_core::binned::Binned;
use crate::search_core::cost::CostModel;
use crate::tree::{NodeKind, Tree, TreeBuilder};

/// One node of a tree over bins, as [`build_tree`] reads it.
pub(crate) enum BinNode<'a, T> {
    /// A leaf predicting class `class`.
    Leaf { class: usize },
    /// Rows with bin `<= bin` on searched feature `feature` go left.
    Split {
        feature: u32,
        bin: u32,
        left: &'a T,
        right: &'a T,
    },
}

/// A tree over bins that a search builds its own way.
pub(crate) trait BinTree: Sized {
    fn node(&self) -> BinNode<'_, Self>;
}

/// A tree over bins whose leaves predict the class of least weighted error of their rows.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SubTree {
    Leaf,
    Split {
        feature: u32,
        bin: u32,
        left: Box<SubTree>,
        right: Box<SubTree>,
    },
}

impl BinTree for SubTree {
    fn node(&self) -> BinNode<'_, SubTree> {
        match self {
            SubTree::Leaf => BinNode::Leaf { class: 0 },
            SubTree::Split {
                feature,
                bin,
                left,
                right,
            } => BinNode::Split {
                feature: *feature,
                bin: *bin,
                left,
                right,
            },
        }
    }
}

/// The project's tree of `root` (at most `depth` levels) on `data`, with the leaves' classes
/// as `root` gives them and counts from the data (each row its weight when every weight is a
/// whole number, as the exact search counts rows, [`Tree::recount_on`]).
pub(crate) fn build_tree<T: BinTree>(
    root: &T,
    binned: &Binned,
    data: &Dataset,
    depth: usize,
) -> Result<Tree> {
    let mut builder = TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), depth)?;
    let mut stack = vec![(1usize, root)];
    while let Some((id, node)) = stack.pop() {
        match node.node() {
            BinNode::Leaf { class } => {
                builder.leaf(id, class)?;
            }
            BinNode::Split {
                feature,
                bin,
                left,
                right,
            } => {
                builder.split(id, binned.split(feature, bin))?;
                stack.push((2 * id, left));
                stack.push((2 * id + 1, right));
            }
        }
    }
    let mut tree = builder.build()?;
    // Each row counted its whole-number weight, as the search counts it.
    tree.recount_on(data)?;
    Ok(tree)
}

/// The project's tree of `subtree`, each leaf predicting the class of least weighted error
/// under `cost` among its rows (an empty leaf: its parent's).
pub(crate) fn to_tree(
    subtree: &SubTree,
    binned: &Binned,
    data: &Dataset,
    cost: &CostModel,
    depth: usize,
) -> Result<Tree> {
    let mut tree = build_tree(subtree, binned, data, depth)?;
    let best_class = |counts: &[usize]| {
        let counts: Vec<u32> = counts.iter().map(|&c| c as u32).collect();
        cost.leaf(&counts).1
    };
    for id in tree.leaves() {
        let Some(node) = tree.node(id) else { continue };
        let class = if node.rows() > 0 || id == 1 {
            best_class(&node.counts)
        } else {
            tree.node(id / 2)
                .map_or(0, |parent| best_class(&parent.counts))
        };
        if matches!(tree.node(id).map(|n| &n.kind), Some(NodeKind::Leaf { .. })) {
            tree.set_leaf_class(id, class)?;
        }
    }
    Ok(tree)
}
