//! The exact search on several threads: on small random data (fixed seeds, depths 1 to 3,
//! accuracy, balanced weights, split costs, leaf minima, split limits) the optimum equals the
//! exhaustive oracle's and the tree returned (as its JSON) is the same with 1, 2 and 3
//! threads, and so is the tree on larger data with many equally good trees (1, 2 and 4 threads,
//! depths 3 and 4); a time-limited run on two threads returns a bound at or below the oracle's optimum
//! and a tree at or above it; a raised interrupt flag stops every thread within a second; the
//! command line takes `--threads` for dp, refuses it for sparse and refuses 0.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use milptree::data::{read_dataset, Dataset, TargetColumn, ThresholdMode};
use milptree::dp::{objective_of, solve, DpOptions, DpProblem, DpTermination};
use milptree::formulation::Objective;

use crate::common::{assert_usage_error, dataset, milptree_json, random_dataset};
use crate::oracle::{all_midpoints, optimum, OracleSpec};

/// A problem of the oracle's kind: `(depth, balanced, split_cost, min_leaf, max_splits)`.
type Case = (usize, bool, f64, usize, Option<usize>);

fn problem(
    data: &Dataset,
    &(depth, balanced, split_cost, min_leaf, max_splits): &Case,
) -> DpProblem {
    let objective = if balanced {
        Objective::Balanced
    } else {
        Objective::Accuracy
    };
    DpProblem {
        depth,
        max_splits,
        thresholds: ThresholdMode::All,
        class_weights: objective.class_weights(data),
        split_cost,
        min_leaf,
    }
}

pub(crate) fn oracle_optimum(data: &Dataset, problem: &DpProblem) -> f64 {
    optimum(
        data,
        &OracleSpec {
            depth: problem.depth,
            class_weights: problem.class_weights.clone(),
            split_cost: problem.split_cost,
            min_leaf: problem.min_leaf,
            thresholds: Some(all_midpoints(data)),
            max_splits: problem.max_splits,
        },
    )
    .objective
}

fn with_threads(threads: usize) -> DpOptions {
    DpOptions {
        threads,
        ..DpOptions::default()
    }
}

#[test]
fn every_thread_count_gives_the_oracle_optimum_and_the_same_tree() {
    let cases: [Case; 7] = [
        (1, false, 0.0, 1, None),
        (2, true, 0.0, 1, None),
        (3, false, 0.0, 1, None),
        (3, true, 0.0, 1, None),
        (3, false, 1.5, 1, None),
        (3, false, 0.0, 3, None),
        (3, false, 0.0, 1, Some(4)),
    ];
    for seed in 0..8u64 {
        // Few levels per feature: many equally good trees, so ties decide the tree.
        let (n, p, k, levels) = (
            36 + 4 * seed as usize,
            3 + (seed % 3) as usize,
            2 + (seed % 2) as usize,
            4 + (seed % 4) as u32,
        );
        let data = random_dataset(1000 + seed, n, p, k, levels);
        for case in &cases {
            let problem = problem(&data, case);
            let expected = oracle_optimum(&data, &problem);
            let mut trees = Vec::new();
            for threads in [1, 2, 3] {
                let outcome = solve(&data, &problem, &with_threads(threads)).expect("solves");
                assert_eq!(outcome.termination, DpTermination::Optimal);
                let scored = objective_of(&outcome.tree, &data, &problem).expect("a valid tree");
                assert!(
                    (outcome.objective - expected).abs() < 1e-6 && (scored - expected).abs() < 1e-6,
                    "seed {seed} {case:?} threads {threads}: {} (scored {scored}) but the optimum is {expected}",
                    outcome.objective
                );
                trees.push(outcome.tree.to_json_string());
            }
            assert!(
                trees.iter().all(|tree| *tree == trees[0]),
                "seed {seed} {case:?}: the trees differ between thread counts:\n{}",
                trees.join("\n")
            );
        }
    }
}

