//! The ratio tables: warm / cold start, one solver / the other, and each formulation / the best
//! one, each over matched runs that differ in that one setting.

use std::collections::BTreeMap;

use crate::experiment::profile::MIN_SECONDS;
use crate::experiment::row::Row;
use crate::experiment::summary::groups::{
    group_by, key_without, pairs, time_to_optimality, RunOutcome, Varied,
};
use crate::experiment::summary::stats::{median, median_ratio, percent, ratio};
use crate::experiment::summary::table::Table;
use crate::solver::SolverKind;

fn optimal_count(runs: &[&Row]) -> usize {
    runs.iter()
        .filter(|r| RunOutcome::of(r) == RunOutcome::Optimal)
        .count()
}

/// The median over `pairs` of `f(a) / f(b)`, with the number of pairs it used.
fn paired_ratio(pairs: &[(&Row, &Row)], f: fn(&Row) -> Option<f64>) -> String {
    let values: Vec<(Option<f64>, Option<f64>)> = pairs.iter().map(|(a, b)| (f(a), f(b))).collect();
    let (value, used) = median_ratio(&values);
    format!("{} (n={used})", ratio(value))
}

/// Warm (greedy) / cold (none) start, per formulation and solver.
pub fn warm_cold_section(rows: &[Row]) -> String {
    let mut table = Table::new(&[
        "formulation",
        "solver",
        ">pairs",
        ">seconds (warm / cold)",
        ">time to optimality, both optimal (warm / cold)",
        ">time to 1st incumbent (warm / cold)",
        ">primal integral (warm / cold)",
        ">median gap warm",
        ">median gap cold",
        ">optimal warm / cold",
        ">warm start accepted",
    ]);
    let all = pairs(rows, Varied::WarmStart, "greedy", "none");
    let groups = group_by(rows, |r| (r.formulation.clone(), r.solver_label()));
    for (formulation, solver) in groups.keys() {
        let matched: Vec<(&Row, &Row)> = all
            .iter()
            .filter(|(w, _)| &w.formulation == formulation && &w.solver_label() == solver)
            .copied()
            .collect();
        if matched.is_empty() {
            continue;
        }
        let ratio_of = |f: fn(&Row) -> Option<f64>| paired_ratio(&matched, f);
        let warm: Vec<&Row> = matched.iter().map(|(w, _)| *w).collect();
        let cold: Vec<&Row> = matched.iter().map(|(_, c)| *c).collect();
        let accepted = warm
            .iter()
            .filter(|r| r.warm_start_accepted == Some(true))
            .count();
        let unknown = warm
            .iter()
            .filter(|r| r.warm_start_accepted.is_none())
            .count();
        let accepted = if unknown > 0 {
            format!("{accepted} of {} ({unknown} unknown)", warm.len())
        } else {
            format!("{accepted} of {}", warm.len())
        };
        table.push(vec![
            formulation.clone(),
            solver.clone(),
            matched.len().to_string(),
            ratio_of(|r| r.seconds),
            ratio_of(time_to_optimality),
            ratio_of(|r| r.time_to_first_incumbent),
            ratio_of(|r| r.primal_integral),
            percent(median(warm.iter().filter_map(|r| r.rel_gap).collect())),
            percent(median(cold.iter().filter_map(|r| r.rel_gap).collect())),
            format!("{} / {}", optimal_count(&warm), optimal_count(&cold)),
            accepted,
        ]);
    }
    if table.is_empty() {
        return String::new();
    }
    format!(
        "## Warm start vs cold start\n\n\
         Runs with the greedy warm start against the same runs without one (same instance, \
         solver and time limit). Ratios are medians of per-pair ratios over the pairs where both \
         figures are known (`n`); below 1 the warm start helps. Seconds of runs stopped by the \
         time limit count as measured, so their ratios understate the difference.\n\n{}",
        table.render()
    )
}

