//! Row weights and class weights in OCT, BinOCT and FlowOCT on both solvers, against the
//! exhaustive oracle: whole row weights give the optimum of the data with each row repeated
//! that many times; real row weights with class weights (accuracy and balanced) give the
//! weighted oracle's optimum; a row of weight 0 changes nothing. The returned tree's weighted
//! errors are counted here, by plain code. With weights the exact search's certificate does not
//! apply, and says so; the models that count rows (at most E false positives, the front) refuse
//! row weights.

use milptree::budget::Budget;
use milptree::data::{Dataset, ThresholdMode};
use milptree::formulation::binoct::BinOct;
use milptree::formulation::flowoct::FlowOct;
use milptree::formulation::oct::Oct;
use milptree::formulation::{AnyFormulation, Objective};
use milptree::learn::certificate::Verdict;
use milptree::learn::epsilon::{epsilon_front, EpsilonOptions};
use milptree::learn::milp::{self, MilpOptions};
use milptree::learn::{milp_method, LearnOptions, WarmStartMode};
use milptree::score::ClassWeight;
use milptree::solver::{SolveOptions, SolverKind, Termination};

use crate::common::{random_dataset, repeated_rows, with_random_weights};
use crate::oracle::{optimum, OracleSpec};

const SOLVERS: [SolverKind; 2] = [SolverKind::Highs, SolverKind::Cbc];

/// Small random instances with ties: (seed, rows, features, classes, distinct values).
const INSTANCES: [(u64, usize, usize, usize, u32); 3] =
    [(31, 10, 2, 2, 4), (32, 11, 2, 3, 3), (33, 12, 2, 2, 5)];

/// OCT, BinOCT and FlowOCT of `depth` over every midpoint, with `objective` and `class_weights`.
fn formulations(
    depth: usize,
    objective: Objective,
    class_weights: &[ClassWeight],
) -> Vec<AnyFormulation> {
    vec![
        AnyFormulation::Oct(Oct {
            objective,
            class_weights: class_weights.to_vec(),
            ..Oct::new(depth)
        }),
        AnyFormulation::BinOct(BinOct {
            thresholds: ThresholdMode::All,
            objective,
            class_weights: class_weights.to_vec(),
            ..BinOct::new(depth)
        }),
        AnyFormulation::FlowOct(FlowOct {
            thresholds: ThresholdMode::All,
            objective,
            class_weights: class_weights.to_vec(),
            ..FlowOct::new(depth)
        }),
    ]
}

/// The cost of an error on each class per unit of row weight, computed here: the objective's
/// class cost (balanced: `W / (K W_k)` over the rows' weights) times the user's class weight.
fn class_factors(data: &Dataset, objective: Objective, class_weights: &[ClassWeight]) -> Vec<f64> {
    let k = data.n_classes();
    let mut totals = vec![0.0; k];
    for (i, &label) in data.labels().iter().enumerate() {
        totals[label] += data.weight(i);
    }
    let total: f64 = totals.iter().sum();
    (0..k)
        .map(|class| {
            let cost = match objective {
                Objective::Accuracy => 1.0,
                Objective::Balanced => total / (k as f64 * totals[class]),
            };
            let given = class_weights
                .iter()
                .find(|w| w.label == data.classes()[class])
                .map_or(1.0, |w| w.weight);
            cost * given
        })
        .collect()
}

/// The summed cost of the rows `predicted` gets wrong.
fn weighted_errors(data: &Dataset, factors: &[f64], predicted: &[usize]) -> f64 {
    (0..data.n_rows())
        .filter(|&i| predicted[i] != data.labels()[i])
        .map(|i| factors[data.labels()[i]] * data.weight(i))
        .sum()
}

/// The majority-class baseline's errors under `factors` (OCT's normaliser).
fn baseline(data: &Dataset, factors: &[f64]) -> f64 {
    let mut totals = vec![0.0; data.n_classes()];
    for (i, &label) in data.labels().iter().enumerate() {
        totals[label] += factors[label] * data.weight(i);
    }
    totals.iter().sum::<f64>() - totals.iter().copied().fold(0.0, f64::max)
}

