//! `summary.md`: the results as Markdown tables — outcomes with medians, warm / cold and solver
//! ratios over matched runs, each formulation against the best, model sizes, accuracy against
//! the greedy trees — and notes on what the figures mean and what is not known.

mod accuracy;
mod certificates;
mod comparisons;
mod groups;
mod outcomes;
mod sizes;
pub mod stats;
mod table;

use std::collections::BTreeSet;

use crate::experiment::row::Row;

pub use groups::{time_to_optimality, RunOutcome};

/// The whole summary of `rows`.
pub fn summary_markdown(rows: &[Row]) -> String {
    let mut text = String::from("# Experiment summary\n\n");
    if rows.is_empty() {
        text.push_str("No runs recorded yet.\n");
        return text;
    }
    let distinct = |f: fn(&Row) -> String| -> String {
        let values: BTreeSet<String> = rows.iter().map(f).collect();
        values.into_iter().collect::<Vec<_>>().join(", ")
    };
    text.push_str(&format!(
        "{} runs. Datasets: {}. Depths: {}. Formulations: {}. Solvers: {}. Warm starts: {}. \
         Seeds: {}. Time limits (s): {}. Test fractions: {}.\n\n",
        rows.len(),
        distinct(|r| r.dataset.clone()),
        distinct(|r| r.depth.to_string()),
        distinct(|r| r.formulation.clone()),
        distinct(|r| r.solver_label()),
        distinct(|r| r.warm_start.to_string()),
        distinct(|r| r.seed.to_string()),
        distinct(|r| r.time_limit.to_string()),
        distinct(|r| r.test_fraction.to_string()),
    ));
    for section in [
        outcomes::outcomes_section(rows),
        certificates::certificates_section(rows),
        comparisons::warm_cold_section(rows),
        comparisons::solvers_section(rows),
        comparisons::formulations_section(rows),
        sizes::sizes_section(rows),
        accuracy::accuracy_section(rows),
        notes(rows),
    ] {
        if !section.is_empty() {
            text.push_str(&section);
            text.push('\n');
        }
    }
    text
}

/// Whether a run failed: an error, or a solver that crashed.
fn notes(rows: &[Row]) -> String {
    let mut notes = vec![
        "Gaps are `(objective - bound) / |objective|` with the solver's final figures; seconds \
         are wall-clock seconds of the solve (model load to result), without the model build."
            .to_string(),
        "The primal integral (Berthold 2013) is the integral over the time limit of the primal \
         gap `|x - r| / max(|x|, |r|)` of the incumbent `x` (1 without an incumbent), `r` being \
         the best objective any run in these results reached on the same instance (dataset, \
         formulation, depth, split). It is in seconds: 0 is a run that had the best solution \
         from the start, the time limit a run that never had a solution. It is recomputed \
         whenever results are added."
            .to_string(),
    ];
    let unknown = rows
        .iter()
        .filter(|r| !r.trajectory_complete && !r.termination.is_error())
        .count();
    if unknown > 0 {
        let solvers: BTreeSet<&str> = rows
            .iter()
            .filter(|r| !r.trajectory_complete && !r.termination.is_error())
            .map(|r| r.solver.as_str())
            .collect();
        notes.push(format!(
            "{unknown} runs ({}) have solutions whose times are unknown: their reports give the \
             final state only (CBC runs of milptree versions before CBC's log was read). Their \
             time to first incumbent and primal integral are left empty (not estimated), their \
             trajectory plots show the final point only, and warm-start acceptance may be \
             unknown.",
            solvers.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    let mismatches = rows.iter().filter(|r| r.decode_mismatch).count();
    if mismatches > 0 {
        notes.push(format!(
            "{mismatches} runs have a decoded tree whose objective, computed by plain code, \
             differs from the solver's (`decode_mismatch`); their accuracies are those of the \
             decoded tree."
        ));
    }
    let errors: Vec<&Row> = rows.iter().filter(|r| r.termination.is_error()).collect();
    for row in errors.iter().take(10) {
        notes.push(format!(
            "`{}` failed: {}",
            row.run_key,
            row.error.as_deref().unwrap_or("no message")
        ));
    }
    if errors.len() > 10 {
        notes.push(format!("... and {} more failed runs.", errors.len() - 10));
    }
    let mut text = String::from("## Notes\n\n");
    for note in notes {
        text.push_str(&format!("- {note}\n"));
    }
    text
}
