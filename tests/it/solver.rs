//! The solver layer: one generic body per behaviour, run on every backend (see
//! `backend_tests!` at the end), plus backend-specific facts and the report's JSON.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use milptree::budget::Budget;
use milptree::mip::{constraint, Expression, MipModel, RowSense};
use milptree::solver::{self, gaps, SolveOptions, Solved, SolverKind, Termination};
use milptree::Error;

use crate::models::{self, Known};

/// Absolute tolerance of objective comparisons.
const TOLERANCE: f64 = 1e-6;

fn solve(model: &MipModel, kind: SolverKind, options: &SolveOptions) -> Solved {
    match solver::solve(model, kind, options) {
        Ok(solved) => solved,
        Err(error) => panic!("{kind} failed on `{}`: {error}", model.name()),
    }
}

fn assert_close(actual: Option<f64>, expected: f64, what: &str) {
    let actual = actual.unwrap_or_else(|| panic!("{what}: no value, expected {expected}"));
    assert!(
        (actual - expected).abs() <= TOLERANCE,
        "{what}: {actual}, expected {expected}"
    );
}

/// The start that sets the variables of `known` to `values` (in order).
fn start_of(known: &Known, values: &[f64]) -> milptree::mip::Assignment {
    let mut start = known.model.start();
    for (&v, &value) in known.vars.iter().zip(values) {
        start.set(v, value);
    }
    start.finish().expect("a complete start")
}

fn reaches_known_optima(kind: SolverKind) {
    let cases = [
        (models::knapsack(), true),
        (models::assignment(), true),
        (models::set_cover(), true),
        (models::mixed(), true),
        (models::lp(), false),
    ];
    for (known, mip) in cases {
        let name = known.model.name().to_string();
        let solved = solve(&known.model, kind, &SolveOptions::default());
        let report = &solved.report;
        assert_eq!(report.termination, Termination::Optimal, "{name}");
        assert!(report.has_solution, "{name}");
        assert_eq!(report.solver, kind.name());
        assert!(!report.solver_version.is_empty());
        assert_close(report.objective, known.optimum, &name);
        assert_close(report.best_bound, known.optimum, &name);
        assert_close(report.abs_gap, 0.0, &name);
        assert_close(report.rel_gap, 0.0, &name);
        assert_eq!(
            report.nodes.is_some(),
            mip,
            "{name}: nodes {:?}",
            report.nodes
        );
        assert!(report.seconds > 0.0);
        assert!(report.error.is_none() && report.warm_start.is_none());
        let last = report.trajectory.last().expect("a final trajectory point");
        assert_close(last.incumbent, known.optimum, &name);
        let solution = solved.solution.as_ref().expect("a solution");
        assert_close(
            Some(known.model.objective_value(solution)),
            known.optimum,
            &name,
        );
        let check = report.solution_check.as_ref().expect("a solution check");
        assert!(check.feasible, "{name}: {check:?}");
    }
    let known = models::mixed();
    let solved = solve(&known.model, kind, &SolveOptions::default());
    let solution = solved.solution.expect("a solution");
    let rounded = known.model.round_integers(&solution);
    assert_eq!(rounded.values()[..3], [4.0, -1.0, 0.0]);
    assert!((rounded.values()[3] + 3.0).abs() < TOLERANCE);
    assert!((rounded.values()[4] - 1.0).abs() < TOLERANCE);
}

fn reports_infeasible_models(kind: SolverKind) {
    for model in [models::infeasible(), models::integer_infeasible()] {
        let solved = solve(&model, kind, &SolveOptions::default());
        let report = &solved.report;
        assert_eq!(
            report.termination,
            Termination::Infeasible,
            "{}",
            model.name()
        );
        assert!(!report.has_solution);
        assert!(solved.solution.is_none());
        assert_eq!(
            (
                report.objective,
                report.best_bound,
                report.abs_gap,
                report.rel_gap
            ),
            (None, None, None, None)
        );
    }
}

fn reports_unbounded_models(kind: SolverKind) {
    let solved = solve(&models::unbounded(), kind, &SolveOptions::default());
    let report = &solved.report;
    assert_eq!(report.termination, Termination::Unbounded, "{report:?}");
    assert!(!report.has_solution && solved.solution.is_none());
    assert_eq!((report.objective, report.best_bound), (None, None));
}

