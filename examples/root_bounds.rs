//! The LP relaxation bound at the root of each MILP formulation that minimises training errors
//! (OCT, BinOCT with every midpoint, FlowOCT) on one dataset and depth, in training errors, next
//! to the exact optimum: how much each model's relaxation knows before branching; and the same
//! with the exact search's row over the root's splits (`--dp-bounds splits`; with the
//! `objective` row the bound is at least the search's, the optimum once it finishes). Run by
//! `scripts/bench-milp` (`BENCH_ROOT_BOUNDS=1`).
//!
//! Usage: `root_bounds DATA.csv DEPTH`; prints one JSON line.

use std::path::PathBuf;

use milptree::budget::Budget;
use milptree::data::{read_dataset, TargetColumn};
use milptree::dp::{self, DpOptions, DpProblem};
use milptree::formulation::{AnyFormulation, FormulationName, FormulationParams};
use milptree::learn::counterpart::counterpart;
use milptree::learn::dp_search::baseline_errors;
use milptree::learn::search_rows::{DpBounds, SearchRowSource, SearchRows};
use milptree::solver::{solve, SolveOptions, SolverKind};
use serde_json::json;

fn main() -> milptree::Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: root_bounds DATA.csv DEPTH";
    let path = PathBuf::from(
        args.next()
            .ok_or_else(|| milptree::Error::parameter("data", usage))?,
    );
    let depth: usize = args
        .next()
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| milptree::Error::parameter("depth", usage))?;
    let data = read_dataset(&path, &TargetColumn::Last)?;
    let optimum = dp::solve(
        &data,
        &DpProblem::accuracy(&data, depth),
        &DpOptions::default(),
    )?;
    let mut bounds = serde_json::Map::new();
    for name in [
        FormulationName::Oct,
        FormulationName::BinOct,
        FormulationName::FlowOct,
    ] {
        let mut params = FormulationParams::defaults(name).to_json();
        if name == FormulationName::BinOct {
            params["thresholds"] = json!("all");
        }
        let formulation: AnyFormulation =
            FormulationParams::from_json(name, &params)?.check(depth)?;
        let built = formulation.build(&data, false)?;
        let options = SolveOptions {
            budget: Budget::seconds(120.0),
            threads: Some(1),
            ..SolveOptions::default()
        };
        let solved = solve(&built.mip.relaxed(), SolverKind::Highs, &options)?;
        let counterpart = counterpart(&formulation, &data, None)
            .ok_or_else(|| milptree::Error::Internal("no counterpart".into()))?;
        let searched = counterpart.search_data(&data);
        let source = SearchRowSource {
            families: DpBounds::Splits,
            problem: counterpart.search_problem(&data, &searched),
            data: searched.rows.into_owned(),
            counterpart,
            lower_bound: 0.0,
            upper_bound: f64::INFINITY,
            search_seconds: 0.0,
            deadline: None,
            interrupt: None,
            raised_for_tests: 0.0,
            raised_paths_for_tests: 0.0,
        };
        let rows = SearchRows::make(&source, &built.mip, built.root_splits.clone())?;
        let with_rows = rows.added_to(&built.mip).relaxed();
        let solved_with_rows = solve(&with_rows, SolverKind::Highs, &options)?;
        // OCT's objective is the errors over the baseline's: back to errors.
        let scale = if name == FormulationName::Oct {
            baseline_errors(&data, &vec![1.0; data.n_classes()])
        } else {
            1.0
        };
        bounds.insert(
            name.to_string(),
            json!({
                "bound": solved.report.objective.map(|b| b * scale),
                "bound_with_split_rows": solved_with_rows.report.objective.map(|b| b * scale),
                "least_split_bound": rows.report.least_split_bound.map(|b| b * scale),
                "split_rows_seconds": rows.report.seconds,
                "seconds": solved.report.seconds,
                "variables": built.mip.size().variables,
            }),
        );
    }
    println!(
        "{}",
        json!({
            "data": path.display().to_string(),
            "depth": depth,
            "optimum": optimum.objective,
            "root_lp_bounds": bounds,
        })
    );
    Ok(())
}
