//! Trees of least cost whose gaps between groups' rates are within their bounds: the exact
//! search under statistical parity and equal opportunity ([`solve`]), for `--solver dp` and
//! the MILPs' `dp` start and certificate under fairness, and the front of cost against a gap
//! ([`front`]) for `pareto --group-column`.
//!
//! The rates are those of [`Fairness`]: group `g`'s rate is the (weighted) rows it counts
//! predicted positive, `a_g`, over its counted rows, `n_g` (every row for parity, the rows of
//! the positive class for opportunity), and the gap is the largest difference of two groups'
//! rates, for two groups or more, as the MILPs bound it. A tree's counts are integer sums over
//! its leaves that predict positive ([`gauge`]). As STreeD (van der Linden, de Weerdt and
//! Demirović, NeurIPS 2023) does, the search keeps every signature (the groups' counts) a
//! subtree reaches with its cheapest labelling rather than the subtree's best tree alone,
//! since no signature is better than another before its siblings are known:
//! - depth one: every leaf labelling of every split and both single leaves ([`menu`]);
//! - below the root, the front of each subtree: its children's fronts paired for each split,
//!   reduced to the cheapest entry per signature ([`fronts`]);
//! - at the root, for each root split, the cheapest pair of its children's fronts whose
//!   signature keeps the bounds ([`pair::best_pair`]: a sliding window over one front sorted
//!   by difference for two groups and one bound, a walk by increasing cost otherwise).
//!
//! Lower bounds prune the lists (on unless [`FairProblem::bounds`] is off, the same optimum):
//! an entry whose cost, with the parent's split and its sibling subtree's least cost, exceeds
//! the cheapest fair tree found is dropped, and depth 3 starts from the fair optimum of depth 2
//! ([`fronts`]).
//!
//! Beside fairness the search takes forbidden features, the depths at which a feature may split
//! (each node splits on the features allowed at its depth), the leaf minimum, a cap on a leaf's
//! rows (leaves above it are not on the menus) and a split budget (a front keeps per signature
//! the cheapest entry of each number of splits that fewer splits do not match); the rule on
//! the features used (`max_features`, a budget) is the caller's, by one search per largest
//! feature set allowed.
//!
//! [`front`] gives the exact front of cost against gap by solving again under a bound just
//! below the last tree's gap (the epsilon-constraint method, exact on integers), until a time
//! limit or an interrupt stops it (the points found so far, each proven at its bound).
//!
//! Row weights count exactly when they are whole numbers (the counts stay integers); the leaf
//! minimum and the cap count rows. The returned tree is rebuilt on the data's features and its
//! cost and gaps are evaluated by plain code by the caller.

mod fronts;
pub(crate) mod gauge;
mod menu;
mod pair;
mod shape;
mod sig;

use std::time::Instant;

use crate::budget::Budget;
use crate::constraints::fairness::Fairness;
use crate::data::{Dataset, ThresholdMode};
use crate::dp::DpProblem;
use crate::error::{Error, Result};
use crate::search_core::binned::Binned;
use crate::search_core::subtree::build_tree;
use crate::search_core::Termination;
use crate::tree::Tree;
use fronts::{Context, Searched};
use gauge::Gauge;
use menu::Rows;

/// The deepest tree the fair search takes.
pub const MAX_FAIR_DEPTH: usize = 3;

/// The fair search's problem on a two-class dataset.
#[derive(Debug, Clone, PartialEq)]
pub struct FairProblem {
    /// 1 to [`MAX_FAIR_DEPTH`].
    pub depth: usize,
    pub thresholds: ThresholdMode,
    /// What an error on each class costs (times the row's weight).
    pub class_weights: Vec<f64>,
    /// What each split costs.
    pub split_cost: f64,
    /// Every leaf that receives rows receives at least this many.
    pub min_leaf: usize,
    /// No leaf receives more rows than this.
    pub max_leaf: Option<usize>,
    /// At most this many splits.
    pub max_splits: Option<usize>,
    /// The data's features a split may not use.
    pub forbidden: Vec<bool>,
    /// The depths (the root 0) at which each of the data's features may split (`None`, or a
    /// feature past the list: every depth).
    pub depths: Vec<Option<Vec<usize>>>,
    /// Whether to prune with lower bounds (an entry whose cost, with the least cost of the
    /// rest of the tree, exceeds the cheapest fair tree found) and start depth 3 from the
    /// cheapest fair tree of depth 2: the same optimum faster; off to check that it is.
    pub bounds: bool,
}

