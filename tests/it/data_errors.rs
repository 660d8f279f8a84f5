//! Every kind of bad input gets a clear error naming the file, line and column where they
//! apply, and exit code 2 — never a panic.

use crate::common::{dataset, milptree, path_str, stderr, temp_file};

/// Runs `greedy` on a CSV with `contents` and returns (exit code, stderr).
fn greedy_on(contents: &str, extra: &[&str]) -> (i32, String) {
    let (_dir, path) = temp_file("data.csv", contents);
    let mut args = vec!["greedy", path_str(&path), "--depth", "1"];
    args.extend_from_slice(extra);
    let output = milptree(&args);
    (output.status.code().unwrap_or(-1), stderr(&output))
}

fn assert_bad_input(contents: &str, extra: &[&str], expected: &[&str]) {
    let (code, message) = greedy_on(contents, extra);
    assert_eq!(code, 2, "exit code for {contents:?}: {message}");
    assert!(!message.contains("panicked"), "{message}");
    for fragment in expected {
        assert!(
            message.contains(fragment),
            "expected `{fragment}` in the error for {contents:?}, got: {message}"
        );
    }
}

#[test]
fn missing_file() {
    let output = milptree(&["greedy", "no/such/file.csv", "--depth", "1"]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("no/such/file.csv: cannot open"),
        "{message}"
    );
}

#[test]
fn empty_file() {
    assert_bad_input("", &[], &["the file is empty"]);
}

#[test]
fn header_only() {
    assert_bad_input("a,b,class\n", &[], &["header but no data rows"]);
}

#[test]
fn ragged_row() {
    assert_bad_input(
        "a,b,class\n1,2,x\n3,y\n",
        &[],
        &["line 3: 2 fields, but the header has 3 columns"],
    );
}

#[test]
fn empty_and_nan_cells_are_missing_values_not_errors() {
    for contents in ["a,b,class\n1,2,x\n3,,y\n", "a,b,class\n1,NaN,x\n3,4,y\n"] {
        let (code, message) = greedy_on(contents, &[]);
        assert_eq!(code, 0, "{contents:?}: {message}");
    }
}

#[test]
fn a_text_cell_that_is_not_a_missing_marker_in_a_numeric_column() {
    assert_bad_input(
        "a,b,class\n1,2,x\n3,n/a,y\n",
        &[],
        &["line 3, column 2 (`b`)", "`n/a` is not a number"],
    );
}

#[test]
fn infinite_cell() {
    assert_bad_input(
        "a,b,class\n1,2,x\n-inf,4,y\n",
        &[],
        &["line 3, column 1 (`a`)", "`-inf` is not a finite number"],
    );
}

#[test]
fn overflowing_number_is_not_finite() {
    assert_bad_input(
        "a,b,class\n1,2,x\n1e999,4,y\n",
        &[],
        &["line 3, column 1 (`a`)", "not a finite number"],
    );
}

#[test]
fn text_in_a_numeric_column() {
    assert_bad_input(
        "a,b,class\n1,2,x\n3,abc,y\n5,6,x\n",
        &[],
        &["line 3, column 2 (`b`)", "`abc` is not a number", "line 2"],
    );
}

#[test]
fn unknown_target_column() {
    assert_bad_input(
        "a,b,class\n1,2,x\n3,4,y\n",
        &["--target", "label"],
        &["--target", "no column named `label`", "a, b, class"],
    );
}

#[test]
fn target_index_out_of_range() {
    assert_bad_input(
        "a,b,class\n1,2,x\n3,4,y\n",
        &["--target", "7"],
        &["--target", "index 7 is out of range"],
    );
}

#[test]
fn duplicate_column_names() {
    assert_bad_input(
        "a,b,a,class\n1,2,3,x\n3,4,5,y\n",
        &[],
        &["duplicate column name `a` (columns 1 and 3)"],
    );
}

#[test]
fn single_class() {
    assert_bad_input("a,b,class\n1,2,x\n3,4,x\n", &[], &["only one class (`x`)"]);
}

#[test]
fn only_a_label_column() {
    assert_bad_input("class\nx\ny\n", &[], &["only one column"]);
}

#[test]
fn fewer_rows_than_a_split_needs() {
    assert_bad_input(
        "a,class\n1,x\n2,y\n3,x\n",
        &["--min-leaf", "2"],
        &[
            "--min-leaf",
            "3 training rows cannot be split into two leaves of at least 2 rows",
        ],
    );
}

#[test]
fn depth_zero() {
    let data = dataset("iris");
    let output = milptree(&["greedy", path_str(&data), "--depth", "0"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("0 is not a tree depth"));
}

#[test]
fn absurd_depth() {
    let data = dataset("iris");
    let output = milptree(&["greedy", path_str(&data), "--depth", "1000"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("larger than the largest supported depth"));
}

#[test]
fn negative_depth_is_a_usage_error() {
    let data = dataset("iris");
    let output = milptree(&["greedy", path_str(&data), "--depth", "-1"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn test_fraction_outside_zero_one() {
    let data = dataset("iris");
    for fraction in ["0", "1", "1.5", "-0.2"] {
        let option = format!("--test-fraction={fraction}");
        let output = milptree(&["greedy", path_str(&data), "--depth", "1", &option]);
        assert_eq!(output.status.code(), Some(2), "fraction {fraction}");
        assert!(
            stderr(&output).contains("--test-fraction"),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn test_fraction_too_small_for_the_data() {
    assert_bad_input(
        "a,class\n1,x\n2,y\n3,x\n4,y\n",
        &["--test-fraction", "0.1"],
        &["leaves no row for the test set"],
    );
}

#[test]
fn invalid_utf8() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("latin1.csv");
    std::fs::write(&path, b"a,class\n1,caf\xe9\n2,x\n").expect("written");
    let output = milptree(&["greedy", path_str(&path), "--depth", "1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("not valid UTF-8"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn categorical_columns_are_one_hot_encoded() {
    let (_dir, path) = temp_file(
        "colours.csv",
        "colour,size,class\nred,1,a\nblue,2,b\nred,3,a\ngreen,4,b\n",
    );
    let data = milptree::data::read_dataset(&path, &Default::default()).expect("valid data");
    assert_eq!(
        data.schema().features,
        vec!["colour=blue", "colour=green", "colour=red", "size"]
    );
    assert_eq!(data.rows()[0], vec![0.0, 0.0, 1.0, 1.0]);
    assert_eq!(data.rows()[3], vec![0.0, 1.0, 0.0, 4.0]);
}

#[test]
fn target_by_name_and_index_and_labels_as_written() {
    let (_dir, path) = temp_file("t.csv", "label,a,b\nyes,1,2\nno,3,4\nyes,5,6\n");
    let by_name =
        milptree::data::read_dataset(&path, &milptree::data::TargetColumn::Named("label".into()))
            .expect("valid");
    let by_index =
        milptree::data::read_dataset(&path, &milptree::data::TargetColumn::Named("0".into()))
            .expect("valid");
    assert_eq!(by_name, by_index);
    assert_eq!(by_name.classes(), vec!["no", "yes"]);
    assert_eq!(by_name.labels(), vec![1, 0, 1]);
    assert_eq!(by_name.schema().features, vec!["a", "b"]);
}

#[test]
fn numeric_labels_sort_by_value() {
    let (_dir, path) = temp_file("n.csv", "a,class\n1,10\n2,9\n3,2.5\n");
    let data = milptree::data::read_dataset(&path, &Default::default()).expect("valid");
    assert_eq!(data.classes(), vec!["2.5", "9", "10"]);
}
