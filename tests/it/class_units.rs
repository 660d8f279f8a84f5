//! Row weights that are whole multiples of one unit per class (scikit-learn's
//! `compute_sample_weight("balanced")`, alone or times whole numbers) in the searches, against
//! the exhaustive weighted oracle on small random data: the exact search (accuracy, balanced,
//! class weights, split cost) and the sparse search (accuracy, weighted, balanced) at depths 1
//! to 3 equal the oracle's optimum on the weighted rows; the weights change the optimum; the
//! command line, the certificate and the front take them; weights with no common unit per
//! class are refused by name, and so are class-structured weights where rows are counted (the
//! sparse search's F1 and AUC, fairness, the epsilon-constraint front), never rounded.

use milptree::data::Dataset;
use milptree::learn::sparse_search::SparseObjective;
use milptree::learn::{DpObjective, DpParams, LearnOptions, SparseParams};
use milptree::score::Objective;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{milptree, path_str, random_dataset, stderr, temp_file, to_weighted_csv};
use crate::oracle::{optimum, OracleSpec};
use crate::row_weights_search::{
    close, dp, exact_search_equals_the_weighted_oracle, given_weights, objective as reported,
    sparse_oracle,
};

/// `data` weighted as scikit-learn's `compute_sample_weight("balanced", y)` (`n / (K n_k)` for
/// a row of class `k`) times a whole number drawn from `multipliers` per row.
fn balanced_times(data: Dataset, seed: u64, multipliers: &[f64]) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xba1a_2ced);
    let counts = data.class_counts();
    let (n, k) = (data.n_rows() as f64, data.n_classes() as f64);
    let mut weights: Vec<f64> = data
        .labels()
        .iter()
        .map(|&label| {
            let balanced = n / (k * counts[label] as f64);
            balanced * multipliers[rng.random_range(0..multipliers.len())]
        })
        .collect();
    if weights.iter().all(|&w| w == 0.0) {
        weights[0] = n / (k * counts[data.labels()[0]] as f64);
    }
    data.with_weights(weights).expect("valid weights")
}

/// Case `seed`: 9 to 14 rows, 2 features of 3 levels (ties), 2 or 3 classes (each present),
/// balanced weights times 1 to 3 (`times`) or alone.
fn case(seed: u64, times: bool) -> Dataset {
    let n = 9 + (seed % 6) as usize;
    let k = 2 + (seed % 2) as usize;
    let plain = random_dataset(seed, n, 2, k, 3);
    let multipliers: &[f64] = if times { &[0.0, 1.0, 2.0, 3.0] } else { &[1.0] };
    balanced_times(plain, seed, multipliers)
}

/// The class costs of `objective` on the weighted `data`, times `factors` when `given`.
fn costs(objective: Objective, data: &Dataset, factors: &[f64], given: bool) -> Vec<f64> {
    objective
        .class_weights(data)
        .iter()
        .zip(factors)
        .map(|(cost, factor)| if given { cost * factor } else { *cost })
        .collect()
}

#[test]
fn the_exact_search_on_class_structured_weights_equals_the_weighted_oracle() {
    let mut fractional = 0;
    for seed in 0..12u64 {
        let data = case(seed, seed % 3 != 0);
        fractional += usize::from(!data.has_integer_weights());
        for depth in 1..=3 {
            let what = format!("seed {seed} depth {depth}");
            exact_search_equals_the_weighted_oracle(&data, depth, &[1.0, 2.5, 0.5], None, &what);
        }
    }
    assert!(
        fractional >= 10,
        "only {fractional} cases of fractional weights"
    );
}

#[test]
fn the_sparse_search_on_class_structured_weights_equals_the_weighted_oracle() {
    for seed in 20..32u64 {
        let data = case(seed, seed % 3 != 0);
        assert!(!data.has_integer_weights(), "seed {seed}");
        let penalty = 0.03;
        let factors = [2.0, 1.0, 3.0];
        for depth in 1..=3 {
            for (objective, given) in [
                (SparseObjective::Accuracy, false),
                (SparseObjective::Accuracy, true),
                (SparseObjective::Balanced, false),
            ] {
                let base = match objective {
                    SparseObjective::Balanced => Objective::Balanced,
                    _ => Objective::Accuracy,
                };
                let costs = costs(base, &data, &factors, given);
                let expected = sparse_oracle(&data, depth, costs, penalty);
                let params = SparseParams {
                    objective,
                    leaf_penalty: penalty,
                    class_weights: if given {
                        given_weights(&data, &factors)
                    } else {
                        Vec::new()
                    },
                    ..SparseParams::default()
                };
                let search = params.check(Some(depth)).expect("valid parameters");
                close(
                    reported(&search.run(&data, &LearnOptions::default()).expect("solved")),
                    expected,
                    &format!("seed {seed} depth {depth} {objective:?} class weights {given}"),
                );
            }
        }
    }
}

