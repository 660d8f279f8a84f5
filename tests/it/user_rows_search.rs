//! The user's rows over the features a tree uses (`used[j=..]` alone, weights not negative) in a
//! MILP's start and certificate: on small random data, FlowOCT and OCT on HiGHS under such rows
//! start from the exact search's constrained optimum, are certified `agrees`, and equal the
//! exhaustive oracle filtered by the rows; a row of another form leaves the certificate
//! `not_applicable` and the optimum unchanged; `--warm-start best` never starts from a greedy
//! tree that breaks a row; and a tree the certificate's search returns in the solver's place is
//! reported against the constraints as itself.

use milptree::budget::Budget;
use milptree::constraints::ConstraintSpec;
use milptree::data::Dataset;
use milptree::formulation::{AnyFormulation, FormulationName};
use milptree::learn::certificate::Verdict;
use milptree::learn::{learn, LearnOptions, Method, WarmStartMode};
use milptree::solver::SolverKind;
use milptree::tree::{NodeKind, Split, Tree};

use crate::common::{path_str, random_dataset, temp_file, to_csv};
use crate::oracle::{optimum_where, OracleSpec, OracleTree};

/// A row `sum w_j used[j] <= limit`, as its text and its weights.
struct FeatureRow {
    text: &'static str,
    weights: [f64; 4],
    limit: f64,
}

const ROWS: [FeatureRow; 2] = [
    FeatureRow {
        text: "used[j=0] + used[j=1] <= 1",
        weights: [1.0, 1.0, 0.0, 0.0],
        limit: 1.0,
    },
    FeatureRow {
        // The same as `-2 used[j=2] - used[j=3] - used[j=1] >= -2`, in file names.
        text: "-2 used(j2) - used(j3) - used[j=1] >= -2",
        weights: [0.0, 1.0, 2.0, 1.0],
        limit: 2.0,
    },
];

fn spec(rows: &[&str]) -> ConstraintSpec {
    ConstraintSpec {
        max_features: Some(4),
        rows: rows.iter().map(|r| r.to_string()).collect(),
        ..ConstraintSpec::default()
    }
}

/// Whether the distinct features of `tree` meet `row`.
fn meets(tree: &OracleTree, row: &FeatureRow) -> bool {
    let mut used = [false; 4];
    for &(_, j, _) in tree {
        used[j] = true;
    }
    let sum: f64 = (0..4).filter(|&j| used[j]).map(|j| row.weights[j]).sum();
    sum <= row.limit + 1e-9
}

fn errors(tree: &Tree, data: &Dataset) -> usize {
    tree.predict(data.rows())
        .iter()
        .zip(data.labels())
        .filter(|(p, l)| p != l)
        .count()
}

fn milp(name: FormulationName, depth: usize) -> Method {
    Method::Milp {
        formulation: AnyFormulation::from_name(name, depth).expect("a formulation"),
        solver: SolverKind::Highs,
    }
}

fn options(spec: &ConstraintSpec, warm_start: WarmStartMode) -> LearnOptions {
    LearnOptions {
        budget: Budget::seconds(60.0),
        certify: Some(std::time::Duration::from_secs(30)),
        warm_start,
        constraints: Some(spec.clone()),
        ..LearnOptions::default()
    }
}

#[test]
fn rows_over_the_features_used_are_the_start_and_certificate_of_flowoct_and_oct() {
    let mut binds = false;
    for seed in [21, 22, 23] {
        let data = random_dataset(seed, 16, 4, 2, 3);
        for depth in [1, 2] {
            let oracle = OracleSpec::errors(&data, depth);
            let free = optimum_where(&data, &oracle, &|_| true).expect("a leaf");
            for row in &ROWS {
                let expected = optimum_where(&data, &oracle, &|t| meets(t, row)).expect("a leaf");
                binds |= expected.errors > free.errors;
                for name in [FormulationName::FlowOct, FormulationName::Oct] {
                    let outcome = learn(
                        &milp(name, depth),
                        &data,
                        options(&spec(&[row.text]), WarmStartMode::Dp),
                    )
                    .expect("solves");
                    let context = format!("seed {seed}, depth {depth}, {name:?}, `{}`", row.text);
                    let certificate = outcome.certificate.clone().expect("a certificate");
                    assert_eq!(
                        certificate.verdict,
                        Verdict::Agrees,
                        "{context}: {}",
                        certificate.message
                    );
                    let source = outcome.warm_start_source.clone().unwrap_or_default();
                    assert!(source.starts_with("dp (optimal"), "{context}: {source}");
                    let tree = outcome.tree.expect("a tree");
                    assert_eq!(errors(&tree, &data), expected.errors, "{context}");
                    assert_eq!(
                        outcome.side_constraints["rows"][0]["holds"], true,
                        "{context}"
                    );
                }
            }
        }
    }
    assert!(binds, "no row changed the optimum");
}

