//! The warm start's objective as an objective cutoff (`SolveOptions::start_as_cutoff`): the
//! same optima as without it against the exhaustive oracle (FlowOCT, depth 1 and 2, both
//! solvers), and a start that is already optimal reported as optimal with a valid bound.

use milptree::budget::Budget;
use milptree::data::Dataset;
use milptree::formulation::flowoct::FlowOct;
use milptree::learn::milp::{self, MilpOptions};
use milptree::learn::{Outcome, WarmStartMode};
use milptree::solver::{SolveOptions, SolverKind, Termination};
use milptree::tree::Tree;

use crate::common::mixed_dataset;
use crate::oracle::{optimum, OracleSpec};

fn solve(
    model: &FlowOct,
    data: &Dataset,
    solver: SolverKind,
    start: Tree,
    cutoff: bool,
) -> Outcome {
    milp::run(
        model,
        data,
        MilpOptions {
            solver,
            solve: SolveOptions {
                budget: Budget::seconds(120.0),
                start_as_cutoff: cutoff,
                ..SolveOptions::default()
            },
            start: Some(start),
            warm_start_mode: WarmStartMode::Greedy,
            start_is_optimal: false,
            fallback_start: None,
            bound_below_for_tests: false,
            search_rows: None,
            separation_rounds: 0,
            constraints: None,
        },
    )
    .expect("FlowOCT runs")
}

#[test]
fn the_cutoff_keeps_the_oracle_optimum_and_an_optimal_start_stays_proven() {
    for (seed, n, levels, k) in [(21, 16, [5, 3], 2), (22, 20, [4, 4], 3)] {
        let data = mixed_dataset(seed, n, &levels, k, 3);
        for depth in [1, 2] {
            let expected = optimum(&data, &OracleSpec::errors(&data, depth)).errors as f64;
            let model = FlowOct::new(depth);
            for solver in [SolverKind::Highs, SolverKind::Cbc] {
                let context = format!("seed {seed} depth {depth} {solver:?}");
                let greedy = model.greedy_tree(&data).expect("CART");
                let mut optimal_tree = None;
                for cutoff in [false, true] {
                    let outcome = solve(&model, &data, solver, greedy.clone(), cutoff);
                    assert_eq!(
                        outcome.report.termination,
                        Termination::Optimal,
                        "{context}"
                    );
                    assert_eq!(outcome.evaluated_objective, Some(expected), "{context}");
                    optimal_tree = outcome.tree;
                }
                // The optimum as the start: nothing is below the cutoff, and the report still
                // proves the start optimal, with a bound at most its objective.
                let start = optimal_tree.expect("a tree");
                let outcome = solve(&model, &data, solver, start, true);
                let report = &outcome.report;
                assert_eq!(report.termination, Termination::Optimal, "{context}");
                assert_eq!(outcome.evaluated_objective, Some(expected), "{context}");
                let objective = report.objective.expect("an objective");
                let bound = report.best_bound.expect("a bound");
                assert!((objective - expected).abs() < 1e-6, "{context}");
                assert!(
                    bound <= objective + 1e-9 && bound >= expected - 1e-6,
                    "{context}: {bound}"
                );
            }
        }
    }
}
