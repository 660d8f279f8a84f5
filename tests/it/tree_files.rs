//! Tree files and renderings: JSON round trips, exact text and DOT output on small trees,
//! and clear errors for tree files that are broken or do not match the data.

use milptree::data::Dataset;
use milptree::export::{DotView, TextView};
use milptree::greedy::{cart, CartParams};
use milptree::tree::{Split, Standardisation, Tree, TreeBuilder};

use crate::common::{dataset, milptree, path_str, random_dataset, stderr, temp_file};

/// Six rows over features a, b with classes no / yes.
fn small_data() -> Dataset {
    Dataset::from_parts(
        "small",
        vec!["a".into(), "b".into()],
        vec!["no".into(), "yes".into()],
        vec![
            vec![1.0, 0.0],
            vec![2.0, 1.0],
            vec![3.0, 1.0],
            vec![4.0, 2.0],
            vec![5.0, 3.0],
            vec![3.0, 2.0],
        ],
        vec![0, 0, 0, 1, 1, 0],
    )
    .expect("valid data")
}

/// `a <= 2.5 ? no : (b <= 1.5 ? no : yes)`, counted on `small_data`.
fn small_tree() -> Tree {
    let data = small_data();
    let mut builder =
        TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), 2).expect("depth 2");
    builder
        .split(
            1,
            Split::Axis {
                feature: 0,
                threshold: 2.5,
            },
        )
        .and_then(|b| b.leaf(2, 0))
        .and_then(|b| {
            b.split(
                3,
                Split::Axis {
                    feature: 1,
                    threshold: 1.5,
                },
            )
        })
        .and_then(|b| b.leaf(6, 0))
        .and_then(|b| b.leaf(7, 1))
        .expect("nodes in range");
    let mut tree = builder.build().expect("a valid tree");
    tree.recount(data.rows(), data.labels())
        .expect("the rows fit the tree");
    tree
}

#[test]
fn text_rendering_is_exact() {
    let expected = "\
|--- a <= 2.5
|   |--- class: no  [2, 0]
|--- a >  2.5
|   |--- b <= 1.5
|   |   |--- class: no  [1, 0]
|   |--- b >  1.5
|   |   |--- class: yes  [1, 2]
";
    assert_eq!(TextView(&small_tree()).to_string(), expected);
}

#[test]
fn dot_rendering_is_exact() {
    let expected = r##"digraph Tree {
node [shape=box, fontname="helvetica"] ;
edge [fontname="helvetica"] ;
1 [label="a <= 2.5\nrows = 6\ncounts = [4, 2]"] ;
2 [label="class = no\nrows = 2\ncounts = [2, 0]", style="rounded,filled", fillcolor="#eeeeee"] ;
1 -> 2 [labeldistance=2.5, labelangle=45, headlabel="True"] ;
3 [label="b <= 1.5\nrows = 4\ncounts = [2, 2]"] ;
1 -> 3 [labeldistance=2.5, labelangle=-45, headlabel="False"] ;
6 [label="class = no\nrows = 1\ncounts = [1, 0]", style="rounded,filled", fillcolor="#eeeeee"] ;
3 -> 6 [labeldistance=2.5, labelangle=45, headlabel="True"] ;
7 [label="class = yes\nrows = 3\ncounts = [1, 2]", style="rounded,filled", fillcolor="#eeeeee"] ;
3 -> 7 [labeldistance=2.5, labelangle=-45, headlabel="False"] ;
}
"##;
    assert_eq!(DotView(&small_tree()).to_string(), expected);
}

#[test]
fn one_sided_split_is_marked_and_reported() {
    let data = small_data();
    let mut builder =
        TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), 1).expect("depth 1");
    builder
        .split(
            1,
            Split::Axis {
                feature: 0,
                threshold: 100.0,
            },
        )
        .and_then(|b| b.leaf(2, 0))
        .and_then(|b| b.leaf(3, 1))
        .expect("nodes in range");
    let mut tree = builder.build().expect("valid");
    tree.recount(data.rows(), data.labels())
        .expect("the rows fit the tree");
    assert_eq!(tree.one_sided_splits(), vec![(1, "right")]);
    assert_eq!(
        TextView(&tree).to_string(),
        "|--- a <= 100\n|   |--- class: no  [4, 2]\n|--- a >  100  (no training rows)\n|   |--- class: yes  [0, 0]\n"
    );
}

/// A depth-1 tree with one oblique split over the small data, standardised with means (2, 0)
/// and scales (2, 1).
fn depth_one_oblique(weights: Vec<f64>, bias: f64) -> Tree {
    let data = small_data();
    let mut builder = TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), 1)
        .expect("depth 1")
        .standardisation(Standardisation {
            mean: vec![2.0, 0.0],
            scale: vec![2.0, 1.0],
        });
    builder
        .split(1, Split::Oblique { weights, bias })
        .and_then(|b| b.leaf(2, 0))
        .and_then(|b| b.leaf(3, 1))
        .expect("nodes in range");
    let mut tree = builder.build().expect("valid");
    tree.recount(data.rows(), data.labels())
        .expect("the rows fit the tree");
    tree
}

