//! Benchmark of the sparse search on one dataset: one accuracy solve per leaf penalty given,
//! with every midpoint a candidate threshold and no depth cap (or the cap given), printed as
//! one JSON line (wall seconds, objective, bound, termination, statistics).
//!
//! Usage: `bench_sparse DATA.csv PENALTIES [TIME_LIMIT_SECONDS] [SWITCH_OFF] [THREADS] [DEPTH]`,
//! where `PENALTIES` is a comma-separated list, `SWITCH_OFF` names one bound to turn off (see
//! `SparseSwitches::NAMES`; `none` keeps all on), `THREADS` is the search's thread count
//! (default 1) and `DEPTH` a depth cap (default none).

use std::path::PathBuf;

use milptree::budget::Budget;
use milptree::data::{read_dataset, TargetColumn, ThresholdMode};
use milptree::sparse::{solve, Loss, SparseOptions, SparseProblem, SparseSwitches};
use serde_json::json;

fn parsed<T: std::str::FromStr>(arg: Option<String>, what: &str) -> milptree::Result<Option<T>> {
    arg.map(|s| {
        s.parse()
            .map_err(|_| milptree::Error::parameter(what, format!("`{s}` is not a {what}")))
    })
    .transpose()
}

fn main() -> milptree::Result<()> {
    let usage =
        "usage: bench_sparse DATA.csv PENALTIES [TIME_LIMIT_SECONDS] [SWITCH_OFF] [THREADS] [DEPTH]";
    let mut args = std::env::args().skip(1);
    let path = PathBuf::from(
        args.next()
            .ok_or_else(|| milptree::Error::parameter("arguments", usage))?,
    );
    let penalties: Vec<f64> = args
        .next()
        .ok_or_else(|| milptree::Error::parameter("arguments", usage))?
        .split(',')
        .map(|p| parsed(Some(p.to_string()), "penalty").map(|p| p.unwrap_or_default()))
        .collect::<milptree::Result<_>>()?;
    let limit: f64 = parsed(args.next(), "time limit")?.unwrap_or(60.0);
    let off = args.next().unwrap_or_else(|| "none".into());
    let switches = if off == "none" {
        SparseSwitches::default()
    } else {
        SparseSwitches::without(&off)?
    };
    let threads: usize = parsed(args.next(), "thread count")?.unwrap_or(1);
    let depth: Option<usize> = parsed(args.next(), "depth")?;
    let data = read_dataset(&path, &TargetColumn::Last)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    for leaf_penalty in penalties {
        let problem = SparseProblem {
            loss: Loss::Accuracy,
            leaf_penalty,
            depth,
            thresholds: ThresholdMode::All,
        };
        let options = SparseOptions {
            budget: Budget::seconds(limit),
            switches,
            threads,
            ..SparseOptions::default()
        };
        let outcome = solve(&data, &problem, &options)?;
        println!(
            "{}",
            json!({
                "dataset": name,
                "penalty": leaf_penalty,
                "depth": depth,
                "off": off,
                "threads": threads,
                "rows": data.n_rows(),
                "objective": outcome.objective,
                "lower_bound": outcome.lower_bound,
                "leaves": outcome.leaves,
                "termination": format!("{:?}", outcome.termination),
                "seconds": outcome.seconds,
                "tree_hash": format!("{:016x}", fxhash(&outcome.tree.to_json_string())),
                "stats": outcome.stats,
            })
        );
    }
    Ok(())
}

/// A short fingerprint of a serialized tree, to compare the trees of runs at a glance.
fn fxhash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}
