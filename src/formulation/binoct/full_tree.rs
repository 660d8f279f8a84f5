//! The complete tree of the model's depth, in the model's own terms: every branch node selects
//! a feature and a candidate index (or, when no feature has a candidate, sends every row left),
//! every leaf at the last level a class. Encoding goes snapped tree -> full tree -> variable
//! values; decoding goes variable values -> full tree -> [`Tree`].
//!
//! A leaf of a snapped tree above the last level becomes the filler split of the model
//! ([`Candidates::filler`]) at every branch node below it, and its class at every leaf below
//! it, so every row that reached it reaches a leaf of the same class. With a leaf penalty the
//! model has split indicators, and those branch nodes do not split instead
//! ([`NodeSplit::NoSplit`]: every row goes left, and the node is one leaf of the tree).

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::tree::{NodeKind, Split, Tree, TreeBuilder};

use super::candidates::Candidates;
use super::ranges::goes_left;

/// What a branch node of the full tree does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeSplit {
    /// `x[feature] <= th(index)` goes left (`index` 1-based among the feature's candidates).
    Threshold { feature: usize, index: usize },
    /// Every row goes left (only when no feature has a candidate).
    AllLeft,
    /// The node does not split (its indicator is 0, with a leaf penalty): every row goes left,
    /// and the node with everything below it is one leaf of the tree, predicting the class of
    /// its leftmost leaf.
    NoSplit,
}

/// A complete tree of depth `depth`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FullTree {
    pub depth: usize,
    /// The split of branch node `n` (1-based, breadth-first) at index `n - 1`.
    pub splits: Vec<NodeSplit>,
    /// The class of leaf `2^depth + i` at index `i`.
    pub leaf_classes: Vec<usize>,
}

/// The filler split in the model's terms.
pub fn filler_split(candidates: &Candidates) -> NodeSplit {
    match candidates.usable().first() {
        Some(&feature) => NodeSplit::Threshold { feature, index: 1 },
        None => NodeSplit::AllLeft,
    }
}

impl FullTree {
    /// The id of the first leaf, `2^depth`.
    pub fn first_leaf(&self) -> usize {
        1 << self.depth
    }

    /// The full tree of a snapped tree (every split threshold a candidate; see
    /// [`super::snap::snap_tree`]) of depth at most `depth`. With `no_split` (the model has
    /// split indicators), nodes below a leaf do not split rather than take the filler split.
    pub fn from_snapped(
        tree: &Tree,
        candidates: &Candidates,
        depth: usize,
        no_split: bool,
    ) -> Result<FullTree> {
        let first_leaf = 1usize << depth;
        let filler = if no_split {
            NodeSplit::NoSplit
        } else {
            filler_split(candidates)
        };
        let degenerate = candidates.usable().is_empty();
        let mut splits = vec![filler; first_leaf - 1];
        let mut leaf_classes = vec![0; first_leaf];
        for id in 1..2 * first_leaf {
            // The deepest node of the tree on the way from the root to `id`.
            let mut owner = id;
            while tree.node(owner).is_none() && owner > 1 {
                owner /= 2;
            }
            let Some(node) = tree.node(owner) else {
                return Err(Error::Internal("a tree without a root".into()));
            };
            match &node.kind {
                NodeKind::Leaf { class } => {
                    if id >= first_leaf {
                        leaf_classes[id - first_leaf] = *class;
                    }
                }
                NodeKind::Split(_) if owner != id => {
                    return Err(Error::Internal(format!(
                        "node {id} is missing under split {owner}"
                    )))
                }
                NodeKind::Split(Split::Axis { feature, threshold }) => {
                    splits[id - 1] = if degenerate {
                        NodeSplit::AllLeft
                    } else {
                        let index = candidates.index_of(*feature, *threshold).ok_or_else(|| {
                            Error::Internal(format!(
                                "split {id}: threshold {threshold} is not a candidate of feature \
                                 {feature}"
                            ))
                        })?;
                        NodeSplit::Threshold {
                            feature: *feature,
                            index,
                        }
                    };
                }
                NodeKind::Split(Split::Oblique { .. }) => {
                    return Err(Error::Internal(format!("split {id} is oblique")))
                }
            }
        }
        Ok(FullTree {
            depth,
            splits,
            leaf_classes,
        })
    }