/// One solver / the other, per formulation and warm start.
pub fn solvers_section(rows: &[Row]) -> String {
    let [first, second] = SolverKind::ALL.map(|s| s.name());
    let all = pairs(rows, Varied::Solver, first, second);
    if all.is_empty() {
        return String::new();
    }
    let mut table = Table::new(&[
        "formulation",
        "warm start",
        ">pairs",
        &format!(">seconds ({first} / {second})"),
        &format!(">time to optimality, both optimal ({first} / {second})"),
        &format!(">optimal {first} / {second}"),
        &format!(">median gap {first}"),
        &format!(">median gap {second}"),
    ]);
    let groups = group_by(rows, |r| (r.formulation.clone(), r.warm_start.to_string()));
    for (formulation, warm_start) in groups.keys() {
        let matched: Vec<(&Row, &Row)> = all
            .iter()
            .filter(|(a, _)| {
                &a.formulation == formulation && &a.warm_start.to_string() == warm_start
            })
            .copied()
            .collect();
        if matched.is_empty() {
            continue;
        }
        let ratio_of = |f: fn(&Row) -> Option<f64>| paired_ratio(&matched, f);
        let a: Vec<&Row> = matched.iter().map(|(a, _)| *a).collect();
        let b: Vec<&Row> = matched.iter().map(|(_, b)| *b).collect();
        table.push(vec![
            formulation.clone(),
            warm_start.clone(),
            matched.len().to_string(),
            ratio_of(|r| r.seconds),
            ratio_of(time_to_optimality),
            format!("{} / {}", optimal_count(&a), optimal_count(&b)),
            percent(median(a.iter().filter_map(|r| r.rel_gap).collect())),
            percent(median(b.iter().filter_map(|r| r.rel_gap).collect())),
        ]);
    }
    format!(
        "## {first} vs {second}\n\n\
         The same runs with either solver (same instance, warm start and time limit); the \
         ratio is the median of per-pair ratios of solve seconds (below 1: {first} is \
         faster).\n\n{}",
        table.render()
    )
}

/// Each formulation / the best one on the same problem: time to optimality and model size.
pub fn formulations_section(rows: &[Row]) -> String {
    let problems = group_by(rows, |r| key_without(r, Varied::Formulation));
    let mut by_formulation: BTreeMap<String, Stats> = BTreeMap::new();
    for runs in problems.values() {
        let best_time = runs
            .iter()
            .filter_map(|r| time_to_optimality(r))
            .fold(f64::INFINITY, f64::min);
        let smallest =
            |f: fn(&Row) -> Option<usize>| runs.iter().filter_map(|r| f(r)).min().map(|v| v as f64);
        let (min_variables, min_constraints) =
            (smallest(|r| r.variables), smallest(|r| r.constraints));
        let fastest_build = runs
            .iter()
            .filter_map(|r| r.build_seconds)
            .fold(f64::INFINITY, f64::min);
        for row in runs {
            let stats = by_formulation.entry(row.formulation.clone()).or_default();
            stats.problems += 1;
            if let Some(time) = time_to_optimality(row) {
                stats.solved += 1;
                stats
                    .time_ratios
                    .push(time.max(MIN_SECONDS) / best_time.max(MIN_SECONDS));
                if time <= best_time {
                    stats.fastest += 1;
                }
            }
            stats.variable_ratios.extend(
                row.variables
                    .zip(min_variables)
                    .filter(|(_, m)| *m > 0.0)
                    .map(|(v, m)| v as f64 / m),
            );
            stats.build_ratios.extend(
                row.build_seconds
                    .map(|b| b.max(MIN_SECONDS) / fastest_build.max(MIN_SECONDS)),
            );
            stats.constraint_ratios.extend(
                row.constraints
                    .zip(min_constraints)
                    .filter(|(_, m)| *m > 0.0)
                    .map(|(v, m)| v as f64 / m),
            );
        }
    }
    let mut table = Table::new(&[
        "formulation",
        ">problems",
        ">solved to optimality",
        ">fastest",
        ">time to optimality / best",
        ">variables / smallest",
        ">constraints / smallest",
        ">build time / fastest",
    ]);
    for (formulation, stats) in by_formulation {
        table.push(vec![
            formulation,
            stats.problems.to_string(),
            stats.solved.to_string(),
            stats.fastest.to_string(),
            ratio(median(stats.time_ratios)),
            ratio(median(stats.variable_ratios)),
            ratio(median(stats.constraint_ratios)),
            ratio(median(stats.build_ratios)),
        ]);
    }
    format!(
        "## Formulations against the best\n\n\
         A problem is a dataset, depth, split, solver, warm start and time limit. On each, every \
         formulation's time to optimality is divided by the fastest formulation's (median over \
         the problems it solved), its model size by the smallest model's, and its build time by \
         the fastest build's; times below 1 ms count as 1 ms. *fastest*: problems on which it \
         was (one of) the fastest to prove optimality.\n\n{}",
        table.render()
    )
}

#[derive(Debug, Default)]
struct Stats {
    problems: usize,
    solved: usize,
    fastest: usize,
    time_ratios: Vec<f64>,
    variable_ratios: Vec<f64>,
    constraint_ratios: Vec<f64>,
    build_ratios: Vec<f64>,
}
