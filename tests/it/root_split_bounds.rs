//! The exact search's bounds of every root split at once (`dp::root_split_bounds`, the split
//! row of `--dp-bounds`) against the exhaustive oracle: on small random data (fixed seeds),
//! each midpoint's bound is the sum of its children's optima at one level less, with class
//! weights and a split cost, and under a cap it is a lower bound that reaches the cap exactly
//! where the optimum does; the children's optima it reports are the oracle's, with and without
//! a leaf minimum.

use milptree::budget::Budget;
use milptree::data::{Dataset, ThresholdMode};
use milptree::dp::{self, DpOptions, DpProblem};

use crate::common::random_dataset;
use crate::oracle::{all_midpoints, optimum, OracleSpec};

/// The oracle's optimum of each child of `x_feature <= threshold` at `depth`.
fn children_optima(
    data: &Dataset,
    spec: &OracleSpec,
    feature: usize,
    threshold: f64,
) -> (f64, f64) {
    let (left, right): (Vec<usize>, Vec<usize>) =
        (0..data.n_rows()).partition(|&i| data.rows()[i][feature] <= threshold);
    (
        optimum(&data.subset(&left), spec).objective,
        optimum(&data.subset(&right), spec).objective,
    )
}

#[test]
fn every_split_is_bounded_by_its_childrens_optima() {
    let mut checked = 0;
    let mut capped = 0;
    let mut known = 0;
    for seed in 0..6u64 {
        let data = random_dataset(300 + seed, 24, 3, 3, 5);
        for depth in [1, 2] {
            let weights = vec![1.0, 2.5, 0.75];
            let split_cost = if seed % 2 == 0 { 0.0 } else { 0.5 };
            let min_leaf = if seed % 3 == 2 { 3 } else { 1 };
            let below = DpProblem {
                depth,
                max_splits: None,
                thresholds: ThresholdMode::All,
                class_weights: weights.clone(),
                split_cost,
                min_leaf,
                max_leaf: None,
            };
            let spec = OracleSpec {
                class_weights: weights,
                split_cost,
                min_leaf,
                ..OracleSpec::errors(&data, depth)
            };
            let exact = dp::root_split_bounds(&data, &below, f64::INFINITY, &DpOptions::default())
                .expect("bounds");
            assert!(exact.complete);
            let cap = 6.0;
            let under_cap =
                dp::root_split_bounds(&data, &below, cap, &DpOptions::default()).expect("bounds");
            for (feature, thresholds) in all_midpoints(&data).iter().enumerate() {
                for &threshold in thresholds {
                    let left = data
                        .rows()
                        .iter()
                        .filter(|row| row[feature] <= threshold)
                        .count();
                    if left.min(data.n_rows() - left) < min_leaf {
                        // A child too small for a leaf: no tree, nothing for the oracle.
                        continue;
                    }
                    let (want_left, want_right) = children_optima(&data, &spec, feature, threshold);
                    let want = want_left + want_right;
                    let what = format!(
                        "seed {seed}, depth {depth}, x{feature} <= {threshold}, {left} left"
                    );
                    let got = exact.at(feature, left).expect("a split").expect("bounded");
                    assert!((got - want).abs() < 1e-9, "{what}: {got} against {want}");
                    let got = under_cap
                        .at(feature, left)
                        .expect("a split")
                        .expect("bounded");
                    assert!(got <= want + 1e-9, "{what}: {got} above the optimum {want}");
                    assert!(
                        (got.min(cap) - want.min(cap)).abs() < 1e-9,
                        "{what}: {got} under the cap {cap}, the optimum {want}"
                    );
                    let (got_left, got_right) = under_cap.children_optima(feature, left);
                    for (got, want) in [(got_left, want_left), (got_right, want_right)] {
                        if let Some(got) = got {
                            assert!((got - want).abs() < 1e-9, "{what}: a child {got}, {want}");
                            known += 1;
                        }
                    }
                    capped += usize::from(want > cap);
                    checked += 1;
                }
            }
            // A split that sends every row one way is none of the search's.
            assert_eq!(exact.at(0, 0), None);
            assert_eq!(exact.at(0, data.n_rows()), None);
        }
    }
    assert!(checked > 100, "{checked} splits checked");
    assert!(capped > 10, "the cap bound only {capped} splits");
    assert!(known > 100, "{known} children's optima reported");
}

#[test]
fn a_search_out_of_time_bounds_nothing_it_did_not_finish() {
    let data = random_dataset(7, 60, 4, 2, 12);
    let below = DpProblem::accuracy(&data, 2);
    let options = DpOptions {
        budget: Budget::seconds(0.0),
        ..DpOptions::default()
    };
    let bounds = dp::root_split_bounds(&data, &below, f64::INFINITY, &options).expect("bounds");
    assert!(!bounds.complete);
    let thresholds = all_midpoints(&data);
    let left = data
        .rows()
        .iter()
        .filter(|row| row[0] <= thresholds[0][0])
        .count();
    assert_eq!(bounds.at(0, left), Some(None));
    assert_eq!(bounds.least(0), Some(None));
}
