//! The `path` command (the sparse search over leaf penalties) on fractional row weights that
//! are whole multiples of one unit per class: each penalty's objective is the exhaustive
//! weighted oracle's at depths 1 to 3, the same as for the weights times a common multiple as
//! whole numbers, and the F1 objective (which counts rows) is refused by name.

use milptree::score::Objective;

use crate::common::{milptree, path_str, random_dataset, stderr, temp_file, to_weighted_csv};
use crate::row_weights_search::{close, sparse_oracle};

#[test]
fn the_path_on_factored_weights_equals_the_weighted_oracle() {
    // Balanced weights of 12 rows, 5 negatives and 7 positives, times 1 or 2: multiples of 1.2
    // and 6/7; times 35 whole numbers.
    let mut seed = 0;
    let plain = loop {
        let data = random_dataset(300 + seed, 12, 2, 2, 3);
        if data.class_counts() == [5, 7] {
            break data;
        }
        seed += 1;
    };
    let weights: Vec<f64> = (0..plain.n_rows())
        .map(|i| [1.2, 6.0 / 7.0][plain.labels()[i]] * (1 + i % 2) as f64)
        .collect();
    let whole: Vec<f64> = weights.iter().map(|w| (w * 35.0).round()).collect();
    let data = plain.clone().with_weights(weights).expect("valid");
    let scaled = plain.with_weights(whole).expect("valid");
    let (_dir, file) = temp_file("balanced.csv", &to_weighted_csv(&data));
    let (_dir2, whole_file) = temp_file("whole.csv", &to_weighted_csv(&scaled));
    let run = |file: &str, depth: &str, extra: &[&str]| {
        let mut args = vec![
            "path",
            file,
            "--weight-column",
            "w",
            "--depth",
            depth,
            "--leaf-penalty",
            "0.01,0.05,0.2",
            "--json",
        ];
        args.extend(extra);
        milptree(&args)
    };
    let objectives = |output: std::process::Output| -> Vec<f64> {
        assert!(output.status.success(), "{}", stderr(&output));
        let document: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        document["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|row| row["objective"].as_f64().expect("an objective"))
            .collect()
    };
    for depth in 1..=3usize {
        let text = depth.to_string();
        let found = objectives(run(path_str(&file), &text, &[]));
        let multiples = objectives(run(path_str(&whole_file), &text, &[]));
        for ((penalty, value), multiple) in [0.01, 0.05, 0.2].iter().zip(&found).zip(&multiples) {
            let what = format!("depth {depth} penalty {penalty}");
            let costs = Objective::Accuracy.class_weights(&data);
            close(*value, sparse_oracle(&data, depth, costs, *penalty), &what);
            close(*value, *multiple, &format!("{what} whole multiples"));
        }
    }
    let output = run(path_str(&file), "2", &["--objective", "f1"]);
    assert_eq!(output.status.code(), Some(2));
    let text = stderr(&output);
    assert!(text.contains("--weight-column"), "{text}");
}
