//! The solve → separate → re-solve loop of a MILP with the exact search's rows
//! (`--separation-rounds N`): each round solves the model's LP relaxation (with every row so
//! far) on the run's solver, adds the rows over paths below the root that its point violates
//! and, for the `BELOW_PER_ROUND` (4) root splits its point chooses most, the rows of every
//! path below them (`PathSeparator::rows_below`: tight where the LP sits, they bound the
//! branches that leave its children), and the MILP is then solved once, warm-started and cut off as without
//! the loop, with every row added. The loop has a share of the solver's time
//! ([`LOOP_SHARE`]), within the run's one time limit.
//!
//! Why the LP's point and not the incumbent's: every row is valid, so no integer solution
//! violates one, and neither solver tells the point of a node's LP between solves (HiGHS has
//! no cut callback; CBC's is in its C interface, but its solves run in a worker process, the
//! exact search in the parent). The rows then act in the branch and bound: a branch that fixes
//! a root split and a child's split meets the path's bound at once.

use std::collections::HashSet;
use std::time::Instant;

use crate::budget::Budget;
use crate::error::Result;
use crate::learn::search_paths::{PathSeparator, SeparationRound};
use crate::learn::search_rows::SearchRow;
use crate::mip::{MipModel, RowSense};
use crate::solver::{self, Progress, SolveOptions, SolverKind, Termination, TrajectoryPoint};

/// The rounds by default (`--separation-rounds`).
pub const DEFAULT_ROUNDS: usize = 0;

/// The share of the solver's time the loop may take.
pub const LOOP_SHARE: f64 = 0.25;

/// The most rows one round adds at each point.
const MOST_PER_ROUND: usize = 50;

/// The root splits each round adds the rows of every path below (one per child): those most
/// chosen in the LP's point, where a branch on the root goes first.
const BELOW_PER_ROUND: usize = 4;

/// What the loop did: the model with its rows, the rows (to check), the rounds.
pub(crate) struct Separated {
    pub(crate) model: MipModel,
    pub(crate) rows: Vec<SearchRow>,
    pub(crate) rounds: Vec<SeparationRound>,
    pub(crate) seconds: f64,
}

/// Runs at most `rounds` rounds on `model` (see the module documentation) within
/// [`LOOP_SHARE`] of `solve`'s time limit. `start` is the warm start's values and plain
/// evaluation: the paths it takes are searched first, and a row it violates (a wrong bound,
/// since the start is a tree) is returned among the rows, for the caller's check to refuse.
pub(crate) fn separate_rounds(
    separator: &mut PathSeparator,
    mut model: MipModel,
    (kind, solve, rounds): (SolverKind, &SolveOptions, usize),
    start: Option<(&[f64], f64)>,
) -> Result<Separated> {
    let started = Instant::now();
    let budget = solve.budget.share(LOOP_SHARE);
    let deadline = budget.deadline_from(started);
    let mut added = Vec::new();
    let mut done = Vec::new();
    if let Some((values, evaluated)) = start {
        let (wrong, _) = separator.separate(&model, values, evaluated, deadline, usize::MAX)?;
        if !wrong.is_empty() {
            return Ok(Separated {
                model,
                rows: wrong,
                rounds: done,
                seconds: started.elapsed().as_secs_f64(),
            });
        }
    }
    let mut below = HashSet::new();
    for _ in 0..rounds {
        let round_started = Instant::now();
        let left = || budget.left_since(started);
        if left().duration() == Some(std::time::Duration::ZERO) || solve.interrupted() {
            break;
        }
        let Some((values, objective)) = lp_point(&model, (kind, solve, left()))? else {
            done.push(round(None, 0, 0, round_started));
            break;
        };
        let (mut rows, mut searched) =
            separator.separate(&model, &values, objective, deadline, MOST_PER_ROUND)?;
        for (s, _) in separator.most_chosen(&model, &values, BELOW_PER_ROUND, &below) {
            below.insert(s);
            if left().duration() == Some(std::time::Duration::ZERO) {
                break;
            }
            let (more, also) = separator.rows_below(s, deadline)?;
            rows.extend(more);
            searched += also;
        }
        let objective_expression = model.objective_expression();
        for row in &rows {
            let lhs = objective_expression.clone();
            model.add_row(&row.name, lhs, RowSense::Ge, row.bound.clone());
        }
        done.push(round(Some(objective), rows.len(), searched, round_started));
        let none = rows.is_empty();
        added.extend(rows);
        if none {
            break;
        }
    }
    Ok(Separated {
        model,
        rows: added,
        rounds: done,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// A round's record.
fn round(
    lp_bound: Option<f64>,
    rows_added: usize,
    paths_searched: usize,
    started: Instant,
) -> SeparationRound {
    SeparationRound {
        lp_bound,
        rows_added,
        paths_searched,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// The optimal point of `model`'s LP relaxation and its objective, solved by `kind` within
/// the budget `left`; `None` when the LP was not solved to optimality.
fn lp_point(
    model: &MipModel,
    (kind, solve, left): (SolverKind, &SolveOptions, Budget),
) -> Result<Option<(Vec<f64>, f64)>> {
    let options = SolveOptions {
        budget: left,
        warm_start: None,
        start_as_cutoff: false,
        progress: Progress::Hidden,
        log: false,
        solver_options: Vec::new(),
        ..solve.clone()
    };
    let lp = solver::solve(&model.relaxed(), kind, &options)?;
    if lp.report.termination != Termination::Optimal {
        return Ok(None);
    }
    Ok(lp
        .solution
        .zip(lp.report.objective)
        .map(|(solution, objective)| (solution.values().to_vec(), objective)))
}

/// The loop's rounds as the first points of a solve's trajectory (each round's LP bound, at
/// its end; `incumbent` the start's objective), the solve's own points after them, shifted by
/// the loop's seconds.
pub(crate) fn with_rounds(
    trajectory: &mut Vec<TrajectoryPoint>,
    separated: &Separated,
    incumbent: Option<f64>,
) {
    let mut points = Vec::with_capacity(separated.rounds.len() + trajectory.len());
    let mut seconds = 0.0;
    for round in &separated.rounds {
        seconds += round.seconds;
        if round.lp_bound.is_some() {
            points.push(TrajectoryPoint {
                seconds,
                incumbent,
                bound: round.lp_bound,
            });
        }
    }
    for point in trajectory.drain(..) {
        points.push(TrajectoryPoint {
            seconds: point.seconds + separated.seconds,
            ..point
        });
    }
    *trajectory = points;
}
