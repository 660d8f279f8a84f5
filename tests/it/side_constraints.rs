//! Side constraints on the MILPs (feature count, forbidden features, features allowed only at
//! given depths, feature costs within a budget, leaf count, rows of the user's own) against the filtered
//! exhaustive oracle: on random small data, for OCT, BinOCT and FlowOCT on HiGHS and CBC, the
//! optimum under each constraint equals the best of every tree that meets it, and the returned
//! tree meets it by plain evaluation. Also the command line: an infeasible set exits 1, bad
//! sets and methods that do not take them exit 2, and `export-lp` writes the rows.

use std::collections::{BTreeMap, BTreeSet};

use milptree::budget::Budget;
use milptree::constraints::{evaluate, ConstraintSpec};
use milptree::data::Dataset;
use milptree::formulation::{AnyFormulation, FormulationName};
use milptree::learn::milp::{self, MilpOptions};
use milptree::learn::WarmStartMode;
use milptree::solver::{SolveOptions, SolverKind, Termination};
use milptree::tree::node_depth;

use crate::common::{milptree, path_str, random_dataset, stderr, temp_file, to_csv};
use crate::oracle::{optimum_where, OracleSpec, OracleTree};

pub(crate) const SOLVERS: [SolverKind; 2] = [SolverKind::Highs, SolverKind::Cbc];
pub(crate) const FORMULATIONS: [FormulationName; 3] = [
    FormulationName::Oct,
    FormulationName::BinOct,
    FormulationName::FlowOct,
];

/// The optimal tree `formulation` returns under `spec` from greedy's start (60 s), with the
/// outcome and a label for messages, after checking that it is optimal and decodes.
pub(crate) fn solve_under(
    formulation: &AnyFormulation,
    solver: SolverKind,
    data: &Dataset,
    spec: &ConstraintSpec,
) -> (
    milptree::learn::outcome::Outcome,
    milptree::tree::Tree,
    String,
) {
    let start = formulation.greedy_tree(data).expect("a greedy tree");
    let outcome = milp::run_any(
        formulation,
        data,
        MilpOptions {
            solver,
            solve: SolveOptions {
                budget: Budget::seconds(60.0),
                ..SolveOptions::default()
            },
            start: Some(start),
            warm_start_mode: WarmStartMode::Greedy,
            start_is_optimal: false,
            fallback_start: None,
            bound_below_for_tests: false,
            search_rows: None,
            separation_rounds: 0,
            constraints: Some(spec.clone()),
        },
    )
    .expect("the constrained model solves");
    let what = format!(
        "{} on {solver:?}, {}, depth {}",
        formulation.name(),
        data.source(),
        formulation.depth()
    );
    assert_eq!(outcome.report.termination, Termination::Optimal, "{what}");
    assert!(outcome.decode_mismatch.is_none(), "{what}");
    let tree = outcome.tree.clone().expect("a tree");
    (outcome, tree, what)
}

/// The training errors of the tree the MILP returns under `spec`, after checking that it is
/// optimal, agrees with its plain evaluation and meets the constraints by plain code.
pub(crate) fn constrained_errors(
    name: FormulationName,
    solver: SolverKind,
    data: &Dataset,
    depth: usize,
    spec: &ConstraintSpec,
) -> usize {
    let formulation = AnyFormulation::from_name(name, depth).expect("a formulation");
    let (outcome, tree, what) = solve_under(&formulation, solver, data, spec);
    let constraints = spec.resolve(data).expect("valid constraints");
    let values = evaluate(&constraints, &tree);
    assert!(values.broken.is_empty(), "{what}: {:?}", values.broken);
    assert_eq!(
        outcome.side_constraints["features_used"],
        serde_json::json!(values.features_used),
        "{what}"
    );
    tree.predict(data.rows())
        .iter()
        .zip(data.labels())
        .filter(|(p, l)| p != l)
        .count()
}

/// For each instance and depth, the MILPs' optimum under `spec` equals the oracle's under
/// `keep`; the constraint binds (the unconstrained optimum is better) on at least one.
fn check_kind(spec: &ConstraintSpec, keep: &dyn Fn(&OracleTree) -> bool, depths: &[usize]) {
    let mut binds = false;
    for seed in [11, 12] {
        let data = random_dataset(seed, 14, 3, 2, 4);
        for &depth in depths {
            let oracle = OracleSpec::errors(&data, depth);
            let expected = optimum_where(&data, &oracle, keep).expect("a leaf meets it");
            let free = optimum_where(&data, &oracle, &|_| true).expect("a leaf");
            binds |= free.errors < expected.errors;
            for name in FORMULATIONS {
                for solver in SOLVERS {
                    let errors = constrained_errors(name, solver, &data, depth, spec);
                    assert_eq!(
                        errors, expected.errors,
                        "{name} on {solver:?}, seed {seed}, depth {depth}: {spec:?}"
                    );
                }
            }
        }
    }
    assert!(binds, "the constraint never binds: {spec:?}");
}

