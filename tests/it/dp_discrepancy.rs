//! The limited-discrepancy passes of deep searches (depth five and more under a time limit):
//! with time to finish, the search after them still proves the oracle's optimum at depth five,
//! whatever the split cost, leaf minimum, split limit and class weights, and the passes did run
//! (on 0/1 features, where every split is a candidate, the passes alone reach that optimum);
//! stopped mid-pass, the tree returned scores what the search says, is no worse than the greedy
//! start, and its bound stays below it; the trajectory only improves.

use milptree::budget::Budget;
use milptree::dp::{objective_of, solve, BoundSwitches, DpOptions, DpTermination};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use crate::common::random_dataset;
use crate::dp_oracle::check_outcome;
use crate::threads::{oracle_optimum, problem};

/// A limit the small cases never reach (the passes only run under a limit), the passes given
/// the whole of it or none of it.
fn with_passes(passes: bool, seconds: f64, until: f64) -> DpOptions {
    DpOptions {
        budget: Budget::seconds(seconds),
        bounds: BoundSwitches {
            discrepancy: passes,
            ..BoundSwitches::default()
        },
        discrepancy_until: until,
        ..DpOptions::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        rng_seed: RngSeed::Fixed(20_261_204),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn after_the_passes_the_search_proves_the_oracle_optimum_at_depth_five(
        seed in 0u64..1_000_000, n in 10usize..=36, p in 2usize..=3, k in 2usize..=3,
        levels in 2u32..=3, balanced in any::<bool>(),
        split_cost in prop_oneof![Just(0.0), Just(0.5)],
        min_leaf in prop_oneof![3 => Just(1usize), 1 => 2usize..=3],
        max_splits in prop_oneof![3 => Just(None), 1 => (2usize..=6).prop_map(Some)],
        until in prop_oneof![Just(1.0), Just(0.5)],
    ) {
        // Few candidate splits: the oracle enumerates every tree of depth five.
        let levels = if p == 3 { 2 } else { levels };
        let data = random_dataset(seed, n, p, k, levels);
        let problem = problem(&data, &(5, balanced, split_cost, min_leaf, max_splits));
        let expected = oracle_optimum(&data, &problem);
        let what = format!("seed {seed}, {n} rows, {p} features, {k} classes, {problem:?}");
        let outcome = solve(&data, &problem, &with_passes(true, 120.0, until))
            .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
        check_outcome(&data, &problem, &outcome, expected, &format!("{what}, with passes"))?;
        prop_assert!(outcome.stats.discrepancy_passes > 0, "{}: no pass ran", what);
        // With time to spare every pass ran to its end, the last one included.
        prop_assert_eq!(
            outcome.stats.discrepancy_proven,
            Some(outcome.stats.discrepancy_passes - 1),
            "{}", what
        );
        let without = solve(&data, &problem, &with_passes(false, 120.0, until))
            .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
        check_outcome(&data, &problem, &without, expected, &format!("{what}, without"))?;
        prop_assert_eq!(without.stats.discrepancy_passes, 0);
        prop_assert_eq!(without.stats.discrepancy_proven, None);
        // On 0/1 features every split of a node is among its candidates (each feature has one
        // threshold), so passes that ended with the widest allowance they needed searched every
        // tree: their best is the oracle's optimum, before the exact search ran.
        if levels == 2 {
            let reached = outcome.stats.discrepancy_objective;
            prop_assert!(
                reached.is_some_and(|cost| (cost - expected).abs() < 1e-9),
                "{}: the passes reached {:?}, the optimum is {}", what, reached, expected
            );
        }
    }
}

/// A search at depth six on 3,000 rows stopped by its limit inside the passes (given the whole
/// limit): the tree it returns scores the objective it reports, no more than the greedy start's,
/// the lower bound is at most that, and the incumbents of the trajectory never rise.
#[test]
fn a_search_stopped_in_its_passes_returns_a_tree_it_scores_no_worse_than_the_greedy_start() {
    for seed in 0..3u64 {
        let data = random_dataset(500 + seed, 3000, 8, 2 + seed as usize, 40);
        let problem = problem(&data, &(6, seed == 1, 0.0, 1 + seed as usize, None));
        let outcome = solve(&data, &problem, &with_passes(true, 1.5, 1.0)).expect("solves");
        assert_eq!(outcome.termination, DpTermination::TimeLimit, "seed {seed}");
        assert!(outcome.stats.discrepancy_passes > 0, "seed {seed}");
        let scored = objective_of(&outcome.tree, &data, &problem).expect("meets the problem");
        assert!(
            (scored - outcome.objective).abs() < 1e-6,
            "seed {seed}: the tree scores {scored}, the search says {}",
            outcome.objective
        );
        assert!(
            outcome.objective <= outcome.stats.initial_objective + 1e-9,
            "seed {seed}: {} is worse than the greedy start's {}",
            outcome.objective,
            outcome.stats.initial_objective
        );
        assert!(
            outcome.lower_bound <= outcome.objective + 1e-9,
            "seed {seed}"
        );
        for pair in outcome.trajectory.windows(2) {
            assert!(pair[0].seconds <= pair[1].seconds, "seed {seed}: {pair:?}");
            assert!(
                pair[1].incumbent <= pair[0].incumbent + 1e-9,
                "seed {seed}: {pair:?}"
            );
        }
    }
}
