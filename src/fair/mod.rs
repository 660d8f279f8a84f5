//! Trees of least cost whose gap between two groups' rates is within a bound: the exact
//! search under statistical parity or equal opportunity ([`solve`]), for `--solver dp` and the
//! MILPs' `dp` start and certificate under fairness.
//!
//! The rates are those of [`Fairness`]: group `g`'s rate is the (weighted) rows it counts
//! predicted positive, `a_g`, over its counted rows, `n_g` (every row for parity, the rows of
//! the positive class for opportunity). With two groups the gap is `|a_0 / n_0 - a_1 / n_1|`,
//! and `D = n_1 a_0 - n_0 a_1` is an integer sum over the leaves that predict positive: a tree
//! keeps the bound when `|D| <= (bound + GAP_TOLERANCE) n_0 n_1`. As STreeD (van der Linden,
//! de Weerdt and Demirović, NeurIPS 2023) does, the search keeps every (difference, cost) a
//! subtree reaches rather than its best tree alone, since neither sign of the difference is
//! better before its sibling is known:
//! - depth one: every leaf labelling of every split and both single leaves ([`menu`]);
//! - depth two: for each root split, the two children's depth-one menus, and their cheapest
//!   pair whose differences sum within the bound by a sliding window over one menu sorted by
//!   difference ([`menu::best_pair`]), in time linear in the menus after sorting.
//!
//! [`front`] gives the exact front of cost against gap by solving again under a bound just
//! below the last tree's difference (the epsilon-constraint method, exact on integers).
//!
//! Row weights count exactly when they are whole numbers (the differences stay integers);
//! the leaf minimum counts rows. The returned tree is rebuilt on the data's features and its
//! cost and gap are evaluated by plain code by the caller.

mod menu;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use crate::constraints::fairness::{Fairness, FairnessKind, GAP_TOLERANCE};
use crate::data::{Dataset, ThresholdMode};
use crate::error::{Error, Result};
use crate::search_core::binned::Binned;
use crate::search_core::subtree::{build_tree, BinNode, BinTree};
use crate::search_core::Termination;
use crate::tree::Tree;
use menu::{Choice, Entry, Rows};

/// The deepest tree the fair search takes.
pub const MAX_FAIR_DEPTH: usize = 2;

/// The fair search's problem on a two-class dataset.
#[derive(Debug, Clone, PartialEq)]
pub struct FairProblem {
    /// 1 or 2.
    pub depth: usize,
    pub thresholds: ThresholdMode,
    /// What an error on each class costs (times the row's weight).
    pub class_weights: Vec<f64>,
    /// What each split costs.
    pub split_cost: f64,
    /// Every leaf that receives rows receives at least this many.
    pub min_leaf: usize,
    /// The data's features a split may not use.
    pub forbidden: Vec<bool>,
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
    /// The root splits whose children's menus were paired.
    pub root_splits: u64,
}

/// The bound the fair search keeps: the one kind of gap bounded by `fairness`, between its
/// two groups. Anything else is refused by name.
pub fn bounded(fairness: &Fairness) -> Result<(FairnessKind, f64)> {
    two_groups(fairness)?;
    match fairness.bounds().as_slice() {
        [one] => Ok(*one),
        _ => Err(Error::parameter(
            "--max-opportunity-gap",
            "the exact search keeps one bound at a time (max_parity_gap or \
             max_opportunity_gap); the MILP formulations take both",
        )),
    }
}

/// Refuses a group column of other than two groups by name.
fn two_groups(fairness: &Fairness) -> Result<()> {
    if fairness.groups.len() != 2 {
        return Err(Error::parameter(
            "--group-column",
            format!(
                "the exact search keeps a gap between two groups, and `{}` has {} ({}); the \
                 MILP formulations take more",
                fairness.group_column,
                fairness.groups.len(),
                fairness.groups.join(", ")
            ),
        ));
    }
    Ok(())
}

/// A tree over bins whose nodes are the menus' choices.
enum Shape {
    Leaf(usize),
    Split {
        feature: u32,
        bin: u32,
        left: Box<Shape>,
        right: Box<Shape>,
    },
}

impl BinTree for Shape {
    fn node(&self) -> BinNode<'_, Shape> {
        match self {
            Shape::Leaf(class) => BinNode::Leaf { class: *class },
            Shape::Split {
                feature,
                bin,
                left,
                right,
            } => BinNode::Split {
                feature: *feature,
                bin: *bin,
                left,
                right,
            },
        }
    }
}

impl Shape {
    fn of(choice: Choice) -> Shape {
        match choice {
            Choice::Leaf(class) => Shape::Leaf(class as usize),
            Choice::Split {
                feature,
                bin,
                left,
                right,
            } => Shape::Split {
                feature,
                bin,
                left: Box::new(Shape::Leaf(left as usize)),
                right: Box::new(Shape::Leaf(right as usize)),
            },
        }
    }
}

/// The least integer difference `|D|` past which a tree breaks `bound` for groups of
/// `n_0` and `n_1` counted rows.
fn difference_limit(bound: f64, n0: i64, n1: i64) -> i64 {
    ((bound + GAP_TOLERANCE) * n0 as f64 * n1 as f64).floor() as i64
}

