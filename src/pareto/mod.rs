//! The Pareto front of (false positives, false negatives) over optimal-depth trees, by a
//! bi-objective dynamic-programming search, and from it the trees that are provably optimal for
//! metrics that are not sums over leaves (F1, Matthews correlation, Fowlkes-Mallows).
//!
//! Every metric in [`crate::score::metric`] is non-increasing in both error counts, so its best tree lies on
//! the front: [`solve`] computes the whole front (one tree per point), and
//! [`ParetoOutcome::best`] picks the point a metric prefers.
//!
//! # The search
//! The ideas are Demirović and Stuckey's (AAAI 2021), on the single-objective search's
//! machinery ([`crate::dp`]: binned continuous features, row-set views sorted by every feature,
//! the cache by row set):
//! - a front is a staircase sorted by false positives ([`front`]); children's fronts are
//!   merged by summing every pair into a table indexed by false positives, whose staircase is
//!   read in one pass ([`entry::Table`]);
//! - depth two and less is solved without recursion over each feature's local bins
//!   ([`depth_two`]);
//! - deeper subproblems try every split, by bisection over each feature's positions, and prune
//!   with the node's front so far (A), children's fronts from the cache (C) and from nearby
//!   solved positions (D); exact fronts are cached (B) ([`search`]);
//! - each point keeps its root split and its left child's point, so its tree is rebuilt from
//!   the children's fronts ([`rebuild`]) and checked by plain counting.
//!
//! A time limit or an interrupt returns the points found so far, each with its tree, and a
//! lower-bound front that every tree is weakly dominated by.
//!
//! With several threads the root's features are dealt out to them, sharing the cache and the
//! points reached so far ([`root`]); the front and the tree of each point are the same for any
//! number of threads.

pub mod front;

mod depth_two;
mod entry;
mod known;
mod outcome;
mod problem;
mod rebuild;
mod root;
mod search;

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

pub use crate::score::{Confusion, Metric};
pub use front::Point;
pub use outcome::{FrontTree, ParetoOutcome, ParetoStats};
pub use problem::{binary_data, ParetoProblem};
pub use rebuild::{errors_of, weighted_errors_of};

use crate::budget::Budget;
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::score::{ClassUnits, Errors};
use crate::search_core::binned::Binned;
use crate::search_core::deadline::Deadline;
use crate::search_core::{Termination as DpTermination, DEFAULT_MEMORY_LIMIT_MB};
use entry::points;
use search::{NodeResult, Search};

/// The pruning techniques of the search, each of which can be turned off to measure what it
/// brings; none changes the front.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParetoBounds {
    /// Children solved exactly only outside the region their parent already covers, and
    /// subproblems skipped when a cached bound lies in that region (A, B).
    pub upper_bound: bool,
    /// Intervals of split positions bounded by their solved neighbours' children (C, D).
    pub intervals: bool,
    /// A second child not solved when the first child's front and its bound are covered (A).
    pub second_child: bool,
}

impl Default for ParetoBounds {
    fn default() -> Self {
        ParetoBounds {
            upper_bound: true,
            intervals: true,
            second_child: true,
        }
    }
}

/// Options of one search.
#[derive(Debug, Clone)]
pub struct ParetoOptions {
    /// The time of the search, and the flag (Ctrl-C) on which it stops at its next check
    /// with the points found and a lower-bound front.
    pub budget: Budget,
    /// Cap on the memory of the front cache, in MiB; past it the least recently used fronts
    /// are evicted.
    pub memory_limit_mb: usize,
    pub bounds: ParetoBounds,
    /// Threads of the search (at least 1): the root's features are dealt out to them, and the
    /// front and its trees are the same for any number.
    pub threads: usize,
}

impl Default for ParetoOptions {
    fn default() -> Self {
        ParetoOptions {
            budget: Budget::unlimited(),
            memory_limit_mb: DEFAULT_MEMORY_LIMIT_MB,
            bounds: ParetoBounds::default(),
            threads: 1,
        }
    }
}

/// Seconds past the time limit (or past an interrupt) by which the trees of the front's points
/// are rebuilt: a point whose tree is not rebuilt by then is left out of the front.
pub const REBUILD_GRACE: f64 = 0.3;

/// Computes the front of `problem` on the two-class `data` (class 1 positive; see
/// [`binary_data`]), with a tree for each point, or the points found within the limits of
/// `options` and a lower-bound front.
///
/// Row weights must be whole multiples of one unit per class (see
/// [`Dataset::factored_by_class`]): the search counts the rows repeated by their multiples, so
/// that false positives count units of the negative class and false negatives units of the
/// positive class. Scaling each axis by a positive unit keeps dominance, so the front of the
/// units is the weighted front; the outcome's [`ParetoOutcome::units`] turn its points into
/// weights, and every tree's weighted errors on `data` are checked against its point's.
pub fn solve(
    data: &Dataset,
    problem: &ParetoProblem,
    options: &ParetoOptions,
) -> Result<ParetoOutcome> {
    problem.check(data)?;
    let factored = data.factored_by_class(&crate::setting::Named::same("the front's search"))?;
    let mut outcome = solve_counted(&factored.rows, problem, options)?;
    outcome.units = ClassUnits::of(&factored.units);
    if data.is_weighted() {
        for front_tree in &outcome.front {
            let expected = outcome.errors(front_tree.point);
            let evaluated = weighted_errors_of(&front_tree.tree, data);
            if !same_weight(evaluated, expected) {
                return Err(Error::Internal(format!(
                    "the search's tree for weighted errors ({}, {}) makes ({}, {}) on the \
                     weighted rows",
                    expected.fp, expected.fn_, evaluated.fp, evaluated.fn_
                )));
            }
        }
    }
    Ok(outcome)
}

