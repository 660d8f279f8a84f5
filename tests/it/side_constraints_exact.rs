//! Forbidden features in the exact and sparse searches and in a MILP's certificate: on small
//! random data, `dp` and `sparse` under forbidden features reach the optimum of the filtered
//! exhaustive oracle (every tree that splits on none of them), return a tree over the data's
//! full feature indexing that uses none of them, and report it; a MILP under forbidden features
//! gets a certificate verdict, one under any other kind of constraint `not_applicable`.

use milptree::constraints::{evaluate, ConstraintSpec};
use milptree::data::Dataset;
use milptree::formulation::AnyFormulation;
use milptree::learn::certificate::Verdict;
use milptree::learn::sparse_search::SparseParams;
use milptree::learn::{learn, DpParams, DpSearch, LearnOptions, Method};
use milptree::solver::SolverKind;
use milptree::tree::Tree;

use crate::common::random_dataset;
use crate::oracle::{optimum_where, OracleSpec};

fn forbid(names: &[&str]) -> ConstraintSpec {
    ConstraintSpec {
        forbidden: names.iter().map(|n| n.to_string()).collect(),
        ..ConstraintSpec::default()
    }
}

fn options(spec: &ConstraintSpec) -> LearnOptions {
    LearnOptions {
        time_limit: Some(60.0),
        constraints: Some(spec.clone()),
        ..LearnOptions::default()
    }
}

fn errors(tree: &Tree, data: &Dataset) -> usize {
    tree.predict(data.rows())
        .iter()
        .zip(data.labels())
        .filter(|(p, l)| p != l)
        .count()
}

/// The tree is over every feature of `data`, splits on none of the forbidden ones (feature
/// indices `banned`) by plain evaluation, and the report says so.
fn assert_clean(tree: &Tree, report: &serde_json::Value, data: &Dataset, spec: &ConstraintSpec) {
    assert_eq!(tree.features(), data.schema().features.as_slice());
    let constraints = spec.resolve(data).expect("valid constraints");
    let values = evaluate(&constraints, tree);
    assert!(values.broken.is_empty(), "{:?}", values.broken);
    assert_eq!(
        report["features_used"],
        serde_json::json!(values.features_used)
    );
    assert_eq!(report["broken"], serde_json::json!([]));
    for name in &spec.forbidden {
        assert!(!values.features_used.contains(name), "{name} used");
    }
}

#[test]
fn the_exact_search_under_forbidden_features_reaches_the_filtered_optimum() {
    let spec = forbid(&["x0", "x2"]);
    let mut binds = false;
    for seed in [11, 12, 13] {
        let data = random_dataset(seed, 14, 3, 2, 4);
        for depth in [1, 2] {
            let oracle = OracleSpec::errors(&data, depth);
            let expected = optimum_where(&data, &oracle, &|t| t.iter().all(|&(_, j, _)| j == 1))
                .expect("a leaf meets it");
            let free = optimum_where(&data, &oracle, &|_| true).expect("a leaf");
            binds |= free.errors < expected.errors;
            let method = Method::Dp(DpSearch {
                depth,
                params: DpParams::default(),
            });
            let outcome = learn(&method, &data, options(&spec)).expect("dp");
            let tree = outcome.tree.expect("a tree");
            assert_eq!(
                errors(&tree, &data),
                expected.errors,
                "seed {seed} depth {depth}"
            );
            assert_clean(&tree, &outcome.side_constraints, &data, &spec);
        }
    }
    assert!(binds, "forbidding the features never changes the optimum");
}

#[test]
fn the_sparse_search_under_forbidden_features_reaches_the_filtered_optimum() {
    let spec = forbid(&["x1"]);
    let penalty = 0.02;
    for seed in [11, 12] {
        let data = random_dataset(seed, 14, 3, 2, 4);
        let n = data.n_rows() as f64;
        let search = SparseParams {
            leaf_penalty: penalty,
            ..SparseParams::default()
        }
        .check(Some(2))
        .expect("valid");
        let outcome = learn(&Method::Sparse(search), &data, options(&spec)).expect("sparse");
        let tree = outcome.tree.expect("a tree");
        assert_clean(&tree, &outcome.side_constraints, &data, &spec);
        let counted = errors(&tree, &data) as f64 / n + penalty * tree.leaves().len() as f64;
        let oracle = OracleSpec {
            split_cost: penalty * n,
            ..OracleSpec::errors(&data, 2)
        };
        let expected = optimum_where(&data, &oracle, &|t| t.iter().all(|&(_, j, _)| j != 1))
            .expect("a leaf meets it");
        // The oracle prices splits; a tree has one leaf more than its splits.
        let expected = (expected.objective + penalty * n) / n;
        assert!(
            (counted - expected).abs() < 1e-9,
            "seed {seed}: sparse {counted}, oracle {expected}"
        );
    }
}

