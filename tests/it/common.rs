//! Test helpers: running the `milptree` binary, temporary files, random small datasets.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use milptree::data::Dataset;
use milptree::tree::{Split, Tree, TreeBuilder};
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

/// Runs milptree with `args` and asserts a usage error: exit code 2, `named` on stderr.
pub fn assert_usage_error(args: &[&str], named: &str) {
    let output = milptree(args);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {text}");
    assert!(text.contains(named), "{args:?}: `{named}` not in {text}");
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

/// A random dataset whose features take different numbers of integer values (`levels[j]` for
/// feature `j`), so their candidate counts differ and need not be powers of two; ties occur, and
/// the last `duplicates` rows repeat earlier rows exactly (label included).
pub fn mixed_dataset(seed: u64, n: usize, levels: &[u32], k: usize, duplicates: usize) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut rows: Vec<Vec<f64>> = (0..n - duplicates)
        .map(|_| {
            levels
                .iter()
                .map(|&m| f64::from(rng.random_range(0..m)))
                .collect()
        })
        .collect();
    let mut labels: Vec<usize> = (0..rows.len()).map(|_| rng.random_range(0..k)).collect();
    for (class, label) in labels.iter_mut().enumerate().take(k) {
        *label = class;
    }
    for _ in 0..duplicates {
        let i = rng.random_range(0..rows.len());
        rows.push(rows[i].clone());
        labels.push(labels[i]);
    }
    Dataset::from_parts(
        format!("mixed(seed={seed})"),
        (0..levels.len()).map(|j| format!("x{j}")).collect(),
        (0..k).map(|c| format!("c{c}")).collect(),
        rows,
        labels,
    )
    .expect("a valid random dataset")
}

/// A random axis-aligned tree of depth at most `depth` over `data`'s features: thresholds are
/// candidates, data values, values between them, or outside the data's range; leaves may stop
/// above the last level.
pub fn random_tree(data: &Dataset, depth: usize, seed: u64) -> Tree {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut builder =
        TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), depth).expect("depth");
    let mut open = vec![(1usize, 0usize)];
    while let Some((id, level)) = open.pop() {
        if level == depth || (level > 0 && rng.random_bool(0.25)) {
            builder
                .leaf(id, rng.random_range(0..data.n_classes()))
                .expect("leaf");
            continue;
        }
        let feature = rng.random_range(0..data.n_features());
        let column = data.feature_column(feature);
        let lowest = column.iter().copied().fold(f64::INFINITY, f64::min);
        let highest = column.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let threshold = match rng.random_range(0..4) {
            0 => column[rng.random_range(0..column.len())],
            1 => column[rng.random_range(0..column.len())] + 0.5,
            2 => rng.random_range(lowest - 1.0..=highest + 1.0),
            _ => {
                if rng.random_bool(0.5) {
                    lowest - 0.5
                } else {
                    highest
                }
            }
        };
        builder
            .split(id, Split::Axis { feature, threshold })
            .expect("split");
        open.push((2 * id, level + 1));
        open.push((2 * id + 1, level + 1));
    }
    builder.build().expect("a valid random tree")
}

/// `data` as a CSV file: features `x0,x1,...`, then the label column `label` (`c0`, `c1`, ...).
pub fn to_csv(data: &Dataset) -> String {
    let header: Vec<String> = (0..data.n_features()).map(|j| format!("x{j}")).collect();
    let mut text = format!("{},label\n", header.join(","));
    for (row, &label) in data.rows().iter().zip(data.labels()) {
        let cells: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        text.push_str(&format!("{},c{label}\n", cells.join(",")));
    }
    text
}

/// `data` with random row weights drawn from a few values so that ties occur: whole numbers
/// 0 to 3 when `integer`, else values among 0, 0.5, 1, the square root of 2 and e (no common
/// unit: the searches refuse them).
pub fn with_random_weights(data: Dataset, seed: u64, integer: bool) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_0f3e);
    let choices: &[f64] = if integer {
        &[0.0, 1.0, 1.0, 2.0, 3.0]
    } else {
        &[0.0, 0.5, 1.0, std::f64::consts::SQRT_2, std::f64::consts::E]
    };
    let mut weights: Vec<f64> = (0..data.n_rows())
        .map(|_| choices[rng.random_range(0..choices.len())])
        .collect();
    // Not every weight may be 0.
    if weights.iter().all(|&w| w == 0.0) {
        weights[0] = 1.0;
    }
    data.with_weights(weights).expect("valid random weights")
}

/// The unweighted data in which each row of `data` (whole-number weights) is repeated its
/// weight's number of times: the data a weighted learner must treat `data` as.
pub fn repeated_rows(data: &Dataset) -> Dataset {
    let indices: Vec<usize> = (0..data.n_rows())
        .flat_map(|i| {
            let w = data.weight(i);
            assert!(w.fract() == 0.0, "repeated_rows needs whole-number weights");
            std::iter::repeat_n(i, w as usize)
        })
        .collect();
    data.subset(&indices).without_weights()
}

/// `data` as a CSV file with a weight column `w` before the label (see [`to_csv`]).
pub fn to_weighted_csv(data: &Dataset) -> String {
    let header: Vec<String> = (0..data.n_features()).map(|j| format!("x{j}")).collect();
    let mut text = format!("{},w,label\n", header.join(","));
    for (i, (row, &label)) in data.rows().iter().zip(data.labels()).enumerate() {
        let cells: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        text.push_str(&format!(
            "{},{},c{label}\n",
            cells.join(","),
            data.weight(i)
        ));
    }
    text
}
