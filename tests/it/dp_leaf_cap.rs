//! The exact search under a cap on the rows of a leaf (`max_leaf_rows`) against the exhaustive
//! oracle: on small random data (ties, two or three classes, split costs, split budgets, leaf
//! minima, accuracy and balanced weights), caps from a quarter of the rows to all but one at
//! depths 1 to 3 reach the oracle's optimum on one and two threads, with every pruning
//! technique on and with each switched off in turn; the tree returned scores its objective under
//! plain counting and meets the cap. Where the oracle finds no tree, the search proves there is
//! none ([`Error::Infeasible`], exit 2) on every configuration. Also on larger data (depth 3, tens
//! of thresholds a feature), and the cap is shown to change the optimum. A search stopped before
//! it found a tree under the cap reports no tree (exit 0, as a MILP stopped without a solution;
//! exit 1 only when a tree file was asked for).

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

/// Stopped by the time limit before any tree meets the cap, `solve` reports the run without a
/// tree (`has_solution` false, exit 0), as it reports a MILP stopped without a solution; with
/// `-o` the tree it could not write is an error (exit 1).
#[test]
fn a_search_stopped_before_a_tree_under_the_cap_reports_no_tree() {
    use crate::common::{milptree, path_str, stderr, temp_file};
    let (dir, path) = temp_file(
        "mlr.csv",
        "x,class\n1,a\n2,a\n3,a\n4,a\n5,a\n6,a\n7,b\n8,b\n",
    );
    for solver in ["dp", "sparse"] {
        let base = [
            "solve",
            path_str(&path),
            "--solver",
            solver,
            "--depth",
            "2",
            "--max-leaf-rows",
            "3",
            "--time-limit",
            "0",
        ];
        let output = milptree(&[&base[..], &["--json"]].concat());
        assert_eq!(
            output.status.code(),
            Some(0),
            "{solver}: {}",
            stderr(&output)
        );
        let report: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("the JSON report");
        assert_eq!(report["has_solution"], false, "{solver}: {report}");
        assert_eq!(report["termination"], "time_limit", "{solver}: {report}");
        assert!(report["tree"].is_null(), "{solver}: {report}");
        let human = milptree(&base);
        assert_eq!(human.status.code(), Some(0), "{solver}: {}", stderr(&human));
        let text = String::from_utf8_lossy(&human.stdout);
        assert!(
            text.contains("no tree: the search found none"),
            "{solver}: {text}"
        );
        let tree = dir.path().join("tree.json");
        let written = milptree(&[&base[..], &["-o", path_str(&tree)]].concat());
        assert_eq!(written.status.code(), Some(1), "{solver}");
        assert!(
            stderr(&written).contains("no tree to write"),
            "{}",
            stderr(&written)
        );
        assert!(!tree.exists(), "{solver}");
    }
}
