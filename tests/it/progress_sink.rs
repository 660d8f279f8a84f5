//! What the sparse search publishes to its progress line, read through its
//! [`ProgressSink`] (no terminal): each pair is the search's current incumbent and bound, in the
//! objective's units; the incumbent never rises, the bound never falls or passes it, and the
//! last pair is the outcome's objective and bound.

use std::sync::{Arc, Mutex};

use milptree::budget::Budget;
use milptree::data::ThresholdMode;
use milptree::search_core::ProgressSink;
use milptree::sparse::{solve, Loss, SparseOptions, SparseOutcome, SparseProblem};

use crate::common::random_dataset;

/// Solves `problem` with `time_limit`, returning the outcome and the pairs published.
fn published(
    data: &milptree::data::Dataset,
    problem: &SparseProblem,
    time_limit: Option<f64>,
) -> (SparseOutcome, Vec<(f64, f64)>) {
    let points = Arc::new(Mutex::new(Vec::new()));
    let sink_points = Arc::clone(&points);
    let options = SparseOptions {
        budget: Budget::parsed(time_limit),
        progress: ProgressSink::new(move |incumbent, bound| {
            sink_points
                .lock()
                .expect("the points")
                .push((incumbent, bound));
        }),
        ..SparseOptions::default()
    };
    let outcome = solve(data, problem, &options).expect("the search runs");
    let points = points.lock().expect("the points").clone();
    (outcome, points)
}

fn assert_current_and_monotone(outcome: &SparseOutcome, points: &[(f64, f64)], case: &str) {
    assert!(!points.is_empty(), "{case}: nothing published");
    for pair in points.windows(2) {
        let ((incumbent, bound), (next_incumbent, next_bound)) = (pair[0], pair[1]);
        assert!(next_incumbent <= incumbent + 1e-12, "{case}: {points:?}");
        assert!(next_bound >= bound - 1e-12, "{case}: {points:?}");
    }
    for &(incumbent, bound) in points {
        assert!(bound <= incumbent + 1e-12, "{case}: {points:?}");
        assert!(incumbent >= outcome.objective - 1e-12, "{case}: {points:?}");
        assert!(bound <= outcome.lower_bound + 1e-12, "{case}: {points:?}");
    }
    let &(incumbent, bound) = points.last().expect("a point");
    assert!((incumbent - outcome.objective).abs() < 1e-12, "{case}");
    assert!((bound - outcome.lower_bound).abs() < 1e-12, "{case}");
    // Every incumbent shown is one the search recorded in its trajectory.
    for &(incumbent, _) in points {
        assert!(
            outcome
                .trajectory
                .iter()
                .any(|point| (point.incumbent - incumbent).abs() < 1e-12),
            "{case}: {incumbent} is not in {:?}",
            outcome.trajectory
        );
    }
}

#[test]
fn the_sparse_search_publishes_its_current_incumbent_and_bound() {
    for seed in 0..6 {
        let data = random_dataset(seed, 40, 3, 2, 6);
        for loss in [Loss::Accuracy, Loss::Balanced] {
            let problem = SparseProblem {
                loss: loss.clone(),
                leaf_penalty: 0.01,
                depth: Some(3),
                thresholds: ThresholdMode::All,
            };
            let (outcome, points) = published(&data, &problem, None);
            assert!(outcome.is_optimal());
            assert_current_and_monotone(&outcome, &points, &format!("seed {seed} {loss:?}"));
        }
    }
}

#[test]
fn a_stopped_sparse_search_publishes_the_bound_it_reports() {
    let data = random_dataset(7, 300, 6, 3, 40);
    let problem = SparseProblem {
        loss: Loss::Accuracy,
        leaf_penalty: 0.001,
        depth: Some(5),
        thresholds: ThresholdMode::All,
    };
    let (outcome, points) = published(&data, &problem, Some(0.05));
    assert_current_and_monotone(&outcome, &points, "stopped");
}
