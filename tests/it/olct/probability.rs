//! `predict --proba`: the probability of the positive class is sigma(w . z + b) at the last
//! split a row passes, computed here by hand from the tree's numbers; trees whose last splits
//! are not oblique are refused with a clear error.

use milptree::data::Dataset;
use milptree::tree::{ProbabilityModel, Split, Standardisation, Tree, TreeBuilder};

use crate::common::{milptree, milptree_json, path_str, stderr, stdout, temp_file};

const CSV: &str = "a,b,class\n1,0,no\n4,2,yes\n3,-1,yes\n0,5,no\n2,2,no\n";

fn rows() -> Vec<Vec<f64>> {
    vec![
        vec![1.0, 0.0],
        vec![4.0, 2.0],
        vec![3.0, -1.0],
        vec![0.0, 5.0],
        vec![2.0, 2.0],
    ]
}

/// Depth 2: root `0.5 z_a - z_b + 0.1`, node 2 `z_a + 0.3`, node 3 `-2 z_b + 1`, with
/// mean (2, 1) and scale (1, 2); left leaves `no`, right leaves `yes`.
fn logistic_tree() -> Tree {
    let data = Dataset::from_parts(
        "memory",
        vec!["a".into(), "b".into()],
        vec!["no".into(), "yes".into()],
        rows(),
        vec![0, 1, 1, 0, 0],
    )
    .unwrap();
    let mut builder = TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), 2)
        .unwrap()
        .standardisation(Standardisation {
            mean: vec![2.0, 1.0],
            scale: vec![1.0, 2.0],
        });
    let splits = [
        (1, vec![0.5, -1.0], 0.1),
        (2, vec![1.0, 0.0], 0.3),
        (3, vec![0.0, -2.0], 1.0),
    ];
    for (id, weights, bias) in splits {
        builder.split(id, Split::Oblique { weights, bias }).unwrap();
    }
    for leaf in 4..8 {
        builder.leaf(leaf, leaf % 2).unwrap();
    }
    let mut tree = builder.build().unwrap();
    tree.recount(data.rows(), data.labels())
        .expect("the rows fit the tree");
    tree
}

/// The expected probability of `yes`, by hand.
fn by_hand(row: &[f64]) -> f64 {
    let z = [(row[0] - 2.0) / 1.0, (row[1] - 1.0) / 2.0];
    let root = 0.5 * z[0] - z[1] + 0.1;
    let score = if root <= 0.0 {
        z[0] + 0.3
    } else {
        -2.0 * z[1] + 1.0
    };
    1.0 / (1.0 + (-score).exp())
}

#[test]
fn probabilities_are_the_sigmoid_at_the_last_split() {
    let tree = logistic_tree();
    let model = ProbabilityModel::new(&tree).unwrap();
    assert_eq!(tree.classes()[model.positive_class()], "yes");
    for row in rows() {
        assert!(
            (model.probability(&row) - by_hand(&row)).abs() < 1e-15,
            "{row:?}"
        );
        // The predicted class is the one with probability above one half.
        let predicted = tree.predict_row(&row);
        assert_eq!(predicted == 1, by_hand(&row) > 0.5, "{row:?}");
    }
}

#[test]
fn predict_proba_writes_a_probability_column_and_json_field() {
    let (dir, tree_path) = temp_file("tree.json", &logistic_tree().to_json_string());
    let data_path = dir.path().join("data.csv");
    std::fs::write(&data_path, CSV).unwrap();
    let output = milptree(&[
        "predict",
        "--tree",
        path_str(&tree_path),
        path_str(&data_path),
        "--proba",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("row,leaf,predicted,probability,actual"));
    for (line, row) in lines.zip(rows()) {
        let fields: Vec<&str> = line.split(',').collect();
        let p: f64 = fields[3].parse().unwrap();
        assert!((p - by_hand(&row)).abs() < 1e-15, "{line}");
    }
    let report = milptree_json(&[
        "predict",
        "--tree",
        path_str(&tree_path),
        path_str(&data_path),
        "--proba",
        "--json",
    ]);
    assert_eq!(report["positive_class"], "yes");
    let probabilities = report["probability"].as_array().unwrap();
    assert_eq!(probabilities.len(), 5);
    for (p, row) in probabilities.iter().zip(rows()) {
        assert!((p.as_f64().unwrap() - by_hand(&row)).abs() < 1e-15);
    }
    // Without --proba nothing changes.
    let plain = milptree_json(&[
        "predict",
        "--tree",
        path_str(&tree_path),
        path_str(&data_path),
        "--json",
    ]);
    assert!(plain.get("probability").is_none());
}

/// A tree whose last splits are not oblique is no logistic tree: the logistic model refuses
/// it, saying why, and `predict --proba` gives its leaf frequencies instead.
#[test]
fn trees_without_oblique_last_splits_are_not_logistic() {
    let (dir, data_path) = temp_file("data.csv", CSV);
    let tree_path = dir.path().join("cart.json");
    let grown = milptree(&[
        "greedy",
        path_str(&data_path),
        "--depth",
        "1",
        "--output",
        path_str(&tree_path),
    ]);
    assert!(grown.status.success(), "{}", stderr(&grown));
    let tree = Tree::read(&tree_path).unwrap();
    let message = ProbabilityModel::new(&tree).unwrap_err().to_string();
    assert!(
        message.contains("--proba") && message.contains("logistic tree"),
        "{message}"
    );
    assert!(message.contains("not oblique"), "{message}");
    let report = milptree_json(&[
        "predict",
        "--tree",
        path_str(&tree_path),
        path_str(&data_path),
        "--proba",
        "--json",
    ]);
    assert_eq!(report["probability_rule"], "leaf-frequency");
    // Smoothing applies to leaf frequencies only.
    let output = milptree(&[
        "predict",
        "--tree",
        path_str(&logistic_tree_file(&dir)),
        path_str(&data_path),
        "--proba",
        "--proba-smoothing",
        "1",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--proba-smoothing"));
}

fn logistic_tree_file(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let path = dir.path().join("logistic.json");
    std::fs::write(&path, logistic_tree().to_json_string()).unwrap();
    path
}
