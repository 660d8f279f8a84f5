//! Learning without some features: the data with those feature columns left out, and the way
//! back from a tree over the kept features to one over every feature of the data.
//!
//! A tree that may not split on a set of features (the side constraint `forbidden`) is a tree
//! over the other features, so an exact search over the kept columns is exact for the
//! constrained problem. [`KeptFeatures::original_tree`] maps its tree back to the original
//! feature indexing (so a tree file, `predict` and `show` work on the original data) and checks
//! that it routes every training row to the same leaf.

use crate::data::Dataset;
use crate::error::Result;
use crate::tree::{derived, Tree};

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
        let features = kept.iter().map(|&j| names[j].clone()).collect();
        let rows = data
            .rows()
            .iter()
            .map(|row| kept.iter().map(|&j| row[j]).collect())
            .collect();
        let reduced = data.with_features(features, rows)?;
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
        let split = |id: usize, feature: usize, _: f64| (self.kept[feature], tree.missing_side(id));
        derived::map_back(
            tree,
            &self.data,
            original,
            &split,
            "the kept features of the data",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{NodeKind, Split, TreeBuilder};

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
