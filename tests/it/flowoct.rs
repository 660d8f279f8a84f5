//! FlowOCT: optima against the exhaustive-search oracle on both solvers (every midpoint, and
//! class-boundary candidates against the oracle over the same candidates), accuracy and
//! balanced objectives, rows merged into groups; encode / decode / objective properties on
//! random trees; degenerate data and bad input.

use milptree::budget::Budget;
use milptree::data::{candidate_thresholds, Dataset, ThresholdMode};
use milptree::formulation::flowoct::FlowOct;
use milptree::formulation::{BuiltModel, Formulation, Objective};
use milptree::learn::milp::{self, MilpOptions};
use milptree::learn::{objectives_agree, WarmStartMode};
use milptree::solver::{SolveOptions, SolverKind, Termination};
use milptree::tree::Tree;
use proptest::prelude::*;

use crate::common::{mixed_dataset, random_tree};
use crate::oracle::{optimum, OracleSpec};

const SOLVERS: [SolverKind; 2] = [SolverKind::Highs, SolverKind::Cbc];

/// (seed, rows, levels per feature, classes, duplicated rows).
fn instances() -> Vec<(u64, usize, Vec<u32>, usize, usize)> {
    vec![
        (11, 16, vec![5, 3], 2, 3),
        (12, 20, vec![6, 4, 2], 3, 4),
        (13, 24, vec![4, 6, 3], 2, 5),
        (14, 18, vec![9, 4], 3, 2),
        (15, 22, vec![3, 7, 4], 2, 6),
    ]
}

/// Solves to proven optimality through the library's MILP runner, whose check of the decoded
/// tree against the solver must pass; returns the objective and the tree.
fn solve_optimally(model: &FlowOct, data: &Dataset, solver: SolverKind, warm: bool) -> (f64, Tree) {
    let outcome = milp::run(
        model,
        data,
        MilpOptions {
            solver,
            solve: SolveOptions {
                budget: Budget::seconds(120.0),
                ..SolveOptions::default()
            },
            start: warm.then(|| model.greedy_tree(data).expect("CART")),
            warm_start_mode: if warm {
                WarmStartMode::Greedy
            } else {
                WarmStartMode::None
            },
            start_is_optimal: false,
            fallback_start: None,
            bound_below_for_tests: false,
            search_rows: None,
            separation_rounds: 0,
            constraints: None,
        },
    )
    .expect("FlowOCT runs");
    let context = format!("{} {solver:?} warm={warm} {model:?}", data.source());
    assert_eq!(
        outcome.report.termination,
        Termination::Optimal,
        "{context}"
    );
    assert!(
        outcome.decode_mismatch.is_none(),
        "{context}: {:?}",
        outcome.decode_mismatch
    );
    if let Some(start) = &outcome.report.warm_start {
        assert!(start.feasible, "{context}: infeasible warm start");
    }
    (
        outcome.report.objective.expect("an objective"),
        outcome.tree.expect("a tree"),
    )
}

#[test]
fn every_midpoint_reaches_the_oracle_optimum() {
    for (seed, n, levels, k, duplicates) in instances() {
        let data = mixed_dataset(seed, n, &levels, k, duplicates);
        for depth in 1..=2 {
            let expected = optimum(&data, &OracleSpec::errors(&data, depth));
            for (i, solver) in SOLVERS.into_iter().enumerate() {
                let warm = (seed as usize + i + depth) % 2 == 0;
                let (objective, tree) = solve_optimally(&FlowOct::new(depth), &data, solver, warm);
                let context = format!("seed {seed} depth {depth} {solver:?} warm={warm}");
                assert!(
                    objectives_agree(objective, expected.objective, 1e-6),
                    "{context}: FlowOCT {objective}, oracle {}",
                    expected.objective
                );
                let errors = tree
                    .evaluate(data.rows(), data.labels(), data.classes())
                    .expect("the rows fit the tree")
                    .misclassified;
                assert_eq!(errors as f64, expected.objective, "{context}");
            }
        }
    }
}

