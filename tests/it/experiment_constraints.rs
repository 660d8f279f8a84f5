//! Side constraints in experiment grids (`constraints = "file.toml"`): the MILP runs take them
//! (their trees reach the optimum of the filtered exhaustive oracle, not the free one), the rows
//! and keys record them, and grids whose methods cannot take them are refused before anything
//! runs.

use std::path::Path;

use crate::common::{path_str, random_dataset, stderr, to_csv};
use crate::experiment::experiment;
use crate::leaf_rows::leaf_sizes;
use crate::oracle::{optimum_where, OracleSpec, OracleTree};

/// A grid file over `tiny.csv` under `constraints.toml`, running
/// `formulations`.
fn write_grid(dir: &Path, formulations: &str) -> std::path::PathBuf {
    let grid = dir.join("grid.toml");
    std::fs::write(
        &grid,
        format!(
            "datasets = \"tiny.csv\"\ndepths = 2\nformulations = {formulations}\n\
             solvers = \"highs\"\nwarm_starts = \"greedy\"\ntime_limit = 30\n\
             test_fraction = 0\ncertify = \"off\"\nconstraints = \"constraints.toml\"\n\
             out = \"results\"\n"
        ),
    )
    .expect("written");
    grid
}

#[test]
fn a_grid_with_constraints_runs_the_milps_under_them_and_records_them() {
    let dir = tempfile::tempdir().expect("a directory");
    let data = random_dataset(11, 14, 3, 2, 4);
    std::fs::write(dir.path().join("tiny.csv"), to_csv(&data)).expect("written");
    // The largest bound on the rows per leaf that changes the optimum on this data.
    let oracle = OracleSpec::errors(&data, 2);
    let free = optimum_where(&data, &oracle, &|_| true).expect("a leaf");
    let (bound, expected) = (3..=7)
        .rev()
        .find_map(|bound| {
            let keep = |tree: &OracleTree| leaf_sizes(&data, tree).iter().all(|&r| r <= bound);
            let best = optimum_where(&data, &oracle, &keep).expect("a tree meets it");
            (best.errors > free.errors).then_some((bound, best))
        })
        .expect("a bound that binds");
    std::fs::write(
        dir.path().join("constraints.toml"),
        format!("max_leaf_rows = {bound}\n"),
    )
    .expect("written");
    let grid = write_grid(dir.path(), "[\"oct\", \"flowoct\"]");
    let output = experiment(&["--grid", path_str(&grid), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));

    let jsonl = std::fs::read_to_string(dir.path().join("results/runs.jsonl")).expect("rows");
    let rows: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON row"))
        .collect();
    assert_eq!(rows.len(), 2, "{jsonl}");
    for row in &rows {
        let key = row["run_key"].as_str().expect("a key");
        assert_eq!(row["termination"], "optimal", "{key}");
        let recorded = format!(r#"{{"max_leaf_rows":{bound}}}"#);
        assert_eq!(row["side_constraints"], recorded, "{key}");
        assert!(key.contains("_c"), "{key}");
        let accuracy = row["train_accuracy"].as_f64().expect("an accuracy");
        let errors = ((1.0 - accuracy) * 14.0).round() as usize;
        assert_eq!(errors, expected.errors, "{key}");
    }

    // The runs are known by their keys: a rerun skips them.
    let again = experiment(&["--grid", path_str(&grid), "--quiet"]);
    assert!(again.status.success(), "{}", stderr(&again));
    let jsonl_again = std::fs::read_to_string(dir.path().join("results/runs.jsonl")).expect("rows");
    assert_eq!(jsonl_again.lines().count(), 2);

    // Jobs do not carry constraints: refused.
    let jobs = experiment(&["--grid", path_str(&grid), "--emit-jobs"]);
    assert_eq!(jobs.status.code(), Some(2), "{}", stderr(&jobs));
    assert!(
        stderr(&jobs).contains("runs in process only"),
        "{}",
        stderr(&jobs)
    );
}

#[test]
fn grids_whose_methods_cannot_take_the_constraints_are_refused() {
    let dir = tempfile::tempdir().expect("a directory");
    let data = random_dataset(11, 14, 3, 2, 4);
    std::fs::write(dir.path().join("tiny.csv"), to_csv(&data)).expect("written");
    for (constraints, formulations, message) in [
        (
            "max_features = 2\nrows = [\"used[j=0] <= 0\"]\n",
            "[\"oct\", \"sparse\"]",
            "sparse does not take rows; the MILP",
        ),
        (
            "rows = [\"used[j=0] <= 0\"]\n",
            "[\"oct\", \"dp\"]",
            "dp does not take rows; the MILP",
        ),
        (
            "forbidden = [\"x0\"]\n",
            "[\"olct\"]",
            "olct takes no side constraints",
        ),
        (
            "forbidden = [\"nope\"]\n",
            "[\"oct\", \"dp\"]",
            "`nope` is not a feature",
        ),
    ] {
        std::fs::write(dir.path().join("constraints.toml"), constraints).expect("written");
        let grid = write_grid(dir.path(), formulations);
        let output = experiment(&["--grid", path_str(&grid), "--quiet"]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(stderr(&output).contains(message), "{}", stderr(&output));
        assert!(
            !dir.path().join("results").exists(),
            "{formulations} wrote results"
        );
    }
}
