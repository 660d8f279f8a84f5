//! Weights at extreme scales and the meaning of weighted options, against independent
//! references: class weights a billion times apart give the exhaustive oracle's optimum in the
//! exact and sparse searches (costs a whole error apart never merge) and a certificate that
//! agrees with the MILPs; weights no cost can resolve, or no solver can hold, are refused (exit
//! 2, naming the option); `--min-leaf` counts rows whatever their weights, in OCT's model, in
//! the plain evaluation, in CART, and the searches refuse what they cannot count; a weighted
//! tree's stored counts follow one rule whatever the method or unrelated options.

use milptree::data::Dataset;
use milptree::dp::{objective_of, DpProblem};
use milptree::greedy::{cart, CartParams};
use milptree::learn::sparse_search::SparseObjective;
use milptree::learn::{DpParams, LearnOptions, SparseParams};
use milptree::score::ClassWeight;
use milptree::tree::{NodeKind, Split, Tree, TreeBuilder};
use serde_json::Value;

use crate::common::{
    milptree, milptree_json, path_str, random_dataset, repeated_rows, stderr, temp_file,
    with_random_weights,
};
use crate::oracle::{optimum, OracleSpec};

/// The data of the probe: `x <= 3.5` misclassifies one row of `b`, a leaf `a` four.
const SIX_ROWS: &str = "x,class\n1,a\n2,b\n3,a\n4,b\n5,b\n6,b\n";

/// Class `c{k}` of `data` weighing `factors[k]`.
fn given(data: &Dataset, factors: &[f64]) -> Vec<ClassWeight> {
    factors
        .iter()
        .enumerate()
        .map(|(k, &weight)| ClassWeight {
            label: data.classes()[k].clone(),
            weight,
        })
        .collect()
}

/// The weighted errors of `tree` on `data` under `weights`, by plain counting.
fn weighted_errors(tree: &Tree, data: &Dataset, weights: &[f64]) -> f64 {
    data.rows()
        .iter()
        .zip(data.labels())
        .filter(|(row, &label)| tree.predict_row(row) != label)
        .map(|(_, &label)| weights[label])
        .sum()
}

#[test]
fn class_weights_a_billion_apart_give_the_oracles_optimum_in_both_searches() {
    for seed in 0..10u64 {
        let data = random_dataset(700 + seed, 10 + (seed % 4) as usize, 2, 2, 4);
        let depth = 1 + (seed % 2) as usize;
        for factors in [[2e9, 1.0], [1.0, 3e12], [5e6, 1.0]] {
            let what = format!("seed {seed} depth {depth} weights {factors:?}");
            let expected = optimum(
                &data,
                &OracleSpec {
                    class_weights: factors.to_vec(),
                    ..OracleSpec::errors(&data, depth)
                },
            )
            .objective;
            let search = DpParams {
                class_weights: given(&data, &factors),
                ..DpParams::default()
            }
            .check(depth)
            .expect("valid parameters");
            let outcome = search.run(&data, &LearnOptions::default()).expect("solved");
            // Whole numbers: the optimum is exact, and so is the tree's plain evaluation.
            assert_eq!(outcome.report.objective, Some(expected), "dp {what}");
            let tree = outcome.tree.expect("a tree");
            assert_eq!(weighted_errors(&tree, &data, &factors), expected, "{what}");
            // The sparse search with a penalty below one error: the least weighted errors. (With
            // 3e12, a fractional penalty's sums round by a quarter of an error: refused.)
            if factors[1] > 1e12 {
                continue;
            }
            let sparse = SparseParams {
                objective: SparseObjective::Weighted,
                class_weights: given(&data, &factors),
                leaf_penalty: 1e-15,
                ..SparseParams::default()
            }
            .check(Some(depth))
            .expect("valid parameters")
            .run(&data, &LearnOptions::default())
            .expect("solved");
            let tree = sparse.tree.expect("a tree");
            assert_eq!(
                weighted_errors(&tree, &data, &factors),
                expected,
                "sparse {what}"
            );
        }
    }
}

