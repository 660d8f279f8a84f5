//! The depth-two search by counts (binarised and few-valued features) against the exhaustive
//! oracle: on random 0/1 and three-valued data with up to six features, depths 2 and 3, split
//! costs, leaf minima, split limits and class weights, the optimum with the kernel on equals
//! the oracle's and the one with it off, the tree scores it, and the kernel did solve
//! depth-two subproblems.

use milptree::dp::{solve, BoundSwitches, DpOptions};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use crate::common::random_dataset;
use crate::dp_oracle::check_outcome;
use crate::threads::{oracle_optimum, problem};

fn with_counts(counts: bool) -> DpOptions {
    DpOptions {
        bounds: BoundSwitches {
            counts,
            ..BoundSwitches::default()
        },
        ..DpOptions::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 96,
        rng_seed: RngSeed::Fixed(20_261_203),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn depth_two_by_counts_reaches_the_oracle_optimum(
        seed in 0u64..1_000_000, n in 8usize..=40, p in 2usize..=6, k in 2usize..=4,
        levels in 2u32..=3, depth in 2usize..=3, balanced in any::<bool>(),
        split_cost in prop_oneof![Just(0.0), Just(0.5), Just(2.0)],
        min_leaf in prop_oneof![3 => Just(1usize), 2 => 2usize..=5],
        max_splits in prop_oneof![3 => Just(None), 2 => (1usize..=4).prop_map(Some)],
    ) {
        // Three-valued features only with fewer of them: the oracle enumerates every tree.
        let p = if levels == 3 { p.min(4) } else { p };
        let depth = if p > 4 { 2 } else { depth };
        let data = random_dataset(seed, n, p, k, levels);
        let problem = problem(&data, &(depth, balanced, split_cost, min_leaf, max_splits));
        let expected = oracle_optimum(&data, &problem);
        let what = format!("seed {seed}, {n} rows, {p} features, {k} classes, {problem:?}");
        let counted = solve(&data, &problem, &with_counts(true))
            .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
        check_outcome(&data, &problem, &counted, expected, &format!("{what}, by counts"))?;
        let scanned = solve(&data, &problem, &with_counts(false))
            .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
        check_outcome(&data, &problem, &scanned, expected, &format!("{what}, by scans"))?;
        prop_assert_eq!(scanned.stats.depth2_counted, 0);
    }
}

/// On 0/1 features the depth-two subproblems are solved by counts (the statistics say so), and
/// the optimum at depths 2 and 3 is the oracle's on data of up to 60 rows and 7 features.
#[test]
fn binary_features_are_solved_by_counts() {
    for seed in 0..6u64 {
        let data = random_dataset(seed, 60, 7, 2 + (seed as usize % 2), 2);
        for depth in [2, 3] {
            let problem = problem(&data, &(depth, seed % 3 == 0, 0.0, 1, None));
            let expected = oracle_optimum(&data, &problem);
            let outcome = solve(&data, &problem, &with_counts(true)).expect("solves");
            check_outcome(&data, &problem, &outcome, expected, &format!("seed {seed}"))
                .unwrap_or_else(|e| panic!("seed {seed}, depth {depth}: {e}"));
            assert!(
                outcome.stats.depth2_counted > 0,
                "seed {seed}, depth {depth}: no depth-two subproblem was solved by counts"
            );
        }
    }
}
