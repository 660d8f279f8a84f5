//! The bi-objective search against an exhaustive enumerator written independently of it: on
//! small random two-class data (ties, duplicate rows) the search's front equals the set of
//! nondominated (false positives, false negatives) pairs over every tree of depth 1 to 3 and
//! every split limit, each front tree makes exactly its point's errors under plain counting
//! and respects the limits, and every pruning technique turned off leaves the front unchanged.
//! Stopped at once, the search still returns achievable points and a valid lower bound.

use std::collections::BTreeSet;

use milptree::budget::Budget;
use milptree::data::{feature_thresholds, Dataset, ThresholdMode};
use milptree::dp::DpTermination;
use milptree::pareto::{
    errors_of, solve, Metric, ParetoBounds, ParetoOptions, ParetoProblem, Point,
};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use crate::common::{mixed_dataset, random_dataset};
use crate::oracle::{all_midpoints, splits_of};

/// The nondominated points of a set of (fp, fn) pairs.
fn nondominated(points: &BTreeSet<(u32, u32)>) -> BTreeSet<(u32, u32)> {
    points
        .iter()
        .copied()
        .filter(|&(a, b)| {
            !points
                .iter()
                .any(|&(c, d)| (c, d) != (a, b) && c <= a && d <= b)
        })
        .collect()
}

/// Every (fp, fn) reachable by a tree of depth <= `depth` with <= `budget` splits on `rows`,
/// reduced to its nondominated points (which loses nothing: the best sum of two children is a
/// sum of two nondominated points). Leaves predict either class.
pub(crate) fn reachable(
    data: &Dataset,
    splits: &[(usize, f64)],
    rows: &[usize],
    depth: usize,
    budget: usize,
) -> BTreeSet<(u32, u32)> {
    let negatives = rows.iter().filter(|&&i| data.labels()[i] == 0).count() as u32;
    let positives = rows.len() as u32 - negatives;
    let mut all: BTreeSet<(u32, u32)> = [(0, positives), (negatives, 0)].into();
    if depth > 0 && budget > 0 {
        let child_most = (1usize << (depth - 1)) - 1;
        for &(j, t) in splits {
            let (left, right): (Vec<usize>, Vec<usize>) =
                rows.iter().partition(|&&i| data.rows()[i][j] <= t);
            for left_budget in 0..budget {
                let right_budget = budget - 1 - left_budget;
                if left_budget > child_most || right_budget > child_most {
                    continue;
                }
                let l = reachable(data, splits, &left, depth - 1, left_budget);
                let r = reachable(data, splits, &right, depth - 1, right_budget);
                for &(a, b) in &l {
                    for &(c, d) in &r {
                        all.insert((a + c, b + d));
                    }
                }
            }
        }
    }
    nondominated(&all)
}

pub(crate) fn oracle_front(data: &Dataset, problem: &ParetoProblem) -> Vec<Point> {
    let thresholds = match problem.thresholds {
        ThresholdMode::All => all_midpoints(data),
        ThresholdMode::ClassBoundary => feature_thresholds(data, ThresholdMode::ClassBoundary),
    };
    let splits: Vec<(usize, f64)> = splits_of(&thresholds);
    let rows: Vec<usize> = (0..data.n_rows()).collect();
    let most = (1usize << problem.depth) - 1;
    let budget = problem.max_splits.map_or(most, |m| m.min(most));
    reachable(data, &splits, &rows, problem.depth, budget)
        .into_iter()
        .map(|(fp, fn_)| Point::new(fp, fn_))
        .collect()
}

fn check(
    data: &Dataset,
    problem: &ParetoProblem,
    bounds: ParetoBounds,
) -> Result<(), TestCaseError> {
    let expected = oracle_front(data, problem);
    let options = ParetoOptions {
        bounds,
        ..ParetoOptions::default()
    };
    let outcome = solve(data, problem, &options)
        .map_err(|e| TestCaseError::fail(format!("{problem:?} {bounds:?}: {e}")))?;
    prop_assert_eq!(outcome.termination, DpTermination::Optimal);
    let found: Vec<Point> = outcome.front.iter().map(|t| t.point).collect();
    prop_assert_eq!(&found, &expected, "{:?} {:?}", problem, bounds);
    prop_assert_eq!(&outcome.lower_bound, &expected);
    for front_tree in &outcome.front {
        prop_assert_eq!(errors_of(&front_tree.tree, data), front_tree.point);
        prop_assert!(front_tree.tree.actual_depth() <= problem.depth);
        prop_assert_eq!(front_tree.tree.n_splits(), front_tree.splits);
        if let Some(limit) = problem.max_splits {
            prop_assert!(front_tree.splits <= limit);
        }
    }
    // The best tree of each metric is the best of the front.
    for metric in Metric::ALL {
        let best = outcome.best(metric).map(|t| outcome.value(metric, t.point));
        let most = expected
            .iter()
            .map(|&p| outcome.value(metric, p))
            .fold(f64::NEG_INFINITY, f64::max);
        prop_assert_eq!(best, Some(most));
        prop_assert_eq!(outcome.bound(metric), most);
    }
    Ok(())
}

