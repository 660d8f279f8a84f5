//! Crafted tree files: every way a file can break the tree's structure is refused with exit 2
//! and a message that names the file and says what is wrong, never a panic and never an
//! "internal error". Runs the command line in process.

use milptree::cli::run_in_memory;
use serde_json::{json, Value};

use crate::common::{path_str, temp_file};

/// `a <= 2.5 ? no : (b <= 1.5 ? no : yes)` over features a, b and classes no, yes, counted on
/// six rows, as written by milptree.
fn good() -> Value {
    json!({
        "format": "milptree-tree",
        "version": 1,
        "depth": 2,
        "target": "class",
        "columns": [
            {"name": "a", "kind": "numeric"},
            {"name": "b", "kind": "numeric"},
            {"name": "class", "kind": "target"}
        ],
        "features": ["a", "b"],
        "classes": ["no", "yes"],
        "nodes": [
            {"id": 1, "kind": "split", "feature": 0, "feature_name": "a", "threshold": 2.5, "counts": [4, 2]},
            {"id": 2, "kind": "leaf", "class": 0, "label": "no", "counts": [2, 0]},
            {"id": 3, "kind": "split", "feature": 1, "feature_name": "b", "threshold": 1.5, "counts": [2, 2]},
            {"id": 6, "kind": "leaf", "class": 0, "label": "no", "counts": [1, 0]},
            {"id": 7, "kind": "leaf", "class": 1, "label": "yes", "counts": [1, 2]}
        ]
    })
}

/// The oblique version: one oblique split at the root over unit scaling.
fn good_oblique() -> Value {
    let mut tree = good();
    tree["depth"] = json!(1);
    tree["standardisation"] = json!({"mean": [0.0, 0.0], "scale": [1.0, 1.0]});
    tree["nodes"] = json!([
        {"id": 1, "kind": "oblique", "weights": [1.0, -1.0], "bias": 0.0, "counts": [4, 2]},
        {"id": 2, "kind": "leaf", "class": 0, "label": "no", "counts": [4, 0]},
        {"id": 3, "kind": "leaf", "class": 1, "label": "yes", "counts": [0, 2]}
    ]);
    tree
}

/// Runs `milptree show` on `contents`; returns the exit code and stderr.
fn show(contents: &str) -> (i32, String, tempfile::TempDir, String) {
    let (dir, path) = temp_file("crafted.json", contents);
    let (code, captured) = run_in_memory(["milptree", "show", path_str(&path)]);
    (
        code,
        String::from_utf8_lossy(&captured.stderr).into_owned(),
        dir,
        path_str(&path).to_string(),
    )
}

/// Asserts that `contents` is refused with exit 2, naming the file and saying `expected`.
fn refused(contents: &str, expected: &str) {
    let (code, message, _dir, path) = show(contents);
    assert_eq!(code, 2, "{expected}: {message}");
    assert!(
        message.starts_with(&format!("error: {path}: ")),
        "{expected}: {message}"
    );
    assert!(message.contains(expected), "{expected}: {message}");
    assert!(!message.contains("internal error"), "{message}");
}

fn with(mut tree: Value, edit: impl FnOnce(&mut Value)) -> String {
    edit(&mut tree);
    tree.to_string()
}

#[test]
fn the_good_files_are_accepted() {
    for tree in [good(), good_oblique()] {
        let (code, message, _dir, _) = show(&tree.to_string());
        assert_eq!(code, 0, "{message}");
    }
}

#[test]
fn node_ids_outside_the_tree_are_refused() {
    for id in [json!(0), json!(8), json!(99), json!(u64::MAX)] {
        let text = with(good(), |t| t["nodes"][4]["id"] = id.clone());
        refused(&text, &format!("node {id} is outside a tree of depth 2"));
    }
    refused(
        &with(good(), |t| t["nodes"][0]["id"] = json!(5)),
        "the root (node 1) is missing",
    );
}

#[test]
fn a_node_given_twice_is_refused() {
    let text = with(good(), |t| {
        let copy = t["nodes"][3].clone();
        t["nodes"].as_array_mut().expect("nodes").push(copy);
    });
    refused(&text, "node 6 is given twice");
    // Twice with different contents, too.
    let text = with(good(), |t| {
        let mut other = t["nodes"][4].clone();
        other["id"] = json!(2);
        t["nodes"].as_array_mut().expect("nodes").push(other);
    });
    refused(&text, "node 2 is given twice");
}

#[test]
fn feature_and_class_indexes_out_of_range_are_refused() {
    refused(
        &with(good(), |t| t["nodes"][0]["feature"] = json!(9)),
        "feature 9 is not named `a`",
    );
    refused(
        &with(good(), |t| t["nodes"][4]["class"] = json!(7)),
        "class 7 is not labelled `yes`",
    );
    // Index and name agree, but the index is past the tree's own lists.
    refused(
        &with(good(), |t| {
            t["features"] = json!(["a"]);
        }),
        "the features [a] do not follow from the columns",
    );
}

