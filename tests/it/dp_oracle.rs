//! The DP search against the exhaustive oracle: on small random data (ties, duplicate rows,
//! two to four classes) the search's optimum equals the oracle's for depths 1 to 3, accuracy
//! and balanced weights, split costs, leaf minima, split limits and both threshold modes; the
//! returned tree scores exactly that optimum under plain counting, and uses only candidate
//! thresholds. Every pruning technique turned off in turn still reaches the same optimum.

use milptree::data::{feature_thresholds, Dataset, ThresholdMode};
use milptree::dp::{
    objective_of, solve, BoundSwitches, DpOptions, DpOutcome, DpProblem, DpTermination,
};
use milptree::formulation::Objective;
use milptree::tree::{NodeKind, Split};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use crate::common::random_dataset;
use crate::oracle::{all_midpoints, optimum, OracleSpec};

/// The problem of one test case.
#[derive(Debug, Clone)]
struct Case {
    depth: usize,
    balanced: bool,
    split_cost: f64,
    min_leaf: usize,
    max_splits: Option<usize>,
    mode: ThresholdMode,
}

fn problem(data: &Dataset, case: &Case) -> DpProblem {
    let objective = if case.balanced {
        Objective::Balanced
    } else {
        Objective::Accuracy
    };
    DpProblem {
        depth: case.depth,
        max_splits: case.max_splits,
        thresholds: case.mode,
        class_weights: objective.class_weights(data),
        split_cost: case.split_cost,
        min_leaf: case.min_leaf,
        max_leaf: None,
    }
}

fn oracle_spec(data: &Dataset, problem: &DpProblem) -> OracleSpec {
    OracleSpec {
        depth: problem.depth,
        class_weights: problem.class_weights.clone(),
        split_cost: problem.split_cost,
        min_leaf: problem.min_leaf,
        max_leaf: problem.max_leaf,
        thresholds: Some(match problem.thresholds {
            ThresholdMode::All => all_midpoints(data),
            ThresholdMode::ClassBoundary => feature_thresholds(data, ThresholdMode::ClassBoundary),
        }),
        max_splits: problem.max_splits,
    }
}

/// Checks a search's `outcome` on `data` under `problem` (described as `what`) against the
/// optimum `expected`: proven, equal to it, with an equal bound, and a tree that scores it
/// under plain counting.
pub(crate) fn check_outcome(
    data: &Dataset,
    problem: &DpProblem,
    outcome: &DpOutcome,
    expected: f64,
    what: &str,
) -> Result<(), TestCaseError> {
    let tolerance = 1e-9 * (data.n_rows() as f64).max(1.0) * 4.0;
    prop_assert_eq!(outcome.termination, DpTermination::Optimal, "{}", what);
    prop_assert!(
        (outcome.objective - expected).abs() <= tolerance,
        "{}: the search found {} but the optimum is {}",
        what,
        outcome.objective,
        expected
    );
    prop_assert!((outcome.lower_bound - outcome.objective).abs() <= tolerance);
    let scored = objective_of(&outcome.tree, data, problem);
    prop_assert!(
        scored.is_some_and(|s| (s - outcome.objective).abs() <= tolerance),
        "{}: the tree scores {:?}, the search said {}",
        what,
        scored,
        outcome.objective
    );
    Ok(())
}

/// Solves `data` under `case` with `bounds` and checks the result against the oracle.
fn check_against_oracle(
    data: &Dataset,
    case: &Case,
    bounds: BoundSwitches,
) -> Result<(), TestCaseError> {
    let problem = problem(data, case);
    let expected = optimum(data, &oracle_spec(data, &problem)).objective;
    let options = DpOptions {
        bounds,
        ..DpOptions::default()
    };
    let outcome = solve(data, &problem, &options)
        .map_err(|e| TestCaseError::fail(format!("{case:?} {bounds:?}: {e}")))?;
    check_outcome(
        data,
        &problem,
        &outcome,
        expected,
        &format!("{case:?} {bounds:?}"),
    )?;
    let candidates = feature_thresholds(data, case.mode);
    for (_, node) in outcome.tree.nodes() {
        if let NodeKind::Split(Split::Axis { feature, threshold }) = &node.kind {
            prop_assert!(
                candidates[*feature].contains(threshold),
                "threshold {} of feature {} is not a candidate",
                threshold,
                feature
            );
        }
    }
    Ok(())
}

