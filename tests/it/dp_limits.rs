//! The DP search under limits and bad input: a zero time limit and a raised interrupt flag
//! stop it with a valid tree and bound, a tiny cache gives the same optimum, and problems that
//! do not fit the data are refused with a parameter error.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use milptree::budget::Budget;
use milptree::data::{read_dataset, Dataset, TargetColumn};
use milptree::dp::{objective_of, solve, DpOptions, DpProblem, DpTermination};
use milptree::tree::{Split, TreeBuilder};
use milptree::Error;

use crate::common::{dataset, random_dataset};

fn wine() -> Dataset {
    read_dataset(&dataset("wine"), &TargetColumn::Last).expect("the bundled wine data")
}

fn check_valid_stop(data: &Dataset, problem: &DpProblem, options: &DpOptions) -> DpTermination {
    let outcome = solve(data, problem, options).expect("stops cleanly");
    assert!(outcome.lower_bound <= outcome.objective);
    let scored = objective_of(&outcome.tree, data, problem).expect("a valid tree");
    assert_eq!(scored, outcome.objective);
    outcome.termination
}

#[test]
fn a_zero_time_limit_stops_with_a_tree_and_a_valid_bound() {
    let data = wine();
    let problem = DpProblem::accuracy(&data, 3);
    let options = DpOptions {
        budget: Budget::seconds(0.0),
        ..DpOptions::default()
    };
    assert_eq!(
        check_valid_stop(&data, &problem, &options),
        DpTermination::TimeLimit
    );
}

#[test]
fn a_raised_interrupt_flag_stops_the_search() {
    let data = wine();
    let problem = DpProblem::accuracy(&data, 3);
    let options = DpOptions {
        budget: Budget::unlimited().with_interrupt(Some(Arc::new(AtomicBool::new(true)))),
        ..DpOptions::default()
    };
    assert_eq!(
        check_valid_stop(&data, &problem, &options),
        DpTermination::Interrupted
    );
}

#[test]
fn a_cache_that_keeps_nothing_gives_the_same_optimum() {
    let data = wine();
    for depth in [3, 4] {
        let problem = DpProblem::accuracy(&data, depth);
        let full = solve(&data, &problem, &DpOptions::default()).expect("solves");
        let tiny = solve(
            &data,
            &problem,
            &DpOptions {
                memory_limit_mb: 0,
                ..DpOptions::default()
            },
        )
        .expect("solves");
        assert!(full.is_optimal() && tiny.is_optimal());
        assert_eq!(tiny.objective, full.objective, "depth {depth}");
        assert!(tiny.stats.cache_evictions > 0);
        assert_eq!(tiny.stats.cache_entries, 0);
    }
}

#[test]
fn a_small_cache_evicts_and_gives_the_same_optimum() {
    let data = random_dataset(3, 3000, 5, 3, 8);
    let problem = DpProblem::accuracy(&data, 4);
    let full = solve(&data, &problem, &DpOptions::default()).expect("solves");
    let small = solve(
        &data,
        &problem,
        &DpOptions {
            memory_limit_mb: 1,
            ..DpOptions::default()
        },
    )
    .expect("solves");
    assert_eq!(small.objective, full.objective);
    assert!(small.stats.cache_evictions > 0, "{:?}", small.stats);
}

fn parameter_error(data: &Dataset, problem: &DpProblem) -> String {
    match solve(data, problem, &DpOptions::default()) {
        Err(e @ Error::Parameter { .. }) => {
            assert_eq!(e.exit_code(), 2);
            e.to_string()
        }
        other => panic!("expected a parameter error, got {other:?}"),
    }
}

