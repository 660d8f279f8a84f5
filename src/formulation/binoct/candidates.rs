//! The candidate thresholds a BinOCT model is built over, each training row's bin for every
//! feature, and how one split threshold of another tree maps onto the candidates.
//!
//! A feature is *usable* when it has at least one candidate threshold. Every candidate lies in
//! `[min, max)` of the feature's training values, so every split the model can express sends the
//! smallest value left and the largest right: a threshold outside that range, or on a feature
//! without candidates, cannot be expressed (see [`SnappedThreshold::Inexpressible`]).

use crate::data::{candidate_thresholds, Dataset, ThresholdMode};
use crate::tree::Split;

use super::ranges::{bin_of, bits_needed};

/// What a split threshold of another tree becomes in the model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SnappedThreshold {
    /// This candidate (the threshold itself when it is a candidate).
    Candidate(f64),
    /// No candidate of the feature can stand for it; the training rows go to this side (to the
    /// left when they go both ways, which happens only on a feature without candidates).
    Inexpressible { receiving_left: bool },
}

/// Candidate thresholds and bins of one dataset.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidates {
    /// The thresholds of each feature, increasing.
    pub thresholds: Vec<Vec<f64>>,
    /// `bins[r][j]`: the bin of row `r` for feature `j`.
    pub bins: Vec<Vec<usize>>,
    /// The distinct training values of each feature, increasing.
    distinct: Vec<Vec<f64>>,
}

impl Candidates {
    /// The candidates of `mode` for every feature of `data`, and the rows' bins.
    pub fn new(data: &Dataset, mode: ThresholdMode) -> Candidates {
        let thresholds: Vec<Vec<f64>> = (0..data.n_features())
            .map(|j| candidate_thresholds(&data.feature_column(j), data.labels(), mode))
            .collect();
        let bins = data
            .rows()
            .iter()
            .map(|row| {
                row.iter()
                    .zip(&thresholds)
                    .map(|(&value, ts)| bin_of(value, ts))
                    .collect()
            })
            .collect();
        let distinct = (0..data.n_features())
            .map(|j| {
                let mut values = data.feature_column(j);
                values.sort_by(f64::total_cmp);
                values.dedup();
                values
            })
            .collect();
        Candidates {
            thresholds,
            bins,
            distinct,
        }
    }

    /// Number of features.
    pub fn n_features(&self) -> usize {
        self.thresholds.len()
    }

    /// `T_f`, the number of candidates of `feature`.
    pub fn count(&self, feature: usize) -> usize {
        self.thresholds[feature].len()
    }

    /// The features with at least one candidate, increasing.
    pub fn usable(&self) -> Vec<usize> {
        (0..self.n_features())
            .filter(|&j| self.count(j) > 0)
            .collect()
    }

    /// `T_max`, the largest number of candidates of a feature.
    pub fn max_count(&self) -> usize {
        (0..self.n_features())
            .map(|j| self.count(j))
            .max()
            .unwrap_or(0)
    }

    /// The number of search bits every node shares: `ceil(log2 T_max)`.
    pub fn n_bits(&self) -> usize {
        bits_needed(self.max_count())
    }

    /// The rows in each bin of `feature`: `rows_by_bin(f)[j]` lists, increasing, the rows whose bin
    /// is `j` (`0..=T_f`).
    pub fn rows_by_bin(&self, feature: usize) -> Vec<Vec<usize>> {
        let mut rows = vec![Vec::new(); self.count(feature) + 1];
        for (r, bins) in self.bins.iter().enumerate() {
            rows[bins[feature]].push(r);
        }
        rows
    }

    /// The 1-based index of `threshold` among the candidates of `feature`, if it is one.
    pub fn index_of(&self, feature: usize, threshold: f64) -> Option<usize> {
        self.thresholds[feature]
            .iter()
            .position(|&t| t == threshold)
            .map(|i| i + 1)
    }

    /// Candidate `index` (1-based) of `feature`.
    pub fn threshold(&self, feature: usize, index: usize) -> f64 {
        self.thresholds[feature][index - 1]
    }

    /// The split the model uses where a split carries no information: the smallest candidate of
    /// the first usable feature, or, when no feature has a candidate, a split on feature 0 at its
    /// largest training value (every row goes left, as the model then forces). `None` for data
    /// without features.
    pub fn filler(&self) -> Option<Split> {
        if let Some(&feature) = self.usable().first() {
            return Some(Split::Axis {
                feature,
                threshold: self.thresholds[feature][0],
            });
        }
        let largest = self.distinct.first()?.last().copied().unwrap_or(0.0);
        Some(Split::Axis {
            feature: 0,
            threshold: largest,
        })
    }

    /// How many distinct training values of `feature` are `<= threshold` (which fixes how the
    /// split routes the training rows).
    fn values_at_or_below(&self, feature: usize, threshold: f64) -> usize {
        self.distinct[feature].partition_point(|&v| v <= threshold)
    }

