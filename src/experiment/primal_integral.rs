//! The primal integral of a run (Berthold 2013): how long, and by how much, the best known
//! solution was worse than a reference objective, integrated over the time limit.
//!
//! The primal gap of an incumbent `x` against the reference `r` is
//! - `1` when there is no incumbent, or when `x` and `r` have opposite signs (`x * r < 0`);
//! - `0` when `x = r = 0`;
//! - `|x - r| / max(|x|, |r|)` otherwise (so it lies in `[0, 1]`).
//!
//! The primal integral is `∫₀ᵀ gap(t) dt` in seconds, `T` the time limit, with the incumbent a
//! step function of time: none until the first reported solution, then the last reported one;
//! after the solve ends the final incumbent holds until `T`; points after `T` do not count. It
//! is `T` for a run that never found a solution, and small for a run that found the reference
//! objective early. The reference is the best objective any run of the results reached on the
//! same instance (dataset, formulation with its parameters, depth, split); it is recomputed
//! whenever the tables are written, so adding runs can change earlier rows' integrals.
//!
//! A run whose report gives solutions without saying when (the final state only) has no
//! integral: the times are unknown, and none is invented. Nor has a failed run (`error`, or a
//! solver that crashed, `solver_error`).

use std::collections::HashMap;

use crate::experiment::row::Row;
use crate::solver::TrajectoryPoint;

/// The primal gap of `incumbent` against `reference` (see the module documentation).
pub fn primal_gap(incumbent: Option<f64>, reference: f64) -> f64 {
    let Some(x) = incumbent else { return 1.0 };
    if x == 0.0 && reference == 0.0 {
        0.0
    } else if x * reference < 0.0 {
        1.0
    } else {
        (x - reference).abs() / x.abs().max(reference.abs())
    }
}

/// The primal integral of `points` (sorted by time) over `[0, limit]` against `reference`.
/// Without a reference (no run of the instance found a solution) the gap is 1 throughout.
pub fn primal_integral(points: &[TrajectoryPoint], reference: Option<f64>, limit: f64) -> f64 {
    let gap = |incumbent: Option<f64>| match reference {
        Some(reference) => primal_gap(incumbent, reference),
        None => 1.0,
    };
    let mut integral = 0.0;
    let mut since = 0.0;
    let mut incumbent = None;
    for point in points {
        let at = point.seconds.clamp(0.0, limit);
        integral += gap(incumbent) * (at - since).max(0.0);
        since = since.max(at);
        if point.incumbent.is_some() {
            incumbent = point.incumbent;
        }
    }
    integral + gap(incumbent) * (limit - since).max(0.0)
}

/// Sets `primal_integral_reference` (the best objective of the row's instance over `rows`) and
/// `primal_integral` of every row. The integral is left empty for failed runs and for runs
/// whose trajectory does not say when solutions were found.
pub fn fill_primal_integrals(
    rows: &mut [Row],
    trajectories: &HashMap<String, Vec<TrajectoryPoint>>,
) {
    let mut best = HashMap::new();
    for row in rows.iter() {
        if let Some(objective) = row.objective.filter(|o| o.is_finite()) {
            best.entry(row.instance())
                .and_modify(|b: &mut f64| *b = b.min(objective))
                .or_insert(objective);
        }
    }
    for row in rows.iter_mut() {
        let reference = best.get(&row.instance()).copied();
        row.primal_integral_reference = reference;
        let points = trajectories
            .get(&row.run_key)
            .map_or(&[][..], Vec::as_slice);
        let known = !row.termination.is_error()
            && row.trajectory_complete
            && (!points.is_empty() || !row.has_solution);
        row.primal_integral = known.then(|| primal_integral(points, reference, row.time_limit));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(seconds: f64, incumbent: Option<f64>) -> TrajectoryPoint {
        TrajectoryPoint {
            seconds,
            incumbent,
            bound: None,
        }
    }

    #[test]
    fn gaps_follow_berthold() {
        assert_eq!(primal_gap(None, 3.0), 1.0);
        assert_eq!(primal_gap(Some(0.0), 0.0), 0.0);
        assert_eq!(primal_gap(Some(-1.0), 2.0), 1.0);
        assert_eq!(primal_gap(Some(4.0), 3.0), 0.25);
        assert_eq!(primal_gap(Some(3.0), 3.0), 0.0);
        assert_eq!(primal_gap(Some(2.0), 0.0), 1.0);
    }

    #[test]
    fn no_solution_integrates_to_the_limit() {
        assert_eq!(primal_integral(&[point(5.0, None)], Some(1.0), 10.0), 10.0);
        assert_eq!(primal_integral(&[], None, 7.5), 7.5);
    }
}