impl FairProblem {
    /// The fair search of `problem`'s depth, thresholds, costs, leaf rules and split limit,
    /// off the `forbidden` features and within their `depths`, pruned by its bounds.
    pub fn of(
        problem: &DpProblem,
        forbidden: Vec<bool>,
        depths: Vec<Option<Vec<usize>>>,
    ) -> FairProblem {
        FairProblem {
            depth: problem.depth,
            thresholds: problem.thresholds,
            class_weights: problem.class_weights.clone(),
            split_cost: problem.split_cost,
            min_leaf: problem.min_leaf,
            max_leaf: problem.max_leaf,
            max_splits: problem.max_splits,
            forbidden,
            depths,
            bounds: true,
        }
    }

    /// Whether a node at `level` (the root 0) may split on the data's feature `j`.
    fn permits(&self, j: usize, level: usize) -> bool {
        !self.forbidden.get(j).copied().unwrap_or(false)
            && self
                .depths
                .get(j)
                .and_then(Option::as_ref)
                .is_none_or(|depths| depths.contains(&level))
    }
}

/// The tree the fair search returns.
#[derive(Debug, Clone)]
pub struct FairOutcome {
    pub tree: Tree,
    /// Its cost as the search counted it.
    pub objective: f64,
    /// `Optimal`, or where a time limit or an interrupt stopped it (the tree is then the
    /// best found).
    pub termination: Termination,
    pub seconds: f64,
    /// The root splits whose children's fronts were paired.
    pub root_splits: u64,
}

/// When to stop: a time limit from a start, and an interrupt flag.
#[derive(Debug, Clone)]
pub struct FairStop {
    pub start: Instant,
    pub budget: Budget,
}

impl FairStop {
    /// No limit.
    pub fn never() -> FairStop {
        FairStop {
            start: Instant::now(),
            budget: Budget::unlimited(),
        }
    }

    /// Whether to stop now.
    pub fn now(&self) -> bool {
        self.budget.spent_since(self.start)
    }

    /// What stopped a search that stopped.
    pub fn termination(&self) -> Termination {
        if self.budget.interrupted() {
            Termination::Interrupted
        } else {
            Termination::TimeLimit
        }
    }
}

/// The whole-number weight of each row of `data`, or a refusal naming the weights that says
/// `what` takes only those.
pub(crate) fn whole_weights(data: &Dataset, what: &str) -> Result<Vec<i64>> {
    (0..data.n_rows())
        .map(|i| {
            let w = data.weight(i);
            if w >= 0.0 && w.fract() == 0.0 && w < 2f64.powi(31) {
                Ok(w as i64)
            } else {
                Err(Error::parameter(
                    "--weight-column",
                    format!(
                        "{what} takes whole-number row weights, and row {i} weighs {}",
                        crate::data::short_number(w)
                    ),
                ))
            }
        })
        .collect()
}

/// The search's view of the data: binned features, each row's costs and shares, the bounds.
struct Prepared {
    binned: Binned,
    rows: Rows,
    gauge: Gauge,
}

/// The data of `problem` prepared for the search under the bounds of `fairness`.
fn prepare(
    data: &Dataset,
    fairness: &Fairness,
    problem: &FairProblem,
    threads: usize,
) -> Result<Prepared> {
    if problem.depth == 0 || problem.depth > MAX_FAIR_DEPTH {
        return Err(Error::parameter(
            "--depth",
            format!(
                "the exact search under fairness takes depths 1 to {MAX_FAIR_DEPTH}, not {}; \
                 the MILP formulations take deeper trees",
                problem.depth
            ),
        ));
    }
    crate::search_core::check_threads(threads)?;
    data.refuse_missing("the exact search under fairness")?;
    let weights = whole_weights(data, "the exact search under fairness")?;
    let (gauge, share) = Gauge::new(fairness, &weights);
    let binned = Binned::new(data, problem.thresholds);
    let rows = Rows {
        cost: (0..data.n_rows())
            .map(|i| {
                let label = data.labels()[i];
                let cost = weights[i] as f64 * problem.class_weights[label];
                [0, 1].map(|c| if c == label { 0.0 } else { cost })
            })
            .collect(),
        share,
        dims: gauge.dims,
        positive: fairness.positive,
        min_leaf: problem.min_leaf,
        max_leaf: problem.max_leaf,
        max_splits: problem
            .max_splits
            .map(|m| u32::try_from(m).unwrap_or(u32::MAX)),
        allowed: (0..problem.depth)
            .map(|level| {
                (0..binned.n_features() as u32)
                    .filter(|&f| problem.permits(binned.data_feature[f as usize], level))
                    .collect()
            })
            .collect(),
        split_cost: problem.split_cost,
    };
    Ok(Prepared {
        binned,
        rows,
        gauge,
    })
}

/// The search on `prepared` under `gauge` at `depth`.
fn search(
    prepared: &Prepared,
    gauge: &Gauge,
    depth: usize,
    bounds: bool,
    threads: usize,
    stop: &FairStop,
) -> Result<Searched> {
    let cx = Context::new(&prepared.binned, &prepared.rows, gauge, bounds);
    fronts::search(&cx, depth, threads, &|| stop.now())
}

