//! Snapping: mapping any axis-aligned tree of depth at most the model's onto a tree the BinOCT
//! model can express, whose every split uses a candidate threshold.
//!
//! Node by node, from the root:
//! - a leaf stays a leaf (the encoding fills the levels below it, see [`super::full_tree`]);
//! - a split `x_j <= t` with `t` in `[min_j, max_j)` of feature `j`'s training values and `j`
//!   usable keeps its feature and gets the candidate [`Candidates::snap`] gives: the threshold
//!   itself if it is a candidate, else the candidate that routes every training row alike (one
//!   always exists in mode `all`), else the nearest candidate (mode `class-boundary` only; the
//!   rows between the two thresholds change sides);
//! - any other split (a threshold outside the training values, or a feature without candidates)
//!   sends the training rows one way, which no split of the model does: it becomes the model's
//!   filler split ([`Candidates::filler`]) with two copies of the child that receives the rows,
//!   so every training row still reaches a leaf of the same class.
//!
//! So in mode `all` snapping never changes a training prediction; in mode `class-boundary` it
//! can. The snapped tree keeps the original's `learned_by`.

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::tree::{NodeKind, Split, Tree, TreeBuilder};

use super::candidates::{Candidates, SnappedThreshold};

/// Checks that `tree` is over `data`'s features and classes, axis-aligned, and no deeper than
/// `depth`.
pub fn check_tree(tree: &Tree, data: &Dataset, depth: usize) -> Result<()> {
    if tree.features() != data.schema().features.as_slice() {
        return Err(Error::TreeMismatch(format!(
            "the tree's features ({}) are not the data's ({})",
            tree.features().join(", "),
            data.schema().features.join(", ")
        )));
    }
    if tree.classes() != data.classes() {
        return Err(Error::TreeMismatch(format!(
            "the tree's classes ({}) are not the data's ({})",
            tree.classes().join(", "),
            data.classes().join(", ")
        )));
    }
    if tree.actual_depth() > depth {
        return Err(Error::parameter(
            "warm start",
            format!(
                "the tree has depth {}, deeper than the model's {depth}",
                tree.actual_depth()
            ),
        ));
    }
    if let Some((id, _)) = tree
        .nodes()
        .find(|(_, node)| matches!(node.kind, NodeKind::Split(Split::Oblique { .. })))
    {
        return Err(Error::parameter(
            "warm start",
            format!("node {id} is an oblique split; BinOCT expresses axis-aligned splits only"),
        ));
    }
    Ok(())
}

struct Snapper<'a> {
    source: &'a Tree,
    data: &'a Dataset,
    candidates: &'a Candidates,
    filler: Split,
    builder: TreeBuilder,
    notes: Vec<String>,
}

impl Snapper<'_> {
    /// Places the snapped subtree of the source's node `from` at node `to`.
    fn place(&mut self, from: usize, to: usize) -> Result<()> {
        let kind = match self.source.node(from) {
            Some(node) => node.kind.clone(),
            None => {
                return Err(Error::Internal(format!(
                    "snapping: node {from} of a validated tree is missing"
                )))
            }
        };
        match kind {
            NodeKind::Leaf { class } => {
                self.builder.leaf(to, class)?;
            }
            NodeKind::Split(Split::Axis { feature, threshold }) => {
                match self.candidates.snap(feature, threshold) {
                    SnappedThreshold::Candidate(candidate) => {
                        if candidate != threshold {
                            self.notes.push(format!(
                                "split {from} ({} <= {threshold}) uses the candidate threshold \
                                 {candidate}",
                                self.data.schema().features[feature]
                            ));
                        }
                        self.builder.split(
                            to,
                            Split::Axis {
                                feature,
                                threshold: candidate,
                            },
                        )?;
                        self.place(2 * from, 2 * to)?;
                        self.place(2 * from + 1, 2 * to + 1)?;
                    }
                    SnappedThreshold::Inexpressible { receiving_left } => {
                        let side = if receiving_left { "left" } else { "right" };
                        self.notes.push(format!(
                            "split {from} ({} <= {threshold}) has no candidate threshold that \
                             separates the same rows; it becomes the filler split with two \
                             copies of its {side} child",
                            self.data.schema().features[feature]
                        ));
                        self.builder.split(to, self.filler.clone())?;
                        let receiving = if receiving_left {
                            2 * from
                        } else {
                            2 * from + 1
                        };
                        self.place(receiving, 2 * to)?;
                        self.place(receiving, 2 * to + 1)?;
                    }
                }
            }
            NodeKind::Split(Split::Oblique { .. }) => {
                return Err(Error::parameter(
                    "warm start",
                    format!(
                        "node {from} is an oblique split; BinOCT expresses axis-aligned splits only"
                    ),
                ))
            }
        }
        Ok(())
    }
}

