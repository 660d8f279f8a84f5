//! Columns and categories: categorical columns (text, or numeric codes declared with
//! `--categorical`) learned with equality splits and compared with an exhaustive oracle over
//! `column = value` and threshold splits (dp at depths 1 and 2, OCT at depth 1 on HiGHS and
//! CBC); trees with categorical splits through `show`, `predict` and JSON; `predict` matching
//! columns by name; `--ignore`, `--delimiter`, `.tsv`, standard input, `--max-categories`, and
//! the warnings for columns that look like identifiers or free text.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

use milptree::data::{read_table, ColumnKind, ColumnOptions, MissingValues, TargetColumn};

use crate::category_oracle::Table;
use crate::common::{
    assert_usage_error, milptree, milptree_json, path_str, stderr, stdout, temp_file,
};

/// Solves `csv` with `args` (after `solve`), and checks the reported training errors and the
/// errors of the written tree re-evaluated by `predict` against `expected`.
fn check_solve(csv: &str, args: &[&str], expected: usize, context: &str) {
    let (dir, data) = temp_file("data.csv", csv);
    let tree = dir.path().join("tree.json");
    let mut full = vec!["solve", path_str(&data), "--json", "-o", path_str(&tree)];
    full.extend_from_slice(args);
    let report = milptree_json(&full);
    assert_eq!(
        report["train"]["misclassified"].as_u64(),
        Some(expected as u64),
        "{context}: {}",
        report["train"]
    );
    let predicted = milptree_json(&[
        "predict",
        "--tree",
        path_str(&tree),
        path_str(&data),
        "--json",
    ]);
    let accuracy = predicted["test"]["accuracy"].as_f64().expect("an accuracy");
    let rows = predicted["data"]["rows"].as_f64().expect("a row count");
    assert!(
        ((1.0 - accuracy) * rows - expected as f64).abs() < 1e-9,
        "{context}: predict gives accuracy {accuracy} on {rows} rows"
    );
}

#[test]
fn dp_optimum_over_categorical_columns_equals_the_equality_split_oracle() {
    for seed in 0..8 {
        let table = Table::random(seed, 10 + seed as usize, 2 + seed as usize % 2);
        let csv = table.to_csv();
        for depth in [1, 2] {
            let expected = table.optimum(depth);
            let depth_text = depth.to_string();
            check_solve(
                &csv,
                &[
                    "--solver",
                    "dp",
                    "--depth",
                    &depth_text,
                    "--categorical",
                    "code",
                ],
                expected,
                &format!("seed {seed}, depth {depth}"),
            );
        }
    }
}

#[test]
fn milp_optimum_over_categorical_columns_equals_the_oracle_on_both_solvers() {
    for seed in 20..22 {
        let table = Table::random(seed, 10, 2);
        let expected = table.optimum(1);
        for solver in ["highs", "cbc"] {
            check_solve(
                &table.to_csv(),
                &[
                    "--solver",
                    solver,
                    "--formulation",
                    "oct",
                    "--depth",
                    "1",
                    "--categorical",
                    "code",
                    "--time-limit",
                    "20",
                ],
                expected,
                &format!("seed {seed}, {solver}"),
            );
        }
    }
}

/// Colour decides the class but for one red row.
const COLOURS: &str = "colour,size,y\nblue,1,yes\nblue,2,yes\nblue,3,yes\nred,1,no\nred,2,no\n\
                       red,3,yes\ngreen,1,no\ngreen,2,no\n";

