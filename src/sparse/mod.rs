//! Sparse optimal trees (GOSDT: Lin, Zhong, Hu, Rudin and Seltzer, ICML 2020): the tree that
//! minimises `loss + lambda * leaves` with no depth to guess (or under an optional cap), over
//! every midpoint threshold of continuous features (or the class-boundary ones), no
//! binarisation needed.
//!
//! [`solve`] finds and proves optimal the tree of a [`SparseProblem`]; [`solve_path`] does it
//! for increasing penalties, each solve starting from what the previous ones proved. Any tree
//! is scored under a problem by [`objective_of`], which shares no code with the search.
//!
//! # Two searches
//! - Additive losses (accuracy, balanced, weighted) decompose over the leaves: the optimal
//!   tree of a row set only depends on that set, and [`additive`] solves each support set once,
//!   with the seed's bounds, on the data structures of the exact depth-limited search
//!   ([`crate::dp`]: binned features, row-set views, the cache, the depth-one and depth-two
//!   solvers it hands small subproblems to).
//! - F1 and the AUCs of the ROC convex hull are losses of the whole leaf set: [`whole_tree`]
//!   searches partial trees branch and bound, with the seed's hierarchical lower bound for
//!   them (Theorems 2.1, 2.2, B.1, C.3: the open leaves replaced by their equivalence classes,
//!   the finest leaves any completion can have), one-step lookahead and the leaf-count bound.
//!
//! Both are anytime: a time limit or an interrupt returns the best tree with a valid lower
//! bound. Objectives are in the loss's units (`loss + lambda * leaves`, the seed's `R`).

mod additive;
mod equivalence;
mod extract;
pub mod loss;
mod objective;
mod problem;
mod root;
mod whole_tree;

use std::time::Instant;

use serde::{Deserialize, Serialize};

pub use loss::Loss;
pub use objective::{objective_of, score_of, SparseScore};
pub use problem::SparseProblem;

use crate::budget::Budget;
use crate::data::Dataset;
use crate::dp::{BoundSwitches, Search, Solution};
use crate::error::{Error, Result};
use crate::search_core::binned::Binned;
use crate::search_core::cost::{CostModel, Scale};
use crate::search_core::deadline::Deadline;
use crate::search_core::subtree::SubTree;
use crate::search_core::view::View;
use crate::search_core::{
    Progress as DpProgress, ProgressSink, Termination as DpTermination, DEFAULT_MEMORY_LIMIT_MB,
};
use crate::tree::{Tree, MAX_DEPTH};
use additive::AdditiveSearch;
use equivalence::Equivalence;

/// The bounds of the sparse search, each of which can be turned off to measure what it brings.
/// Turning any of them off never changes the optimum, only the time to prove it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SparseSwitches {
    /// The equivalent-points bound and, with it, the incremental-progress bound.
    pub equivalence: bool,
    /// The leaf-count bound (and handing subproblems it limits to two levels to the depth-one
    /// and depth-two solvers).
    pub leaf_count: bool,
    /// One-step lookahead on the children's known bounds.
    pub lookahead: bool,
    /// The incremental similar-support bound between neighbouring thresholds.
    pub similar_support: bool,
    /// A greedy first incumbent.
    pub greedy: bool,
    /// Iterative deepening: the optimum of each depth up to the cap in turn, each an incumbent
    /// for the next, and with the leaf-count bound a lower bound for the deeper ones.
    pub deepening: bool,
    /// Without a depth cap, after each depth the deepening closes, a bound pass: a lower bound
    /// on the trees of any depth of every subproblem the depth binds, refined bottom-up from
    /// its children's (the depth-limited leaves relaxed to what deeper trees could cost), the
    /// run's lower bound and a bound on every subproblem of the deeper searches.
    pub deep_bound: bool,
}

impl Default for SparseSwitches {
    fn default() -> Self {
        SparseSwitches {
            equivalence: true,
            leaf_count: true,
            lookahead: true,
            similar_support: true,
            greedy: true,
            deepening: true,
            deep_bound: true,
        }
    }
}

