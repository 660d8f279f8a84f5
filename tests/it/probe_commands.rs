//! The command line at the edges a probe found: every command and option behaves as documented
//! or is refused up front (exit 2, naming the option), never a panic, a wrong resume or a
//! contradiction a solver's own stop explains.
//!
//! - `tune --out-dir` resumes only a run of the same data: any option or file change that
//!   changes the training rows or features is refused, naming `--out-dir`;
//! - `tune` refuses absurd repeats, threads and depth ranges at once; `--solver` for a search;
//!   OLCT on missing values before any fold; OCT fits a leaf on a fold of one class; the sparse
//!   search's shared paths learn over missing values as single fits do;
//! - `pareto` with weights that drop or repeat rows, a `--mip-gap` stop, `--na-values` with a
//!   leading `-`, and `predict` without the `--strict` it never had.

use std::path::Path;

use serde_json::Value;

use crate::common::{
    assert_usage_error, dataset, milptree, milptree_json, path_str, random_dataset, stderr,
    temp_file, to_csv,
};

fn tune(args: &[&str]) -> std::process::Output {
    milptree(&[&["tune", "--json", "--quiet"][..], args].concat())
}

/// A tuning run's report, which must succeed.
fn tuned(args: &[&str]) -> Value {
    let output = tune(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    serde_json::from_slice(&output.stdout).expect("one JSON document")
}

/// Data with a text column, a column with missing cells (`-999` and `NA`) and a numeric one.
fn mixed_file(dir: &Path) -> std::path::PathBuf {
    let mut text = String::from("colour,size,weight,class\n");
    for i in 0..40 {
        let colour = ["red", "green", "blue"][i % 3];
        let size = if i % 7 == 0 {
            "-999".to_string()
        } else {
            (i % 5).to_string()
        };
        let weight = if i % 11 == 0 {
            "NA".to_string()
        } else {
            (i % 9).to_string()
        };
        let class = if (i % 5) + (i % 3) > 3 { "yes" } else { "no" };
        text.push_str(&format!("{colour},{size},{weight},{class}\n"));
    }
    let path = dir.join("mixed.csv");
    std::fs::write(&path, text).expect("written");
    path
}

#[test]
fn a_tuning_run_resumes_only_on_the_same_rows_and_features() {
    let dir = tempfile::tempdir().expect("a directory");
    let data = mixed_file(dir.path());
    let out = dir.path().join("run");
    let base = [
        path_str(&data),
        "--method",
        "dp",
        "--depth",
        "1..2",
        "--folds",
        "3",
        "--out-dir",
        path_str(&out),
    ];
    let first = tuned(&base);
    assert_eq!(first["fits_run"], 6);
    assert_eq!(tuned(&base)["fits_reused"], 6, "the same run resumes");
    let refused = |extra: &[&str]| {
        let output = tune(&[&base[..], extra].concat());
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{extra:?}: {text}");
        assert!(text.contains("--out-dir"), "{extra:?}: {text}");
    };
    refused(&["--ignore", "weight"]);
    refused(&["--categorical", "size"]);
    refused(&["--na-values", "-999"]);
    refused(&["--target", "colour"]);
    refused(&["--test-fraction", "0.25"]);
    // The file rewritten with one cell changed.
    let text = std::fs::read_to_string(&data).expect("read");
    std::fs::write(&data, text.replacen("red,1,", "red,2,", 1)).expect("written");
    refused(&[]);
}

#[test]
fn tune_refuses_absurd_counts_and_options_that_do_not_apply_up_front() {
    let iris = dataset("iris");
    let data = path_str(&iris);
    let started = std::time::Instant::now();
    for (args, option) in [
        (
            &["--method", "dp", "--repeats", "1000000000"][..],
            "--repeats",
        ),
        (&["--method", "dp", "--threads", "100000"], "--threads"),
        (&["--method", "dp", "--depth", "1..1000000"], "--depth"),
        (&["--method", "dp", "--depth", "25"], "--depth"),
        (&["--method", "dp", "--min-leaf", "1..100000"], "--min-leaf"),
        (&["--method", "dp", "--solver", "cbc"], "--solver"),
        (&["--method", "sparse", "--solver", "highs"], "--solver"),
    ] {
        assert_usage_error(&[&["tune", data][..], args].concat(), option);
    }
    // Refused before anything is read or fitted.
    assert!(started.elapsed().as_secs_f64() < 10.0);
    for (args, option) in [
        (
            &["--solver", "dp", "--depth", "1", "--threads", "100000"][..],
            "--threads",
        ),
        (&["--solver", "sparse", "--threads", "100000"], "--threads"),
    ] {
        assert_usage_error(&[&["solve", data][..], args].concat(), option);
    }
    assert_usage_error(
        &[
            "pareto",
            path_str(&dataset("breast_cancer")),
            "--depth",
            "1",
            "--threads",
            "100000",
        ],
        "--threads",
    );
}

#[test]
fn tune_refuses_olct_on_missing_values_before_any_fold() {
    let dir = tempfile::tempdir().expect("a directory");
    let data = mixed_file(dir.path());
    let output = tune(&[
        path_str(&data),
        "--method",
        "olct",
        "--depth",
        "1",
        "--folds",
        "3",
    ]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(
        text.contains("missing") && !text.contains("fits run"),
        "{text}"
    );
}

#[test]
fn oct_fits_a_leaf_on_a_fold_of_one_class() {
    // One row of class b: two folds of three train on class a alone.
    let mut text = String::from("x,class\n");
    for i in 0..9 {
        text.push_str(&format!("{i},{}\n", if i == 4 { "b" } else { "a" }));
    }
    let (_dir, path) = temp_file("one.csv", &text);
    let report = tuned(&[
        path_str(&path),
        "--method",
        "oct",
        "--depth",
        "1",
        "--folds",
        "3",
    ]);
    assert_eq!(report["rows"][0]["failed"], 0, "{report}");
    assert!(report["chosen"].is_string(), "{report}");
}

#[test]
fn shared_sparse_paths_learn_over_missing_values_as_single_fits_do() {
    let penguins = dataset("penguins");
    let args = [
        path_str(&penguins),
        "--method",
        "sparse",
        "--leaf-penalty",
        "0.01,0.05",
        "--folds",
        "3",
    ];
    let shared = tuned(&args);
    let alone = tuned(&[&args[..], &["--no-share"]].concat());
    for (a, b) in shared["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .zip(alone["rows"].as_array().expect("rows"))
    {
        assert_eq!(a["failed"], 0, "{a}");
        assert_eq!(a["mean"], b["mean"], "{a} {b}");
    }
}

#[test]
fn pareto_takes_weights_that_drop_and_repeat_rows() {
    let (dir, path) = temp_file("p.csv", "x,w,class\n1,0,a\n2,1,b\n3,2,c\n4,1,a\n");
    let out = dir.path().join("front");
    let output = milptree(&[
        "pareto",
        path_str(&path),
        "--depth",
        "1",
        "--positive-class",
        "c",
        "--weight-column",
        "w",
        "--quiet",
        "--out-dir",
        path_str(&out),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    // Every tree maps the data's three classes to the two it learned.
    let trees: Vec<_> = std::fs::read_dir(out.join("trees"))
        .expect("trees")
        .collect();
    assert!(!trees.is_empty());
    for entry in trees {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("read");
        let tree: Value = serde_json::from_str(&text).expect("JSON");
        let map = &tree["learned_by"]["relabel"]["map"];
        assert_eq!(map["c"], "c", "{tree}");
        assert_eq!(map["a"], "not c", "{tree}");
        assert_eq!(map["b"], "not c", "{tree}");
    }
}

#[test]
fn a_solve_stopped_by_its_relative_gap_is_not_a_contradiction() {
    // Noisy data on which CART's start is not optimal at depth 2; `--mip-gap 1` stops the
    // solver at its first incumbent, which it calls optimal with a bound far below.
    let mut stopped = 0;
    for seed in 0..6u64 {
        let data = random_dataset(60 + seed, 40, 3, 2, 5);
        let (_dir, path) = temp_file("gap.csv", &to_csv(&data));
        for formulation in ["flowoct", "binoct"] {
            let output = milptree(&[
                "solve",
                path_str(&path),
                "--formulation",
                formulation,
                "--depth",
                "2",
                "--mip-gap",
                "1",
                "--warm-start",
                "greedy",
                "--json",
                "--quiet",
            ]);
            assert!(
                output.status.success(),
                "seed {seed} {formulation}: {}",
                stderr(&output)
            );
            let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
            let verdict = report["certificate"]["verdict"].as_str().unwrap_or("");
            assert_ne!(
                verdict, "CONTRADICTION",
                "seed {seed} {formulation}: {report}"
            );
            if verdict == "incumbent_suboptimal" {
                stopped += 1;
                // The better tree is the one returned.
                let search = report["certificate"]["dp"]["objective"].as_f64();
                assert_eq!(report["evaluated_objective"].as_f64(), search, "{report}");
            }
        }
    }
    assert!(stopped > 0, "no run stopped short of the optimum");
}

#[test]
fn na_values_may_begin_with_a_dash_and_predict_has_no_strict() {
    let (_dir, path) = temp_file("na.csv", "x,y,class\n1,-999,a\n2,5,b\n3,unknown,a\n4,6,b\n");
    let report = milptree_json(&[
        "solve",
        path_str(&path),
        "--solver",
        "dp",
        "--depth",
        "1",
        "--na-values",
        "-999,unknown",
        "--json",
        "--quiet",
    ]);
    // `y` is a numeric feature with two missing cells (as text it would give four features).
    assert_eq!(report["data"]["features"], 2, "{report}");
    let output = milptree(&["predict", "--tree", "t.json", path_str(&path), "--strict"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--strict"), "{}", stderr(&output));
}
