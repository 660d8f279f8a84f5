//! The one gap formula used for every solver (solvers' own gap figures differ in their
//! denominators, so we never report them):
//!
//! - `abs_gap = max(0, objective - bound)`;
//! - `rel_gap = abs_gap / |objective|`, `0` when `abs_gap` is `0`, undefined (`None`) when the
//!   objective is `0` and the gap is not.
//!
//! Both are undefined without an objective and a bound.

/// `(abs_gap, rel_gap)` of a minimisation with incumbent `objective` and lower bound `bound`.
pub fn gaps(objective: Option<f64>, bound: Option<f64>) -> (Option<f64>, Option<f64>) {
    let (Some(objective), Some(bound)) = (objective, bound) else {
        return (None, None);
    };
    let abs_gap = (objective - bound).max(0.0);
    let rel_gap = if abs_gap == 0.0 {
        Some(0.0)
    } else if objective == 0.0 {
        None
    } else {
        Some(abs_gap / objective.abs())
    };
    (Some(abs_gap), rel_gap)
}
