//! `predict --proba` on trees that are not logistic: each class's frequency among the training
//! rows of the row's leaf, counted here from the training rows `predict` routes to each leaf
//! (not from the counts the tree file stores), smoothed by hand; and `predict`'s AUC against a
//! count over every (positive, negative) pair.

use std::collections::HashMap;
use std::path::Path;

use milptree::tree::auc;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::common::{milptree, milptree_json, path_str, random_dataset, stderr, to_csv};

/// The AUC by definition: over every (positive, negative) pair, 1 when the positive scores
/// higher, 1/2 on a tie.
fn pairwise_auc(scores: &[f64], positive: &[bool]) -> Option<f64> {
    let mut wins = 0.0;
    let mut pairs = 0usize;
    for (i, &si) in scores.iter().enumerate() {
        for (j, &sj) in scores.iter().enumerate() {
            if positive[i] && !positive[j] {
                pairs += 1;
                wins += if si > sj {
                    1.0
                } else if si == sj {
                    0.5
                } else {
                    0.0
                };
            }
        }
    }
    (pairs > 0).then(|| wins / pairs as f64)
}

/// Learns a tree with `solve_args` on `train`, and returns the tree file's path.
fn learn(dir: &Path, train: &Path, solve_args: &[&str]) -> std::path::PathBuf {
    let tree = dir.join("tree.json");
    let mut args = vec!["solve", path_str(train), "--quiet", "-o", path_str(&tree)];
    args.extend_from_slice(solve_args);
    let output = milptree(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    tree
}

/// `predict --json` of `tree` on `data` with `extra` options.
fn predict(tree: &Path, data: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "predict",
        "--tree",
        path_str(tree),
        path_str(data),
        "--json",
    ];
    args.extend_from_slice(extra);
    milptree_json(&args)
}

