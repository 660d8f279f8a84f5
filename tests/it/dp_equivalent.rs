//! The equivalent-points bound of the exact search: on data whose rows repeat with different
//! labels, a search stopped at once reports at least the minority weight of each group of equal
//! rows (counted here by plain grouping), never above the oracle's optimum, and calls its tree
//! optimal exactly when it meets that bound.

use std::collections::HashMap;

use milptree::budget::Budget;
use milptree::data::Dataset;
use milptree::dp::{solve, DpOptions, DpProblem, DpTermination};

use crate::common::random_dataset;
use crate::threads::{oracle_optimum, problem};

/// Per group of rows with equal features, its class weights less the largest.
fn minority_weight(data: &Dataset, problem: &DpProblem) -> f64 {
    let mut groups: HashMap<Vec<u64>, HashMap<usize, f64>> = HashMap::new();
    for (row, &label) in data.rows().iter().zip(data.labels()) {
        let key = row.iter().map(|v| v.to_bits()).collect();
        *groups.entry(key).or_default().entry(label).or_default() += problem.class_weights[label];
    }
    groups
        .values()
        .map(|classes| {
            let total: f64 = classes.values().sum();
            total - classes.values().copied().fold(0.0, f64::max)
        })
        .sum()
}

#[test]
fn a_stopped_search_reports_the_minority_of_equal_rows_as_its_bound() {
    let mut above_zero = 0;
    for seed in 0..8u64 {
        // Three features of three values: 27 distinct rows at most, most of them repeated.
        let data = random_dataset(700 + seed, 120, 3, 2 + seed as usize % 2, 3);
        let problem = problem(&data, &(4, seed % 2 == 1, 0.0, 1, None));
        let floor = minority_weight(&data, &problem);
        let optimum = oracle_optimum(&data, &problem);
        assert!(
            floor <= optimum + 1e-9,
            "seed {seed}: {floor} above the optimum {optimum}"
        );
        let options = DpOptions {
            budget: Budget::seconds(0.0),
            ..DpOptions::default()
        };
        let outcome = solve(&data, &problem, &options).expect("solves");
        assert!(
            outcome.lower_bound >= floor - 1e-9 && outcome.lower_bound <= optimum + 1e-9,
            "seed {seed}: bound {} outside [{floor}, {optimum}]",
            outcome.lower_bound
        );
        let met = outcome.objective <= outcome.lower_bound + 1e-9;
        let expected = if met {
            DpTermination::Optimal
        } else {
            DpTermination::TimeLimit
        };
        assert_eq!(outcome.termination, expected, "seed {seed}");
        above_zero += usize::from(floor > 0.0);
    }
    assert!(
        above_zero >= 6,
        "only {above_zero} cases have repeated rows with other labels"
    );
}
