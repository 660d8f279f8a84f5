//! Optimal classification trees by dynamic programming and search, without a MILP.
//!
//! [`solve`] finds, and proves optimal, the tree of depth at most `depth` (and at most
//! `max_splits` split nodes) that minimises the weighted errors plus `split_cost` per split,
//! over the axis-aligned splits `x_j <= t` at the candidate thresholds of the data: the
//! objective the OCT and BinOCT models minimise. Any tree can be scored under the same problem
//! with [`objective_of`], which shares no code with the search.
//!
//! # The search
//! The ideas are MurTree's (Demirović et al., JMLR 2022) for the recursion, bounds and cache,
//! and ConTree's (Briţa, van der Linden and Demirović, AAAI 2025) for continuous features:
//! - Features are binned once ([`crate::search_core::binned`]): a row's bin counts the
//!   thresholds below its value, and each subproblem keeps its rows sorted by every feature
//!   ([`crate::search_core::view`]), so a split is a position in a sorted list and children
//!   inherit sorted lists by a stable partition.
//! - Depth one is a scan of each sorted list ([`depth_one`]); depth two is a bisection over
//!   the first split's positions where each position costs one scan that solves both
//!   children at once ([`search`]).
//! - Deeper subproblems recurse ([`search`]) with: (A) upper bounds propagated to the
//!   children, (B) lower bounds of failed searches kept in the cache, (C) lookahead on the
//!   children's cached bounds and the least bound of the candidates when a search fails,
//!   (D) similarity bounds from recently solved row sets ([`similarity`]), (E) ConTree's
//!   bisection over each feature's positions, where solved positions bound their neighbours
//!   ([`intervals`]). Split budgets are shared between children as in MurTree.
//! - A greedy first incumbent ([`incumbent`]) gives the search its first upper bound; the
//!   search is anytime: a time limit or an interrupt returns the best tree with a valid bound.
//! - Under a leaf minimum, only splits that leave the minimum on both sides are candidates,
//!   and a subtree can cost less on more rows: the bounds between neighbouring row sets (D, E
//!   and the depth-two search's per-feature bounds) subtract the slack the minimum allows
//!   ([`leaf_minimum`]), and children of depth two or more are first solved without the
//!   minimum, whose optima bound theirs and never fall on more rows ([`relaxation`]).
//! - Under a cap on the rows of a leaf, a leaf of more rows costs infinity (a subproblem no
//!   tree meets is one of infinite cost, and a root of infinite cost is
//!   [`Error::Infeasible`]); depth-one scans keep both sides within the cap; the bounds between
//!   neighbouring row sets (D, E, the depth-two search) are off, since a leaf that gains rows
//!   can break the cap, and children of depth two or more are first solved without the cap
//!   (and the minimum), where they are on ([`relaxation`]).
//! - Under constraints on the features a tree uses (forbidden features, a count, a budget),
//!   [`solve_under`] searches the data without the features ruled out, or each largest
//!   feature set allowed ([`feature_sets`]).
//! - Under a rule on the depths at which features split (the side constraint `depths`), a
//!   node's candidate splits are those on the features allowed at its level (the root's 0):
//!   the depth-one scans, the depth-two search's children and the general recursion filter
//!   them ([`crate::search_core::feature_levels`]). A row set is then a subproblem per level it
//!   is reached at: the cache and the similarity memory key it by its level too, and only
//!   then. The bounds between neighbouring split positions (E) compare children at one level,
//!   and hold as they are.
//!
//! # The cache
//! Subproblems are cached by their row set (a dataset cache, the core's
//! [`crate::search_core::cache`] holding [`Known`] values), not by the path of splits that
//! reached them (a branch cache). Over the datasets of `../shared/datasets`, a
//! branch cache misses every subproblem reached by the same splits in another order, which at
//! depth four is most of the depth-two subproblems; the dataset cache's key costs nothing
//! extra (an order-independent hash summed during the split) and its check a pass over the
//! rows on a hit. See the benchmark notes in `scripts/bench-dp`.
//!
//! # Tolerance and limits
//! Costs are `f64`; with integral weights (accuracy) they are exact integers. Two costs closer
//! than 1e-9 of the data's total weight count as equal ([`crate::search_core::cost`]). The
//! search holds, per level of the tree, every feature's sorted list of every row (8 bytes per
//! row and feature and level), and a cache capped by [`DpOptions::memory_limit_mb`] (under a
//! leaf minimum, half of it for the problem without the minimum).
//!
//! What this search shares with the others (binned data, views, the cache, the cost model,
//! the deadline, budgets, tree rebuilding, termination) is in [`crate::search_core`]. The
//! sparse search ([`crate::sparse`]) also runs this search itself (its depth-one and depth-two
//! solvers, the split intervals, the cached values): those few items are shared on purpose,
//! below, and the modules stay private.

