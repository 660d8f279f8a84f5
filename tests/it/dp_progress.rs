//! The exact search's lower bound while it runs, read through its [`ProgressSink`]: on small
//! random data (fixed seeds, depth 3, accuracy) every bound published, on one thread or two,
//! with or without bound ascent, lies at or below the exhaustive oracle's optimum and never
//! falls, every incumbent at or above it; the bound rises above zero while the root is still
//! being searched (a bound below the optimum is published); and a time-limited run returns a
//! bound at or below the optimum and a tree at or above it.

use std::sync::{Arc, Mutex};

use milptree::budget::Budget;
use milptree::data::{Dataset, ThresholdMode};
use milptree::dp::{objective_of, solve, BoundSwitches, DpOptions, DpOutcome, DpProblem};
use milptree::search_core::ProgressSink;

use crate::common::random_dataset;
use crate::threads::oracle_optimum;

/// Solves `problem` with `options` (its progress sink replaced), returning the outcome and
/// the `(incumbent, bound)` pairs published.
fn published(
    data: &Dataset,
    problem: &DpProblem,
    options: DpOptions,
) -> (DpOutcome, Vec<(f64, f64)>) {
    let points = Arc::new(Mutex::new(Vec::new()));
    let sink_points = Arc::clone(&points);
    let options = DpOptions {
        progress: ProgressSink::new(move |incumbent, bound| {
            sink_points
                .lock()
                .expect("the points")
                .push((incumbent, bound));
        }),
        ..options
    };
    let outcome = solve(data, problem, &options).expect("the search runs");
    let points = points.lock().expect("the points").clone();
    (outcome, points)
}

fn problem(data: &Dataset) -> DpProblem {
    DpProblem {
        thresholds: ThresholdMode::All,
        ..DpProblem::accuracy(data, 3)
    }
}

fn switches(ascent: bool) -> BoundSwitches {
    BoundSwitches {
        ascent,
        ..BoundSwitches::default()
    }
}

#[test]
fn every_bound_published_lies_below_the_optimum_and_one_rises_before_the_end() {
    // Runs (of 12 each) where a bound between zero and the optimum was published, without
    // and with ascent.
    let mut early = [0, 0];
    for seed in 0..6u64 {
        let data = random_dataset(3100 + seed, 90, 5, 2, 12);
        let problem = problem(&data);
        let expected = oracle_optimum(&data, &problem);
        for threads in [1, 2] {
            for (ascent, time_limit) in [(false, None), (true, Some(60.0))] {
                let options = DpOptions {
                    threads,
                    budget: Budget::parsed(time_limit),
                    bounds: switches(ascent),
                    ..DpOptions::default()
                };
                let (outcome, points) = published(&data, &problem, options);
                let case = format!("seed {seed} threads {threads} ascent {ascent}");
                assert!((outcome.objective - expected).abs() < 1e-9, "{case}");
                assert!((outcome.lower_bound - expected).abs() < 1e-9, "{case}");
                // The last point is the returned tree's.
                assert_eq!(
                    points.last(),
                    Some(&(outcome.objective, outcome.lower_bound)),
                    "{case}"
                );
                for pair in points.windows(2) {
                    assert!(pair[1].1 >= pair[0].1 - 1e-12, "{case}: {points:?}");
                    assert!(pair[1].0 <= pair[0].0 + 1e-12, "{case}: {points:?}");
                }
                for &(incumbent, bound) in &points {
                    assert!(bound <= expected + 1e-9, "{case}: {points:?}");
                    assert!(incumbent >= expected - 1e-9, "{case}: {points:?}");
                }
                if points
                    .iter()
                    .any(|&(_, bound)| bound > 0.0 && bound < expected - 1e-9)
                {
                    early[usize::from(ascent)] += 1;
                }
            }
        }
    }
    // The bound rose while the root was searched on most runs, by the root's candidates alone
    // or with the ascent's rounds.
    assert!(
        early[0] >= 8 && early[1] >= 8,
        "early bounds on {early:?} runs of 12"
    );
}

#[test]
fn a_time_limited_run_with_ascent_brackets_the_optimum() {
    for seed in 0..4u64 {
        let data = random_dataset(3200 + seed, 90, 5, 2, 12);
        let problem = problem(&data);
        let expected = oracle_optimum(&data, &problem);
        for threads in [1, 2] {
            for limit in [0.0, 0.001, 0.004, 0.02] {
                let options = DpOptions {
                    threads,
                    budget: Budget::seconds(limit),
                    bounds: switches(true),
                    ..DpOptions::default()
                };
                let outcome = solve(&data, &problem, &options).expect("stops cleanly");
                let scored = objective_of(&outcome.tree, &data, &problem).expect("a valid tree");
                assert_eq!(scored, outcome.objective);
                let case = format!("seed {seed} threads {threads} limit {limit}");
                assert!(
                    outcome.lower_bound <= expected + 1e-9 && expected <= outcome.objective + 1e-9,
                    "{case}: bound {} optimum {expected} incumbent {}",
                    outcome.lower_bound,
                    outcome.objective
                );
            }
        }
    }
}
