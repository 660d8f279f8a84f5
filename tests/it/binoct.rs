//! BinOCT: optima against the exhaustive-search oracle on both solvers (mode `all` exact, mode
//! `class-boundary` never better and sometimes worse), the routing of every bit pattern, encode /
//! decode / objective properties on random trees, the paper's size bounds, degenerate data and
//! bad input.

use milptree::data::{candidate_thresholds, read_dataset, Dataset, TargetColumn, ThresholdMode};
use milptree::formulation::binoct::{BinOct, BinOctModel};
use milptree::formulation::oct::Oct;
use milptree::formulation::{BuiltModel, Formulation, Objective};
use milptree::learn::milp::{self, MilpOptions};
use milptree::learn::{objectives_agree, WarmStartMode};
use milptree::mip::Assignment;
use milptree::solver::{solve, SolveOptions, SolverKind, Termination};
use milptree::tree::{NodeKind, Split, Tree, TreeBuilder};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{mixed_dataset, random_tree};
use crate::oracle::{optimum, OracleSpec};

const SOLVERS: [SolverKind; 2] = [SolverKind::Highs, SolverKind::Cbc];

/// The small instances of the optimality tests: (seed, rows, levels per feature, classes).
fn instances() -> Vec<(u64, usize, Vec<u32>, usize)> {
    vec![
        (1, 16, vec![6, 3], 2),
        (2, 20, vec![7, 4, 2], 3),
        (3, 24, vec![4, 6, 3], 2),
        (4, 18, vec![11, 5], 3),
        (5, 22, vec![3, 9, 5], 2),
        (6, 24, vec![6, 6, 2], 3),
    ]
}

fn weighted_errors(tree: &Tree, data: &Dataset, weights: &[f64]) -> f64 {
    data.rows()
        .iter()
        .zip(data.labels())
        .filter(|(row, &label)| tree.predict_row(row) != label)
        .map(|(_, &label)| weights[label])
        .sum()
}

