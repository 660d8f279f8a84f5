//! Row weights in the searches, against independent references: on small random data with
//! ties and whole-number row weights (some 0), the exact search's optimum equals the exhaustive
//! oracle's on the weighted rows (accuracy, balanced, class weights, split cost, split limits)
//! and the oracle's on the rows repeated by weight; a leaf minimum above 1, which counts rows
//! whatever their weights, is refused (the search holds copies of rows); the sparse
//! search with a depth cap equals the oracle's weighted errors plus its leaf penalty; the
//! metric objectives and the `pareto` front equal those of the repeated rows; a row of weight 0
//! changes no optimum; weights that are not whole numbers and have no common unit per class
//! are refused by every search, exit 2 naming `--weight-column`, and so are bad weight cells,
//! naming their line (the weights with such a unit: `class_units.rs`).

use milptree::data::Dataset;
use milptree::learn::sparse_search::SparseObjective;
use milptree::learn::{DpObjective, DpParams, LearnOptions, Outcome, SparseParams};
use milptree::score::{ClassWeight, Objective};

use crate::common::{
    assert_usage_error, milptree, path_str, random_dataset, repeated_rows, stderr, temp_file,
    to_csv, to_weighted_csv, with_random_weights,
};
use crate::oracle::{optimum, OracleSpec};

/// The objective a run reports, checked against the tree's plain re-evaluation.
pub(crate) fn objective(outcome: &Outcome) -> f64 {
    let reported = outcome.report.objective.expect("a tree");
    let evaluated = outcome.evaluated_objective.expect("re-evaluated");
    assert!(
        (reported - evaluated).abs() <= 1e-9 * reported.abs().max(1.0),
        "reported {reported}, re-evaluated {evaluated}"
    );
    assert!(outcome.decode_mismatch.is_none());
    reported
}

pub(crate) fn dp(data: &Dataset, depth: usize, params: &DpParams) -> f64 {
    let search = params.check(depth).expect("valid parameters");
    let train = search.prepare(data.clone()).expect("prepared");
    objective(
        &search
            .run(&train, &LearnOptions::default())
            .expect("solved"),
    )
}

fn sparse(data: &Dataset, depth: usize, params: &SparseParams) -> f64 {
    let search = params.check(Some(depth)).expect("valid parameters");
    objective(&search.run(data, &LearnOptions::default()).expect("solved"))
}

/// `--class-weight` for each class of `data`: `factors[class]`.
pub(crate) fn given_weights(data: &Dataset, factors: &[f64]) -> Vec<ClassWeight> {
    (0..data.n_classes())
        .map(|c| ClassWeight {
            label: data.classes()[c].clone(),
            weight: factors[c],
        })
        .collect()
}

pub(crate) fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-7 * a.abs().max(1.0),
        "{what}: {a} != {b}"
    );
}

/// The data of case `seed`: 9 to 14 rows, 2 features of 3 levels (ties), 2 or 3 classes,
/// whole-number weights 0 to 3.
fn case(seed: u64) -> Dataset {
    let n = 9 + (seed % 6) as usize;
    let k = 2 + (seed % 2) as usize;
    with_random_weights(random_dataset(seed, n, 2, k, 3), seed, true)
}

#[test]
fn the_exact_search_on_weighted_rows_equals_the_weighted_oracle() {
    for seed in 0..12u64 {
        let data = case(seed);
        let depth = 1 + (seed % 3) as usize;
        let max_splits = (seed % 4 == 0).then_some(2);
        let what = format!("seed {seed} depth {depth}");
        exact_search_equals_the_weighted_oracle(&data, depth, &[1.0, 2.5, 0.5], max_splits, &what);
    }
}