/// Whether two weighted errors are the same up to the rounding of sums of weights.
fn same_weight(a: Errors, b: Errors) -> bool {
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0);
    close(a.fp, b.fp) && close(a.fn_, b.fn_)
}

/// [`solve`] on rows that count as themselves (no weights).
fn solve_counted(
    data: &Dataset,
    problem: &ParetoProblem,
    options: &ParetoOptions,
) -> Result<ParetoOutcome> {
    problem.check(data)?;
    crate::search_core::check_searchable(data, "the front's search")?;
    crate::search_core::check_threads(options.threads)?;
    let start = Instant::now();
    let binned = Binned::new(data, problem.thresholds);
    let deadline = Deadline::new(start, &options.budget);
    let cache_bytes = options.memory_limit_mb.saturating_mul(1 << 20);
    let mut search = Search::new(&binned, options.bounds, cache_bytes, deadline);
    let root = search.arena.root(&binned);
    let depth = problem.depth;
    let budget = problem.max_splits.unwrap_or(usize::MAX);

    let mut stats = ParetoStats::default();
    let (root_depth, root_budget) = search.normalize(&root, depth, budget);
    let counts = search.arena.counts(&root);
    let result = if root_depth <= 2 || counts[0] == 0 || counts[1] == 0 {
        search.solve_root(&root, depth, budget)
    } else {
        search.stats.subproblems += 1;
        root::solve_root(
            &mut search,
            &root,
            root_depth,
            root_budget,
            options.threads,
            &mut stats,
        )?
    };
    let (found, lower_bound) = match result {
        NodeResult::Done(front) => {
            let found = front.to_vec();
            let lower = points(&found);
            (found, lower)
        }
        NodeResult::Stopped { found, lower } => (found, lower),
    };
    let mut termination = search.deadline.stopped().unwrap_or(DpTermination::Optimal);
    let exact = termination == DpTermination::Optimal;

    // Rebuild and check every point's tree, by [`REBUILD_GRACE`] past the limit (or past an
    // interrupt): a point whose tree is not rebuilt by then is left out of the front (the
    // lower bound keeps it). A complete front's trees are rebuilt in a fresh search: what the
    // threads left in the cache depends on timing, the fresh search does not. After a stop,
    // the search's own cache answers faster.
    let grace = Duration::from_secs_f64(REBUILD_GRACE);
    let until = match (termination, options.budget.duration()) {
        (DpTermination::Interrupted, _) => Budget::seconds((start.elapsed() + grace).as_secs_f64()),
        (_, Some(limit)) => Budget::seconds((limit + grace).as_secs_f64()),
        (_, None) => Budget::unlimited(),
    };
    search.deadline = Deadline::new(start, &until);
    let mut fresh = exact.then(|| {
        let mut fresh = Search::new(
            &binned,
            options.bounds,
            cache_bytes,
            Deadline::new(start, &until),
        );
        let root = fresh.arena.root(&binned);
        (fresh, root)
    });
    let mut front: Vec<FrontTree> = Vec::with_capacity(found.len());
    for entry in &found {
        // The deadline is looked at between points too: rebuilding a point from the cache
        // may not reach a check inside the search.
        let out_of_time = match fresh.as_mut() {
            Some((fresh, _)) => fresh.deadline.reached(),
            None => search.deadline.reached(),
        };
        if out_of_time {
            stats.trees_not_rebuilt += 1;
            continue;
        }
        let (rebuilt, deadline) = match fresh.as_mut() {
            Some((fresh, root)) => (
                rebuild::rebuild_entry(fresh, root, root_depth, *entry),
                &fresh.deadline,
            ),
            None => (
                rebuild::rebuild_entry(&mut search, &root, root_depth, *entry),
                &search.deadline,
            ),
        };
        let shape = match rebuilt {
            Ok(shape) => shape,
            Err(_) if deadline.stopped().is_some() => {
                stats.trees_not_rebuilt += 1;
                continue;
            }
            Err(error) => return Err(error),
        };
        let tree = rebuild::to_tree(&shape, &binned, data, depth)?;
        let point = errors_of(&tree, data);
        if (exact && point != entry.point) || !point.weakly_dominates(entry.point) {
            return Err(Error::Internal(format!(
                "the search's tree for ({}, {}) makes ({}, {}) errors",
                entry.point.fp, entry.point.fn_, point.fp, point.fn_
            )));
        }
        front.push(FrontTree {
            point,
            splits: shape.splits(),
            proven: exact,
            tree,
        });
    }
    // After a stop, a rebuilt tree can beat the point it was found for: keep the nondominated.
    front.sort_by_key(|t| t.point);
    front.dedup_by_key(|t| t.point);
    let kept = front::nondominated(front.iter().map(|t| t.point).collect());
    front.retain(|t| kept.binary_search(&t.point).is_ok());
    if stats.trees_not_rebuilt > 0 && termination == DpTermination::Optimal {
        termination = DpTermination::TimeLimit;
    }

    let counts = data.class_counts();
    stats.absorb(&search.stats);
    stats.depth_two_positions += search.depth_two.positions;
    stats.depth_two_intervals_pruned += search.depth_two.intervals_pruned;
    stats.cache_entries = search.cache.len() as u64;
    stats.cache_evictions = search.cache.evictions();
    Ok(ParetoOutcome {
        positives: counts[1] as u64,
        negatives: counts[0] as u64,
        units: ClassUnits::ONE,
        front,
        lower_bound,
        termination,
        seconds: start.elapsed().as_secs_f64(),
        stats,
    })
}
