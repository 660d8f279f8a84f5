//! The epsilon-constraint front of the MILPs against the bi-objective search: on small random
//! two-class data, OCT (leaves free to predict either class) and BinOCT over every midpoint,
//! solved by HiGHS and by CBC, give the search's front point for point, every solve proven
//! optimal, each point's decoded tree making exactly its point's errors.

use milptree::budget::Budget;
use milptree::data::{Dataset, ThresholdMode};
use milptree::formulation::binoct::BinOct;
use milptree::formulation::oct::Oct;
use milptree::formulation::{ClassErrors, Objective};
use milptree::learn::epsilon::{epsilon_front, EpsilonOptions};
use milptree::pareto::{errors_of, solve, ParetoOptions, ParetoProblem, Point};
use milptree::solver::SolverKind;

use crate::common::{mixed_dataset, random_dataset, to_csv};

fn dp_front(data: &Dataset, depth: usize) -> Vec<Point> {
    let outcome = solve(data, &ParetoProblem::new(depth), &ParetoOptions::default())
        .expect("the search solves");
    outcome.front.iter().map(|t| t.point).collect()
}

fn check<F: ClassErrors>(formulation: &F, label: &str, data: &Dataset, depth: usize) {
    let expected = dp_front(data, depth);
    for solver in [SolverKind::Highs, SolverKind::Cbc] {
        let run = epsilon_front(
            formulation,
            data,
            &EpsilonOptions {
                solver,
                budget: Budget::seconds(60.0),
                threads: Some(1),
            },
        )
        .unwrap_or_else(|e| panic!("{label} on {solver:?}, {}: {e}", data.source()));
        let outcome = &run.outcome;
        let found: Vec<Point> = outcome.front.iter().map(|t| t.point).collect();
        assert!(
            outcome.is_complete(),
            "{label} {solver:?} {}",
            data.source()
        );
        assert_eq!(
            found,
            expected,
            "{label} on {solver:?}, depth {depth}, {}",
            data.source()
        );
        assert_eq!(run.solves.len(), expected.len());
        for front_tree in &outcome.front {
            assert!(front_tree.proven);
            assert_eq!(errors_of(&front_tree.tree, data), front_tree.point);
        }
        // Every solve after the first starts from the previous point's tree.
        assert!(run.solves.iter().skip(1).all(|s| s.warm_started));
    }
}

#[test]
fn oct_and_binoct_fronts_equal_the_search_front_on_both_solvers() {
    for (seed, depth) in [(1u64, 1usize), (2, 2), (3, 2)] {
        let data = random_dataset(seed, 10, 2, 2, 3);
        check(&Oct::new(depth), "OCT", &data, depth);
        let binoct = BinOct {
            thresholds: ThresholdMode::All,
            objective: Objective::Accuracy,
            ..BinOct::new(depth)
        };
        check(&binoct, "BinOCT", &data, depth);
    }
    let data = mixed_dataset(7, 12, &[4, 3], 2, 1);
    let binoct = BinOct {
        thresholds: ThresholdMode::All,
        objective: Objective::Accuracy,
        ..BinOct::new(2)
    };
    check(&binoct, "BinOCT", &data, 2);
}

