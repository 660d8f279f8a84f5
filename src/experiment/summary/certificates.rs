//! The certificate table: per formulation, solver and warm start, how many runs the exact
//! search certified as proven optimal (`agrees`), optimal at the limit (`incumbent_optimal`),
//! suboptimal, unknown, or in contradiction.

use crate::experiment::row::Row;
use crate::experiment::summary::groups::group_by;
use crate::experiment::summary::table::Table;
use crate::learn::certificate::Verdict;

/// The Markdown section; empty when no run has a certificate (a `not_applicable` one, of a
/// problem the search does not solve, does not count).
pub fn certificates_section(rows: &[Row]) -> String {
    let certified: Vec<&Row> = rows
        .iter()
        .filter(|r| r.certificate.is_some_and(|v| v != Verdict::NotApplicable))
        .collect();
    if certified.is_empty() {
        return String::new();
    }
    let mut table = Table::new(&[
        "formulation",
        "solver",
        "warm start",
        ">certified",
        ">agrees",
        ">incumbent = optimum at the limit",
        ">incumbent suboptimal",
        ">unknown",
        ">CONTRADICTION",
    ]);
    let owned: Vec<Row> = certified.into_iter().cloned().collect();
    let groups = group_by(&owned, |r| {
        (
            r.formulation.clone(),
            r.solver_label(),
            r.warm_start.to_string(),
        )
    });
    for ((formulation, solver, warm_start), runs) in groups {
        let count = |verdict: Verdict| {
            runs.iter()
                .filter(|r| r.certificate == Some(verdict))
                .count()
                .to_string()
        };
        table.push(vec![
            formulation,
            solver,
            warm_start,
            runs.len().to_string(),
            count(Verdict::Agrees),
            count(Verdict::IncumbentOptimal),
            count(Verdict::IncumbentSuboptimal),
            count(Verdict::Unknown),
            count(Verdict::Contradiction),
        ]);
    }
    format!(
        "## Certificates\n\n\
         Each MILP result held against the exact search's optimum of the same problem: \
         *agrees*, the solver proved it; *incumbent = optimum at the limit*, the solver stopped \
         with the optimal tree but an open bound; *unknown*, the search's budget was not enough \
         to tell.\n\n{}",
        table.render()
    )
}
