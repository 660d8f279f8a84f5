//! Fuzzing of the commands that read user files, in process: random bytes and random
//! mutations of valid tree files fed to `show` and `predict`, and random rows (short, long,
//! NaN, text, huge numbers, odd line ends) fed to `predict`. Ten thousand runs, from a fixed
//! seed: none may panic, and every exit code is 0, 1 or 2.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use milptree::cli::run_in_memory;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use crate::common::path_str;

/// Runs of each kind; 10,000 in all.
const RANDOM_BYTE_TREES: usize = 2_000;
const MUTATED_TREES: usize = 5_000;
const RANDOM_ROW_FILES: usize = 3_000;

/// A CART tree over a numeric and a categorical column, as `greedy` writes it.
const TRAINING_CSV: &str = "\
x,colour,class
1,red,a
2,red,a
3,blue,b
4,blue,b
5,green,a
6,green,b
7,red,b
8,blue,a
";

/// A logistic tree: oblique splits over standardised features, with a relabelling rule.
fn oblique_tree() -> Value {
    json!({
        "format": "milptree-tree",
        "version": 1,
        "depth": 2,
        "target": "class",
        "columns": [
            {"name": "x", "kind": "numeric"},
            {"name": "colour", "kind": "categorical", "categories": ["blue", "green", "red"]},
            {"name": "class", "kind": "target"}
        ],
        "features": ["x", "colour=blue", "colour=green", "colour=red"],
        "classes": ["a", "not a"],
        "standardisation": {"mean": [4.5, 0.375, 0.25, 0.375], "scale": [2.29, 0.48, 0.43, 0.48]},
        "nodes": [
            {"id": 1, "kind": "oblique", "weights": [1.0, 0.0, -0.5, 0.0], "bias": 0.1, "counts": [4, 4]},
            {"id": 2, "kind": "oblique", "weights": [0.3, 1.0, 0.0, 0.0], "bias": -0.2, "counts": [3, 1]},
            {"id": 3, "kind": "oblique", "weights": [0.0, 0.0, 0.0, 0.0], "bias": 1.0, "counts": [1, 3]},
            {"id": 4, "kind": "leaf", "class": 0, "label": "a", "counts": [3, 0]},
            {"id": 5, "kind": "leaf", "class": 1, "label": "not a", "counts": [0, 1]},
            {"id": 6, "kind": "leaf", "class": 0, "label": "a", "counts": [0, 0]},
            {"id": 7, "kind": "leaf", "class": 1, "label": "not a", "counts": [1, 3]}
        ],
        "learned_by": {"method": "olct", "relabel": {"map": {"a": "a", "b": "not a"}}}
    })
}

/// Runs the command line in process; panics and exit codes other than 0, 1 and 2 fail the
/// test with the case that caused them.
fn run(args: &[&str], case: &str) -> i32 {
    let mut line = vec!["milptree"];
    line.extend_from_slice(args);
    let outcome = catch_unwind(AssertUnwindSafe(|| run_in_memory(line.clone())));
    let Ok((code, captured)) = outcome else {
        panic!("milptree {args:?} panicked on {case}");
    };
    let stderr = String::from_utf8_lossy(&captured.stderr);
    assert!(
        matches!(code, 0..=2),
        "milptree {args:?} exited with {code} on {case}: {stderr}"
    );
    if code != 0 {
        assert!(
            stderr.starts_with("error: ") && !stderr.contains("internal error"),
            "milptree {args:?} on {case}: {stderr}"
        );
    }
    code
}

fn show_and_predict(tree: &Path, data: &Path, rng: &mut ChaCha8Rng, case: &str) -> i32 {
    let tree = path_str(tree);
    let code = if rng.random_bool(0.5) {
        let format = ["text", "dot", "json"]
            .choose(rng)
            .copied()
            .unwrap_or("text");
        run(&["show", tree, "--format", format], case)
    } else if rng.random_bool(0.5) {
        run(&["predict", "--tree", tree, path_str(data), "--json"], case)
    } else {
        run(
            &["predict", "--tree", tree, path_str(data), "--proba"],
            case,
        )
    };
    code
}