mod depth_one;
mod depth_two;
mod depth_two_counts;
mod discrepancy;
mod equivalent;
mod feature_sets;
mod incumbent;
mod intervals;
mod known;
mod leaf_minimum;
mod objective;
mod options;
mod outcome;
mod problem;
mod relaxation;
mod root;
mod root_pool;
mod root_split_bounds;
mod root_work;
mod search;
mod similarity;
mod subtree;

pub(crate) use intervals::SplitSearch;
pub(crate) use known::{Known, Solution, SplitChoice};
pub(crate) use search::{FeatureRank, Outcome, Search};

use std::sync::Arc;
use std::time::Instant;

pub use crate::search_core::DEFAULT_MEMORY_LIMIT_MB;
pub use crate::search_core::{Progress as DpProgress, Termination as DpTermination};
pub use discrepancy::discrepancy_claim;
pub use feature_sets::{solve_under, FeatureRow, FeatureRule, RuledOutcome, MAX_FEATURE_SETS};
pub use objective::objective_of;
pub use options::{BoundSwitches, DpOptions};
pub use outcome::{DpOutcome, DpStats};
pub use problem::DpProblem;
pub use root_split_bounds::{root_split_bounds, RootSplitBounds};
pub use root_work::{RootUnit, RootWork};

use crate::budget::Budget;
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::search_core::binned::Binned;
use crate::search_core::budget::full;
use crate::search_core::cost::CostModel;
use crate::search_core::deadline::Deadline;
use crate::search_core::feature_levels::FeatureLevels;
use crate::search_core::subtree::{to_tree, SubTree};
use crate::search_core::view::View;
use crate::tree::Tree;
use discrepancy::FIRST_DEPTH;
use equivalent::equivalent_points_bound;
use subtree::{cost_of, rebuild_solution};

/// The tree of a proven optimal root `solution`, the same whatever the number of threads that
/// found it: its root split, and below it the subtrees a fresh single-threaded search finds
/// (the cache the threads shared holds whichever of several equally good subtrees one of them
/// stored first).
fn canonical_tree(
    binned: &Binned,
    cost: &CostModel,
    options: &DpOptions,
    cache_bytes: usize,
    depth: usize,
    budget: usize,
    solution: known::Solution,
) -> Result<SubTree> {
    let mut deadline = Deadline::new(Instant::now(), &Budget::unlimited());
    deadline.suspended = true;
    let mut fresh = Search::new(binned, cost.clone(), options.bounds, cache_bytes, deadline);
    let root = fresh.arena.root(binned);
    rebuild_solution(&mut fresh, &root, depth, budget, solution)
}

/// The most rounds searched below a target short of the incumbent ([`BoundSwitches::ascent`]).
const ASCENTS: usize = 8;

/// The most rounds searched below a probe target ([`BoundSwitches::probe`]).
const PROBES: usize = 16;

/// The first probe target's share of the gap between the proven bound and the incumbent.
const FIRST_PROBE: f64 = 1.0 / 64.0;

/// The upper bound of the next round below a target short of the incumbent, while rounds are
/// left (`rounds` done so far): with the ascent a quarter of the way from the proven `lower`
/// bound to the `incumbent`; with the probes a 64th of the way first, then twice the proven
/// bound (at most half the way); `None`: search below the incumbent. A round below a target
/// that finds nothing proves the target a lower bound; one that finds a tree finds the optimum.
fn next_target(switches: BoundSwitches, rounds: usize, lower: f64, incumbent: f64) -> Option<f64> {
    let gap = incumbent - lower;
    let target = if switches.ascent && rounds < ASCENTS {
        lower + gap / 4.0
    } else if switches.probe && !switches.ascent && rounds < PROBES {
        lower + (gap * FIRST_PROBE).max(lower).min(gap / 2.0)
    } else {
        return None;
    };
    (target > lower && target < incumbent).then_some(target)
}

