//! CBC in its own process, end to end through the command line: a time limit that falls in
//! CBC's preprocessing (where Debian's CBC 2.10 crashed with a warm start) ends in a report,
//! and a worker that dies is reported as `solver_error` with the incumbent its log showed.

use std::process::Command;

use serde_json::Value;

use crate::common::{dataset, path_str, stderr};

/// `milptree solve iris --formulation oct --depth D --solver cbc --time-limit L --json` with
/// the extra environment `env`: its exit code and its JSON report.
fn solve_iris_with_cbc(depth: &str, limit: &str, env: &[(&str, &str)]) -> (Option<i32>, Value) {
    let data = dataset("iris");
    let output = Command::new(env!("CARGO_BIN_EXE_milptree"))
        .args([
            "solve",
            path_str(&data),
            "--formulation",
            "oct",
            "--depth",
            depth,
            "--solver",
            "cbc",
            "--time-limit",
            limit,
            "--json",
            "--quiet",
        ])
        .envs(env.iter().copied())
        .output()
        .expect("milptree runs");
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}), status {:?}: {}",
            output.status,
            stderr(&output)
        )
    });
    (output.status.code(), report)
}

#[test]
fn a_limit_inside_cbc_preprocessing_ends_in_a_report() {
    for (depth, limit) in [("3", "0.1"), ("3", "0.2"), ("3", "0.3"), ("2", "0.1")] {
        let (code, report) = solve_iris_with_cbc(depth, limit, &[]);
        assert!(
            matches!(code, Some(0 | 1)),
            "depth {depth}, {limit} s: exit {code:?}"
        );
        assert_eq!(report["command"], "solve");
        assert_eq!(report["solver"], "cbc");
        let seconds = report["seconds"].as_f64().expect("seconds");
        let limit: f64 = limit.parse().expect("a number");
        assert!(seconds <= limit + 2.0, "{seconds} s on {limit} s");
    }
}

#[test]
fn a_worker_that_dies_after_its_first_incumbent_is_a_solver_error_with_it() {
    let (code, report) = solve_iris_with_cbc(
        "2",
        "20",
        &[("MILPTREE_TEST_ABORT_WORKER_AFTER_FIRST_INCUMBENT", "1")],
    );
    assert_eq!(code, Some(1), "{report}");
    assert_eq!(report["termination"], "solver_error");
    let error = report["error"].as_str().expect("the error text");
    assert!(error.contains("SIGABRT"), "{error}");
    assert!(error.contains("Cbc0045I"), "the last log lines: {error}");
    // The first incumbent is the greedy warm start, which CBC took: it is returned.
    assert_eq!(report["warm_start"]["accepted"], true);
    assert_eq!(report["has_solution"], true);
    assert_eq!(report["objective"], report["warm_start"]["objective"]);
    let objective = report["objective"].as_f64().expect("an objective");
    let evaluated = report["evaluated_objective"].as_f64().expect("evaluated");
    assert!(
        (objective - evaluated).abs() < 1e-9,
        "{objective} vs {evaluated}"
    );
    assert!(report["decode_mismatch"].is_null());
    assert!(report["tree"].is_object());
    assert!(report["first_incumbent"].is_number());
    assert!(report["time_to_first_incumbent"].is_number());
}

#[test]
fn the_worker_command_is_hidden() {
    let output = Command::new(env!("CARGO_BIN_EXE_milptree"))
        .arg("--help")
        .output()
        .expect("milptree runs");
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(
        help.contains("solve") && !help.contains("cbc-worker") && !help.contains("highs-worker"),
        "{help}"
    );
    let output = Command::new(env!("CARGO_BIN_EXE_milptree"))
        .arg("cbc-worker")
        .output()
        .expect("milptree runs");
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("not a job"), "{}", stderr(&output));
}
