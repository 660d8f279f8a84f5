//! The exact search under leaf minima against the exhaustive oracle: on small random data (ties,
//! two or three classes, split costs, split limits, accuracy and balanced weights), leaf minima
//! of 1 to 6 at depths 1 to 3 reach the oracle's optimum on one and on two threads, with every
//! pruning technique on and with each switched off in turn; so do rows repeated by whole-number
//! weights (each copy a row, for the oracle too; the learner, whose `--min-leaf` counts rows
//! whatever their weights, takes a minimum of one with row weights and refuses more) and data with
//! missing values (the oracle tries both sides at every split, the search runs on the copies).
//! The tree returned scores its objective under plain counting and meets the minimum. Also on
//! larger data, where the bisection over split positions and the search without the minimum
//! that bounds it come into play.

use milptree::data::{Dataset, ThresholdMode};
use milptree::dp::{solve, BoundSwitches, DpOptions, DpProblem};
use milptree::formulation::Objective;
use milptree::learn::{DpParams, LearnOptions};
use milptree::tree::missing_copies::MissingCopies;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use crate::common::{random_dataset, repeated_rows, with_random_weights};
use crate::dp_oracle::check_outcome;
use crate::missing_values::with_missing;
use crate::oracle::{all_midpoints, optimum_if_any, OracleSpec};

/// The problem of one case, besides the data (shared with the tests of the cap on the rows
/// of a leaf, [`crate::dp_leaf_cap`]).
#[derive(Debug, Clone)]
pub struct Case {
    pub depth: usize,
    pub min_leaf: usize,
    pub balanced: bool,
    pub split_cost: f64,
    pub max_splits: Option<usize>,
    /// A cap on the rows of a leaf.
    pub max_leaf: Option<usize>,
}

pub fn problem(data: &Dataset, case: &Case) -> DpProblem {
    let objective = if case.balanced {
        Objective::Balanced
    } else {
        Objective::Accuracy
    };
    DpProblem {
        depth: case.depth,
        max_splits: case.max_splits,
        thresholds: ThresholdMode::All,
        class_weights: objective.class_weights(data),
        split_cost: case.split_cost,
        min_leaf: case.min_leaf,
        max_leaf: case.max_leaf,
    }
}

/// The oracle's optimum of `case` on `data` (every midpoint, both sides of a missing value).
fn oracle(data: &Dataset, case: &Case) -> f64 {
    oracle_if_any(data, case).expect("a leaf meets a case without a cap")
}

/// [`oracle`], `None` when no tree meets the case.
pub fn oracle_if_any(data: &Dataset, case: &Case) -> Option<f64> {
    let spec = OracleSpec {
        depth: case.depth,
        class_weights: problem(data, case).class_weights,
        split_cost: case.split_cost,
        min_leaf: case.min_leaf,
        max_leaf: case.max_leaf,
        thresholds: Some(all_midpoints(data)),
        max_splits: case.max_splits,
    };
    optimum_if_any(data, &spec).map(|o| o.objective)
}

/// The rows each leaf of `tree` receives, for the leaves some row reaches.
fn leaf_rows(tree: &milptree::tree::Tree, data: &Dataset) -> Vec<usize> {
    let mut rows = std::collections::BTreeMap::new();
    for row in data.rows() {
        *rows.entry(tree.leaf_of(row)).or_insert(0usize) += 1;
    }
    rows.into_values().collect()
}

/// Solves `case` on `data` (rows without weights, no missing value) with `bounds` on
/// `threads` threads, and checks the result against `expected`.
pub fn check(
    data: &Dataset,
    case: &Case,
    bounds: BoundSwitches,
    threads: usize,
    expected: f64,
) -> Result<(), TestCaseError> {
    let problem = problem(data, case);
    let options = DpOptions {
        bounds,
        threads,
        ..DpOptions::default()
    };
    let what = format!("{case:?}, {threads} thread(s), {bounds:?}");
    let outcome =
        solve(data, &problem, &options).map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
    check_outcome(data, &problem, &outcome, expected, &what)?;
    let rows = leaf_rows(&outcome.tree, data);
    let smallest = rows.iter().copied().min();
    prop_assert!(
        smallest.is_some_and(|rows| rows >= case.min_leaf),
        "{}: a leaf of {:?} rows",
        what,
        smallest
    );
    let largest = rows.iter().copied().max().unwrap_or(0);
    prop_assert!(
        case.max_leaf.is_none_or(|cap| largest <= cap),
        "{}: a leaf of {} rows",
        what,
        largest
    );
    Ok(())
}