/// Learns the dp tree of `depth` on [`COLOURS`]; the directory keeps the tree file.
fn learn_colours(depth: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, data) = temp_file("colours.csv", COLOURS);
    let tree = dir.path().join("tree.json");
    let output = milptree(&[
        "solve",
        path_str(&data),
        "--solver",
        "dp",
        "--depth",
        depth,
        "-o",
        path_str(&tree),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    (dir, tree)
}

#[test]
fn categorical_splits_read_as_equalities_in_text_dot_and_json() {
    let (_dir, tree) = learn_colours("1");
    let text = stdout(&milptree(&["show", path_str(&tree)]));
    assert!(
        text.contains("|--- colour != blue\n|   |--- class: no  [4, 1]\n|--- colour = blue\n"),
        "{text}"
    );
    let dot = stdout(&milptree(&["show", "--format", "dot", path_str(&tree)]));
    assert!(dot.contains("label=\"colour != blue\\n"), "{dot}");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&tree).unwrap()).unwrap();
    let root = &file["nodes"][0];
    assert_eq!(root["column"], "colour");
    assert_eq!(root["category"], "blue");
    assert_eq!(root["feature_name"], "colour=blue");
    let json = milptree_json(&["show", "--format", "json", path_str(&tree)]);
    assert_eq!(json["nodes"][0]["category"], "blue");

    // A file written before categorical splits were named reads and shows the same.
    let mut older = file.clone();
    let node = older["nodes"][0].as_object_mut().unwrap();
    node.remove("column");
    node.remove("category");
    let (_older_dir, older_path) = temp_file("older.json", &older.to_string());
    assert_eq!(stdout(&milptree(&["show", path_str(&older_path)])), text);

    // A split that names another category than its feature's is refused.
    let mut wrong = file.clone();
    wrong["nodes"][0]["category"] = "red".into();
    let (_wrong_dir, wrong_path) = temp_file("wrong.json", &wrong.to_string());
    let output = milptree(&["show", path_str(&wrong_path)]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("is not the category `red` of the column `colour`"),
        "{}",
        stderr(&output)
    );

    // Prediction: an unseen category goes the `!=` way, with a warning naming it.
    let (_new_dir, new_data) = temp_file("new.csv", "size,colour\n1,blue\n2,purple\n3,red\n");
    let output = milptree(&["predict", "--tree", path_str(&tree), path_str(&new_data)]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "row,leaf,predicted\n1,3,yes\n2,2,no\n3,2,no\n"
    );
    assert!(
        stderr(&output).contains("column `colour`: value `purple` (1 rows)"),
        "{}",
        stderr(&output)
    );
}