impl SparseSwitches {
    /// The names of the switches, in the order of [`SparseSwitches::without`].
    pub const NAMES: [&'static str; 7] = [
        "equivalence",
        "leaf_count",
        "lookahead",
        "similar_support",
        "greedy",
        "deepening",
        "deep_bound",
    ];

    /// All switches on but the one named `name` (one of [`SparseSwitches::NAMES`]).
    pub fn without(name: &str) -> Result<SparseSwitches> {
        let mut switches = SparseSwitches::default();
        let switch = match name {
            "equivalence" => &mut switches.equivalence,
            "leaf_count" => &mut switches.leaf_count,
            "lookahead" => &mut switches.lookahead,
            "similar_support" => &mut switches.similar_support,
            "greedy" => &mut switches.greedy,
            "deepening" => &mut switches.deepening,
            "deep_bound" => &mut switches.deep_bound,
            other => {
                return Err(Error::parameter(
                    "bound",
                    format!(
                        "`{other}` is not one of: {}",
                        SparseSwitches::NAMES.join(", ")
                    ),
                ))
            }
        };
        *switch = false;
        Ok(switches)
    }
}

/// Options of one search.
#[derive(Debug, Clone)]
pub struct SparseOptions {
    /// The time of the search, and the flag (Ctrl-C) that stops it with its best tree.
    pub budget: Budget,
    /// Cap on the memory of the subproblem cache, in MiB.
    pub memory_limit_mb: usize,
    pub switches: SparseSwitches,
    /// A known tree whose objective is a first upper bound (ignored when it is not a tree of
    /// the problem).
    pub incumbent: Option<Tree>,
    /// Where the search publishes its incumbent and bound (in the objective's units) as they
    /// improve: the additive losses' search at each better tree and each depth it closes.
    pub progress: ProgressSink,
    /// Threads of the additive losses' search (at least 1; the root's candidate splits are
    /// dealt out to them). The tree found does not depend on it.
    pub threads: usize,
}

impl Default for SparseOptions {
    fn default() -> Self {
        SparseOptions {
            budget: Budget::unlimited(),
            memory_limit_mb: DEFAULT_MEMORY_LIMIT_MB,
            switches: SparseSwitches::default(),
            incumbent: None,
            progress: ProgressSink::default(),
            threads: 1,
        }
    }
}

impl SparseOptions {
    fn check(&self) -> Result<()> {
        crate::search_core::check_threads(self.threads)?;
        Ok(())
    }
}

/// Counters of one search.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SparseStats {
    /// `support_sets` (the additive search) or `whole_tree` (F1 and the AUCs).
    pub search: String,
    /// Subproblems entered (additive) or partial trees expanded (whole tree).
    pub subproblems: u64,
    /// Subproblems answered by the cache.
    pub cache_hits: u64,
    pub cache_entries: u64,
    pub cache_evictions: u64,
    /// Estimated peak memory of the caches and buffers, in bytes.
    pub peak_memory_bytes: u64,
    /// Subproblems whose leaf no split can beat (incremental progress with equivalent points).
    pub leaf_optimal: u64,
    /// Subproblems pruned by a known lower bound.
    pub bound_pruned: u64,
    /// Subproblems the leaf-count bound limits to two levels, solved by the depth-one and
    /// depth-two solvers.
    pub depth_two_calls: u64,
    /// Splits evaluated in subproblems of three levels or more.
    pub splits: u64,
    /// Splits skipped because their children's known bounds reach the upper bound.
    pub lookahead_pruned: u64,
    /// Split positions skipped by the similar-support bound of their neighbours.
    pub interval_pruned: u64,
    /// Partial trees met again in another order (whole tree; the leaf permutation bound).
    pub duplicates: u64,
    /// Objective of the first incumbent (the greedy tree, or the single leaf).
    pub initial_objective: f64,
    pub greedy_seconds: f64,
    /// Bound passes run (without a depth cap, one per depth closed) and their seconds.
    pub bound_passes: u64,
    pub bound_seconds: f64,
}

impl SparseStats {
    /// Adds the counters of another thread of the same search.
    fn absorb(&mut self, other: &SparseStats) {
        self.subproblems += other.subproblems;
        self.cache_hits += other.cache_hits;
        self.leaf_optimal += other.leaf_optimal;
        self.bound_pruned += other.bound_pruned;
        self.depth_two_calls += other.depth_two_calls;
        self.splits += other.splits;
        self.lookahead_pruned += other.lookahead_pruned;
        self.interval_pruned += other.interval_pruned;
    }
}

