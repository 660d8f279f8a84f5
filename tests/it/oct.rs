//! OCT against the exhaustive-search oracle: optimal values on random small datasets (depth 1
//! and 2, both solvers, accuracy and balanced objectives, split costs and leaf minimums), the
//! decoded tree's plain evaluation, the warm-start encoding of random trees, and model sizes.

use milptree::budget::Budget;
use milptree::data::{candidate_thresholds, Dataset, ThresholdMode};
use milptree::formulation::oct::Oct;
use milptree::formulation::{BuiltModel, Formulation, Objective};
use milptree::learn::milp::{self, MilpOptions};
use milptree::learn::{Outcome, WarmStartMode};
use milptree::solver::{SolveOptions, SolverKind, Termination};
use milptree::tree::{Split, Tree, TreeBuilder};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::random_dataset;
use crate::oracle::{optimum, OracleSpec};

const SOLVERS: [SolverKind; 2] = [SolverKind::Highs, SolverKind::Cbc];

/// Random instances: (seed, rows, features, classes, distinct values per feature).
const INSTANCES: [(u64, usize, usize, usize, u32); 6] = [
    (1, 12, 2, 2, 4),
    (2, 16, 2, 3, 5),
    (3, 20, 3, 2, 3),
    (4, 24, 2, 3, 6),
    (5, 18, 3, 3, 4),
    (6, 24, 3, 2, 5),
];

fn solve(oct: &Oct, data: &Dataset, solver: SolverKind, warm: WarmStartMode) -> Outcome {
    let options = MilpOptions {
        solver,
        solve: SolveOptions {
            // Well above the seconds any of these proofs takes on an idle machine, so a loaded
            // machine does not stop a solve short of its proof.
            budget: Budget::seconds(300.0),
            ..SolveOptions::default()
        },
        start: (warm == WarmStartMode::Greedy).then(|| oct.greedy_tree(data).expect("CART")),
        warm_start_mode: warm,
        start_is_optimal: false,
        fallback_start: None,
        bound_below_for_tests: false,
        search_rows: None,
        separation_rounds: 0,
        constraints: None,
    };
    let outcome = milp::run(oct, data, options).expect("OCT solves");
    assert_eq!(
        outcome.report.termination,
        Termination::Optimal,
        "{:?} on {}",
        solver,
        data.source()
    );
    assert!(
        outcome.decode_mismatch.is_none(),
        "{:?}",
        outcome.decode_mismatch
    );
    outcome
}

/// The model's objective in units of weighted errors, from the plain evaluation.
fn errors_of(outcome: &Outcome, baseline: f64) -> f64 {
    outcome.evaluated_objective.expect("a tree") * baseline
}

fn baseline(data: &Dataset, weights: &[f64]) -> f64 {
    let weighted: Vec<f64> = data
        .class_counts()
        .iter()
        .zip(weights)
        .map(|(&c, w)| c as f64 * w)
        .collect();
    weighted.iter().sum::<f64>() - weighted.iter().copied().fold(0.0, f64::max)
}

#[test]
fn oct_reaches_the_oracle_optimum_on_random_data() {
    for (seed, n, p, k, levels) in INSTANCES {
        let data = random_dataset(seed, n, p, k, levels);
        let base = baseline(&data, &vec![1.0; k]);
        for depth in [1, 2] {
            let expected = optimum(&data, &OracleSpec::errors(&data, depth));
            for solver in SOLVERS {
                let outcome = solve(&Oct::new(depth), &data, solver, WarmStartMode::None);
                let tree = outcome.tree.as_ref().expect("a tree");
                let evaluated = tree
                    .evaluate(data.rows(), data.labels(), data.classes())
                    .expect("the rows fit the tree");
                assert_eq!(
                    evaluated.misclassified, expected.errors,
                    "seed {seed} depth {depth} {solver:?}"
                );
                assert!((errors_of(&outcome, base) - expected.objective).abs() < 1e-6);
                let objective = outcome.report.objective.expect("an objective");
                assert!((objective * base - expected.objective).abs() < 1e-6);
            }
        }
    }
}

