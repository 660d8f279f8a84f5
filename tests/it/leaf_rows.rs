//! Bounds on the training rows per leaf (`min_leaf_rows`, `max_leaf_rows`) against the filtered
//! exhaustive oracle: on random small data, for OCT, BinOCT and FlowOCT on HiGHS and CBC, the
//! optimum under the bounds equals the best of every tree whose leaves reached by a training
//! row have between the minimum and the maximum of rows, and each bound changes the optimum on
//! some instance. Also the command line: bounds no tree meets report `infeasible` (exit 1), a
//! leaf minimum above the training rows is refused by every method (exit 2), the exact search
//! proves a cap no tree of the depth meets (exit 2), and the sparse search refuses
//! `max_leaf_rows` by name (exit 2).

use std::collections::BTreeMap;

use milptree::constraints::ConstraintSpec;
use milptree::data::Dataset;

use crate::common::{milptree, path_str, random_dataset, stderr, temp_file, to_csv};
use crate::oracle::{optimum_where, OracleSpec, OracleTree};
use crate::side_constraints::constrained_errors;

/// The training rows of each leaf of `tree` some row reaches.
pub(crate) fn leaf_sizes(data: &Dataset, tree: &OracleTree) -> Vec<usize> {
    let mut leaves: BTreeMap<usize, usize> = BTreeMap::new();
    for row in data.rows() {
        let mut node = 1;
        while let Some(&(_, j, t)) = tree.iter().find(|s| s.0 == node) {
            node = if row[j] <= t { 2 * node } else { 2 * node + 1 };
        }
        *leaves.entry(node).or_default() += 1;
    }
    leaves.into_values().collect()
}

/// For each instance and depth, the MILPs' optimum under the bounds equals the oracle's over
/// the trees that meet them; the bounds change the optimum on at least one.
fn check_bounds(min: Option<usize>, max: Option<usize>, depths: &[usize]) {
    let spec = ConstraintSpec {
        min_leaf_rows: min,
        max_leaf_rows: max,
        ..ConstraintSpec::default()
    };
    let mut binds = false;
    for seed in [11, 12] {
        let data = random_dataset(seed, 14, 3, 2, 4);
        for &depth in depths {
            let oracle = OracleSpec::errors(&data, depth);
            let keep = |tree: &OracleTree| {
                leaf_sizes(&data, tree).iter().all(|&rows| {
                    min.is_none_or(|min| rows >= min) && max.is_none_or(|max| rows <= max)
                })
            };
            let expected = optimum_where(&data, &oracle, &keep).expect("a tree meets them");
            let free = optimum_where(&data, &oracle, &|_| true).expect("a leaf");
            binds |= free.errors < expected.errors;
            for name in crate::side_constraints::FORMULATIONS {
                for solver in crate::side_constraints::SOLVERS {
                    let errors = constrained_errors(name, solver, &data, depth, &spec);
                    assert_eq!(
                        errors, expected.errors,
                        "{name} on {solver:?}, seed {seed}, depth {depth}: {spec:?}"
                    );
                }
            }
        }
    }
    assert!(binds, "the bounds never bind: {spec:?}");
}

#[test]
fn at_most_n_rows_per_leaf_reaches_the_filtered_optimum() {
    check_bounds(None, Some(5), &[2]);
    check_bounds(None, Some(8), &[1]);
}

#[test]
fn at_least_n_rows_per_reached_leaf_reaches_the_filtered_optimum() {
    check_bounds(Some(4), None, &[1, 2]);
}

#[test]
fn rows_per_leaf_between_bounds_reach_the_filtered_optimum() {
    check_bounds(Some(3), Some(6), &[2]);
}

/// The data of the command-line tests, as a CSV file (14 rows).
fn data_file() -> (tempfile::TempDir, std::path::PathBuf) {
    temp_file("data.csv", &to_csv(&random_dataset(11, 14, 3, 2, 4)))
}

#[test]
fn bounds_no_tree_meets_report_infeasible_and_exit_1() {
    let (_dir, data) = data_file();
    // Depth 1 has at most two leaves for 14 rows: one has at least 7; and no leaf of 15.
    for (formulation, solver, bound) in [
        ("oct", "cbc", ["--max-leaf-rows", "6"]),
        ("binoct", "highs", ["--max-leaf-rows", "6"]),
        ("flowoct", "highs", ["--max-leaf-rows", "6"]),
    ] {
        let output = milptree(&[
            "solve",
            path_str(&data),
            "--formulation",
            formulation,
            "--solver",
            solver,
            "--depth",
            "1",
            bound[0],
            bound[1],
            "--json",
            "--quiet",
        ]);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        let report: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("a JSON report");
        assert_eq!(report["termination"], "infeasible", "{report}");
    }
}

#[test]
fn the_report_gives_the_rows_of_each_leaf_and_the_searches_refuse_the_bounds() {
    let (_dir, data) = data_file();
    let output = milptree(&[
        "solve",
        path_str(&data),
        "--formulation",
        "flowoct",
        "--depth",
        "2",
        "--max-leaf-rows",
        "5",
        "--min-leaf-rows",
        "2",
        "--json",
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let sizes = report["side_constraints"]["leaf_rows"]
        .as_object()
        .expect("the rows of each leaf");
    let rows: Vec<u64> = sizes.values().filter_map(|v| v.as_u64()).collect();
    assert_eq!(rows.iter().sum::<u64>(), 14, "{report}");
    assert!(rows.iter().all(|&r| (2..=5).contains(&r)), "{report}");
    // Two leaves cannot hold 14 rows at 3 each.
    for (solver, named) in [
        (
            "dp",
            "the exact search proves that there is no tree of depth 1",
        ),
        ("sparse", "proves that there is no tree of depth 1"),
    ] {
        crate::common::assert_usage_error(
            &[
                "solve",
                path_str(&data),
                "--solver",
                solver,
                "--depth",
                "1",
                "--max-leaf-rows",
                "3",
                "--quiet",
            ],
            named,
        );
    }
    // A leaf minimum above the training rows is refused up front, alike by every method.
    for method in [["--formulation", "flowoct"], ["--solver", "dp"]] {
        let args = [
            "solve",
            path_str(&data),
            method[0],
            method[1],
            "--depth",
            "1",
            "--min-leaf-rows",
            "15",
            "--quiet",
        ];
        let output = milptree(&args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains("no tree can meet it"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    crate::common::assert_usage_error(
        &[
            "solve",
            path_str(&data),
            "--formulation",
            "oct",
            "--depth",
            "1",
            "--min-leaf-rows",
            "4",
            "--max-leaf-rows",
            "3",
            "--quiet",
        ],
        "min_leaf_rows = 4 is above max_leaf_rows = 3",
    );
}