    /// The leaf (tree node id) a row with these bins reaches.
    pub fn leaf_of(&self, bins: &[usize]) -> usize {
        let mut id = 1;
        while id < self.first_leaf() {
            let left = match self.splits[id - 1] {
                NodeSplit::Threshold { feature, index } => goes_left(bins[feature], index),
                NodeSplit::AllLeft | NodeSplit::NoSplit => true,
            };
            id = 2 * id + usize::from(!left);
        }
        id
    }

    /// The tree in original units, with counts recomputed on `data`. A node that does not
    /// split is a leaf with the class of its leftmost leaf, where its rows go.
    pub fn to_tree(&self, data: &Dataset, candidates: &Candidates) -> Result<Tree> {
        let mut builder =
            TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), self.depth)?;
        let mut stack = vec![1usize];
        while let Some(id) = stack.pop() {
            if id >= self.first_leaf() {
                builder.leaf(id, self.leaf_classes[id - self.first_leaf()])?;
                continue;
            }
            let split = match self.splits[id - 1] {
                NodeSplit::Threshold { feature, index } => Split::Axis {
                    feature,
                    threshold: candidates.threshold(feature, index),
                },
                NodeSplit::AllLeft => candidates
                    .filler()
                    .ok_or_else(|| Error::input(data.source(), "the data has no features"))?,
                NodeSplit::NoSplit => {
                    let mut leftmost = id;
                    while leftmost < self.first_leaf() {
                        leftmost *= 2;
                    }
                    builder.leaf(id, self.leaf_classes[leftmost - self.first_leaf()])?;
                    continue;
                }
            };
            builder.split(id, split)?;
            stack.push(2 * id);
            stack.push(2 * id + 1);
        }
        let mut tree = builder.build()?;
        tree.recount(data.rows(), data.labels())?;
        Ok(tree)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::ThresholdMode;

    #[test]
    fn a_shallow_leaf_is_filled_and_routing_matches_the_tree() {
        let data = Dataset::from_parts(
            "test",
            vec!["x".into(), "y".into()],
            vec!["a".into(), "b".into(), "c".into()],
            (0..12)
                .map(|i| vec![f64::from(i % 4), f64::from(i / 4)])
                .collect(),
            (0..12).map(|i| (i * 7) % 3).collect(),
        )
        .expect("valid");
        let candidates = Candidates::new(&data, ThresholdMode::All);
        let mut builder =
            TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), 3).expect("depth");
        builder
            .split(
                1,
                Split::Axis {
                    feature: 1,
                    threshold: 0.5,
                },
            )
            .and_then(|b| b.leaf(2, 2))
            .and_then(|b| {
                b.split(
                    3,
                    Split::Axis {
                        feature: 0,
                        threshold: 2.5,
                    },
                )
            })
            .and_then(|b| b.leaf(6, 0))
            .and_then(|b| b.leaf(7, 1))
            .expect("nodes");
        let tree = builder.build().expect("valid");
        let full = FullTree::from_snapped(&tree, &candidates, 3, false).expect("full");
        assert_eq!(
            full.splits[0],
            NodeSplit::Threshold {
                feature: 1,
                index: 1
            }
        );
        assert_eq!(
            full.splits[2],
            NodeSplit::Threshold {
                feature: 0,
                index: 3
            }
        );
        // Node 2's leaf is filled with the first candidate of feature 0.
        assert_eq!(
            full.splits[1],
            NodeSplit::Threshold {
                feature: 0,
                index: 1
            }
        );
        assert_eq!(full.leaf_classes, vec![2, 2, 2, 2, 0, 0, 1, 1]);
        let decoded = full.to_tree(&data, &candidates).expect("tree");
        for (row, bins) in data.rows().iter().zip(&candidates.bins) {
            assert_eq!(decoded.leaf_of(row), full.leaf_of(bins));
            assert_eq!(decoded.predict_row(row), tree.predict_row(row));
        }
    }
}