#[test]
fn every_feature_forbidden_leaves_a_single_leaf() {
    let data = random_dataset(11, 14, 3, 2, 4);
    let spec = forbid(&["x0", "x1", "x2"]);
    let method = Method::Dp(DpSearch {
        depth: 2,
        params: DpParams::default(),
    });
    let outcome = learn(&method, &data, options(&spec)).expect("dp");
    let tree = outcome.tree.expect("a tree");
    assert_eq!(tree.n_splits(), 0);
    assert_eq!(
        errors(&tree, &data),
        data.n_rows() - *data.class_counts().iter().max().expect("a class")
    );
}

#[test]
fn a_milp_under_forbidden_features_is_certified_and_under_a_count_is_not() {
    let data = random_dataset(12, 14, 3, 2, 4);
    let method = Method::Milp {
        formulation: AnyFormulation::from_name(milptree::formulation::FormulationName::Oct, 2)
            .expect("oct"),
        solver: SolverKind::Highs,
    };
    let certified = |spec: &ConstraintSpec| {
        let outcome = learn(
            &method,
            &data,
            LearnOptions {
                certify: Some(30.0),
                ..options(spec)
            },
        )
        .expect("oct");
        let certificate = outcome.certificate.clone().expect("a certificate");
        (outcome, certificate)
    };
    let spec = forbid(&["x0", "x2"]);
    let (outcome, certificate) = certified(&spec);
    assert_eq!(
        certificate.verdict,
        Verdict::Agrees,
        "{}",
        certificate.message
    );
    let tree = outcome.tree.expect("a tree");
    assert_clean(&tree, &outcome.side_constraints, &data, &spec);
    let oracle = optimum_where(&data, &OracleSpec::errors(&data, 2), &|t| {
        t.iter().all(|&(_, j, _)| j == 1)
    })
    .expect("a leaf");
    assert_eq!(errors(&tree, &data), oracle.errors);
    let (_, certificate) = certified(&ConstraintSpec {
        max_features: Some(1),
        ..ConstraintSpec::default()
    });
    assert_eq!(certificate.verdict, Verdict::NotApplicable);
    assert!(
        certificate.message.contains("side constraints"),
        "{}",
        certificate.message
    );
}

#[test]
fn other_kinds_are_refused_by_the_searches_with_their_names() {
    let data = random_dataset(11, 14, 3, 2, 4);
    let method = Method::Dp(DpSearch {
        depth: 1,
        params: DpParams::default(),
    });
    let spec = ConstraintSpec {
        max_leaves: Some(2),
        ..forbid(&["x0"])
    };
    let message = learn(&method, &data, options(&spec))
        .expect_err("refused")
        .to_string();
    assert!(message.contains("max_leaves"), "{message}");
    assert!(message.contains("forbidden features only"), "{message}");
}

#[test]
fn a_tree_file_of_the_search_under_forbidden_features_predicts_the_original_data() {
    let data = random_dataset(12, 14, 3, 2, 4);
    let (dir, csv) = crate::common::temp_file("data.csv", &crate::common::to_csv(&data));
    let tree_file = dir.path().join("tree.json");
    let output = crate::common::milptree(&[
        "solve",
        crate::common::path_str(&csv),
        "--solver",
        "sparse",
        "--depth",
        "2",
        "--forbid-feature",
        "x0",
        "--output",
        crate::common::path_str(&tree_file),
        "--json",
        "--quiet",
    ]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        crate::common::stderr(&output)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a report");
    let used = report["side_constraints"]["features_used"].clone();
    assert!(
        !used
            .as_array()
            .expect("features used")
            .contains(&"x0".into()),
        "{report}"
    );
    let tree = Tree::read(&tree_file).expect("a tree");
    assert_eq!(tree.features(), data.schema().features.as_slice());
    let predicted = crate::common::milptree(&[
        "predict",
        "--tree",
        crate::common::path_str(&tree_file),
        crate::common::path_str(&csv),
    ]);
    assert_eq!(
        predicted.status.code(),
        Some(0),
        "{}",
        crate::common::stderr(&predicted)
    );
}
