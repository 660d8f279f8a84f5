//! Benchmark of the exact DP search on one dataset: for each depth given, one accuracy solve
//! with every midpoint a candidate threshold, printed as one JSON line (wall and CPU seconds,
//! objective, bound, termination, statistics). Run by `scripts/bench-dp`.
//!
//! Usage: `bench_dp DATA.csv DEPTHS [TIME_LIMIT_SECONDS] [SWITCH] [THREADS] [MIN_LEAF]`, where
//! `DEPTHS` is a comma-separated list, `SWITCH` names one bound to turn off, or with a `+`
//! before it on (see `BoundSwitches::NAMES`; `none` keeps the defaults), `THREADS` is the
//! search's thread count (default 1; with more, the CPU seconds are the calling thread's alone:
//! compare wall seconds) and `MIN_LEAF` the leaf minimum, in rows or, ending in `%`, in percent
//! of the rows rounded down (default 1). `BENCH_DP_ROUNDS=FROM,UNTIL` sets the shares of the
//! time limit given to rounds below targets (`DpOptions::target_rounds`).

use std::path::PathBuf;

use milptree::budget::Budget;
use milptree::data::{read_dataset, TargetColumn};
use milptree::dp::{solve, BoundSwitches, DpOptions, DpProblem};
use serde_json::json;

/// CPU seconds the calling thread has run (`CLOCK_THREAD_CPUTIME_ID`, to the nanosecond; the
/// scheduler's statistics lag by up to a tick, so a solve of a few milliseconds read 0).
/// The search runs on one thread.
fn cpu_seconds() -> Option<f64> {
    let now = nix::time::clock_gettime(nix::time::ClockId::CLOCK_THREAD_CPUTIME_ID).ok()?;
    Some(now.tv_sec() as f64 + now.tv_nsec() as f64 / 1e9)
}

fn main() -> milptree::Result<()> {
    let usage =
        "usage: bench_dp DATA.csv DEPTHS [TIME_LIMIT_SECONDS] [SWITCH] [THREADS] [MIN_LEAF]";
    let mut args = std::env::args().skip(1);
    let path = PathBuf::from(
        args.next()
            .ok_or_else(|| milptree::Error::parameter("arguments", usage))?,
    );
    let depths: Vec<usize> = args
        .next()
        .ok_or_else(|| milptree::Error::parameter("arguments", usage))?
        .split(',')
        .map(|d| {
            d.parse()
                .map_err(|_| milptree::Error::parameter("depths", format!("`{d}` is not a depth")))
        })
        .collect::<milptree::Result<_>>()?;
    let limit: f64 = match args.next() {
        Some(s) => s.parse().map_err(|_| {
            milptree::Error::parameter("time limit", format!("`{s}` is not a number"))
        })?,
        None => 120.0,
    };
    let off = args.next().unwrap_or_else(|| "none".into());
    let bounds = match off.strip_prefix('+') {
        _ if off == "none" => BoundSwitches::default(),
        Some(on) => BoundSwitches::with(on)?,
        None => BoundSwitches::without(&off)?,
    };
    let threads: usize = match args.next() {
        Some(s) => s.parse().map_err(|_| {
            milptree::Error::parameter("threads", format!("`{s}` is not a thread count"))
        })?,
        None => 1,
    };
    let min_leaf = args.next().unwrap_or_else(|| "1".into());
    let data = read_dataset(&path, &TargetColumn::Last)?;
    let min_leaf: usize = match min_leaf.strip_suffix('%') {
        Some(percent) => percent
            .parse::<usize>()
            .map(|p| (p * data.n_rows() / 100).max(1)),
        None => min_leaf.parse(),
    }
    .map_err(|_| {
        milptree::Error::parameter("min leaf", format!("`{min_leaf}` is not a leaf minimum"))
    })?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let target_rounds = match std::env::var("BENCH_DP_ROUNDS") {
        Ok(shares) => {
            let parsed: Vec<f64> = shares.split(',').filter_map(|s| s.parse().ok()).collect();
            match parsed[..] {
                [from, until] => (from, until),
                _ => {
                    return Err(milptree::Error::parameter(
                        "BENCH_DP_ROUNDS",
                        format!("`{shares}` is not two shares FROM,UNTIL"),
                    ))
                }
            }
        }
        Err(_) => DpOptions::default().target_rounds,
    };
    for depth in depths {
        let problem = DpProblem {
            min_leaf,
            ..DpProblem::accuracy(&data, depth)
        };
        let options = DpOptions {
            budget: Budget::seconds(limit),
            bounds,
            threads,
            target_rounds,
            ..DpOptions::default()
        };
        let cpu_before = cpu_seconds();
        let outcome = solve(&data, &problem, &options)?;
        let cpu = cpu_before.and_then(|before| cpu_seconds().map(|after| after - before));
        println!(
            "{}",
            json!({
                "dataset": name,
                "depth": depth,
                "rows": data.n_rows(),
                "features": data.n_features(),
                "off": off,
                "threads": threads,
                "min_leaf": min_leaf,
                "seconds": outcome.seconds,
                "cpu_seconds": cpu,
                "objective": outcome.objective,
                "lower_bound": outcome.lower_bound,
                "termination": outcome.termination,
                "stats": outcome.stats,
            })
        );
    }
    Ok(())
}