#[test]
fn problems_that_do_not_fit_the_data_are_refused() {
    let data = random_dataset(1, 10, 2, 3, 4);
    let base = DpProblem::accuracy(&data, 2);
    let message = parameter_error(
        &data,
        &DpProblem {
            depth: 0,
            ..base.clone()
        },
    );
    assert!(message.contains("depth"), "{message}");
    let message = parameter_error(
        &data,
        &DpProblem {
            depth: 21,
            ..base.clone()
        },
    );
    assert!(message.contains("21"), "{message}");
    let message = parameter_error(
        &data,
        &DpProblem {
            class_weights: vec![1.0, 1.0],
            ..base.clone()
        },
    );
    assert!(message.contains("2 weights for 3 classes"), "{message}");
    let message = parameter_error(
        &data,
        &DpProblem {
            class_weights: vec![1.0, -1.0, 1.0],
            ..base.clone()
        },
    );
    assert!(message.contains("class weights"), "{message}");
    let message = parameter_error(
        &data,
        &DpProblem {
            split_cost: f64::NAN,
            ..base.clone()
        },
    );
    assert!(message.contains("split cost"), "{message}");
    let message = parameter_error(
        &data,
        &DpProblem {
            min_leaf: 0,
            ..base.clone()
        },
    );
    assert!(message.contains("min leaf"), "{message}");
    let message = parameter_error(
        &data,
        &DpProblem {
            min_leaf: 11,
            ..base.clone()
        },
    );
    assert!(message.contains("10 rows"), "{message}");
    // A limit that is not a usable number of seconds never reaches the search: it is refused
    // where it enters.
    assert!(matches!(
        Budget::limit("time limit", Some(-1.0)),
        Err(Error::Parameter { .. })
    ));
}

/// `objective_of` scores a tree by counting and refuses trees that break the problem.
#[test]
fn objective_of_counts_errors_and_refuses_trees_outside_the_problem() {
    // x: 0 1 2 3 4 5, classes a a b a b b.
    let data = Dataset::from_parts(
        "line",
        vec!["x".into()],
        vec!["a".into(), "b".into()],
        (0..6).map(|i| vec![f64::from(i)]).collect(),
        vec![0, 0, 1, 0, 1, 1],
    )
    .expect("valid");
    let mut builder =
        TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), 2).expect("depth 2");
    builder
        .split(
            1,
            Split::Axis {
                feature: 0,
                threshold: 1.5,
            },
        )
        .expect("node 1");
    builder.leaf(2, 0).expect("node 2");
    builder.leaf(3, 1).expect("node 3");
    let tree = builder.build().expect("valid tree");
    let problem = DpProblem {
        split_cost: 0.25,
        class_weights: vec![1.0, 3.0],
        ..DpProblem::accuracy(&data, 1)
    };
    // The right leaf predicts b and holds one a (weight 1): 1 + 0.25.
    assert_eq!(objective_of(&tree, &data, &problem), Some(1.25));
    let limited = DpProblem {
        max_splits: Some(0),
        ..problem.clone()
    };
    assert_eq!(objective_of(&tree, &data, &limited), None);
    let leafy = DpProblem {
        min_leaf: 3,
        ..problem.clone()
    };
    assert_eq!(objective_of(&tree, &data, &leafy), None);
}

#[test]
fn a_search_stopped_at_once_is_at_least_as_good_as_cart() {
    use milptree::data::ThresholdMode;
    use milptree::greedy::{cart, CartParams};
    for name in ["iris", "wine", "breast_cancer"] {
        let data = read_dataset(&dataset(name), &TargetColumn::Last).expect("bundled data");
        for depth in 2..=4 {
            let problem = DpProblem::accuracy(&data, depth);
            let options = DpOptions {
                budget: Budget::seconds(0.0),
                ..DpOptions::default()
            };
            let outcome = solve(&data, &problem, &options).expect("stops cleanly");
            let greedy = cart(
                &data,
                &CartParams {
                    depth,
                    min_leaf: 1,
                    thresholds: ThresholdMode::All,
                },
            )
            .expect("CART");
            let cart_errors =
                objective_of(&greedy, &data, &problem).expect("a tree of the problem");
            assert!(
                outcome.objective <= cart_errors,
                "{name} depth {depth}: {} errors stopped at once, CART {cart_errors}",
                outcome.objective
            );
        }
    }
}