/// Why no tree was found: none meets the leaves' limits, or the search stopped first.
fn no_tree(problem: &FairProblem, data: &Dataset, stopped: Option<Termination>) -> Error {
    let within = format!(
        "tree of depth {} whose every leaf holds at least {} and at most {} of the {} training \
         rows (max_leaf_rows)",
        problem.depth,
        problem.min_leaf,
        problem.max_leaf.unwrap_or(usize::MAX),
        data.n_rows()
    );
    match stopped {
        None => Error::Infeasible(format!(
            "the exact search under fairness proves that there is no {within}; a deeper tree \
             or a larger max_leaf_rows may meet it"
        )),
        Some(_) => Error::NoTree(format!(
            "the exact search under fairness stopped before it found a {within}"
        )),
    }
}

/// The cheapest tree of `problem` on `data` whose gaps of `fairness` (resolved on `data`) are
/// within their bounds, with `threads` threads (the same tree for any number), until `stop`
/// says so.
pub fn solve(
    data: &Dataset,
    fairness: &Fairness,
    problem: &FairProblem,
    threads: usize,
    stop: &FairStop,
) -> Result<FairOutcome> {
    let prepared = prepare(data, fairness, problem, threads)?;
    let found = search(
        &prepared,
        &prepared.gauge,
        problem.depth,
        problem.bounds,
        threads,
        stop,
    )?;
    let termination = match found.stopped {
        false => Termination::Optimal,
        true => stop.termination(),
    };
    let stopped = found.stopped.then_some(termination);
    let best = found.best.ok_or_else(|| no_tree(problem, data, stopped))?;
    let tree = build_tree(&*best.shape.shape(), &prepared.binned, data, problem.depth)?;
    Ok(FairOutcome {
        tree,
        objective: best.cost,
        termination,
        seconds: stop.start.elapsed().as_secs_f64(),
        root_splits: found.root_splits,
    })
}

/// One point of the front of cost against gap: the cheapest tree whose gap is at most `gap`,
/// and no tree of a smaller gap as cheap.
#[derive(Debug, Clone)]
pub struct FairPoint {
    /// The tree's gap (the largest difference of two groups' rates).
    pub gap: f64,
    pub objective: f64,
    pub tree: Tree,
}

/// The front found, by increasing gap.
#[derive(Debug, Clone)]
pub struct FairFrontPoints {
    pub points: Vec<FairPoint>,
    /// `Optimal` when complete; otherwise what stopped it. An unfinished front holds the
    /// points found, each the cheapest tree of a gap at most its own; the tree of the smallest
    /// gap found may be matched by one of a smaller gap not reached.
    pub termination: Termination,
}

/// The exact front of cost against the gap of `kind` between the groups of `fairness` (which
/// bounds `kind` alone), by increasing gap, by the epsilon-constraint method: the cheapest
/// tree of any gap, then the cheapest whose gap is below the last point's, until a tree of gap
/// 0 (a single leaf always is one) or until `stop` says so. A point whose cost equals the next
/// one's is dominated and left out.
pub fn front(
    data: &Dataset,
    fairness: &Fairness,
    problem: &FairProblem,
    threads: usize,
    stop: &FairStop,
) -> Result<FairFrontPoints> {
    let prepared = prepare(data, fairness, problem, threads)?;
    let mut gauge = prepared.gauge.clone();
    let mut points: Vec<FairPoint> = Vec::new();
    let mut last_gap: Option<(i128, i128)> = None;
    let termination = loop {
        let found = search(
            &prepared,
            &gauge,
            problem.depth,
            problem.bounds,
            threads,
            stop,
        )?;
        if found.stopped {
            break stop.termination();
        }
        let best = found.best.ok_or_else(|| no_tree(problem, data, None))?;
        let gap = gauge.gap(&best.sig);
        // Each round's limit is strictly below the last point's gap, so the gaps fall and the
        // loop ends (there are finitely many); a gap that did not fall would loop forever.
        let (p, q) = gauge.gap_fraction(&best.sig);
        if let Some((last_p, last_q)) = last_gap.replace((p, q)) {
            if p * last_q >= last_p * q {
                return Err(Error::Internal(format!(
                    "the fair front's search returned a gap of {p}/{q} under a limit below the \
                     last point's {last_p}/{last_q}"
                )));
            }
        }
        let tree = build_tree(&*best.shape.shape(), &prepared.binned, data, problem.depth)?;
        // A cheaper point of a larger gap stays; one as cheap as this one is dominated by it.
        if points.last().is_some_and(|p| p.objective >= best.cost) {
            points.pop();
        }
        points.push(FairPoint {
            gap,
            objective: best.cost,
            tree,
        });
        if !gauge.tighten_below(&best.sig) {
            break Termination::Optimal;
        }
    };
    points.reverse();
    Ok(FairFrontPoints {
        points,
        termination,
    })
}