/// The exact search on `data` at `depth` under `max_splits` reaches the weighted oracle's
/// optimum for accuracy and balanced, each without and with the class weights `factors`
/// (one per class, or more), and each without and with a split cost.
pub(crate) fn exact_search_equals_the_weighted_oracle(
    data: &Dataset,
    depth: usize,
    factors: &[f64],
    max_splits: Option<usize>,
    what: &str,
) {
    let class_weights = given_weights(data, factors);
    for (objective, given) in [
        (DpObjective::Accuracy, false),
        (DpObjective::Balanced, false),
        (DpObjective::Accuracy, true),
        (DpObjective::Balanced, true),
    ] {
        let costs: Vec<f64> = objective
            .weights()
            .expect("an error objective")
            .class_weights(data)
            .iter()
            .zip(factors)
            .map(|(cost, factor)| if given { cost * factor } else { *cost })
            .collect();
        let params = DpParams {
            objective,
            max_splits,
            class_weights: if given {
                class_weights.clone()
            } else {
                Vec::new()
            },
            ..DpParams::default()
        };
        let spec = OracleSpec {
            class_weights: costs.clone(),
            max_splits,
            ..OracleSpec::errors(data, depth)
        };
        let what = format!("{what} {objective:?} class weights {given}");
        close(
            dp(data, depth, &params),
            optimum(data, &spec).objective,
            &what,
        );
        // A split cost in units of the baseline's weighted errors, as OCT's alpha.
        let totals = data.class_weight_totals();
        let weighted: Vec<f64> = totals.iter().zip(&costs).map(|(t, c)| t * c).collect();
        let baseline = weighted.iter().sum::<f64>() - weighted.iter().copied().fold(0.0, f64::max);
        let alpha = 0.15;
        let spec = OracleSpec {
            split_cost: alpha * baseline,
            ..spec
        };
        let params = DpParams { alpha, ..params };
        close(
            dp(data, depth, &params),
            optimum(data, &spec).objective,
            &format!("{what} alpha {alpha}"),
        );
    }
}

#[test]
fn whole_number_weights_give_the_optimum_of_the_repeated_rows() {
    for seed in 20..30u64 {
        let data = case(seed);
        let copies = repeated_rows(&data);
        let depth = 1 + (seed % 3) as usize;
        // The optimum of the rows repeated; a leaf minimum counts rows whatever their weights,
        // which the search, holding copies, cannot count: it is refused above 1.
        let params = DpParams::default();
        let what = format!("seed {seed} depth {depth}");
        let found = dp(&data, depth, &params);
        close(
            found,
            optimum(&copies, &OracleSpec::errors(&copies, depth)).objective,
            &what,
        );
        close(found, dp(&copies, depth, &params), &what);
        let refused = DpParams {
            min_leaf: 3,
            ..DpParams::default()
        }
        .check(depth)
        .expect("valid parameters")
        .run(&data, &LearnOptions::default())
        .expect_err("a leaf minimum over weighted rows");
        assert!(refused.to_string().contains("--min-leaf"), "{refused}");
        // The metric objectives, on the front of false positives and false negatives.
        for objective in [DpObjective::F1, DpObjective::Mcc] {
            if data.n_classes() != 2 {
                continue;
            }
            let params = DpParams {
                objective,
                ..DpParams::default()
            };
            close(
                dp(&data, depth, &params),
                dp(&copies, depth, &params),
                &format!("seed {seed} depth {depth} {objective:?}"),
            );
        }
        // The sparse search, every loss.
        let sparse_depth = 1 + (seed % 2) as usize;
        for objective in [
            SparseObjective::Accuracy,
            SparseObjective::Balanced,
            SparseObjective::F1,
            SparseObjective::Auc,
        ] {
            if data.n_classes() != 2 && objective != SparseObjective::Accuracy {
                continue;
            }
            let params = SparseParams {
                objective,
                leaf_penalty: 0.02,
                ..SparseParams::default()
            };
            close(
                sparse(&data, sparse_depth, &params),
                sparse(&copies, sparse_depth, &params),
                &format!("seed {seed} sparse {objective:?}"),
            );
        }
    }
}