/// Solves `formulation` on `data` to proven optimality (the runner's check of the decoded tree
/// against the solver must pass) and returns the solver's optimum and the returned tree's
/// weighted errors counted here, both in weighted errors (OCT's objective times its baseline).
fn solve(
    formulation: &AnyFormulation,
    data: &Dataset,
    solver: SolverKind,
    factors: &[f64],
) -> (f64, f64) {
    let outcome = milp::run_any(
        formulation,
        data,
        MilpOptions {
            solver,
            solve: SolveOptions {
                budget: Budget::seconds(60.0),
                ..SolveOptions::default()
            },
            start: Some(formulation.greedy_tree(data).expect("the greedy tree")),
            warm_start_mode: WarmStartMode::Greedy,
            start_is_optimal: false,
            fallback_start: None,
            bound_below_for_tests: false,
            search_rows: None,
            separation_rounds: 0,
            constraints: None,
        },
    )
    .expect("the model solves");
    let context = format!("{} {solver:?} {}", formulation.name(), data.source());
    assert_eq!(
        outcome.report.termination,
        Termination::Optimal,
        "{context}"
    );
    assert!(
        outcome.decode_mismatch.is_none(),
        "{context}: {:?}",
        outcome.decode_mismatch
    );
    let warm = outcome.report.warm_start.as_ref().expect("a warm start");
    assert!(warm.feasible, "{context}: the greedy start {warm:?}");
    let scale = match formulation {
        AnyFormulation::Oct(_) => baseline(data, factors),
        _ => 1.0,
    };
    let objective = outcome.report.objective.expect("an objective") * scale;
    let tree = outcome.tree.as_ref().expect("a tree");
    let counted = weighted_errors(data, factors, &tree.predict(data.rows()));
    (objective, counted)
}

/// Asserts that every formulation on both solvers reaches `expected` on `data`.
fn assert_optimum(
    data: &Dataset,
    depth: usize,
    objective: Objective,
    class_weights: &[ClassWeight],
    expected: f64,
) {
    let factors = class_factors(data, objective, class_weights);
    for formulation in formulations(depth, objective, class_weights) {
        for solver in SOLVERS {
            let (optimum, counted) = solve(&formulation, data, solver, &factors);
            let context = format!(
                "{} {solver:?} {} depth {depth} {objective}",
                formulation.name(),
                data.source()
            );
            let tolerance = 1e-6 * expected.abs().max(1.0);
            assert!(
                (optimum - expected).abs() <= tolerance,
                "{context}: solver {optimum}, oracle {expected}"
            );
            assert!(
                (counted - expected).abs() <= tolerance,
                "{context}: the tree's weighted errors {counted}, oracle {expected}"
            );
        }
    }
}

#[test]
fn integer_row_weights_give_the_optimum_of_the_repeated_rows() {
    for (seed, n, p, k, levels) in INSTANCES.into_iter().take(2) {
        let data = with_random_weights(random_dataset(seed, n, p, k, levels), seed, true);
        let repeated = repeated_rows(&data);
        for depth in [1, 2] {
            let expected = optimum(&repeated, &OracleSpec::errors(&repeated, depth));
            assert_optimum(&data, depth, Objective::Accuracy, &[], expected.objective);
        }
    }
}

#[test]
fn real_row_weights_and_class_weights_match_the_weighted_oracle() {
    let heavy = |label: &str, weight: f64| ClassWeight {
        label: label.to_string(),
        weight,
    };
    for (seed, n, p, k, levels) in INSTANCES {
        let data = with_random_weights(random_dataset(seed, n, p, k, levels), seed + 100, false);
        let class_weights = [heavy("c1", 2.5), heavy("c0", 0.75)];
        for (depth, objective) in [(1, Objective::Balanced), (2, Objective::Accuracy)] {
            let spec = OracleSpec {
                class_weights: class_factors(&data, objective, &class_weights),
                ..OracleSpec::errors(&data, depth)
            };
            let expected = optimum(&data, &spec);
            assert_optimum(&data, depth, objective, &class_weights, expected.objective);
        }
    }
}

#[test]
fn rows_of_weight_zero_change_nothing() {
    for (seed, n, p, k, levels) in INSTANCES.into_iter().take(2) {
        let data = random_dataset(seed, n, p, k, levels);
        // Rows 3, 5 and 8 weigh nothing: the optimum is that of the data without them.
        let zero = [3, 5, 8];
        let weights = (0..n)
            .map(|i| if zero.contains(&i) { 0.0 } else { 1.0 })
            .collect();
        let weighted = data.clone().with_weights(weights).expect("valid weights");
        let others: Vec<usize> = (0..n).filter(|i| !zero.contains(i)).collect();
        let without = data.subset(&others);
        let expected = optimum(&without, &OracleSpec::errors(&without, 2));
        assert_optimum(&weighted, 2, Objective::Accuracy, &[], expected.objective);
    }
}