#[test]
fn oct_with_split_cost_and_leaf_minimum_matches_the_restricted_oracle() {
    for (seed, n, p, k, levels) in INSTANCES.iter().take(4).copied() {
        let data = random_dataset(seed, n, p, k, levels);
        let base = baseline(&data, &vec![1.0; k]);
        for (alpha, min_leaf) in [(0.05, 1), (0.0, 3), (0.1, 2)] {
            let oct = Oct {
                alpha,
                min_leaf,
                ..Oct::new(2)
            };
            let spec = OracleSpec {
                split_cost: alpha * base,
                min_leaf,
                ..OracleSpec::errors(&data, 2)
            };
            let expected = optimum(&data, &spec);
            for solver in SOLVERS {
                let outcome = solve(&oct, &data, solver, WarmStartMode::Greedy);
                assert!(
                    (errors_of(&outcome, base) - expected.objective).abs() < 1e-6,
                    "seed {seed} alpha {alpha} min_leaf {min_leaf} {solver:?}: {} vs {}",
                    errors_of(&outcome, base),
                    expected.objective
                );
                let tree = outcome.tree.as_ref().expect("a tree");
                for id in tree.leaves() {
                    let rows = tree.node(id).map_or(0, |n| n.rows());
                    assert!(rows == 0 || rows >= min_leaf, "leaf {id} has {rows} rows");
                }
            }
        }
    }
}

#[test]
fn oct_balanced_objective_matches_the_weighted_oracle() {
    for (seed, n, p, k, levels) in INSTANCES.iter().skip(1).take(3).copied() {
        let data = random_dataset(seed, n, p, k, levels);
        let weights = Objective::Balanced.class_weights(&data);
        let base = baseline(&data, &weights);
        let spec = OracleSpec {
            class_weights: weights.clone(),
            ..OracleSpec::errors(&data, 2)
        };
        let expected = optimum(&data, &spec);
        let oct = Oct {
            objective: Objective::Balanced,
            ..Oct::new(2)
        };
        for solver in SOLVERS {
            let outcome = solve(&oct, &data, solver, WarmStartMode::Greedy);
            assert!(
                (errors_of(&outcome, base) - expected.objective).abs() < 1e-6,
                "seed {seed} {solver:?}"
            );
        }
    }
}

/// With a split cost above what any split can save, the optimum is the single leaf: a
/// non-splitting node must not let rows go left (the model forbids leaves under the left
/// branch of a node that does not split).
#[test]
fn a_node_that_does_not_split_sends_every_row_right() {
    let data = random_dataset(4, 24, 2, 3, 6);
    let oct = Oct {
        alpha: 2.0,
        ..Oct::new(2)
    };
    for solver in SOLVERS {
        let outcome = solve(&oct, &data, solver, WarmStartMode::None);
        assert!((outcome.report.objective.expect("objective") - 1.0).abs() < 1e-9);
        let tree = outcome.tree.expect("a tree");
        assert_eq!(tree.n_splits(), 0);
    }
}

