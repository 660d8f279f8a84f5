//! Candidate split thresholds of a feature.
//!
//! A split `x_j <= t` sends a row left (scikit-learn's convention, used everywhere in milptree).
//! The candidates are the midpoints between consecutive distinct training values of the
//! feature (mode `all`). Mode `class-boundary` keeps only the midpoints between two adjacent
//! value groups that are not both made of one and the same single class (BinOCT's reduction):
//! no split between two such groups can separate anything a neighbouring split could not.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::data::Dataset;
use crate::error::Error;

/// Which midpoints are candidate thresholds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ThresholdMode {
    /// Every midpoint between consecutive distinct values.
    #[default]
    All,
    /// Only midpoints between value groups that are not one and the same single class.
    ClassBoundary,
}

impl fmt::Display for ThresholdMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ThresholdMode::All => "all",
            ThresholdMode::ClassBoundary => "class-boundary",
        })
    }
}

impl FromStr for ThresholdMode {
    type Err = Error;
    fn from_str(text: &str) -> Result<Self, Error> {
        match text {
            "all" => Ok(ThresholdMode::All),
            "class-boundary" => Ok(ThresholdMode::ClassBoundary),
            other => Err(Error::parameter(
                "--thresholds",
                format!("`{other}` is not one of: all, class-boundary"),
            )),
        }
    }
}

/// The threshold between two consecutive distinct values `low < high`: their midpoint, written
/// with the fewest significant digits that keep it within 1% of the gap from the exact midpoint
/// (2.155 rather than 2.1550000000000002), and always with `low <= t < high` in floating point,
/// so it separates the two values exactly as the midpoint does.
pub fn midpoint(low: f64, high: f64) -> f64 {
    let exact = low + (high - low) / 2.0;
    let exact = if exact >= high || exact < low {
        low
    } else {
        exact
    };
    let tolerance = (high - low) * 0.01;
    for precision in 0..17 {
        let Ok(short) = format!("{exact:.precision$e}").parse::<f64>() else {
            continue;
        };
        if low <= short && short < high && (short - exact).abs() <= tolerance {
            return short;
        }
    }
    exact
}

/// The candidate thresholds of one feature, in increasing order, from its `values` and the
/// class `labels` of the same rows.
pub fn candidate_thresholds(values: &[f64], labels: &[usize], mode: ThresholdMode) -> Vec<f64> {
    let mut pairs: Vec<(f64, usize)> = values.iter().copied().zip(labels.iter().copied()).collect();
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    // Group equal values; remember for each group its value and its single class, if it has one.
    let mut groups: Vec<(f64, Option<usize>)> = Vec::new();
    for (value, label) in pairs {
        match groups.last_mut() {
            Some((group_value, single)) if *group_value == value => {
                if *single != Some(label) {
                    *single = None;
                }
            }
            _ => groups.push((value, Some(label))),
        }
    }
    groups
        .windows(2)
        .filter(|pair| match mode {
            ThresholdMode::All => true,
            ThresholdMode::ClassBoundary => !(pair[0].1.is_some() && pair[0].1 == pair[1].1),
        })
        .map(|pair| midpoint(pair[0].0, pair[1].0))
        .collect()
}

/// The candidate thresholds of every feature of a dataset.
pub fn feature_thresholds(dataset: &Dataset, mode: ThresholdMode) -> Vec<Vec<f64>> {
    (0..dataset.n_features())
        .map(|j| candidate_thresholds(&dataset.feature_column(j), &dataset.labels, mode))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper's Example 1: values 0..8 with classes + + + - - + - + +.
    #[test]
    fn class_boundary_keeps_the_four_thresholds_of_binoct_example_1() {
        let values: Vec<f64> = (0..9).map(f64::from).collect();
        let labels = [1, 1, 1, 0, 0, 1, 0, 1, 1];
        assert_eq!(
            candidate_thresholds(&values, &labels, ThresholdMode::ClassBoundary),
            vec![2.5, 4.5, 5.5, 6.5]
        );
        assert_eq!(
            candidate_thresholds(&values, &labels, ThresholdMode::All).len(),
            8
        );
    }

    #[test]
    fn mixed_groups_always_bound_a_threshold() {
        // Value 1 holds both classes: both of its neighbouring midpoints stay.
        let values = [0.0, 1.0, 1.0, 2.0];
        let labels = [0, 0, 1, 1];
        assert_eq!(
            candidate_thresholds(&values, &labels, ThresholdMode::ClassBoundary),
            vec![0.5, 1.5]
        );
    }

    #[test]
    fn midpoints_are_short_decimals_between_the_values() {
        assert_eq!(midpoint(2.13, 2.18), 2.155);
        assert_eq!(midpoint(2.4, 2.5), 2.45);
        assert_eq!(midpoint(1.0, 2.0), 1.5);
        assert_eq!(midpoint(0.0, 1e-9), 5e-10);
        assert_eq!(midpoint(-3.0, -1.0), -2.0);
        assert_eq!(midpoint(100.0, 1000.0), 550.0);
    }

    #[test]
    fn midpoint_stays_below_the_upper_value() {
        let low: f64 = 1.0;
        let high = f64::from_bits(low.to_bits() + 1);
        let t = midpoint(low, high);
        assert!(low <= t && t < high);
    }
}
