//! The front of false positives and false negatives on fractional row weights that are whole
//! multiples of one unit per class (scikit-learn's `compute_sample_weight("balanced")`, alone
//! or times whole numbers, and other units per class), against an exhaustive weighted oracle
//! written independently of the search: at depths 1 to 3 the search's front, in weight, is the
//! set of nondominated weighted (FP, FN) over every tree; every front tree makes its point's
//! weighted errors under plain counting; the best F1, MCC and Fowlkes-Mallows trees of the exact
//! search (`--objective f1` ...) reach the oracle's best value; and the `pareto` command gives
//! the oracle's front, the same front as the weights times a common multiple as whole numbers
//! (divided by it), and tree files that make their points' weighted errors.

use milptree::data::Dataset;
use milptree::learn::{DpObjective, DpParams, LearnOptions};
use milptree::pareto::{solve, weighted_errors_of, Metric, ParetoOptions, ParetoProblem};
use milptree::score::Confusion;
use milptree::tree::Tree;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{milptree, path_str, random_dataset, stderr, temp_file, to_weighted_csv};
use crate::oracle::all_splits;

/// How far two weighted figures (sums of the same weights in another order) may differ.
const TOLERANCE: f64 = 1e-9;

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOLERANCE * a.abs().max(b.abs()).max(1.0)
}

/// The nondominated points of `points`, by increasing FP, near-equal points once.
fn nondominated(mut points: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut kept: Vec<(f64, f64)> = Vec::new();
    for (fp, fn_) in points {
        // Sorted by FP: a point is dominated when a kept one has no more FN.
        if kept.iter().any(|&(_, f)| f <= fn_ || near(f, fn_)) {
            continue;
        }
        kept.push((fp, fn_));
    }
    kept
}

/// Every weighted (FP, FN) of a tree of depth at most `depth` over `rows`, reduced to its
/// nondominated points (which loses nothing: the best sum of two children is a sum of two
/// nondominated points). Leaves predict either class.
fn reachable(
    data: &Dataset,
    splits: &[(usize, f64)],
    rows: &[usize],
    depth: usize,
) -> Vec<(f64, f64)> {
    let weight = |label: usize| -> f64 {
        rows.iter()
            .filter(|&&i| data.labels()[i] == label)
            .map(|&i| data.weight(i))
            .sum()
    };
    let mut all = vec![(0.0, weight(1)), (weight(0), 0.0)];
    if depth > 0 {
        for &(j, t) in splits {
            let (left, right): (Vec<usize>, Vec<usize>) =
                rows.iter().partition(|&&i| data.rows()[i][j] <= t);
            let l = reachable(data, splits, &left, depth - 1);
            let r = reachable(data, splits, &right, depth - 1);
            for &(a, b) in &l {
                for &(c, d) in &r {
                    all.push((a + c, b + d));
                }
            }
        }
    }
    nondominated(all)
}

/// The oracle's weighted front at `depth`, every midpoint a threshold.
fn oracle_front(data: &Dataset, depth: usize) -> Vec<(f64, f64)> {
    let splits: Vec<(usize, f64)> = all_splits(data);
    let rows: Vec<usize> = (0..data.n_rows()).collect();
    reachable(data, &splits, &rows, depth)
}

/// The value of `metric` at the weighted errors `(fp, fn_)` on `data`.
fn metric_at(metric: Metric, data: &Dataset, (fp, fn_): (f64, f64)) -> f64 {
    let totals = data.class_weight_totals();
    metric.value(Confusion {
        tp: totals[1] - fn_,
        fp,
        fn_,
        tn: totals[0] - fp,
    })
}