/// A split that sends the rows missing a text column one way and every other row the other
/// reads as `t is missing` / `t is present` in text, DOT and the page's data (not as a
/// threshold on one category's 0/1 feature), whichever side the missing rows take; `predict`
/// routes by it.
#[test]
fn a_split_of_the_missing_cells_of_a_text_column_reads_as_missing_and_present() {
    let csv = "t,class\nred,b\nblue,b\n,a\nred,b\n,a\nblue,b\n";
    let (dir, data) = temp_file("cm.csv", csv);
    let tree = dir.path().join("tree.json");
    let output = milptree(&[
        "solve",
        path_str(&data),
        "--solver",
        "dp",
        "--depth",
        "1",
        "-o",
        path_str(&tree),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let printed = stdout(&output);
    let shown = "|--- t is missing\n|   |--- class: a  [2, 0]\n|--- t is present\n\
                 |   |--- class: b  [0, 4]\n";
    assert!(printed.contains(shown), "{printed}");
    let text = stdout(&milptree(&["show", path_str(&tree)]));
    assert!(text.ends_with(&format!("\n\n{shown}")), "{text}");
    let dot = stdout(&milptree(&["show", "--format", "dot", path_str(&tree)]));
    assert!(dot.contains("label=\"t is missing\\n"), "{dot}");
    assert!(!dot.contains("-0.5"), "{dot}");
    // The same split with the missing rows on the right: every present row goes left.
    let mut file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&tree).unwrap()).unwrap();
    let nodes = file["nodes"].as_array_mut().unwrap();
    nodes[0]["threshold"] = 1.5.into();
    nodes[0]["missing"] = "right".into();
    let [_, left, right] = &mut nodes[..] else {
        panic!("a stump")
    };
    for (node, id) in [(&mut *left, 3), (&mut *right, 2)] {
        node["id"] = id.into();
    }
    nodes.sort_by_key(|n| n["id"].as_u64());
    let (_flipped_dir, flipped) = temp_file("flipped.json", &file.to_string());
    let text = stdout(&milptree(&["show", path_str(&flipped)]));
    assert!(
        text.ends_with(
            "\n\n|--- t is present\n|   |--- class: b  [0, 4]\n|--- t is missing\n\
             |   |--- class: a  [2, 0]\n"
        ),
        "{text}"
    );
    for tree in [&tree, &flipped] {
        let output = milptree(&["predict", "--tree", path_str(tree), path_str(&data)]);
        assert!(output.status.success(), "{}", stderr(&output));
        let leaves: Vec<String> = stdout(&output)
            .lines()
            .skip(1)
            .map(|line| line.rsplit(',').next().unwrap_or("").to_string())
            .collect();
        assert_eq!(leaves, ["b", "b", "a", "b", "a", "b"], "{}", tree.display());
    }
    // The page shows the same conditions.
    let page = dir.path().join("tree.html");
    let output = milptree(&[
        "show",
        path_str(&tree),
        "--format",
        "html",
        "-o",
        path_str(&page),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let html = std::fs::read_to_string(&page).expect("the page");
    assert!(
        html.contains("t is missing") && html.contains("t is present"),
        "the page"
    );
    // Its branches carry no second missing-side mark: the split's data says it is worded.
    assert!(html.contains("\"missing_test\":true"), "the page's data");
}

#[test]
fn predict_matches_columns_by_name() {
    let (_dir, tree) = learn_colours("2");
    let predict = |csv: &str| {
        let (_dir, path) = temp_file("p.csv", csv);
        milptree(&["predict", "--tree", path_str(&tree), path_str(&path)])
    };
    let original = predict("colour,size\nblue,1\nred,3\ngreen,2\n");
    assert!(original.status.success(), "{}", stderr(&original));
    let reordered = predict("note,size,colour\nx,1,blue\ny,3,red\nz,2,green\n");
    assert!(reordered.status.success(), "{}", stderr(&reordered));
    assert_eq!(stdout(&reordered), stdout(&original));
    // Extra columns are not read at all, missing cells included.
    let extra = predict("size,extra,colour,y\n1,,blue,yes\n3,,red,yes\n2,,green,no\n");
    assert!(extra.status.success(), "{}", stderr(&extra));
    assert!(stdout(&extra).starts_with("row,leaf,predicted,actual\n"));
    let missing = predict("colour,y\nblue,yes\n");
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("has no column named `size`, which the tree reads"),
        "{}",
        stderr(&missing)
    );
}

fn read(
    csv: &str,
    name: &str,
    options: &ColumnOptions,
) -> milptree::Result<(Vec<String>, Vec<String>)> {
    let (_dir, path) = temp_file(name, csv);
    let (data, warnings) = read_table(
        &path,
        &TargetColumn::Last,
        None,
        options,
        &MissingValues::default(),
    )?;
    Ok((data.schema().features.clone(), warnings))
}

#[test]
fn declared_categorical_columns_take_numeric_codes_as_categories() {
    let csv = "code,size,y\n3,1,a\n1,2,b\n1.0,3,a\n10,4,b\n";
    let (features, _) = read(csv, "codes.csv", &ColumnOptions::default()).unwrap();
    assert_eq!(features, ["code", "size"]);
    let declared = ColumnOptions {
        categorical: vec!["code".into()],
        ..ColumnOptions::default()
    };
    let (features, _) = read(csv, "codes.csv", &declared).unwrap();
    // `1` and `1.0` are one category; codes are ordered as numbers.
    assert_eq!(features, ["code=1", "code=3", "code=10", "size"]);
    // By position too, and a column mixing numbers and text becomes readable.
    let mixed = "code,size,y\n3,1,a\nx,2,b\n";
    let message = read(mixed, "mixed.csv", &ColumnOptions::default())
        .unwrap_err()
        .to_string();
    assert!(message.contains("--categorical code"), "{message}");
    let by_position = ColumnOptions {
        categorical: vec!["0".into()],
        ..ColumnOptions::default()
    };
    let (features, _) = read(mixed, "mixed.csv", &by_position).unwrap();
    assert_eq!(features, ["code=3", "code=x", "size"]);
}

#[test]
fn wide_text_columns_are_refused_unless_declared() {
    let csv = "town,size,y\nA,1,a\nB,2,b\nC,3,a\nD,4,b\nE,5,a\n";
    let output = {
        let (_dir, path) = temp_file("towns.csv", csv);
        milptree(&[
            "solve",
            path_str(&path),
            "--solver",
            "dp",
            "--depth",
            "1",
            "--max-categories",
            "4",
        ])
    };
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("column `town` has 5 categories, more than --max-categories 4"),
        "{message}"
    );
    let narrow = ColumnOptions {
        max_categories: 4,
        ..ColumnOptions::default()
    };
    assert!(read(csv, "towns.csv", &narrow).is_err());
    let declared = ColumnOptions {
        categorical: vec!["town".into()],
        ..narrow.clone()
    };
    let (features, _) = read(csv, "towns.csv", &declared).unwrap();
    assert_eq!(features.len(), 6);
    let ignored = ColumnOptions {
        ignore: vec!["town".into()],
        ..narrow
    };
    let (features, _) = read(csv, "towns.csv", &ignored).unwrap();
    assert_eq!(features, ["size"]);
}

