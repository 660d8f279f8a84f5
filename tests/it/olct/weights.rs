//! OLCT with row weights and class weights: the solver's objective is the weighted surrogate
//! objective recomputed here from the decoded tree, and the exact objective the weighted
//! logistic loss; whole row weights give the optimum of the data with each row repeated.

use milptree::data::Dataset;
use milptree::formulation::olct::Olct;
use milptree::learn::Outcome;
use milptree::score::ClassWeight;
use milptree::solver::{SolverKind, Termination};

use crate::common::{random_dataset, repeated_rows, with_random_weights};
use crate::olct::{independent, solve};

/// Solves `model` to proven optimality, the decoded tree agreeing with the solver.
fn run(model: &Olct, data: &Dataset, solver: SolverKind) -> Outcome {
    let outcome = solve::run(model, data, solver, 60.0);
    let context = format!("{solver:?} on {}", data.source());
    assert_eq!(
        outcome.report.termination,
        Termination::Optimal,
        "{context}"
    );
    assert!(outcome.decode_mismatch.is_none(), "{context}");
    outcome
}

#[test]
fn the_weighted_objective_is_the_weighted_surrogate_of_the_decoded_tree() {
    let data = with_random_weights(random_dataset(41, 14, 2, 2, 5), 41, false);
    let model = Olct {
        refine: false,
        class_weights: vec![ClassWeight {
            label: "c0".to_string(),
            weight: 1.5,
        }],
        ..Olct::new(2)
    };
    // Row i's loss weighs its row weight times its class's weight (1.5 for c0, 1 for c1).
    let weights: Vec<f64> = (0..data.n_rows())
        .map(|i| data.weight(i) * if data.labels()[i] == 0 { 1.5 } else { 1.0 })
        .collect();
    let c = [1.0, 1.0];
    for solver in [SolverKind::Highs, SolverKind::Cbc] {
        let outcome = run(&model, &data, solver);
        let tree = outcome.tree.as_ref().expect("a tree");
        let objective = outcome.report.objective.expect("an objective");
        let surrogate = independent::weighted_objective(
            tree,
            &data,
            1,
            2,
            &c,
            &|u| independent::surrogate(0, u),
            &weights,
        );
        assert!(
            (objective - surrogate).abs() <= 1e-5 * objective.max(1.0),
            "{solver:?}: solver {objective}, recomputed {surrogate}"
        );
        let built = milptree::formulation::Formulation::build(&model, &data).expect("builds");
        let exact = model.exact_objective(&built, tree);
        let recomputed =
            independent::weighted_objective(tree, &data, 1, 2, &c, &independent::loss, &weights);
        assert!(
            (exact - recomputed).abs() <= 1e-9 * exact.max(1.0),
            "{solver:?}: exact {exact}, recomputed {recomputed}"
        );
    }
}

#[test]
fn whole_row_weights_give_the_optimum_of_the_repeated_rows() {
    // Weights of 1 to 3 (no 0: a row of weight 0 still bounds the scores).
    let data = random_dataset(42, 12, 2, 2, 5);
    let weights: Vec<f64> = (0..data.n_rows()).map(|i| (1 + i % 3) as f64).collect();
    let weighted = data.with_weights(weights).expect("valid weights");
    let repeated = repeated_rows(&weighted);
    for (depth, solver) in [
        (1, SolverKind::Highs),
        (2, SolverKind::Highs),
        (1, SolverKind::Cbc),
    ] {
        let model = Olct {
            refine: false,
            ..Olct::new(depth)
        };
        let on_weights = run(&model, &weighted, solver)
            .report
            .objective
            .expect("objective");
        let on_repeats = run(&model, &repeated, solver)
            .report
            .objective
            .expect("objective");
        assert!(
            (on_weights - on_repeats).abs() <= 1e-5 * on_repeats.max(1.0),
            "depth {depth} {solver:?}: weighted {on_weights}, repeated rows {on_repeats}"
        );
    }
}