/// Case `seed`: 9 to 14 rows, 2 features of 3 levels (ties), 2 classes; weights that are a
/// unit per class (balanced weights `n / (2 n_k)`, or one of a few other units) times a whole
/// number from 1 to 3 (0 on a few rows), or the unit alone.
fn case(seed: u64) -> Dataset {
    let n = 9 + (seed % 6) as usize;
    let data = random_dataset(seed, n, 2, 2, 3);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_f407);
    let counts = data.class_counts();
    let units: [f64; 2] = if seed % 2 == 0 {
        [0, 1].map(|k| n as f64 / (2.0 * counts[k].max(1) as f64))
    } else {
        let choices = [0.4, 1.0 / 3.0, 0.7, 1.5, 2.0 / 7.0];
        [0, 1].map(|_| choices[rng.random_range(0..choices.len())])
    };
    let times = seed % 3 != 0;
    let mut weights: Vec<f64> = data
        .labels()
        .iter()
        .map(|&label| {
            let multiple = if times {
                [0.0, 1.0, 1.0, 2.0, 3.0][rng.random_range(0..5)]
            } else {
                1.0
            };
            units[label] * multiple
        })
        .collect();
    if weights.iter().all(|&w| w == 0.0) {
        weights[0] = units[data.labels()[0]];
    }
    data.with_weights(weights).expect("valid weights")
}

fn assert_same_front(found: &[(f64, f64)], expected: &[(f64, f64)], what: &str) {
    assert_eq!(
        found.len(),
        expected.len(),
        "{what}: {found:?} against {expected:?}"
    );
    for (a, b) in found.iter().zip(expected) {
        assert!(
            near(a.0, b.0) && near(a.1, b.1),
            "{what}: {found:?} against {expected:?}"
        );
    }
}

#[test]
fn the_front_of_factored_weights_equals_the_weighted_oracle() {
    let mut fractional = 0;
    for seed in 0..12u64 {
        let data = case(seed);
        fractional += usize::from(!data.has_integer_weights());
        for depth in 1..=3 {
            let what = format!("seed {seed} depth {depth}");
            let expected = oracle_front(&data, depth);
            let outcome = solve(&data, &ParetoProblem::new(depth), &ParetoOptions::default())
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(outcome.is_complete(), "{what}");
            let found: Vec<(f64, f64)> = outcome
                .front
                .iter()
                .map(|t| {
                    let errors = outcome.errors(t.point);
                    // Re-evaluated on the weighted rows by plain counting.
                    let evaluated = weighted_errors_of(&t.tree, &data);
                    assert!(
                        near(evaluated.fp, errors.fp) && near(evaluated.fn_, errors.fn_),
                        "{what}: {errors:?} reported, {evaluated:?} evaluated"
                    );
                    (errors.fp, errors.fn_)
                })
                .collect();
            assert_same_front(&found, &expected, &what);
            for metric in [Metric::F1, Metric::Mcc, Metric::FowlkesMallows] {
                let most = expected
                    .iter()
                    .map(|&p| metric_at(metric, &data, p))
                    .fold(f64::NEG_INFINITY, f64::max);
                let best = outcome.best(metric).expect("a point");
                let value = outcome.value(metric, best.point);
                assert!(near(value, most), "{what} {metric}: {value} against {most}");
                let tree_value = metric_at(metric, &data, {
                    let e = weighted_errors_of(&best.tree, &data);
                    (e.fp, e.fn_)
                });
                assert!(near(tree_value, most), "{what} {metric}: tree {tree_value}");
                assert!(near(outcome.bound(metric), most), "{what} {metric} bound");
            }
        }
    }
    assert!(fractional >= 10, "only {fractional} fractional cases");
}

/// The weighted value of `metric` of `tree` on `data`, by plain counting.
fn tree_metric(metric: Metric, tree: &Tree, data: &Dataset) -> f64 {
    let e = weighted_errors_of(tree, data);
    metric_at(metric, data, (e.fp, e.fn_))
}