#[test]
fn balanced_objective_reaches_the_weighted_oracle_optimum() {
    for (seed, n, levels, k, duplicates) in instances().into_iter().take(3) {
        let data = mixed_dataset(seed + 100, n, &levels, k, duplicates);
        let weights = Objective::Balanced.class_weights(&data);
        for depth in 1..=2 {
            let expected = optimum(
                &data,
                &OracleSpec {
                    class_weights: weights.clone(),
                    ..OracleSpec::errors(&data, depth)
                },
            );
            let model = FlowOct {
                objective: Objective::Balanced,
                ..FlowOct::new(depth)
            };
            for solver in SOLVERS {
                let (objective, _) = solve_optimally(&model, &data, solver, true);
                assert!(
                    objectives_agree(objective, expected.objective, 1e-6),
                    "seed {seed} depth {depth} {solver:?}: {objective} vs {}",
                    expected.objective
                );
            }
        }
    }
}

#[test]
fn class_boundary_candidates_reach_the_oracle_over_the_same_candidates() {
    for (seed, n, levels, k, duplicates) in instances().into_iter().take(3) {
        let data = mixed_dataset(seed + 200, n, &levels, k, duplicates);
        let candidates: Vec<Vec<f64>> = (0..data.n_features())
            .map(|j| {
                candidate_thresholds(
                    &data.feature_column(j),
                    data.labels(),
                    ThresholdMode::ClassBoundary,
                )
            })
            .collect();
        for depth in 1..=2 {
            let expected = optimum(
                &data,
                &OracleSpec {
                    thresholds: Some(candidates.clone()),
                    ..OracleSpec::errors(&data, depth)
                },
            );
            let model = FlowOct {
                thresholds: ThresholdMode::ClassBoundary,
                ..FlowOct::new(depth)
            };
            let (objective, _) = solve_optimally(&model, &data, SolverKind::Highs, true);
            assert!(
                objectives_agree(objective, expected.objective, 1e-6),
                "seed {seed} depth {depth}: {objective} vs {}",
                expected.objective
            );
        }
    }
}

/// The last split level splits at class boundaries only and every level keeps one of each set
/// of duplicate binary features: fewer split columns than binary features times nodes, the
/// same optimum.
#[test]
fn last_level_features_are_class_boundaries() {
    // x0 has runs of one class (1, 2 -> a; 3, 4 -> b): its class boundaries are 2.5 only;
    // x1 = 10 * x0 duplicates x0's routing.
    let rows: Vec<Vec<f64>> = (0..8)
        .map(|i| {
            let x0 = f64::from(i % 4 + 1);
            vec![x0, 10.0 * x0, f64::from(i / 4)]
        })
        .collect();
    let labels: Vec<usize> = (0..8)
        .map(|i| usize::from(i % 4 >= 2) ^ (i / 4 == 1 && i % 4 == 3) as usize)
        .collect();
    let data = Dataset::from_parts(
        "runs",
        vec!["x0".into(), "x1".into(), "x2".into()],
        vec!["a".into(), "b".into()],
        rows,
        labels,
    )
    .expect("valid");
    let model = FlowOct::new(2);
    let built = model.build(&data).expect("builds");
    let binary_splits = built
        .mip()
        .vars()
        .iter()
        .filter(|v| v.name.starts_with("b["))
        .count();
    // 3 + 3 + 1 binary features; x1's duplicate x0's. The root may use 4 (x0's 3, x2's 1);
    // the two last-level nodes only class boundaries of x0 and x2.
    assert!(binary_splits < 3 * 7, "{binary_splits} split columns");
    let expected = optimum(&data, &OracleSpec::errors(&data, 2)).objective;
    for solver in SOLVERS {
        let (objective, _) = solve_optimally(&model, &data, solver, true);
        assert!(
            (objective - expected).abs() < 1e-9,
            "{solver:?}: {objective} vs {expected}"
        );
    }
}