fn all_bounds() -> Vec<ParetoBounds> {
    vec![
        ParetoBounds::default(),
        ParetoBounds {
            upper_bound: false,
            ..ParetoBounds::default()
        },
        ParetoBounds {
            intervals: false,
            ..ParetoBounds::default()
        },
        ParetoBounds {
            second_child: false,
            ..ParetoBounds::default()
        },
    ]
}

fn config(cases: u32, seed: u64) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(40, 0x9a2e70))]

    #[test]
    fn depth_one_and_two_fronts_equal_the_enumerated_front(
        seed in 0u64..10_000,
        n in 6usize..22,
        p in 1usize..4,
        levels in 2u32..6,
        depth in 1usize..3,
        limit in 0usize..4,
        class_boundary in any::<bool>(),
    ) {
        let data = random_dataset(seed, n, p, 2, levels);
        let problem = ParetoProblem {
            depth,
            max_splits: (limit > 0).then_some(limit),
            thresholds: if class_boundary { ThresholdMode::ClassBoundary } else { ThresholdMode::All },
        };
        check(&data, &problem, ParetoBounds::default())?;
    }
}

proptest! {
    #![proptest_config(config(24, 0x3d3e))]

    #[test]
    fn depth_three_fronts_equal_the_enumerated_front_with_every_bound_off_in_turn(
        seed in 0u64..10_000,
        n in 6usize..15,
        limit in 0usize..8,
    ) {
        let data = mixed_dataset(seed, n, &[3, 4], 2, 2);
        let problem = ParetoProblem {
            depth: 3,
            max_splits: (limit > 0).then_some(limit),
            thresholds: ThresholdMode::All,
        };
        for bounds in all_bounds() {
            check(&data, &problem, bounds)?;
        }
    }
}

proptest! {
    #![proptest_config(config(12, 0x51ce))]

    /// Larger rows sets, where the bounds prune: the region passed to children, intervals of
    /// positions and second children.
    #[test]
    fn depth_three_fronts_on_larger_data_equal_the_enumerated_front(
        seed in 0u64..10_000,
        n in 30usize..60,
        limit in prop::sample::select(vec![0usize, 2, 3, 5]),
    ) {
        let data = mixed_dataset(seed, n, &[6, 5, 4], 2, 3);
        let problem = ParetoProblem {
            depth: 3,
            max_splits: (limit > 0).then_some(limit),
            thresholds: ThresholdMode::All,
        };
        check(&data, &problem, ParetoBounds::default())?;
    }
}

/// Stopped before it starts, the search returns trees whose points are reachable and a
/// lower-bound front below every point of the true front.
#[test]
fn a_stopped_search_returns_reachable_points_and_a_valid_lower_bound() {
    for seed in 0..6 {
        let data = mixed_dataset(seed, 14, &[3, 4, 2], 2, 1);
        let problem = ParetoProblem::new(3);
        let expected = oracle_front(&data, &problem);
        for limit in [0.0, 1e-4] {
            let options = ParetoOptions {
                budget: Budget::seconds(limit),
                ..ParetoOptions::default()
            };
            let outcome = solve(&data, &problem, &options).expect("solves");
            for front_tree in &outcome.front {
                let point = errors_of(&front_tree.tree, &data);
                assert_eq!(point, front_tree.point);
                assert!(
                    expected.iter().any(|e| e.weakly_dominates(point)),
                    "seed {seed}: ({}, {}) is better than the front",
                    point.fp,
                    point.fn_
                );
            }
            for e in &expected {
                assert!(
                    outcome.lower_bound.iter().any(|l| l.weakly_dominates(*e)),
                    "seed {seed}: the lower bound misses ({}, {})",
                    e.fp,
                    e.fn_
                );
            }
        }
    }
}