#[test]
fn ignored_columns_are_neither_features_nor_checked() {
    let csv = "id,note,size,y\n1,,1,a\n2,?,2,b\n3,x,3,a\n";
    let options = ColumnOptions {
        ignore: vec!["id".into(), "1".into()],
        ..ColumnOptions::default()
    };
    let (features, _) = read(csv, "ids.csv", &options).unwrap();
    assert_eq!(features, ["size"]);
    for (ignore, named) in [
        ("y", "the label column"),
        ("nope", "no column named `nope`"),
        ("id,note,size", "every feature column is left out"),
    ] {
        let (_dir, path) = temp_file("ids.csv", csv);
        assert_usage_error(
            &[
                "greedy",
                path_str(&path),
                "--depth",
                "1",
                "--ignore",
                ignore,
            ],
            named,
        );
    }
    let (_dir, path) = temp_file("ids.csv", csv);
    assert_usage_error(
        &[
            "solve",
            path_str(&path),
            "--solver",
            "dp",
            "--depth",
            "1",
            "--ignore",
            "size",
            "--categorical",
            "size",
        ],
        "also left out with --ignore",
    );
}

/// Runs milptree with `input` on standard input.
fn milptree_with_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_milptree"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the milptree binary runs");
    child
        .stdin
        .take()
        .expect("a piped stdin")
        .write_all(input.as_bytes())
        .expect("stdin is written");
    child.wait_with_output().expect("milptree ends")
}

