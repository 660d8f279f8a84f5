//! What a backend's run produced, in our terms: [`Outcome`], shared by HiGHS and CBC. The
//! report is completed from it and from the run's [`Monitor`] (trajectory, first incumbent).

use super::progress::Monitor;
use super::report::{SolveReport, Termination};

/// Why a run ended and what it left: objective and bound with the objective constant included,
/// branch-and-bound nodes, the column values of the returned solution, and notes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Outcome {
    pub termination: Termination,
    pub objective: Option<f64>,
    pub bound: Option<f64>,
    pub nodes: Option<u64>,
    /// The returned solution's values by column; `None`: no solution returned.
    pub values: Option<Vec<f64>>,
    pub notes: Vec<String>,
}

impl Outcome {
    /// Copies the outcome into `report`, with the monitor's trajectory closed by the final
    /// state and its first incumbent.
    pub(crate) fn fill(&self, report: &mut SolveReport, monitor: Monitor) {
        let trajectory = monitor.finish(self.objective, self.bound);
        report.termination = self.termination.clone();
        report.has_solution = self.values.is_some();
        report.objective = self.objective;
        report.best_bound = self.bound;
        report.nodes = self.nodes;
        report.time_to_first_incumbent = trajectory.first_incumbent.map(|(t, _)| t);
        report.first_incumbent = trajectory.first_incumbent.map(|(_, objective)| objective);
        report.root_bound = trajectory.root_bound;
        report.trajectory = trajectory.points;
        report.notes.extend(self.notes.iter().cloned());
    }
}
