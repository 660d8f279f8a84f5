//! The exact search under a cap on the rows of a leaf (`max_leaf_rows`) against the exhaustive
//! oracle: on small random data (ties, two or three classes, split costs, split budgets, leaf
//! minima, accuracy and balanced weights), caps from a quarter of the rows to all but one at
//! depths 1 to 3 reach the oracle's optimum on one and two threads, with every pruning
//! technique on and with each switched off in turn; the tree returned scores its objective under
//! plain counting and meets the cap. Where the oracle finds no tree, the search proves there is
//! none ([`Error::Infeasible`], exit 2) on every configuration. Also on larger data (depth 3, tens
//! of thresholds a feature), and the cap is shown to change the optimum.

use milptree::data::Dataset;
use milptree::dp::{solve, BoundSwitches, DpOptions};
use milptree::error::Error;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use crate::common::random_dataset;
use crate::dp_leaf_minimum::{check, check_every_way, oracle_if_any, problem, Case};

/// Checks that the search proves `case` on `data` infeasible, on one and two threads and with
/// each pruning technique off in turn.
fn check_infeasible(data: &Dataset, case: &Case) -> Result<(), TestCaseError> {
    let mut ways: Vec<(BoundSwitches, usize)> =
        vec![(BoundSwitches::default(), 1), (BoundSwitches::default(), 2)];
    for name in BoundSwitches::NAMES {
        if name != "ascent" {
            ways.push((BoundSwitches::without(name).expect("a switch"), 1));
        }
    }
    for (bounds, threads) in ways {
        let options = DpOptions {
            bounds,
            threads,
            ..DpOptions::default()
        };
        match solve(data, &problem(data, case), &options) {
            Err(error @ Error::Infeasible(_)) => {
                prop_assert_eq!(error.exit_code(), 2);
                prop_assert!(error.to_string().contains("max_leaf_rows"), "{}", error);
            }
            other => prop_assert!(
                false,
                "{:?}, {} thread(s), {:?}: no tree meets it, but the search gave {:?}",
                case,
                threads,
                bounds,
                other.map(|o| (o.objective, o.termination))
            ),
        }
    }
    Ok(())
}

/// Checks `case` on `data` against the oracle, every way, feasible or not.
fn check_case(data: &Dataset, case: &Case) -> Result<(), TestCaseError> {
    match oracle_if_any(data, case) {
        Some(expected) => check_every_way(data, case, expected),
        None => check_infeasible(data, case),
    }
}

fn case_strategy() -> impl Strategy<Value = (Case, usize)> {
    (
        1usize..=3,
        prop_oneof![3 => Just(1usize), 1 => 2usize..=4],
        any::<bool>(),
        prop_oneof![3 => Just(0.0), 1 => Just(0.5)],
        prop_oneof![3 => Just(None), 1 => (0usize..=5).prop_map(Some)],
        // The cap, in quarters of the rows (4: all but one row).
        1usize..=4,
    )
        .prop_map(
            |(depth, min_leaf, balanced, split_cost, max_splits, quarters)| {
                (
                    Case {
                        depth,
                        min_leaf,
                        balanced,
                        split_cost,
                        max_splits,
                        max_leaf: None,
                    },
                    quarters,
                )
            },
        )
}

/// The cap of `quarters` quarters of `n` rows (all but one row for 4), at least 1.
fn cap(n: usize, quarters: usize) -> usize {
    if quarters >= 4 {
        n - 1
    } else {
        (n * quarters / 4).max(1)
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        rng_seed: RngSeed::Fixed(20_261_126),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn leaf_caps_reach_the_oracle_optimum_every_way(
        seed in 0u64..1_000_000, n in 12usize..=30, p in 1usize..=3, k in 2usize..=3,
        levels in 3u32..=8, (case, quarters) in case_strategy(),
    ) {
        let data = random_dataset(seed, n, p, k, levels);
        let max_leaf = cap(data.n_rows(), quarters);
        prop_assume!(case.min_leaf <= max_leaf);
        let case = Case { max_leaf: Some(max_leaf), ..case };
        check_case(&data, &case)?;
    }
}

/// Larger data, where features have tens of thresholds and the general recursion (and, on two
/// threads, the root's shared work) searches under the cap; some caps leave no tree.
#[test]
fn leaf_caps_reach_the_oracle_optimum_on_larger_data() {
    let cases = [
        // seed, rows, features, classes, levels, depth, min_leaf, cap, balanced, max_splits
        (
            1u64, 48usize, 2usize, 2usize, 30u32, 3usize, 1usize, 12usize, false, None,
        ),
        (2, 48, 3, 3, 20, 3, 1, 8, true, None),
        (3, 60, 2, 2, 40, 3, 3, 20, false, None),
        (4, 60, 2, 2, 40, 3, 1, 7, false, None),
        (5, 40, 3, 2, 40, 3, 2, 15, true, Some(3)),
        (6, 70, 2, 2, 60, 3, 1, 30, false, Some(2)),
        (7, 70, 2, 3, 70, 2, 1, 25, false, None),
        (8, 48, 2, 2, 30, 2, 4, 14, false, None),
    ];
    let mut changed = false;
    let mut infeasible = false;
    for (seed, n, p, k, levels, depth, min_leaf, max_leaf, balanced, max_splits) in cases {
        let data = random_dataset(seed, n, p, k, levels);
        let case = Case {
            depth,
            min_leaf,
            balanced,
            split_cost: 0.0,
            max_splits,
            max_leaf: Some(max_leaf),
        };
        let free = oracle_if_any(
            &data,
            &Case {
                max_leaf: None,
                ..case.clone()
            },
        )
        .expect("a leaf");
        match oracle_if_any(&data, &case) {
            Some(expected) => {
                changed |= expected > free + 1e-9;
                for threads in [1, 2] {
                    check(&data, &case, BoundSwitches::default(), threads, expected)
                        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                }
            }
            None => {
                infeasible = true;
                check_infeasible(&data, &case).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            }
        }
    }
    assert!(changed, "no cap changed the optimum");
    assert!(infeasible, "every cap left a tree");
}

/// The cap binds on the data whatever the depth: the optimum under it is above the optimum
/// without it on some data at each depth 1 to 3.
#[test]
fn a_leaf_cap_changes_the_optimum_at_each_depth() {
    for depth in 1..=3 {
        let changed = (0..20u64).any(|seed| {
            let data = random_dataset(seed, 24, 2, 2, 6);
            let case = Case {
                depth,
                min_leaf: 1,
                balanced: false,
                split_cost: 0.0,
                max_splits: None,
                max_leaf: Some([16, 10, 6][depth - 1]),
            };
            let free = oracle_if_any(
                &data,
                &Case {
                    max_leaf: None,
                    ..case.clone()
                },
            )
            .expect("a leaf");
            let Some(expected) = oracle_if_any(&data, &case) else {
                return false;
            };
            check(&data, &case, BoundSwitches::default(), 1, expected)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            expected > free + 1e-9
        });
        assert!(changed, "depth {depth}: the cap never changed the optimum");
    }
}
