//! One scale for objectives: every `solve` report gives the returned tree's training errors
//! and its objective in the exact search's units, whatever the method's own units are.

use milptree::tree::Tree;

use crate::common::{dataset, milptree_json, path_str, random_dataset, temp_file, to_csv};
use crate::oracle::{self, OracleSpec};

fn solve(data: &str, method: &[&str]) -> serde_json::Value {
    let mut args = vec!["solve", data, "--json", "--quiet"];
    args.extend(method);
    milptree_json(&args)
}

#[test]
fn methods_in_different_units_meet_on_errors_and_the_search_objective() {
    let iris = dataset("iris");
    let data = milptree::data::read_dataset(&iris, &Default::default()).expect("iris");
    let optimum = oracle::optimum(&data, &OracleSpec::errors(&data, 1));
    let methods: [&[&str]; 4] = [
        &["--solver", "dp", "--depth", "1"],
        &["--formulation", "oct", "--depth", "1"],
        &[
            "--formulation",
            "binoct",
            "--thresholds",
            "all",
            "--depth",
            "1",
        ],
        &["--formulation", "flowoct", "--depth", "1"],
    ];
    let mut own = Vec::new();
    for method in methods {
        let report = solve(path_str(&iris), method);
        assert_eq!(report["termination"], "optimal", "{method:?}");
        assert_eq!(report["errors"], optimum.errors as f64, "{method:?}");
        assert_eq!(report["dp_objective"], optimum.objective, "{method:?}");
        own.push(report["evaluated_objective"].as_f64().expect("objective"));
    }
    // The methods' own objectives are in different units.
    assert!(own.iter().any(|&o| (o - own[0]).abs() > 1e-9), "{own:?}");
}

#[test]
fn the_search_objective_prices_splits_as_the_search_does() {
    // OCT with alpha: the search's units are errors plus alpha * L^ per split.
    let data = random_dataset(11, 30, 2, 2, 4);
    let (_dir, csv) = temp_file("data.csv", &to_csv(&data));
    let report = solve(
        path_str(&csv),
        &["--formulation", "oct", "--depth", "2", "--alpha", "0.1"],
    );
    let tree = Tree::from_json_str(&report["tree"].to_string(), "report").expect("a tree");
    let errors = tree
        .evaluate(data.rows(), data.labels(), data.classes())
        .expect("fits")
        .misclassified as f64;
    let counts = data.class_counts();
    let baseline = (data.n_rows() - counts.iter().max().expect("classes")) as f64;
    let expected = errors + 0.1 * baseline * tree.n_splits() as f64;
    assert_eq!(report["errors"], errors);
    let found = report["dp_objective"].as_f64().expect("dp objective");
    assert!((found - expected).abs() < 1e-9, "{found} vs {expected}");
    // The sparse search has no such scale: null, never invented.
    let sparse = solve(path_str(&csv), &["--solver", "sparse"]);
    assert!(sparse["dp_objective"].is_null());
    assert!(sparse["errors"].is_number());
}

#[test]
fn greedy_and_path_reports_give_the_training_errors() {
    let wine = dataset("wine");
    let data = milptree::data::read_dataset(&wine, &Default::default()).expect("wine");
    let recount = |tree: &Tree| {
        tree.evaluate(data.rows(), data.labels(), data.classes())
            .expect("fits")
            .misclassified as f64
    };
    let greedy = milptree_json(&["greedy", path_str(&wine), "--depth", "2", "--json"]);
    let tree = Tree::from_json_str(&greedy["tree"].to_string(), "report").expect("a tree");
    assert_eq!(greedy["errors"], recount(&tree));
    // At the exact search's defaults (accuracy, no split cost) its objective is the errors.
    assert_eq!(greedy["dp_objective"], recount(&tree));
    let dir = tempfile::tempdir().expect("a directory");
    let path = milptree_json(&[
        "path",
        path_str(&wine),
        "--leaf-penalty",
        "0.005,0.05",
        "--depth",
        "2",
        "--json",
        "--quiet",
        "--out-dir",
        path_str(dir.path()),
    ]);
    let rows = path["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    for row in rows {
        let file = row["tree_file"].as_str().expect("a tree file");
        let tree = Tree::read(std::path::Path::new(file)).expect("the tree reads");
        assert_eq!(row["errors"], recount(&tree), "{row}");
    }
}
