//! The loop that adds the exact search's rows over paths below the root between LP solves
//! (`--separation-rounds`) against the exhaustive oracle: on small random data (fixed seeds),
//! OCT, BinOCT and FlowOCT on HiGHS and CBC, depths 2 and 3, with and without a side
//! constraint, the optimum is the oracle's with the loop on, and the report counts its rounds;
//! a path row made too high on purpose (a test-only hook) stops the run instead of bounding it.

use milptree::budget::Budget;
use milptree::constraints::ConstraintSpec;
use milptree::data::Dataset;
use milptree::formulation::{AnyFormulation, FormulationName};
use milptree::learn::search_rows::{DpBounds, SearchRowsReport};
use milptree::learn::{learn, LearnOptions, Method, Outcome, WarmStartMode};
use milptree::solver::{SolverKind, Termination};

use crate::common::random_dataset;
use crate::oracle::{optimum, optimum_where, OracleSpec};
use crate::side_constraints::{features, FORMULATIONS, SOLVERS};

/// `name` at `depth` on `solver` with three rounds of the loop, from `warm_start`, under
/// `constraints`, the path rows raised by `raise` errors.
fn run(
    (name, solver, depth): (FormulationName, SolverKind, usize),
    data: &Dataset,
    constraints: Option<&ConstraintSpec>,
    (warm_start, raise): (WarmStartMode, f64),
) -> milptree::Result<Outcome> {
    let formulation = AnyFormulation::from_name(name, depth).expect("a formulation");
    let method = Method::Milp {
        formulation,
        solver,
    };
    learn(
        &method,
        data,
        LearnOptions {
            budget: Budget::seconds(60.0),
            warm_start,
            certify: None,
            // The split row is kept without side constraints too (with `all` the search's
            // optimum leaves it out, and the loop with it).
            dp_bounds: DpBounds::Splits,
            separation_rounds: 3,
            raise_path_bounds_for_tests: raise,
            constraints: constraints.cloned(),
            ..LearnOptions::default()
        },
    )
}

/// The training errors of the proven optimum of `model` and the rows' report.
fn optimal_errors(
    model: (FormulationName, SolverKind, usize),
    data: &Dataset,
    constraints: Option<&ConstraintSpec>,
) -> (usize, SearchRowsReport) {
    let what = format!("{model:?} {constraints:?}");
    let outcome = run(model, data, constraints, (WarmStartMode::None, 0.0))
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(outcome.report.termination, Termination::Optimal, "{what}");
    assert!(outcome.decode_mismatch.is_none(), "{what}");
    let report = outcome
        .model
        .as_ref()
        .and_then(|m| m.search_rows.clone())
        .expect("the rows' report");
    assert!(!report.rounds.is_empty(), "{what}: the loop did not run");
    let added: usize = report.rounds.iter().map(|r| r.rows_added).sum();
    assert_eq!(added, report.path_rows, "{what}");
    let tree = outcome.tree.expect("a tree");
    let errors = tree
        .predict(data.rows())
        .iter()
        .zip(data.labels())
        .filter(|(p, l)| p != l)
        .count();
    (errors, report)
}

#[test]
fn the_loop_leaves_every_optimum_unchanged() {
    let data = random_dataset(33, 10, 3, 2, 3);
    let one_feature = ConstraintSpec {
        max_features: Some(1),
        ..ConstraintSpec::default()
    };
    let mut path_rows = 0;
    for depth in [2, 3] {
        let oracle = OracleSpec::errors(&data, depth);
        let expected = optimum(&data, &oracle).errors;
        let constrained = optimum_where(&data, &oracle, &|t| features(t).len() <= 1)
            .expect("a leaf")
            .errors;
        for name in FORMULATIONS {
            for solver in SOLVERS {
                let model = (name, solver, depth);
                let (errors, report) = optimal_errors(model, &data, None);
                assert_eq!(errors, expected, "{model:?}");
                path_rows += report.path_rows;
                let (errors, report) = optimal_errors(model, &data, Some(&one_feature));
                assert_eq!(errors, constrained, "{model:?} max_features 1");
                path_rows += report.path_rows;
            }
        }
    }
    assert!(
        path_rows > 0,
        "no path row was ever added: the loop is not seen to cut"
    );
}

#[test]
fn a_raised_path_row_stops_the_run() {
    let data = random_dataset(33, 10, 3, 2, 3);
    for name in FORMULATIONS {
        for solver in SOLVERS {
            let model = (name, solver, 3);
            // The exact search's tree starts: it takes paths whose raised rows it breaks.
            let error = run(model, &data, None, (WarmStartMode::Dp, 1000.0))
                .expect_err("a raised path row must stop the run");
            let text = error.to_string();
            assert!(text.contains("dp_path"), "{model:?}: {text}");
        }
    }
}
