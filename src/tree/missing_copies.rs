//! The exact route to splits with a learned missing side, shared by every method.
//!
//! Each feature with missing values (`NaN`) enters the learners as two copies: in the low copy
//! a missing value is encoded below every observed value (`min - span`), in the high copy above
//! every one (`max + span`), `span` the observed range (1 for a constant feature). A threshold
//! on the low copy is the split `x <= t` with the missing rows sent left (or, below the
//! encoded value, every row right: the split that sends exactly the missing rows right); one
//! on the high copy is `x <= t` with the missing rows sent right (or, above it, the split that
//! sends exactly the missing rows left). So every split `x <= t` with either missing side is a
//! split over the copies and the other way round, and an optimal tree over the copies is an
//! optimal tree over splits with a missing side. [`MissingCopies::original_tree`] maps a tree
//! over the copies back to the original features with each split's [`MissingSide`], and checks
//! that it routes every training row to the same leaf. Features without missing values are
//! kept as they are: on data without missing values the copies are the data itself.

use crate::data::Dataset;
use crate::error::Result;
use crate::tree::{derived, MissingSide, Tree};

/// Where one feature of the copied data comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Source {
    /// The original feature.
    feature: usize,
    /// The value a missing cell has in this copy (`None`: the feature has no missing value).
    missing_at: Option<f64>,
}

/// The data with every feature that has missing values replaced by its two copies.
#[derive(Debug, Clone)]
pub struct MissingCopies {
    sources: Vec<Source>,
    data: Dataset,
}

impl MissingCopies {
    /// The copies of `data`, or `None` when it has no missing value (nothing to copy).
    pub fn of(data: &Dataset) -> Result<Option<MissingCopies>> {
        if !data.has_missing() {
            return Ok(None);
        }
        let names = &data.schema().features;
        let mut sources = Vec::new();
        let mut features = Vec::new();
        for (j, name) in names.iter().enumerate() {
            let column = data.feature_column(j);
            if !column.iter().any(|v| v.is_nan()) {
                sources.push(Source {
                    feature: j,
                    missing_at: None,
                });
                features.push(name.clone());
                continue;
            }
            let low = column.iter().copied().fold(f64::INFINITY, f64::min);
            let high = column.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let (low, high) = if low <= high { (low, high) } else { (0.0, 0.0) };
            let span = if high > low { high - low } else { 1.0 };
            for (missing_at, suffix) in [(low - span, "missing low"), (high + span, "missing high")]
            {
                sources.push(Source {
                    feature: j,
                    missing_at: Some(missing_at),
                });
                features.push(format!("{name} ({suffix})"));
            }
        }
        let rows = data
            .rows()
            .iter()
            .map(|row| encode(&sources, row))
            .collect();
        let copied = data.with_features(features, rows)?;
        Ok(Some(MissingCopies {
            sources,
            data: copied,
        }))
    }

    /// `row` (over the original features) over the copies: a missing value of a copied
    /// feature at its copy's place, any other value as it is.
    pub fn encode(&self, row: &[f64]) -> Vec<f64> {
        encode(&self.sources, row)
    }

    /// The data over the copies.
    pub fn data(&self) -> &Dataset {
        &self.data
    }

    /// The original feature of each feature of the copies, in order.
    pub fn origins(&self) -> Vec<usize> {
        self.sources.iter().map(|s| s.feature).collect()
    }

    /// `tree`, learned over the copies, over the original features of `original` (the data the
    /// copies were made of): each split on a copy becomes the same threshold on its feature,
    /// with the side its copy sends missing values to. Counted on `original`; fails (an
    /// internal error) unless it routes every row of `original` to the leaf the copied row
    /// reaches in `tree`.
    pub fn original_tree(&self, tree: &Tree, original: &Dataset) -> Result<Tree> {
        let split = |_: usize, feature: usize, threshold: f64| {
            let source = self.sources[feature];
            let side = source.missing_at.map(|at| {
                if at <= threshold {
                    MissingSide::Left
                } else {
                    MissingSide::Right
                }
            });
            (source.feature, side)
        };
        derived::map_back(
            tree,
            &self.data,
            original,
            &split,
            "the copies of the features with missing values",
        )
    }
}

fn encode(sources: &[Source], row: &[f64]) -> Vec<f64> {
    sources
        .iter()
        .map(|s| match (row[s.feature], s.missing_at) {
            (v, Some(at)) if v.is_nan() => at,
            (v, _) => v,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{Split, TreeBuilder};

    fn data(rows: Vec<Vec<f64>>, labels: Vec<usize>) -> Dataset {
        Dataset::from_parts(
            "test",
            vec!["a".into(), "b".into()],
            vec!["0".into(), "1".into()],
            rows,
            labels,
        )
        .expect("valid data")
    }

    #[test]
    fn no_missing_value_means_no_copies() {
        let d = data(vec![vec![1.0, 2.0], vec![3.0, 4.0]], vec![0, 1]);
        assert!(MissingCopies::of(&d).expect("copies").is_none());
    }

    #[test]
    fn a_feature_with_missing_values_becomes_two_copies() {
        let nan = f64::NAN;
        let d = data(
            vec![vec![1.0, nan], vec![3.0, 4.0], vec![2.0, 6.0]],
            vec![0, 1, 1],
        );
        let copies = MissingCopies::of(&d).expect("copies").expect("missing");
        assert_eq!(
            copies.data().schema().features,
            ["a", "b (missing low)", "b (missing high)"]
        );
        // b spans 4..6: missing at 4 - 2 and 6 + 2.
        assert_eq!(copies.data().rows()[0], vec![1.0, 2.0, 8.0]);
        assert_eq!(copies.data().rows()[1], vec![3.0, 4.0, 4.0]);
        // Only the missing row left: a threshold between the low copy's missing value and 4.
        let mut builder =
            TreeBuilder::new(copies.data().schema().clone(), d.classes().to_vec(), 1).unwrap();
        builder
            .split(
                1,
                Split::Axis {
                    feature: 1,
                    threshold: 3.0,
                },
            )
            .unwrap();
        builder.leaf(2, 0).unwrap().leaf(3, 1).unwrap();
        let mut tree = builder.build().unwrap();
        tree.recount(copies.data().rows(), copies.data().labels())
            .unwrap();
        let mapped = copies.original_tree(&tree, &d).expect("maps");
        assert_eq!(mapped.missing_side(1), Some(MissingSide::Left));
        assert_eq!(copies.origins(), vec![0, 1, 1]);
        assert_eq!(mapped.predict(d.rows()), vec![0, 1, 1]);
    }
}
