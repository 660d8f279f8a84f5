//! The sparse search as a method of `milptree solve` and in `milptree path`: with a depth cap
//! its optimum is the proven optimum of OCT and BinOCT (every midpoint) with the same leaf
//! penalty on both solvers, and their certificates agree; its objective on iris is the
//! exhaustive oracle's; its report and tree file name the method; bad options exit 2; the
//! path's leaves never grow and its training loss never drops as the penalty grows, and each
//! of its trees is the single solve's.

use milptree::data::{read_dataset, TargetColumn};
use milptree::learn::SolveDocument;

use crate::common::{dataset, milptree, milptree_json, path_str, stderr, temp_file};
use crate::oracle::{optimum, OracleSpec};

fn solve(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--json", "--quiet"]);
    milptree_json(&all)
}

fn number(value: &serde_json::Value) -> f64 {
    value.as_f64().expect("a number")
}

fn leaves(report: &serde_json::Value) -> usize {
    report["tree"]["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter(|node| node["kind"] == "leaf")
        .count()
}

/// A small two-class dataset with ties and duplicate rows, as CSV text.
fn small_csv(rows: u32) -> String {
    let mut text = String::from("a,b,c,label\n");
    for i in 0..rows {
        let (a, b, c) = ((i * 7) % 9, (i * 5 + 2) % 6, (i * 3) % 4);
        let label = if (a + 2 * b) % 5 < 2 || i % 11 == 4 {
            "p"
        } else {
            "q"
        };
        text.push_str(&format!("{a},{b},{c},{label}\n"));
    }
    text
}

#[test]
fn sparse_equals_the_proven_milp_optima_with_a_leaf_penalty() {
    let csv = small_csv(24);
    let (_dir, path) = temp_file("small.csv", &csv);
    let data = path_str(&path);
    let n = 24.0;
    let p = csv.lines().skip(1).filter(|l| l.ends_with(",p")).count() as f64;
    for (lambda, objective) in [("0.03", "accuracy"), ("0.09", "balanced")] {
        let lambda_value: f64 = lambda.parse().expect("a number");
        let sparse = solve(&[
            data,
            "--solver",
            "sparse",
            "--depth",
            "2",
            "--leaf-penalty",
            lambda,
            "--objective",
            objective,
        ]);
        assert_eq!(sparse["termination"], "optimal");
        let r = number(&sparse["objective"]);
        // Weighted rows W and the baseline's weighted errors L^.
        let (w, baseline) = if objective == "balanced" {
            (n, n / 2.0)
        } else {
            (n, p.min(n - p))
        };
        for solver in ["highs", "cbc"] {
            for (formulation, extra) in [("oct", vec![]), ("binoct", vec!["--thresholds", "all"])] {
                let mut args = vec![data, "--formulation", formulation, "--depth", "2"];
                args.extend(["--solver", solver, "--leaf-penalty", lambda]);
                args.extend(["--objective", objective]);
                args.extend(extra.iter().copied());
                let milp = solve(&args);
                let context = format!("{formulation} {solver} {objective} lambda {lambda}");
                assert_eq!(milp["termination"], "optimal", "{context}");
                assert!(milp["decode_mismatch"].is_null(), "{context}");
                assert_eq!(milp["certificate"]["verdict"], "agrees", "{context}");
                let in_sparse_units = match formulation {
                    "oct" => number(&milp["objective"]) * baseline / w,
                    _ => number(&milp["objective"]) / w,
                };
                assert!(
                    (in_sparse_units - r).abs() < 1e-6,
                    "{context}: the MILP's optimum is {in_sparse_units}, the sparse search's {r}"
                );
                // The MILP's tree is worth its objective: loss plus lambda per leaf.
                if objective == "accuracy" {
                    let errors = number(&milp["train"]["misclassified"]);
                    let worth = errors / n + lambda_value * leaves(&milp) as f64;
                    assert!(
                        (worth - r).abs() < 1e-9,
                        "{context}: its tree is worth {worth}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_sparse_optimum_on_iris_is_the_oracles() {
    let iris = dataset("iris");
    let data = read_dataset(&iris, &TargetColumn::Last).expect("iris");
    let n = data.n_rows() as f64;
    for (lambda, depth) in [(0.02, 2usize), (0.005, 1)] {
        let spec = OracleSpec {
            split_cost: lambda * n,
            ..OracleSpec::errors(&data, depth)
        };
        let expected = (optimum(&data, &spec).objective + lambda * n) / n;
        let report = solve(&[
            path_str(&iris),
            "--solver",
            "sparse",
            "--depth",
            &depth.to_string(),
            "--leaf-penalty",
            &lambda.to_string(),
        ]);
        assert!(
            (number(&report["objective"]) - expected).abs() < 1e-9,
            "depth {depth}: {} vs the oracle's {expected}",
            report["objective"]
        );
    }
}

#[test]
fn sparse_reports_name_the_method_and_read_back() {
    let dir = tempfile::tempdir().expect("a directory");
    let tree = dir.path().join("tree.json");
    let iris = dataset("iris");
    let report = solve(&[
        path_str(&iris),
        "--solver",
        "sparse",
        "--leaf-penalty",
        "0.02",
        "--output",
        path_str(&tree),
    ]);
    assert_eq!(report["solver"], "sparse");
    assert_eq!(report["formulation"], "sparse");
    assert_eq!(report["termination"], "optimal");
    assert!(report["parameters"]["depth"].is_null());
    assert_eq!(report["parameters"]["leaf_penalty"], 0.02);
    assert!(report["dp"].is_null() && report["model_size"].is_null());
    assert!(report["sparse"]["subproblems"].as_u64().is_some());
    assert_eq!(report["best_bound"], report["objective"]);
    let document = SolveDocument::from_value(&report).expect("a document");
    assert_eq!(serde_json::to_value(&document).expect("serialises"), report);
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&tree).expect("written")).expect("JSON");
    assert_eq!(file["learned_by"]["method"], "sparse");
    let predicted = milptree_json(&[
        "predict",
        "--tree",
        path_str(&tree),
        path_str(&iris),
        "--json",
    ]);
    assert_eq!(
        predicted["test"]["misclassified"],
        report["train"]["misclassified"]
    );
}

#[test]
fn bad_sparse_options_exit_2() {
    let iris = dataset("iris");
    let iris = path_str(&iris);
    let (_dir, path) = temp_file("small.csv", &small_csv(24));
    let small = path_str(&path);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![iris, "--formulation", "oct", "--depth", "none"],
            "--depth",
        ),
        (vec![iris, "--formulation", "oct"], "--depth"),
        (
            vec![iris, "--solver", "sparse", "--objective", "f1"],
            "two classes",
        ),
        (
            vec![
                small,
                "--solver",
                "sparse",
                "--objective",
                "balanced",
                "--class-weight",
                "p=2",
            ],
            "--class-weight",
        ),
        (
            vec![
                small,
                "--solver",
                "sparse",
                "--objective",
                "weighted",
                "--class-weight",
                "x=2",
            ],
            "not a class",
        ),
        (
            vec![iris, "--solver", "sparse", "--leaf-penalty=-1"],
            "--leaf-penalty",
        ),
        (
            vec![iris, "--solver", "sparse", "--leaf-penalty", "0"],
            "--leaf-penalty",
        ),
        (
            vec![iris, "--solver", "sparse", "--formulation", "oct"],
            "--formulation",
        ),
        (
            vec![iris, "--solver", "sparse", "--alpha", "0.1"],
            "--alpha",
        ),
        (
            vec![
                iris,
                "--formulation",
                "oct",
                "--depth",
                "2",
                "--objective",
                "auc",
            ],
            "--objective",
        ),
        (
            vec![
                iris,
                "--formulation",
                "flowoct",
                "--depth",
                "2",
                "--leaf-penalty",
                "0.1",
            ],
            "--leaf-penalty",
        ),
        (
            vec![
                small,
                "--solver",
                "sparse",
                "--objective",
                "pauc",
                "--pauc-theta",
                "1.5",
            ],
            "--pauc-theta",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["solve"];
        all.extend(args.iter().copied());
        let output = milptree(&all);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(expected),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn the_path_is_monotone_and_each_tree_is_the_single_solves() {
    let (dir, path) = temp_file("small.csv", &small_csv(60));
    let data = path_str(&path);
    let csv = dir.path().join("path.csv");
    let trees = dir.path().join("trees");
    let plot = dir.path().join("figures").join("path");
    let report = milptree_json(&[
        "path",
        data,
        "--leaf-penalty",
        "0.005..0.2",
        "--steps",
        "6",
        "--test-fraction",
        "0.25",
        "--csv",
        path_str(&csv),
        "--trees",
        path_str(&trees),
        "--plot",
        path_str(&plot),
        "--json",
    ]);
    assert_eq!(report["command"], "path");
    let rows = report["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 6);
    for pair in rows.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert!(number(&a["lambda"]) < number(&b["lambda"]));
        assert!(a["leaves"].as_u64() >= b["leaves"].as_u64(), "{a} {b}");
        assert!(number(&a["train"]["loss"]) <= number(&b["train"]["loss"]) + 1e-12);
    }
    for row in rows {
        assert_eq!(row["termination"], "optimal");
        assert!(row["test"]["metric"].as_f64().is_some());
        let single = solve(&[
            data,
            "--solver",
            "sparse",
            "--leaf-penalty",
            &number(&row["lambda"]).to_string(),
            "--test-fraction",
            "0.25",
        ]);
        assert!(
            (number(&single["objective"]) - number(&row["objective"])).abs() < 1e-9,
            "lambda {}: the path says {}, a single solve {}",
            row["lambda"],
            row["objective"],
            single["objective"]
        );
        let file = row["tree_file"].as_str().expect("a tree file");
        assert!(std::path::Path::new(file).exists());
    }
    let table = std::fs::read_to_string(&csv).expect("the CSV");
    assert_eq!(table.lines().count(), 7);
    assert!(table.starts_with("lambda,leaves,"));
    for extension in ["svg", "png"] {
        assert!(plot.with_extension(extension).exists(), "{extension}");
    }
}
