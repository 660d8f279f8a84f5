//! Anytime benchmark helper, run by `scripts/bench-anytime`: the exact search's incumbents over
//! time and CART's errors on one dataset, and the primal integral of any incumbent trajectory.
//!
//! Usage:
//! - `bench_anytime run DATA.csv DEPTH TIME_LIMIT_SECONDS [SETTING ...]`: one accuracy solve
//!   (one thread, every midpoint a candidate threshold) and CART at the same depth, printed as
//!   one JSON line. A setting is `+NAME` or `-NAME` (a switch of `BoundSwitches::NAMES` on or
//!   off) or `until=SHARE` (`DpOptions::discrepancy_until`). The line holds
//!   our final errors, bound, termination, seconds and trajectory (`[seconds, errors]` at the
//!   start, every improvement and the end), CART's training errors and seconds.
//! - `bench_anytime integral TIME_LIMIT REFERENCE [SECONDS:ERRORS ...]`: the primal integral
//!   (Berthold's gap, see `milptree::experiment::primal_integral`) over `[0, TIME_LIMIT]` of the
//!   incumbent that takes each `ERRORS` from its `SECONDS` on (gap 1 before the first), printed
//!   alone on a line.

use std::path::PathBuf;
use std::time::Instant;

use milptree::budget::Budget;
use milptree::data::{read_dataset, TargetColumn};
use milptree::dp::{solve, DpOptions, DpProblem};
use milptree::experiment::primal_integral::primal_integral;
use milptree::greedy::{cart, CartParams};
use milptree::solver::TrajectoryPoint;
use serde_json::json;

const USAGE: &str =
    "usage: bench_anytime run DATA.csv DEPTH TIME_LIMIT [+SWITCH|-SWITCH|until=S ...] | \
                     bench_anytime integral TIME_LIMIT REFERENCE [SECONDS:ERRORS ...]";

fn number<T: std::str::FromStr>(text: Option<String>, what: &str) -> milptree::Result<T> {
    let text = text.ok_or_else(|| milptree::Error::parameter("arguments", USAGE))?;
    text.parse()
        .map_err(|_| milptree::Error::parameter(what, format!("`{text}` is not a {what}")))
}

/// Training errors of CART at `depth` and its seconds.
fn cart_errors(data: &milptree::data::Dataset, depth: usize) -> milptree::Result<(usize, f64)> {
    let start = Instant::now();
    let tree = cart(data, &CartParams::new(depth))?;
    let seconds = start.elapsed().as_secs_f64();
    let predicted = tree.predict(data.rows());
    let errors = predicted
        .iter()
        .zip(data.labels())
        .filter(|(p, l)| p != l)
        .count();
    Ok((errors, seconds))
}

fn run(mut args: impl Iterator<Item = String>) -> milptree::Result<()> {
    let path = PathBuf::from(
        args.next()
            .ok_or_else(|| milptree::Error::parameter("arguments", USAGE))?,
    );
    let depth: usize = number(args.next(), "depth")?;
    let limit: f64 = number(args.next(), "time limit")?;
    let data = read_dataset(&path, &TargetColumn::Last)?;
    let mut options = DpOptions {
        budget: Budget::seconds(limit),
        ..DpOptions::default()
    };
    for setting in args {
        if let Some(share) = setting.strip_prefix("until=") {
            options.discrepancy_until = number(Some(share.to_string()), "share")?;
        } else if let Some(name) = setting.strip_prefix('+') {
            *options.bounds.named(name)? = true;
        } else if let Some(name) = setting.strip_prefix('-') {
            *options.bounds.named(name)? = false;
        } else {
            return Err(milptree::Error::parameter("setting", USAGE));
        }
    }
    let outcome = solve(&data, &DpProblem::accuracy(&data, depth), &options)?;
    let trajectory: Vec<[f64; 2]> = outcome
        .trajectory
        .iter()
        .map(|p| [p.seconds, p.incumbent])
        .collect();
    let (cart_errors, cart_seconds) = cart_errors(&data, depth)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    println!(
        "{}",
        json!({
            "dataset": name,
            "depth": depth,
            "rows": data.n_rows(),
            "features": data.n_features(),
            "limit": limit,
            "objective": outcome.objective,
            "lower_bound": outcome.lower_bound,
            "termination": outcome.termination,
            "seconds": outcome.seconds,
            "trajectory": trajectory,
            "passes": outcome.stats.discrepancy_passes,
            "cart_errors": cart_errors,
            "cart_seconds": cart_seconds,
        })
    );
    Ok(())
}

fn integral(mut args: impl Iterator<Item = String>) -> milptree::Result<()> {
    let limit: f64 = number(args.next(), "time limit")?;
    let reference: f64 = number(args.next(), "reference")?;
    let mut points = Vec::new();
    for point in args {
        let (seconds, errors) = point.split_once(':').ok_or_else(|| {
            milptree::Error::parameter("point", format!("`{point}` is not SECONDS:ERRORS"))
        })?;
        points.push(TrajectoryPoint {
            seconds: number(Some(seconds.to_string()), "number of seconds")?,
            incumbent: Some(number(Some(errors.to_string()), "number of errors")?),
            bound: None,
        });
    }
    points.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    println!("{}", primal_integral(&points, Some(reference), limit));
    Ok(())
}

fn main() -> milptree::Result<()> {
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        Some("run") => run(args),
        Some("integral") => integral(args),
        _ => Err(milptree::Error::parameter("arguments", USAGE)),
    }
}