/// Solves `formulation` on `data` to proven optimality through the library's MILP runner
/// (optionally from the greedy warm start) and returns the solver's objective and the decoded
/// tree; the runner's own check (the decoded tree's objective against the solver's) must pass.
fn solve_optimally(
    formulation: &BinOct,
    data: &Dataset,
    kind: SolverKind,
    warm: bool,
) -> (f64, Tree) {
    let start = warm.then(|| formulation.greedy_tree(data).expect("a greedy tree"));
    let outcome = milp::run(
        formulation,
        data,
        MilpOptions {
            solver: kind,
            solve: SolveOptions::default(),
            start,
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
    .expect("the formulation runs");
    let context = format!("{} {kind:?} warm={warm} {:?}", data.source(), formulation);
    assert_eq!(
        outcome.report.termination,
        Termination::Optimal,
        "{context}"
    );
    if let Some(report) = &outcome.report.warm_start {
        assert!(report.feasible, "{context}: the warm start is infeasible");
    }
    assert!(
        outcome.decode_mismatch.is_none(),
        "{context}: {:?}",
        outcome.decode_mismatch
    );
    let objective = outcome
        .report
        .objective
        .expect("an optimal solve has an objective");
    let tree = outcome.tree.expect("an optimal solve has a tree");
    (objective, tree)
}

#[test]
fn all_thresholds_reach_the_oracle_optimum() {
    for (seed, n, levels, k) in instances() {
        let data = mixed_dataset(seed, n, &levels, k, 3);
        for depth in 1..=2 {
            let expected = optimum(&data, &OracleSpec::errors(&data, depth)).objective;
            let formulation = BinOct {
                thresholds: ThresholdMode::All,
                ..BinOct::new(depth)
            };
            for (i, kind) in SOLVERS.into_iter().enumerate() {
                // Alternate cold and warm starts across the instances.
                let warm = (seed as usize + i) % 2 == 0;
                let (objective, tree) = solve_optimally(&formulation, &data, kind, warm);
                let context = format!("seed {seed} depth {depth} {kind:?} warm={warm}");
                assert!(
                    objectives_agree(objective, expected, 1e-6),
                    "{context}: BinOCT {objective}, oracle {expected}"
                );
                let errors = tree
                    .evaluate(data.rows(), data.labels(), data.classes())
                    .expect("the rows fit the tree")
                    .misclassified;
                assert_eq!(errors as f64, expected, "{context}: evaluated errors");
            }
        }
    }
}

#[test]
fn all_thresholds_reach_octs_optimum() {
    for (seed, n, levels, k) in instances().into_iter().take(3) {
        let data = mixed_dataset(seed + 300, n, &levels, k, 2);
        let oct = Oct::new(2);
        let built = oct.build(&data).expect("OCT builds");
        let solved = solve(built.mip(), SolverKind::Highs, &SolveOptions::default())
            .expect("the solver runs");
        assert_eq!(solved.report.termination, Termination::Optimal);
        let oct_errors = solved.report.objective.expect("an objective") * built.baseline();
        let formulation = BinOct {
            thresholds: ThresholdMode::All,
            ..BinOct::new(2)
        };
        let (binoct_errors, _) = solve_optimally(&formulation, &data, SolverKind::Highs, true);
        assert!(
            (oct_errors - binoct_errors).abs() < 1e-4,
            "seed {seed}: OCT {oct_errors}, BinOCT {binoct_errors}"
        );
    }
}

#[test]
fn balanced_objective_reaches_the_weighted_oracle_optimum() {
    for (seed, n, levels, k) in instances().into_iter().take(4) {
        let data = mixed_dataset(seed + 100, n, &levels, k, 2);
        let weights = Objective::Balanced.class_weights(&data);
        for depth in 1..=2 {
            let spec = OracleSpec {
                class_weights: weights.clone(),
                ..OracleSpec::errors(&data, depth)
            };
            let expected = optimum(&data, &spec).objective;
            let formulation = BinOct {
                thresholds: ThresholdMode::All,
                objective: Objective::Balanced,
                ..BinOct::new(depth)
            };
            for kind in SOLVERS {
                let (objective, tree) = solve_optimally(&formulation, &data, kind, false);
                let context = format!("seed {seed} depth {depth} {kind:?}");
                assert!(
                    objectives_agree(objective, expected, 1e-6),
                    "{context}: BinOCT {objective}, oracle {expected}"
                );
                let plain = weighted_errors(&tree, &data, &weights);
                assert!(
                    objectives_agree(plain, expected, 1e-9),
                    "{context}: {plain}"
                );
            }
        }
    }
}

/// Every class-boundary candidate of each feature of `data`.
fn class_boundary_candidates(data: &Dataset) -> Vec<Vec<f64>> {
    (0..data.n_features())
        .map(|j| {
            candidate_thresholds(
                &data.feature_column(j),
                data.labels(),
                ThresholdMode::ClassBoundary,
            )
        })
        .collect()
}

#[test]
fn class_boundary_is_never_below_the_oracle() {
    for (seed, n, levels, k) in instances() {
        let data = mixed_dataset(seed + 200, n, &levels, k, 2);
        for depth in 1..=2 {
            let unrestricted = optimum(&data, &OracleSpec::errors(&data, depth)).objective;
            let over_candidates = optimum(
                &data,
                &OracleSpec {
                    thresholds: Some(class_boundary_candidates(&data)),
                    ..OracleSpec::errors(&data, depth)
                },
            )
            .objective;
            let formulation = BinOct::new(depth);
            for kind in SOLVERS {
                let (objective, _) = solve_optimally(&formulation, &data, kind, true);
                let context = format!("seed {seed} depth {depth} {kind:?}");
                assert!(
                    objective >= unrestricted - 1e-6,
                    "{context}: below the oracle"
                );
                assert!(
                    objectives_agree(objective, over_candidates, 1e-6),
                    "{context}: BinOCT {objective}, oracle over the same candidates \
                     {over_candidates}"
                );
            }
        }
    }
}

/// Class B at low y for x <= 1 and at high y for x >= 2: the optimal depth-2 tree splits the
/// root at x <= 1.5, between the groups x = 1 and x = 2, which are both pure class A, so
/// mode class-boundary drops that threshold and must make an error (formulations/binoct.md).
fn class_boundary_counterexample() -> Dataset {
    let rows = [
        (0, 0, 1),
        (0, 1, 0),
        (1, 2, 0),
        (2, 0, 0),
        (3, 1, 0),
        (3, 2, 1),
    ];
    Dataset::from_parts(
        "class-boundary counterexample",
        vec!["x".into(), "y".into()],
        vec!["A".into(), "B".into()],
        rows.iter()
            .map(|&(x, y, _)| vec![f64::from(x), f64::from(y)])
            .collect(),
        rows.iter().map(|&(_, _, class)| class).collect(),
    )
    .expect("valid")
}

#[test]
fn class_boundary_can_miss_the_optimum() {
    let data = class_boundary_counterexample();
    let candidates = class_boundary_candidates(&data);
    assert_eq!(candidates, vec![vec![0.5, 2.5], vec![0.5, 1.5]]);
    assert_eq!(optimum(&data, &OracleSpec::errors(&data, 2)).objective, 0.0);
    let restricted = OracleSpec {
        thresholds: Some(candidates),
        ..OracleSpec::errors(&data, 2)
    };
    assert_eq!(optimum(&data, &restricted).objective, 1.0);
    for kind in SOLVERS {
        let exact = BinOct {
            thresholds: ThresholdMode::All,
            ..BinOct::new(2)
        };
        let (objective, tree) = solve_optimally(&exact, &data, kind, false);
        assert!(
            objective.abs() < 1e-6,
            "{kind:?}: mode all finds {objective}"
        );
        assert_eq!(
            tree.node(1).map(|n| n.kind.clone()),
            Some(NodeKind::Split(Split::Axis {
                feature: 0,
                threshold: 1.5
            })),
            "{kind:?}: the only exact trees split the root at x <= 1.5"
        );
        let (objective, _) = solve_optimally(&BinOct::new(2), &data, kind, false);
        assert!(
            (objective - 1.0).abs() < 1e-6,
            "{kind:?}: mode class-boundary finds {objective}"
        );
    }
}

/// The complete assignment in which branch node `n` selects `configs[n - 1]` (a feature and a
/// bit pattern), every leaf predicts class 0 and the rows are routed by the tree the formulation
/// decodes from these choices (by plain prediction, independently of the model's rows). Returns
/// the assignment, the decoded tree and the leaf of each row.
fn assignment_with_bits(
    formulation: &BinOct,
    built: &BinOctModel,
    data: &Dataset,
    configs: &[(usize, Vec<bool>)],
) -> (Assignment, Tree, Vec<usize>) {
    // Decoding reads the features, bits and classes only: route every row anywhere first.
    let anywhere = vec![1usize << built.depth(); data.n_rows()];
    let probe = routed(built, data, configs, &anywhere);
    let tree = formulation
        .decode(built, &probe)
        .expect("every pattern decodes")
        .tree;
    let leaves: Vec<usize> = data.rows().iter().map(|row| tree.leaf_of(row)).collect();
    (routed(built, data, configs, &leaves), tree, leaves)
}

/// The complete assignment with the choices of `configs`, class 0 everywhere, each row `r` in
/// leaf `leaves[r]`, and every `e` at its smallest value.
fn routed(
    built: &BinOctModel,
    data: &Dataset,
    configs: &[(usize, Vec<bool>)],
    leaves: &[usize],
) -> Assignment {
    let first_leaf = 1usize << built.depth();
    let mut start = built.mip().start();
    for (i, (feature, bits)) in configs.iter().enumerate() {
        let node = i + 1;
        for f in 0..data.n_features() {
            if let Some(var) = built.feature_var(node, f) {
                start.set(var, if f == *feature { 1.0 } else { 0.0 });
            }
        }
        for (b, &bit) in bits.iter().enumerate() {
            start.set(
                built.bit_var(node, b + 1).expect("a bit"),
                if bit { 1.0 } else { 0.0 },
            );
        }
    }
    let mut in_leaf = vec![vec![0.0; data.n_classes()]; first_leaf];
    for (r, &reached) in leaves.iter().enumerate() {
        in_leaf[reached - first_leaf][data.labels()[r]] += 1.0;
        for leaf in first_leaf..2 * first_leaf {
            let value = if leaf == reached { 1.0 } else { 0.0 };
            start.set(built.leaf_var(r, leaf).expect("l"), value);
        }
    }
    for (i, counts) in in_leaf.iter().enumerate() {
        for (c, &count) in counts.iter().enumerate() {
            let leaf = first_leaf + i;
            let p = if c == 0 { 1.0 } else { 0.0 };
            start.set(built.class_var(leaf, c).expect("p"), p);
            let errors = if c == 0 { 0.0 } else { count };
            start.set(built.error_var(leaf, c).expect("e"), errors);
        }
    }
    start.finish().expect("complete")
}

/// The bin of row `r` in every feature: the number of the model's thresholds below its value.
fn bins_of(built: &BinOctModel, data: &Dataset, r: usize) -> Vec<usize> {
    built
        .thresholds()
        .iter()
        .zip(&data.rows()[r])
        .map(|(thresholds, &x)| thresholds.iter().filter(|&&t| t < x).count())
        .collect()
}

/// Checks, for one choice of features and bits at every node, that the decoded thresholds are
/// candidates, that the routing of the decoded tree is feasible, and that moving any one row to
/// any other leaf breaks a row of the model: the `l` the rows allow are exactly the routing of
/// the decoded thresholds.
fn check_pattern(
    formulation: &BinOct,
    built: &BinOctModel,
    data: &Dataset,
    configs: &[(usize, Vec<bool>)],
) {
    let first_leaf = 1usize << built.depth();
    let (assignment, tree, leaves) = assignment_with_bits(formulation, built, data, configs);
    for (i, (feature, _)) in configs.iter().enumerate() {
        match tree.node(i + 1).map(|n| &n.kind) {
            Some(NodeKind::Split(Split::Axis {
                feature: decoded,
                threshold,
            })) => {
                assert_eq!(decoded, feature, "{configs:?}");
                assert!(
                    built.thresholds()[*feature].contains(threshold),
                    "{configs:?}: node {} decodes to {threshold}, not a candidate",
                    i + 1
                );
            }
            other => panic!("{configs:?}: node {} decodes to {other:?}", i + 1),
        }
    }
    let check = built.mip().check(&assignment);
    assert!(
        check.feasible,
        "{configs:?}: the decoded routing breaks {:?}",
        check.worst
    );
    for r in 0..data.n_rows() {
        for leaf in first_leaf..2 * first_leaf {
            if leaf == leaves[r] {
                continue;
            }
            // Rows in the same bin of every feature share their leaf variables: they move
            // together.
            let mut moved = leaves.to_vec();
            for twin in
                (0..data.n_rows()).filter(|&q| bins_of(built, data, q) == bins_of(built, data, r))
            {
                moved[twin] = leaf;
            }
            let check = built.mip().check(&routed(built, data, configs, &moved));
            assert!(
                !check.feasible,
                "{configs:?}: row {r} may reach leaf {leaf} instead of {}",
                leaves[r]
            );
        }
    }
}

fn patterns(n_bits: usize) -> Vec<Vec<bool>> {
    (0..1usize << n_bits)
        .map(|value| (0..n_bits).map(|b| value >> b & 1 == 1).collect())
        .collect()
}

#[test]
fn every_bit_pattern_routes_rows_as_its_decoded_threshold() {
    // Candidate counts 6, 3, 1 and 4 under 3 shared bits: not powers of two, and different.
    let data = mixed_dataset(7, 22, &[7, 4, 2, 5], 3, 2);
    let formulation = BinOct {
        thresholds: ThresholdMode::All,
        ..BinOct::new(1)
    };
    let built = formulation.build(&data).expect("builds");
    let counts: Vec<usize> = built.thresholds().iter().map(Vec::len).collect();
    assert_eq!(counts, vec![6, 3, 1, 4]);
    assert_eq!(built.n_bits(), 3);
    for feature in 0..data.n_features() {
        for bits in patterns(built.n_bits()) {
            check_pattern(&formulation, &built, &data, &[(feature, bits)]);
        }
    }
    // Depth 2: every node takes every feature and pattern, the other nodes random choices.
    let formulation = BinOct {
        depth: 2,
        ..formulation
    };
    let built = formulation.build(&data).expect("builds");
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for node in 0..3 {
        for feature in 0..data.n_features() {
            for bits in patterns(built.n_bits()) {
                let mut configs: Vec<(usize, Vec<bool>)> = (0..3)
                    .map(|_| {
                        let f = rng.random_range(0..data.n_features());
                        let value = rng.random_range(0..1usize << built.n_bits());
                        (f, patterns(built.n_bits()).swap_remove(value))
                    })
                    .collect();
                configs[node] = (feature, bits.clone());
                check_pattern(&formulation, &built, &data, &configs);
            }
        }
    }
}

fn axis(feature: usize, threshold: f64) -> Split {
    Split::Axis { feature, threshold }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Encoding any tree gives a feasible complete assignment whose objective is the plain
    /// objective of the tree; decoding it gives a tree that predicts like the snapped tree; in
    /// mode all snapping changes no training prediction.
    #[test]
    fn encoded_random_trees_are_feasible_and_decode_to_the_snapped_tree(
        seed in 0u64..1_000_000,
        depth in 1usize..=3,
        tree_depth in 1usize..=3,
        all in any::<bool>(),
        balanced in any::<bool>(),
    ) {
        let data = mixed_dataset(seed, 12 + (seed % 13) as usize, &[5, 3, 8], 2 + (seed % 2) as usize, 2);
        let formulation = BinOct {
            thresholds: if all { ThresholdMode::All } else { ThresholdMode::ClassBoundary },
            objective: if balanced { Objective::Balanced } else { Objective::Accuracy },
            ..BinOct::new(depth)
        };
        let built = formulation.build(&data).expect("builds");
        let tree = random_tree(&data, tree_depth.min(depth), seed);
        let encoded = formulation.encode(&built, &tree).expect("encodes");
        let assignment = encoded.assignment;
        let check = built.mip().check(&assignment);
        prop_assert!(check.feasible, "infeasible: {:?}", check.worst);
        let plain = formulation.objective_of(&built, &tree).expect("objective_of");
        let model = built.mip().objective_value(&assignment);
        prop_assert!((plain - model).abs() < 1e-9, "objective_of {} vs model {}", plain, model);
        let snapped = built.snapped(&tree).expect("snaps");
        prop_assert_eq!(&snapped, &encoded.tree);
        let weights = formulation.objective.class_weights(&data);
        prop_assert!((weighted_errors(&snapped, &data, &weights) - plain).abs() < 1e-9);
        if all {
            prop_assert_eq!(snapped.predict(data.rows()), tree.predict(data.rows()));
        }
        let decoded = formulation.decode(&built, &assignment).expect("decodes").tree;
        prop_assert_eq!(decoded.predict(data.rows()), snapped.predict(data.rows()));
        prop_assert_eq!(decoded.depth(), depth);
        prop_assert_eq!(decoded.leaves().len(), 1 << depth);
    }
}

#[test]
fn greedy_warm_start_is_feasible_and_its_objective_is_the_greedy_trees() {
    let iris = read_dataset(&crate::common::dataset("iris"), &TargetColumn::Last).expect("iris");
    for mode in [ThresholdMode::All, ThresholdMode::ClassBoundary] {
        for depth in 1..=3 {
            let formulation = BinOct {
                thresholds: mode,
                ..BinOct::new(depth)
            };
            let built = formulation.build(&iris).expect("builds");
            let greedy = formulation.greedy_tree(&iris).expect("greedy");
            let encoded = formulation.encode(&built, &greedy).expect("encodes");
            assert!(
                encoded.notes.is_empty(),
                "{mode} depth {depth}: {:?}",
                encoded.notes
            );
            let start = encoded.assignment;
            assert!(built.mip().check(&start).feasible, "{mode} depth {depth}");
            let errors = greedy
                .evaluate(iris.rows(), iris.labels(), iris.classes())
                .expect("the rows fit the tree")
                .misclassified as f64;
            assert_eq!(built.mip().objective_value(&start), errors);
            assert_eq!(
                formulation.objective_of(&built, &greedy).expect("plain"),
                errors
            );
        }
    }
}

#[test]
fn sizes_stay_within_the_papers_bounds() {
    let iris = read_dataset(&crate::common::dataset("iris"), &TargetColumn::Last).expect("iris");
    let mut datasets = vec![iris, class_boundary_counterexample()];
    datasets.extend(
        instances()
            .into_iter()
            .map(|(seed, n, levels, k)| mixed_dataset(seed, n, &levels, k, 2)),
    );
    datasets.push(mixed_dataset(9, 12, &[1, 4], 2, 0));
    for data in &datasets {
        for mode in [ThresholdMode::All, ThresholdMode::ClassBoundary] {
            for depth in 1..=3 {
                let formulation = BinOct {
                    thresholds: mode,
                    ..BinOct::new(depth)
                };
                let built = formulation.build(data).expect("builds");
                let size = built.mip().size();
                let counts: Vec<usize> = built.thresholds().iter().map(Vec::len).collect();
                let t_max = counts.iter().copied().max().unwrap_or(0);
                let bits = if t_max <= 1 {
                    0
                } else {
                    (t_max as f64).log2().ceil() as usize
                };
                let usable = counts.iter().filter(|&&t| t > 0).count();
                let (n, l) = ((1usize << depth) - 1, 1usize << depth);
                let (f, c) = (data.n_features(), data.n_classes());
                // Rows in the same bin of every feature share their variables and rows.
                let bins: std::collections::HashSet<Vec<usize>> = (0..data.n_rows())
                    .map(|q| bins_of(&built, data, q))
                    .collect();
                let r = bins.len();
                let context = format!("{} {mode} depth {depth}", data.source());
                assert_eq!(size.binaries, n * usable + n * bits + l * c, "{context}");
                // Accuracy: whole weights, so the error columns are integers.
                assert_eq!(size.continuous, r * l, "{context}");
                assert_eq!(size.integers, l * c, "{context}");
                assert!(size.binaries <= n * (f + bits) + l * c, "{context}");
                assert!(
                    size.constraints <= n + r + l + 2 * n * f * t_max + l * c,
                    "{context}: {} constraints",
                    size.constraints
                );
                let rules: usize = counts.iter().filter(|&&t| t > 0).map(|&t| 2 * t - 1).sum();
                assert!(
                    size.constraints <= n + r + l + n * rules + l * c,
                    "{context}"
                );
            }
        }
    }
}

#[test]
fn data_without_any_candidate_gives_a_valid_model() {
    // Every feature is constant: nothing can be split; the optimum is the majority class.
    let rows = vec![vec![1.0, 5.0]; 7];
    let labels = vec![0, 1, 1, 0, 1, 2, 1];
    let data = Dataset::from_parts(
        "constant",
        vec!["a".into(), "b".into()],
        vec!["p".into(), "q".into(), "r".into()],
        rows,
        labels,
    )
    .expect("valid");
    let formulation = BinOct {
        thresholds: ThresholdMode::All,
        ..BinOct::new(2)
    };
    let built = formulation.build(&data).expect("builds");
    assert_eq!(built.n_bits(), 0);
    assert!(built.feature_var(1, 0).is_none());
    for kind in SOLVERS {
        let (objective, tree) = solve_optimally(&formulation, &data, kind, true);
        assert!((objective - 3.0).abs() < 1e-6, "{kind:?}: {objective}");
        assert_eq!(tree.predict(data.rows()), vec![1; 7]);
        assert_eq!(tree.one_sided_splits().len(), 3, "{kind:?}");
    }
    // A tree splitting on a constant feature encodes to the same predictions.
    let mut builder =
        TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), 1).expect("1");
    builder
        .split(
            1,
            Split::Axis {
                feature: 1,
                threshold: 2.0,
            },
        )
        .and_then(|b| b.leaf(2, 0))
        .and_then(|b| b.leaf(3, 1))
        .expect("nodes");
    let tree = builder.build().expect("valid");
    let start = formulation
        .encode(&built, &tree)
        .expect("encodes")
        .assignment;
    assert!(built.mip().check(&start).feasible);
    assert_eq!(built.mip().objective_value(&start), 3.0);
    let decoded = formulation.decode(&built, &start).expect("decodes").tree;
    assert_eq!(decoded.predict(data.rows()), tree.predict(data.rows()));
}

