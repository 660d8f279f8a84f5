//! The epsilon-constraint front of the MILPs against the bi-objective search: on small random
//! two-class data, OCT (leaves free to predict either class) and BinOCT over every midpoint,
//! solved by HiGHS and by CBC, give the search's front point for point, every solve proven
//! optimal, each point's decoded tree making exactly its point's errors.

use milptree::data::{Dataset, ThresholdMode};
use milptree::formulation::binoct::BinOct;
use milptree::formulation::oct::Oct;
use milptree::formulation::{ClassErrors, Objective};
use milptree::learn::epsilon::{epsilon_front, EpsilonOptions};
use milptree::pareto::{errors_of, solve, ParetoOptions, ParetoProblem, Point};
use milptree::solver::SolverKind;

use crate::common::{mixed_dataset, random_dataset};

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
                time_limit: Some(60.0),
                threads: Some(1),
                interrupt: None,
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
