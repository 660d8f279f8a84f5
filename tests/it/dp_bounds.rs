//! The exact search's rows in the MILPs (`--dp-bounds`) against the exhaustive oracle: on small
//! random data (fixed seeds), OCT, BinOCT and FlowOCT on HiGHS and CBC, with and without side
//! constraints, the optimum is the oracle's with the rows, and the report counts them; a row
//! made too high on purpose (a test-only hook) stops the run instead of bounding it.

use milptree::constraints::ConstraintSpec;
use milptree::data::Dataset;
use milptree::formulation::{AnyFormulation, FormulationName};
use milptree::learn::certificate::Verdict;
use milptree::learn::search_rows::DpBounds;
use milptree::learn::{learn, LearnOptions, Method, Outcome, SolveDocument, WarmStartMode};
use milptree::solver::{SolverKind, Termination};

use crate::common::{path_str, random_dataset, temp_file, to_csv};
use crate::oracle::{optimum, optimum_where, OracleSpec, OracleTree};
use crate::side_constraints::{features, FORMULATIONS, SOLVERS};

/// A formulation at a depth on a solver.
type Model = (FormulationName, SolverKind, usize);

/// `name` at `depth` on `solver` learned on `data` with `rows` raised by `raise` errors, from
/// `warm_start`, under `constraints`.
fn run(
    (name, solver, depth): Model,
    data: &Dataset,
    rows: DpBounds,
    constraints: Option<&ConstraintSpec>,
    (warm_start, raise): (WarmStartMode, f64),
) -> milptree::Result<Outcome> {
    let formulation = AnyFormulation::from_name(name, depth).expect("a formulation");
    let method = Method::Milp {
        formulation,
        solver,
    };
    learn(
        &method,
        data,
        LearnOptions {
            time_limit: Some(60.0),
            warm_start,
            certify: Some(10.0),
            dp_bounds: rows,
            raise_dp_bounds_for_tests: raise,
            constraints: constraints.cloned(),
            ..LearnOptions::default()
        },
    )
}

/// The training errors of the optimal tree of `name` with `rows`, after checking that the
/// solver proved it, that the report counts the rows asked for, and that the bound rests on
/// them.
fn optimal_errors(
    name: FormulationName,
    solver: SolverKind,
    data: &Dataset,
    depth: usize,
    rows: DpBounds,
    constraints: Option<&ConstraintSpec>,
) -> usize {
    let what = format!(
        "{name} on {solver:?}, {}, depth {depth}, {rows}",
        data.source()
    );
    // No warm start: the solver finds the optimum itself, under the rows.
    let outcome = run(
        (name, solver, depth),
        data,
        rows,
        constraints,
        (WarmStartMode::None, 0.0),
    )
    .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(outcome.report.termination, Termination::Optimal, "{what}");
    assert!(outcome.decode_mismatch.is_none(), "{what}");
    let report = outcome
        .model
        .as_ref()
        .and_then(|m| m.search_rows.clone())
        .expect("the rows' report");
    assert_eq!(
        report.objective_rows,
        usize::from(rows.objective()),
        "{what}"
    );
    // With both families and no side constraint, the search's optimum (the objective row)
    // dominates the split row, which is left out.
    let splits = rows.splits() && !(rows == DpBounds::All && constraints.is_none());
    assert_eq!(report.split_rows, usize::from(splits), "{what}");
    if splits {
        assert!(report.root_splits > 0, "{what}: {report:?}");
        assert_eq!(report.splits_at_problem_bound, 0, "{what}");
    }
    let tree = outcome.tree.clone().expect("a tree");
    if constraints.is_none() {
        let verdict = outcome.certificate.as_ref().map(|c| c.verdict);
        assert_eq!(verdict, Some(Verdict::Agrees), "{what}");
    }
    tree.predict(data.rows())
        .iter()
        .zip(data.labels())
        .filter(|(p, l)| p != l)
        .count()
}

#[test]
fn the_rows_leave_every_optimum_unchanged() {
    for seed in [31, 32] {
        let data = random_dataset(seed, 16, 3, 2, 4);
        for depth in [1, 2] {
            let expected = optimum(&data, &OracleSpec::errors(&data, depth)).errors;
            for name in FORMULATIONS {
                for solver in SOLVERS {
                    for rows in [DpBounds::Splits, DpBounds::All] {
                        let errors = optimal_errors(name, solver, &data, depth, rows, None);
                        assert_eq!(errors, expected, "{name} {solver:?} seed {seed} {rows}");
                    }
                }
            }
        }
    }
}

#[test]
fn the_rows_leave_depth_three_optima_unchanged() {
    let data = random_dataset(33, 14, 3, 2, 3);
    let expected = optimum(&data, &OracleSpec::errors(&data, 3)).errors;
    for name in [FormulationName::BinOct, FormulationName::FlowOct] {
        let errors = optimal_errors(name, SolverKind::Highs, &data, 3, DpBounds::All, None);
        assert_eq!(errors, expected, "{name}");
    }
}