fn oblique_tree() -> Tree {
    depth_one_oblique(vec![1.0, -0.5], 0.25)
}

#[test]
fn oblique_split_renders_in_original_units() {
    // w / scale = (0.5, -0.5); threshold = -bias + sum w_j mean_j / scale_j = -0.25 + 1 = 0.75
    let text = TextView(&oblique_tree()).to_string();
    assert!(text.starts_with("|--- 0.5*a - 0.5*b <= 0.75\n"), "{text}");
    // Row (1, 0): z = (-0.5, 0), w.z + b = -0.25 <= 0 -> left; 0.5*1 - 0 = 0.5 <= 0.75 agrees.
    let tree = oblique_tree();
    assert_eq!(tree.leaf_of(&[1.0, 0.0]), 2);
    assert_eq!(tree.leaf_of(&[4.0, 2.0]), 3); // 0.5*4 - 0.5*2 = 1 > 0.75
}

#[test]
fn a_missing_value_of_a_feature_of_weight_zero_leaves_the_route_unchanged() {
    // Only `a` is weighted: w.z + b = (a - 2) / 2 - 0.25, left when a <= 2.5.
    let tree = depth_one_oblique(vec![1.0, 0.0], -0.25);
    for (a, leaf) in [(1.0, 2), (2.0, 2), (3.0, 3), (4.0, 3)] {
        assert_eq!(tree.leaf_of(&[a, 0.0]), leaf, "a = {a}");
        assert_eq!(tree.leaf_of(&[a, f64::NAN]), leaf, "a = {a}, b missing");
        assert_eq!(
            tree.path(&[a, f64::NAN]),
            vec![1, leaf],
            "a = {a}, b missing"
        );
    }
}

#[test]
fn a_split_without_weights_says_where_every_row_goes() {
    let data = small_data();
    let tree = depth_one_oblique(vec![0.0, 0.0], 0.5);
    // 0 . z + 0.5 > 0 for every row: everything goes right, as routing agrees.
    assert!(data.rows().iter().all(|row| tree.leaf_of(row) == 3));
    assert_eq!(
        TextView(&tree).to_string(),
        "|--- 0 <= -0.5  (no training rows)\n|   |--- class: no  [0, 0]\n\
         |--- 0 >  -0.5  (no feature weighted: every row goes right)\n|   |--- class: yes  [4, 2]\n"
    );
    let dot = DotView(&tree).to_string();
    assert!(
        dot.contains("1 [label=\"0 <= -0.5\\n(no feature weighted: every row goes right)\\n"),
        "{dot}"
    );
}

#[test]
fn json_round_trip_keeps_every_field() {
    let mut trees = vec![small_tree(), oblique_tree()];
    for (name, depth) in [("iris", 3), ("wine", 2)] {
        let data = milptree::data::read_dataset(&dataset(name), &Default::default())
            .expect("bundled data");
        trees.push(cart(&data, &CartParams::new(depth)).expect("CART"));
    }
    trees.push(
        cart(&random_dataset(7, 40, 3, 3, 5), &CartParams::new(4)).expect("CART on random data"),
    );
    for tree in trees {
        let text = tree.to_json_string();
        let back = Tree::from_json_str(&text, "memory").expect("a written tree reads back");
        assert_eq!(back, tree);
        assert_eq!(back.to_json_string(), text);
    }
}