/// The first incumbent: a single leaf, or, when `greedy`, the best of CART's tree and the
/// stacked greedy trees (of `depth` and `budget` splits) when it is better; each improvement
/// recorded in the trajectory and published.
fn first_incumbent(
    search: &mut Search,
    root: &View,
    (depth, budget): (usize, usize),
    greedy: bool,
) -> Result<(SubTree, f64)> {
    let tol = search.cost.tol;
    let leaf_cost = search.cost.leaf(search.arena.counts(root)).0;
    let mut incumbent = (SubTree::Leaf, leaf_cost);
    search.trajectory.push(DpProgress {
        seconds: search.deadline.seconds(),
        incumbent: leaf_cost,
        bound: search.global_lb,
    });
    search
        .deadline
        .progress
        .publish(leaf_cost, search.global_lb);
    if !greedy {
        return Ok(incumbent);
    }
    let started = search.deadline.seconds();
    // CART's tree and stacked single splits whatever the deadline (a scan of each feature per
    // node), then stacked depth-two trees while there is time.
    search.deadline.suspended = true;
    let cart = (budget >= full(depth)).then(|| incumbent::gini(search, root, depth));
    let stacked = incumbent::greedy(search, root, depth, budget, 1);
    search.deadline.suspended = false;
    let mut found = vec![cart, stacked?];
    if !search.deadline.reached() {
        found.push(incumbent::greedy(search, root, depth, budget, 2)?);
    }
    for (tree, tree_cost) in found.into_iter().flatten() {
        if tree_cost < incumbent.1 - tol {
            incumbent = (tree, tree_cost);
            search.trajectory.push(DpProgress {
                seconds: search.deadline.seconds(),
                incumbent: tree_cost,
                bound: search.global_lb,
            });
            search
                .deadline
                .progress
                .publish(tree_cost, search.global_lb);
        }
    }
    search.stats.greedy_seconds = search.deadline.seconds() - started;
    Ok(incumbent)
}

/// The incumbent as a tree of `data`'s features, checked against the search's own accounting
/// and then against plain counting by the problem's objective, which is returned.
fn checked_tree(
    search: &mut Search,
    root: &View,
    incumbent: &(SubTree, f64),
    data: &Dataset,
    problem: &DpProblem,
) -> Result<(Tree, f64)> {
    let tol = search.cost.tol;
    let recomputed = cost_of(search, root, &incumbent.0)?;
    if (recomputed - incumbent.1).abs() > 1e3 * tol {
        return Err(Error::Internal(format!(
            "the search valued its tree at {} but its leaves count {recomputed}",
            incumbent.1
        )));
    }
    let tree = to_tree(&incumbent.0, search.data, data, &search.cost, problem.depth)?;
    let objective = objective_of(&tree, data, problem).ok_or_else(|| {
        Error::Internal("the search returned a tree that breaks the problem's limits".into())
    })?;
    if (objective - incumbent.1).abs() > 1e3 * tol {
        return Err(Error::Internal(format!(
            "the search valued its tree at {} but it scores {objective}",
            incumbent.1
        )));
    }
    Ok((tree, objective))
}

