//! Solving OLCT models on small data with both solvers: separable data is separated at depth 1;
//! the solver's objective equals the surrogate objective recomputed here from the decoded tree;
//! both solvers prove the same optimum; univariate models use one feature per node and cannot
//! beat oblique ones; depth 3 solves; refinement never increases the exact objective.

use milptree::budget::Budget;
use milptree::data::Dataset;
use milptree::formulation::olct::{Olct, TangentSet};
use milptree::formulation::{BuiltModel, Formulation};
use milptree::learn::milp::{self, MilpOptions};
use milptree::learn::{Outcome, WarmStartMode};
use milptree::solver::{SolveOptions, SolverKind, Termination};
use milptree::tree::Tree;

use crate::common::random_dataset;
use crate::olct::independent;

const SOLVERS: [SolverKind; 2] = [SolverKind::Highs, SolverKind::Cbc];

/// Solves `model` from the greedy logistic tree (which must be feasible) within `limit` seconds.
pub(super) fn run(model: &Olct, data: &Dataset, solver: SolverKind, limit: f64) -> Outcome {
    let options = MilpOptions {
        solver,
        solve: SolveOptions {
            budget: Budget::seconds(limit),
            threads: Some(1),
            ..SolveOptions::default()
        },
        start: Some(model.greedy_tree(data).expect("the greedy logistic tree")),
        warm_start_mode: WarmStartMode::Greedy,
        start_is_optimal: false,
        fallback_start: None,
        bound_below_for_tests: false,
        search_rows: None,
        separation_rounds: 0,
        constraints: None,
    };
    let outcome = milp::run(model, data, options).expect("OLCT runs");
    let warm = outcome.report.warm_start.as_ref().expect("a warm start");
    assert!(warm.feasible, "{solver:?}: warm start {warm:?}");
    outcome
}

fn surrogate_of(tree: &Tree, data: &Dataset, depth: usize, c: &[f64], set: usize) -> f64 {
    independent::objective(tree, data, 1, depth, c, &|u| independent::surrogate(set, u))
}

/// 30 rows on either side of the line x0 + 2 x1 = 10, at least 1 away from it.
fn separable() -> Dataset {
    let mut rows = Vec::new();
    let mut labels = Vec::new();
    for i in 0..30 {
        let x0 = f64::from(i % 6) * 2.0;
        let x1 = f64::from(i / 6) * 1.3;
        let side = x0 + 2.0 * x1 - 10.0;
        if side.abs() < 1.0 {
            continue;
        }
        rows.push(vec![x0, x1]);
        labels.push(usize::from(side > 0.0));
    }
    Dataset::from_parts(
        "separable",
        vec!["x0".into(), "x1".into()],
        vec!["below".into(), "above".into()],
        rows,
        labels,
    )
    .unwrap()
}

#[test]
fn separable_data_is_separated_at_depth_one() {
    let data = separable();
    for solver in SOLVERS {
        let model = Olct {
            c: vec![10.0],
            ..Olct::new(1)
        };
        let outcome = run(&model, &data, solver, 60.0);
        assert_eq!(
            outcome.report.termination,
            Termination::Optimal,
            "{solver:?}"
        );
        let tree = outcome.tree.expect("a tree");
        let errors = tree
            .evaluate(data.rows(), data.labels(), data.classes())
            .expect("the rows fit the tree")
            .misclassified;
        assert_eq!(errors, 0, "{solver:?}");
    }
}