/// The tree the model expresses for `tree` (see the module documentation), as a tree of depth
/// `depth` with counts recomputed on `data`, and notes on what changed.
pub fn snap_tree(
    tree: &Tree,
    data: &Dataset,
    candidates: &Candidates,
    depth: usize,
) -> Result<(Tree, Vec<String>)> {
    check_tree(tree, data, depth)?;
    let filler = candidates
        .filler()
        .ok_or_else(|| Error::input(data.source(), "the data has no features"))?;
    let mut snapper = Snapper {
        source: tree,
        data,
        candidates,
        filler,
        builder: TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), depth)?,
        notes: Vec::new(),
    };
    snapper.place(1, 1)?;
    let mut snapped = snapper.builder.build()?;
    snapped.recount(data.rows(), data.labels())?;
    snapped.learned_by = tree.learned_by.clone();
    Ok((snapped, snapper.notes))
}

/// `tree` with every split that sends all of `data`'s rows reaching it one way replaced by
/// the child receiving them (a split whose node no row reaches keeps its left child), and
/// notes on what changed: the tree a leaf penalty prefers, with the same predictions on
/// `data`.
pub fn without_one_sided_splits(tree: &Tree, data: &Dataset) -> Result<(Tree, Vec<String>)> {
    let mut counted = tree.clone();
    counted.recount(data.rows(), data.labels())?;
    let mut builder =
        TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), tree.depth())?;
    if let Some(standardisation) = tree.standardisation() {
        builder = builder.standardisation(standardisation.clone());
    }
    let mut notes = Vec::new();
    let mut stack = vec![(1usize, 1usize)];
    while let Some((from, to)) = stack.pop() {
        let node = counted.node(from).ok_or_else(|| {
            Error::Internal(format!("node {from} of a validated tree is missing"))
        })?;
        match &node.kind {
            NodeKind::Leaf { class } => {
                builder.leaf(to, *class)?;
            }
            NodeKind::Split(split) => {
                let rows = |id: usize| counted.node(id).map_or(0, |n| n.rows());
                let (left, right) = (rows(2 * from), rows(2 * from + 1));
                if left > 0 && right > 0 {
                    builder.split(to, split.clone())?;
                    stack.push((2 * from, 2 * to));
                    stack.push((2 * from + 1, 2 * to + 1));
                } else {
                    let kept = if right > 0 { 2 * from + 1 } else { 2 * from };
                    notes.push(format!(
                        "split {from} sends every training row that reaches it one way; its \
                         child {kept} takes its place"
                    ));
                    stack.push((kept, to));
                }
            }
        }
    }
    let mut pruned = builder.build()?;
    pruned.recount(data.rows(), data.labels())?;
    pruned.learned_by = tree.learned_by.clone();
    Ok((pruned, notes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::ThresholdMode;

    fn data() -> Dataset {
        Dataset::from_parts(
            "test",
            vec!["x".into(), "y".into()],
            vec!["a".into(), "b".into()],
            vec![
                vec![0.0, 3.0],
                vec![1.0, 3.0],
                vec![2.0, 3.0],
                vec![3.0, 3.0],
            ],
            vec![0, 1, 1, 0],
        )
        .expect("valid test data")
    }

    fn tree(
        data: &Dataset,
        depth: usize,
        splits: &[(usize, Split)],
        leaves: &[(usize, usize)],
    ) -> Tree {
        let mut builder =
            TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), depth).expect("depth");
        for (id, split) in splits {
            builder.split(*id, split.clone()).expect("node");
        }
        for &(id, class) in leaves {
            builder.leaf(id, class).expect("node");
        }
        builder.build().expect("a valid tree")
    }

    #[test]
    fn candidates_are_kept_and_others_snapped() {
        let d = data();
        let c = Candidates::new(&d, ThresholdMode::All);
        let t = tree(
            &d,
            2,
            &[
                (
                    1,
                    Split::Axis {
                        feature: 0,
                        threshold: 1.2,
                    },
                ),
                (
                    3,
                    Split::Axis {
                        feature: 0,
                        threshold: 2.5,
                    },
                ),
            ],
            &[(2, 0), (6, 1), (7, 0)],
        );
        let (s, _) = snap_tree(&t, &d, &c, 2).expect("snaps");
        assert_eq!(
            s.node(1).map(|n| n.kind.clone()),
            Some(NodeKind::Split(Split::Axis {
                feature: 0,
                threshold: 1.5
            }))
        );
        assert_eq!(
            s.node(3).map(|n| n.kind.clone()),
            Some(NodeKind::Split(Split::Axis {
                feature: 0,
                threshold: 2.5
            }))
        );
        assert_eq!(s.predict(d.rows()), t.predict(d.rows()));
    }

    #[test]
    fn one_sided_splits_become_fillers_over_copies() {
        let d = data();
        let c = Candidates::new(&d, ThresholdMode::All);
        // y is constant: every row goes left at the root; x <= 9 sends every row left too.
        let t = tree(
            &d,
            2,
            &[
                (
                    1,
                    Split::Axis {
                        feature: 1,
                        threshold: 3.0,
                    },
                ),
                (
                    2,
                    Split::Axis {
                        feature: 0,
                        threshold: 1.5,
                    },
                ),
                (
                    3,
                    Split::Axis {
                        feature: 0,
                        threshold: 9.0,
                    },
                ),
            ],
            &[(4, 0), (5, 1), (6, 1), (7, 0)],
        );
        let (s, _) = snap_tree(&t, &d, &c, 2).expect("snaps");
        let kind = |id: usize| s.node(id).map(|n| n.kind.clone());
        let filler = NodeKind::Split(Split::Axis {
            feature: 0,
            threshold: 0.5,
        });
        assert_eq!(kind(1), Some(filler));
        // Both children are copies of the old left child.
        let old_left = NodeKind::Split(Split::Axis {
            feature: 0,
            threshold: 1.5,
        });
        assert_eq!(kind(2), Some(old_left.clone()));
        assert_eq!(kind(3), Some(old_left));
        let leaf = |class| Some(NodeKind::Leaf { class });
        assert_eq!(
            [kind(4), kind(5), kind(6), kind(7)],
            [leaf(0), leaf(1), leaf(0), leaf(1)]
        );
        assert_eq!(s.predict(d.rows()), t.predict(d.rows()));
    }

    #[test]
    fn mismatching_trees_are_errors() {
        let d = data();
        let c = Candidates::new(&d, ThresholdMode::All);
        let deep = tree(
            &d,
            2,
            &[
                (
                    1,
                    Split::Axis {
                        feature: 0,
                        threshold: 0.5,
                    },
                ),
                (
                    3,
                    Split::Axis {
                        feature: 0,
                        threshold: 1.5,
                    },
                ),
            ],
            &[(2, 0), (6, 1), (7, 0)],
        );
        let err = snap_tree(&deep, &d, &c, 1).expect_err("too deep");
        assert!(err.to_string().contains("depth 2"), "{err}");
        let other = d
            .relabelled(vec!["p".into(), "q".into()], d.labels().to_vec())
            .expect("same labels");
        let err = snap_tree(&deep, &other, &c, 2).expect_err("other classes");
        assert!(err.to_string().contains("classes"), "{err}");
    }
}