/// The whole-number weight of each row of `data`, or a refusal naming the weights.
fn whole_weights(data: &Dataset) -> Result<Vec<i64>> {
    (0..data.n_rows())
        .map(|i| {
            let w = data.weight(i);
            if w >= 0.0 && w.fract() == 0.0 && w < 2f64.powi(31) {
                Ok(w as i64)
            } else {
                Err(Error::parameter(
                    "--weight-column",
                    format!(
                        "the exact search under fairness takes whole-number row weights, and \
                         row {i} weighs {w}"
                    ),
                ))
            }
        })
        .collect()
}

/// The search's view of the data: binned features, each row's costs and difference, and the
/// groups' counted sizes.
struct Prepared {
    binned: Binned,
    rows: Rows,
    n0: i64,
    n1: i64,
}

/// The data of `problem` prepared for the search under `kind` between the two groups of
/// `fairness`.
fn prepare(
    data: &Dataset,
    fairness: &Fairness,
    kind: FairnessKind,
    problem: &FairProblem,
    threads: usize,
) -> Result<Prepared> {
    if problem.depth == 0 || problem.depth > MAX_FAIR_DEPTH {
        return Err(Error::parameter(
            "--depth",
            format!(
                "the exact search under fairness takes depths 1 and {MAX_FAIR_DEPTH}, not {}; \
                 the MILP formulations take deeper trees",
                problem.depth
            ),
        ));
    }
    crate::search_core::check_threads(threads)?;
    two_groups(fairness)?;
    data.refuse_missing("the exact search under fairness")?;
    let weights = whole_weights(data)?;
    let sizes: Vec<i64> = (0..2)
        .map(|g| {
            (0..data.n_rows())
                .filter(|&i| fairness.row_group[i] == g && fairness.counts(kind, i))
                .map(|i| weights[i])
                .sum()
        })
        .collect();
    let (n0, n1) = (sizes[0], sizes[1]);
    let binned = Binned::new(data, problem.thresholds);
    let rows = Rows {
        cost: (0..data.n_rows())
            .map(|i| {
                let label = data.labels()[i];
                let cost = weights[i] as f64 * problem.class_weights[label];
                [0, 1].map(|c| if c == label { 0.0 } else { cost })
            })
            .collect(),
        delta: (0..data.n_rows())
            .map(
                |i| match (fairness.counts(kind, i), fairness.row_group[i]) {
                    (false, _) => 0,
                    (true, 0) => weights[i] * n1,
                    (true, _) => -weights[i] * n0,
                },
            )
            .collect(),
        positive: fairness.positive,
        min_leaf: problem.min_leaf,
        allowed: (0..binned.n_features() as u32)
            .filter(|&f| {
                !problem
                    .forbidden
                    .get(binned.data_feature[f as usize])
                    .copied()
                    .unwrap_or(false)
            })
            .collect(),
        split_cost: problem.split_cost,
    };
    Ok(Prepared {
        binned,
        rows,
        n0,
        n1,
    })
}

/// The cheapest tree found whose difference is within `limit` either way.
struct Found {
    cost: f64,
    /// Its signed difference `n1 a0 - n0 a1`.
    difference: i64,
    shape: Shape,
    root_splits: u64,
    stopped: bool,
}

/// The cheapest tree of depth at most `depth` on `prepared` whose difference is within
/// `limit` either way, until `stop` says so.
fn search_within(
    prepared: &Prepared,
    depth: usize,
    limit: i64,
    threads: usize,
    stop: &(impl Fn() -> bool + Sync),
) -> Result<Found> {
    let (binned, rows) = (&prepared.binned, &prepared.rows);
    let everyone = vec![true; rows.cost.len()];
    let depth_one = menu::menu(binned, rows, &everyone, true);
    let first = menu::best_within(&depth_one, limit)
        .ok_or_else(|| Error::Internal("a single leaf predicting one class is fair".into()))?;
    let mut found = Found {
        cost: first.cost,
        difference: first.d,
        shape: Shape::of(first.choice),
        root_splits: 0,
        stopped: false,
    };
    if depth == 2 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| Error::Internal(format!("the search's threads: {e}")))?;
        let per_feature: Vec<UnderFeature> = pool.install(|| {
            rows.allowed
                .par_iter()
                .map(|&f| best_under_feature(binned, rows, f, limit, stop))
                .collect()
        });
        for under in per_feature {
            found.root_splits += under.paired;
            found.stopped |= under.stopped;
            if let Some(root) = under.best.filter(|root| root.cost < found.cost) {
                found.cost = root.cost;
                found.difference = root.left.d + root.right.d;
                found.shape = Shape::Split {
                    feature: root.feature,
                    bin: root.bin,
                    left: Box::new(Shape::of(root.left.choice)),
                    right: Box::new(Shape::of(root.right.choice)),
                };
            }
        }
    }
    Ok(found)
}