/// A random axis-aligned tree of depth <= `depth` whose thresholds OCT can represent (candidate
/// midpoints, or below every value).
fn random_tree(data: &Dataset, depth: usize, seed: u64) -> Tree {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut builder =
        TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), depth).expect("depth");
    let thresholds: Vec<Vec<f64>> = (0..data.n_features())
        .map(|j| candidate_thresholds(&data.feature_column(j), data.labels(), ThresholdMode::All))
        .collect();
    let splittable: Vec<usize> = (0..data.n_features())
        .filter(|&j| !thresholds[j].is_empty())
        .collect();
    let mut open = vec![(1usize, 0usize)];
    while let Some((id, level)) = open.pop() {
        if level < depth && !splittable.is_empty() && rng.random_bool(0.75) {
            let feature = splittable[rng.random_range(0..splittable.len())];
            let options = &thresholds[feature];
            let threshold = if rng.random_bool(0.1) {
                -1000.0
            } else {
                options[rng.random_range(0..options.len())]
            };
            builder
                .split(id, Split::Axis { feature, threshold })
                .expect("in range");
            open.push((2 * id, level + 1));
            open.push((2 * id + 1, level + 1));
        } else {
            builder
                .leaf(id, rng.random_range(0..data.n_classes()))
                .expect("in range");
        }
    }
    let mut tree = builder.build().expect("a valid tree");
    tree.recount(data.rows(), data.labels())
        .expect("the rows fit the tree");
    tree
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// For random trees the encoded warm start satisfies every constraint, its model objective
    /// equals the plain evaluation of the tree, and decoding it gives back a tree that predicts
    /// like the original on every training row.
    #[test]
    fn warm_start_encoding_is_feasible_and_exact(
        seed in 0u64..100_000, n in 4usize..30, p in 1usize..4, k in 2usize..4,
        depth in 1usize..4, alpha in prop_oneof![Just(0.0), 0.0f64..0.3], balanced: bool,
    ) {
        let data = random_dataset(seed, n, p, k, 5);
        let oct = Oct {
            alpha,
            objective: if balanced { Objective::Balanced } else { Objective::Accuracy },
            ..Oct::new(depth)
        };
        prop_assume!(data.baseline_errors() > 0);
        let built = oct.build(&data).expect("OCT builds");
        let given = random_tree(&data, depth, seed);
        let encoded = oct.encode(&built, &given).expect("representable tree");
        let tree = &encoded.tree;
        // Only leaf classes may change, and only to a (weighted) majority class of the leaf.
        let weights = oct.objective.class_weights(&data);
        for id in given.leaves() {
            let (before, after) = (given.node(id).expect("leaf"), tree.node(id).expect("leaf"));
            if before.kind != after.kind {
                let weighted: Vec<f64> = after.counts.iter().zip(&weights).map(|(&c, w)| c as f64 * w).collect();
                let best = weighted.iter().copied().fold(0.0, f64::max);
                let milptree::tree::NodeKind::Leaf { class } = after.kind else { unreachable!() };
                prop_assert!((weighted[class] - best).abs() < 1e-9);
            }
        }
        prop_assert_eq!(tree.n_splits(), given.n_splits());
        let check = built.mip().check(&encoded.assignment);
        prop_assert!(check.feasible, "{:?}", check.worst);
        let model = built.mip().objective_value(&encoded.assignment);
        let plain = oct.objective_of(&built, tree).expect("objective");
        prop_assert!((model - plain).abs() < 1e-9, "model {} plain {}", model, plain);
        let decoded = oct.decode(&built, &encoded.assignment).expect("decodes").tree;
        prop_assert_eq!(decoded.predict(data.rows()), tree.predict(data.rows()));
        let decoded_objective = oct.objective_of(&built, &decoded).expect("objective");
        prop_assert!((decoded_objective - plain).abs() < 1e-9);
    }
}

/// The size formulas of formulations/oct.md, checked against built models.
#[test]
fn model_sizes_follow_the_documented_formulas() {
    for (seed, n, p, k, levels, depth, min_leaf) in [
        (1, 12, 2, 2, 4, 1, 1),
        (2, 20, 3, 3, 5, 2, 2),
        (3, 9, 2, 2, 3, 3, 1),
    ] {
        let data = random_dataset(seed, n, p, k, levels);
        let oct = Oct {
            min_leaf,
            ..Oct::new(depth)
        };
        let size = oct.build(&data).expect("builds").mip().size();
        let splittable = (0..p)
            .filter(|&j| {
                let column = data.feature_column(j);
                column.iter().any(|v| *v != column[0])
            })
            .count();
        let branch = (1 << depth) - 1;
        let leaves = 1 << depth;
        assert_eq!(
            size.binaries,
            branch * (splittable + 1) + leaves * (n + 1 + k)
        );
        assert_eq!(size.continuous, branch + leaves * (k + 2));
        assert_eq!(size.integers, 0);
        assert_eq!(size.variables, size.binaries + size.continuous);
        assert_eq!(
            size.constraints,
            3 * k * leaves + 3 * leaves + n * leaves * (depth + 1) + n + 3 * branch - 1
                + leaves * depth / 2
        );
    }
}