/// The oracle's optimum of the sparse objective at `depth`: `loss + penalty * leaves`, the loss
/// the weighted errors (each row's error at its class's cost, `costs`) over the total weight
/// of the rows so counted.
pub(crate) fn sparse_oracle(data: &Dataset, depth: usize, costs: Vec<f64>, penalty: f64) -> f64 {
    let norm: f64 = data
        .class_weight_totals()
        .iter()
        .zip(&costs)
        .map(|(t, c)| t * c)
        .sum();
    let spec = OracleSpec {
        class_weights: costs,
        split_cost: penalty * norm,
        ..OracleSpec::errors(data, depth)
    };
    optimum(data, &spec).objective / norm + penalty
}

#[test]
fn the_sparse_search_on_weighted_rows_equals_the_weighted_oracle() {
    for seed in 40..50u64 {
        let data = case(seed);
        let depth = 1 + (seed % 3) as usize;
        let total = data.total_weight();
        let penalty = 0.03;
        let factors = [2.0, 1.0, 3.0];
        for given in [false, true] {
            let class_weights = if given {
                given_weights(&data, &factors)
            } else {
                Vec::new()
            };
            let costs: Vec<f64> = (0..data.n_classes())
                .map(|c| if given { factors[c] } else { 1.0 })
                .collect();
            let expected = sparse_oracle(&data, depth, costs, penalty);
            let params = SparseParams {
                objective: SparseObjective::Accuracy,
                leaf_penalty: penalty,
                class_weights,
                ..SparseParams::default()
            };
            close(
                sparse(&data, depth, &params),
                expected,
                &format!("seed {seed} depth {depth} class weights {given} (total {total})"),
            );
        }
    }
}

#[test]
fn a_row_of_weight_zero_changes_no_optimum() {
    for seed in 60..66u64 {
        let plain = random_dataset(seed, 10, 2, 2, 3);
        // One more row, of weight 0, with the opposite label of row 0 and its features.
        let mut rows = plain.rows().to_vec();
        let mut labels = plain.labels().to_vec();
        rows.push(plain.rows()[0].clone());
        labels.push(1 - plain.labels()[0]);
        let mut weights = vec![1.0; plain.n_rows()];
        weights.push(0.0);
        let extended = Dataset::from_parts(
            "extended",
            (0..2).map(|j| format!("x{j}")).collect(),
            plain.classes().to_vec(),
            rows,
            labels,
        )
        .expect("valid")
        .with_weights(weights)
        .expect("valid weights");
        for depth in 1..=3 {
            for objective in [
                DpObjective::Accuracy,
                DpObjective::Balanced,
                DpObjective::F1,
            ] {
                let params = DpParams {
                    objective,
                    ..DpParams::default()
                };
                close(
                    dp(&extended, depth, &params),
                    dp(&plain, depth, &params),
                    &format!("seed {seed} depth {depth} {objective:?}"),
                );
            }
            let params = SparseParams {
                objective: SparseObjective::Balanced,
                ..SparseParams::default()
            };
            close(
                sparse(&extended, depth, &params),
                sparse(&plain, depth, &params),
                &format!("seed {seed} depth {depth} sparse"),
            );
        }
    }
}

#[test]
fn weights_that_are_not_whole_numbers_are_refused_by_the_searches() {
    let data = with_random_weights(random_dataset(3, 12, 2, 2, 3), 3, false);
    assert!(!data.has_integer_weights());
    let options = LearnOptions::default();
    let errors = [
        DpParams::default()
            .check(2)
            .expect("valid")
            .run(&data, &options)
            .expect_err("refused"),
        DpParams {
            objective: DpObjective::F1,
            ..DpParams::default()
        }
        .check(2)
        .expect("valid")
        .run(&data, &options)
        .expect_err("refused"),
        SparseParams::default()
            .check(Some(2))
            .expect("valid")
            .run(&data, &options)
            .expect_err("refused"),
    ];
    for error in errors {
        assert_eq!(error.exit_code(), 2);
        assert!(error.to_string().contains("--weight-column"), "{error}");
    }
    // The balanced class costs are those of the weighted class totals.
    let costs = Objective::Balanced.class_weights(&data);
    let totals = data.class_weight_totals();
    close(costs[0] * totals[0], costs[1] * totals[1], "balanced costs");
}

