//! The exact search's bound probes (rounds below low targets rising from the proven bound,
//! `BoundSwitches::probe`, off by default) against the exhaustive oracle on small random data (fixed seeds):
//! run first and to the end, they give the oracle's optimum and the same tree as a search
//! without them, on one, two and three threads, at depths 3 and 4, under costs, leaf minima
//! and split caps; and whatever stops a search (a time limit from zero up, the probes run
//! first or in their default share of the limit, or neither), at depths 2 to 4 the bound it
//! reports never lies above the optimum nor its tree below it.

use milptree::budget::Budget;
use milptree::data::{Dataset, ThresholdMode};
use milptree::dp::{
    objective_of, solve, BoundSwitches, DpOptions, DpOutcome, DpProblem, DpTermination,
};

use crate::common::random_dataset;
use crate::threads::oracle_optimum;

/// `(depth, split_cost, min_leaf, max_splits)`.
type Case = (usize, f64, usize, Option<usize>);

fn problem(data: &Dataset, &(depth, split_cost, min_leaf, max_splits): &Case) -> DpProblem {
    DpProblem {
        thresholds: ThresholdMode::All,
        split_cost,
        min_leaf,
        max_splits,
        ..DpProblem::accuracy(data, depth)
    }
}

/// Options with the probes on or off, run from the start (`first`) or in their default share
/// of a limit of `seconds`, on `threads` threads.
fn options(probe: bool, first: bool, seconds: f64, threads: usize) -> DpOptions {
    let defaults = DpOptions::default();
    DpOptions {
        budget: Budget::seconds(seconds),
        bounds: BoundSwitches {
            probe,
            ..BoundSwitches::default()
        },
        threads,
        target_rounds: if first {
            (0.0, 1.0)
        } else {
            defaults.target_rounds
        },
        ..defaults
    }
}

fn check_bracket(outcome: &DpOutcome, data: &Dataset, problem: &DpProblem, optimum: f64) {
    let scored = objective_of(&outcome.tree, data, problem).expect("a valid tree");
    assert!((scored - outcome.objective).abs() < 1e-9);
    assert!(
        outcome.lower_bound <= optimum + 1e-9 && optimum <= outcome.objective + 1e-9,
        "bound {} optimum {optimum} incumbent {}",
        outcome.lower_bound,
        outcome.objective
    );
    if outcome.termination == DpTermination::Optimal {
        assert!((outcome.objective - optimum).abs() < 1e-9);
        assert!((outcome.lower_bound - optimum).abs() < 1e-9);
    }
}

#[test]
fn probes_run_first_give_the_oracle_optimum_and_the_same_tree() {
    let cases: [Case; 5] = [
        (3, 0.0, 1, None),
        (3, 1.5, 1, None),
        (3, 0.0, 3, None),
        (3, 0.0, 1, Some(4)),
        (4, 0.0, 1, None),
    ];
    // Runs whose probes raised the bound before the search below the incumbent.
    let mut raised = 0;
    for seed in 0..6u64 {
        let data = random_dataset(4100 + seed, 40 + 6 * seed as usize, 4, 2, 6);
        for case in &cases {
            let problem = problem(&data, case);
            let expected = oracle_optimum(&data, &problem);
            let plain = solve(&data, &problem, &options(false, true, 600.0, 1)).expect("solves");
            assert_eq!(plain.termination, DpTermination::Optimal);
            assert!((plain.objective - expected).abs() < 1e-9, "{case:?}");
            for threads in [1, 2, 3] {
                let probed =
                    solve(&data, &problem, &options(true, true, 600.0, threads)).expect("solves");
                let what = format!("seed {seed} {case:?} threads {threads}");
                assert_eq!(probed.termination, DpTermination::Optimal, "{what}");
                check_bracket(&probed, &data, &problem, expected);
                assert_eq!(
                    probed.tree.to_json_string(),
                    plain.tree.to_json_string(),
                    "{what}: the probes changed the tree"
                );
                raised += usize::from(
                    probed
                        .trajectory
                        .iter()
                        .any(|point| point.bound > 0.0 && point.bound < expected - 1e-9),
                );
            }
        }
    }
    assert!(raised >= 30, "the probes raised the bound on {raised} runs");
}

#[test]
fn a_stopped_search_never_reports_a_bound_above_the_optimum() {
    let depths_and_sizes = [(2, 60), (3, 50), (4, 36)];
    for seed in 0..10u64 {
        for (depth, rows) in depths_and_sizes {
            let data = random_dataset(4200 + seed, rows + 2 * seed as usize, 4, 2, 8);
            let problem = problem(&data, &(depth, 0.0, 1, None));
            let expected = oracle_optimum(&data, &problem);
            for limit in [0.0, 0.0005, 0.002, 0.01] {
                for (probe, first) in [(true, true), (true, false), (false, false)] {
                    for threads in [1, 2, 3] {
                        let outcome =
                            solve(&data, &problem, &options(probe, first, limit, threads))
                                .expect("stops cleanly");
                        check_bracket(&outcome, &data, &problem, expected);
                    }
                }
            }
        }
    }
}

#[test]
fn target_rounds_out_of_order_are_refused() {
    let data = random_dataset(4300, 20, 2, 2, 4);
    let problem = problem(&data, &(3, 0.0, 1, None));
    for rounds in [(0.5, 0.1), (-0.1, 0.5), (0.1, 1.5)] {
        let options = DpOptions {
            target_rounds: rounds,
            ..DpOptions::default()
        };
        let refused = solve(&data, &problem, &options).expect_err("refused");
        assert!(refused.to_string().contains("target rounds"), "{refused}");
    }
}
