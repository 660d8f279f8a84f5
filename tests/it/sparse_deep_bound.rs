//! The sparse search's bound on trees of any depth (the bound pass after each depth the
//! deepening closes, `SparseSwitches::deep_bound`) against brute force: on small random data
//! without a depth cap, every lower bound the search publishes while it deepens is at most the
//! brute force's optimum at every depth it enumerates (the optimum of any depth is at least
//! the optimum over all depths), and the optimum is the same with the pass on and off.

use std::sync::{Arc, Mutex};

use milptree::data::ThresholdMode;
use milptree::search_core::ProgressSink;
use milptree::sparse::{solve, Loss, SparseOptions, SparseProblem, SparseSwitches};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use crate::common::random_dataset;
use crate::sparse_oracle::brute_force;

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 40,
        rng_seed: RngSeed::Fixed(20_261_127),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Bounds published with the pass on never exceed the brute force's optimum, and the
    /// optimum (the brute force's at the tree's depth) does not depend on the pass.
    #[test]
    fn the_bound_on_deeper_trees_never_exceeds_the_optimum(
        seed in 0u64..10_000,
        n in 8usize..12,
        loss_index in 0usize..3,
        penalty in prop_oneof![Just(0.015), Just(0.03), Just(0.06)],
    ) {
        let data = random_dataset(seed, n, 2, 2, 4);
        let loss = match loss_index {
            0 => Loss::Accuracy,
            1 => Loss::Balanced,
            _ => Loss::Weighted { weights: vec![1.0, 2.5] },
        };
        let problem = SparseProblem {
            loss,
            leaf_penalty: penalty,
            depth: None,
            thresholds: ThresholdMode::All,
        };
        let best_capped = (1..=3)
            .map(|depth| brute_force(&data, &problem, depth))
            .fold(f64::INFINITY, f64::min);
        let mut optima = Vec::new();
        for switches in [
            SparseSwitches::default(),
            SparseSwitches::without("deep_bound").map_err(|e| TestCaseError::fail(e.to_string()))?,
            // Without the greedy tree, the deepening's incumbents are weaker: more passes.
            SparseSwitches { greedy: false, ..SparseSwitches::default() },
        ] {
            let bounds = Arc::new(Mutex::new(Vec::new()));
            let published = Arc::clone(&bounds);
            let options = SparseOptions {
                switches,
                progress: ProgressSink::new(move |_, bound| {
                    published.lock().map(|mut b| b.push(bound)).ok();
                }),
                ..SparseOptions::default()
            };
            let outcome = solve(&data, &problem, &options)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(outcome.is_optimal());
            prop_assert!(switches.deep_bound || outcome.stats.bound_passes == 0);
            let bounds = bounds.lock().map(|b| b.clone()).unwrap_or_default();
            for bound in bounds {
                prop_assert!(
                    bound <= best_capped + 1e-9,
                    "{:?} on {:?} with {:?}: bound {} above the brute force's optimum {}",
                    problem, data.source(), switches, bound, best_capped
                );
            }
            prop_assert!(outcome.objective <= best_capped + 1e-9);
            let depth = outcome.tree.actual_depth();
            if depth <= 3 {
                let expected = brute_force(&data, &problem, depth.max(1));
                prop_assert!((outcome.objective - expected).abs() < 1e-9);
            }
            optima.push(outcome.objective);
        }
        prop_assert!(optima.iter().all(|o| (o - optima[0]).abs() < 1e-9), "{:?}", optima);
    }
}

/// The pass runs without a cap (not with one), and the optimum is the same without it.
#[test]
fn the_pass_runs_without_a_cap_and_not_with_one() {
    let data = random_dataset(7, 40, 3, 2, 6);
    let mut problem = SparseProblem {
        loss: Loss::Accuracy,
        leaf_penalty: 0.02,
        depth: None,
        thresholds: ThresholdMode::All,
    };
    let on = solve(&data, &problem, &SparseOptions::default()).expect("solves");
    assert!(on.is_optimal());
    assert!(on.stats.bound_passes > 0, "{:?}", on.stats);
    let off = solve(
        &data,
        &problem,
        &SparseOptions {
            switches: SparseSwitches::without("deep_bound").expect("a switch"),
            ..SparseOptions::default()
        },
    )
    .expect("solves");
    assert_eq!(off.stats.bound_passes, 0);
    assert!((on.objective - off.objective).abs() < 1e-9);
    problem.depth = Some(4);
    let capped = solve(&data, &problem, &SparseOptions::default()).expect("solves");
    assert_eq!(capped.stats.bound_passes, 0);
}