/// The exact search's rounds from `incumbent` (improved in place), first below the given
/// upper bound when it is tighter than the incumbent; if nothing is found below it (it was
/// wrong), again below the incumbent. With the probes or the ascent on, under a time limit,
/// in the share of it [`DpOptions::target_rounds`] gives, below targets rising from the lower
/// bound towards the incumbent, each round that finds nothing raising the proven bound
/// ([`next_target`]). Returns the proven lower bound.
fn search_rounds(
    search: &mut Search,
    root: &View,
    options: &DpOptions,
    (depth, budget, cache_bytes): (usize, usize, usize),
    incumbent: &mut (SubTree, f64),
) -> Result<f64> {
    let tol = search.cost.tol;
    let binned = search.data;
    let cost = search.cost.clone();
    // The equivalent-points bound, set before the search ([`equivalent`]).
    let mut lower_bound: f64 = search.global_lb;
    let mut given = options
        .upper_bound
        .filter(|&given| given + 2.0 * tol < incumbent.1)
        .map(|given| given + 2.0 * tol);
    let mut rounds = 0;
    // With rounds below targets, the phases of a time limit: below the incumbent until they
    // start (searches that end early pay nothing), rising targets until they end, then below
    // the incumbent again.
    let (from, until) = options.target_rounds;
    let phase = options
        .budget
        .duration()
        .filter(|_| (options.bounds.ascent || options.bounds.probe) && depth >= 3)
        .map(|limit| (limit.mul_f64(from), limit.mul_f64(until)))
        .filter(|&(from, _)| from.is_zero() || search.deadline.seconds() < from.as_secs_f64());
    let first = phase.is_some_and(|(from, _)| from.is_zero());
    let (mut probing, mut ascending) = (phase.is_some() && !first, first);
    if let Some((from, until)) = phase {
        search
            .deadline
            .set_limit(Some(if first { until } else { from }));
    }
    loop {
        if search.deadline.reached() {
            if search.deadline.stopped() != Some(DpTermination::TimeLimit) {
                break;
            }
            if probing {
                probing = false;
                ascending = true;
                search.deadline.set_limit(phase.map(|(_, until)| until));
            } else if ascending {
                ascending = false;
                search.deadline.set_limit(options.budget.duration());
            } else {
                break;
            }
            continue;
        }
        let target = given.take().or_else(|| {
            let target = ascending
                .then(|| next_target(options.bounds, rounds, lower_bound, incumbent.1))
                .flatten();
            rounds += usize::from(target.is_some());
            target
        });
        if target.is_none() && ascending {
            ascending = false;
            search.deadline.set_limit(options.budget.duration());
        }
        let last = target.is_none();
        let ub = target.unwrap_or(incumbent.1);
        search.global_lb = lower_bound;
        search.root_incumbent = incumbent.1;
        let outcome = root::solve_root(search, root, depth, budget, ub, options.threads)?;
        let complete = search.deadline.stopped().is_none();
        search.deadline.suspended = true;
        if let Some(solution) = outcome.solution {
            if solution.cost < incumbent.1 - tol {
                let tree = if complete {
                    canonical_tree(binned, &cost, options, cache_bytes, depth, budget, solution)?
                } else {
                    rebuild_solution(search, root, depth, budget, solution)?
                };
                *incumbent = (tree, solution.cost);
            }
        }
        search.deadline.suspended = false;
        if search.deadline.stopped().is_some() {
            lower_bound = lower_bound.max(outcome.lb);
            if probing || ascending {
                continue;
            }
            break;
        }
        if outcome.solution.is_some() || last {
            lower_bound = incumbent.1;
            break;
        }
        if outcome.lb > lower_bound + tol {
            search.trajectory.push(DpProgress {
                seconds: search.deadline.seconds(),
                incumbent: incumbent.1,
                bound: outcome.lb,
            });
            search.deadline.progress.publish(incumbent.1, outcome.lb);
        }
        lower_bound = lower_bound.max(outcome.lb);
    }
    Ok(lower_bound)
}

/// Why a search under a cap on the rows of a leaf returns no tree: none meets the problem
/// ([`Error::Infeasible`]) or, after a stop, none was found ([`Error::NoTree`]).
fn no_tree(problem: &DpProblem, data: &Dataset, termination: DpTermination) -> Error {
    let max_leaf = problem.max_leaf.unwrap_or(usize::MAX);
    let splits = problem
        .max_splits
        .map_or(String::new(), |m| format!(" and at most {m} splits"));
    let within = format!(
        "tree of depth {}{splits} whose every leaf holds at least {} and at most {max_leaf} of \
         the {} training rows (max_leaf_rows)",
        problem.depth,
        problem.min_leaf,
        data.n_rows()
    );
    if termination == DpTermination::Optimal {
        Error::Infeasible(format!(
            "the exact search proves that there is no {within}; a deeper tree or a larger \
             max_leaf_rows may meet it"
        ))
    } else {
        Error::NoTree(format!(
            "the exact search stopped ({}) before it found a {within}",
            match termination {
                DpTermination::Interrupted => "interrupted",
                _ => "time limit",
            }
        ))
    }
}

/// Finds the optimal tree of `problem` on `data`, or the best one within the limits of
/// `options`, with a proven lower bound. Under a cap on the rows of a leaf that no tree meets,
/// [`Error::Infeasible`].
pub fn solve(data: &Dataset, problem: &DpProblem, options: &DpOptions) -> Result<DpOutcome> {
    solve_at_levels(data, problem, &[], options)
}