/// Per leaf, the class counts of the training rows that `predict` sends there.
fn leaf_counts(tree: &Path, train: &Path, classes: &[String]) -> HashMap<u64, Vec<usize>> {
    let output = milptree(&["predict", "--tree", path_str(tree), path_str(train)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let mut counts: HashMap<u64, Vec<usize>> = HashMap::new();
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let leaf: u64 = fields[1].parse().unwrap();
        let class = classes.iter().position(|c| c == fields[3]).unwrap();
        counts.entry(leaf).or_insert_with(|| vec![0; classes.len()])[class] += 1;
    }
    counts
}

/// Every row's probabilities against the counted frequencies, for dp trees on random data of
/// two and three classes, with and without smoothing; they add up to one.
#[test]
fn leaf_probabilities_are_the_counted_frequencies() {
    for (seed, k, smoothing) in [(1, 2, 0.0), (2, 3, 0.0), (3, 2, 1.0), (4, 3, 0.5)] {
        let dir = tempfile::tempdir().unwrap();
        let train = dir.path().join("train.csv");
        let test = dir.path().join("test.csv");
        std::fs::write(&train, to_csv(&random_dataset(seed, 40, 3, k, 5))).unwrap();
        std::fs::write(&test, to_csv(&random_dataset(seed + 100, 25, 3, k, 6))).unwrap();
        let tree = learn(dir.path(), &train, &["--solver", "dp", "--depth", "2"]);
        let smoothing_text = smoothing.to_string();
        let mut extra = vec!["--proba"];
        if smoothing > 0.0 {
            extra.extend_from_slice(&["--proba-smoothing", &smoothing_text]);
        }
        let report = predict(&tree, &test, &extra);
        let classes: Vec<String> = serde_json::from_value(report["classes"].clone()).unwrap();
        assert_eq!(classes.len(), k);
        let counts = leaf_counts(&tree, &train, &classes);
        let plain = milptree(&["predict", "--tree", path_str(&tree), path_str(&test)]);
        let plain = String::from_utf8_lossy(&plain.stdout).into_owned();
        let rows = report["class_probabilities"].as_array().unwrap();
        assert_eq!(rows.len(), 25);
        for (line, probabilities) in plain.lines().skip(1).zip(rows) {
            let leaf: u64 = line.split(',').nth(1).unwrap().parse().unwrap();
            // A dp tree's leaves all hold training rows.
            let leaf_counts = &counts[&leaf];
            let n: usize = leaf_counts.iter().sum();
            let probabilities: Vec<f64> = serde_json::from_value(probabilities.clone()).unwrap();
            for (c, p) in probabilities.iter().enumerate() {
                let expected =
                    (leaf_counts[c] as f64 + smoothing) / (n as f64 + k as f64 * smoothing);
                assert!(
                    (p - expected).abs() < 1e-12,
                    "seed {seed}, leaf {leaf}: {p} vs {expected}"
                );
            }
            assert!((probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        if k == 2 {
            let positive = report["probability"].as_array().unwrap();
            for (p, row) in positive.iter().zip(rows) {
                assert_eq!(p, &row[1], "the probability column is the second class's");
            }
        }
    }
}

/// The CSV carries one probability column on two classes, one per class on more.
#[test]
fn proba_columns_follow_the_number_of_classes() {
    for (k, header) in [
        (2, "row,leaf,predicted,probability,actual"),
        (
            3,
            "row,leaf,predicted,probability:c0,probability:c1,probability:c2,actual",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let train = dir.path().join("train.csv");
        std::fs::write(&train, to_csv(&random_dataset(7, 30, 2, k, 4))).unwrap();
        let tree = learn(dir.path(), &train, &["--solver", "dp", "--depth", "1"]);
        let output = milptree(&[
            "predict",
            "--tree",
            path_str(&tree),
            path_str(&train),
            "--proba",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let text = String::from_utf8_lossy(&output.stdout).into_owned();
        assert_eq!(text.lines().next(), Some(header));
        for line in text.lines().skip(1) {
            let sum: f64 = line
                .split(',')
                .skip(3)
                .take(if k == 2 { 1 } else { k })
                .map(|p| p.parse::<f64>().unwrap())
                .sum();
            assert!(k == 2 || (sum - 1.0).abs() < 1e-12, "{line}");
        }
    }
}

/// `predict`'s AUC (with and without `--proba`, on leaf frequencies) equals the pairwise count
/// over the probabilities it reports; on three classes there is none.
#[test]
fn predict_auc_matches_the_pairwise_count() {
    for seed in 0..4 {
        let dir = tempfile::tempdir().unwrap();
        let train = dir.path().join("train.csv");
        let test = dir.path().join("test.csv");
        std::fs::write(&train, to_csv(&random_dataset(seed, 50, 3, 2, 6))).unwrap();
        std::fs::write(&test, to_csv(&random_dataset(seed + 50, 40, 3, 2, 6))).unwrap();
        let tree = learn(dir.path(), &train, &["--solver", "dp", "--depth", "3"]);
        let report = predict(&tree, &test, &["--proba"]);
        let scores: Vec<f64> = serde_json::from_value(report["probability"].clone()).unwrap();
        let positive: Vec<bool> = std::fs::read_to_string(&test)
            .unwrap()
            .lines()
            .skip(1)
            .map(|line| line.ends_with(",c1"))
            .collect();
        let expected = pairwise_auc(&scores, &positive).unwrap();
        let reported = report["auc"].as_f64().unwrap();
        assert!(
            (reported - expected).abs() < 1e-12,
            "{reported} vs {expected}"
        );
        let plain = predict(&tree, &test, &[]);
        assert_eq!(plain["auc"].as_f64(), Some(reported));
    }
    let dir = tempfile::tempdir().unwrap();
    let train = dir.path().join("train.csv");
    std::fs::write(&train, to_csv(&random_dataset(9, 30, 2, 3, 4))).unwrap();
    let tree = learn(dir.path(), &train, &["--solver", "dp", "--depth", "1"]);
    assert!(predict(&tree, &train, &[])["auc"].is_null());
}

/// A leaf no training row reaches takes its nearest counted ancestor's frequencies.
#[test]
fn an_empty_leaf_takes_its_parents_frequencies() {
    let dir = tempfile::tempdir().unwrap();
    let train = dir.path().join("train.csv");
    std::fs::write(&train, "x,label\n0,a\n1,a\n2,b\n3,b\n4,b\n").unwrap();
    let tree_path = learn(dir.path(), &train, &["--solver", "dp", "--depth", "1"]);
    // Put the threshold above every value: the right leaf receives no row.
    let mut tree: Value =
        serde_json::from_str(&std::fs::read_to_string(&tree_path).unwrap()).unwrap();
    let nodes = tree["nodes"].as_array_mut().unwrap();
    for node in nodes.iter_mut() {
        if node.get("threshold").is_some() {
            node["threshold"] = serde_json::json!(10.0);
        }
    }
    for node in nodes.iter_mut() {
        match node["id"].as_u64() {
            Some(2) => node["counts"] = serde_json::json!([2, 3]),
            Some(3) => node["counts"] = serde_json::json!([0, 0]),
            _ => {}
        }
    }
    std::fs::write(&tree_path, tree.to_string()).unwrap();
    let test = dir.path().join("test.csv");
    std::fs::write(&test, "x,label\n20,a\n").unwrap();
    let report = predict(&tree_path, &test, &["--proba"]);
    assert_eq!(
        report["class_probabilities"][0],
        serde_json::json!([0.4, 0.6])
    );
    let smoothed = predict(&tree_path, &test, &["--proba", "--proba-smoothing", "1"]);
    let probabilities: Vec<f64> =
        serde_json::from_value(smoothed["class_probabilities"][0].clone()).unwrap();
    assert!(
        (probabilities[0] - 3.0 / 7.0).abs() < 1e-15,
        "{probabilities:?}"
    );
    assert!(
        (probabilities[1] - 4.0 / 7.0).abs() < 1e-15,
        "{probabilities:?}"
    );
}

#[test]
fn bad_smoothing_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let train = dir.path().join("train.csv");
    std::fs::write(&train, to_csv(&random_dataset(3, 20, 2, 2, 3))).unwrap();
    let tree = learn(dir.path(), &train, &["--solver", "dp", "--depth", "1"]);
    for value in ["-1", "nan", "inf"] {
        let option = format!("--proba-smoothing={value}");
        let output = milptree(&[
            "predict",
            "--tree",
            path_str(&tree),
            path_str(&train),
            "--proba",
            &option,
        ]);
        assert_eq!(output.status.code(), Some(2), "{value}");
        assert!(
            stderr(&output).contains("--proba-smoothing"),
            "{}",
            stderr(&output)
        );
    }
    let output = milptree(&[
        "predict",
        "--tree",
        path_str(&tree),
        path_str(&train),
        "--proba-smoothing",
        "1",
    ]);
    assert_eq!(output.status.code(), Some(2), "smoothing needs --proba");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// The rank formula equals the pairwise count on scores with many ties.
    #[test]
    fn auc_equals_the_pairwise_count(seed in 0u64..10_000, n in 1usize..40) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let scores: Vec<f64> = (0..n).map(|_| f64::from(rng.random_range(0..5u32)) / 4.0).collect();
        let positive: Vec<bool> = (0..n).map(|_| rng.random_bool(0.4)).collect();
        let expected = pairwise_auc(&scores, &positive);
        match (auc(&scores, &positive), expected) {
            (Some(a), Some(b)) => prop_assert!((a - b).abs() < 1e-12, "{} vs {}", a, b),
            (a, b) => prop_assert_eq!(a, b),
        }
    }
}