/// The cheapest tree of `problem` on `data` whose gap of `fairness` (resolved on `data`, one
/// bound, two groups) is within its bound, with `threads` threads (the same tree for any
/// number) and the time limit and interrupt given.
pub fn solve(
    data: &Dataset,
    fairness: &Fairness,
    problem: &FairProblem,
    threads: usize,
    time_limit: Option<f64>,
    interrupt: Option<Arc<AtomicBool>>,
) -> Result<FairOutcome> {
    let start = Instant::now();
    let (kind, bound) = bounded(fairness)?;
    let prepared = prepare(data, fairness, kind, problem, threads)?;
    let limit = difference_limit(bound, prepared.n0, prepared.n1);
    let stop = || {
        interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
            || time_limit.is_some_and(|t| start.elapsed().as_secs_f64() >= t)
    };
    let found = search_within(&prepared, problem.depth, limit, threads, &stop)?;
    let tree = build_tree(&found.shape, &prepared.binned, data, problem.depth)?;
    let termination = match (
        found.stopped,
        interrupt.is_some_and(|f| f.load(Ordering::Relaxed)),
    ) {
        (false, _) => Termination::Optimal,
        (true, true) => Termination::Interrupted,
        (true, false) => Termination::TimeLimit,
    };
    Ok(FairOutcome {
        tree,
        objective: found.cost,
        termination,
        seconds: start.elapsed().as_secs_f64(),
        root_splits: found.root_splits,
    })
}

/// One point of the front of cost against gap: the cheapest tree whose gap is at most `gap`,
/// and no tree of a smaller gap as cheap.
#[derive(Debug, Clone)]
pub struct FairPoint {
    /// The tree's gap (its difference over `n_0 n_1`).
    pub gap: f64,
    pub objective: f64,
    pub tree: Tree,
}

/// The exact front of cost against the gap of `kind` between the two groups of `fairness`
/// (by increasing gap), by the epsilon-constraint method on the integer difference: the
/// cheapest tree of any gap, then the cheapest whose `|D|` is below the last point's, until
/// a tree of gap 0 (a single leaf always is one). A point whose cost equals the next one's is
/// dominated and left out. A group column of other than two groups is refused by name.
pub fn front(
    data: &Dataset,
    fairness: &Fairness,
    kind: FairnessKind,
    problem: &FairProblem,
    threads: usize,
) -> Result<Vec<FairPoint>> {
    let prepared = prepare(data, fairness, kind, problem, threads)?;
    let scale = prepared.n0 as f64 * prepared.n1 as f64;
    let mut points: Vec<FairPoint> = Vec::new();
    let mut limit = i64::MAX / 4;
    loop {
        let found = search_within(&prepared, problem.depth, limit, threads, &|| false)?;
        let tree = build_tree(&found.shape, &prepared.binned, data, problem.depth)?;
        // A cheaper point of a larger gap stays; one as cheap as this one is dominated by it.
        if points.last().is_some_and(|p| p.objective >= found.cost) {
            points.pop();
        }
        points.push(FairPoint {
            gap: found.difference.unsigned_abs() as f64 / scale,
            objective: found.cost,
            tree,
        });
        if found.difference == 0 {
            break;
        }
        limit = found.difference.abs() - 1;
    }
    points.reverse();
    Ok(points)
}

/// The cheapest depth-two tree of a root split: its cost, the root's feature and bin, and its
/// children's entries.
struct RootSplit {
    cost: f64,
    feature: u32,
    bin: u32,
    left: Entry,
    right: Entry,
}

/// What the root splits on one feature gave.
struct UnderFeature {
    /// The cheapest of them that keeps the bound.
    best: Option<RootSplit>,
    /// The root splits whose children's menus were paired.
    paired: u64,
    /// Whether the time limit or an interrupt cut it short.
    stopped: bool,
}

/// The root splits on searched feature `f`, each pairing its children's depth-one menus
/// within the bound `limit`, until `stop` says so.
fn best_under_feature(
    binned: &Binned,
    rows: &Rows,
    f: u32,
    limit: i64,
    stop: &(impl Fn() -> bool + Sync),
) -> UnderFeature {
    let everyone = vec![true; rows.cost.len()];
    let bins = menu::root_splits(binned, rows, &everyone, f);
    let mut under = UnderFeature {
        best: None,
        paired: 0,
        stopped: false,
    };
    let column = &binned.sorted[f as usize];
    let mut left_member = vec![false; rows.cost.len()];
    for bin in bins {
        if stop() {
            under.stopped = true;
            return under;
        }
        for element in column {
            left_member[element.row as usize] = element.bin <= bin;
        }
        let right_member: Vec<bool> = left_member.iter().map(|m| !m).collect();
        let left = menu::menu(binned, rows, &left_member, true);
        let right = menu::menu(binned, rows, &right_member, true);
        under.paired += 1;
        if let Some((cost, left, right)) = menu::best_pair(left, right, limit) {
            let cost = cost + rows.split_cost;
            if under.best.as_ref().is_none_or(|b| cost < b.cost) {
                under.best = Some(RootSplit {
                    cost,
                    feature: f,
                    bin,
                    left,
                    right,
                });
            }
        }
    }
    under
}
