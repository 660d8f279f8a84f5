//! Learning without some features: the data with those feature columns left out, and the way
//! back from a tree over the kept features to one over every feature of the data.
//!
//! A tree that may not split on a set of features (the side constraint `forbidden`) is a tree
//! over the other features, so an exact search over the kept columns is exact for the
//! constrained problem. [`KeptFeatures::original_tree`] maps its tree back to the original
//! feature indexing (so a tree file, `predict` and `show` work on the original data) and checks
//! that it routes every training row to the same leaf.

use crate::data::{Dataset, Schema};
use crate::error::{Error, Result};
use crate::tree::{NodeKind, Split, Tree, TreeBuilder};

/// The data with some feature columns left out.
#[derive(Debug, Clone)]
pub struct KeptFeatures {
    /// The original index of each kept feature, in order.
    kept: Vec<usize>,
    data: Dataset,
}

impl KeptFeatures {
    /// `data` without the features `j` with `dropped[j]` (a feature beyond `dropped` is kept).
    pub fn of(data: &Dataset, dropped: &[bool]) -> Result<KeptFeatures> {
        let names = &data.schema().features;
        let kept: Vec<usize> = (0..names.len())
            .filter(|&j| !dropped.get(j).copied().unwrap_or(false))
            .collect();
        let schema = Schema {
            columns: data.schema().columns.clone(),
            target: data.schema().target.clone(),
            features: kept.iter().map(|&j| names[j].clone()).collect(),
        };
        let rows = data
            .rows()
            .iter()
            .map(|row| kept.iter().map(|&j| row[j]).collect())
            .collect();
        let reduced = Dataset::with_schema(
            data.source(),
            schema,
            data.classes().to_vec(),
            rows,
            data.labels().to_vec(),
        )?;
        let reduced = match data.weights() {
            Some(weights) => reduced.with_weights(weights.to_vec())?,
            None => reduced,
        };
        Ok(KeptFeatures {
            kept,
            data: reduced,
        })
    }

    /// The data over the kept features.
    pub fn data(&self) -> &Dataset {
        &self.data
    }

    /// `tree`, learned over the kept features, over every feature of `original` (the data the
    /// kept features were taken from), counted on `original`. Fails (an internal error) on a
    /// tree over other features, on an oblique split, or unless the mapped tree routes every
    /// row to the leaf its reduced row reaches in `tree`.
    pub fn original_tree(&self, tree: &Tree, original: &Dataset) -> Result<Tree> {
        if tree.features() != self.data.schema().features.as_slice() {
            return Err(Error::Internal(
                "a tree over other features than the kept features of the data".into(),
            ));
        }
        let mut builder = TreeBuilder::new(
            original.schema().clone(),
            tree.classes().to_vec(),
            tree.depth(),
        )?;
        for (id, node) in tree.nodes() {
            match &node.kind {
                NodeKind::Leaf { class } => {
                    builder.leaf(id, *class)?;
                }
                NodeKind::Split(Split::Axis { feature, threshold }) => {
                    builder.split(
                        id,
                        Split::Axis {
                            feature: self.kept[*feature],
                            threshold: *threshold,
                        },
                    )?;
                    if let Some(side) = tree.missing_side(id) {
                        builder.missing_side(id, side)?;
                    }
                }
                NodeKind::Split(Split::Oblique { .. }) => {
                    return Err(Error::Internal(
                        "an oblique split over a subset of the features".into(),
                    ))
                }
            }
        }
        let mut mapped = builder.build()?;
        mapped.learned_by = tree.learned_by.clone();
        mapped.provenance = tree.provenance.clone();
        mapped.recount(original.rows(), original.labels())?;
        let same_leaves = original
            .rows()
            .iter()
            .zip(self.data.rows())
            .all(|(row, reduced)| mapped.leaf_of(row) == tree.leaf_of(reduced));
        if !same_leaves {
            return Err(Error::Internal(
                "the tree mapped back from the kept features routes a row to another leaf".into(),
            ));
        }
        Ok(mapped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_over_the_kept_features_maps_back_to_every_feature() {
        let data = Dataset::from_parts(
            "test",
            vec!["a".into(), "b".into(), "c".into()],
            vec!["0".into(), "1".into()],
            vec![
                vec![1.0, 5.0, 0.0],
                vec![2.0, 6.0, 1.0],
                vec![3.0, 7.0, 0.0],
            ],
            vec![0, 1, 1],
        )
        .expect("valid data");
        let kept = KeptFeatures::of(&data, &[true, false]).expect("kept");
        assert_eq!(kept.data().schema().features, vec!["b", "c"]);
        assert_eq!(kept.data().rows()[1], vec![6.0, 1.0]);
        let mut builder =
            TreeBuilder::new(kept.data().schema().clone(), data.classes().to_vec(), 1)
                .expect("builder");
        builder
            .split(
                1,
                Split::Axis {
                    feature: 0,
                    threshold: 5.5,
                },
            )
            .expect("split");
        builder.leaf(2, 0).expect("leaf");
        builder.leaf(3, 1).expect("leaf");
        let tree = builder.build().expect("tree");
        let mapped = kept.original_tree(&tree, &data).expect("maps back");
        assert_eq!(
            mapped.node(1).map(|n| n.kind.clone()),
            Some(NodeKind::Split(Split::Axis {
                feature: 1,
                threshold: 5.5
            }))
        );
        assert_eq!(mapped.predict(data.rows()), vec![0, 1, 1]);
        let over_all = kept.original_tree(&mapped, &data);
        assert!(
            over_all.is_err(),
            "a tree over every feature is not over the kept ones"
        );
    }
}
