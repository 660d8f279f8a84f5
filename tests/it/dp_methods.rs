//! The exact search as a method of `milptree solve`: its report has the MILP report's fields
//! and reads back as the same typed document, its optimum equals the proven optima of OCT,
//! BinOCT (every midpoint) and FlowOCT on the same problems (accuracy, balanced, OCT's split
//! cost), its tree file records the method, and options that do not apply are refused.

use milptree::learn::SolveDocument;

use crate::common::{dataset, milptree, milptree_json, path_str, stderr, temp_file};

fn solve(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--json", "--quiet"]);
    milptree_json(&all)
}

fn objective(report: &serde_json::Value) -> f64 {
    report["objective"].as_f64().expect("an objective")
}

/// A small two-class dataset with ties and duplicate rows, as CSV text.
fn small_csv() -> String {
    let mut text = String::from("a,b,c,label\n");
    for i in 0..40u32 {
        let (a, b, c) = ((i * 7) % 9, (i * 5 + 2) % 6, (i * 3) % 4);
        let label = if (a + 2 * b) % 5 < 2 || i % 13 == 4 {
            "p"
        } else {
            "q"
        };
        text.push_str(&format!("{a},{b},{c},{label}\n"));
    }
    text
}

#[test]
fn dp_equals_the_proven_milp_optima() {
    let (_dir, path) = temp_file("small.csv", &small_csv());
    let data = path_str(&path);
    for depth in ["1", "2"] {
        let dp = solve(&[data, "--solver", "dp", "--depth", depth]);
        assert_eq!(dp["termination"], "optimal");
        assert_eq!(dp["solver"], "dp");
        assert_eq!(dp["formulation"], "dp");
        assert!(dp["model_size"].is_null() && dp["nodes"].is_null());
        assert!(dp["dp"]["subproblems"].as_u64().is_some());
        assert_eq!(dp["best_bound"], dp["objective"]);
        assert_eq!(dp["evaluated_objective"], dp["objective"]);
        assert_eq!(
            objective(&dp),
            dp["train"]["misclassified"].as_f64().expect("errors")
        );
        // The typed document reads back and writes the same JSON.
        let document = SolveDocument::from_value(&dp).expect("a document");
        assert_eq!(serde_json::to_value(&document).expect("serialises"), dp);
        for (formulation, extra) in [("binoct", vec!["--thresholds", "all"]), ("flowoct", vec![])] {
            for solver in ["highs", "cbc"] {
                let mut args = vec![data, "--formulation", formulation, "--depth", depth];
                args.extend(["--solver", solver]);
                args.extend(extra.iter().copied());
                let milp = solve(&args);
                assert_eq!(milp["termination"], "optimal", "{formulation} {solver}");
                assert!(
                    (objective(&milp) - objective(&dp)).abs() < 1e-6,
                    "{formulation} {solver} depth {depth}: {} vs dp {}",
                    objective(&milp),
                    objective(&dp)
                );
            }
        }
    }
}

#[test]
fn dp_equals_oct_with_split_cost_and_balanced_weights() {
    let (_dir, path) = temp_file("small.csv", &small_csv());
    let data = path_str(&path);
    for extra in [
        vec!["--alpha", "0.05"],
        vec!["--objective", "balanced"],
        vec!["--min-leaf", "6"],
    ] {
        let mut dp_args = vec![data, "--solver", "dp", "--depth", "2"];
        dp_args.extend(extra.iter().copied());
        let dp = solve(&dp_args);
        let mut oct_args = vec![data, "--formulation", "oct", "--depth", "2"];
        oct_args.extend(extra.iter().copied());
        let oct = solve(&oct_args);
        assert_eq!(oct["termination"], "optimal", "{extra:?}");
        // OCT's objective is the search's divided by the baseline's weighted errors.
        let train = &dp["train"];
        let rows = train["rows"].as_f64().expect("rows");
        let baseline = if extra[1] == "balanced" {
            rows / 2.0
        } else {
            // 40 rows; the majority class of small.csv.
            let counts = small_csv()
                .lines()
                .skip(1)
                .filter(|line| line.ends_with(",p"))
                .count() as f64;
            counts.min(rows - counts)
        };
        assert!(
            (objective(&oct) * baseline - objective(&dp)).abs() < 1e-6,
            "{extra:?}: oct {} x {baseline} vs dp {}",
            objective(&oct),
            objective(&dp)
        );
    }
}

#[test]
fn dp_trees_are_files_predict_and_show_read() {
    let dir = tempfile::tempdir().expect("a directory");
    let tree = dir.path().join("tree.json");
    let iris = dataset("iris");
    let report = solve(&[
        path_str(&iris),
        "--solver",
        "dp",
        "--depth",
        "2",
        "--output",
        path_str(&tree),
    ]);
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&tree).expect("written")).expect("JSON");
    assert_eq!(file["learned_by"]["method"], "dp");
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
    assert!(milptree(&["show", path_str(&tree)]).status.success());
}

#[test]
fn options_that_do_not_apply_to_the_search_are_refused() {
    let iris = dataset("iris");
    for (option, value) in [
        ("--warm-start", Some("none")),
        ("--mip-gap", Some("0.1")),
        ("--tangents", Some("1")),
        ("--log", None),
    ] {
        let mut args = vec![
            "solve",
            path_str(&iris),
            "--solver",
            "dp",
            "--depth",
            "2",
            option,
        ];
        args.extend(value);
        let output = milptree(&args);
        assert_eq!(output.status.code(), Some(2), "{option}");
        assert!(
            stderr(&output).contains(&format!("invalid {option}: does not apply to --solver dp")),
            "{}",
            stderr(&output)
        );
    }
    let output = milptree(&[
        "solve",
        path_str(&iris),
        "--solver",
        "dp",
        "--depth",
        "2",
        "--formulation",
        "oct",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let output = milptree(&["solve", path_str(&iris), "--depth", "2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--formulation"),
        "{}",
        stderr(&output)
    );
}