#[test]
fn the_probes_large_class_weight_splits_in_every_method() {
    let (_dir, path) = temp_file("cw.csv", SIX_ROWS);
    let data = path_str(&path);
    for method in [
        &["--solver", "dp", "--depth", "1"][..],
        &[
            "--solver",
            "sparse",
            "--depth",
            "1",
            "--leaf-penalty",
            "1e-10",
        ],
    ] {
        let report = milptree_json(
            &[
                &[
                    "solve",
                    data,
                    "--class-weight",
                    "a=2e9",
                    "--json",
                    "--quiet",
                ][..],
                method,
            ]
            .concat(),
        );
        assert_eq!(report["errors"].as_f64(), Some(1.0), "{method:?}: {report}");
        assert_eq!(report["termination"], "optimal");
    }
    // The search's optimum, right, agrees with the MILPs' (it used to contradict them).
    for formulation in ["oct", "binoct", "flowoct"] {
        let report = milptree_json(&[
            "solve",
            data,
            "--formulation",
            formulation,
            "--depth",
            "1",
            "--class-weight",
            "a=2e9",
            "--json",
            "--quiet",
        ]);
        assert_eq!(report["certificate"]["verdict"], "agrees", "{formulation}");
        assert_eq!(report["errors"].as_f64(), Some(1.0), "{formulation}");
    }
}

