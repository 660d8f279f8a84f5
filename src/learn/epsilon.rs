//! The front of false positives and false negatives from a MILP formulation, by the
//! epsilon-constraint method: minimise the false negatives subject to at most `eps` false
//! positives, `eps` walking down the front.
//!
//! The formulation states each class's errors as linear expressions ([`ClassErrors`]). Each
//! solve minimises `(N + 1) FN + FP` (`N` the negative rows, so `FP <= N` never outweighs one
//! false negative: the least FN, then the least FP for it) under `FP <= eps`: its optimum is
//! the front's point with the most false positives up to `eps`. The first solve has `eps = N`,
//! each next one `eps` = the last point's false positives less one, until a point with no false
//! positive: one solve per point, plus none. Each solve starts from the previous point's tree
//! with leaves turned negative, most negative rows per positive row first, until it meets the
//! new bound.
//!
//! Every point's tree is decoded and its errors counted by plain code. A solve stopped by the
//! time limit ends the walk: its tree is a point found but not proven, and its bound gives the
//! lower-bound front's last corner (every tree with at most `eps` false positives has at least
//! `(bound - eps) / (N + 1)` false negatives).

use std::time::Instant;

use crate::budget::Budget;
use crate::data::Dataset;
use crate::dp::DpTermination;
use crate::error::{Error, Result};
use crate::formulation::costs::refuse_row_weights;
use crate::formulation::{BuiltModel, ClassErrors};
use crate::learn::front_document::EpsilonSolve;
use crate::mip::RowSense;
use crate::pareto::{errors_of, front, FrontTree, ParetoOutcome, ParetoStats, Point};
use crate::score::ClassUnits;
use crate::solver::{self, Progress, SolveOptions, SolverKind, Termination};
use crate::tree::{NodeKind, Tree};

/// How to run the method.
#[derive(Debug, Clone)]
pub struct EpsilonOptions {
    pub solver: SolverKind,
    /// The time of the whole walk, and its interrupt flag.
    pub budget: Budget,
    pub threads: Option<usize>,
}

/// The front and the solves that found it.
#[derive(Debug, Clone)]
pub struct EpsilonOutcome {
    pub outcome: ParetoOutcome,
    pub solves: Vec<EpsilonSolve>,
}

