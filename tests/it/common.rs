//! Test helpers: running the `milptree` binary, temporary files, random small datasets.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use milptree::data::Dataset;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A bundled dataset's path.
pub fn dataset(name: &str) -> PathBuf {
    root().join("datasets").join(format!("{name}.csv"))
}

/// Runs `milptree` with `args`.
pub fn milptree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_milptree"))
        .args(args)
        .output()
        .expect("the milptree binary runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs `milptree` expecting success, and parses its stdout as JSON.
pub fn milptree_json(args: &[&str]) -> serde_json::Value {
    let output = milptree(args);
    assert!(
        output.status.success(),
        "milptree {args:?} failed: {}",
        stderr(&output)
    );
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON document")
}

/// Writes `contents` to a file `name` in a fresh temporary directory (kept alive by the guard).
pub fn temp_file(name: &str, contents: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join(name);
    std::fs::write(&path, contents).expect("the temporary file is written");
    (dir, path)
}

pub fn path_str(path: &Path) -> &str {
    path.to_str().expect("test paths are UTF-8")
}

/// A random dataset: `n` rows, `p` features taking `levels` distinct integer values (so ties
/// and duplicate rows occur), `k` classes; every class occurs at least once.
pub fn random_dataset(seed: u64, n: usize, p: usize, k: usize, levels: u32) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|_| {
            (0..p)
                .map(|_| f64::from(rng.random_range(0..levels)))
                .collect()
        })
        .collect();
    let mut labels: Vec<usize> = (0..n).map(|_| rng.random_range(0..k)).collect();
    for (class, label) in labels.iter_mut().enumerate().take(k) {
        *label = class;
    }
    Dataset::from_parts(
        format!("random(seed={seed})"),
        (0..p).map(|j| format!("x{j}")).collect(),
        (0..k).map(|c| format!("c{c}")).collect(),
        rows,
        labels,
    )
    .expect("a valid random dataset")
}
