//! OCT with equivalent points (`--cuts equivalent-points`) against the exhaustive-search
//! oracle, on random data with repeated rows, some of them relabelled (depth 1 and 2, both
//! solvers), and the model it builds: one set of routing variables per set of equivalent rows.

use milptree::budget::Budget;
use milptree::data::Dataset;
use milptree::formulation::cuts::Cuts;
use milptree::formulation::oct::Oct;
use milptree::formulation::{BuiltModel, Formulation};
use milptree::learn::milp::{self, MilpOptions};
use milptree::learn::WarmStartMode;
use milptree::solver::{SolveOptions, SolverKind, Termination};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::mixed_dataset;
use crate::oracle::{optimum, OracleSpec};

/// `mixed_dataset` with `relabelled` more copies of random rows, each with a random label (so
/// some equivalent rows disagree on their class).
fn with_equivalent_rows(seed: u64, n: usize, levels: &[u32], k: usize) -> Dataset {
    let data = mixed_dataset(seed, n, levels, k, n / 4);
    let mut rng = ChaCha8Rng::seed_from_u64(seed + 100);
    let mut rows = data.rows().to_vec();
    let mut labels = data.labels().to_vec();
    for _ in 0..n / 4 {
        let i = rng.random_range(0..rows.len());
        rows.push(rows[i].clone());
        labels.push(rng.random_range(0..k));
    }
    Dataset::from_parts(
        format!("equivalent(seed={seed})"),
        (0..levels.len()).map(|j| format!("x{j}")).collect(),
        (0..k).map(|c| format!("c{c}")).collect(),
        rows,
        labels,
    )
    .expect("a valid dataset")
}

fn solve(oct: &Oct, data: &Dataset, solver: SolverKind) -> milptree::learn::Outcome {
    let options = MilpOptions {
        solver,
        solve: SolveOptions {
            budget: Budget::seconds(300.0),
            ..SolveOptions::default()
        },
        start: Some(oct.greedy_tree(data).expect("CART")),
        warm_start_mode: WarmStartMode::Greedy,
        start_is_optimal: false,
        fallback_start: None,
        bound_below_for_tests: false,
        search_rows: None,
        separation_rounds: 0,
        constraints: None,
    };
    milp::run(oct, data, options).expect("OCT solves")
}

#[test]
fn equivalent_points_keep_the_oracle_optimum() {
    for (seed, n, levels, k) in [(1, 16, [3, 2], 2), (2, 18, [2, 3], 3), (3, 20, [4, 2], 2)] {
        let data = with_equivalent_rows(seed, n, &levels, k);
        for depth in [1, 2] {
            let expected = optimum(&data, &OracleSpec::errors(&data, depth));
            let oct = Oct {
                cuts: Cuts::EquivalentPoints,
                ..Oct::new(depth)
            };
            for solver in [SolverKind::Highs, SolverKind::Cbc] {
                let outcome = solve(&oct, &data, solver);
                assert_eq!(outcome.report.termination, Termination::Optimal);
                assert!(
                    outcome.decode_mismatch.is_none(),
                    "{:?}",
                    outcome.decode_mismatch
                );
                let tree = outcome.tree.as_ref().expect("a tree");
                let evaluated = tree
                    .evaluate(data.rows(), data.labels(), data.classes())
                    .expect("the rows fit the tree");
                assert_eq!(
                    evaluated.misclassified, expected.errors,
                    "seed {seed} depth {depth} {solver:?}"
                );
            }
        }
    }
}

#[test]
fn equivalent_points_give_one_set_of_routing_variables_per_set_of_rows() {
    let data = with_equivalent_rows(4, 20, &[3, 3], 2);
    let distinct: std::collections::HashSet<Vec<u64>> = data
        .rows()
        .iter()
        .map(|row| row.iter().map(|x| x.to_bits()).collect())
        .collect();
    let repeated = data.n_rows() - distinct.len();
    assert!(repeated > 0, "the data has equivalent rows");
    for depth in [1, 2] {
        let plain = Oct::new(depth).build(&data).expect("builds").mip().size();
        let cut = Oct {
            cuts: Cuts::EquivalentPoints,
            ..Oct::new(depth)
        }
        .build(&data)
        .expect("builds")
        .mip()
        .size();
        let leaves = 1 << depth;
        assert_eq!(plain.binaries - cut.binaries, repeated * leaves);
        // Per repeated row and leaf: `used` and one routing row per ancestor; per row: `assign`.
        assert_eq!(
            plain.constraints - cut.constraints,
            repeated * (leaves * (1 + depth) + 1)
        );
    }
}

#[test]
fn cuts_are_refused_where_they_do_not_apply() {
    let iris = crate::common::dataset("iris.csv");
    let iris = iris.to_str().expect("a UTF-8 path");
    for args in [
        [
            "solve",
            iris,
            "--formulation",
            "flowoct",
            "--depth",
            "1",
            "--cuts",
            "none",
        ],
        [
            "solve", iris, "--solver", "dp", "--depth", "1", "--cuts", "none",
        ],
        [
            "solve",
            iris,
            "--formulation",
            "oct",
            "--depth",
            "1",
            "--cuts",
            "all",
        ],
    ] {
        crate::common::assert_usage_error(&args, "--cuts");
    }
}
