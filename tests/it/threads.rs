//! The exact search on several threads: on small random data (fixed seeds, depths 1 to 3,
//! accuracy, balanced weights, split costs, leaf minima, split limits) the optimum equals the
//! exhaustive oracle's and the tree returned (as its JSON) is the same with 1, 2 and 3
//! threads, at depth 4 too (where the children of the root's splits are searched as jobs shared
//! out below the root), and so is the tree on larger data with many equally good trees (1, 2, 3
//! and 4 threads, depths 3 and 4); the root's units of work split each feature's positions, every
//! unit handed out by an earlier one of the same feature, and at depth 4 each job's units come
//! from the root unit that opened it, which waits for them; a time-limited run on two threads
//! returns a bound at or below the oracle's optimum and a tree at or above it; a raised interrupt flag stops every thread within a second; the
//! command line takes `--threads` for dp and the sparse search's additive losses, refuses it for
//! the sparse search's F1 and refuses 0.
//!
//! The sparse search likewise (the `sparse_` tests): with and without a depth cap, at several
//! leaf penalties, 1, 2 and 3 threads give the brute force's optimum and the same tree; a
//! time-limited run on two threads brackets the optimum; an interrupt stops it within a second.
//! The front's search likewise (the `pareto_threads` section below).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use milptree::budget::Budget;
use milptree::data::{read_dataset, Dataset, TargetColumn, ThresholdMode};
use milptree::dp::{objective_of, solve, DpOptions, DpProblem, DpTermination};
use milptree::formulation::Objective;

use milptree::sparse::{
    objective_of as sparse_objective_of, solve as sparse_solve, Loss, SparseOptions, SparseProblem,
};

use crate::common::{assert_usage_error, dataset, milptree_json, random_dataset};
use crate::oracle::{all_midpoints, optimum, OracleSpec};
use crate::sparse_oracle::brute_force;

/// A problem of the oracle's kind: `(depth, balanced, split_cost, min_leaf, max_splits)`.
pub(crate) type Case = (usize, bool, f64, usize, Option<usize>);