/// A JSON value of a random kind, with the numbers and strings that break things most.
fn random_value(rng: &mut ChaCha8Rng) -> Value {
    match rng.random_range(0..14) {
        0 => json!(0),
        1 => json!(-1),
        2 => json!(rng.random_range(0..20)),
        3 => json!(u64::MAX),
        4 => json!(i64::MIN),
        5 => json!(1.7e308),
        6 => json!(-2.5e-308),
        7 => json!(rng.random::<f64>() * 10.0 - 5.0),
        8 => json!(""),
        9 => json!(["colour=red", "x", "a"].choose(rng).copied().unwrap_or("x")),
        10 => Value::Null,
        11 => json!(true),
        12 => json!([]),
        _ => json!({}),
    }
}

/// Every path to a value in `value`, as keys and indexes.
fn paths(value: &Value, prefix: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(prefix.clone());
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                prefix.push(json!(key));
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                prefix.push(json!(index));
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(value: &'a mut Value, path: &[Value]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |current, step| match step {
        Value::String(key) => current.get_mut(key.as_str()),
        Value::Number(index) => current.get_mut(index.as_u64()? as usize),
        _ => None,
    })
}

/// A structural mutation: replace, remove or duplicate a random part of the tree.
fn mutate_value(tree: &mut Value, rng: &mut ChaCha8Rng) {
    let mut all = Vec::new();
    paths(tree, &mut Vec::new(), &mut all);
    let Some(path) = all.choose(rng).cloned() else {
        return;
    };
    match rng.random_range(0..4) {
        0 | 1 => {
            if let Some(target) = at(tree, &path) {
                *target = random_value(rng);
            }
        }
        2 => {
            let Some((last, parent_path)) = path.split_last() else {
                return;
            };
            match (at(tree, parent_path), last) {
                (Some(Value::Object(map)), Value::String(key)) => {
                    map.remove(key);
                }
                (Some(Value::Array(items)), Value::Number(index)) => {
                    if let Some(index) = index.as_u64() {
                        items.remove(index as usize);
                    }
                }
                _ => {}
            }
        }
        _ => {
            if let Some(Value::Array(items)) = at(tree, &path) {
                if let Some(item) = items.choose(rng).cloned() {
                    items.push(item);
                }
            }
        }
    }
}

/// A byte-level mutation: flip, delete, insert or duplicate bytes.
fn mutate_bytes(bytes: &mut Vec<u8>, rng: &mut ChaCha8Rng) {
    if bytes.is_empty() {
        bytes.push(rng.random());
        return;
    }
    let at = rng.random_range(0..bytes.len());
    match rng.random_range(0..4) {
        0 => bytes[at] = rng.random(),
        1 => {
            let end = (at + rng.random_range(1..16)).min(bytes.len());
            bytes.drain(at..end);
        }
        2 => {
            let insert: Vec<u8> = (0..rng.random_range(1..8)).map(|_| rng.random()).collect();
            bytes.splice(at..at, insert);
        }
        _ => {
            let end = (at + rng.random_range(1..32)).min(bytes.len());
            let copy = bytes[at..end].to_vec();
            bytes.splice(at..at, copy);
        }
    }
}

/// One random cell: numbers, missing markers, text, huge and odd values.
fn random_cell(rng: &mut ChaCha8Rng) -> String {
    let cells = [
        "",
        "NaN",
        "nan",
        "inf",
        "-inf",
        "1e999",
        "1.7e308",
        "-1.7e308",
        "red",
        "blue",
        "purple",
        "a",
        "b",
        "c",
        "\"quoted, comma\"",
        "\"",
        "x",
        " 3 ",
        "0x10",
        "1_000",
        "?",
    ];
    if rng.random_bool(0.5) {
        format!("{}", rng.random_range(-10.0..10.0))
    } else {
        cells.choose(rng).copied().unwrap_or("").to_string()
    }
}

