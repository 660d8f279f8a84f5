//! The warm start's objective as an objective cutoff ([`SolveOptions::start_as_cutoff`]): the
//! solver is told to look only for solutions better than the start (HiGHS `objective_bound`,
//! CBC `cutoff`), with a margin so that the start itself stays feasible; and the report made
//! honest afterwards ([`settle`]).
//!
//! A solver given a cutoff that finds nothing below it may say "infeasible" or return no
//! solution. What it proved is then that no solution is better than the cutoff, so the start
//! (feasible by our check, below the cutoff) is returned: optimal with the start's objective as
//! its bound after such a proof, and with the solver's bound, never above the start's
//! objective, when it was stopped.

use super::report::{Solved, Termination};
use super::SolveOptions;
use crate::mip::{Assignment, FEASIBILITY_TOLERANCE};

/// The cutoff for a start of objective `objective`: a little above it (the same relative
/// tolerance by which a solver's incumbent counts as good as the start).
pub(crate) fn cutoff_above(objective: f64) -> f64 {
    objective + FEASIBILITY_TOLERANCE * 1f64.max(objective.abs())
}

/// Makes the report of a solve run with the start's cutoff honest: `start` is the warm start
/// given (feasible by our check) and `objective` its objective.
pub(crate) fn settle(
    solved: &mut Solved,
    options: &SolveOptions,
    start: &Assignment,
    objective: f64,
) {
    if !options.start_as_cutoff {
        return;
    }
    let report = &mut solved.report;
    let cutoff = cutoff_above(objective);
    match report.termination {
        Termination::Infeasible => {
            report.termination = Termination::Optimal;
            report.has_solution = true;
            report.objective = Some(objective);
            report.best_bound = Some(objective);
            solved.solution = Some(start.clone());
            report.notes.push(format!(
                "the solver proved that no solution has an objective below the cutoff {cutoff} \
                 (the warm start's objective and a margin): the warm start is optimal"
            ));
        }
        Termination::TimeLimit | Termination::Interrupted | Termination::SolverLimit
            if solved.solution.is_none() =>
        {
            report.has_solution = true;
            report.objective = Some(objective);
            solved.solution = Some(start.clone());
            report.notes.push(format!(
                "the solver found no solution below the cutoff {cutoff} (the warm start's \
                 objective and a margin) before it stopped: the warm start is returned"
            ));
        }
        _ => {}
    }
    // A bound found under the cutoff holds for the solutions below it; the start is one of the
    // others, so the proven bound is never above the returned objective.
    if let (Some(bound), Some(objective)) = (report.best_bound, report.objective) {
        report.best_bound = Some(bound.min(objective));
    }
}

#[cfg(test)]
mod tests {
    use super::{cutoff_above, settle};
    use crate::mip::{MipModel, RowSense};
    use crate::solver::report::{SolveReport, Solved, Termination};
    use crate::solver::SolveOptions;

    fn solved_as(termination: Termination, bound: Option<f64>) -> Solved {
        let options = SolveOptions::default();
        let mut report = SolveReport::new("cbc", "test".to_string(), &options);
        report.termination = termination;
        report.best_bound = bound;
        Solved {
            report,
            solution: None,
        }
    }

    #[test]
    fn nothing_below_the_cutoff_makes_the_start_optimal_or_returned() {
        let mut model = MipModel::new("m");
        let x = model.binary("x");
        model.add_row("r", x, RowSense::Le, 1.0);
        let start = model.assignment_from_values(vec![1.0]).expect("a start");
        let options = SolveOptions {
            start_as_cutoff: true,
            ..SolveOptions::default()
        };
        let mut proven = solved_as(Termination::Infeasible, None);
        settle(&mut proven, &options, &start, 3.0);
        assert_eq!(proven.report.termination, Termination::Optimal);
        assert_eq!(proven.report.objective, Some(3.0));
        assert_eq!(proven.report.best_bound, Some(3.0));
        assert!(proven.solution.is_some());
        // Stopped with a bound found under the cutoff above the start: capped at the start.
        let mut stopped = solved_as(Termination::TimeLimit, Some(3.5));
        settle(&mut stopped, &options, &start, 3.0);
        assert_eq!(stopped.report.termination, Termination::TimeLimit);
        assert_eq!(stopped.report.objective, Some(3.0));
        assert_eq!(stopped.report.best_bound, Some(3.0));
        // Without the option, nothing changes.
        let mut untouched = solved_as(Termination::Infeasible, None);
        settle(&mut untouched, &SolveOptions::default(), &start, 3.0);
        assert_eq!(untouched.report.termination, Termination::Infeasible);
        assert!(untouched.solution.is_none());
        assert!(cutoff_above(3.0) > 3.0 && cutoff_above(3.0) < 3.0 + 1e-5);
    }
}