pub(crate) fn features(tree: &OracleTree) -> BTreeSet<usize> {
    tree.iter().map(|&(_, j, _)| j).collect()
}

#[test]
fn at_most_k_features_reaches_the_filtered_optimum() {
    let spec = ConstraintSpec {
        max_features: Some(1),
        ..ConstraintSpec::default()
    };
    check_kind(&spec, &|t| features(t).len() <= 1, &[2]);
}

#[test]
fn at_most_l_leaves_reaches_the_filtered_optimum() {
    let spec = ConstraintSpec {
        max_leaves: Some(3),
        ..ConstraintSpec::default()
    };
    check_kind(&spec, &|t| t.len() < 3, &[2]);
}

#[test]
fn forbidden_features_reach_the_filtered_optimum() {
    let spec = ConstraintSpec {
        forbidden: vec!["x0".to_string(), "x2".to_string()],
        ..ConstraintSpec::default()
    };
    check_kind(&spec, &|t| features(t).iter().all(|&j| j == 1), &[1, 2]);
}

#[test]
fn features_allowed_by_depth_reach_the_filtered_optimum() {
    // x0 and x1 only below the root, x2 anywhere.
    let spec = ConstraintSpec {
        depths: BTreeMap::from([("x0".to_string(), vec![1]), ("x1".to_string(), vec![1])]),
        ..ConstraintSpec::default()
    };
    check_kind(
        &spec,
        &|t| t.iter().all(|&(n, j, _)| j == 2 || node_depth(n) == 1),
        &[2],
    );
}

#[test]
fn feature_costs_within_a_budget_reach_the_filtered_optimum() {
    let costs = [2.0, 1.5, 1.0];
    let spec = ConstraintSpec {
        feature_costs: BTreeMap::from([
            ("x0".to_string(), costs[0]),
            ("x1".to_string(), costs[1]),
            ("x2".to_string(), costs[2]),
        ]),
        budget: Some(2.5),
        ..ConstraintSpec::default()
    };
    check_kind(
        &spec,
        &|t| features(t).iter().map(|&j| costs[j]).sum::<f64>() <= 2.5,
        &[2],
    );
}

#[test]
fn a_user_row_on_the_feature_indicators_reaches_the_filtered_optimum() {
    // `used[j=..]` exists in every model with a feature count (here a count that does not
    // bind); the row keeps the tree to one feature, with coefficients written both ways.
    let spec = ConstraintSpec {
        max_features: Some(3),
        rows: vec!["2 used[j=0] + 2*used[j=1] + 2 used[j=2] <= 2".to_string()],
        ..ConstraintSpec::default()
    };
    check_kind(&spec, &|t| features(t).len() <= 1, &[2]);
}

#[test]
fn a_user_row_over_a_models_own_variables_reaches_the_filtered_optimum() {
    // OCT's `a[f=j,n=1]` (readable name) and BinOCT's `f(n1,f2)` (the LP file's name): the root
    // does not split on x2.
    for (name, row) in [
        (FormulationName::Oct, "a[f=2,n=1] <= 0"),
        (FormulationName::BinOct, "f(n1,f2) = 0"),
    ] {
        let spec = ConstraintSpec {
            rows: vec![row.to_string()],
            ..ConstraintSpec::default()
        };
        for seed in [11, 12] {
            let data = random_dataset(seed, 14, 3, 2, 4);
            let oracle = OracleSpec::errors(&data, 2);
            let expected = optimum_where(&data, &oracle, &|t| {
                !t.iter().any(|&(n, j, _)| n == 1 && j == 2)
            })
            .expect("a leaf");
            for solver in SOLVERS {
                assert_eq!(
                    constrained_errors(name, solver, &data, 2, &spec),
                    expected.errors,
                    "{name} on {solver:?}, seed {seed}"
                );
            }
        }
    }
}