/// A CSV file of random rows under the tree's header (or another one), with random widths
/// and line ends.
fn random_rows(rng: &mut ChaCha8Rng) -> Vec<u8> {
    let headers = [
        "x,colour,class",
        "x,colour",
        "colour,x,class",
        "x",
        "",
        "\u{feff}x,colour",
    ];
    let header = if rng.random_bool(0.8) {
        headers[rng.random_range(0..2)]
    } else {
        headers.choose(rng).copied().unwrap_or("")
    };
    let end = ["\n", "\r\n", "\r"].choose(rng).copied().unwrap_or("\n");
    let mut text = format!("{header}{end}");
    for _ in 0..rng.random_range(0..6) {
        let width = match rng.random_range(0..4) {
            0 => rng.random_range(0..6),
            1 => 2,
            _ => 3,
        };
        let cells: Vec<String> = if width == 3 && rng.random_bool(0.6) {
            // A row that fits the tree, perhaps with a category or label it has not seen.
            let colour = ["red", "blue", "green", "purple"].choose(rng).copied();
            let label = ["a", "b", "c"].choose(rng).copied();
            vec![
                format!("{}", rng.random_range(-1e3..1e3)),
                colour.unwrap_or("red").to_string(),
                label.unwrap_or("a").to_string(),
            ]
        } else {
            (0..width).map(|_| random_cell(rng)).collect()
        };
        text.push_str(&cells.join(","));
        text.push_str(end);
    }
    text.into_bytes()
}

#[test]
fn random_and_mutated_inputs_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(20_260_501);
    // Ten thousand file writes: in memory where the system offers it, as disks shared by
    // several builds make them slow.
    let dir = tempfile::tempdir_in("/dev/shm")
        .or_else(|_| tempfile::tempdir())
        .expect("a temporary directory");
    let training = dir.path().join("training.csv");
    std::fs::write(&training, TRAINING_CSV).expect("training data written");
    let cart = dir.path().join("cart.json");
    let code = run(
        &[
            "greedy",
            path_str(&training),
            "--depth",
            "3",
            "-o",
            path_str(&cart),
        ],
        "the training data",
    );
    assert_eq!(code, 0);
    let bases: Vec<Vec<u8>> = vec![
        std::fs::read(&cart).expect("the CART tree"),
        serde_json::to_vec_pretty(&oblique_tree()).expect("JSON"),
    ];
    let tree = dir.path().join("tree.json");
    let data = dir.path().join("data.csv");
    let mut accepted = [0usize; 3];

    std::fs::write(&data, TRAINING_CSV).expect("data written");
    for case in 0..RANDOM_BYTE_TREES {
        let length = rng.random_range(0..200);
        let mut bytes: Vec<u8> = (0..length).map(|_| rng.random()).collect();
        if rng.random_bool(0.3) {
            // Random bytes that start like JSON get further.
            bytes.insert(0, b'{');
        }
        std::fs::write(&tree, &bytes).expect("tree written");
        let code = show_and_predict(&tree, &data, &mut rng, &format!("random bytes #{case}"));
        accepted[0] += usize::from(code == 0);
    }

    for case in 0..MUTATED_TREES {
        let base = bases.choose(&mut rng).cloned().unwrap_or_default();
        let bytes = if rng.random_bool(0.6) {
            let mut value: Value = serde_json::from_slice(&base).expect("a valid tree");
            for _ in 0..rng.random_range(1..4) {
                mutate_value(&mut value, &mut rng);
            }
            serde_json::to_vec(&value).expect("JSON")
        } else {
            let mut bytes = base;
            for _ in 0..rng.random_range(1..4) {
                mutate_bytes(&mut bytes, &mut rng);
            }
            bytes
        };
        std::fs::write(&tree, &bytes).expect("tree written");
        let code = show_and_predict(&tree, &data, &mut rng, &format!("mutated tree #{case}"));
        accepted[1] += usize::from(code == 0);
    }

    for case in 0..RANDOM_ROW_FILES {
        let base = bases.choose(&mut rng).cloned().unwrap_or_default();
        std::fs::write(&tree, &base).expect("tree written");
        std::fs::write(&data, random_rows(&mut rng)).expect("data written");
        let proba = if rng.random_bool(0.3) {
            "--proba"
        } else {
            "--json"
        };
        let code = run(
            &["predict", "--tree", path_str(&tree), path_str(&data), proba],
            &format!("random rows #{case}: {:?}", std::fs::read_to_string(&data)),
        );
        accepted[2] += usize::from(code == 0);
    }

    // The fuzzing reaches past the first checks: some mutated trees and some random rows are
    // still valid input.
    assert!(accepted[1] > MUTATED_TREES / 20, "{accepted:?}");
    assert!(accepted[2] > RANDOM_ROW_FILES / 20, "{accepted:?}");
}