#[test]
fn a_time_limited_run_on_two_threads_brackets_the_optimum() {
    for seed in 0..4u64 {
        let data = random_dataset(2000 + seed, 90, 5, 2, 12);
        let problem = DpProblem::accuracy(&data, 3);
        let expected = oracle_optimum(&data, &problem);
        for limit in [0.0, 0.0005, 0.002, 0.01] {
            let options = DpOptions {
                time_limit: Some(limit),
                threads: 2,
                ..DpOptions::default()
            };
            let outcome = solve(&data, &problem, &options).expect("stops cleanly");
            let scored = objective_of(&outcome.tree, &data, &problem).expect("a valid tree");
            assert_eq!(scored, outcome.objective);
            assert!(
                outcome.lower_bound <= expected + 1e-9 && expected <= outcome.objective + 1e-9,
                "seed {seed} limit {limit}: bound {} optimum {expected} incumbent {}",
                outcome.lower_bound,
                outcome.objective
            );
        }
    }
}

#[test]
fn a_raised_interrupt_flag_stops_every_thread_within_a_second() {
    let data = read_dataset(&dataset("breast_cancer"), &TargetColumn::Last).expect("bundled data");
    let problem = DpProblem::accuracy(&data, 4);
    let flag = Arc::new(AtomicBool::new(false));
    let options = DpOptions {
        interrupt: Some(Arc::clone(&flag)),
        threads: 2,
        ..DpOptions::default()
    };
    let raiser = {
        let flag = Arc::clone(&flag);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(400));
            flag.store(true, Ordering::Relaxed);
            Instant::now()
        })
    };
    let outcome = solve(&data, &problem, &options).expect("stops cleanly");
    let returned = Instant::now();
    let raised = raiser.join().expect("the raiser");
    assert_eq!(outcome.termination, DpTermination::Interrupted);
    assert!(
        returned.duration_since(raised) < Duration::from_secs(1),
        "returned {:?} after the flag",
        returned.duration_since(raised)
    );
    let scored = objective_of(&outcome.tree, &data, &problem).expect("a valid tree");
    assert_eq!(scored, outcome.objective);
    assert!(outcome.lower_bound <= outcome.objective);
}

#[test]
fn the_command_line_takes_threads_for_dp_only() {
    let data = dataset("wine");
    let data = data.to_str().expect("a UTF-8 path");
    let mut objectives = Vec::new();
    for threads in ["1", "2"] {
        let report = milptree_json(&[
            "solve",
            data,
            "--solver",
            "dp",
            "--depth",
            "3",
            "--threads",
            threads,
            "--json",
            "--quiet",
        ]);
        objectives.push(report["objective"].clone());
    }
    assert_eq!(objectives[0], objectives[1]);
    assert_usage_error(
        &["solve", data, "--solver", "sparse", "--threads", "2"],
        "--threads",
    );
    assert_usage_error(
        &[
            "solve",
            data,
            "--solver",
            "dp",
            "--depth",
            "3",
            "--threads",
            "0",
        ],
        "threads",
    );
}

#[test]
fn larger_data_with_many_equally_good_trees_gives_the_same_tree_on_any_thread_count() {
    // More rows and features than the oracle takes, and few levels per feature so that many
    // trees tie; the objective is checked by plain counting (objective_of) and across counts.
    let mut cases: Vec<(Dataset, usize)> = (0..3u64)
        .map(|seed| {
            (
                random_dataset(3000 + seed, 300, 8, 2, 5),
                3 + (seed % 2) as usize,
            )
        })
        .collect();
    let wine = read_dataset(&dataset("wine"), &TargetColumn::Last).expect("bundled data");
    cases.push((wine.clone(), 3));
    cases.push((wine, 4));
    for (i, (data, depth)) in cases.iter().enumerate() {
        let problem = DpProblem::accuracy(data, *depth);
        let mut trees = Vec::new();
        let mut objectives = Vec::new();
        for threads in [1, 2, 4] {
            let outcome = solve(data, &problem, &with_threads(threads)).expect("solves");
            assert_eq!(outcome.termination, DpTermination::Optimal);
            let scored = objective_of(&outcome.tree, data, &problem).expect("a valid tree");
            assert_eq!(scored, outcome.objective);
            objectives.push(outcome.objective);
            trees.push(outcome.tree.to_json_string());
        }
        assert!(
            objectives.iter().all(|o| *o == objectives[0]),
            "case {i}: {objectives:?}"
        );
        assert!(
            trees.iter().all(|tree| *tree == trees[0]),
            "case {i}: the trees differ between thread counts:\n{}",
            trees.join("\n")
        );
    }
}