#[test]
fn bad_input_is_an_error() {
    let data = class_boundary_counterexample();
    assert!(BinOct::new(0).build(&data).is_err());
    let formulation = BinOct::new(1);
    let built = formulation.build(&data).expect("builds");
    let mut builder =
        TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), 2).expect("depth");
    builder
        .split(1, axis(0, 1.5))
        .and_then(|b| b.leaf(2, 0))
        .and_then(|b| b.split(3, axis(1, 0.5)))
        .and_then(|b| b.leaf(6, 1))
        .and_then(|b| b.leaf(7, 0))
        .expect("nodes");
    let deep = builder.build().expect("valid");
    let err = formulation.encode(&built, &deep).expect_err("too deep");
    assert!(err.to_string().contains("deeper"), "{err}");
    let no_rows = data.subset(&[]);
    assert!(formulation.build(&no_rows).is_err());
    let mut builder = TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), 1)
        .expect("depth")
        .standardisation(milptree::tree::Standardisation {
            mean: vec![0.0, 0.0],
            scale: vec![1.0, 1.0],
        });
    builder
        .split(
            1,
            Split::Oblique {
                weights: vec![1.0, -1.0],
                bias: 0.0,
            },
        )
        .and_then(|b| b.leaf(2, 0))
        .and_then(|b| b.leaf(3, 1))
        .expect("nodes");
    let oblique = builder.build().expect("valid");
    let err = formulation.encode(&built, &oblique).expect_err("oblique");
    assert!(err.to_string().contains("oblique"), "{err}");
    assert!(formulation.objective_of(&built, &oblique).is_err());
}

#[test]
fn variable_roles_follow_the_columns() {
    let data = mixed_dataset(4, 10, &[3, 1, 5], 3, 0);
    let built = BinOct::new(2).build(&data).expect("builds");
    let names: Vec<&str> = built.mip().vars().iter().map(|v| v.name.as_str()).collect();
    let roles = built.variable_roles();
    assert_eq!(
        roles.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
        names
    );
    // Feature 1 is constant: no node may select it.
    assert!(!names
        .iter()
        .any(|n| n.starts_with("f[") && n.ends_with(",f=1]")));
    for name in [
        "f[n=3,f=2]",
        "t[n=1,b=1]",
        "l[r=9,l=7]",
        "p[l=4,c=2]",
        "e[l=7,c=0]",
    ] {
        assert!(names.contains(&name), "{name} is missing");
    }
    let leaf_role = roles
        .iter()
        .find(|r| r.name == "l[r=9,l=7]")
        .expect("present");
    assert_eq!(leaf_role.node, Some(7));
}