pub(crate) fn problem(
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
        max_leaf: None,
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
            max_leaf: problem.max_leaf,
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
fn depth_four_on_any_thread_count_gives_the_oracle_optimum_and_the_same_tree() {
    let cases: [Case; 3] = [
        (4, false, 0.0, 1, None),
        (4, true, 0.0, 1, None),
        (4, false, 0.5, 2, None),
    ];
    // Runs that searched a root split's child as a job (without a leaf minimum).
    let mut with_jobs = 0;
    for seed in 0..4u64 {
        let data = random_dataset(2000 + seed, 30 + 4 * seed as usize, 3, 2, 5);
        for case in &cases {
            let problem = problem(&data, case);
            let expected = oracle_optimum(&data, &problem);
            let mut trees = Vec::new();
            for threads in [1, 2, 3] {
                let outcome = solve(&data, &problem, &with_threads(threads)).expect("solves");
                assert_eq!(outcome.termination, DpTermination::Optimal);
                let units = &outcome.stats.root_work.units;
                with_jobs += usize::from(units.iter().any(|unit| unit.job.is_some()));
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
    assert!(
        with_jobs >= 12,
        "only {with_jobs} runs searched children as jobs"
    );
}

#[test]
fn below_the_root_each_childs_search_is_a_job_shared_out_in_units() {
    // At depth 4, the children of depth 3 of a root position are jobs: a job's first units come
    // from the segment of the root unit that opened it, its other units from an earlier unit of
    // the same job and feature one level up, and the root unit's next segment waits for it.
    let data = random_dataset(3000, 90, 4, 2, 12);
    let problem = DpProblem::accuracy(&data, 4);
    let mut trees = Vec::new();
    for threads in [1, 3] {
        let outcome = solve(&data, &problem, &with_threads(threads)).expect("solves");
        assert_eq!(outcome.termination, DpTermination::Optimal);
        let units = &outcome.stats.root_work.units;
        let jobs: std::collections::BTreeSet<u64> = units.iter().filter_map(|u| u.job).collect();
        assert!(jobs.len() >= 4, "{threads} threads: {} jobs", jobs.len());
        for job in &jobs {
            let waiting = units.iter().filter(|u| u.waits_for == Some(*job)).count();
            assert_eq!(
                waiting, 1,
                "{threads} threads: job {job} waited for {waiting} times"
            );
        }
        for unit in units {
            let Some(parent) = unit.parent else {
                assert_eq!((unit.job, unit.level, unit.waits_for), (None, 0, None));
                continue;
            };
            let from = units
                .iter()
                .find(|other| other.id == parent)
                .unwrap_or_else(|| panic!("{threads} threads: unit {} has no parent", unit.id));
            // The last segment of a root unit bears the unit's number, given before the
            // numbers of its earlier segments.
            assert!(from.id < unit.id || unit.waits_for.is_some());
            match (unit.job, unit.waits_for) {
                // A job's first unit, from the segment that opened it.
                (Some(job), None) if unit.level == 0 => {
                    assert_eq!(from.job, None);
                    assert!(from.id < job && job < unit.id);
                }
                // A segment of a root unit after a job, from the segment before it.
                (None, Some(job)) => {
                    assert!(jobs.contains(&job));
                    assert_eq!(from.job, None);
                    assert_eq!((from.rank, from.level), (unit.rank, unit.level));
                }
                (job, None) => {
                    assert_eq!(from.job, job);
                    assert_eq!((from.rank, from.level + 1), (unit.rank, unit.level));
                }
                (Some(_), Some(_)) => panic!("{threads} threads: a job's unit waits for a job"),
            }
        }
        trees.push(outcome.tree.to_json_string());
    }
    assert_eq!(trees[0], trees[1]);
}

#[test]
fn the_roots_units_share_out_each_features_positions() {
    // Wine at depth 3: each feature's first unit hands out the intervals beside the position
    // it solved, those hand out theirs, and so on; whatever the thread count, every unit but
    // a feature's first comes from an earlier unit of the same feature one level up.
    let wine = read_dataset(&dataset("wine"), &TargetColumn::Last).expect("bundled data");
    let problem = DpProblem::accuracy(&wine, 3);
    for threads in [1, 3] {
        let outcome = solve(&wine, &problem, &with_threads(threads)).expect("solves");
        let units = &outcome.stats.root_work.units;
        let firsts = units.iter().filter(|unit| unit.parent.is_none()).count();
        assert!(
            firsts <= wine.n_features(),
            "{threads} threads: {firsts} first units"
        );
        assert!(
            units.len() > 2 * wine.n_features(),
            "{threads} threads: only {} units for {} features",
            units.len(),
            wine.n_features()
        );
        for unit in units {
            let Some(parent) = unit.parent else {
                assert_eq!(unit.level, 0);
                continue;
            };
            let from = units
                .iter()
                .find(|other| other.id == parent)
                .unwrap_or_else(|| panic!("{threads} threads: unit {} has no parent", unit.id));
            assert!(from.id < unit.id);
            assert_eq!((from.rank, from.level + 1), (unit.rank, unit.level));
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
                budget: Budget::seconds(limit),
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

/// What `run` returns, given an interrupt flag that another thread raises after 400 ms;
/// fails unless it returns within a second of the flag.
fn interrupted_after_400_ms<T>(run: impl FnOnce(Arc<AtomicBool>) -> T) -> T {
    let flag = Arc::new(AtomicBool::new(false));
    let raiser = {
        let flag = Arc::clone(&flag);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(400));
            flag.store(true, Ordering::Relaxed);
            Instant::now()
        })
    };
    let outcome = run(flag);
    let returned = Instant::now();
    let raised = raiser.join().expect("the raiser");
    assert!(
        returned.duration_since(raised) < Duration::from_secs(1),
        "returned {:?} after the flag",
        returned.duration_since(raised)
    );
    outcome
}

#[test]
fn a_raised_interrupt_flag_stops_every_thread_within_a_second() {
    let data = read_dataset(&dataset("breast_cancer"), &TargetColumn::Last).expect("bundled data");
    let problem = DpProblem::accuracy(&data, 4);
    let outcome = interrupted_after_400_ms(|flag| {
        let options = DpOptions {
            budget: Budget::unlimited().with_interrupt(Some(flag)),
            threads: 2,
            ..DpOptions::default()
        };
        solve(&data, &problem, &options).expect("stops cleanly")
    });
    assert_eq!(outcome.termination, DpTermination::Interrupted);
    let scored = objective_of(&outcome.tree, &data, &problem).expect("a valid tree");
    assert_eq!(scored, outcome.objective);
    assert!(outcome.lower_bound <= outcome.objective);
}

#[test]
fn the_command_line_takes_threads_for_dp_and_additive_sparse_losses_only() {
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
        assert_eq!(
            report["threads"].to_string(),
            threads,
            "dp's report gives its threads"
        );
    }
    assert_eq!(objectives[0], objectives[1]);
    let mut sparse = Vec::new();
    for threads in ["1", "2"] {
        let report = milptree_json(&[
            "solve",
            data,
            "--solver",
            "sparse",
            "--leaf-penalty",
            "0.05",
            "--threads",
            threads,
            "--json",
            "--quiet",
        ]);
        assert_eq!(
            report["threads"].to_string(),
            threads,
            "sparse's report gives its threads"
        );
        sparse.push((report["objective"].clone(), report["tree"]["nodes"].clone()));
    }
    assert!(sparse[0].0.is_number());
    assert_eq!(sparse[0], sparse[1]);
    let two_classes = dataset("breast_cancer");
    let two_classes = two_classes.to_str().expect("a UTF-8 path");
    assert_usage_error(
        &[
            "solve",
            two_classes,
            "--solver",
            "sparse",
            "--objective",
            "f1",
            "--threads",
            "2",
        ],
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
        for threads in [1, 2, 3, 4] {
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

fn sparse_problem(loss: Loss, leaf_penalty: f64, depth: Option<usize>) -> SparseProblem {
    SparseProblem {
        loss,
        leaf_penalty,
        depth,
        thresholds: ThresholdMode::All,
    }
}

fn sparse_threads(threads: usize) -> SparseOptions {
    SparseOptions {
        threads,
        ..SparseOptions::default()
    }
}

#[test]
fn sparse_every_thread_count_gives_the_brute_force_optimum_and_the_same_tree() {
    for seed in 0..6u64 {
        let data = random_dataset(3000 + seed, 10, 2, 2, 3 + (seed % 2) as u32);
        for loss in [Loss::Accuracy, Loss::Balanced] {
            for penalty in [0.02, 0.05, 0.1] {
                for depth in [Some(2), Some(3), None] {
                    let problem = sparse_problem(loss.clone(), penalty, depth);
                    let mut trees = Vec::new();
                    let mut objectives = Vec::new();
                    for threads in [1, 2, 3] {
                        let outcome = sparse_solve(&data, &problem, &sparse_threads(threads))
                            .expect("solves");
                        assert!(outcome.is_optimal());
                        let scored = sparse_objective_of(&outcome.tree, &data, &problem)
                            .expect("a valid tree");
                        assert!((scored - outcome.objective).abs() < 1e-9);
                        objectives.push(outcome.objective);
                        trees.push(outcome.tree.to_json_string());
                    }
                    let found = objectives[0];
                    match depth {
                        Some(cap) => {
                            let expected = brute_force(&data, &problem, cap);
                            assert!(
                                (found - expected).abs() < 1e-9,
                                "seed {seed} {problem:?}: {found} but brute force {expected}"
                            );
                        }
                        None => {
                            for cap in 1..=3 {
                                assert!(found <= brute_force(&data, &problem, cap) + 1e-9);
                            }
                        }
                    }
                    assert!(
                        objectives.iter().all(|&o| (o - found).abs() < 1e-12),
                        "seed {seed} {problem:?}: objectives {objectives:?}"
                    );
                    assert!(
                        trees.iter().all(|tree| *tree == trees[0]),
                        "seed {seed} {problem:?}: the trees differ between thread counts:\n{}",
                        trees.join("\n")
                    );
                }
            }
        }
    }
}

#[test]
fn sparse_larger_data_with_many_equally_good_trees_gives_the_same_tree_on_any_thread_count() {
    for seed in 0..3u64 {
        let data = random_dataset(3100 + seed, 60, 4, 2, 5);
        let problem = sparse_problem(Loss::Accuracy, 0.02, None);
        let mut trees = Vec::new();
        for threads in [1, 2, 4] {
            let outcome = sparse_solve(&data, &problem, &sparse_threads(threads)).expect("solves");
            assert!(outcome.is_optimal());
            trees.push((outcome.objective, outcome.tree.to_json_string()));
        }
        assert!(
            trees.iter().all(|tree| *tree == trees[0]),
            "seed {seed}: the trees differ between thread counts: {trees:?}"
        );
    }
}

#[test]
fn sparse_a_time_limited_run_on_two_threads_brackets_the_optimum() {
    for seed in 0..3u64 {
        let data = random_dataset(3200 + seed, 12, 2, 2, 5);
        let problem = sparse_problem(Loss::Accuracy, 0.02, Some(3));
        let expected = brute_force(&data, &problem, 3);
        for limit in [0.0, 0.0005, 0.002, 0.01] {
            let options = SparseOptions {
                budget: Budget::seconds(limit),
                threads: 2,
                ..SparseOptions::default()
            };
            let outcome = sparse_solve(&data, &problem, &options).expect("stops cleanly");
            let scored = sparse_objective_of(&outcome.tree, &data, &problem).expect("a valid tree");
            assert!((scored - outcome.objective).abs() < 1e-9);
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
fn sparse_a_raised_interrupt_flag_stops_every_thread_within_a_second() {
    let data = read_dataset(&dataset("breast_cancer"), &TargetColumn::Last).expect("bundled data");
    let problem = sparse_problem(Loss::Accuracy, 0.002, None);
    let outcome = interrupted_after_400_ms(|flag| {
        let options = SparseOptions {
            budget: Budget::unlimited().with_interrupt(Some(flag)),
            threads: 2,
            ..SparseOptions::default()
        };
        sparse_solve(&data, &problem, &options).expect("stops cleanly")
    });
    assert_eq!(outcome.termination, DpTermination::Interrupted);
    let scored = sparse_objective_of(&outcome.tree, &data, &problem).expect("a valid tree");
    assert!((scored - outcome.objective).abs() < 1e-9);
    assert!(outcome.lower_bound <= outcome.objective);
}

// The front's search on several threads: on small random two-class data (fixed seeds, depths 1
// to 3, split limits) the front equals the exhaustive oracle's, every tree makes its point's
// errors, the F1 optimum is the oracle's, and the front and every point's tree (as JSON) are
// the same with 1, 2 and 3 threads; a time-limited run on two threads returns reachable points
// and a lower bound below the oracle's front; an interrupt stops every thread within a second;
// the command line takes `--threads` for the front's search.

mod pareto_threads {
    use super::*;
    use milptree::pareto::{self, binary_data, errors_of, Metric, ParetoOptions, ParetoProblem};

    use crate::common::mixed_dataset;
    use crate::pareto_oracle::oracle_front;

    fn with_threads(threads: usize) -> ParetoOptions {
        ParetoOptions {
            threads,
            ..ParetoOptions::default()
        }
    }

    #[test]
    fn pareto_every_thread_count_gives_the_oracle_front_and_the_same_trees() {
        for seed in 0..6u64 {
            let data = mixed_dataset(5000 + seed, 30 + 4 * seed as usize, &[6, 5, 4], 2, 3);
            for (depth, max_splits) in [(1, None), (2, None), (3, None), (3, Some(4))] {
                let problem = ParetoProblem {
                    max_splits,
                    ..ParetoProblem::new(depth)
                };
                let expected = oracle_front(&data, &problem);
                let mut runs = Vec::new();
                for threads in [1, 2, 3] {
                    let outcome =
                        pareto::solve(&data, &problem, &with_threads(threads)).expect("solves");
                    assert_eq!(outcome.termination, DpTermination::Optimal);
                    let found: Vec<_> = outcome.front.iter().map(|t| t.point).collect();
                    assert_eq!(
                        found, expected,
                        "seed {seed} depth {depth} threads {threads}"
                    );
                    for front_tree in &outcome.front {
                        assert_eq!(errors_of(&front_tree.tree, &data), front_tree.point);
                    }
                    let oracle_f1 = expected
                        .iter()
                        .map(|&p| outcome.value(Metric::F1, p))
                        .fold(f64::NEG_INFINITY, f64::max);
                    let best = outcome.best(Metric::F1).expect("a best tree");
                    let scored = outcome.value(Metric::F1, errors_of(&best.tree, &data));
                    assert_eq!(scored, oracle_f1, "seed {seed} depth {depth}");
                    let trees: Vec<String> = outcome
                        .front
                        .iter()
                        .map(|t| t.tree.to_json_string())
                        .collect();
                    runs.push(trees);
                }
                assert!(
                    runs.iter().all(|trees| *trees == runs[0]),
                    "seed {seed} depth {depth} {max_splits:?}: the trees differ between thread \
                     counts:\n{runs:#?}"
                );
            }
        }
    }

    #[test]
    fn pareto_a_time_limited_run_on_two_threads_is_bracketed_by_the_oracle_front() {
        for seed in 0..4u64 {
            let data = mixed_dataset(6000 + seed, 40, &[6, 5, 4], 2, 2);
            let problem = ParetoProblem::new(3);
            let expected = oracle_front(&data, &problem);
            for limit in [0.0, 1e-4, 1e-3, 5e-3] {
                let options = ParetoOptions {
                    budget: Budget::seconds(limit),
                    threads: 2,
                    ..ParetoOptions::default()
                };
                let outcome = pareto::solve(&data, &problem, &options).expect("stops cleanly");
                assert!(!outcome.front.is_empty());
                for front_tree in &outcome.front {
                    let point = errors_of(&front_tree.tree, &data);
                    assert_eq!(point, front_tree.point);
                    assert!(expected.iter().any(|e| e.weakly_dominates(point)));
                }
                for e in &expected {
                    assert!(
                        outcome.lower_bound.iter().any(|l| l.weakly_dominates(*e)),
                        "seed {seed} limit {limit}: the lower bound misses ({}, {})",
                        e.fp,
                        e.fn_
                    );
                }
            }
        }
    }

    #[test]
    fn pareto_a_raised_interrupt_flag_stops_every_thread_within_a_second() {
        let data = read_dataset(&dataset("breast_cancer"), &TargetColumn::Last).expect("data");
        let data = binary_data(&data, None).expect("two classes");
        let problem = ParetoProblem::new(4);
        let outcome = interrupted_after_400_ms(|flag| {
            let options = ParetoOptions {
                budget: Budget::unlimited().with_interrupt(Some(flag)),
                threads: 2,
                ..ParetoOptions::default()
            };
            pareto::solve(&data, &problem, &options).expect("stops cleanly")
        });
        assert_eq!(outcome.termination, DpTermination::Interrupted);
        for front_tree in &outcome.front {
            let point = errors_of(&front_tree.tree, &data);
            assert_eq!(point, front_tree.point);
            assert!(outcome
                .lower_bound
                .iter()
                .any(|l| l.weakly_dominates(point)));
        }
    }

    #[test]
    fn pareto_the_command_line_takes_threads_for_the_front() {
        let data = dataset("breast_cancer");
        let data = data.to_str().expect("a UTF-8 path");
        let mut reports = Vec::new();
        for threads in ["1", "2"] {
            let args = [
                "pareto",
                data,
                "--depth",
                "2",
                "--threads",
                threads,
                "--json",
            ];
            let report = milptree_json(&args);
            assert_eq!(report["complete"], true);
            reports.push((report["points"].clone(), report["best"].clone()));
        }
        assert_eq!(reports[0], reports[1]);
        assert_usage_error(
            &[
                "pareto",
                data,
                "--solver",
                "dp",
                "--depth",
                "2",
                "--threads",
                "0",
            ],
            "threads",
        );
    }
}
