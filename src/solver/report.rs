//! What a solve reports: [`Termination`], [`SolveReport`] with its [`TrajectoryPoint`]s and
//! [`WarmStartReport`], and the [`Solved`] / [`FileSolved`] results.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::mip::{Assignment, Feasibility, Violation};

/// Why a solve ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Termination {
    /// Proven optimal (within the requested relative gap).
    Optimal,
    /// Proven infeasible.
    Infeasible,
    /// Proven unbounded.
    Unbounded,
    /// The solver proved that the model is infeasible or unbounded without telling which, and
    /// a feasibility solve could not decide either (e.g. out of time).
    InfeasibleOrUnbounded,
    /// The time limit was reached.
    TimeLimit,
    /// The interrupt flag stopped the solver.
    Interrupted,
    /// The solver stopped at a limit of its own options (`--solver-option`: HiGHS's
    /// `mip_max_improving_sols`, `mip_max_nodes`, an iteration limit, an objective bound or
    /// target; CBC's node, solution or iteration limits), as asked, with or without a solution;
    /// the report's notes say which.
    SolverLimit,
    /// The solver failed or ended in a state we do not interpret; the text says what happened.
    Error(String),
    /// The solver's process died (a crash, a signal) before it finished; the text says how,
    /// with the last lines of its log. The report keeps what its log had shown until then.
    SolverError(String),
}

impl Termination {
    /// The JSON name: `optimal`, `infeasible`, `unbounded`, `infeasible_or_unbounded`,
    /// `time_limit`, `interrupted`, `solver_limit`, `error` or `solver_error`.
    pub fn name(&self) -> &'static str {
        match self {
            Termination::Optimal => "optimal",
            Termination::Infeasible => "infeasible",
            Termination::Unbounded => "unbounded",
            Termination::InfeasibleOrUnbounded => "infeasible_or_unbounded",
            Termination::TimeLimit => "time_limit",
            Termination::Interrupted => "interrupted",
            Termination::SolverLimit => "solver_limit",
            Termination::Error(_) => "error",
            Termination::SolverError(_) => "solver_error",
        }
    }

    /// The termination called `name` (see [`Termination::name`]), with `text` for the two that
    /// carry one.
    pub fn from_name(name: &str, text: String) -> Option<Termination> {
        Some(match name {
            "optimal" => Termination::Optimal,
            "infeasible" => Termination::Infeasible,
            "unbounded" => Termination::Unbounded,
            "infeasible_or_unbounded" => Termination::InfeasibleOrUnbounded,
            "time_limit" => Termination::TimeLimit,
            "interrupted" => Termination::Interrupted,
            "solver_limit" => Termination::SolverLimit,
            "error" => Termination::Error(text),
            "solver_error" => Termination::SolverError(text),
            _ => return None,
        })
    }

    /// The text of an `error` or `solver_error` termination.
    pub fn error_text(&self) -> Option<&str> {
        match self {
            Termination::Error(text) | Termination::SolverError(text) => Some(text),
            _ => None,
        }
    }

    /// Whether the solve failed: the solver crashed, or ended without a solution for a reason
    /// other than a limit or an interrupt (infeasible, unbounded, an error). A command that
    /// reports such a solve exits with a failure.
    pub fn is_failure(&self, has_solution: bool) -> bool {
        match self {
            Termination::SolverError(_) => true,
            Termination::TimeLimit | Termination::Interrupted | Termination::SolverLimit => false,
            _ => !has_solution,
        }
    }

    /// Whether the run failed: an error, or the solver's process died (the text says why).
    pub fn is_error(&self) -> bool {
        matches!(self, Termination::Error(_) | Termination::SolverError(_))
    }

    /// Whether the solver's search ended early or completed with a solution, so that its best
    /// bound means something.
    pub(crate) fn has_meaningful_bound(&self) -> bool {
        matches!(
            self,
            Termination::Optimal
                | Termination::TimeLimit
                | Termination::Interrupted
                | Termination::SolverLimit
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Error(text) => write!(f, "error: {text}"),
            Termination::SolverError(text) => write!(f, "solver_error: {text}"),
            other => f.write_str(other.name()),
        }
    }
}

impl Serialize for Termination {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// A solve that has not ended yet: an error with the text "not solved".
impl Default for Termination {
    fn default() -> Self {
        Termination::Error("not solved".to_string())
    }
}

/// Reads a termination from its name. An `error` or `solver_error` read this way has no text:
/// the text travels next to it (the report's `error` field).
impl<'de> Deserialize<'de> for Termination {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Termination::from_name(&name, String::new())
            .ok_or_else(|| serde::de::Error::custom(format!("`{name}` is not a termination")))
    }
}