/// Seconds within which a solve stopped by a limit must end, however busy the machine.
const DEADLINE: f64 = 60.0;

fn stops_at_a_zero_time_limit_without_a_solution(kind: SolverKind) {
    let (model, _, _) = models::hard_knapsack();
    let options = SolveOptions {
        budget: Budget::seconds(0.0),
        ..SolveOptions::default()
    };
    let solved = solve(&model, kind, &options);
    let report = &solved.report;
    assert_eq!(report.termination, Termination::TimeLimit, "{report:?}");
    assert!(!report.has_solution && solved.solution.is_none());
    assert_eq!(report.objective, None);
    assert_eq!(report.time_limit, Some(0.0));
    // A generous deadline: it catches a limit that is ignored, not a machine that is busy.
    assert!(report.seconds < DEADLINE, "{} s", report.seconds);
}

fn respects_a_fractional_wall_clock_limit(kind: SolverKind) {
    let model = models::slow_knapsack();
    let limit = 0.4;
    let options = SolveOptions {
        budget: Budget::seconds(limit),
        ..SolveOptions::default()
    };
    let report = solve(&model, kind, &options).report;
    assert_eq!(report.termination, Termination::TimeLimit, "{report:?}");
    // The solver stopped because of the limit (not at the optimum, which takes seconds), and
    // not before it. How soon after the limit it stops depends on the machine's load; the
    // generous deadline only catches a limit that is ignored.
    assert!(report.seconds >= limit * 0.9, "{} s", report.seconds);
    assert!(report.seconds < limit + DEADLINE, "{} s", report.seconds);
    assert!(report.has_solution);
    let (objective, bound) = (
        report.objective.expect("objective"),
        report.best_bound.expect("bound"),
    );
    assert!(
        bound <= objective,
        "bound {bound} above objective {objective}"
    );
    assert!(report.rel_gap.expect("gap") > 0.0);
}

fn never_calls_a_feasible_model_infeasible_at_tiny_time_limits(kind: SolverKind) {
    // CBC, stopped by the clock during preprocessing, may claim the model infeasible.
    let (model, _, _) = models::hard_knapsack();
    for round in 0..3 {
        for limit in [0.0005, 0.001, 0.0015, 0.002, 0.003] {
            let options = SolveOptions {
                budget: Budget::seconds(limit),
                ..SolveOptions::default()
            };
            let report = solve(&model, kind, &options).report;
            assert!(
                matches!(
                    report.termination,
                    Termination::TimeLimit | Termination::Optimal
                ),
                "round {round}, limit {limit}: {report:?}"
            );
        }
    }
}

fn keeps_a_start_at_a_zero_time_limit(kind: SolverKind, accepted: Option<bool>) {
    let (model, x, greedy) = models::hard_knapsack();
    let mut start = model.start();
    for (&v, &value) in x.iter().zip(&greedy) {
        start.set(v, value);
    }
    let start = start.finish().expect("complete");
    let start_objective = model.objective_value(&start);
    let options = SolveOptions {
        budget: Budget::seconds(0.0),
        warm_start: Some(start),
        ..SolveOptions::default()
    };
    let solved = solve(&model, kind, &options);
    let report = &solved.report;
    assert_eq!(report.termination, Termination::TimeLimit, "{report:?}");
    assert!(report.has_solution);
    assert_close(report.objective, start_objective, "objective");
    let solution = solved.solution.expect("the start");
    assert_eq!(model.round_integers(&solution).values(), &greedy[..]);
    let warm_start = report.warm_start.as_ref().expect("a warm-start report");
    assert!(warm_start.feasible);
    assert_eq!(warm_start.objective, start_objective);
    assert_eq!(warm_start.accepted, accepted);
}