/// Every configuration of one case: one and two threads with every switch on, then each
/// switch off in turn (the bound ascent, off by default, on instead).
pub fn check_every_way(data: &Dataset, case: &Case, expected: f64) -> Result<(), TestCaseError> {
    for threads in [1, 2] {
        check(data, case, BoundSwitches::default(), threads, expected)?;
    }
    for name in BoundSwitches::NAMES {
        let bounds = if name == "ascent" {
            BoundSwitches::with(name)
        } else {
            BoundSwitches::without(name)
        }
        .expect("a known switch");
        check(data, case, bounds, 1, expected)?;
    }
    Ok(())
}

fn case_strategy() -> impl Strategy<Value = Case> {
    (
        1usize..=3,
        1usize..=6,
        any::<bool>(),
        prop_oneof![3 => Just(0.0), 1 => Just(0.5)],
        prop_oneof![3 => Just(None), 1 => (0usize..=5).prop_map(Some)],
    )
        .prop_map(|(depth, min_leaf, balanced, split_cost, max_splits)| Case {
            depth,
            min_leaf,
            balanced,
            split_cost,
            max_splits,
            max_leaf: None,
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        rng_seed: RngSeed::Fixed(20_260_147),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn leaf_minima_reach_the_oracle_optimum_every_way(
        seed in 0u64..1_000_000, n in 12usize..=30, p in 1usize..=3, k in 2usize..=3,
        levels in 3u32..=8, case in case_strategy(),
    ) {
        let data = random_dataset(seed, n, p, k, levels);
        prop_assume!(case.min_leaf <= data.n_rows());
        let expected = oracle(&data, &case);
        check_every_way(&data, &case, expected)?;
    }

    #[test]
    fn leaf_minima_and_split_budgets_reach_the_oracle_optimum(
        seed in 0u64..1_000_000, n in 20usize..=40, p in 1usize..=2, k in 2usize..=3,
        levels in 6u32..=14, min_leaf in 2usize..=6, max_splits in 1usize..=5,
        balanced in any::<bool>(),
    ) {
        let data = random_dataset(seed, n, p, k, levels);
        let case = Case {
            depth: 3,
            min_leaf,
            balanced,
            split_cost: 0.0,
            max_splits: Some(max_splits),
            max_leaf: None,
        };
        let expected = oracle(&data, &case);
        for threads in [1, 2] {
            check(&data, &case, BoundSwitches::default(), threads, expected)?;
        }
    }

    #[test]
    fn leaf_minima_on_rows_repeated_by_weight_reach_the_oracle(
        seed in 0u64..1_000_000, n in 8usize..=16, p in 1usize..=3, k in 2usize..=3,
        levels in 3u32..=6, case in case_strategy(),
    ) {
        let weighted = with_random_weights(random_dataset(seed, n, p, k, levels), seed, true);
        let copies = repeated_rows(&weighted);
        prop_assume!(case.min_leaf <= copies.n_rows());
        let expected = oracle(&copies, &case);
        // The search takes weighted rows repeated by their weights, each copy a row.
        let repeated = weighted.repeated_by_weight(&milptree::setting::Named::same("the test")).expect("whole weights");
        check_every_way(&repeated, &case, expected)?;
        // The learner's `--min-leaf` counts rows whatever their weights, which copies cannot:
        // with row weights it takes a minimum of one only, and refuses more naming the option.
        let search = DpParams {
            min_leaf: case.min_leaf,
            max_splits: case.max_splits,
            ..DpParams::default()
        }
        .check(case.depth)
        .expect("valid parameters");
        if !case.balanced && case.split_cost == 0.0 {
            for threads in [1, 2] {
                let options = LearnOptions {
                    threads: Some(threads),
                    ..LearnOptions::default()
                };
                match search.run(&weighted, &options) {
                    Ok(outcome) => {
                        prop_assert_eq!(case.min_leaf, 1, "a minimum above 1 with row weights is taken");
                        let found = outcome.report.objective.expect("a tree");
                        prop_assert!(
                            (found - expected).abs() <= 1e-9,
                            "{:?}, {} thread(s): the learner found {} but the optimum is {}",
                            case, threads, found, expected
                        );
                    }
                    Err(error) => {
                        prop_assert!(case.min_leaf > 1, "{:?}: refused: {}", case, error);
                        prop_assert!(error.to_string().contains("--min-leaf"), "{}", error);
                    }
                }
            }
        }
    }

    #[test]
    fn leaf_minima_reach_the_oracle_optimum_with_missing_values(
        seed in 0u64..1_000_000, n in 12usize..=24, p in 1usize..=2, k in 2usize..=3,
        levels in 3u32..=6, fraction in prop_oneof![Just(0.1), Just(0.25)],
        case in case_strategy(),
    ) {
        let data = with_missing(&random_dataset(seed, n, p, k, levels), fraction, seed);
        prop_assume!(data.has_missing() && case.min_leaf <= data.n_rows());
        let expected = oracle(&data, &case);
        let copies = MissingCopies::of(&data).expect("copies").expect("missing values");
        check_every_way(copies.data(), &case, expected)?;
    }
}

/// Larger data, where features have tens of thresholds: the bisection over split positions,
/// its bounds under the minimum and the search without the minimum all come into play.
#[test]
fn leaf_minima_reach_the_oracle_optimum_on_larger_data() {
    let cases = [
        (
            1u64, 48usize, 2usize, 2usize, 30u32, 3usize, 2usize, false, None,
        ),
        (2, 48, 3, 3, 20, 3, 4, true, None),
        (3, 60, 2, 2, 40, 3, 6, false, None),
        (4, 80, 3, 2, 40, 2, 5, true, None),
        (5, 40, 3, 2, 40, 3, 3, true, None),
        (6, 70, 2, 2, 60, 3, 5, false, None),
        (7, 70, 2, 3, 70, 3, 2, false, None),
        (8, 48, 2, 2, 30, 3, 3, false, Some(2)),
        (9, 48, 2, 2, 30, 3, 4, true, Some(3)),
        (10, 60, 2, 2, 40, 3, 2, false, Some(4)),
        (11, 60, 2, 3, 40, 3, 5, false, Some(5)),
        (12, 40, 3, 2, 30, 3, 6, true, Some(3)),
    ];
    for (seed, n, p, k, levels, depth, min_leaf, balanced, max_splits) in cases {
        let data = random_dataset(seed, n, p, k, levels);
        let case = Case {
            depth,
            min_leaf,
            balanced,
            split_cost: 0.0,
            max_splits,
            max_leaf: None,
        };
        let expected = oracle(&data, &case);
        for threads in [1, 2] {
            check(&data, &case, BoundSwitches::default(), threads, expected)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }
}

/// The bounds between neighbouring row sets the search relies on under a leaf minimum `m`
/// (src/dp/leaf_minimum.rs), on the oracle's optima of random data and of the data less `k`
/// random rows, at depths 1 and 2 and every split budget: on fewer rows an optimum falls by at
/// most the weight of the rows removed; on more rows it falls by at most
/// `min(k, b - 1)(m - 1)` below the smaller set's optimum, or `b (m - 1)` below its leaf when
/// `k >= b`; without the minimum it never falls on more rows, and never exceeds the optimum
/// with the minimum. Accuracy: every row weighs 1, so the slack of one repair is `m - 1`.
#[test]
fn the_bounds_between_neighbouring_row_sets_hold() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(47);
    let mut tight = 0;
    for seed in 0..40u64 {
        let data = random_dataset(seed, 14 + (seed % 7) as usize, 2, 2, 5);
        let n = data.n_rows();
        let k = 1 + (seed % 4) as usize;
        let mut kept: Vec<usize> = (0..n).collect();
        for _ in 0..k {
            kept.remove(rng.random_range(0..kept.len()));
        }
        let smaller = data.subset(&kept);
        for depth in 1..=2usize {
            for budget in 0..=(1usize << depth) - 1 {
                for m in 1..=4usize {
                    // The whole data's thresholds, as the search has them for any subset.
                    let spec = |min_leaf: usize, splits: usize| OracleSpec {
                        min_leaf,
                        max_splits: Some(splits),
                        thresholds: Some(all_midpoints(&data)),
                        ..OracleSpec::errors(&data, depth)
                    };
                    let optimum = |rows: &Dataset, min_leaf: usize, splits: usize| {
                        crate::oracle::optimum(rows, &spec(min_leaf, splits)).objective
                    };
                    let (large, small) = (optimum(&data, m, budget), optimum(&smaller, m, budget));
                    let leaf = optimum(&smaller, m, 0);
                    let what = format!("seed {seed}, depth {depth}, budget {budget}, m {m}, k {k}");
                    assert!(small >= large - k as f64, "{what}: fewer rows");
                    let slack = (m - 1) as f64;
                    let mut bound = small - (k.min(budget.saturating_sub(1)) as f64) * slack;
                    if budget == 0 {
                        bound = small;
                    } else if k >= budget {
                        bound = bound.min(leaf - budget as f64 * slack);
                    }
                    assert!(large >= bound, "{what}: more rows, {large} < {bound}");
                    tight += usize::from(large < small);
                    let (free_large, free_small) =
                        (optimum(&data, 1, budget), optimum(&smaller, 1, budget));
                    assert!(free_large >= free_small, "{what}: without the minimum");
                    assert!(
                        large >= free_large && small >= free_small,
                        "{what}: relaxation"
                    );
                }
            }
        }
    }
    // The minimum does make an optimum fall on more rows here and there.
    assert!(tight > 0, "no optimum fell on more rows");
}
