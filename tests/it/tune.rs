//! `milptree tune`: stratified, reproducible folds; the choice is the table's best (or the
//! simplest within one standard error); the refitted tree is `solve`'s; a fold's validation
//! score is `predict`'s on that fold's rows with that fold's tree; a run directory resumes
//! without refitting what it holds; failing or time-limited fits are rows that say so.

use std::path::Path;

use milptree::tune::{fold_rows, stratified_folds};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::common::{milptree, milptree_json, path_str, random_dataset, stderr, to_csv};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Every fold holds floor or ceil of n_c / k rows of each class and of n / k in all; the
    /// same seed and repeat give the same folds.
    #[test]
    fn folds_are_stratified_and_deterministic(
        seed in 0u64..1000, n in 6usize..80, k in 2usize..6, classes in 2usize..4, repeat in 0usize..3
    ) {
        prop_assume!(k <= n);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let labels: Vec<usize> = (0..n).map(|_| rng.random_range(0..classes)).collect();
        let folds = stratified_folds(&labels, classes, k, seed, repeat).unwrap();
        prop_assert_eq!(&folds, &stratified_folds(&labels, classes, k, seed, repeat).unwrap());
        for fold in 0..k {
            let (train, validation) = fold_rows(&folds, fold);
            prop_assert_eq!(train.len() + validation.len(), n);
            prop_assert!(validation.len() == n / k || validation.len() == n.div_ceil(k));
            for class in 0..classes {
                let n_c = labels.iter().filter(|&&l| l == class).count();
                let in_fold = validation.iter().filter(|&&i| labels[i] == class).count();
                prop_assert!(in_fold == n_c / k || in_fold == n_c.div_ceil(k),
                    "class {} has {} of {} rows in fold {}", class, in_fold, n_c, fold);
            }
        }
    }
}

#[test]
fn repeats_and_seeds_change_the_folds() {
    let labels: Vec<usize> = (0..60).map(|i| i % 2).collect();
    let first = stratified_folds(&labels, 2, 5, 7, 0).unwrap();
    assert_ne!(first, stratified_folds(&labels, 2, 5, 7, 1).unwrap());
    assert_ne!(first, stratified_folds(&labels, 2, 5, 8, 0).unwrap());
    assert!(stratified_folds(&labels, 2, 1, 7, 0).is_err());
    assert!(stratified_folds(&labels, 2, 61, 7, 0).is_err());
}

/// A data file of random rows in `dir`.
fn data_file(dir: &Path, seed: u64, n: usize, k: usize) -> std::path::PathBuf {
    let path = dir.join("data.csv");
    std::fs::write(&path, to_csv(&random_dataset(seed, n, 3, k, 6))).unwrap();
    path
}

fn tune(args: &[&str]) -> Value {
    let mut all = vec!["tune", "--json", "--quiet"];
    all.extend_from_slice(args);
    milptree_json(&all)
}

fn number(value: &Value) -> f64 {
    value.as_f64().unwrap_or(f64::NAN)
}

#[test]
fn the_choice_is_the_best_mean_or_the_simplest_within_one_standard_error() {
    for seed in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let data = data_file(dir.path(), seed, 60, 2);
        for one_se in [false, true] {
            let mut args = vec![
                path_str(&data),
                "--method",
                "dp",
                "--depth",
                "1..4",
                "--folds",
                "4",
                "--repeats",
                "2",
            ];
            if one_se {
                args.push("--one-se");
            }
            let report = tune(&args);
            let rows = report["rows"].as_array().unwrap();
            assert_eq!(rows.len(), 4);
            let best = rows
                .iter()
                .map(|r| number(&r["mean"]))
                .fold(f64::MIN, f64::max);
            let chosen = rows
                .iter()
                .find(|r| r["label"] == report["chosen"])
                .expect("a chosen row");
            let mean = number(&chosen["mean"]);
            let best_row = rows.iter().find(|r| r["label"] == report["best"]).unwrap();
            assert_eq!(number(&best_row["mean"]), best);
            for row in rows {
                // Means recomputed from the stored scores would need the fits; the table's own
                // figures must at least agree with each other.
                assert_eq!(row["fits"], 8);
                let se = number(&row["se"]);
                assert!((se - number(&row["sd"]) / 8f64.sqrt()).abs() < 1e-12);
            }
            if one_se {
                let floor = best - number(&best_row["se"]);
                assert!(mean >= floor - 1e-12, "seed {seed}: {mean} below {floor}");
                let leaves = number(&chosen["leaves_mean"]);
                for row in rows.iter().filter(|r| number(&r["mean"]) >= floor) {
                    assert!(leaves <= number(&row["leaves_mean"]), "seed {seed}: {row}");
                }
            } else {
                assert_eq!(mean, best, "seed {seed}");
            }
        }
    }
}

