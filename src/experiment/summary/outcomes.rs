//! The outcome table: per formulation, solver and warm start, how the runs ended and the
//! medians of their time, gap, time to first incumbent and primal integral.

use crate::experiment::row::Row;
use crate::experiment::summary::groups::{group_by, RunOutcome};
use crate::experiment::summary::stats::{median, percent, seconds};
use crate::experiment::summary::table::Table;

/// The Markdown section.
pub fn outcomes_section(rows: &[Row]) -> String {
    let mut table = Table::new(&[
        "formulation",
        "solver",
        "warm start",
        ">runs",
        ">optimal",
        ">time limit",
        ">no solution",
        ">error",
        ">median seconds",
        ">median gap",
        ">median time to 1st incumbent (s)",
        ">median primal integral (s)",
    ]);
    let groups = group_by(rows, |r| {
        (
            r.formulation.clone(),
            r.solver_label(),
            r.warm_start.to_string(),
        )
    });
    for ((formulation, solver, warm_start), runs) in groups {
        let count = |outcome: RunOutcome| {
            runs.iter()
                .filter(|r| RunOutcome::of(r) == outcome)
                .count()
                .to_string()
        };
        let collect = |f: fn(&Row) -> Option<f64>| runs.iter().filter_map(|r| f(r)).collect();
        table.push(vec![
            formulation,
            solver,
            warm_start,
            runs.len().to_string(),
            count(RunOutcome::Optimal),
            count(RunOutcome::TimeLimit),
            count(RunOutcome::NoSolution),
            count(RunOutcome::Error),
            seconds(median(collect(|r| r.seconds))),
            percent(median(collect(|r| r.rel_gap))),
            seconds(median(collect(|r| r.time_to_first_incumbent))),
            seconds(median(collect(|r| r.primal_integral))),
        ]);
    }
    format!(
        "## Outcomes\n\n\
         *time limit*: stopped at the time limit with a solution; *no solution*: ended without \
         one; *error*: failed, or the solver crashed (`solver_error`). Medians are over the \
         runs where the figure is known.\n\n{}",
        table.render()
    )
}