#[test]
fn an_exported_max_fp_model_solves_to_the_front_point_on_both_solvers() {
    let data = random_dataset(2, 10, 2, 2, 3);
    let front = dp_front(&data, 2);
    assert!(front.len() >= 2, "a front with a point to skip: {front:?}");
    let negatives = data.labels().iter().filter(|&&l| l == 0).count() as f64;
    let (_dir, csv) = crate::common::temp_file("front.csv", &to_csv(&data));
    let out = tempfile::tempdir().expect("temporary directory");
    // Bounds at a point's false positives and just below the next point's.
    for (k, point) in front.iter().enumerate() {
        let bounds = match front.get(k + 1) {
            Some(next) if next.fp > point.fp + 1 => vec![point.fp, next.fp - 1],
            _ => vec![point.fp],
        };
        for max_fp in bounds {
            for (formulation, extra) in [("oct", vec![]), ("binoct", vec!["--thresholds", "all"])] {
                let model = out.path().join(format!("{formulation}-{max_fp}.lp"));
                let max = max_fp.to_string();
                let mut args = vec![
                    "export-lp",
                    crate::common::path_str(&csv),
                    "--formulation",
                    formulation,
                    "--depth",
                    "2",
                    "--max-fp",
                    &max,
                    "-o",
                    crate::common::path_str(&model),
                ];
                args.extend(extra.iter().copied());
                let output = crate::common::milptree(&args);
                assert!(
                    output.status.success(),
                    "{}",
                    crate::common::stderr(&output)
                );
                let want = (negatives + 1.0) * f64::from(point.fn_) + f64::from(point.fp);
                for solver in [SolverKind::Highs, SolverKind::Cbc] {
                    let solved = milptree::solver::solve_file(
                        solver,
                        &model,
                        None,
                        &milptree::solver::SolveOptions::default(),
                    )
                    .expect("the file solves");
                    let objective = solved.report.objective.expect("an optimum");
                    // Integral at the optimum; the file is solved with the solvers' default
                    // integrality tolerance, which BinOCT's big-M rows turn into ~1e-6.
                    assert!(
                        (objective - want).abs() < 1e-3,
                        "{formulation} {solver:?} FP <= {max_fp}: {objective}, front point {point:?}"
                    );
                }
            }
        }
    }
    // Not for FlowOCT, and not on three classes.
    let output = crate::common::milptree(&[
        "export-lp",
        crate::common::path_str(&csv),
        "--formulation",
        "flowoct",
        "--depth",
        "2",
        "--max-fp",
        "1",
        "-o",
        crate::common::path_str(&out.path().join("flow.lp")),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(crate::common::stderr(&output).contains("--max-fp"));
}

#[test]
fn an_exported_max_fp_model_of_one_class_against_the_rest_solves_to_that_front() {
    // Three classes, the positive one named: the front is that of the class against the rest,
    // as `pareto` computes it.
    let data = random_dataset(5, 12, 2, 3, 3);
    let binary = milptree::pareto::binary_data(&data, Some("c1")).expect("c1 is a class");
    let front = dp_front(&binary, 1);
    let negatives = binary.labels().iter().filter(|&&l| l == 0).count() as f64;
    let (_dir, csv) = crate::common::temp_file("three.csv", &to_csv(&data));
    let out = tempfile::tempdir().expect("temporary directory");
    for point in &front {
        let model = out.path().join(format!("oct-{}.lp", point.fp));
        let max = point.fp.to_string();
        let output = crate::common::milptree(&[
            "export-lp",
            crate::common::path_str(&csv),
            "--formulation",
            "oct",
            "--depth",
            "1",
            "--max-fp",
            &max,
            "--positive-class",
            "c1",
            "-o",
            crate::common::path_str(&model),
        ]);
        assert!(
            output.status.success(),
            "{}",
            crate::common::stderr(&output)
        );
        let solved = milptree::solver::solve_file(
            SolverKind::Highs,
            &model,
            None,
            &milptree::solver::SolveOptions::default(),
        )
        .expect("the file solves");
        let objective = solved.report.objective.expect("an optimum");
        let want = (negatives + 1.0) * f64::from(point.fn_) + f64::from(point.fp);
        assert!((objective - want).abs() < 1e-3, "{objective} for {point:?}");
    }
    // Without the positive class, three classes are refused, naming the option.
    let output = crate::common::milptree(&[
        "export-lp",
        crate::common::path_str(&csv),
        "--formulation",
        "oct",
        "--depth",
        "1",
        "--max-fp",
        "1",
        "-o",
        crate::common::path_str(&out.path().join("none.lp")),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(crate::common::stderr(&output).contains("--positive-class"));
}

#[test]
fn a_max_fp_model_refuses_the_options_of_another_objective() {
    let data = random_dataset(2, 10, 2, 2, 3);
    let (_dir, csv) = crate::common::temp_file("front.csv", &to_csv(&data));
    let out = tempfile::tempdir().expect("temporary directory");
    let model = out.path().join("m.lp");
    for (formulation, option, value) in [
        ("oct", "--alpha", "0.5"),
        ("oct", "--objective", "balanced"),
        ("oct", "--leaf-penalty", "0.1"),
        ("binoct", "--objective", "balanced"),
        ("binoct", "--leaf-penalty", "0.1"),
    ] {
        let output = crate::common::milptree(&[
            "export-lp",
            crate::common::path_str(&csv),
            "--formulation",
            formulation,
            "--depth",
            "1",
            "--max-fp",
            "3",
            option,
            value,
            "-o",
            crate::common::path_str(&model),
        ]);
        let message = crate::common::stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{option}: {message}");
        assert!(message.contains(option), "{message}");
        assert!(message.contains("--max-fp"), "{message}");
        assert!(!model.exists(), "{option}: no model is written");
    }
}