#[test]
fn the_exact_search_for_f1_mcc_and_fowlkes_mallows_reaches_the_weighted_oracle() {
    for seed in 40..48u64 {
        let data = case(seed);
        for depth in 1..=3 {
            let expected = oracle_front(&data, depth);
            for (objective, metric) in [
                (DpObjective::F1, Metric::F1),
                (DpObjective::Mcc, Metric::Mcc),
                (DpObjective::FowlkesMallows, Metric::FowlkesMallows),
            ] {
                let what = format!("seed {seed} depth {depth} {metric}");
                let most = expected
                    .iter()
                    .map(|&p| metric_at(metric, &data, p))
                    .fold(f64::NEG_INFINITY, f64::max);
                let outcome = DpParams {
                    objective,
                    ..DpParams::default()
                }
                .check(depth)
                .expect("valid")
                .run(&data, &LearnOptions::default())
                .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(outcome.decode_mismatch.is_none(), "{what}");
                let reported = outcome.report.objective.expect("an objective");
                assert!(
                    near(reported, 1.0 - most),
                    "{what}: {reported} against {most}"
                );
                let tree = outcome.tree.expect("a tree");
                let value = tree_metric(metric, &tree, &data);
                assert!(near(value, most), "{what}: the tree scores {value}");
                let front = outcome.front.expect("the front's summary");
                let errors = weighted_errors_of(&tree, &data);
                assert!(
                    near(front.fp, errors.fp) && near(front.fn_, errors.fn_),
                    "{what}"
                );
            }
        }
    }
}

/// The `pareto` command's points, as (FP, FN), from its JSON report.
fn command_front(args: &[&str]) -> (Vec<(f64, f64)>, serde_json::Value) {
    let output = milptree(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let points = document["points"]
        .as_array()
        .expect("points")
        .iter()
        .map(|p| (p["fp"].as_f64().expect("fp"), p["fn"].as_f64().expect("fn")))
        .collect();
    (points, document)
}

#[test]
fn the_pareto_command_takes_factored_weights_and_agrees_with_whole_multiples() {
    // Balanced weights of 12 rows, 5 negatives and 7 positives: 1.2 and 6/7; times 35, the
    // whole numbers 42 and 30.
    let mut seed = 0;
    let data = loop {
        let data = random_dataset(100 + seed, 12, 2, 2, 3);
        if data.class_counts() == [5, 7] {
            break data;
        }
        seed += 1;
    };
    let balanced: Vec<f64> = data.labels().iter().map(|&k| [1.2, 6.0 / 7.0][k]).collect();
    let whole: Vec<f64> = data.labels().iter().map(|&k| [42.0, 30.0][k]).collect();
    let weighted = data.clone().with_weights(balanced).expect("valid");
    let scaled = data.with_weights(whole).expect("valid");
    let (_dir, weighted_file) = temp_file("balanced.csv", &to_weighted_csv(&weighted));
    let (_dir2, whole_file) = temp_file("whole.csv", &to_weighted_csv(&scaled));
    let trees = tempfile::tempdir().expect("a directory");
    for depth in ["2", "3"] {
        let (found, document) = command_front(&[
            "pareto",
            path_str(&weighted_file),
            "--weight-column",
            "w",
            "--depth",
            depth,
            "--json",
            "--trees",
            path_str(trees.path()),
        ]);
        let expected = oracle_front(&weighted, depth.parse().expect("a depth"));
        assert_same_front(&found, &expected, &format!("depth {depth}"));
        let (multiples, _) = command_front(&[
            "pareto",
            path_str(&whole_file),
            "--weight-column",
            "w",
            "--depth",
            depth,
            "--json",
        ]);
        let divided: Vec<(f64, f64)> = multiples.iter().map(|p| (p.0 / 35.0, p.1 / 35.0)).collect();
        assert_same_front(&found, &divided, &format!("depth {depth} whole multiples"));
        // The best F1 and every tree file, re-evaluated on the weighted rows.
        let most = expected
            .iter()
            .map(|&p| metric_at(Metric::F1, &weighted, p))
            .fold(f64::NEG_INFINITY, f64::max);
        let best = document["best"]["f1"]["value"].as_f64().expect("a best F1");
        assert!(near(best, most), "depth {depth}: {best} against {most}");
        for point in document["points"].as_array().expect("points") {
            let file = point["tree_file"].as_str().expect("a tree file");
            let tree = Tree::read(std::path::Path::new(file)).expect("a tree");
            let errors = weighted_errors_of(&tree, &weighted);
            assert!(
                near(errors.fp, point["fp"].as_f64().expect("fp"))
                    && near(errors.fn_, point["fn"].as_f64().expect("fn")),
                "depth {depth}: {file}"
            );
        }
    }
}