#[test]
fn class_structured_weights_change_the_optimum() {
    // The tree optimal on the rows without weights is worse on the weighted rows than the
    // weighted optimum, on some case: the weights are not ignored.
    let mut changed = 0;
    for seed in 0..12u64 {
        let data = case(seed, true);
        let depth = 1 + (seed % 2) as usize;
        let search = DpParams::default().check(depth).expect("valid");
        let plain = search
            .run(&data.clone().without_weights(), &LearnOptions::default())
            .expect("solved");
        let tree = plain.tree.expect("a tree");
        let on_weights = milptree::dp::objective_of(&tree, &data, &search.problem(&data))
            .expect("within the problem");
        let weighted = optimum(&data, &OracleSpec::errors(&data, depth)).objective;
        assert!(on_weights >= weighted - 1e-9, "seed {seed}");
        changed += usize::from(on_weights > weighted + 1e-9);
    }
    assert!(
        changed >= 2,
        "the weights changed the optimum of {changed} cases"
    );
}

/// Weights drawn from (0.1, 2): no class has a common unit.
fn without_unit(seed: u64) -> Dataset {
    let data = random_dataset(seed, 12, 2, 2, 3);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let weights = (0..data.n_rows())
        .map(|_| rng.random_range(0.1..2.0))
        .collect();
    data.with_weights(weights).expect("valid weights")
}

#[test]
fn weights_without_a_unit_per_class_or_counted_as_rows_are_refused_by_name() {
    let options = LearnOptions::default();
    let random = without_unit(3);
    let balanced = case(4, true);
    assert!(!balanced.has_integer_weights());
    let refusals = [
        (
            DpParams::default()
                .check(2)
                .expect("valid")
                .run(&random, &options),
            "whole multiples of one unit per class",
        ),
        (
            SparseParams::default()
                .check(Some(2))
                .expect("valid")
                .run(&random, &options),
            "whole multiples of one unit per class",
        ),
        (
            DpParams {
                objective: DpObjective::F1,
                ..DpParams::default()
            }
            .check(2)
            .expect("valid")
            .run(&random, &options),
            "whole multiples of one unit per class",
        ),
        (
            SparseParams {
                objective: SparseObjective::F1,
                ..SparseParams::default()
            }
            .check(Some(2))
            .expect("valid")
            .run(&balanced, &options),
            "whole-number row weights only",
        ),
        (
            SparseParams {
                objective: SparseObjective::Auc,
                ..SparseParams::default()
            }
            .check(Some(2))
            .expect("valid")
            .run(&balanced, &options),
            "whole-number row weights only",
        ),
    ];
    for (result, words) in refusals {
        let error = result.expect_err("refused");
        assert_eq!(error.exit_code(), 2);
        let text = error.to_string();
        assert!(
            text.contains("--weight-column") && text.contains(words),
            "{words}: {text}"
        );
    }
    // A leaf minimum counts rows: taken when each class's rows weigh one value (each row one
    // copy), refused when a row stands for several.
    let alone = case(5, false);
    let params = DpParams {
        min_leaf: 2,
        ..DpParams::default()
    };
    let spec = OracleSpec {
        min_leaf: 2,
        ..OracleSpec::errors(&alone, 2)
    };
    close(
        dp(&alone, 2, &params),
        optimum(&alone, &spec).objective,
        "a leaf minimum on balanced weights",
    );
    let error = params
        .check(2)
        .expect("valid")
        .run(&balanced, &options)
        .expect_err("a leaf minimum over several copies");
    assert!(error.to_string().contains("--min-leaf"), "{error}");
}

#[test]
fn the_command_line_and_the_certificate_take_class_structured_weights() {
    let data = case(8, true);
    assert!(!data.has_integer_weights() && data.n_classes() == 2);
    let (_dir, file) = temp_file("balanced.csv", &to_weighted_csv(&data));
    let file = path_str(&file);
    let run = |args: &[&str]| {
        let output = milptree(args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        serde_json::from_slice::<serde_json::Value>(&output.stdout).expect("JSON")
    };
    let expected = optimum(&data, &OracleSpec::errors(&data, 2)).objective;
    let dp = run(&[
        "solve",
        file,
        "--weight-column",
        "w",
        "--solver",
        "dp",
        "--depth",
        "2",
        "--json",
    ]);
    close(dp["objective"].as_f64().expect("objective"), expected, "dp");
    // FlowOCT minimises the same weighted errors; its certificate's search runs on the rows
    // repeated by their multiples and agrees.
    let flowoct = run(&[
        "solve",
        file,
        "--weight-column",
        "w",
        "--formulation",
        "flowoct",
        "--depth",
        "2",
        "--json",
    ]);
    close(
        flowoct["evaluated_objective"].as_f64().expect("objective"),
        expected,
        "flowoct",
    );
    assert_eq!(flowoct["certificate"]["verdict"], "agrees", "{flowoct}");
    // The front counts units of each class (see `weighted_front` for its oracle); the
    // epsilon-constraint method counts whole-number weights only: refused by name.
    let front = run(&[
        "pareto",
        file,
        "--weight-column",
        "w",
        "--depth",
        "2",
        "--json",
    ]);
    assert!(front["complete"].as_bool().unwrap_or(false), "{front}");
    let output = milptree(&[
        "pareto",
        file,
        "--weight-column",
        "w",
        "--depth",
        "1",
        "--solver",
        "highs",
        "--formulation",
        "oct",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let text = stderr(&output);
    assert!(
        text.contains("--weight-column") && text.contains("epsilon-constraint"),
        "{text}"
    );
}