#[test]
fn the_certificate_takes_whole_row_weights_and_class_weights_and_not_others() {
    let data = random_dataset(34, 12, 2, 2, 4);
    let options = || LearnOptions {
        certify: Some(std::time::Duration::from_secs(10)),
        warm_start: WarmStartMode::Dp,
        ..LearnOptions::default()
    };
    let run = |formulation: &AnyFormulation, data: &Dataset| {
        milp_method::run(formulation, SolverKind::Highs, data, options()).expect("runs")
    };
    let class_weighted = Oct {
        class_weights: vec![ClassWeight {
            label: "c1".to_string(),
            weight: 3.0,
        }],
        ..Oct::new(2)
    };
    let whole = with_random_weights(data.clone(), 34, true);
    // The search certifies the optimum without weights, with whole row weights (as repeated
    // rows) and with class weights.
    for (formulation, data) in [
        (AnyFormulation::Oct(Oct::new(2)), &data),
        (AnyFormulation::Oct(Oct::new(2)), &whole),
        (AnyFormulation::Oct(class_weighted.clone()), &data),
        (AnyFormulation::Oct(class_weighted), &whole),
        (AnyFormulation::FlowOct(FlowOct::new(2)), &whole),
        (AnyFormulation::BinOct(BinOct::new(2)), &whole),
    ] {
        let outcome = run(&formulation, data);
        assert_eq!(outcome.report.termination, Termination::Optimal);
        let certificate = outcome.certificate.expect("a certificate");
        assert_eq!(
            certificate.verdict,
            Verdict::Agrees,
            "{} {:?}: {certificate:?}",
            formulation.name(),
            data.weights()
        );
        let dp = certificate.dp.expect("the search's figures");
        let objective = outcome.report.objective.expect("an objective");
        assert!(
            (dp.objective - objective).abs() < 1e-6,
            "{dp:?} {objective}"
        );
    }
    // Row weights with no common unit per class: the search counts rows (each a whole number
    // of its class's unit), so it does not apply.
    let real = with_random_weights(data.clone(), 34, false);
    for formulation in [
        AnyFormulation::Oct(Oct::new(2)),
        AnyFormulation::FlowOct(FlowOct::new(2)),
    ] {
        let outcome = run(&formulation, &real);
        assert_eq!(outcome.report.termination, Termination::Optimal);
        let certificate = outcome.certificate.expect("a certificate");
        assert_eq!(certificate.verdict, Verdict::NotApplicable);
        assert!(certificate.dp.is_none());
        assert!(
            certificate
                .message
                .contains("whole multiples of one unit per class"),
            "{}: {}",
            formulation.name(),
            certificate.message
        );
        // The search's tree was only a heuristic start.
        assert!(
            outcome.notes.iter().any(|n| n.contains("heuristic start")),
            "{:?}",
            outcome.notes
        );
    }
}

#[test]
fn models_that_count_rows_refuse_row_weights() {
    let weighted = with_random_weights(random_dataset(35, 10, 2, 2, 4), 35, false);
    let message = |error: milptree::Error| error.to_string();
    let bounded = AnyFormulation::Oct(Oct::new(1))
        .build_with_max_false_positives(&weighted, 2)
        .err()
        .map(message)
        .expect("refused");
    assert!(bounded.contains("row weights"), "{bounded}");
    let options = EpsilonOptions {
        solver: SolverKind::Highs,
        budget: Budget::unlimited(),
        threads: None,
    };
    let front = epsilon_front(&Oct::new(1), &weighted, &options)
        .err()
        .map(message)
        .expect("refused");
    assert!(front.contains("row weights"), "{front}");
}

/// Through the command line: `solve` with a weight column and class weights reaches the
/// weighted oracle's optimum with real-valued weights, and the model `export-lp` writes for the
/// same options solves, in a file, to the same optimum.
#[test]
fn the_command_line_takes_real_row_weights_and_class_weights_for_the_milps() {
    use crate::common::{milptree_json, path_str, temp_file, to_weighted_csv};
    use milptree::solver::{solve_file, SolveOptions};
    let data = with_random_weights(random_dataset(36, 12, 2, 2, 4), 36, false);
    assert!(!data.has_integer_weights());
    let (dir, file) = temp_file("weighted.csv", &to_weighted_csv(&data));
    let factors = [1.0, 2.5];
    let spec = OracleSpec {
        class_weights: factors.to_vec(),
        ..OracleSpec::errors(&data, 1)
    };
    let expected = optimum(&data, &spec).objective;
    for formulation in ["binoct", "flowoct"] {
        let args = [
            path_str(&file),
            "--weight-column",
            "w",
            "--class-weight",
            "c1=2.5",
            "--formulation",
            formulation,
            "--depth",
            "1",
        ];
        let solved = milptree_json(&[&["solve"][..], &args, &["--json", "--quiet"]].concat());
        let objective = solved["objective"].as_f64().expect("objective");
        assert!(
            (objective - expected).abs() < 1e-6,
            "{formulation}: {objective} vs the oracle's {expected}"
        );
        assert_eq!(solved["termination"], "optimal");
        let model = dir.path().join(format!("{formulation}.lp"));
        milptree_json(
            &[
                &["export-lp"][..],
                &args,
                &["-o", path_str(&model), "--json"],
            ]
            .concat(),
        );
        let result = solve_file(SolverKind::Highs, &model, None, &SolveOptions::default())
            .expect("HiGHS reads the file");
        let from_file = result.report.objective.expect("objective");
        assert!(
            (from_file - expected).abs() < 1e-6,
            "{formulation} exported: {from_file} vs {expected}"
        );
    }
}
