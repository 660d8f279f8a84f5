//! `solve --solver dp --objective f1|mcc|fowlkes-mallows`: the tree the command returns scores
//! the best value of the metric over every tree of the depth, found here by an exhaustive
//! enumeration of the (false positive, false negative) pairs trees reach, with the metrics
//! written out from their definitions; the report's objective is one minus that value and
//! the evaluator's F1 and MCC of the returned tree equal it. On real data the metric-optimal
//! tree is at least as good for its metric as the accuracy-optimal tree and CART, and agrees
//! with the best point of `milptree pareto`.

use milptree::data::Dataset;

use crate::common::{dataset, milptree_json, path_str, random_dataset, temp_file};
use crate::oracle::all_splits;
use crate::pareto_oracle::reachable;

/// The metrics from their definitions (0 when a denominator is 0), positives being class 1.
fn metric(name: &str, fp: u32, fn_: u32, positives: u32, negatives: u32) -> f64 {
    let (fp, fn_) = (f64::from(fp), f64::from(fn_));
    let tp = f64::from(positives) - fn_;
    let tn = f64::from(negatives) - fp;
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    match name {
        "f1" => ratio(2.0 * tp, 2.0 * tp + fp + fn_),
        "mcc" => ratio(
            tp * tn - fp * fn_,
            ((tp + fp) * (tp + fn_) * (tn + fp) * (tn + fn_)).sqrt(),
        ),
        "fowlkes-mallows" => ratio(tp, ((tp + fp) * (tp + fn_)).sqrt()),
        other => panic!("no metric {other}"),
    }
}

/// The best value of `name` over every tree of depth <= `depth`, by enumeration.
fn enumerated_best(data: &Dataset, depth: usize, name: &str) -> f64 {
    let splits: Vec<(usize, f64)> = all_splits(data);
    let rows: Vec<usize> = (0..data.n_rows()).collect();
    let positives = data.labels().iter().filter(|&&l| l == 1).count() as u32;
    let negatives = data.n_rows() as u32 - positives;
    let budget = (1usize << depth) - 1;
    reachable(data, &splits, &rows, depth, budget)
        .into_iter()
        .map(|(fp, fn_)| metric(name, fp, fn_, positives, negatives))
        .fold(f64::NEG_INFINITY, f64::max)
}

fn to_csv(data: &Dataset) -> String {
    let mut text = String::from("x0,x1,x2,label\n");
    for (row, &label) in data.rows().iter().zip(data.labels()) {
        let cells: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        text.push_str(&format!("{},c{label}\n", cells.join(",")));
    }
    text
}

fn solve(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--json", "--quiet"]);
    milptree_json(&all)
}

fn number(value: &serde_json::Value) -> f64 {
    value.as_f64().expect("a number")
}

#[test]
fn metric_objectives_reach_the_enumerated_best_on_random_data() {
    for seed in 0..5u64 {
        let data = random_dataset(900 + seed, 26, 3, 2, 4);
        let (_dir, path) = temp_file("random.csv", &to_csv(&data));
        for depth in [1usize, 2] {
            for name in ["f1", "mcc", "fowlkes-mallows"] {
                let best = enumerated_best(&data, depth, name);
                let d = depth.to_string();
                let report = solve(&[
                    path_str(&path),
                    "--solver",
                    "dp",
                    "--objective",
                    name,
                    "--depth",
                    &d,
                ]);
                let context = format!("seed {seed}, depth {depth}, {name}");
                assert_eq!(report["termination"], "optimal", "{context}");
                assert_eq!(report["train"]["positive_class"], "c1", "{context}");
                let value = number(&report["front"]["value"]);
                assert!((value - best).abs() < 1e-12, "{context}: {value} vs {best}");
                assert!(
                    (number(&report["objective"]) - (1.0 - best)).abs() < 1e-12,
                    "{context}"
                );
                assert_eq!(
                    report["evaluated_objective"], report["objective"],
                    "{context}"
                );
                let key = match name {
                    "f1" => Some("f1"),
                    "mcc" => Some("mcc"),
                    _ => None,
                };
                if let Some(key) = key {
                    let evaluated = number(&report["train"][key]);
                    assert!((evaluated - best).abs() < 1e-12, "{context}: {evaluated}");
                }
            }
        }
    }
}

#[test]
fn metric_optima_beat_accuracy_optima_and_cart_and_match_the_front() {
    let path = dataset("breast_cancer");
    let data = path_str(&path);
    for depth in ["1", "2"] {
        let accuracy = solve(&[data, "--solver", "dp", "--depth", depth]);
        let cart = milptree_json(&["greedy", data, "--depth", depth, "--json"]);
        let front = milptree_json(&["pareto", data, "--depth", depth, "--json"]);
        assert_eq!(front["complete"], true);
        for name in ["f1", "mcc"] {
            let best = solve(&[
                data,
                "--solver",
                "dp",
                "--objective",
                name,
                "--depth",
                depth,
            ]);
            let value = number(&best["train"][name]);
            let context = format!("depth {depth}, {name}");
            assert!(
                value >= number(&accuracy["train"][name]) - 1e-12,
                "{context}"
            );
            assert!(value >= number(&cart["train"][name]) - 1e-12, "{context}");
            assert!(
                (value - number(&front["best"][name]["value"])).abs() < 1e-12,
                "{context}"
            );
        }
    }
}

#[test]
fn metric_objectives_are_refused_where_they_do_not_apply() {
    let path = dataset("breast_cancer");
    let data = path_str(&path);
    for args in [
        vec!["--formulation", "oct", "--objective", "f1"],
        vec!["--solver", "dp", "--objective", "auc"],
        vec!["--solver", "sparse", "--objective", "mcc"],
        vec!["--solver", "dp", "--objective", "f1", "--alpha", "0.1"],
    ] {
        let mut all = vec!["solve", data, "--depth", "2"];
        all.extend(args.iter().copied());
        let output = crate::common::milptree(&all);
        assert!(
            matches!(output.status.code(), Some(1 | 2)),
            "{args:?}: {:?}",
            output.status
        );
        let message = crate::common::stderr(&output);
        assert!(
            message.contains("--objective") || message.contains("--alpha"),
            "{args:?}: {message}"
        );
        assert!(!message.contains("panicked"), "{args:?}: {message}");
    }
}