/// The data of the command-line tests, as a CSV file.
fn data_file() -> (tempfile::TempDir, std::path::PathBuf) {
    temp_file("data.csv", &to_csv(&random_dataset(11, 14, 3, 2, 4)))
}

#[test]
fn an_infeasible_set_reports_infeasible_and_exits_1() {
    let (_dir, data) = data_file();
    let (_c, file) = temp_file(
        "c.toml",
        "rows = [\"used[j=0] + used[j=1] + used[j=2] >= 2\"]\nmax_features = 1\n",
    );
    for (formulation, solver) in [("oct", "highs"), ("flowoct", "cbc")] {
        let output = milptree(&[
            "solve",
            path_str(&data),
            "--formulation",
            formulation,
            "--solver",
            solver,
            "--depth",
            "1",
            "--constraints",
            path_str(&file),
            "--json",
            "--quiet",
        ]);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        let report: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("a JSON report");
        assert_eq!(report["termination"], "infeasible", "{report}");
        // The greedy start meets the count but not the row: it is dropped, never passed.
        assert!(
            report["notes"].as_array().expect("notes").iter().any(|n| n
                .as_str()
                .is_some_and(|n| n.contains("warm start was dropped"))),
            "{report}"
        );
    }
}

#[test]
fn bad_sets_and_methods_without_them_exit_2() {
    let (_dir, data) = data_file();
    let base = ["solve", path_str(&data), "--depth", "1", "--quiet"];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    for (extra, named) in [
        (
            vec!["--formulation", "oct", "--forbid-feature", "nope"],
            "`nope` is not a feature",
        ),
        (
            vec!["--solver", "sparse", "--max-leaf-rows", "1"],
            "no tree meets the problem: the exact search proves",
        ),
        (
            vec!["--solver", "dp", "--max-leaf-rows", "1"],
            "no tree meets the problem: the exact search proves",
        ),
        (
            vec!["--formulation", "olct", "--max-features", "1"],
            "--max-features",
        ),
    ] {
        let args = with(&extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        crate::common::assert_usage_error(&args, named);
    }
    let (_c, unknown) = temp_file("c.toml", "rows = [\"zz[n=1] <= 0\"]\n");
    let (_d, typo) = temp_file("d.toml", "max_feature = 1\n");
    for (file, named) in [
        (&unknown, "`zz[n=1]` is not a variable"),
        (&typo, "max_feature"),
    ] {
        crate::common::assert_usage_error(
            &[
                "solve",
                path_str(&data),
                "--formulation",
                "binoct",
                "--depth",
                "1",
                "--constraints",
                path_str(file),
                "--quiet",
            ],
            named,
        );
    }
}

#[test]
fn a_milp_under_side_constraints_refuses_data_with_missing_values() {
    let (_dir, data) = temp_file(
        "gaps.csv",
        "a,b,y\n1,NA,p\n2,3,q\n3,4,p\n4,5,q\n5,6,p\n6,,q\n",
    );
    crate::common::assert_usage_error(
        &[
            "solve",
            path_str(&data),
            "--formulation",
            "oct",
            "--depth",
            "1",
            "--max-features",
            "1",
            "--quiet",
        ],
        "feature `b` has missing values, which --formulation oct with side constraints (unlike --solver dp and --solver sparse) does not take",
    );
}

#[test]
fn export_lp_writes_the_rows_of_the_constraints() {
    let (dir, data) = data_file();
    let output = dir.path().join("model.lp");
    let result = milptree(&[
        "export-lp",
        path_str(&data),
        "--formulation",
        "flowoct",
        "--depth",
        "2",
        "--max-features",
        "1",
        "--forbid-feature",
        "x0",
        "--output",
        path_str(&output),
    ]);
    assert!(result.status.success(), "{}", stderr(&result));
    let lp = std::fs::read_to_string(&output).expect("the LP file");
    assert!(lp.contains("max_features:"), "no max_features row");
    assert!(lp.contains("used(j1)"), "no feature indicator");
    assert!(!lp.contains("j0,t"), "a split variable on the forbidden x0");
}

#[test]
fn the_embedded_command_line_passes_the_constraints_on() {
    let words: Vec<String> = [
        "--formulation",
        "oct",
        "--depth",
        "1",
        "--max-features",
        "1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (_, options) = milptree::cli::embed::solve_settings(&words).expect("valid settings");
    assert_eq!(
        options.constraints.and_then(|c| c.max_features),
        Some(1),
        "the estimator's solve words keep --max-features"
    );
}
