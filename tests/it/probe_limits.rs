//! Time limits of whole commands on data large enough to overrun them: a MILP whose model
//! cannot be built within the limit is stopped there with a message that says what to change
//! (exit 2, naming `--time-limit`); the front's search and the metric objectives it decides
//! end within a second of the limit, the trees of the points found rebuilt in that time. The
//! margins allow for a busy machine.

use std::path::PathBuf;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::common::{milptree, path_str, stderr, temp_file};

/// Seconds a command may run past its limit here: the one second promised, and one for a
/// machine busy with other tests.
const MARGIN: f64 = 2.0;

/// 4,000 rows, 40 features of 200 values, two noisy classes.
fn large_table() -> (tempfile::TempDir, PathBuf) {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut text: String = (0..40).map(|j| format!("f{j},")).collect();
    text.push_str("class\n");
    for _ in 0..4000 {
        let row: Vec<u32> = (0..40).map(|_| rng.random_range(0..200)).collect();
        for value in &row {
            text.push_str(&format!("{value},"));
        }
        let noise: u32 = rng.random_range(0..60);
        text.push_str(if (row[0] + row[1] + noise) % 3 == 0 {
            "a\n"
        } else {
            "b\n"
        });
    }
    temp_file("large.csv", &text)
}

/// Runs milptree with `args`; its output and wall-clock seconds.
fn timed(args: &[&str]) -> (std::process::Output, f64) {
    let started = Instant::now();
    let output = milptree(args);
    (output, started.elapsed().as_secs_f64())
}

#[test]
fn a_model_that_cannot_be_built_within_the_limit_is_stopped_there() {
    let (_dir, data) = large_table();
    for solver in ["highs", "cbc"] {
        let (output, seconds) = timed(&[
            "solve",
            path_str(&data),
            "--formulation",
            "oct",
            "--depth",
            "6",
            "--solver",
            solver,
            "--time-limit",
            "1",
            "--quiet",
        ]);
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{solver}: {text}");
        assert!(
            text.contains("--time-limit") && text.contains("still being built"),
            "{text}"
        );
        assert!(
            seconds <= 1.0 + MARGIN,
            "{solver}: {seconds} s on a 1 s limit"
        );
    }
}

#[test]
fn the_front_and_its_metrics_end_within_a_second_of_the_limit() {
    let (_dir, data) = large_table();
    let data = path_str(&data);
    let limited = ["--depth", "3", "--time-limit", "1", "--quiet"];
    for command in [
        &["pareto", data][..],
        &["solve", data, "--solver", "dp", "--objective", "f1"],
        &["solve", data, "--solver", "dp", "--objective", "mcc"],
    ] {
        let args = [command, &limited].concat();
        let (output, seconds) = timed(&args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        assert!(
            seconds <= 1.0 + MARGIN,
            "{args:?}: {seconds} s on a 1 s limit"
        );
    }
    // The points whose trees were not rebuilt in time are left out, and counted.
    let (output, _) = timed(&[
        "pareto",
        data,
        "--depth",
        "3",
        "--time-limit",
        "1",
        "--json",
    ]);
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let front = report["points"].as_array().expect("the points");
    assert!(!front.is_empty(), "{report}");
    assert!(report["search"]["trees_not_rebuilt"].is_u64(), "{report}");
}
