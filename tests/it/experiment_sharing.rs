//! Several `milptree experiment` processes on one results directory: no row is lost and no run
//! is solved twice, whether their grids are disjoint, overlap or are the same; a run claimed
//! by a live worker is left to it, and a claim left by a dead one is taken over.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

use milptree::experiment::ResultsStore;

use crate::common::{dataset, path_str, stderr, stdout};

/// `milptree experiment` on `datasets`, OCT depth 1 on HiGHS, cold and warm, with `seeds`,
/// into `out`, started (not waited for).
fn start_grid(out: &Path, datasets: &str, seeds: &str) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_milptree"))
        .args([
            "experiment",
            "--datasets",
            datasets,
            "--depths",
            "1",
            "--formulations",
            "oct",
            "--solvers",
            "highs",
            "--warm-starts",
            "none,greedy",
            "--seeds",
            seeds,
            "--time-limit",
            "30",
            "--out",
            path_str(out),
            "--quiet",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("milptree runs")
}

fn iris() -> String {
    path_str(&dataset("iris")).to_string()
}

/// "runs solved now: N" of an experiment's output.
fn solved_now(output: &Output) -> usize {
    assert!(output.status.success(), "{}", stderr(output));
    let text = stdout(output);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("runs solved now: "))
        .unwrap_or_else(|| panic!("no count in {text}"));
    line.split(';')
        .next()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no count in {line}"))
}

/// The run keys in `runs.csv`, and how many rows it has.
fn recorded(out: &Path) -> (BTreeSet<String>, usize) {
    let mut reader = csv::Reader::from_path(out.join("runs.csv")).expect("runs.csv");
    let keys: Vec<String> = reader
        .records()
        .map(|r| r.expect("a row")[0].to_string())
        .collect();
    let rows = keys.len();
    (keys.into_iter().collect(), rows)
}

/// Two grids (their seeds) at once on one directory: the runs each solved, the table's keys
/// and rows, and the claim files left.
fn two_at_once(seeds_a: &str, seeds_b: &str) -> (usize, usize, BTreeSet<String>, usize, usize) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("results");
    let data = iris();
    let a = start_grid(&out, &data, seeds_a);
    let b = start_grid(&out, &data, seeds_b);
    let a = a.wait_with_output().expect("grid a ends");
    let b = b.wait_with_output().expect("grid b ends");
    let (keys, rows) = recorded(&out);
    (
        solved_now(&a),
        solved_now(&b),
        keys,
        rows,
        claims_left(&out),
    )
}

/// Claim files left in `out/claims/` (none when the directory is missing).
fn claims_left(out: &Path) -> usize {
    std::fs::read_dir(out.join("claims")).map_or(0, Iterator::count)
}

/// Runs in a grid of `seeds` seeds: cold and warm.
fn runs(seeds: usize) -> usize {
    2 * seeds
}

#[test]
fn disjoint_grids_on_one_directory_keep_every_row() {
    let (a, b, keys, rows, claims) = two_at_once("0,1,2", "3,4,5");
    assert_eq!(rows, runs(6));
    assert_eq!(keys.len(), runs(6));
    assert_eq!((a, b), (runs(3), runs(3)));
    assert_eq!(claims, 0, "claims left behind");
}

#[test]
fn overlapping_and_identical_grids_solve_each_run_once() {
    for (seeds_a, seeds_b, distinct) in [("0,1,2,3", "2,3,4,5", 6), ("0,1,2,3", "0,1,2,3", 4)] {
        let (a, b, keys, rows, claims) = two_at_once(seeds_a, seeds_b);
        assert_eq!(
            a + b,
            runs(distinct),
            "{seeds_a} and {seeds_b}: {a} + {b} solves"
        );
        assert_eq!(rows, runs(distinct), "{seeds_a} and {seeds_b}");
        assert_eq!(keys.len(), rows, "a run recorded twice");
        assert_eq!(claims, 0, "claims left behind");
    }
}

#[test]
fn a_claimed_run_is_left_to_its_worker_and_a_dead_claim_is_taken_over() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("results");
    let iris = iris();
    let held_key = "iris_oct_d1_highs_none_s0_t30_f0.25";
    // This process plays a live worker solving one run of the grid.
    let mut store = ResultsStore::open(&out).expect("the results directory");
    let held = store.claim(held_key).expect("no error").expect("claimed");
    let output = start_grid(&out, &iris, "0,1")
        .wait_with_output()
        .expect("ends");
    assert_eq!(solved_now(&output), 3);
    let (keys, _) = recorded(&out);
    assert!(!keys.contains(held_key), "{keys:?}");
    assert_eq!(keys.len(), 3, "{keys:?}");
    drop(held);
    // A claim whose worker died: its file is there, its lock is gone.
    let dead_key = "iris_oct_d1_highs_greedy_s2_t30_f0.25";
    std::fs::write(
        out.join("claims").join(format!("{dead_key}.claim")),
        "host elsewhere\nprocess 1\n",
    )
    .expect("a stale claim");
    let output = start_grid(&out, &iris, "0,1,2")
        .wait_with_output()
        .expect("ends");
    assert_eq!(
        solved_now(&output),
        3,
        "the released run and both seed-2 runs"
    );
    let (keys, rows) = recorded(&out);
    assert!(
        keys.contains(held_key) && keys.contains(dead_key),
        "{keys:?}"
    );
    assert_eq!(rows, 6);
    assert_eq!(claims_left(&out), 0);
}