#[test]
fn weights_no_cost_or_solver_can_hold_are_refused_naming_the_option() {
    let (_dir, path) = temp_file("cw.csv", SIX_ROWS);
    let data = path_str(&path);
    let refused = |args: &[&str], option: &str| {
        let output = milptree(&[&["solve", data, "--quiet"][..], args].concat());
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {text}");
        assert!(text.contains(option), "{args:?}: {text}");
    };
    for weight in ["a=1e300", "a=1e17"] {
        refused(
            &["--solver", "dp", "--depth", "1", "--class-weight", weight],
            "--class-weight",
        );
        refused(
            &["--solver", "sparse", "--class-weight", weight],
            "--class-weight",
        );
        for formulation in ["oct", "binoct", "flowoct"] {
            for solver in ["highs", "cbc"] {
                refused(
                    &[
                        "--formulation",
                        formulation,
                        "--solver",
                        solver,
                        "--depth",
                        "1",
                        "--class-weight",
                        weight,
                    ],
                    "--class-weight",
                );
            }
        }
    }
    // Row weights alone out of the models' range name the weight column.
    let (_dir, weighted) = temp_file("w.csv", "x,w,class\n1,1e15,a\n2,1,b\n3,1,a\n4,1,b\n");
    let output = milptree(&[
        "solve",
        path_str(&weighted),
        "--weight-column",
        "w",
        "--formulation",
        "binoct",
        "--depth",
        "1",
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("--weight-column"));
}

/// A refused weight reads in its short form (`1e300`, `5e-324`, not hundreds of digits), and a
/// class whose weights have no common unit names two of its rows that differ.
#[test]
fn refused_weights_read_short_and_name_two_different_rows() {
    // 1e-300 is a unit of 1 about 1e300 times over: the sum of the multiples is shown.
    for (weight, shown) in [("1e300", "1e300"), ("5e-324", "5e-324"), ("1e-300", "e299")] {
        let csv = format!("x,w,class\n1,{weight},a\n2,1,b\n3,1,a\n4,1,b\n");
        let (_dir, path) = temp_file("w.csv", &csv);
        for solver in ["dp", "sparse"] {
            let output = milptree(&[
                "solve",
                path_str(&path),
                "--solver",
                solver,
                "--depth",
                "1",
                "--weight-column",
                "w",
                "--quiet",
            ]);
            let text = stderr(&output);
            let what = format!("{solver}, weight {weight}: {text}");
            assert_eq!(output.status.code(), Some(2), "{what}");
            assert!(text.contains(shown), "{what}");
            assert!(!text.contains("00000000000"), "{what}");
            if let Some(at) = text.find("training rows ") {
                let named: Vec<&str> = text[at + 14..].split_whitespace().take(3).collect();
                assert_eq!(named.len(), 3, "{what}");
                assert_eq!(named[1], "and", "{what}");
                assert_ne!(named[0], named[2], "{what}");
            }
        }
    }
}

/// Every leaf of the tree in `report` holds at least `min_leaf` rows of `data`.
fn leaves_hold_rows(report: &Value, data: &Dataset, min_leaf: usize) -> bool {
    let tree = Tree::from_json_str(&report["tree"].to_string(), "report").expect("a tree");
    let mut rows = std::collections::HashMap::new();
    for row in data.rows() {
        *rows.entry(tree.leaf_of(row)).or_insert(0usize) += 1;
    }
    rows.values().all(|&n| n >= min_leaf)
}

#[test]
fn min_leaf_counts_rows_whatever_their_weights() {
    let text = "x,w,class\n1,3,a\n2,1,b\n3,1,b\n4,1,b\n5,1,a\n6,1,b\n";
    let (_dir, path) = temp_file("ml.csv", text);
    let data = path_str(&path);
    let rows = Dataset::from_parts(
        "ml",
        vec!["x".into()],
        vec!["a".into(), "b".into()],
        (1..=6).map(|x| vec![f64::from(x)]).collect(),
        vec![0, 1, 1, 1, 0, 1],
    )
    .expect("valid data");
    // OCT counts rows; the search, which holds weighted rows as copies, cannot: the certificate
    // says so, and the tree returned is the model's, its leaves of at least two rows (the
    // search's `x <= 1.5` holds one row of weight 3).
    let report = milptree_json(&[
        "solve",
        data,
        "--formulation",
        "oct",
        "--depth",
        "1",
        "--weight-column",
        "w",
        "--min-leaf",
        "2",
        "--solver-option",
        "mip_max_improving_sols=1",
        "--json",
        "--quiet",
    ]);
    assert_eq!(
        report["certificate"]["verdict"], "not_applicable",
        "{report}"
    );
    assert!(leaves_hold_rows(&report, &rows, 2), "{report}");
    // CART (the greedy command and OCT's warm start) counts rows too; the exact search refuses
    // what it cannot count, naming the option.
    let weighted_min_leaf = ["--depth", "1", "--weight-column", "w", "--min-leaf", "2"];
    let greedy = milptree_json(&[&["greedy", data, "--json"][..], &weighted_min_leaf].concat());
    assert!(leaves_hold_rows(&greedy, &rows, 2), "{greedy}");
    let output = milptree(&[&["solve", data, "--solver", "dp"][..], &weighted_min_leaf].concat());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("--min-leaf"));
    // The plain evaluation: a leaf of one row of weight 3 breaks a minimum of 2 rows.
    let weighted = rows
        .clone()
        .with_weights(vec![3.0, 1.0, 1.0, 1.0, 1.0, 1.0])
        .expect("weights");
    let mut builder = TreeBuilder::new(weighted.schema().clone(), weighted.classes().to_vec(), 1)
        .expect("a builder");
    builder
        .split(
            1,
            Split::Axis {
                feature: 0,
                threshold: 1.5,
            },
        )
        .expect("split");
    builder.leaf(2, 0).expect("leaf");
    builder.leaf(3, 1).expect("leaf");
    let tree = builder.build().expect("a tree");
    let problem = |min_leaf| DpProblem {
        min_leaf,
        ..DpProblem::accuracy(&weighted, 1)
    };
    assert_eq!(objective_of(&tree, &weighted, &problem(2)), None);
    // Met by rows, the tree misclassifies the row at 5 (weight 1).
    assert_eq!(objective_of(&tree, &weighted, &problem(1)), Some(1.0));
}

