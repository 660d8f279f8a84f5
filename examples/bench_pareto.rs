//! Benchmark of the bi-objective search on one dataset: for each depth given, the front with
//! every midpoint a candidate threshold, printed as one JSON line (seconds, front size, best F1,
//! termination, statistics).
//!
//! Usage: `bench_pareto DATA.csv DEPTHS POSITIVE_CLASS [TIME_LIMIT_SECONDS] [SWITCH_OFF]`,
//! `SWITCH_OFF` one of `intervals`, `second_child` or `none`.

use std::path::PathBuf;

use milptree::budget::Budget;
use milptree::data::{read_dataset, TargetColumn};
use milptree::pareto::{binary_data, solve, Metric, ParetoBounds, ParetoOptions, ParetoProblem};
use serde_json::json;

fn main() -> milptree::Result<()> {
    let usage = "usage: bench_pareto DATA.csv DEPTHS POSITIVE_CLASS [TIME_LIMIT] [SWITCH_OFF]";
    let bad = || milptree::Error::parameter("arguments", usage);
    let mut args = std::env::args().skip(1);
    let path = PathBuf::from(args.next().ok_or_else(bad)?);
    let depths: Vec<usize> = args
        .next()
        .ok_or_else(bad)?
        .split(',')
        .map(|d| d.parse().map_err(|_| bad()))
        .collect::<milptree::Result<_>>()?;
    let positive = args.next().ok_or_else(bad)?;
    let limit: f64 = match args.next() {
        Some(s) => s.parse().map_err(|_| bad())?,
        None => 120.0,
    };
    let bounds = match args.next().as_deref() {
        None | Some("none") => ParetoBounds::default(),
        Some("intervals") => ParetoBounds {
            intervals: false,
            ..ParetoBounds::default()
        },
        Some("second_child") => ParetoBounds {
            second_child: false,
            ..ParetoBounds::default()
        },
        Some(_) => return Err(bad()),
    };
    let data = binary_data(&read_dataset(&path, &TargetColumn::Last)?, Some(&positive))?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    for depth in depths {
        let options = ParetoOptions {
            budget: Budget::seconds(limit),
            bounds,
            ..ParetoOptions::default()
        };
        let outcome = solve(&data, &ParetoProblem::new(depth), &options)?;
        let best = outcome.best(Metric::F1);
        println!(
            "{}",
            json!({
                "dataset": name,
                "depth": depth,
                "seconds": outcome.seconds,
                "termination": outcome.termination,
                "front": outcome.front.len(),
                "f1": best.map(|t| outcome.value(Metric::F1, t.point)),
                "fp": best.map(|t| t.point.fp),
                "fn": best.map(|t| t.point.fn_),
                "f1_bound": outcome.bound(Metric::F1),
                "stats": outcome.stats,
            })
        );
    }
    Ok(())
}
