//! OLCT benchmark on one dataset: an 80/20 stratified split (seed 0), depth 2, tangent set V0,
//! HiGHS with a time limit; prints test balanced accuracy and the exact training objective of
//! the greedy logistic tree (the warm start), the greedy tree refined, the MILP's tree, and the
//! MILP's tree refined. Run by `scripts/bench-olct`.
//!
//! Usage: `bench_olct DATA.csv [TIME_LIMIT_SECONDS]`

use std::path::PathBuf;

use milptree::budget::Budget;
use milptree::data::{read_dataset, stratified_split, Dataset, TargetColumn};
use milptree::formulation::olct::Olct;
use milptree::formulation::{BuiltModel, Formulation};
use milptree::learn::milp::{self, MilpOptions};
use milptree::learn::WarmStartMode;
use milptree::solver::{SolveOptions, SolverKind};
use milptree::tree::Tree;
use serde_json::json;

fn balanced(tree: &Tree, data: &Dataset) -> f64 {
    tree.evaluate(data.rows(), data.labels(), data.classes())
        .expect("the rows fit the tree")
        .balanced_accuracy
}

fn main() -> milptree::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = PathBuf::from(args.next().expect("usage: bench_olct DATA.csv [SECONDS]"));
    let limit: f64 = args.next().map_or(300.0, |s| s.parse().expect("seconds"));
    let data = read_dataset(&path, &TargetColumn::Last)?;
    let split = stratified_split(data.labels(), data.n_classes(), 0.2, 0)?;
    let (train, test) = (data.subset(&split.train), data.subset(&split.test));
    let model = Olct {
        refine: false,
        ..Olct::new(2)
    };
    let refining = Olct::new(2);
    let built = model.build(&train)?;
    let refining_model = refining.build(&train)?;
    let greedy = model.greedy_tree(&train)?;
    let (greedy_refined, _) = refining_model.post_process(greedy.clone())?;
    let outcome = milp::run(
        &model,
        &train,
        MilpOptions {
            solver: SolverKind::Highs,
            solve: SolveOptions {
                budget: Budget::seconds(limit),
                ..SolveOptions::default()
            },
            start: Some(greedy.clone()),
            warm_start_mode: WarmStartMode::Greedy,
            start_is_optimal: false,
            fallback_start: None,
            bound_below_for_tests: false,
            search_rows: None,
            separation_rounds: 0,
            constraints: None,
        },
    )?;
    let milp = outcome
        .tree
        .clone()
        .expect("the warm start gives a solution");
    let (refined, report) = refining_model.post_process(milp.clone())?;
    let row = |name: &str, tree: &Tree| {
        json!({
            "tree": name,
            "test_balanced_accuracy": balanced(tree, &test),
            "test_accuracy": tree.evaluate(test.rows(), test.labels(), test.classes())
        .expect("the rows fit the tree").accuracy,
            "train_balanced_accuracy": balanced(tree, &train),
            "exact_objective": refining.exact_objective(&built, tree),
        })
    };
    let result = json!({
        "data": path.display().to_string(),
        "train_rows": train.n_rows(),
        "test_rows": test.n_rows(),
        "features": train.n_features(),
        "termination": format!("{:?}", outcome.report.termination),
        "seconds": outcome.report.seconds,
        "milp_objective": outcome.report.objective,
        "milp_bound": outcome.report.best_bound,
        "rel_gap": outcome.report.rel_gap,
        "warm_start_surrogate": outcome.warm_start_objective,
        "decode_mismatch": outcome.decode_mismatch,
        "notes": outcome.notes,
        "trees": [
            row("greedy (warm start)", &greedy),
            row("greedy + refinement", &greedy_refined),
            row("MILP", &milp),
            row("MILP + refinement", &refined),
        ],
        "refinement_notes": report["refinement_notes"],
    });
    println!("{}", serde_json::to_string(&result).expect("serialises"));
    Ok(())
}