#[test]
fn structure_that_is_not_a_tree_is_refused() {
    refused(
        &with(good(), |t| {
            t["nodes"]
                .as_array_mut()
                .expect("nodes")
                .retain(|n| n["id"] != 7);
        }),
        "split 3 lacks a child",
    );
    refused(
        &with(good(), |t| {
            let mut orphan = t["nodes"][1].clone();
            orphan["id"] = json!(4);
            t["nodes"].as_array_mut().expect("nodes").push(orphan);
        }),
        "node 4 is present but its parent 2 is not a split",
    );
    refused(
        &with(good(), |t| t["depth"] = json!(1)),
        "node 6 is outside a tree of depth 1",
    );
    refused(
        &with(good(), |t| t["nodes"] = json!([])),
        "the root (node 1) is missing",
    );
}

#[test]
fn depths_beyond_the_largest_are_refused() {
    for depth in [json!(21), json!(1_000_000), json!(u64::MAX)] {
        refused(
            &with(good(), |t| t["depth"] = depth.clone()),
            "larger than the largest supported depth",
        );
    }
    refused(&with(good(), |t| t["depth"] = json!(-1)), "depth");
}

#[test]
fn numbers_that_are_not_finite_are_refused() {
    let good = good().to_string();
    for (from, to) in [("2.5", "NaN"), ("2.5", "Infinity"), ("2.5", "1e999")] {
        let text = good.replacen(from, to, 1);
        assert_ne!(text, good);
        refused(&text, "");
    }
}

#[test]
fn counts_that_do_not_fit_are_refused() {
    refused(
        &with(good(), |t| t["nodes"][2]["counts"] = json!([2, 2, 0])),
        "node 3 has 3 counts for 2 classes",
    );
    refused(
        &with(good(), |t| t["nodes"][0]["counts"] = json!([5, 2])),
        "counts are inconsistent",
    );
    // Counts so large that their sums overflow.
    let max = json!(u64::MAX);
    refused(
        &with(good(), |t| {
            t["nodes"][0]["counts"] = json!([max, 2]);
            t["nodes"][1]["counts"] = json!([max, 0]);
            t["nodes"][2]["counts"] = json!([0, 2]);
            t["nodes"][3]["counts"] = json!([0, 0]);
            t["nodes"][4]["counts"] = json!([0, 2]);
        }),
        "more training rows than",
    );
    refused(
        &with(good(), |t| {
            // The root's total fits, but a split's children add up past the largest count.
            t["nodes"][0]["counts"] = json!([max, 0]);
            t["nodes"][1]["counts"] = json!([max, 0]);
            t["nodes"][2]["counts"] = json!([1, 0]);
            t["nodes"][3]["counts"] = json!([1, 0]);
            t["nodes"][4]["counts"] = json!([0, 0]);
        }),
        "counts are inconsistent",
    );
}

#[test]
fn oblique_splits_that_do_not_fit_are_refused() {
    refused(
        &with(good_oblique(), |t| t["nodes"][0]["weights"] = json!([1.0])),
        "split 1 has 1 weights for 2 features",
    );
    refused(
        &with(good_oblique(), |t| {
            t.as_object_mut().expect("object").remove("standardisation");
        }),
        "split 1 is oblique but the tree has no standardisation",
    );
    refused(
        &with(good_oblique(), |t| {
            t["standardisation"]["scale"] = json!([1.0, 0.0]);
        }),
        "non-positive scale",
    );
    refused(
        &with(good_oblique(), |t| {
            t["standardisation"]["mean"] = json!([1.0]);
        }),
        "1 means and 2 scales for 2 features",
    );
}

#[test]
fn columns_and_classes_that_do_not_fit_are_refused() {
    refused(
        &with(good(), |t| t["classes"] = json!(["no", "no"])),
        "class `no` is given twice",
    );
    refused(
        &with(good(), |t| {
            t["columns"][1]["name"] = json!("a");
            t["features"] = json!(["a", "a"]);
            t["nodes"][2]["feature_name"] = json!("a");
        }),
        "column `a` is given twice",
    );
    refused(
        &with(good(), |t| t["target"] = json!("label")),
        "the label column `label` is not a column of kind `target`",
    );
    refused(
        &with(good(), |t| {
            t["columns"][2]["kind"] = json!("numeric");
            t["features"] = json!(["a", "b", "class"]);
        }),
        "no column of kind `target`",
    );
    refused(
        &with(good(), |t| {
            t["columns"][0] = json!({"name": "a", "kind": "categorical", "categories": ["x", "x"]});
            t["features"] = json!(["a=x", "a=x", "b"]);
            t["nodes"][0]["feature_name"] = json!("a=x");
        }),
        "column `a` lists the category `x` twice",
    );
}

#[test]
fn a_version_of_the_wrong_type_says_so() {
    refused(
        &with(good(), |t| t["version"] = json!("1")),
        "the version is \"1\", a string: it must be a number, 1 to 2",
    );
    refused(
        &with(good(), |t| t["version"] = json!(1.5)),
        "tree file version 1.5 is not supported",
    );
    refused(
        &with(good(), |t| {
            t.as_object_mut().expect("object").remove("version");
        }),
        "the tree file has no version",
    );
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let text = format!("\u{feff}{}", good());
    let (code, message, _dir, _) = show(&text);
    assert_eq!(code, 0, "{message}");
}