#[test]
fn the_command_line_takes_row_and_class_weights() {
    let data = case(8);
    let (_dir, weighted) = temp_file("weighted.csv", &to_weighted_csv(&data));
    let (_dir2, copies) = temp_file("copies.csv", &to_csv(&repeated_rows(&data)));
    let json = |args: &[&str]| -> serde_json::Value {
        let output = milptree(args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        serde_json::from_slice(&output.stdout).expect("JSON")
    };
    let weighted = path_str(&weighted);
    let copies = path_str(&copies);
    let one = json(&[
        "solve",
        weighted,
        "--weight-column",
        "w",
        "--solver",
        "dp",
        "--depth",
        "2",
        "--class-weight",
        "c1=2",
        "--json",
    ]);
    let two = json(&[
        "solve",
        copies,
        "--solver",
        "dp",
        "--depth",
        "2",
        "--class-weight",
        "c1=2",
        "--json",
    ]);
    let objective = one["objective"].as_f64().expect("an objective");
    close(
        objective,
        two["objective"].as_f64().expect("an objective"),
        "objective",
    );
    close(
        objective,
        one["evaluated_objective"].as_f64().expect("re-evaluated"),
        "re-evaluated",
    );
    assert_eq!(one["parameters"]["class_weights"][0]["weight"], 2.0);
    assert_eq!(one["data"]["weight_column"], "w");
    // The plain counts and the weighted ones, the latter those of the repeated rows.
    let train = &one["train"];
    assert_eq!(train["rows"], data.n_rows());
    close(
        train["weighted_accuracy"].as_f64().expect("weighted"),
        two["train"]["accuracy"].as_f64().expect("plain"),
        "weighted accuracy",
    );
    close(
        train["weighted_misclassified"].as_f64().expect("weighted"),
        two["train"]["misclassified"].as_f64().expect("plain"),
        "weighted errors",
    );
    // The front of the weighted rows is the front of the repeated rows.
    let front = |args: &[&str]| {
        let points = json(args)["points"].clone();
        assert!(points.as_array().is_some_and(|p| !p.is_empty()), "{points}");
        points
    };
    assert_eq!(
        front(&[
            "pareto",
            weighted,
            "--weight-column",
            "w",
            "--depth",
            "2",
            "--json"
        ]),
        front(&["pareto", copies, "--depth", "2", "--json"])
    );
}

#[test]
fn the_command_line_refuses_weights_a_method_cannot_take() {
    let real = with_random_weights(random_dataset(5, 12, 2, 2, 3), 5, false);
    let (_dir, real) = temp_file("real.csv", &to_weighted_csv(&real));
    let real = path_str(&real);
    let refusals: [(&[&str], &str); 3] = [
        (
            &["pareto", real, "--weight-column", "w", "--depth", "2"],
            "--weight-column",
        ),
        (
            &[
                "solve",
                real,
                "--weight-column",
                "w",
                "--solver",
                "dp",
                "--depth",
                "2",
            ],
            "--weight-column",
        ),
        (
            &[
                "solve",
                real,
                "--solver",
                "dp",
                "--depth",
                "1",
                "--objective",
                "f1",
                "--class-weight",
                "c1=2",
            ],
            "--class-weight",
        ),
    ];
    for (args, named) in refusals {
        assert_usage_error(args, named);
    }
    for bad in ["-1", "nan", "inf"] {
        let text = format!("x0,w,label\n1,1,a\n2,{bad},b\n3,1,a\n");
        let (_dir, file) = temp_file("bad.csv", &text);
        assert_usage_error(
            &[
                "solve",
                path_str(&file),
                "--weight-column",
                "w",
                "--solver",
                "dp",
                "--depth",
                "1",
            ],
            "line 3",
        );
    }
}
