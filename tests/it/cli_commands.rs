//! The commands end to end: `greedy`, `predict` and `show`, their JSON field names (which
//! scripts rely on) and their agreement with each other.

use crate::common::{dataset, milptree, milptree_json, path_str, stderr, stdout, temp_file};

#[test]
fn greedy_json_carries_the_evaluator_figures() {
    let data = dataset("iris");
    let report = milptree_json(&["greedy", path_str(&data), "--depth", "2", "--json"]);
    assert_eq!(report["command"], "greedy");
    let train = &report["train"];
    assert_eq!(train["rows"], 150);
    assert_eq!(train["misclassified"], 6);
    assert!((train["accuracy"].as_f64().expect("a number") - 0.96).abs() < 1e-12);
    assert!(train["balanced_accuracy"].is_number());
    assert!(report["test"].is_null());
    assert_eq!(report["tree"]["format"], "milptree-tree");
    assert_eq!(report["tree"]["version"], 2);
}

#[test]
fn greedy_with_a_test_split_reports_both_sets() {
    let data = dataset("wine");
    let report = milptree_json(&[
        "greedy",
        path_str(&data),
        "--depth",
        "3",
        "--test-fraction",
        "0.25",
        "--seed",
        "3",
        "--json",
    ]);
    let train_rows = report["train"]["rows"].as_u64().expect("rows");
    let test_rows = report["test"]["rows"].as_u64().expect("rows");
    assert_eq!(train_rows + test_rows, 178);
    // round(59 * .25) + round(71 * .25) + round(48 * .25) = 15 + 18 + 12
    assert_eq!(test_rows, 45);
    let again = milptree_json(&[
        "greedy",
        path_str(&data),
        "--depth",
        "3",
        "--test-fraction",
        "0.25",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(again, report, "the same seed gives the same run");
}

#[test]
fn predict_on_the_training_data_agrees_with_greedy() {
    let data = dataset("wine");
    let dir = tempfile::tempdir().expect("temp dir");
    let tree_path = dir.path().join("tree.json");
    let greedy = milptree_json(&[
        "greedy",
        path_str(&data),
        "--depth",
        "3",
        "--json",
        "--output",
        path_str(&tree_path),
    ]);
    let predict = milptree_json(&[
        "predict",
        "--tree",
        path_str(&tree_path),
        path_str(&data),
        "--json",
    ]);
    assert_eq!(predict["test"], greedy["train"]);
    assert_eq!(predict["train"], greedy["train"]);
    let predictions = predict["predictions"].as_array().expect("predictions");
    assert_eq!(predictions.len(), 178);

    let csv_path = dir.path().join("predictions.csv");
    let output = milptree(&[
        "predict",
        "--tree",
        path_str(&tree_path),
        path_str(&data),
        "--output",
        path_str(&csv_path),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let table = std::fs::read_to_string(&csv_path).expect("predictions written");
    let mut lines = table.lines();
    assert_eq!(lines.next(), Some("row,leaf,predicted,actual"));
    let wrong = lines
        .filter(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            fields[2] != fields[3]
        })
        .count() as u64;
    assert_eq!(
        wrong,
        greedy["train"]["misclassified"].as_u64().expect("count")
    );
}

#[test]
fn predict_without_labels_and_with_unseen_labels() {
    let data = dataset("iris");
    let dir = tempfile::tempdir().expect("temp dir");
    let tree_path = dir.path().join("tree.json");
    let output = milptree(&[
        "greedy",
        path_str(&data),
        "--depth",
        "2",
        "--output",
        path_str(&tree_path),
    ]);
    assert!(output.status.success());

    let (_d1, unlabelled) = temp_file(
        "x.csv",
        "sepal_length_cm,sepal_width_cm,petal_length_cm,petal_width_cm\n5.1,3.5,1.4,0.2\n6.0,2.9,4.5,1.5\n",
    );
    let report = milptree_json(&[
        "predict",
        "--tree",
        path_str(&tree_path),
        path_str(&unlabelled),
        "--json",
    ]);
    assert!(report["test"].is_null());
    assert_eq!(
        report["predictions"],
        serde_json::json!(["setosa", "versicolor"])
    );

    let (_d2, unseen) = temp_file(
        "y.csv",
        "sepal_length_cm,sepal_width_cm,petal_length_cm,petal_width_cm,class\n5.1,3.5,1.4,0.2,setosa\n6.0,2.9,4.5,1.5,unknown\n",
    );
    let report = milptree_json(&[
        "predict",
        "--tree",
        path_str(&tree_path),
        path_str(&unseen),
        "--json",
    ]);
    assert_eq!(report["test"]["misclassified"], 1);
    assert_eq!(report["evaluation"]["classes"][3], "unknown");
}

#[test]
fn show_renders_the_saved_tree_in_every_format() {
    let data = dataset("iris");
    let dir = tempfile::tempdir().expect("temp dir");
    let tree_path = dir.path().join("tree.json");
    let greedy = milptree(&[
        "greedy",
        path_str(&data),
        "--depth",
        "1",
        "--output",
        path_str(&tree_path),
    ]);
    assert!(greedy.status.success());
    let text = stdout(&milptree(&["show", path_str(&tree_path)]));
    // The provenance header, then the tree.
    let (header, text) = text.split_once("\n\n").expect("a header");
    assert!(header.starts_with("learned by: cart (cart)\n"), "{header}");
    assert!(
        header.contains("objective: 50, bound: -, gap: -"),
        "{header}"
    );
    assert_eq!(
        text,
        "|--- petal_length_cm <= 2.45\n|   |--- class: setosa  [50, 0, 0]\n|--- petal_length_cm >  2.45\n|   |--- class: versicolor  [0, 50, 50]\n"
    );
    let dot = stdout(&milptree(&[
        "show",
        path_str(&tree_path),
        "--format",
        "dot",
    ]));
    assert!(dot.starts_with("// learned by: cart (cart)\n"));
    assert!(dot.contains("\ndigraph Tree {"));
    assert!(dot.contains("1 -> 3 [labeldistance=2.5, labelangle=-45, headlabel=\"False\"] ;"));
    let json = stdout(&milptree(&[
        "show",
        path_str(&tree_path),
        "--format",
        "json",
    ]));
    assert_eq!(
        json.trim(),
        std::fs::read_to_string(&tree_path).expect("tree").trim()
    );
}

#[test]
fn unknown_command_and_option_are_usage_errors() {
    assert_eq!(milptree(&["frobnicate"]).status.code(), Some(2));
    let data = dataset("iris");
    assert_eq!(
        milptree(&["greedy", path_str(&data), "--depht", "2"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(milptree(&["--help"]).status.code(), Some(0));
}