/// The epsilon-constraint front of `formulation` on the two-class `train` (class 1 positive).
pub fn epsilon_front<F: ClassErrors>(
    formulation: &F,
    train: &Dataset,
    options: &EpsilonOptions,
) -> Result<EpsilonOutcome> {
    let started = Instant::now();
    refuse_row_weights(
        train,
        "the front of false positives and false negatives of a MILP",
    )?;
    let counts = train.class_counts();
    if counts.len() != 2 {
        return Err(Error::input(
            train.source(),
            "the front of false positives and false negatives needs two classes",
        ));
    }
    let (negatives, positives) = (counts[0] as u32, counts[1] as u32);
    let (built, errors) = formulation.build_with_class_errors(train)?;
    let (fp_errors, fn_errors) = (errors[0].clone(), errors[1].clone());
    let scale = f64::from(negatives) + 1.0;
    let mut model = built.mip().clone();
    model.set_objective(scale * fn_errors + fp_errors.clone());

    let mut front: Vec<FrontTree> = Vec::new();
    let mut solves = Vec::new();
    let mut last_corner = None;
    let mut max_fp = negatives;
    let mut previous: Option<Tree> = None;
    let mut termination = DpTermination::Optimal;
    loop {
        let remaining = options.budget.left_since(started);
        if remaining.duration() == Some(std::time::Duration::ZERO) {
            termination = DpTermination::TimeLimit;
            last_corner = Some(Point::ZERO);
            break;
        }
        let mut bounded = model.clone();
        bounded.add_row("max_fp", fp_errors.clone(), RowSense::Le, f64::from(max_fp));
        let warm_start = match &previous {
            Some(tree) => {
                let repaired = within_false_positives(tree, train, max_fp)?;
                formulation
                    .encode(&built, &repaired)
                    .ok()
                    .map(|e| e.assignment)
            }
            None => None,
        };
        let warm_started = warm_start.is_some();
        let solved = solver::solve(
            &bounded,
            options.solver,
            &SolveOptions {
                budget: remaining,
                threads: options.threads,
                integrality_tolerance: built.integrality_tolerance(),
                progress: Progress::Hidden,
                warm_start,
                ..SolveOptions::default()
            },
        )?;
        let report = &solved.report;
        let mut solve = EpsilonSolve {
            max_fp,
            termination: report.termination.name().to_string(),
            seconds: report.seconds,
            fp: None,
            fn_: None,
            warm_started,
        };
        let optimal = report.termination == Termination::Optimal;
        let Some(solution) = &solved.solution else {
            solves.push(solve);
            if let Termination::Error(text) = &report.termination {
                return Err(Error::Solver {
                    solver: options.solver.name().to_string(),
                    message: text.clone(),
                });
            }
            if optimal || report.termination == Termination::Infeasible {
                return Err(Error::Internal(format!(
                    "the model has no tree with at most {max_fp} false positives, yet a tree \
                     predicting every row negative has none"
                )));
            }
            termination = stopped(&report.termination);
            last_corner = Some(corner(report.best_bound, max_fp, scale));
            break;
        };
        let decoded = formulation.decode(&built, solution)?;
        let point = errors_of(&decoded.tree, train);
        solve.fp = Some(point.fp);
        solve.fn_ = Some(point.fn_);
        solves.push(solve);
        let plain = scale * f64::from(point.fn_) + f64::from(point.fp);
        // Within the solver's accuracy, and never a whole false positive apart.
        let agrees = report
            .objective
            .is_some_and(|o| (o - plain).abs() <= (1e-6 * plain.max(1.0)).min(0.25));
        if point.fp > max_fp {
            return Err(Error::Internal(format!(
                "the solver's tree makes {} false positives, more than the {max_fp} allowed",
                point.fp
            )));
        }
        front.push(FrontTree {
            point,
            splits: decoded.tree.n_splits(),
            proven: optimal && agrees,
            tree: decoded.tree.clone(),
        });
        if !optimal {
            termination = stopped(&report.termination);
            last_corner = Some(corner(report.best_bound, max_fp, scale));
            break;
        }
        if point.fp == 0 {
            break;
        }
        max_fp = point.fp - 1;
        previous = Some(decoded.tree);
    }
    // A point found after a stop may be dominated by one proven before it.
    let kept = front::nondominated(front.iter().map(|t| t.point).collect());
    front.retain(|t| kept.binary_search(&t.point).is_ok());
    front.sort_by_key(|t| t.point);
    front.dedup_by_key(|t| t.point);
    let proven: Vec<Point> = front.iter().filter(|t| t.proven).map(|t| t.point).collect();
    let lower_bound = match last_corner {
        None => proven,
        Some(corner) => front::nondominated(proven.into_iter().chain([corner]).collect()),
    };
    Ok(EpsilonOutcome {
        outcome: ParetoOutcome {
            positives: u64::from(positives),
            negatives: u64::from(negatives),
            units: ClassUnits::ONE,
            front,
            lower_bound,
            termination,
            seconds: started.elapsed().as_secs_f64(),
            stats: ParetoStats::default(),
        },
        solves,
    })
}

/// Why a solve without a proven optimum stopped, as the front's termination.
fn stopped(termination: &Termination) -> DpTermination {
    match termination {
        Termination::Interrupted => DpTermination::Interrupted,
        _ => DpTermination::TimeLimit,
    }
}

/// The lower-bound corner of the region not yet explored (at most `max_fp` false positives):
/// `(0, least false negatives)` from the solver's bound on `scale * FN + FP`.
fn corner(bound: Option<f64>, max_fp: u32, scale: f64) -> Point {
    let least = bound.map_or(0.0, |b| ((b - f64::from(max_fp)) / scale - 1e-6).ceil());
    Point::new(0, least.max(0.0) as u32)
}

/// `tree` with leaves that predict positive turned negative until it makes at most `max_fp`
/// false positives on `data`: the leaf with the most negative rows per positive row first.
fn within_false_positives(tree: &Tree, data: &Dataset, max_fp: u32) -> Result<Tree> {
    let mut tree = tree.clone();
    tree.recount(data.rows(), data.labels())?;
    let mut leaves: Vec<(usize, u64, u64)> = tree
        .leaves()
        .into_iter()
        .filter_map(|id| {
            let node = tree.node(id)?;
            match node.kind {
                NodeKind::Leaf { class: 1 } => Some((
                    id,
                    node.counts.first().copied().unwrap_or(0) as u64,
                    node.counts.get(1).copied().unwrap_or(0) as u64,
                )),
                _ => None,
            }
        })
        .collect();
    // Most negatives per positive first: n_a / p_a > n_b / p_b.
    leaves.sort_by(|a, b| (b.1 * a.2).cmp(&(a.1 * b.2)).then(a.0.cmp(&b.0)));
    let mut fp: u64 = leaves.iter().map(|l| l.1).sum();
    for (id, leaf_negatives, _) in leaves {
        if fp <= u64::from(max_fp) {
            break;
        }
        if leaf_negatives > 0 {
            tree.set_leaf_class(id, 0)?;
            fp -= leaf_negatives;
        }
    }
    Ok(tree)
}
