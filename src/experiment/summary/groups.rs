//! Grouping rows for the summary: what a run ended with ([`RunOutcome`]), rows grouped by a
//! key, and matched pairs of runs that differ in one setting only.

use crate::solver::Termination;
use std::collections::BTreeMap;

use crate::experiment::row::Row;

/// How a run ended, as the summary counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunOutcome {
    /// Proven optimal.
    Optimal,
    /// Stopped (time limit) with a solution.
    TimeLimit,
    /// Ended without a solution (time limit, infeasible, ...).
    NoSolution,
    /// Failed, or the solver crashed (`error`, `solver_error`).
    Error,
}

impl RunOutcome {
    pub fn of(row: &Row) -> RunOutcome {
        match row.termination {
            Termination::Error(_) | Termination::SolverError(_) => RunOutcome::Error,
            Termination::Optimal if row.has_solution => RunOutcome::Optimal,
            _ if row.has_solution => RunOutcome::TimeLimit,
            _ => RunOutcome::NoSolution,
        }
    }
}

/// The seconds a run took to prove optimality; `None` when it did not.
pub fn time_to_optimality(row: &Row) -> Option<f64> {
    (RunOutcome::of(row) == RunOutcome::Optimal)
        .then_some(row.seconds)
        .flatten()
}

/// `rows` grouped by `key`, groups in key order, rows in table order.
pub fn group_by<K: Ord>(rows: &[Row], key: impl Fn(&Row) -> K) -> BTreeMap<K, Vec<&Row>> {
    let mut groups: BTreeMap<K, Vec<&Row>> = BTreeMap::new();
    for row in rows {
        groups.entry(key(row)).or_default().push(row);
    }
    groups
}

/// Which setting a comparison varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Varied {
    WarmStart,
    Solver,
    Formulation,
}

/// Everything about a run but the `varied` setting: runs with equal keys are comparable.
pub fn key_without(row: &Row, varied: Varied) -> String {
    let formulation = if varied == Varied::Formulation {
        String::new()
    } else {
        format!("{} {}", row.formulation, row.parameters)
    };
    let solver = if varied == Varied::Solver {
        String::new()
    } else {
        row.solver_label()
    };
    let warm_start = if varied == Varied::WarmStart {
        ""
    } else {
        row.warm_start.name()
    };
    format!(
        "{}|{}|{}|{}|{}|{}|{}|{}",
        row.dataset,
        row.depth,
        row.seed,
        row.test_fraction,
        row.time_limit,
        formulation,
        solver,
        warm_start
    )
}

/// Pairs `(a, b)` of runs that differ only in the `varied` setting, `a` having the value
/// `first` and `b` the value `second` of that setting.
pub fn pairs<'a>(
    rows: &'a [Row],
    varied: Varied,
    first: &str,
    second: &str,
) -> Vec<(&'a Row, &'a Row)> {
    let value = |row: &Row| -> String {
        match varied {
            Varied::WarmStart => row.warm_start.to_string(),
            Varied::Solver => row.solver_label(),
            Varied::Formulation => row.formulation.clone(),
        }
    };
    let mut seconds: BTreeMap<String, &Row> = BTreeMap::new();
    for row in rows.iter().filter(|row| value(row) == second) {
        seconds.insert(key_without(row, varied), row);
    }
    rows.iter()
        .filter(|row| value(row) == first)
        .filter_map(|row| {
            seconds
                .get(&key_without(row, varied))
                .map(|other| (row, *other))
        })
        .collect()
}