/// The result of a search.
#[derive(Debug, Clone)]
pub struct SparseOutcome {
    /// The best tree found (at worst a single leaf), with its training counts.
    pub tree: Tree,
    /// Its objective `loss + lambda * leaves`, re-evaluated by plain code.
    pub objective: f64,
    pub loss: f64,
    pub leaves: usize,
    /// A proven lower bound on the optimum; equal to `objective` when optimal.
    pub lower_bound: f64,
    pub termination: DpTermination,
    /// Wall-clock seconds of the whole search.
    pub seconds: f64,
    pub stats: SparseStats,
    /// Incumbent and bound over time, in the objective's units.
    pub trajectory: Vec<DpProgress>,
}

impl SparseOutcome {
    pub fn is_optimal(&self) -> bool {
        self.termination == DpTermination::Optimal
    }
}

/// Finds the optimal tree of `problem` on `data`, or the best one within the limits of
/// `options`, with a proven lower bound.
pub fn solve(
    data: &Dataset,
    problem: &SparseProblem,
    options: &SparseOptions,
) -> Result<SparseOutcome> {
    let mut outcomes = solve_path(data, std::slice::from_ref(problem), options)?;
    outcomes
        .pop()
        .ok_or_else(|| Error::Internal("a path of one problem returned no outcome".into()))
}

/// Solves `problems` (the same loss, depth and thresholds; penalties in increasing order) one
/// after the other: each solve starts from the previous tree as an incumbent and, for the
/// additive losses, from everything the previous solves proved (every optimum of a subproblem
/// is a lower bound once the penalty grows). The time limit applies to each solve.
pub fn solve_path(
    data: &Dataset,
    problems: &[SparseProblem],
    options: &SparseOptions,
) -> Result<Vec<SparseOutcome>> {
    options.check()?;
    let Some(first) = problems.first() else {
        return Ok(Vec::new());
    };
    for (problem, next) in problems.iter().zip(problems.iter().skip(1)) {
        if next.loss != problem.loss
            || next.depth != problem.depth
            || next.thresholds != problem.thresholds
            || next.leaf_penalty < problem.leaf_penalty
        {
            return Err(Error::Internal(
                "a path needs one loss, depth and threshold mode and increasing penalties".into(),
            ));
        }
    }
    for problem in problems {
        problem.check(data)?;
        crate::search_core::check_searchable(data, "the sparse search")?;
    }
    let binned = Binned::new(data, first.thresholds);
    match first.loss.class_weights(data) {
        Some(weights) => additive_path(data, &binned, &weights, problems, options),
        None => {
            if options.threads > 1 {
                return Err(Error::parameter(
                    "--threads",
                    format!(
                        "the sparse search of {} (a loss of the whole leaf set) runs on one thread",
                        first.loss.name()
                    ),
                ));
            }
            let mut outcomes: Vec<SparseOutcome> = Vec::new();
            for problem in problems {
                let mut options = options.clone();
                if let Some(previous) = outcomes.last() {
                    options.incumbent = Some(previous.tree.clone());
                }
                outcomes.push(whole_tree::solve(data, &binned, problem, &options)?);
            }
            Ok(outcomes)
        }
    }
}