    /// The candidate standing for the split `x[feature] <= threshold`: the candidate that routes
    /// every training row as the threshold does when there is one (the threshold itself when it
    /// is a candidate; always one in mode `all` for a threshold between the smallest and the
    /// largest value), otherwise the nearest candidate (the lower one on a tie).
    pub fn snap(&self, feature: usize, threshold: f64) -> SnappedThreshold {
        let candidates = &self.thresholds[feature];
        let values = &self.distinct[feature];
        let (Some(&smallest), Some(&largest)) = (values.first(), values.last()) else {
            return SnappedThreshold::Inexpressible {
                receiving_left: true,
            };
        };
        if threshold >= largest {
            return SnappedThreshold::Inexpressible {
                receiving_left: true,
            };
        }
        if threshold < smallest {
            return SnappedThreshold::Inexpressible {
                receiving_left: false,
            };
        }
        if candidates.is_empty() {
            return SnappedThreshold::Inexpressible {
                receiving_left: true,
            };
        }
        let below = self.values_at_or_below(feature, threshold);
        let first_not_below =
            candidates.partition_point(|&t| self.values_at_or_below(feature, t) < below);
        if let Some(&same) = candidates.get(first_not_below) {
            if self.values_at_or_below(feature, same) == below {
                return SnappedThreshold::Candidate(same);
            }
        }
        let nearest = candidates
            .iter()
            .copied()
            .min_by(|a, b| {
                (a - threshold)
                    .abs()
                    .total_cmp(&(b - threshold).abs())
                    .then(a.total_cmp(b))
            })
            .unwrap_or(candidates[0]);
        SnappedThreshold::Candidate(nearest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(columns: &[&[f64]], labels: &[usize]) -> Dataset {
        let n = labels.len();
        Dataset::from_parts(
            "test",
            (0..columns.len()).map(|j| format!("x{j}")).collect(),
            vec!["a".into(), "b".into()],
            (0..n)
                .map(|i| columns.iter().map(|c| c[i]).collect())
                .collect(),
            labels.to_vec(),
        )
        .expect("valid test data")
    }

    #[test]
    fn bins_counts_and_usable_features() {
        let d = data(
            &[&[0.0, 1.0, 2.0, 3.0], &[5.0, 5.0, 5.0, 5.0]],
            &[0, 0, 1, 1],
        );
        let all = Candidates::new(&d, ThresholdMode::All);
        assert_eq!(all.thresholds[0], vec![0.5, 1.5, 2.5]);
        assert_eq!(all.usable(), vec![0]);
        assert_eq!((all.max_count(), all.n_bits()), (3, 2));
        assert_eq!(
            all.bins,
            vec![vec![0, 0], vec![1, 0], vec![2, 0], vec![3, 0]]
        );
        let boundary = Candidates::new(&d, ThresholdMode::ClassBoundary);
        assert_eq!(boundary.thresholds[0], vec![1.5]);
        assert_eq!((boundary.max_count(), boundary.n_bits()), (1, 0));
        assert_eq!(boundary.index_of(0, 1.5), Some(1));
        assert_eq!(boundary.index_of(0, 1.4), None);
    }

    #[test]
    fn snapping_keeps_the_routing_when_a_candidate_has_it() {
        let d = data(&[&[0.0, 1.0, 2.0, 3.0, 4.0]], &[0, 0, 1, 1, 0]);
        let all = Candidates::new(&d, ThresholdMode::All);
        // 1.1 routes like 1.5: values 0 and 1 go left.
        assert_eq!(all.snap(0, 1.1), SnappedThreshold::Candidate(1.5));
        // 1.9 routes like 1.5 although 2.5 is nearer.
        assert_eq!(all.snap(0, 1.9), SnappedThreshold::Candidate(1.5));
        // A value itself routes like the candidate just above it.
        assert_eq!(all.snap(0, 2.0), SnappedThreshold::Candidate(2.5));
        assert_eq!(all.snap(0, 2.5), SnappedThreshold::Candidate(2.5));
        // Outside [min, max) no split of the model routes like it.
        assert_eq!(
            all.snap(0, 4.0),
            SnappedThreshold::Inexpressible {
                receiving_left: true
            }
        );
        assert_eq!(
            all.snap(0, -0.1),
            SnappedThreshold::Inexpressible {
                receiving_left: false
            }
        );
    }

    #[test]
    fn class_boundary_snaps_to_the_nearest_candidate() {
        // Values 0,1 class a; 2,3 class b; 4 class a: candidates 1.5 and 3.5.
        let d = data(&[&[0.0, 1.0, 2.0, 3.0, 4.0]], &[0, 0, 1, 1, 0]);
        let boundary = Candidates::new(&d, ThresholdMode::ClassBoundary);
        assert_eq!(boundary.thresholds[0], vec![1.5, 3.5]);
        assert_eq!(boundary.snap(0, 0.5), SnappedThreshold::Candidate(1.5));
        assert_eq!(boundary.snap(0, 2.4), SnappedThreshold::Candidate(1.5));
        assert_eq!(boundary.snap(0, 2.6), SnappedThreshold::Candidate(3.5));
        // A tie goes to the lower candidate.
        assert_eq!(boundary.snap(0, 2.5), SnappedThreshold::Candidate(1.5));
    }

    #[test]
    fn fillers() {
        let d = data(&[&[7.0, 7.0, 7.0], &[0.0, 1.0, 2.0]], &[0, 1, 0]);
        let all = Candidates::new(&d, ThresholdMode::All);
        assert_eq!(
            all.filler(),
            Some(Split::Axis {
                feature: 1,
                threshold: 0.5
            })
        );
        let constant = data(&[&[7.0, 7.0, 7.0]], &[0, 1, 0]);
        let none = Candidates::new(&constant, ThresholdMode::All);
        assert!(none.usable().is_empty());
        assert_eq!(
            none.filler(),
            Some(Split::Axis {
                feature: 0,
                threshold: 7.0
            })
        );
        assert_eq!(
            none.snap(0, 3.0),
            SnappedThreshold::Inexpressible {
                receiving_left: false
            }
        );
    }
}