#[test]
fn a_row_of_another_form_leaves_the_certificate_not_applicable_and_the_optimum_exact() {
    // `used[j=0] - used[j=1] <= 0`: x0 only beside x1, which no largest feature set expresses.
    let data = random_dataset(22, 16, 4, 2, 3);
    let oracle = OracleSpec::errors(&data, 2);
    let expected = optimum_where(&data, &oracle, &|t| {
        !t.iter().any(|&(_, j, _)| j == 0) || t.iter().any(|&(_, j, _)| j == 1)
    })
    .expect("a leaf");
    let outcome = learn(
        &milp(FormulationName::FlowOct, 2),
        &data,
        options(&spec(&["used[j=0] - used[j=1] <= 0"]), WarmStartMode::Best),
    )
    .expect("solves");
    let certificate = outcome.certificate.expect("a certificate");
    assert_eq!(certificate.verdict, Verdict::NotApplicable);
    assert!(
        certificate.message.contains("rows"),
        "{}",
        certificate.message
    );
    assert_eq!(
        errors(&outcome.tree.expect("a tree"), &data),
        expected.errors
    );
}

#[test]
fn the_best_start_never_breaks_a_row_and_an_adopted_tree_is_reported_as_itself() {
    let mut adopted = 0;
    for seed in 0..6 {
        let data = random_dataset(seed, 40, 4, 2, 5);
        let row = &ROWS[0];
        let oracle = OracleSpec::errors(&data, 2);
        let expected = optimum_where(&data, &oracle, &|t| meets(t, row)).expect("a leaf");
        let constraints = format!("max_features = 4\nrows = [\"{}\"]\n", row.text);
        let (dir, csv) = temp_file("data.csv", &to_csv(&data));
        let file = dir.path().join("constraints.toml");
        std::fs::write(&file, constraints).expect("written");
        // HiGHS stopped at once keeps its start: the certificate's tree is returned when better.
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_milptree"))
            .args([
                "solve",
                path_str(&csv),
                "--formulation",
                "oct",
                "--depth",
                "2",
            ])
            .args(["--solver", "highs", "--solver-option", "time_limit=0"])
            .args([
                "--time-limit",
                "30",
                "--warm-start",
                "greedy",
                "--constraints",
            ])
            .arg(&file)
            .args(["--json", "--quiet"])
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(0), "seed {seed}");
        let report: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("a JSON report");
        let tree = Tree::from_json_str(&report["tree"].to_string(), "report").expect("a tree");
        assert_eq!(
            errors(&tree, &data),
            expected.errors,
            "seed {seed}: {report:#}"
        );
        let used: Vec<String> = (0..4)
            .filter(|&j| {
                tree.nodes().any(|(_, node)| {
                    matches!(node.kind, NodeKind::Split(Split::Axis { feature, .. }) if feature == j)
                })
            })
            .map(|j| format!("x{j}"))
            .collect();
        let side = &report["side_constraints"];
        assert_eq!(
            side["features_used"],
            serde_json::json!(used),
            "seed {seed}"
        );
        assert_eq!(side["rows"][0]["holds"], true, "seed {seed}: {side:#}");
        assert_eq!(side["broken"], serde_json::json!([]), "seed {seed}");
        if report["tree_source"] == "certificate" {
            adopted += 1;
        }
        // `best` takes the better start of the two that meet the row.
        let outcome = learn(
            &milp(FormulationName::FlowOct, 2),
            &data,
            options(&spec(&[row.text]), WarmStartMode::Best),
        )
        .expect("solves");
        assert!(
            !outcome
                .notes
                .iter()
                .any(|n| n.contains("warm start was dropped")),
            "seed {seed}: {:?}",
            outcome.notes
        );
        assert_eq!(
            errors(&outcome.tree.expect("a tree"), &data),
            expected.errors
        );
    }
    assert!(adopted > 0, "no seed returned the certificate's tree");
}