fn additive_path(
    data: &Dataset,
    binned: &Binned,
    weights: &[f64],
    problems: &[SparseProblem],
    options: &SparseOptions,
) -> Result<Vec<SparseOutcome>> {
    let total_weight: f64 = data.labels().iter().map(|&label| weights[label]).sum();
    let penalty_of = |problem: &SparseProblem| problem.leaf_penalty * total_weight;
    let scale = Scale {
        rows: data.n_rows(),
        total_weight,
    };
    let cost = CostModel::new(weights, penalty_of(&problems[0]), 1, scale)?;
    let cache_bytes = options.memory_limit_mb.saturating_mul(1 << 20);
    let mut deadline = Deadline::new(Instant::now(), &options.budget);
    deadline.progress = options.progress.clone();
    let dp = Search::new(
        binned,
        cost,
        BoundSwitches::default(),
        cache_bytes,
        deadline,
    );
    let equivalence = Equivalence::new(binned, weights);
    let mut search =
        AdditiveSearch::new(dp, penalty_of(&problems[0]), options.switches, equivalence);
    let mut outcomes: Vec<SparseOutcome> = Vec::new();
    for (i, problem) in problems.iter().enumerate() {
        if i > 0 {
            search.raise_penalty(penalty_of(problem), scale)?;
            search.dp.deadline = Deadline::new(Instant::now(), &options.budget);
            search.dp.deadline.progress = options.progress.clone();
        }
        let incumbent = outcomes
            .last()
            .map(|o| &o.tree)
            .or(options.incumbent.as_ref());
        let outcome = additive_once(
            &mut search,
            data,
            binned,
            problem,
            total_weight,
            incumbent,
            (options.threads, cache_bytes),
        )?;
        outcomes.push(outcome);
    }
    Ok(outcomes)
}

/// The tree under a root `solution` the search proved optimal at `depth`, the same whatever
/// the number of threads that found it: its root split, and below it the subtrees a fresh
/// single-threaded search finds (the cache the threads shared holds whichever of several
/// equally good subtrees one of them stored first).
fn canonical(
    search: &AdditiveSearch,
    binned: &Binned,
    cache_bytes: usize,
    depth: usize,
    solution: Solution,
) -> Result<SubTree> {
    let mut deadline = Deadline::new(Instant::now(), &Budget::unlimited());
    deadline.suspended = true;
    let dp = Search::new(
        binned,
        search.dp.cost.clone(),
        search.dp.switches,
        cache_bytes,
        deadline,
    );
    let mut fresh = search.sibling(dp);
    let root = fresh.dp.arena.root(binned);
    extract::extract_solution(&mut fresh, &root, depth, solution)
}

/// One solve of the additive search (see [`additive`]) on `threads.0` threads, with a cache of
/// `threads.1` bytes.
fn additive_once(
    search: &mut AdditiveSearch,
    data: &Dataset,
    binned: &Binned,
    problem: &SparseProblem,
    total_weight: f64,
    incumbent_tree: Option<&Tree>,
    (threads, cache_bytes): (usize, usize),
) -> Result<SparseOutcome> {
    let start = Instant::now();
    let scale = ObjectiveScale {
        penalty: search.penalty,
        total_weight,
    };
    search.stats = SparseStats {
        search: "support_sets".to_string(),
        ..SparseStats::default()
    };
    search.trajectory.clear();
    let depth = problem.depth_limit();
    let root = search.dp.arena.root(binned);
    let mut incumbent = first_incumbent(search, binned, &root, depth, incumbent_tree, scale);
    search.stats.initial_objective = scale.objective(incumbent.1);
    let deepened = deepen(search, &root, depth, incumbent.1, threads, scale)?;
    incumbent.1 = deepened.cost;
    search.dp.deadline.suspended = true;
    if let Some((level, solution, complete)) = deepened.pending {
        incumbent.0 = if complete {
            canonical(search, binned, cache_bytes, level, solution)?
        } else {
            extract::extract_solution(search, &root, level, solution)?
        };
    }
    let termination = if deepened.proven {
        DpTermination::Optimal
    } else {
        search
            .dp
            .deadline
            .stopped()
            .unwrap_or(DpTermination::TimeLimit)
    };
    let recomputed = extract::cost_of(search, &root, &incumbent.0).ok_or_else(|| {
        Error::Internal("the search's tree does not split the rows it reaches".into())
    })?;
    if (recomputed - incumbent.1).abs() > 1e3 * search.dp.cost.tol {
        return Err(Error::Internal(format!(
            "the search valued its tree at {} but its leaves count {recomputed}",
            incumbent.1
        )));
    }
    let tree = extract::into_tree(&incumbent.0, binned, data, search)?;
    finish(
        tree,
        data,
        problem,
        scale.objective(incumbent.1),
        scale.objective(deepened.lower_bound),
        termination,
        start,
        final_stats(search),
        search
            .trajectory
            .iter()
            .map(|point| DpProgress {
                seconds: point.seconds,
                incumbent: scale.objective(point.incumbent),
                bound: point.bound,
            })
            .collect(),
    )
}