/// The state of the search at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TrajectoryPoint {
    /// Wall seconds since the solve started.
    pub seconds: f64,
    /// Objective of the best solution known then.
    pub incumbent: Option<f64>,
    /// Best bound known then.
    pub bound: Option<f64>,
}

/// What happened to a warm start.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WarmStartReport {
    /// Its objective value (constant included).
    pub objective: f64,
    /// Whether it satisfies every row, bound and integrality requirement.
    pub feasible: bool,
    /// How many rows, bounds and integrality requirements it violates.
    pub violations: usize,
    /// Its worst violation, with the row or column named.
    pub worst_violation: Option<Violation>,
    /// Whether the solver took it as its incumbent: `true` when the solver's first incumbent was
    /// at least as good as the start, `false` when that first incumbent was worse or the solver
    /// ended without any incumbent, `null` when the solver does not say.
    pub accepted: Option<bool>,
}

/// Everything a solve reports. Figures the solver does not give are `None` (JSON `null`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SolveReport {
    /// `highs` or `cbc`.
    pub solver: String,
    /// The solver library's version.
    pub solver_version: String,
    /// Why the solve ended.
    pub termination: Termination,
    /// The text of an `error` or `solver_error` termination.
    pub error: Option<String>,
    /// Whether the solver returned a feasible solution.
    pub has_solution: bool,
    /// Objective of the returned solution (constant included).
    pub objective: Option<f64>,
    /// Best bound on the optimum proven by the solver (constant included).
    pub best_bound: Option<f64>,
    /// `max(0, objective - best_bound)`.
    pub abs_gap: Option<f64>,
    /// `abs_gap / |objective|` (0 when `abs_gap` is 0; `null` when `objective` is 0 and the gap
    /// is not).
    pub rel_gap: Option<f64>,
    /// Wall seconds of the whole solve, from the checks and model load to the result.
    pub seconds: f64,
    /// Branch-and-bound nodes explored.
    pub nodes: Option<u64>,
    /// Wall seconds until the solver reported its first incumbent.
    pub time_to_first_incumbent: Option<f64>,
    /// Objective of that first incumbent.
    pub first_incumbent: Option<f64>,
    /// HiGHS: its bound (constant included) once it has evaluated the root node, its LP and
    /// cut rounds (the first evaluation, when a restart repeats it), as its cut-pool callback
    /// reports it; `null` when the solve ended before (presolve, the root LP, a limit), for a
    /// pure LP, and for CBC, which does not report it.
    #[serde(default)]
    pub root_bound: Option<f64>,
    /// Incumbent and bound over time, as far as the solver reports them; the last point is the
    /// final state.
    pub trajectory: Vec<TrajectoryPoint>,
    /// The warm start's check and fate, when one was given.
    pub warm_start: Option<WarmStartReport>,
    /// Our check of the returned solution against the model.
    pub solution_check: Option<Feasibility>,
    /// The time limit the solve ran with.
    pub time_limit: Option<f64>,
    /// The relative gap the solve ran with.
    pub mip_rel_gap: f64,
    /// Threads requested from the solver; `null`: the solver's default.
    pub threads: Option<usize>,
    /// Facts worth knowing to read the figures (solver limitations, verdicts not trusted,...).
    pub notes: Vec<String>,
}

impl SolveReport {
    /// A report with nothing known yet but the solver and the options.
    pub(crate) fn new(
        solver: &str,
        solver_version: String,
        options: &super::SolveOptions,
    ) -> SolveReport {
        SolveReport {
            solver: solver.to_string(),
            solver_version,
            termination: Termination::Error("not solved".to_string()),
            error: None,
            has_solution: false,
            objective: None,
            best_bound: None,
            abs_gap: None,
            rel_gap: None,
            seconds: 0.0,
            nodes: None,
            time_to_first_incumbent: None,
            first_incumbent: None,
            root_bound: None,
            trajectory: Vec::new(),
            warm_start: None,
            solution_check: None,
            time_limit: options.budget.limit_seconds(),
            mip_rel_gap: options.mip_rel_gap,
            threads: options.threads,
            notes: Vec::new(),
        }
    }
}

/// The result of solving a model: the report and the solver's raw solution (see
/// [`crate::mip::MipModel::round_integers`] for integer columns rounded).
#[derive(Debug, Clone)]
pub struct Solved {
    /// The report.
    pub report: SolveReport,
    /// The solution, when the solver returned one.
    pub solution: Option<Assignment>,
}

/// The result of solving a model file read by the solver's own reader.
#[derive(Debug, Clone)]
pub struct FileSolved {
    /// The report (without warm-start or solution checks: there is no model record).
    pub report: SolveReport,
    /// The solution as `(column name in the file, value)` pairs, in the solver's column order.
    pub solution: Option<Vec<(String, f64)>>,
}