fn show_error(contents: &str) -> String {
    let (_dir, path) = temp_file("tree.json", contents);
    let output = milptree(&["show", path_str(&path)]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    stderr(&output)
}

#[test]
fn broken_tree_files_are_clear_errors() {
    let good: serde_json::Value =
        serde_json::from_str(&small_tree().to_json_string()).expect("json");
    assert!(show_error("{not json").contains("not valid JSON"));
    assert!(show_error("{}").contains("not a milptree tree file"));

    let mut wrong_version = good.clone();
    wrong_version["version"] = 99.into();
    assert!(show_error(&wrong_version.to_string()).contains("version 99 is not supported"));

    let mut missing_child = good.clone();
    let nodes = missing_child["nodes"].as_array_mut().expect("nodes");
    nodes.retain(|n| n["id"] != 7);
    let message = show_error(&missing_child.to_string());
    assert!(message.contains("split 3 lacks a child"), "{message}");

    let mut bad_counts = good.clone();
    bad_counts["nodes"][0]["counts"] = serde_json::json!([5, 2]);
    assert!(show_error(&bad_counts.to_string()).contains("counts are inconsistent"));

    let mut bad_name = good.clone();
    bad_name["nodes"][0]["feature_name"] = "z".into();
    assert!(show_error(&bad_name.to_string()).contains("feature 0 is not named `z`"));

    let mut bad_feature = good;
    bad_feature["nodes"][0]["feature"] = 9.into();
    assert!(show_error(&bad_feature.to_string()).contains("feature 9 is not named"));
}

#[test]
fn predict_refuses_data_without_a_column_the_tree_reads() {
    let (_tree_dir, tree_path) = temp_file("tree.json", &small_tree().to_json_string());
    for (contents, expected) in [
        ("a,class\n1,no\n", "no column named `b`"),
        ("c,class\n1,no\n", "no columns named `a`, `b`"),
    ] {
        let (_dir, data_path) = temp_file("data.csv", contents);
        let output = milptree(&[
            "predict",
            "--tree",
            path_str(&tree_path),
            path_str(&data_path),
        ]);
        assert_eq!(output.status.code(), Some(2), "{contents}");
        let message = stderr(&output);
        assert!(
            message.contains("the tree does not match the data"),
            "{message}"
        );
        assert!(message.contains(expected), "{message}");
    }
}

#[test]
fn predict_errors_name_the_file_column() {
    let (_tree_dir, tree_path) = temp_file("tree.json", &small_tree().to_json_string());
    let (_dir, data_path) = temp_file("data.csv", "a,b,class\n1,2,no\n3,x,yes\n");
    let output = milptree(&[
        "predict",
        "--tree",
        path_str(&tree_path),
        path_str(&data_path),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(message.contains("line 3, column 2 (`b`)"), "{message}");
}

/// A tree file written by a build that wrote version 1 (CART at depth 2 on iris).
fn version_one_fixture() -> std::path::PathBuf {
    crate::common::root().join("tests/fixtures/tree_version_1.json")
}

#[test]
fn a_version_one_file_still_reads_and_predicts() {
    let path = version_one_fixture();
    let text = std::fs::read_to_string(&path).expect("the fixture");
    assert!(text.contains("\"version\": 1"));
    let tree = Tree::read(&path).expect("a version-1 file reads");
    assert!(tree.provenance.is_none());
    // It classifies iris as CART does at depth 2, by the plain evaluator.
    let data = milptree::data::read_dataset(&dataset("iris"), &Default::default()).expect("iris");
    let expected = cart(&data, &CartParams::new(2)).expect("cart");
    assert_eq!(tree.predict(data.rows()), expected.predict(data.rows()));
    let output = milptree(&["show", path_str(&path)]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!crate::common::stdout(&output).contains("learned by:"));
}

#[test]
fn a_time_limited_tree_file_says_so_with_its_bound_and_gap_and_show_prints_it() {
    // The exact search stopped at once at depth 3 on breast_cancer: its greedy incumbents and
    // a bound.
    let dir = tempfile::tempdir().expect("a directory");
    let written = dir.path().join("tree.json");
    let wine = dataset("breast_cancer");
    let output = milptree(&[
        "solve",
        path_str(&wine),
        "--solver",
        "dp",
        "--depth",
        "3",
        "--time-limit",
        "0",
        "--test-fraction",
        "0.25",
        "--seed",
        "7",
        "--quiet",
        "--output",
        path_str(&written),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&written).expect("written")).expect("json");
    assert_eq!(file["version"], 2);
    let made = &file["provenance"];
    assert_eq!(made["termination"], "time_limit", "{made:#}");
    assert_eq!(made["method"], "dp");
    assert_eq!(made["parameters"]["depth"], 3);
    assert_eq!(made["training"]["split_seed"], 7);
    assert_eq!(made["training"]["test_fraction"], 0.25);
    assert_eq!(made["milptree_version"], env!("CARGO_PKG_VERSION"));
    // The objective is the tree's training errors, recounted here; the bound is below it and
    // the gap is the reports' formula of the two.
    let tree = Tree::read(&written).expect("the file reads");
    let all = milptree::data::read_dataset(&wine, &Default::default()).expect("breast_cancer");
    let sets = milptree::data::Sets::split(&all, Some(0.25), 7).expect("split");
    assert_eq!(made["training"]["rows"], sets.train.n_rows());
    assert_eq!(made["training"]["fingerprint"], sets.train.fingerprint());
    let errors = tree
        .evaluate(sets.train.rows(), sets.train.labels(), sets.train.classes())
        .expect("fits")
        .misclassified as f64;
    let objective = made["objective"].as_f64().expect("objective");
    let bound = made["bound"].as_f64().expect("bound");
    let gap = made["gap"].as_f64().expect("gap");
    assert_eq!(objective, errors);
    assert!(bound < objective, "{made:#}");
    assert!((gap - (objective - bound) / objective).abs() < 1e-12);
    // `show` prints it as a header, and as comments before the DOT graph.
    let text = crate::common::stdout(&milptree(&["show", path_str(&written)]));
    assert!(text.starts_with("learned by: dp (dp)\n"), "{text}");
    assert!(text.contains("termination: time_limit"), "{text}");
    assert!(
        text.contains(&format!("bound: {bound}, gap: {:.4}%", 100.0 * gap)),
        "{text}"
    );
    assert!(text.contains("split: seed 7, test fraction 0.25"), "{text}");
    let dot = crate::common::stdout(&milptree(&["show", path_str(&written), "--format", "dot"]));
    let (comments, graph) = dot.split_once("digraph").expect("a graph");
    assert!(comments.lines().all(|l| l.starts_with("// ")), "{dot}");
    assert!(comments.contains("// termination: time_limit"), "{dot}");
    assert!(graph.contains("->"));
}