/// A cost of the additive search as an objective: the leaf penalty added once (a tree has
/// one leaf more than splits), over the total weight.
#[derive(Debug, Clone, Copy)]
struct ObjectiveScale {
    penalty: f64,
    total_weight: f64,
}

impl ObjectiveScale {
    fn objective(self, cost: f64) -> f64 {
        (cost + self.penalty) / self.total_weight
    }

    /// Publishes the search's current pair: the incumbent only falls and the bound only
    /// rises.
    fn publish(self, search: &AdditiveSearch, incumbent: f64, bound: f64) {
        search
            .dp
            .deadline
            .progress
            .publish(self.objective(incumbent), self.objective(bound));
    }
}

/// The best of the single leaf, `incumbent_tree` (when it fits in `depth`) and the greedy
/// tree (when switched on), each recorded in the trajectory when it improves.
fn first_incumbent(
    search: &mut AdditiveSearch,
    binned: &Binned,
    root: &View,
    depth: usize,
    incumbent_tree: Option<&Tree>,
    scale: ObjectiveScale,
) -> (SubTree, f64) {
    let tol = search.dp.cost.tol;
    let leaf = search.dp.cost.leaf(search.dp.arena.counts(root)).0;
    let mut incumbent = (SubTree::Leaf, leaf);
    let consider =
        |search: &mut AdditiveSearch, tree: SubTree, cost: f64, best: &mut (SubTree, f64)| {
            if cost < best.1 - tol {
                *best = (tree, cost);
                search.trajectory.push(DpProgress {
                    seconds: search.dp.deadline.seconds(),
                    incumbent: cost,
                    bound: 0.0,
                });
                scale.publish(search, cost, 0.0);
            }
        };
    search.trajectory.push(DpProgress {
        seconds: 0.0,
        incumbent: leaf,
        bound: 0.0,
    });
    scale.publish(search, leaf, 0.0);
    if let Some(tree) = incumbent_tree.and_then(|t| extract::from_tree(t, binned)) {
        if extract::depth_of(&tree) <= depth {
            if let Some(cost) = extract::cost_of(search, root, &tree) {
                consider(search, tree, cost, &mut incumbent);
            }
        }
    }
    if search.switches.greedy && !search.dp.deadline.reached() {
        let started = search.dp.deadline.seconds();
        if let Some((tree, cost)) = extract::greedy(search, root, depth) {
            consider(search, tree, cost, &mut incumbent);
        }
        search.stats.greedy_seconds = search.dp.deadline.seconds() - started;
    }
    incumbent
}

/// What the deepening proved: the incumbent's cost, the lower bound, whether the incumbent is
/// optimal, and the root of the best tree a level found (its level, and whether that level
/// completed), whose subtrees are extracted at the end.
struct Deepened {
    cost: f64,
    lower_bound: f64,
    proven: bool,
    pending: Option<(usize, Solution, bool)>,
}

