//! Rows that count more than once: the exact search holds a row of whole-number weight `m`
//! once and counts it `m` times. On random data with ties (two and three classes, weights 0 to
//! 4), the exact search (accuracy, balanced, class weights with a split cost), the front of
//! false positives and false negatives and the sparse search at depths 1 to 3 find on the
//! weighted rows the optimum they find on the same rows written out `m` times each (both
//! built here). Multiplicities no copy could hold (rows of weight 5e6) are solved exactly: the
//! optimum is 5e6 times the one of the weights divided by 5e6. Weights adding up to more than
//! the search's 32-bit counts are refused, naming `--weight-column`.

use milptree::data::Dataset;
use milptree::learn::sparse_search::SparseObjective;
use milptree::learn::{DpObjective, DpParams, LearnOptions, SparseParams};
use milptree::pareto::{solve, ParetoOptions, ParetoProblem};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::random_dataset;
use crate::oracle::{optimum, OracleSpec};
use crate::row_weights_search::{close, dp, given_weights, objective};

/// Case `seed`: 12 to 35 rows, 3 features of 4 levels (ties), 2 classes (3 for every third
/// seed), whole-number weights from 0 to 4 (not all 0).
fn case(seed: u64) -> Dataset {
    let n = 12 + (seed % 24) as usize;
    let k = if seed % 3 == 0 { 3 } else { 2 };
    let data = random_dataset(seed, n, 3, k, 4);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0c0f_fee5);
    let mut weights: Vec<f64> = (0..n)
        .map(|_| [0.0, 1.0, 1.0, 2.0, 3.0, 4.0][rng.random_range(0..6)])
        .collect();
    weights[0] = weights[0].max(1.0);
    data.with_weights(weights).expect("valid weights")
}

/// `data`'s rows written out as many times as their weights, without weights, built apart
/// from the library's own repetition.
fn written_out(data: &Dataset) -> Dataset {
    let mut rows = Vec::new();
    let mut labels = Vec::new();
    for (i, (row, &label)) in data.rows().iter().zip(data.labels()).enumerate() {
        for _ in 0..data.weight(i) as usize {
            rows.push(row.clone());
            labels.push(label);
        }
    }
    Dataset::from_parts(
        "written out",
        data.schema().features.clone(),
        data.classes().to_vec(),
        rows,
        labels,
    )
    .expect("valid data")
}

/// The weighted errors of every point of the front of `data` at `depth`.
fn front(data: &Dataset, depth: usize) -> Vec<(f64, f64)> {
    let outcome =
        solve(data, &ParetoProblem::new(depth), &ParetoOptions::default()).expect("front");
    assert!(outcome.is_complete());
    outcome
        .front
        .iter()
        .map(|t| {
            let errors = outcome.errors(t.point);
            (errors.fp, errors.fn_)
        })
        .collect()
}

fn sparse(data: &Dataset, depth: usize, params: &SparseParams) -> f64 {
    let search = params.check(Some(depth)).expect("valid parameters");
    objective(&search.run(data, &LearnOptions::default()).expect("solved"))
}

#[test]
fn rows_counted_by_multiplicity_equal_the_rows_written_out() {
    for seed in 0..18u64 {
        let data = case(seed);
        let copies = written_out(&data);
        assert_eq!(copies.n_rows() as f64, data.total_weight());
        for depth in 1..=3usize {
            let what = format!("seed {seed} depth {depth}");
            let found = dp(&data, depth, &DpParams::default());
            close(found, dp(&copies, depth, &DpParams::default()), &what);
            if depth <= 2 {
                // An oracle that shares no code with the search, on the rows written out.
                let oracle = optimum(&copies, &OracleSpec::errors(&copies, depth));
                close(found, oracle.objective, &what);
            }
            let factors: Vec<f64> = (0..data.n_classes()).map(|k| 1.0 + k as f64).collect();
            for params in [
                DpParams {
                    objective: DpObjective::Balanced,
                    ..DpParams::default()
                },
                DpParams {
                    class_weights: given_weights(&data, &factors),
                    alpha: 0.05,
                    ..DpParams::default()
                },
            ] {
                close(
                    dp(&data, depth, &params),
                    dp(&copies, depth, &params),
                    &format!("{what} {:?}", params.objective),
                );
            }
            if data.n_classes() == 2 {
                assert_eq!(front(&data, depth), front(&copies, depth), "{what} front");
            }
            let params = SparseParams {
                objective: SparseObjective::Accuracy,
                leaf_penalty: 0.01,
                ..SparseParams::default()
            };
            close(
                sparse(&data, depth, &params),
                sparse(&copies, depth, &params),
                &format!("{what} sparse"),
            );
        }
    }
}

#[test]
fn multiplicities_no_copy_could_hold_are_solved_exactly() {
    const LARGE: f64 = 5e6;
    for seed in 40..46u64 {
        let small = case(seed);
        let weights: Vec<f64> = small.weights().expect("weighted").to_vec();
        let large = small
            .clone()
            .with_weights(weights.iter().map(|w| w * LARGE).collect())
            .expect("valid weights");
        // More copies than any row set the copies could hold.
        assert!(large.total_weight() > 1e8);
        for depth in 1..=3usize {
            let what = format!("seed {seed} depth {depth}");
            let params = DpParams::default();
            close(
                dp(&large, depth, &params),
                LARGE * dp(&small, depth, &params),
                &what,
            );
            let balanced = DpParams {
                objective: DpObjective::Balanced,
                ..DpParams::default()
            };
            close(
                dp(&large, depth, &balanced),
                LARGE * dp(&small, depth, &balanced),
                &format!("{what} balanced"),
            );
        }
    }
}

#[test]
fn weights_beyond_the_searchs_counts_are_refused_by_name() {
    let data = case(3);
    let n = data.n_rows();
    let heavy = data.with_weights(vec![1e9; n]).expect("valid weights");
    let error = DpParams::default()
        .check(2)
        .expect("valid parameters")
        .run(&heavy, &LearnOptions::default())
        .expect_err("more weight than 32-bit counts hold");
    assert_eq!(error.exit_code(), 2);
    let text = error.to_string();
    assert!(text.contains("--weight-column"), "{text}");
}
