//! The front on real data, held against the single-objective search, which shares none of its
//! search code: for any class weights `(a, b)`, the least `a FP + b FN` over the front is the
//! optimum of the weighted-error search; the best F1 over the front is the F1 optimum found by
//! Dinkelbach's method (F1 is a ratio of linear functions, so weighted-error searches with
//! weights `(lambda, 2 - lambda)` reach it); and the F1-optimal tree scores at least the F1 of
//! the accuracy-optimal tree and of CART. On the bundled data (two-class views of iris and wine,
//! breast cancer) and, when `../shared/datasets` is present, small two-class UCI sets.

use milptree::data::{read_dataset, Dataset, TargetColumn, ThresholdMode};
use milptree::dp::{solve as dp_solve, DpOptions, DpProblem};
use milptree::greedy::{cart, CartParams};
use milptree::pareto::{
    binary_data, errors_of, solve, Confusion, Metric, ParetoOptions, ParetoOutcome, ParetoProblem,
};

use crate::common::{dataset, root};

/// The least weighted errors `weights[0] FP + weights[1] FN` over every tree, by the
/// single-objective search.
fn weighted_optimum(data: &Dataset, depth: usize, weights: [f64; 2]) -> f64 {
    let problem = DpProblem {
        class_weights: weights.to_vec(),
        ..DpProblem::accuracy(data, depth)
    };
    let outcome = dp_solve(data, &problem, &DpOptions::default()).expect("the search solves");
    assert!(outcome.is_optimal());
    outcome.objective
}

/// F1 of a tree's errors.
fn f1(data: &Dataset, fp: u32, fn_: u32) -> f64 {
    let counts = data.class_counts();
    Metric::F1.value(Confusion::of(
        milptree::pareto::Point::new(fp, fn_),
        counts[1] as u64,
        counts[0] as u64,
    ))
}

/// The F1 optimum by Dinkelbach's method over the single-objective search: with `lambda` the
/// best F1 so far, the tree minimising `lambda FP + (2 - lambda) FN` has F1 above `lambda`
/// unless `lambda` is the optimum.
fn dinkelbach_f1(data: &Dataset, depth: usize) -> f64 {
    let mut lambda = 0.0;
    for _ in 0..100 {
        let problem = DpProblem {
            class_weights: vec![lambda, 2.0 - lambda],
            ..DpProblem::accuracy(data, depth)
        };
        let outcome = dp_solve(data, &problem, &DpOptions::default()).expect("solves");
        let point = errors_of(&outcome.tree, data);
        let value = f1(data, point.fp, point.fn_);
        if value <= lambda + 1e-12 {
            return lambda;
        }
        lambda = value;
    }
    panic!("Dinkelbach's method did not settle in 100 steps");
}

fn check(name: &str, data: &Dataset, depth: usize) {
    let outcome: ParetoOutcome =
        solve(data, &ParetoProblem::new(depth), &ParetoOptions::default()).expect("solves");
    assert!(outcome.is_complete(), "{name} depth {depth}");
    let tolerance = 1e-9 * data.n_rows() as f64;
    let counts = data.class_counts();
    let balanced = [
        data.n_rows() as f64 / (2.0 * counts[0] as f64),
        data.n_rows() as f64 / (2.0 * counts[1] as f64),
    ];
    for weights in [[1.0, 1.0], balanced, [1.0, 4.0], [4.0, 1.0], [0.3, 1.7]] {
        let least = outcome
            .front
            .iter()
            .map(|t| weights[0] * f64::from(t.point.fp) + weights[1] * f64::from(t.point.fn_))
            .fold(f64::INFINITY, f64::min);
        let optimum = weighted_optimum(data, depth, weights);
        assert!(
            (least - optimum).abs() <= tolerance,
            "{name} depth {depth}, weights {weights:?}: the front's least is {least}, the \
             search's optimum {optimum}"
        );
    }
    let best = outcome.best(Metric::F1).expect("a front");
    let best_f1 = outcome.value(Metric::F1, best.point);
    let expected = dinkelbach_f1(data, depth);
    assert!(
        (best_f1 - expected).abs() <= 1e-12,
        "{name} depth {depth}: best F1 on the front {best_f1}, Dinkelbach's {expected}"
    );
    assert_eq!(errors_of(&best.tree, data), best.point);
    let accuracy = dp_solve(
        data,
        &DpProblem::accuracy(data, depth),
        &DpOptions::default(),
    )
    .expect("solves");
    let greedy = cart(
        data,
        &CartParams {
            depth,
            min_leaf: 1,
            thresholds: ThresholdMode::All,
        },
    )
    .expect("CART grows");
    for (reference, tree) in [("accuracy-optimal", &accuracy.tree), ("CART", &greedy)] {
        let point = errors_of(tree, data);
        assert!(
            best_f1 >= f1(data, point.fp, point.fn_) - 1e-12,
            "{name} depth {depth}: the {reference} tree has a better F1 than the front's best"
        );
    }
}

#[test]
fn fronts_of_the_bundled_data_agree_with_the_single_objective_search() {
    let read = |name: &str, positive: Option<&str>| {
        let data = read_dataset(&dataset(name), &TargetColumn::Last).expect("bundled data");
        binary_data(&data, positive).expect("two classes")
    };
    let iris = read("iris", Some("versicolor"));
    let wine = read("wine", Some("class_1"));
    let cancer = read("breast_cancer", Some("malignant"));
    for depth in [1, 2, 3] {
        check("iris", &iris, depth);
        check("wine", &wine, depth);
    }
    check("breast_cancer", &cancer, 2);
}

#[test]
fn fronts_of_shared_uci_data_agree_with_the_single_objective_search() {
    let shared = root().join("..").join("shared").join("datasets");
    if !shared.exists() {
        eprintln!("note: {} is absent; skipped", shared.display());
        return;
    }
    for (name, depths) in [
        ("monks-2", &[2, 3][..]),
        ("fertility", &[2, 3]),
        ("spect", &[2, 3]),
        ("haberman", &[2, 3]),
        ("heart", &[2]),
        ("transfusion", &[2]),
    ] {
        let data = read_dataset(&shared.join(format!("{name}.csv")), &TargetColumn::Last)
            .expect("a shared dataset");
        for &depth in depths {
            check(name, &data, depth);
        }
    }
}