/// The exact search, depth by depth with deepening, from an incumbent of cost `cost`. Once
/// every tree of depth `d` is known to cost at least the incumbent, a better tree is deeper,
/// so it has `d + 1` splits or more and costs at least `floor + (d + 1) P`: a lower bound, and
/// a proof of optimality when the incumbent is below it.
fn deepen(
    search: &mut AdditiveSearch,
    root: &View,
    depth: usize,
    mut cost: f64,
    threads: usize,
    scale: ObjectiveScale,
) -> Result<Deepened> {
    let tol = search.dp.cost.tol;
    let p = search.penalty;
    let floor = search.floor(root);
    let mut lower_bound = 0.0f64;
    let mut level = if search.switches.deepening { 1 } else { depth };
    let mut proven = false;
    let mut pending: Option<(usize, Solution, bool)> = None;
    while !search.dp.deadline.reached() {
        let outcome = root::solve_root(search, root, level, cost, threads)?;
        let complete = search.dp.deadline.stopped().is_none();
        search.dp.deadline.suspended = true;
        if let Some(solution) = outcome.solution {
            if solution.cost < cost - tol {
                pending = Some((level, solution, complete));
                cost = solution.cost;
                search.trajectory.push(DpProgress {
                    seconds: search.dp.deadline.seconds(),
                    incumbent: solution.cost,
                    bound: 0.0,
                });
            }
        }
        search.dp.deadline.suspended = false;
        scale.publish(search, cost, lower_bound);
        if search.dp.deadline.stopped().is_some() {
            if level == depth {
                lower_bound = lower_bound.max(outcome.lb.min(cost));
            }
            break;
        }
        let deeper = floor + (level + 1) as f64 * p;
        if level == depth || cost <= deeper + tol {
            proven = true;
            break;
        }
        lower_bound = lower_bound.max(cost.min(deeper));
        if search.switches.deep_bound && depth == MAX_DEPTH {
            match bound_pass(search, root, level, cost, threads)? {
                Some(bound) if bound >= cost - tol => {
                    proven = true;
                    break;
                }
                Some(bound) => lower_bound = lower_bound.max(bound),
                None => {}
            }
        }
        scale.publish(search, cost, lower_bound);
        level += 1;
    }
    if proven {
        lower_bound = cost;
    }
    scale.publish(search, cost, lower_bound);
    Ok(Deepened {
        cost,
        lower_bound,
        proven,
        pending,
    })
}

/// The bound pass after depth `level` closed below `cost` (see [`AdditiveSearch::relaxed`]):
/// a lower bound on the root's trees of any depth, or `None` when the search stopped during
/// it. The root's optimum at `level` when the depth does not bind it.
fn bound_pass(
    search: &mut AdditiveSearch,
    root: &View,
    level: usize,
    cost: f64,
    threads: usize,
) -> Result<Option<f64>> {
    if !search.depth_binds(root, level) {
        return Ok(Some(cost));
    }
    let started = search.dp.deadline.seconds();
    search.relaxed = true;
    let outcome = root::solve_root(search, root, level, cost, threads);
    search.relaxed = false;
    search.relaxed_known = true;
    search.stats.bound_passes += 1;
    search.stats.bound_seconds += search.dp.deadline.seconds() - started;
    let outcome = outcome?;
    if search.dp.deadline.stopped().is_some() {
        return Ok(None);
    }
    Ok(Some(outcome.solution.map_or(outcome.lb, |s| s.cost)))
}

/// The search's statistics with its cache's and memory's figures.
fn final_stats(search: &AdditiveSearch) -> SparseStats {
    let mut stats = search.stats.clone();
    stats.cache_entries = search.dp.cache.len() as u64;
    stats.cache_evictions = search.dp.cache.evictions();
    stats.peak_memory_bytes =
        (search.dp.cache.bytes() + search.dp.arena.bytes() + search.bytes()) as u64;
    stats.depth_two_calls = search.stats.depth_two_calls;
    stats
}

/// Checks the tree by plain code against the search's value, and assembles the outcome.
#[allow(clippy::too_many_arguments)]
fn finish(
    tree: Tree,
    data: &Dataset,
    problem: &SparseProblem,
    value: f64,
    lower_bound: f64,
    termination: DpTermination,
    start: Instant,
    stats: SparseStats,
    mut trajectory: Vec<DpProgress>,
) -> Result<SparseOutcome> {
    let score = score_of(&tree, data, problem).ok_or_else(|| {
        Error::Internal("the search returned a tree that breaks the problem's depth".into())
    })?;
    if (score.objective - value).abs() > 1e-7 * value.abs().max(1.0) {
        return Err(Error::Internal(format!(
            "the search valued its tree at {value} but it scores {}",
            score.objective
        )));
    }
    let lower_bound = if termination == DpTermination::Optimal {
        score.objective
    } else {
        lower_bound.min(score.objective)
    };
    let seconds = start.elapsed().as_secs_f64();
    trajectory.push(DpProgress {
        seconds,
        incumbent: score.objective,
        bound: lower_bound,
    });
    Ok(SparseOutcome {
        tree,
        objective: score.objective,
        loss: score.loss,
        leaves: score.leaves,
        lower_bound,
        termination,
        seconds,
        stats,
        trajectory,
    })
}