/// Rows identical on the features but with different labels share one flow; the model has one
/// flow per group, fewer than the rows.
#[test]
fn identical_rows_are_grouped() {
    let data = Dataset::from_parts(
        "groups",
        vec!["x".into()],
        vec!["a".into(), "b".into()],
        vec![
            vec![0.0],
            vec![0.0],
            vec![0.0],
            vec![1.0],
            vec![1.0],
            vec![2.0],
        ],
        vec![0, 0, 1, 1, 1, 0],
    )
    .expect("valid");
    let model = FlowOct::new(1);
    let built = model.build(&data).expect("builds");
    assert_eq!(built.rows_and_groups(), (6, 3));
    // Depth 1: x <= 0.5 gives `a` (2 of 3) and `b` (2 of 3): 2 errors; the oracle agrees.
    let expected = optimum(&data, &OracleSpec::errors(&data, 1)).objective;
    assert_eq!(expected, 2.0);
    for solver in SOLVERS {
        let (objective, _) = solve_optimally(&model, &data, solver, false);
        assert!(
            (objective - expected).abs() < 1e-9,
            "{solver:?}: {objective}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A random tree (thresholds anywhere) encodes as a feasible assignment whose objective is
    /// the plain evaluation of the snapped tree, and which decodes to a tree predicting like it.
    #[test]
    fn encoded_random_trees_are_feasible_and_decode_to_the_snapped_tree(
        seed in 0u64..1000,
        depth in 1usize..=3,
        all in proptest::bool::ANY,
        balanced in proptest::bool::ANY,
    ) {
        let data = mixed_dataset(seed, 18, &[5, 3, 4], 3, 3);
        let model = FlowOct {
            thresholds: if all { ThresholdMode::All } else { ThresholdMode::ClassBoundary },
            objective: if balanced { Objective::Balanced } else { Objective::Accuracy },
            ..FlowOct::new(depth)
        };
        let built = model.build(&data).expect("builds");
        let tree = random_tree(&data, depth, seed);
        let encoded = model.encode(&built, &tree).expect("encodes");
        let check = built.mip().check(&encoded.assignment);
        prop_assert!(check.feasible, "{:?}", check.worst);
        let plain = model.objective_of(&built, &tree).expect("objective");
        let in_model = built.mip().objective_value(&encoded.assignment);
        prop_assert!((plain - in_model).abs() < 1e-9, "{plain} vs {in_model}");
        let decoded = model.decode(&built, &encoded.assignment).expect("decodes");
        prop_assert_eq!(
            decoded.tree.predict(data.rows()),
            encoded.tree.predict(data.rows())
        );
        if all {
            // Expressing a tree over every midpoint never costs more than the tree itself (a
            // last-level split moves to a class boundary only when that costs no more).
            let weights = model.objective.class_weights(&data);
            let errors: f64 = data
                .rows()
                .iter()
                .zip(data.labels())
                .filter(|(row, &label)| tree.predict_row(row) != label)
                .map(|(_, &label)| weights[label])
                .sum();
            prop_assert!(plain <= errors + 1e-9, "{plain} > {errors}");
        }
    }
}

#[test]
fn bad_input_is_an_error() {
    let data = mixed_dataset(3, 10, &[3, 2], 2, 0);
    assert!(FlowOct::new(0).build(&data).is_err());
    assert!(FlowOct::new(9).build(&data).is_err());
    let one_value = Dataset::from_parts(
        "constant",
        vec!["x".into()],
        vec!["a".into(), "b".into()],
        vec![vec![1.0]; 4],
        vec![0, 1, 0, 1],
    )
    .expect("valid");
    // No candidate at all: the model can only predict at the root.
    let (objective, tree) = solve_optimally(&FlowOct::new(2), &one_value, SolverKind::Highs, true);
    assert_eq!(objective, 2.0);
    assert_eq!(tree.n_splits(), 0);
}

/// At depth 3 the reductions (class boundaries at the last split level, duplicates dropped)
/// keep the optimum: equal to the exact search's.
#[test]
fn depth_three_reaches_the_exact_searchs_optimum() {
    use milptree::dp::{solve as dp_solve, DpOptions, DpProblem};
    for seed in [21u64, 22] {
        let data = mixed_dataset(seed, 18, &[6, 4], 2, 3);
        let expected = dp_solve(&data, &DpProblem::accuracy(&data, 3), &DpOptions::default())
            .expect("the search runs");
        let (objective, _) = solve_optimally(&FlowOct::new(3), &data, SolverKind::Highs, true);
        assert!(
            (objective - expected.objective).abs() < 1e-6,
            "seed {seed}: FlowOCT {objective}, search {}",
            expected.objective
        );
    }
}

/// The compact routing: every routing row has at most one term per feature besides its flow and
/// the `p` of its node and ancestors, however many thresholds there are, and the model has one
/// chain column per threshold a node may use but the last of each feature.
#[test]
fn routing_rows_have_one_term_per_feature() {
    let iris = milptree::data::read_dataset(
        &crate::common::dataset("iris"),
        &milptree::data::TargetColumn::Last,
    )
    .expect("iris");
    let data = mixed_dataset(31, 40, &[12, 9, 2, 30], 3, 2);
    for data in [iris, data] {
        for depth in 1..=3 {
            let built = FlowOct::new(depth).build(&data).expect("builds");
            let mip = built.mip();
            let p = data.n_features();
            let mut routing = 0;
            for row in mip.rows() {
                if row.name.starts_with("left[") || row.name.starts_with("right[") {
                    routing += 1;
                    assert!(
                        row.terms.len() <= 1 + p + depth,
                        "{} depth {depth}: {} has {} terms",
                        data.source(),
                        row.name,
                        row.terms.len()
                    );
                }
            }
            assert!(routing > 0);
            let split_names: Vec<&str> = mip
                .vars()
                .iter()
                .map(|v| v.name.as_str())
                .filter(|name| name.starts_with("b["))
                .collect();
            let splits = split_names.len();
            // `b[n=N,j=J,t=T]`: the (node, feature) pairs.
            let pairs: std::collections::HashSet<&str> = split_names
                .iter()
                .filter_map(|name| name.rsplit_once(",t=").map(|(pair, _)| pair))
                .collect();
            let chains = mip
                .vars()
                .iter()
                .filter(|v| v.name.starts_with("u["))
                .count();
            let chain_rows = mip
                .rows()
                .iter()
                .filter(|r| r.name.starts_with("chain["))
                .count();
            assert_eq!(chains, chain_rows);
            assert_eq!(chains, splits - pairs.len(), "{}", data.source());
            assert!(chains > 0);
        }
    }
}

/// The symmetry rows keep one of a split with two leaves of one class and the leaf of that
/// class: a given tree with such splits (nested, so the parent collapses after its children)
/// encodes as the leaf, feasibly and at the same objective, and no solution has such a split.
#[test]
fn splits_whose_leaves_agree_are_expressed_as_leaves() {
    use milptree::tree::{NodeKind, Split, TreeBuilder};
    let data = mixed_dataset(12, 30, &[6, 5], 2, 2);
    let model = FlowOct::new(2);
    let built = model.build(&data).expect("builds");
    let mut builder =
        TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), 2).expect("builder");
    let split = |feature: usize| Split::Axis {
        feature,
        threshold: 2.5,
    };
    builder.split(1, split(0)).expect("root");
    builder.split(2, split(1)).expect("left");
    builder.split(3, split(1)).expect("right");
    for leaf in 4..=7 {
        builder.leaf(leaf, 1).expect("leaf");
    }
    let tree = builder.build().expect("tree");
    let encoded = model.encode(&built, &tree).expect("encodes");
    assert!(matches!(
        encoded.tree.node(1).map(|n| &n.kind),
        Some(NodeKind::Leaf { class: 1 })
    ));
    assert!(encoded
        .notes
        .iter()
        .any(|note| note.contains("every leaf below it")));
    let check = built.mip().check(&encoded.assignment);
    assert!(check.feasible, "{:?}", check.worst);
    let errors = data.labels().iter().filter(|&&label| label != 1).count() as f64;
    assert_eq!(built.mip().objective_value(&encoded.assignment), errors);
    for kind in SOLVERS {
        let (_, solved) = solve_optimally(&model, &data, kind, true);
        for (id, node) in solved.nodes() {
            if let NodeKind::Split(_) = node.kind {
                let class = |child: usize| match solved.node(child).map(|n| &n.kind) {
                    Some(NodeKind::Leaf { class }) => Some(*class),
                    _ => None,
                };
                let (left, right) = (class(2 * id), class(2 * id + 1));
                assert!(left.is_none() || left != right, "{kind:?}: node {id}");
            }
        }
    }
}