#[test]
fn weighted_cart_is_cart_on_the_repeated_rows() {
    for seed in 0..12u64 {
        // Positive weights (a row of weight 0 is a row CART splits around, as scikit-learn's).
        let drawn = with_random_weights(random_dataset(900 + seed, 14, 2, 2, 4), seed, true);
        let weights = (0..drawn.n_rows())
            .map(|i| drawn.weight(i).max(2.0))
            .collect();
        let data = drawn.with_weights(weights).expect("weights");
        let copies = repeated_rows(&data);
        let params = CartParams::new(1 + (seed % 3) as usize);
        let weighted = cart(&data, &params).expect("CART");
        let repeated = cart(&copies, &params).expect("CART");
        let splits = |tree: &Tree| -> Vec<(usize, String)> {
            tree.nodes()
                .map(|(id, node)| (id, format!("{:?}", node.kind)))
                .collect()
        };
        assert_eq!(splits(&weighted), splits(&repeated), "seed {seed}");
        for (id, node) in weighted.nodes() {
            if let NodeKind::Leaf { .. } = node.kind {
                assert_eq!(
                    Some(&node.counts),
                    repeated.node(id).map(|n| &n.counts),
                    "seed {seed} leaf {id}"
                );
            }
        }
    }
}

/// The leaf counts the tree file at `path` stores, leaf by leaf.
fn stored_counts(path: &std::path::Path) -> Vec<(usize, Vec<usize>)> {
    let tree = Tree::read(path).expect("a tree file");
    tree.leaves()
        .into_iter()
        .map(|id| {
            (
                id,
                tree.node(id).map(|n| n.counts.clone()).unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn a_weighted_trees_counts_follow_one_rule_whatever_the_method_and_options() {
    let dir = tempfile::tempdir().expect("a directory");
    let plain = "x,z,w,class\n1,0,5,a\n2,0,1,b\n3,1,1,a\n4,1,3,b\n5,0,1,b\n6,1,2,a\n";
    // The same rows with one missing cell in the column no tree uses.
    let missing = "x,z,w,class\n1,0,5,a\n2,0,1,b\n3,,1,a\n4,1,3,b\n5,0,1,b\n6,1,2,a\n";
    let files = [("plain.csv", plain), ("missing.csv", missing)];
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("written");
    }
    // The leaf counts of the depth-1 tree learned on `path` with `extra`.
    let learn = |path: &std::path::Path, extra: &[&str]| {
        let out = dir.path().join(format!("{}.json", extra.join("_")));
        let common = ["--depth", "1", "--weight-column", "w", "--quiet", "-o"];
        let output = milptree(
            &[
                &["solve", path_str(path)][..],
                &common,
                &[path_str(&out)],
                extra,
            ]
            .concat(),
        );
        assert!(output.status.success(), "{extra:?}: {}", stderr(&output));
        stored_counts(&out)
    };
    // `x <= 1.5`: a leaf of weight 5 (class a), a leaf of weight 3 + 5 (a, b).
    let expected = vec![(2, vec![5, 0]), (3, vec![3, 5])];
    for (file, _) in files {
        // Side constraints take no missing values.
        if file == "plain.csv" {
            let extra = ["--solver", "dp", "--forbid-feature", "z"];
            assert_eq!(
                learn(&dir.path().join(file), &extra),
                expected,
                "{file} {extra:?}"
            );
        }
        for extra in [
            &["--solver", "dp"][..],
            &["--solver", "sparse", "--leaf-penalty", "0.01"],
            &["--formulation", "oct"],
            &["--formulation", "binoct"],
            &["--formulation", "flowoct"],
        ] {
            assert_eq!(
                learn(&dir.path().join(file), extra),
                expected,
                "{file} {extra:?}"
            );
        }
    }
    // Fractional weights: every row counts 1, whatever the method.
    let fractional = "x,w,class\n1,2.5,a\n2,1,b\n3,1,a\n4,1,b\n";
    let (_keep, path) = temp_file("f.csv", fractional);
    let counts = learn(&path, &["--formulation", "oct"]);
    let total: usize = counts.iter().flat_map(|(_, c)| c).sum();
    assert_eq!(total, 4);
}