fn case_strategy() -> impl Strategy<Value = Case> {
    (
        1usize..=3,
        any::<bool>(),
        prop_oneof![Just(0.0), Just(0.5), Just(1.5)],
        prop_oneof![3 => Just(1usize), 1 => 2usize..=3],
        prop_oneof![3 => Just(None), 2 => (0usize..=5).prop_map(Some)],
        prop_oneof![Just(ThresholdMode::All), Just(ThresholdMode::ClassBoundary)],
    )
        .prop_map(
            |(depth, balanced, split_cost, min_leaf, max_splits, mode)| Case {
                depth,
                balanced,
                split_cost,
                min_leaf,
                max_splits,
                mode,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 160,
        rng_seed: RngSeed::Fixed(20_251_123),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn dp_reaches_the_oracle_optimum(
        seed in 0u64..1_000_000, n in 4usize..=18, p in 1usize..=3, k in 2usize..=4,
        levels in 2u32..=5, case in case_strategy(),
    ) {
        let data = random_dataset(seed, n, p, k, levels);
        check_against_oracle(&data, &case, BoundSwitches::default())?;
    }

    #[test]
    fn dp_reaches_the_oracle_optimum_with_each_bound_off(
        seed in 0u64..1_000_000, n in 6usize..=16, p in 2usize..=3, k in 2usize..=3,
        levels in 3u32..=5, case in case_strategy(),
    ) {
        let data = random_dataset(seed, n, p, k, levels);
        for name in BoundSwitches::NAMES {
            let bounds = BoundSwitches::without(name).expect("a known switch");
            check_against_oracle(&data, &case, bounds)?;
        }
    }
}

/// A given upper bound speeds the search up when right and does not mislead it when wrong
/// (below the optimum): the optimum is the same either way.
#[test]
fn a_given_upper_bound_never_changes_the_optimum() {
    for seed in 0..12 {
        let data = random_dataset(seed, 30, 3, 3, 6);
        let problem = DpProblem::accuracy(&data, 3);
        let expected = optimum(&data, &oracle_spec(&data, &problem)).objective;
        for given in [expected - 2.0, expected - 0.5, expected, expected + 3.0] {
            let options = DpOptions {
                upper_bound: Some(given),
                ..DpOptions::default()
            };
            let outcome = solve(&data, &problem, &options).expect("solves");
            assert_eq!(
                outcome.objective, expected,
                "seed {seed}, given bound {given}"
            );
            assert!(outcome.is_optimal());
        }
    }
}

/// Larger data, where features have tens of thresholds and the bisection over positions,
/// its neighbour bounds and the per-feature bounds of the depth-two search all come into play.
#[test]
fn dp_reaches_the_oracle_optimum_on_larger_data() {
    let cases = [
        (1u64, 48usize, 2usize, 2usize, 30u32, 3usize, false),
        (2, 48, 3, 3, 20, 3, true),
        (3, 80, 3, 2, 40, 2, false),
        (4, 80, 3, 4, 40, 2, true),
        (5, 40, 3, 2, 40, 3, true),
        (6, 70, 3, 2, 60, 3, false),
        (7, 70, 2, 3, 70, 3, true),
    ];
    for (seed, n, p, k, levels, depth, balanced) in cases {
        let data = random_dataset(seed, n, p, k, levels);
        let case = Case {
            depth,
            balanced,
            split_cost: 0.0,
            min_leaf: 1,
            max_splits: None,
            mode: ThresholdMode::All,
        };
        check_against_oracle(&data, &case, BoundSwitches::default())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}
