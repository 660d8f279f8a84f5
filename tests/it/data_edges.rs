//! Data at the edges: magnitudes milptree refuses (so that no formulation can report a wrong
//! "optimal"), line numbers in files with any line ends, numeric labels spelled two ways, and
//! parameters that are not finite.

use crate::common::{milptree, milptree_json, path_str, stderr, temp_file};

/// Six rows, two classes, one feature spanning +-1.7e308: `x <= -1e308` separates them.
const HUGE_RANGE: &str = "\
x,class
1e308,a
1.7e308,a
-1.7e308,b
1e308,a
1.7e308,a
-1.7e308,b
";

/// Every way of learning a tree, as command-line arguments after the data file.
const LEARNERS: [&[&str]; 6] = [
    &["greedy", "--depth", "1"],
    &[
        "solve",
        "--formulation",
        "oct",
        "--depth",
        "1",
        "--warm-start",
        "none",
    ],
    &["solve", "--formulation", "oct", "--depth", "1"],
    &["solve", "--formulation", "binoct", "--depth", "1"],
    &[
        "solve",
        "--formulation",
        "binoct",
        "--depth",
        "1",
        "--thresholds",
        "all",
    ],
    &["solve", "--formulation", "olct", "--depth", "1"],
];

fn learn(learner: &[&str], data: &str) -> std::process::Output {
    let mut args = vec![learner[0], data, "--quiet"];
    if learner[0] == "greedy" {
        args.pop();
    }
    args.extend_from_slice(&learner[1..]);
    milptree(&args)
}

#[test]
fn a_feature_whose_range_overflows_is_refused_by_every_learner() {
    let (_dir, path) = temp_file("huge.csv", HUGE_RANGE);
    for learner in LEARNERS {
        let output = learn(learner, path_str(&path));
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{learner:?}: {message}");
        for expected in [
            "huge.csv",
            "column `x`",
            "-1.7e308 to 1.7e308",
            "rescale the column",
        ] {
            assert!(message.contains(expected), "{learner:?}: {message}");
        }
        assert!(!message.contains("internal error"), "{message}");
    }
}

#[test]
fn large_values_within_the_limit_give_the_same_optimum_everywhere() {
    // The same separable data, at the largest range milptree accepts.
    let (_dir, path) = temp_file(
        "large.csv",
        "x,class\n5e149,a\n4e149,a\n-5e149,b\n4.5e149,a\n3e149,a\n-4e149,b\n",
    );
    for learner in LEARNERS {
        let mut args: Vec<&str> = learner.to_vec();
        args.insert(1, path_str(&path));
        args.push("--json");
        if learner[0] == "solve" {
            args.push("--quiet");
        }
        let report = milptree_json(&args);
        assert_eq!(report["train"]["misclassified"], 0, "{learner:?}: {report}");
        if learner[0] == "solve" {
            assert_eq!(report["termination"], "optimal", "{learner:?}");
            assert_eq!(report["decode_mismatch"], serde_json::Value::Null);
        }
    }
}

/// The line an error names, for the same rows written with each kind of line end.
fn error_line(contents: &str, end: &str) -> String {
    let text = contents.replace('\n', end);
    let (_dir, path) = temp_file("data.csv", &text);
    let output = milptree(&["greedy", path_str(&path), "--depth", "1"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    stderr(&output)
}

#[test]
fn line_numbers_are_right_with_any_line_end() {
    let cases = [
        ("a,b,class\n1,2,x\n3,inf,y\n", "line 3, column 2"),
        ("a,b,class\n1,2,x\n3,4,y\n5,6\n", "line 4: 2 fields"),
        (
            "a,b,class\n1,2,x\n3,q,y\n5,6,x\n",
            "line 3, column 2 (`b`): `q` is not a number, but line 2",
        ),
        ("a,b,class\n\n1,2,x\n\n3,inf,y\n", "line 5, column 2"),
        ("a,b,class\n1,\"2\n2\",x\n3,inf,y\n", "line 4, column 2"),
    ];
    for (contents, expected) in cases {
        for end in ["\n", "\r\n", "\r"] {
            let message = error_line(contents, end);
            assert!(
                message.contains(expected),
                "{contents:?} with {end:?}: expected `{expected}`, got: {message}"
            );
        }
    }
}

#[test]
fn a_line_that_is_not_utf8_is_named_with_any_line_end() {
    for end in [&b"\n"[..], b"\r\n", b"\r"] {
        let mut bytes = Vec::new();
        for line in [&b"a,class"[..], b"1,x", b"2,y", b"3,\xff"] {
            bytes.extend_from_slice(line);
            bytes.extend_from_slice(end);
        }
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("data.csv");
        std::fs::write(&path, bytes).expect("written");
        let output = milptree(&["greedy", path_str(&path), "--depth", "1"]);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{message}");
        assert!(message.contains("line 4: "), "{end:?}: {message}");
    }
}

#[test]
fn numeric_labels_that_are_the_same_number_are_one_class() {
    let (_dir, path) = temp_file(
        "labels.csv",
        "x,class\n1,1\n2,1.0\n3,1.00\n4,2\n5,2e0\n6,02\n",
    );
    let report = milptree_json(&["greedy", path_str(&path), "--depth", "1", "--json"]);
    // The first spelling of each number names its class.
    assert_eq!(report["data"]["classes"], serde_json::json!(["1", "2"]));
    assert_eq!(report["train"]["misclassified"], 0);

    // Prediction data spelling the labels another way is matched by number.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let tree = dir.path().join("tree.json");
    let saved = milptree(&[
        "greedy",
        path_str(&path),
        "--depth",
        "1",
        "--output",
        path_str(&tree),
    ]);
    assert!(saved.status.success(), "{}", stderr(&saved));
    let (_d2, other) = temp_file("other.csv", "x,class\n1,1.0\n6,2.00\n");
    let predicted = milptree_json(&[
        "predict",
        "--tree",
        path_str(&tree),
        path_str(&other),
        "--json",
    ]);
    assert_eq!(predicted["test"]["misclassified"], 0, "{predicted}");
    assert_eq!(
        predicted["evaluation"]["classes"],
        serde_json::json!(["1", "2"])
    );
}

#[test]
fn zero_and_negative_zero_are_one_class_and_text_labels_stay_apart() {
    let (_dir, path) = temp_file("zeros.csv", "x,class\n1,0\n2,-0\n3,1\n4,1\n");
    let report = milptree_json(&["greedy", path_str(&path), "--depth", "1", "--json"]);
    assert_eq!(report["data"]["classes"], serde_json::json!(["0", "1"]));
    // Text labels are compared as text: `A` and `a` are two classes.
    let (_dir, path) = temp_file("text.csv", "x,class\n1,a\n2,A\n3,b\n");
    let report = milptree_json(&["greedy", path_str(&path), "--depth", "1", "--json"]);
    assert_eq!(
        report["data"]["classes"],
        serde_json::json!(["A", "a", "b"])
    );
}

#[test]
fn a_big_m_that_is_not_finite_says_so() {
    let (_dir, path) = temp_file("two.csv", "x,class\n1,a\n2,a\n3,b\n4,b\n");
    for value in ["inf", "-inf", "NaN"] {
        let output = milptree(&[
            "solve",
            path_str(&path),
            "--formulation",
            "olct",
            "--depth",
            "1",
            &format!("--big-m={value}"),
            "--quiet",
        ]);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{message}");
        assert!(message.contains("--big-m"), "{message}");
        assert!(message.contains("must be a finite number"), "{message}");
        assert!(!message.contains("too small"), "{message}");
    }
}