fn flags_an_infeasible_start_and_still_solves(kind: SolverKind) {
    let known = models::knapsack();
    let start = start_of(&known, &[1.0; 6]);
    let options = SolveOptions {
        warm_start: Some(start),
        ..SolveOptions::default()
    };
    let solved = solve(&known.model, kind, &options);
    let report = &solved.report;
    assert_eq!(report.termination, Termination::Optimal);
    assert_close(report.objective, known.optimum, "objective");
    let warm_start = report.warm_start.as_ref().expect("a warm-start report");
    assert!(!warm_start.feasible);
    assert_eq!(warm_start.violations, 1);
    assert_eq!(warm_start.objective, -52.0);
    let worst = warm_start.worst_violation.as_ref().expect("the violation");
    assert_eq!(worst.name, "capacity");
    assert_eq!(worst.amount, 15.0);
    assert_eq!(warm_start.accepted, Some(false));
}

fn judges_a_feasible_start(kind: SolverKind, accepted: Option<bool>) {
    let known = models::knapsack();
    // Items 2 and 3: weight 9, value 15; not optimal.
    let start = start_of(&known, &[0.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
    let options = SolveOptions {
        warm_start: Some(start),
        ..SolveOptions::default()
    };
    let solved = solve(&known.model, kind, &options);
    let report = &solved.report;
    assert_eq!(report.termination, Termination::Optimal);
    assert_close(report.objective, known.optimum, "objective");
    let warm_start = report.warm_start.as_ref().expect("a warm-start report");
    assert!(warm_start.feasible && warm_start.worst_violation.is_none());
    assert_eq!(warm_start.objective, -15.0);
    assert_eq!(warm_start.accepted, accepted);
}

fn honours_an_interrupt_flag_set_before_the_solve(kind: SolverKind) {
    let (model, _, _) = models::hard_knapsack();
    let options = SolveOptions {
        budget: Budget::unlimited().with_interrupt(Some(Arc::new(AtomicBool::new(true)))),
        ..SolveOptions::default()
    };
    let solved = solve(&model, kind, &options);
    assert_eq!(solved.report.termination, Termination::Interrupted);
    if let Some(solution) = &solved.solution {
        assert!(model.check(solution).feasible);
    }
}

fn applies_every_thread_count(kind: SolverKind) {
    let known = models::knapsack();
    for threads in [1, 2, 1] {
        let options = SolveOptions {
            threads: Some(threads),
            ..SolveOptions::default()
        };
        let report = solve(&known.model, kind, &options).report;
        assert_eq!(
            report.termination,
            Termination::Optimal,
            "{threads} threads"
        );
        assert_close(report.objective, known.optimum, "objective");
        assert_eq!(report.threads, Some(threads));
    }
}

fn stops_within_the_requested_gap(kind: SolverKind) {
    let (model, _, _) = models::hard_knapsack();
    let options = SolveOptions {
        mip_rel_gap: 0.05,
        ..SolveOptions::default()
    };
    let report = solve(&model, kind, &options).report;
    assert_eq!(report.termination, Termination::Optimal);
    assert_eq!(report.mip_rel_gap, 0.05);
    let rel_gap = report.rel_gap.expect("a gap");
    assert!(rel_gap <= 0.05 + TOLERANCE, "gap {rel_gap}");
    let (abs_gap, _) = gaps(report.objective, report.best_bound);
    assert_eq!(report.abs_gap, abs_gap);
}

fn rejects_bad_options_and_foreign_starts(kind: SolverKind) {
    // A limit that is not a usable number of seconds is refused where it enters, by name.
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        let error = Budget::limit("--time-limit", Some(bad)).expect_err("refused");
        assert_eq!(error.exit_code(), 2);
        assert!(error.to_string().contains("--time-limit"), "{error}");
    }
    let known = models::knapsack();
    let bad = [
        SolveOptions {
            mip_rel_gap: -0.1,
            ..SolveOptions::default()
        },
        SolveOptions {
            threads: Some(0),
            ..SolveOptions::default()
        },
        SolveOptions {
            threads: Some(machine_threads() + 1),
            ..SolveOptions::default()
        },
    ];
    for options in bad {
        let result = solver::solve(&known.model, kind, &options);
        assert!(
            matches!(result, Err(Error::Parameter { .. })),
            "{options:?}"
        );
    }
    let other = models::set_cover();
    let foreign = start_of(&other, &[1.0; 5]);
    let options = SolveOptions {
        warm_start: Some(foreign),
        ..SolveOptions::default()
    };
    let result = solver::solve(&known.model, kind, &options);
    assert!(matches!(result, Err(Error::Model(_))));
}

/// The hardware threads of this machine, as the standard library sees them.
fn machine_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn evaluates_a_model_without_variables(kind: SolverKind) {
    let mut model = MipModel::new("constant");
    model.set_objective(Expression::from(3.5));
    let solved = solve(&model, kind, &SolveOptions::default());
    assert_eq!(solved.report.termination, Termination::Optimal);
    assert_eq!(solved.report.objective, Some(3.5));
    assert_eq!(solved.report.rel_gap, Some(0.0));
    model.add_row("impossible", Expression::default(), RowSense::Ge, 1.0);
    let solved = solve(&model, kind, &SolveOptions::default());
    assert_eq!(solved.report.termination, Termination::Infeasible);
}

/// Instantiates every generic body for one backend, with the warm-start verdicts the backend
/// can give: a start kept at a time limit of 0, and a feasible start given with no limit.
macro_rules! backend_tests {
    ($backend:ident, $kind:expr, $kept_start:expr, $feasible_start:expr) => {
        mod $backend {
            use super::*;

            #[test]
            fn reaches_known_optima() {
                super::reaches_known_optima($kind);
            }

            #[test]
            fn reports_infeasible_models() {
                super::reports_infeasible_models($kind);
            }

            #[test]
            fn reports_unbounded_models() {
                super::reports_unbounded_models($kind);
            }

            #[test]
            fn stops_at_a_zero_time_limit_without_a_solution() {
                super::stops_at_a_zero_time_limit_without_a_solution($kind);
            }

            #[test]
            fn respects_a_fractional_wall_clock_limit() {
                super::respects_a_fractional_wall_clock_limit($kind);
            }

            #[test]
            fn never_calls_a_feasible_model_infeasible_at_tiny_time_limits() {
                super::never_calls_a_feasible_model_infeasible_at_tiny_time_limits($kind);
            }

            #[test]
            fn keeps_a_start_at_a_zero_time_limit() {
                super::keeps_a_start_at_a_zero_time_limit($kind, $kept_start);
            }

            #[test]
            fn flags_an_infeasible_start_and_still_solves() {
                super::flags_an_infeasible_start_and_still_solves($kind);
            }

            #[test]
            fn judges_a_feasible_start() {
                super::judges_a_feasible_start($kind, $feasible_start);
            }

            #[test]
            fn honours_an_interrupt_flag_set_before_the_solve() {
                super::honours_an_interrupt_flag_set_before_the_solve($kind);
            }

            #[test]
            fn applies_every_thread_count() {
                super::applies_every_thread_count($kind);
            }

            #[test]
            fn stops_within_the_requested_gap() {
                super::stops_within_the_requested_gap($kind);
            }

            #[test]
            fn rejects_bad_options_and_foreign_starts() {
                super::rejects_bad_options_and_foreign_starts($kind);
            }

            #[test]
            fn evaluates_a_model_without_variables() {
                super::evaluates_a_model_without_variables($kind);
            }
        }
    };
}

// HiGHS reports every incumbent: a start kept without any incumbent event, or reported as the
// first incumbent, is known to be accepted. CBC's log says when it takes the start (Cbc0045I),
// which the parent reads as the first incumbent.
backend_tests!(highs, SolverKind::Highs, Some(true), Some(true));
backend_tests!(cbc, SolverKind::Cbc, Some(true), Some(true));

#[test]
fn highs_reports_a_trajectory_of_improving_solutions() {
    let (model, _, _) = models::hard_knapsack();
    let report = solve(&model, SolverKind::Highs, &SolveOptions::default()).report;
    assert_eq!(report.termination, Termination::Optimal);
    assert!(report.trajectory.len() >= 2, "{:?}", report.trajectory);
    let first = report.time_to_first_incumbent.expect("a first incumbent");
    assert!(first <= report.seconds);
    assert_eq!(report.first_incumbent, report.trajectory[0].incumbent);
    let incumbents: Vec<f64> = report
        .trajectory
        .iter()
        .filter_map(|p| p.incumbent)
        .collect();
    assert!(
        incumbents.windows(2).all(|w| w[1] <= w[0]),
        "{incumbents:?}"
    );
    let times: Vec<f64> = report.trajectory.iter().map(|p| p.seconds).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
}

#[test]
fn cbc_reports_a_trajectory_from_its_log() {
    let (model, _, _) = models::hard_knapsack();
    let report = solve(&model, SolverKind::Cbc, &SolveOptions::default()).report;
    assert_eq!(report.termination, Termination::Optimal);
    assert!(report.nodes.is_some_and(|n| n > 0), "{:?}", report.nodes);
    assert!(report.trajectory.len() >= 2, "{:?}", report.trajectory);
    let first = report.time_to_first_incumbent.expect("a first incumbent");
    assert!(first > 0.0 && first <= report.seconds);
    assert_eq!(report.first_incumbent, report.trajectory[0].incumbent);
    let incumbents: Vec<f64> = report
        .trajectory
        .iter()
        .filter_map(|p| p.incumbent)
        .collect();
    assert!(
        incumbents.windows(2).all(|w| w[1] <= w[0] + TOLERANCE),
        "{incumbents:?}"
    );
    let times: Vec<f64> = report.trajectory.iter().map(|p| p.seconds).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    let last = report.trajectory.last().expect("a final point");
    assert_eq!(last.incumbent, report.objective);
    assert_eq!(last.bound, report.best_bound);
}

#[test]
fn solver_kinds_parse_and_display() {
    assert_eq!("highs".parse::<SolverKind>().ok(), Some(SolverKind::Highs));
    assert_eq!(" CBC ".parse::<SolverKind>().ok(), Some(SolverKind::Cbc));
    let error = "gurobi".parse::<SolverKind>().expect_err("unknown");
    assert!(error.to_string().contains("expected `highs` or `cbc`"));
    assert_eq!(SolverKind::Cbc.to_string(), "cbc");
}

#[test]
fn gaps_follow_one_formula() {
    assert_eq!(gaps(Some(10.0), Some(8.0)), (Some(2.0), Some(0.2)));
    assert_eq!(gaps(Some(-10.0), Some(-12.0)), (Some(2.0), Some(0.2)));
    assert_eq!(gaps(Some(5.0), Some(5.000001)), (Some(0.0), Some(0.0)));
    assert_eq!(gaps(Some(0.0), Some(-1.0)), (Some(1.0), None));
    assert_eq!(gaps(Some(0.0), Some(0.0)), (Some(0.0), Some(0.0)));
    assert_eq!(gaps(None, Some(1.0)), (None, None));
    assert_eq!(gaps(Some(1.0), None), (None, None));
}

#[test]
fn the_report_serialises_with_stable_names() {
    let (model, _, _) = models::hard_knapsack();
    let options = SolveOptions {
        budget: Budget::seconds(0.0),
        ..SolveOptions::default()
    };
    let report = solve(&model, SolverKind::Highs, &options).report;
    let json = serde_json::to_value(&report).expect("JSON");
    assert_eq!(json["termination"], "time_limit");
    assert_eq!(json["has_solution"], false);
    assert!(json["objective"].is_null() && json["error"].is_null());
    assert!(json["rel_gap"].is_null() && json["warm_start"].is_null());
    assert_eq!(json["solver"], "highs");
    for field in [
        "solver_version",
        "best_bound",
        "abs_gap",
        "seconds",
        "nodes",
        "time_to_first_incumbent",
        "first_incumbent",
        "trajectory",
        "solution_check",
        "time_limit",
        "mip_rel_gap",
        "threads",
        "notes",
    ] {
        assert!(json.get(field).is_some(), "missing {field}");
    }
    let error = Termination::Error("boom".into());
    assert_eq!(serde_json::to_value(&error).expect("JSON"), "error");
    assert_eq!(
        serde_json::to_value(Termination::InfeasibleOrUnbounded).expect("JSON"),
        "infeasible_or_unbounded"
    );
}

#[test]
fn a_model_with_rows_only_in_equalities_solves() {
    // x + y = 1.5 with x integer: y takes the fraction.
    let mut model = MipModel::new("equality");
    let x = model.integer("x", 0.0, 3.0);
    let y = model.continuous("y", 0.0, 1.0);
    model.add_constraint("sum", constraint!(x + y == 1.5));
    model.set_objective(y - x);
    for kind in SolverKind::ALL {
        let report = solve(&model, kind, &SolveOptions::default()).report;
        assert_close(report.objective, -0.5, kind.name());
    }
}

#[test]
fn highs_stops_at_the_interrupt_flag_with_its_best_solution() {
    // The flag is read at every check HiGHS makes, so one raised before the solve stops it at
    // its first check: no race with the clock. A feasible start (nothing packed) gives HiGHS an
    // incumbent from the beginning, so the solution does not depend on when it stops either.
    let model = models::slow_knapsack();
    let mut start = model.start();
    for column in 0..model.vars().len() {
        start.set_column(column, 0.0);
    }
    let start = start.finish().expect("complete");
    let flag = Arc::new(AtomicBool::new(true));
    let options = SolveOptions {
        budget: Budget::seconds(60.0).with_interrupt(Some(Arc::clone(&flag))),
        warm_start: Some(start),
        ..SolveOptions::default()
    };
    let solved = solve(&model, SolverKind::Highs, &options);
    let report = &solved.report;
    assert_eq!(report.termination, Termination::Interrupted, "{report:?}");
    assert!(report.has_solution, "{report:?}");
    let solution = solved.solution.expect("the best solution so far");
    assert!(model.check(&solution).feasible);
    // At least as good as the start, whose objective is 0; and not proven optimal.
    let objective = report.objective.expect("an objective");
    assert!(objective <= 0.0, "{objective}");
    assert!(
        report.best_bound.is_none_or(|bound| bound < objective),
        "{report:?}"
    );
}

#[test]
fn cbc_stops_when_the_interrupt_flag_is_raised_mid_solve() {
    // CBC's worker is killed when the parent sees the flag. The flag is raised half a second
    // in, well before CBC could prove this model optimal (seconds); raised earlier, it stops
    // CBC before its worker starts, which is `interrupted` too. No clock is compared.
    let model = models::slow_knapsack();
    let flag = Arc::new(AtomicBool::new(false));
    let options = SolveOptions {
        budget: Budget::seconds(DEADLINE).with_interrupt(Some(Arc::clone(&flag))),
        ..SolveOptions::default()
    };
    let raiser = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(500));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let solved = solve(&model, SolverKind::Cbc, &options);
    raiser.join().expect("the raising thread");
    let report = &solved.report;
    assert_eq!(report.termination, Termination::Interrupted, "{report:?}");
    // CBC's values die with its worker; what its log showed is kept.
    if let Some(solution) = &solved.solution {
        assert!(model.check(solution).feasible);
    }
    assert_eq!(
        report.trajectory.last().and_then(|p| p.incumbent),
        report.objective
    );
}

/// Set in the child process of `solver_logs_go_to_stderr_never_stdout`.
const LOG_CHILD: &str = "MILPTREE_SOLVER_LOG_CHILD";

#[test]
fn solver_logs_go_to_stderr_never_stdout() {
    if std::env::var_os(LOG_CHILD).is_some() {
        // The child: solve with the log on; the parent inspects both streams.
        let known = models::knapsack();
        for kind in SolverKind::ALL {
            let options = SolveOptions {
                log: true,
                ..SolveOptions::default()
            };
            let report = solve(&known.model, kind, &options).report;
            assert_eq!(report.termination, Termination::Optimal);
        }
        return;
    }
    let output = std::process::Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "solver::solver_logs_go_to_stderr_never_stdout",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(LOG_CHILD, "1")
        .output()
        .expect("run the child");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    // HiGHS log lines ("Coefficient ranges") and CBC message codes ("Cbc0045I", ...).
    for marker in ["Coefficient ranges", "Cbc0"] {
        assert!(
            stderr.contains(marker),
            "no `{marker}` on stderr:\n{stderr}"
        );
        assert!(!stdout.contains(marker), "`{marker}` on stdout:\n{stdout}");
    }
}