#[test]
fn delimiters_tsv_files_and_standard_input_read_the_same_table() {
    let dp = ["--solver", "dp", "--depth", "2", "--json"];
    let solve = |path: &str, extra: &[&str]| {
        let mut args = vec!["solve", path];
        args.extend_from_slice(&dp);
        args.extend_from_slice(extra);
        milptree_json(&args)
    };
    let (_a, comma) = temp_file("colours.csv", COLOURS);
    let expected = solve(path_str(&comma), &[]);
    let (_b, semicolon) = temp_file("colours.csv", &COLOURS.replace(',', ";"));
    let (_c, tsv) = temp_file("colours.tsv", &COLOURS.replace(',', "\t"));
    for report in [
        solve(path_str(&semicolon), &["--delimiter", ";"]),
        solve(path_str(&tsv), &[]),
    ] {
        assert_eq!(report["tree"]["nodes"], expected["tree"]["nodes"]);
        assert_eq!(report["objective"], expected["objective"]);
    }
    let mut args = vec!["solve", "-"];
    args.extend_from_slice(&dp);
    let piped = milptree_with_stdin(&args, COLOURS);
    assert!(piped.status.success(), "{}", stderr(&piped));
    let report: serde_json::Value = serde_json::from_slice(&piped.stdout).unwrap();
    assert_eq!(report["tree"]["nodes"], expected["tree"]["nodes"]);
    // A semicolon file read with commas has one column: a clear error, exit 2.
    let output = milptree(&[
        "solve",
        path_str(&semicolon),
        "--solver",
        "dp",
        "--depth",
        "1",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert_usage_error(
        &[
            "solve",
            path_str(&comma),
            "--delimiter",
            ";;",
            "--depth",
            "1",
        ],
        "is not a delimiter",
    );
    // predict reads standard input and takes a delimiter too.
    let tree = _a.path().join("tree.json");
    std::fs::write(&tree, expected["tree"].to_string()).unwrap();
    let predicted = milptree_with_stdin(
        &[
            "predict",
            "--tree",
            path_str(&tree),
            "-",
            "--delimiter",
            ";",
        ],
        "colour;size\nblue;1\n",
    );
    assert!(predicted.status.success(), "{}", stderr(&predicted));
    let text = stdout(&predicted);
    assert!(
        text.starts_with("row,leaf,predicted\n1,") && text.ends_with(",yes\n"),
        "{text}"
    );
}

#[test]
fn identifier_and_free_text_columns_get_one_warning_each() {
    let mut csv = String::from("id,comment,colour,size,y\n");
    let words = [
        "the", "parcel", "arrived", "late", "and", "damaged", "again",
    ];
    for i in 0..24 {
        let comment = format!(
            "{} {} {} {} number {i}",
            words[i % 7],
            words[(i + 2) % 7],
            words[(i + 3) % 7],
            words[(i + 5) % 7]
        );
        let colour = ["red", "blue", "green"][i % 3];
        csv.push_str(&format!(
            "{},{comment},{colour},{},{}\n",
            100 + i,
            i % 5,
            i % 2
        ));
    }
    let (features, warnings) = read(&csv, "c.csv", &ColumnOptions::default()).unwrap();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].starts_with("column `id` looks like an identifier"));
    assert!(warnings[0].contains("--ignore id"));
    assert!(warnings[1].starts_with("column `comment` looks like free text"));
    assert_eq!(features.len(), 1 + 24 + 3 + 1);
    // On the command line: one line each on stderr, and none for the ordinary columns.
    let (_dir, path) = temp_file("c.csv", &csv);
    let output = milptree(&["greedy", path_str(&path), "--depth", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let lines: Vec<String> = stderr(&output)
        .lines()
        .filter(|l| l.starts_with("warning: column"))
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    let ignored = ColumnOptions {
        ignore: vec!["id".into(), "comment".into()],
        ..ColumnOptions::default()
    };
    let (_, warnings) = read(&csv, "c.csv", &ignored).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    // Too few rows to tell: no warning.
    let short: String = csv.lines().take(10).map(|l| format!("{l}\n")).collect();
    let (_, warnings) = read(&short, "c.csv", &ColumnOptions::default()).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn the_schema_marks_declared_columns_categorical() {
    let (_dir, path) = temp_file("codes.csv", "code,y\n1,a\n2,b\n2,a\n");
    let options = ColumnOptions {
        categorical: vec!["code".into()],
        ..ColumnOptions::default()
    };
    let (data, _) = read_table(
        &path,
        &TargetColumn::Last,
        None,
        &options,
        &MissingValues::default(),
    )
    .unwrap();
    assert_eq!(
        data.schema().columns[0].kind,
        ColumnKind::Categorical {
            categories: vec!["1".into(), "2".into()]
        }
    );
    assert_eq!(
        data.rows(),
        [vec![1.0, 0.0], vec![0.0, 1.0], vec![0.0, 1.0]]
    );
}

#[test]
fn files_from_other_tools_read_or_get_a_hint() {
    // A byte order mark, quoted names, CRLF line ends and blank lines at the end read fine.
    let exported = "\u{feff}\"colour\",\"size\",\"y\"\r\nblue,1,a\r\nred,2,b\r\n\r\n\r\n";
    let (features, _) = read(exported, "e.csv", &ColumnOptions::default()).unwrap();
    assert_eq!(features, ["colour=blue", "colour=red", "size"]);
    for (csv, hint) in [
        (",a,y\n0,1,x\n1,2,z\n", "index=False"),
        (
            "a,b,y,\n0,1,x,\n1,2,z,\n",
            "a delimiter at the end of the header line",
        ),
        ("a;b;y\n0;1;x\n1;2;z\n", "give --delimiter ';'"),
        ("a\tb\ty\n0\t1\tx\n", "give --delimiter 'tab'"),
        (
            "a,a,y\n0,1,x\n1,2,z\n",
            "duplicate column name `a` (columns 1 and 2)",
        ),
    ] {
        let message = read(csv, "f.csv", &ColumnOptions::default())
            .unwrap_err()
            .to_string();
        assert!(message.contains(hint), "{csv:?}: {message}");
    }
}
