//! The data as the search sees it: every feature with at least one candidate threshold mapped
//! to ordinal bins (a row's bin is the number of thresholds below its value, so a split at
//! threshold index `b` sends the rows with bin `<= b` left), class labels, and each feature's
//! rows sorted by bin, and each row's multiplicity when rows count more than once. No
//! floating-point value is touched after this.

use crate::data::{candidate_thresholds, Dataset, ThresholdMode};
use crate::tree::Split;

/// One row in a feature's sorted list: the row and its bin for that feature.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Element {
    pub row: u32,
    pub bin: u32,
}

/// Every row's class and multiplicity, as the scans read them ([`Binned::row_counts`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RowCounts<'a> {
    pub labels: &'a [u16],
    /// How many times each row counts (empty: once each).
    pub multiplicities: &'a [u32],
}

impl RowCounts<'_> {
    /// How many times `row` counts.
    #[inline]
    pub fn multiplicity(&self, row: usize) -> u32 {
        self.multiplicities.get(row).copied().unwrap_or(1)
    }
}

/// The binned training data.
#[derive(Debug, Clone)]
pub(crate) struct Binned {
    pub n_rows: usize,
    pub n_classes: usize,
    /// For each searched feature, its index among the dataset's features.
    pub data_feature: Vec<usize>,
    /// For each searched feature, its candidate thresholds in increasing order.
    pub thresholds: Vec<Vec<f64>>,
    /// Class index of every row.
    pub labels: Vec<u16>,
    /// How many times each row counts (a whole-number row weight); empty when every row
    /// counts once.
    pub multiplicities: Vec<u32>,
    /// For each searched feature, every row sorted by (bin, row).
    pub sorted: Vec<Vec<Element>>,
}

impl Binned {
    /// The split `x_j <= t` of searched feature `feature` at threshold bin `bin`, on the data's
    /// feature and with the threshold's value.
    pub fn split(&self, feature: u32, bin: u32) -> Split {
        let f = feature as usize;
        Split::Axis {
            feature: self.data_feature[f],
            threshold: self.thresholds[f][bin as usize],
        }
    }

    /// Bins `data` with the thresholds of `mode`, each row its weight's number of times: the
    /// weights must be whole numbers below 2^32 (the caller checks them; see
    /// [`Binned::new`] for the rest).
    pub fn counting_weights(data: &Dataset, mode: ThresholdMode) -> Binned {
        let mut binned = Binned::new(data, mode);
        if let Some(weights) = data.weights().filter(|w| w.iter().any(|&w| w != 1.0)) {
            debug_assert!(weights
                .iter()
                .all(|&w| w.fract() == 0.0 && w <= u32::MAX as f64));
            binned.multiplicities = weights.iter().map(|&w| w as u32).collect();
        }
        binned
    }

    /// How many times `row` counts.
    #[inline]
    pub fn multiplicity(&self, row: usize) -> u32 {
        self.row_counts().multiplicity(row)
    }

    /// Every row's class and multiplicity.
    #[inline]
    pub fn row_counts(&self) -> RowCounts<'_> {
        RowCounts {
            labels: &self.labels,
            multiplicities: &self.multiplicities,
        }
    }

    /// Whether some row counts more (or less) than once.
    #[inline]
    pub fn multiplies(&self) -> bool {
        !self.multiplicities.is_empty()
    }

    /// Bins `data` with the thresholds of `mode`, each row once (row weights are not read);
    /// features without a threshold are left out.
    pub fn new(data: &Dataset, mode: ThresholdMode) -> Binned {
        let n_rows = data.n_rows();
        let labels_usize = data.labels();
        let mut data_feature = Vec::new();
        let mut thresholds = Vec::new();
        let mut sorted = Vec::new();
        for j in 0..data.n_features() {
            let values = data.feature_column(j);
            let candidates = candidate_thresholds(&values, labels_usize, mode);
            if candidates.is_empty() {
                continue;
            }
            let bins: Vec<u32> = values
                .iter()
                .map(|&x| candidates.partition_point(|&t| t < x) as u32)
                .collect();
            sorted.push(counting_sort(&bins, candidates.len() + 1));
            data_feature.push(j);
            thresholds.push(candidates);
        }
        Binned {
            n_rows,
            n_classes: data.n_classes(),
            data_feature,
            thresholds,
            labels: labels_usize.iter().map(|&l| l as u16).collect(),
            multiplicities: Vec::new(),
            sorted,
        }
    }

    /// Number of searched features.
    pub fn n_features(&self) -> usize {
        self.sorted.len()
    }
}

/// The threshold bin between two adjacent bins of a sorted list: the middle candidate.
#[inline]
pub(crate) fn split_bin(low: u32, high: u32) -> u32 {
    low + (high - 1 - low) / 2
}

/// Rows sorted by bin, ties by row index.
fn counting_sort(bins: &[u32], n_bins: usize) -> Vec<Element> {
    let mut start = vec![0usize; n_bins + 1];
    for &b in bins {
        start[b as usize + 1] += 1;
    }
    for b in 0..n_bins {
        start[b + 1] += start[b];
    }
    let mut out = vec![Element::default(); bins.len()];
    for (row, &b) in bins.iter().enumerate() {
        out[start[b as usize]] = Element {
            row: row as u32,
            bin: b,
        };
        start[b as usize] += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rows_bin_counts_the_thresholds_below_its_value() {
        let data = Dataset::from_parts(
            "t",
            vec!["x".into(), "constant".into()],
            vec!["a".into(), "b".into()],
            vec![
                vec![3.0, 1.0],
                vec![1.0, 1.0],
                vec![2.0, 1.0],
                vec![1.0, 1.0],
            ],
            vec![0, 1, 0, 1],
        )
        .expect("valid");
        let binned = Binned::new(&data, ThresholdMode::All);
        assert_eq!(binned.data_feature, vec![0]);
        assert_eq!(binned.thresholds, vec![vec![1.5, 2.5]]);
        let order: Vec<(u32, u32)> = binned.sorted[0].iter().map(|e| (e.row, e.bin)).collect();
        assert_eq!(order, vec![(1, 0), (3, 0), (2, 1), (0, 2)]);
    }
}