#[test]
fn the_solvers_objective_is_the_surrogate_of_the_decoded_tree() {
    for (seed, set) in [(11, 0), (12, 1), (13, 2)] {
        let data = random_dataset(seed, 18, 2, 2, 5);
        let c = [1.0, 3.0];
        let model = Olct {
            c: c.to_vec(),
            tangents: TangentSet::from_index(set).unwrap(),
            refine: false,
            ..Olct::new(2)
        };
        let mut optima = Vec::new();
        for solver in SOLVERS {
            let outcome = run(&model, &data, solver, 120.0);
            assert_eq!(
                outcome.report.termination,
                Termination::Optimal,
                "{solver:?}"
            );
            assert!(
                outcome.decode_mismatch.is_none(),
                "{:?}",
                outcome.decode_mismatch
            );
            let objective = outcome.report.objective.unwrap();
            let tree = outcome.tree.as_ref().unwrap();
            let recomputed = surrogate_of(tree, &data, 2, &c, set);
            assert!(
                (objective - recomputed).abs() <= 1e-5 * objective.max(1.0),
                "{solver:?}, seed {seed}: solver {objective}, recomputed {recomputed}"
            );
            // The optimum is no worse than the warm start.
            assert!(objective <= outcome.warm_start_objective.unwrap() + 1e-6);
            optima.push(objective);
        }
        assert!(
            (optima[0] - optima[1]).abs() <= 1e-5 * optima[0].max(1.0),
            "seed {seed}: HiGHS {} vs CBC {}",
            optima[0],
            optima[1]
        );
    }
}

#[test]
fn refinement_after_a_solve_never_increases_the_exact_objective() {
    let data = random_dataset(21, 24, 3, 2, 6);
    let model = Olct::new(2);
    let outcome = run(&model, &data, SolverKind::Highs, 120.0);
    let built = model.build(&data).unwrap();
    let report = &outcome.post_process;
    let after_solve = report["exact_objective"]["after_solve"].as_f64().unwrap();
    let after_refinement = report["exact_objective"]["after_refinement"]
        .as_f64()
        .unwrap();
    assert!(
        after_refinement <= after_solve + 1e-9 * after_solve,
        "{report}"
    );
    let tree = outcome.tree.as_ref().unwrap();
    let recomputed = independent::objective(tree, &data, 1, 2, &[1.0, 1.0], &independent::loss);
    assert!((recomputed - after_refinement).abs() <= 1e-9 * recomputed);
    assert!((model.exact_objective(&built, tree) - recomputed).abs() <= 1e-9 * recomputed);
    // Every branch node is reported with its rows and weights.
    let nodes = report["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 3);
    assert_eq!(nodes[0]["rows"], 24);
}

#[test]
fn univariate_models_use_one_feature_per_node() {
    let data = random_dataset(31, 20, 3, 2, 5);
    let oblique = run(
        &Olct {
            refine: false,
            ..Olct::new(2)
        },
        &data,
        SolverKind::Highs,
        120.0,
    );
    for solver in SOLVERS {
        let model = Olct {
            univariate: true,
            ..Olct::new(2)
        };
        let outcome = run(&model, &data, solver, 120.0);
        assert_eq!(
            outcome.report.termination,
            Termination::Optimal,
            "{solver:?}"
        );
        let tree = outcome.tree.as_ref().unwrap();
        for id in 1..4 {
            let (w, _) = independent::split_of(tree, id);
            assert!(
                w.iter().filter(|&&v| v != 0.0).count() <= 1,
                "{solver:?} node {id}: {w:?}"
            );
        }
        // A restriction of the oblique model cannot do better.
        assert!(
            outcome.report.objective.unwrap() >= oblique.report.objective.unwrap() - 1e-6,
            "{solver:?}"
        );
    }
}

#[test]
fn depth_three_builds_and_solves_on_both_solvers() {
    let data = random_dataset(41, 14, 2, 2, 4);
    let model = Olct {
        refine: false,
        ..Olct::new(3)
    };
    let built = model.build(&data).unwrap();
    assert_eq!(built.mip().size().binaries, 14 * 4);
    for solver in SOLVERS {
        let outcome = run(&model, &data, solver, 60.0);
        assert!(
            outcome.report.has_solution,
            "{solver:?}: {:?}",
            outcome.report.termination
        );
        assert!(
            outcome.decode_mismatch.is_none(),
            "{:?}",
            outcome.decode_mismatch
        );
        let tree = outcome.tree.as_ref().unwrap();
        let recomputed = surrogate_of(tree, &data, 3, &[1.0; 3], 0);
        let objective = outcome.report.objective.unwrap();
        assert!(
            (objective - recomputed).abs() <= 1e-5 * objective.max(1.0),
            "{solver:?}"
        );
    }
}
