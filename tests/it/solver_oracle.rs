//! Random small MILPs (binaries and small general integers, random rows of every sense, an
//! objective constant), solved by HiGHS and CBC and compared with a brute-force enumeration of
//! every integer point. The proptest seed is fixed, so every run checks the same models.

use milptree::mip::{Expression, MipModel, RowSense, Variable};
use milptree::solver::{self, SolveOptions, SolverKind, Termination};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// Range of the general integer columns.
const INTEGER_RANGE: std::ops::RangeInclusive<i32> = -2..=2;

#[derive(Debug, Clone)]
struct RandomMilp {
    binaries: usize,
    integers: usize,
    rows: Vec<(Vec<i32>, u8, i32)>,
    objective: Vec<i32>,
    constant: i32,
}

fn random_milp() -> impl Strategy<Value = RandomMilp> {
    (1..=7usize, 0..=2usize).prop_flat_map(|(binaries, integers)| {
        let n = binaries + integers;
        (
            proptest::collection::vec(
                (proptest::collection::vec(-5..=5i32, n), 0..3u8, -5..=8i32),
                0..=4,
            ),
            proptest::collection::vec(-10..=10i32, n),
            -3..=3i32,
        )
            .prop_map(move |(rows, objective, constant)| RandomMilp {
                binaries,
                integers,
                rows,
                objective,
                constant,
            })
    })
}

fn build(milp: &RandomMilp) -> (MipModel, Vec<Variable>) {
    let mut model = MipModel::new("random");
    let mut vars = Vec::new();
    for j in 0..milp.binaries {
        vars.push(model.binary(format!("b[j={j}]")));
    }
    for j in 0..milp.integers {
        let (low, high) = (*INTEGER_RANGE.start(), *INTEGER_RANGE.end());
        vars.push(model.integer(format!("g[j={j}]"), f64::from(low), f64::from(high)));
    }
    for (i, (coefficients, sense, rhs)) in milp.rows.iter().enumerate() {
        let lhs: Expression = coefficients
            .iter()
            .zip(&vars)
            .map(|(&c, &v)| f64::from(c) * v)
            .sum();
        let sense = match sense {
            0 => RowSense::Le,
            1 => RowSense::Ge,
            _ => RowSense::Eq,
        };
        model.add_row(format!("r[i={i}]"), lhs, sense, f64::from(*rhs));
    }
    let objective: Expression = milp
        .objective
        .iter()
        .zip(&vars)
        .map(|(&c, &v)| f64::from(c) * v)
        .sum();
    model.set_objective(objective + f64::from(milp.constant));
    (model, vars)
}

/// The minimum over every integer point, or `None` if none is feasible.
fn brute_force(milp: &RandomMilp, model: &MipModel, vars: &[Variable]) -> Option<f64> {
    let integer_values: Vec<i32> = INTEGER_RANGE.collect();
    let integer_points = integer_values.len().pow(milp.integers as u32);
    let mut best: Option<f64> = None;
    for mask in 0..(1usize << milp.binaries) {
        for mut point in 0..integer_points {
            let mut start = model.start();
            for (j, &v) in vars.iter().enumerate() {
                let value = if j < milp.binaries {
                    ((mask >> j) & 1) as f64
                } else {
                    let value = integer_values[point % integer_values.len()];
                    point /= integer_values.len();
                    f64::from(value)
                };
                start.set(v, value);
            }
            let assignment = start.finish().expect("complete");
            if model.check(&assignment).feasible {
                let objective = model.objective_value(&assignment);
                best = Some(best.map_or(objective, |b: f64| b.min(objective)));
            }
        }
    }
    best
}

proptest! {
    #![proptest_config(Config {
        cases: 48,
        rng_seed: RngSeed::Fixed(20_240_611),
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn highs_and_cbc_agree_with_brute_force(milp in random_milp()) {
        let (model, vars) = build(&milp);
        let expected = brute_force(&milp, &model, &vars);
        for kind in SolverKind::ALL {
            let solved = solver::solve(&model, kind, &SolveOptions::default())
                .map_err(|e| TestCaseError::fail(format!("{kind}: {e}")))?;
            let report = &solved.report;
            match expected {
                None => {
                    prop_assert_eq!(&report.termination, &Termination::Infeasible, "{}", kind);
                    prop_assert!(solved.solution.is_none());
                }
                Some(optimum) => {
                    prop_assert_eq!(&report.termination, &Termination::Optimal, "{}", kind);
                    let objective = report.objective.unwrap_or(f64::NAN);
                    prop_assert!((objective - optimum).abs() < 1e-6,
                        "{}: objective {} but brute force {}", kind, objective, optimum);
                    let solution = solved.solution.as_ref().expect("a solution");
                    prop_assert!(model.check(solution).feasible, "{}", kind);
                    let bound = report.best_bound.unwrap_or(f64::NAN);
                    prop_assert!(bound <= optimum + 1e-6, "{}: bound {} above {}", kind, bound, optimum);
                }
            }
        }
    }
}