/// The table's means are the means of the fits' stored validation scores.
#[test]
fn the_table_means_are_the_fits_means() {
    let dir = tempfile::tempdir().unwrap();
    let data = data_file(dir.path(), 11, 50, 3);
    let out = dir.path().join("run");
    let report = tune(&[
        path_str(&data),
        "--method",
        "dp",
        "--depth",
        "1,2",
        "--alpha",
        "0,0.05",
        "--folds",
        "3",
        "--metric",
        "balanced",
        "--out",
        path_str(&out),
    ]);
    let fits = read_fits(&out);
    for row in report["rows"].as_array().unwrap() {
        let label = row["label"].as_str().unwrap();
        let scores: Vec<f64> = fits
            .iter()
            .filter(|f| f["config"] == label)
            .map(|f| number(&f["validation"]["balanced_accuracy"]))
            .collect();
        assert_eq!(scores.len(), 3, "{label}");
        let mean = scores.iter().sum::<f64>() / 3.0;
        assert!((number(&row["mean"]) - mean).abs() < 1e-12, "{label}");
    }
}

fn read_fits(out: &Path) -> Vec<Value> {
    std::fs::read_to_string(out.join("fits.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn the_refitted_tree_is_solves_tree() {
    for (method, grid, solve_args) in [
        (
            "dp",
            vec!["--depth", "1..3", "--alpha", "0,0.02"],
            vec!["--solver", "dp"],
        ),
        (
            "sparse",
            vec!["--leaf-penalty", "0.01,0.03,0.1", "--depth", "3"],
            vec!["--solver", "sparse"],
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let data = data_file(dir.path(), 5, 70, 2);
        let out = dir.path().join("run");
        let mut args = vec![
            path_str(&data),
            "--method",
            method,
            "--folds",
            "3",
            "--seed",
            "4",
            "--test-fraction",
            "0.25",
            "--out",
            path_str(&out),
        ];
        args.extend_from_slice(&grid);
        let report = tune(&args);
        let config = &report["chosen_config"];
        let mut solve = vec![
            "solve".to_string(),
            path_str(&data).to_string(),
            "--quiet".into(),
            "--seed".into(),
            "4".into(),
            "--test-fraction".into(),
            "0.25".into(),
            "-o".into(),
            path_str(&dir.path().join("solve.json")).to_string(),
        ];
        solve.extend(solve_args.iter().map(|s| s.to_string()));
        for (key, option) in [
            ("depth", "--depth"),
            ("alpha", "--alpha"),
            ("leaf_penalty", "--leaf-penalty"),
        ] {
            if let Some(value) = config.get(key) {
                solve.push(option.into());
                solve.push(value.to_string());
            }
        }
        let solve: Vec<&str> = solve.iter().map(String::as_str).collect();
        let output = milptree(&solve);
        assert!(output.status.success(), "{}", stderr(&output));
        // The same file but for the run's wall time.
        let read = |path: &Path| -> Value {
            let mut file: Value =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            assert!(file["provenance"]["seconds"].is_number());
            file["provenance"]["seconds"] = Value::Null;
            file
        };
        assert_eq!(
            read(&out.join("tree.json")),
            read(&dir.path().join("solve.json")),
            "{method}: {config}"
        );
        assert!(report["refit"]["test"]["accuracy"].is_number());
    }
}

/// Each stored fit's validation accuracy and AUC are `predict`'s, with the fit's tree, on the
/// rows `folds.csv` puts in its fold.
#[test]
fn a_folds_validation_score_is_predict_on_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let data = data_file(dir.path(), 8, 45, 2);
    let out = dir.path().join("run");
    tune(&[
        path_str(&data),
        "--method",
        "dp",
        "--depth",
        "2",
        "--folds",
        "3",
        "--repeats",
        "2",
        "--out",
        path_str(&out),
    ]);
    let lines: Vec<String> = std::fs::read_to_string(&data)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let folds = std::fs::read_to_string(out.join("folds.csv")).unwrap();
    for fit in read_fits(&out) {
        let (repeat, fold) = (
            fit["repeat"].as_u64().unwrap(),
            fit["fold"].as_u64().unwrap(),
        );
        let mut csv = format!("{}\n", lines[0]);
        for line in folds.lines().skip(1) {
            let cells: Vec<u64> = line.split(',').map(|c| c.parse().unwrap()).collect();
            if cells[1] == repeat && cells[2] == fold {
                csv.push_str(&lines[cells[0] as usize + 1]);
                csv.push('\n');
            }
        }
        let fold_file = dir.path().join("fold.csv");
        std::fs::write(&fold_file, csv).unwrap();
        let tree = out.join(fit["tree_file"].as_str().unwrap());
        let predicted = milptree_json(&[
            "predict",
            "--tree",
            path_str(&tree),
            path_str(&fold_file),
            "--json",
        ]);
        assert_eq!(
            predicted["test"]["accuracy"], fit["validation"]["accuracy"],
            "{fit}"
        );
        assert_eq!(predicted["auc"], fit["validation"]["auc"], "{fit}");
    }
}

#[test]
fn an_interrupted_run_resumes_without_refitting() {
    let dir = tempfile::tempdir().unwrap();
    let data = data_file(dir.path(), 3, 60, 2);
    let out = dir.path().join("run");
    let args = [
        path_str(&data),
        "--method",
        "dp",
        "--depth",
        "1..3",
        "--folds",
        "3",
        "--out",
        path_str(&out),
    ];
    let first = tune(&args);
    assert_eq!(first["fits_run"], 9);
    // Cut the run short: four whole fits and half a line.
    let text = std::fs::read_to_string(out.join("fits.jsonl")).unwrap();
    let kept: Vec<&str> = text.lines().take(4).collect();
    let half = &text.lines().nth(4).unwrap()[..20];
    std::fs::write(
        out.join("fits.jsonl"),
        format!("{}\n{half}", kept.join("\n")),
    )
    .unwrap();
    let second = tune(&args);
    assert_eq!(second["fits_reused"], 4);
    assert_eq!(second["fits_run"], 5);
    assert_eq!(second["chosen"], first["chosen"]);
    for (a, b) in first["rows"]
        .as_array()
        .unwrap()
        .iter()
        .zip(second["rows"].as_array().unwrap())
    {
        assert_eq!(a["mean"], b["mean"]);
    }
    let after = std::fs::read_to_string(out.join("fits.jsonl")).unwrap();
    let after: Vec<&str> = after.lines().collect();
    assert_eq!(&after[..4], &kept[..], "the fits kept are not rewritten");
    assert_eq!(
        after
            .iter()
            .filter(|l| serde_json::from_str::<Value>(l).is_ok())
            .count(),
        9
    );
    // A third run fits nothing.
    assert_eq!(tune(&args)["fits_run"], 0);
    // Other settings in the same directory are refused.
    let mut other = args.to_vec();
    other[6] = "4";
    let output = milptree(&[&["tune", "--quiet"][..], &other[..]].concat());
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--out") && stderr(&output).contains("folds"));
}

/// A fit stopped by its time limit counts with its tree and its row says so; the run goes on.
#[test]
fn time_limited_fits_are_rows_that_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let data = data_file(dir.path(), 12, 80, 2);
    let output = milptree(&[
        "tune",
        path_str(&data),
        "--method",
        "oct",
        "--depth",
        "2",
        "--folds",
        "2",
        "--time-limit",
        "0.05",
        "--json",
        "--quiet",
    ]);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let row = &report["rows"][0];
    assert_eq!(row["fits"], 2);
    let limited = row["limited"].as_u64().unwrap() + row["failed"].as_u64().unwrap();
    if limited > 0 {
        assert_ne!(row["status"], "ok");
        assert!(number(&row["optimal_share"]) < 1.0);
    } else {
        assert_eq!(row["status"], "ok");
    }
}

#[test]
fn bad_grids_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = data_file(dir.path(), 1, 30, 3);
    for (args, option) in [
        (vec!["--method", "sparse", "--alpha", "0.1"], "--alpha"),
        (vec!["--method", "dp", "--depth", "3..1"], "--depth"),
        (
            vec!["--method", "dp", "--depth", "2", "--metric", "auc"],
            "--metric",
        ),
        (
            vec!["--method", "dp", "--depth", "2", "--folds", "1"],
            "--folds",
        ),
        (vec!["--method", "dp", "--depth", "1,1"], "--depth"),
        (vec!["--method", "cart", "--depth", "2"], "--method"),
        (vec!["--method", "dp", "--depth", "2", "--c", "1"], "--c"),
        (
            vec!["--method", "oct", "--depth", "2", "--leaf-penalty", "0"],
            "--leaf-penalty",
        ),
        // What the method does not take, by the capability table, as tune names the method.
        (
            vec!["--method", "dp", "--depth", "2", "--solver", "cbc"],
            "invalid --solver: does not apply to --method dp",
        ),
        (
            vec!["--method", "oct", "--depth", "1", "--positive-class", "1"],
            "invalid --positive-class: does not apply to --method oct",
        ),
        (
            vec!["--method", "olct", "--depth", "1", "--thresholds", "all"],
            "invalid --thresholds: does not apply to --method olct",
        ),
    ] {
        let mut all = vec!["tune", path_str(&data)];
        all.extend_from_slice(&args);
        let output = milptree(&all);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(option),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}