#[test]
fn the_rows_leave_constrained_optima_unchanged() {
    let one_feature = ConstraintSpec {
        max_features: Some(1),
        ..ConstraintSpec::default()
    };
    let forbidden = ConstraintSpec {
        forbidden: vec!["x0".to_string()],
        max_leaves: Some(3),
        ..ConstraintSpec::default()
    };
    type Keep<'a> = &'a dyn Fn(&OracleTree) -> bool;
    let cases: [(&ConstraintSpec, Keep); 2] = [
        (&one_feature, &|t| features(t).len() <= 1),
        (&forbidden, &|t| !features(t).contains(&0) && t.len() < 3),
    ];
    let mut binds = false;
    for seed in [34, 35] {
        let data = random_dataset(seed, 16, 3, 2, 4);
        let oracle = OracleSpec::errors(&data, 2);
        let free = optimum(&data, &oracle).errors;
        for (spec, keep) in cases {
            let expected = optimum_where(&data, &oracle, keep).expect("a leaf").errors;
            binds |= expected > free;
            for name in FORMULATIONS {
                for solver in SOLVERS {
                    let errors = optimal_errors(name, solver, &data, 2, DpBounds::All, Some(spec));
                    assert_eq!(errors, expected, "{name} {solver:?} seed {seed} {spec:?}");
                }
            }
        }
    }
    assert!(
        binds,
        "no constraint binds: the test would not see a row that cuts"
    );
}

#[test]
fn the_report_says_the_bound_rests_on_the_rows() {
    let data = random_dataset(31, 16, 3, 2, 4);
    let sets = milptree::data::Sets {
        train: data.clone(),
        test: None,
    };
    for (rows, source) in [
        (DpBounds::None, "solver"),
        (DpBounds::All, "solver_with_search_rows"),
    ] {
        let outcome = run(
            (FormulationName::FlowOct, SolverKind::Highs, 2),
            &data,
            rows,
            None,
            (WarmStartMode::Greedy, 0.0),
        )
        .expect("a run");
        let document =
            SolveDocument::new(&outcome, &sets, std::path::Path::new("x.csv"), None, None)
                .expect("a report");
        assert_eq!(document.bound_source.as_deref(), Some(source), "{rows}");
        assert_eq!(
            document.search_rows.is_some(),
            rows != DpBounds::None,
            "{rows}"
        );
    }
}

/// Whether a run with rows too high by one error failed as it must: an error naming the row,
/// or a certificate that contradicts the solver.
fn caught(result: &milptree::Result<Outcome>) -> bool {
    match result {
        Err(e) => e.to_string().contains("exact search's row"),
        Ok(outcome) => outcome
            .certificate
            .as_ref()
            .is_some_and(|c| c.verdict == Verdict::Contradiction),
    }
}

#[test]
fn a_row_too_high_is_caught_not_trusted() {
    let data = random_dataset(36, 16, 3, 2, 4);
    for name in FORMULATIONS {
        for solver in SOLVERS {
            for (rows, start) in [
                (DpBounds::All, WarmStartMode::Dp),
                (DpBounds::Splits, WarmStartMode::Dp),
                (DpBounds::All, WarmStartMode::None),
                (DpBounds::Splits, WarmStartMode::None),
            ] {
                let result = run((name, solver, 2), &data, rows, None, (start, 1.0));
                assert!(
                    caught(&result),
                    "{name} {solver:?} {rows} from {start}: {:?}",
                    result.map(|o| (o.report.termination, o.evaluated_objective))
                );
            }
        }
    }
}

#[test]
fn the_command_line_takes_the_families_and_refuses_others() {
    let (_dir, data) = temp_file("data.csv", &to_csv(&random_dataset(31, 16, 3, 2, 4)));
    let base = [
        "solve",
        path_str(&data),
        "--formulation",
        "flowoct",
        "--depth",
        "1",
        "--quiet",
        "--dp-bounds",
    ];
    let with =
        |family: &'static str| -> Vec<&str> { base.iter().copied().chain([family]).collect() };
    crate::common::assert_usage_error(&with("bogus"), "`bogus` is not one of");
    crate::common::assert_usage_error(
        &[
            "solve",
            path_str(&data),
            "--solver",
            "dp",
            "--depth",
            "1",
            "--dp-bounds",
            "all",
        ],
        "--dp-bounds",
    );
    let report = crate::common::milptree_json(&[&with("objective")[..], &["--json"]].concat());
    assert_eq!(report["search_rows"]["objective_rows"], 1, "{report}");
    assert_eq!(report["search_rows"]["split_rows"], 0, "{report}");
    assert_eq!(
        report["bound_source"], "solver_with_search_rows",
        "{report}"
    );
}