/// Whether every split of `tree` is on a feature allowed at its depth by `depths` (per data
/// feature, the depths it may split at; `None` or beyond the list: every depth).
fn meets_depths(tree: &Tree, depths: &[Option<Vec<usize>>]) -> bool {
    tree.nodes().all(|(id, node)| match &node.kind {
        crate::tree::NodeKind::Split(crate::tree::Split::Axis { feature, .. }) => depths
            .get(*feature)
            .and_then(Option::as_ref)
            .is_none_or(|listed| listed.contains(&crate::tree::node_depth(id))),
        _ => true,
    })
}

/// [`solve`] where each data feature `j` may split only at the depths `depths[j]` (the root at
/// depth 0; `None`, or a feature beyond the list: every depth): the side constraint `depths`.
pub(crate) fn solve_at_levels(
    data: &Dataset,
    problem: &DpProblem,
    depths: &[Option<Vec<usize>>],
    options: &DpOptions,
) -> Result<DpOutcome> {
    problem.check(data)?;
    crate::search_core::check_complete(data, "the exact search")?;
    options.check()?;
    let start = Instant::now();
    let binned = Binned::counting_weights(data, problem.thresholds);
    let mut cost = problem.cost_model(data)?;
    cost.levels = FeatureLevels::new(depths, &binned.data_feature, problem.depth).map(Arc::new);
    let mut deadline = Deadline::new(start, &options.budget);
    deadline.progress = options.progress.clone();
    let cache_bytes = options.memory_limit_mb.saturating_mul(1 << 20);
    let mut search = Search::new(&binned, cost.clone(), options.bounds, cache_bytes, deadline);
    let root = search.arena.root(&binned);
    let depth = problem.depth;
    let budget = problem.max_splits.unwrap_or(usize::MAX);
    search.global_lb = equivalent_points_bound(&binned, &cost);

    let mut incumbent = first_incumbent(
        &mut search,
        &root,
        (depth, budget),
        options.bounds.greedy_start,
    )?;
    search.stats.initial_objective = incumbent.1;
    let limit = options.budget.duration();
    if let Some(limit) = limit.filter(|_| options.bounds.discrepancy && depth >= FIRST_DEPTH) {
        let started = search.deadline.seconds();
        (
            search.stats.discrepancy_passes,
            search.stats.discrepancy_proven,
        ) = discrepancy::discrepancy_passes(
            &mut search,
            &root,
            (depth, budget),
            limit.mul_f64(options.discrepancy_until),
            cache_bytes / 4,
            &mut incumbent,
        )?;
        search.stats.discrepancy_seconds = search.deadline.seconds() - started;
        search.stats.discrepancy_objective =
            (search.stats.discrepancy_passes > 0).then_some(incumbent.1);
        search.deadline.set_limit(limit.into());
    }

    let lower_bound = search_rounds(
        &mut search,
        &root,
        options,
        (depth, budget, cache_bytes),
        &mut incumbent,
    )?;
    // An incumbent that meets the proven bound is optimal, stopped or not.
    let termination = match search.deadline.stopped() {
        Some(_) if incumbent.1 <= lower_bound + search.cost.tol => DpTermination::Optimal,
        stopped => stopped.unwrap_or(DpTermination::Optimal),
    };
    if !incumbent.1.is_finite() {
        return Err(no_tree(problem, data, termination));
    }

    search.deadline.suspended = true;
    let (tree, objective) = checked_tree(&mut search, &root, &incumbent, data, problem)?;
    if !meets_depths(&tree, depths) {
        return Err(Error::Internal(
            "the search returned a tree that splits a feature at a depth not allowed".into(),
        ));
    }
    let lower_bound = lower_bound.min(objective);
    let lower_bound = if termination == DpTermination::Optimal {
        objective
    } else {
        lower_bound
    };
    let seconds = start.elapsed().as_secs_f64();
    search.trajectory.push(DpProgress {
        seconds,
        incumbent: objective,
        bound: lower_bound,
    });
    search.deadline.progress.publish(objective, lower_bound);
    let mut stats = search.stats.clone();
    stats.cache_entries = search.cache.len() as u64;
    stats.cache_evictions = search.cache.evictions();
    stats.root_work.lock_waits = search.cache.lock_waits();
    Ok(DpOutcome {
        tree,
        objective,
        lower_bound,
        termination,
        seconds,
        stats,
        trajectory: search.trajectory,
    })
}
