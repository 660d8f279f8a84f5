//! Limited-discrepancy passes: the anytime phase of a deep search (depth five and beyond under a
//! time limit), run before the exact search to find good trees early.
//!
//! A depth-first branch and bound at depth five spends its limit below the first root splits
//! it opens. The passes instead restrict the splits tried at every node of depth three or more
//! to the best-ranked features (by weighted Gini, each at its best Gini threshold, as
//! [`Search::feature_order`] ranks them): the `i`-th ranked feature costs `i` discrepancies,
//! and a path of the tree may spend at most the pass's allowance in all (Harvey and Ginsberg's
//! limited discrepancy search, as Kiossou, Schaus and Nijssen run ConTree's search). Subtrees
//! of depth two or less are solved exactly (and cached as the exact search caches them). Pass
//! `d` allows `d` discrepancies; each pass searches below the best tree so far and widens the
//! last. A pass's values are costs of real trees, so they are upper bounds only: they are kept
//! in a cache of their own, keyed by the allowance too, never in the exact search's cache,
//! whose lower bounds the passes use to prune (an exact bound also bounds every restricted
//! tree). The passes stop at the end of their share of the limit, or once a pass was cut
//! nowhere by its allowance (a wider one would search the same trees); the exact search then
//! starts below their best tree and can still prove it optimal.

use std::time::Duration;

use crate::dp::intervals::Candidate;
use crate::dp::known::Solution;
use crate::dp::search::{finish, FeatureRank, Outcome, Search};
use crate::dp::subtree::{rebuild, rebuild_solution};
use crate::dp::DpProgress;
use crate::error::{Error, Result};
use crate::search_core::budget::budget_distributions;
use crate::search_core::cache::{CachedValue, RowSetCache};
use crate::search_core::subtree::SubTree;
use crate::search_core::view::View;

/// Depth at which the passes start: subtrees of depth two are solved exactly below them, so a
/// depth-four tree has two levels of restricted splits above them.
pub(crate) const FIRST_DEPTH: usize = 5;

/// The largest allowance of a pass (the pass cache keys a subproblem by it).
const MAX_ALLOWANCE: usize = 60;

/// Keys of the pass cache: the exact search's key plus this many times the allowance (above any
/// key the exact search uses: depths below 32 and levels below 32).
const ALLOWANCE_STRIDE: usize = 1024;

/// What a pass established about a subproblem at an allowance: the best tree it found (with the
/// allowance its children were solved at: the node's less the rank of its root split among the
/// node's candidates), or a lower bound on the trees it searches.
#[derive(Debug, Clone, Copy)]
struct PassKnown {
    lower_bound: f64,
    best: Option<(Solution, usize)>,
}

impl CachedValue for PassKnown {
    fn merge(&mut self, newer: PassKnown) {
        if self.best.is_none() {
            self.lower_bound = self.lower_bound.max(newer.lower_bound);
            self.best = newer.best;
        }
    }
}

/// What the passes keep while they run: their cache and whether the current pass cut a node's
/// candidates short.
pub(crate) struct Passes {
    cache: RowSetCache<PassKnown>,
    cut: bool,
}

impl Passes {
    pub(crate) fn new(n_rows: usize, cache_bytes: usize) -> Passes {
        Passes {
            cache: RowSetCache::new(n_rows, cache_bytes),
            cut: false,
        }
    }

    pub(crate) fn bytes(&self) -> usize {
        self.cache.bytes()
    }
}

/// The outcome of a subproblem in a pass, with the allowance its best tree's children were
/// solved at.
#[derive(Debug, Clone, Copy)]
struct Ranked {
    outcome: Outcome,
    children: usize,
}

impl<'a> Search<'a> {
    /// The pass cache's key of `view` at `depth` with `allowance` discrepancies left.
    fn pass_key(&self, view: &View, depth: usize, allowance: usize) -> usize {
        self.key_depth(view, depth) + ALLOWANCE_STRIDE * allowance
    }

    /// What the pass cache holds for `view` at `depth`, `budget` and `allowance`.
    fn pass_known(
        &mut self,
        view: &View,
        depth: usize,
        budget: usize,
        allowance: usize,
    ) -> Option<PassKnown> {
        let key = self.pass_key(view, depth, allowance);
        let rows = self.arena.list(view, 0);
        let passes = self.passes.as_mut()?;
        passes.cache.get(view.hash, key, budget, rows).copied()
    }

    /// The best tree of `view` (at most `depth` levels and `budget` splits) below `ub` whose
    /// splits at depth three or more spend at most `allowance` discrepancies on any path, or a
    /// lower bound on those trees at or above `ub`. Depth two or less: the exact search.
    pub(super) fn solve_discrepancy(
        &mut self,
        view: &View,
        depth: usize,
        budget: usize,
        ub: f64,
        allowance: usize,
    ) -> Outcome {
        self.solve_ranked(view, depth, budget, ub, allowance)
            .outcome
    }

    /// [`Search::solve_discrepancy`], with the allowance of the best tree's children. The tree
    /// the previous allowance found here (a tree of this allowance too) is the first incumbent.
    fn solve_ranked(
        &mut self,
        view: &View,
        depth: usize,
        budget: usize,
        ub: f64,
        allowance: usize,
    ) -> Ranked {
        let (depth, budget) = self.normalize(view, depth, budget);
        if depth <= 2 {
            let outcome = self.solve_relaxing(view, depth, budget, ub).0;
            return Ranked {
                outcome,
                children: 0,
            };
        }
        self.stats.subproblems += 1;
        let tol = self.cost.tol;
        if let Some(known) = self.pass_known(view, depth, budget, allowance) {
            // What an earlier pass found here may have been cut by its allowance.
            if let Some(passes) = self.passes.as_mut() {
                passes.cut = true;
            }
            if let Some((solution, children)) = known.best {
                let outcome = Outcome {
                    lb: solution.cost,
                    solution: self.cost.improves(solution.cost, ub).then_some(solution),
                };
                return Ranked { outcome, children };
            }
            if known.lower_bound >= ub - tol {
                let outcome = Outcome {
                    lb: known.lower_bound,
                    solution: None,
                };
                return Ranked {
                    outcome,
                    children: 0,
                };
            }
        }
        // A lower bound of the exact search bounds every restricted tree too.
        let key = self.key_depth(view, depth);
        let exact = self
            .cache
            .get(view.hash, key, budget, self.arena.list(view, 0));
        let exact_lb = exact.map_or(0.0, |known| {
            known
                .solution
                .map_or(known.lower_bound, |solution| solution.cost)
        });
        if exact_lb >= ub - tol {
            let outcome = Outcome {
                lb: exact_lb,
                solution: None,
            };
            return Ranked {
                outcome,
                children: 0,
            };
        }
        let prior = allowance
            .checked_sub(1)
            .and_then(|fewer| self.pass_known(view, depth, budget, fewer))
            .and_then(|known| known.best);
        let ranked = self.discrepancy_splits(view, (depth, budget), ub, allowance, prior);
        if !self.deadline.aborted() {
            let known = PassKnown {
                lower_bound: ranked.outcome.lb,
                best: ranked
                    .outcome
                    .solution
                    .map(|solution| (solution, ranked.children)),
            };
            let key = self.pass_key(view, depth, allowance);
            let rows = self.arena.list(view, 0);
            if let Some(passes) = self.passes.as_mut() {
                passes.cache.put(view.hash, key, budget, rows, known);
            }
        }
        ranked
    }

    /// The candidate splits of a node in a pass, best first: the root split of its optimal
    /// depth-two subtree (a lookahead of two levels, as the greedy start takes), then each
    /// feature's best Gini split (best feature first), as (feature index, position). They do not
    /// depend on an upper bound, so what a pass proves of a node holds for any later call.
    fn discrepancy_candidates(&mut self, view: &View, budget: usize) -> Vec<(usize, usize)> {
        let mut candidates = Vec::new();
        let lookahead = self
            .solve_relaxing(view, 2, budget, f64::INFINITY)
            .0
            .solution;
        if let Some(choice) = lookahead.and_then(|solution| solution.split) {
            if let Some(index) = self.arena.feature_index(view, choice.feature) {
                let position = self
                    .arena
                    .list(view, index)
                    .partition_point(|e| e.bin <= choice.bin);
                candidates.push((index, position));
            }
        }
        let mut order = Vec::new();
        self.feature_order(view, &mut order);
        for &FeatureRank {
            impurity,
            index,
            position,
        } in &order
        {
            if impurity.is_finite() && !candidates.contains(&(index, position)) {
                candidates.push((index, position));
            }
        }
        candidates
    }

    /// The splits of a node of depth three or more within its allowance, each child solved by
    /// [`Search::solve_discrepancy`] with the allowance its rank leaves, below the leaf and the
    /// `prior` tree (with its children's allowance) when they are below `ub`.
    fn discrepancy_splits(
        &mut self,
        view: &View,
        (depth, budget): (usize, usize),
        ub: f64,
        allowance: usize,
        prior: Option<(Solution, usize)>,
    ) -> Ranked {
        let (leaf_cost, _) = self.cost.leaf(self.arena.counts(view));
        let mut ub = ub;
        let mut best = None;
        let mut best_children = 0;
        if self.cost.improves(leaf_cost, ub) {
            best = Some(Solution {
                cost: leaf_cost,
                split: None,
            });
            ub = leaf_cost;
        }
        if let Some((solution, children)) = prior.filter(|(s, _)| self.cost.improves(s.cost, ub)) {
            best = Some(solution);
            best_children = children;
            ub = solution.cost;
        }
        let candidates = self.discrepancy_candidates(view, budget);
        if candidates.len() > allowance + 1 {
            if let Some(passes) = self.passes.as_mut() {
                passes.cut = true;
            }
        }
        let mut distributions = Vec::new();
        budget_distributions(depth, budget, &mut distributions);
        let mut candidates_lb = f64::INFINITY;
        for (rank, &(index, position)) in candidates.iter().enumerate().take(allowance + 1) {
            if self.deadline.reached() {
                break;
            }
            let feature = self.arena.feature(view, index);
            let left = allowance - rank;
            let candidate = Candidate::alone(position, self.cost.split_cost);
            let Some(value) = self.evaluate_split_by(
                view,
                depth,
                (index, feature),
                &candidate,
                &distributions,
                ub,
                &mut |search, child, (depth, budget), ub, _| {
                    (
                        search.solve_discrepancy(child, depth, budget, ub, left),
                        0.0,
                    )
                },
            ) else {
                break;
            };
            if let Some(found) = value.best {
                best = Some(found);
                best_children = left;
                ub = found.cost;
                if view.level == 0 {
                    self.trajectory.push(DpProgress {
                        seconds: self.deadline.seconds(),
                        incumbent: found.cost,
                        bound: self.global_lb,
                    });
                    self.deadline.progress.publish(found.cost, self.global_lb);
                }
            }
            candidates_lb = candidates_lb.min(value.lb);
        }
        let outcome = finish(best, 0.0, leaf_cost, candidates_lb, self.deadline.aborted());
        Ranked {
            outcome,
            children: best_children,
        }
    }
}

/// Rebuilds the tree of cost `cost` a pass found for `view` at `depth`, `budget` and
/// `allowance`: from the pass cache, or by solving again where it no longer holds it; subtrees
/// of depth two or less from the exact search's cache ([`rebuild`]).
fn rebuild_pass(
    search: &mut Search,
    view: &View,
    (depth, budget): (usize, usize),
    allowance: usize,
    cost: f64,
) -> Result<SubTree> {
    let (depth, budget) = search.normalize(view, depth, budget);
    if depth <= 2 {
        return rebuild(search, view, depth, budget, cost);
    }
    let tol = search.cost.tol;
    let cached = search
        .pass_known(view, depth, budget, allowance)
        .and_then(|known| known.best)
        .filter(|(solution, _)| solution.cost <= cost + tol);
    let solution = match cached {
        Some(found) => Some(found),
        None => {
            let ub = cost + 2.0 * tol.max(cost.abs() * f64::EPSILON);
            let ranked = search.solve_ranked(view, depth, budget, ub, allowance);
            ranked
                .outcome
                .solution
                .map(|solution| (solution, ranked.children))
        }
    };
    let solution = solution.ok_or_else(|| {
        Error::Internal(format!(
            "a tree of cost {cost} a pass found (depth {depth}, {} rows) could not be found again",
            view.size
        ))
    })?;
    rebuild_pass_solution(search, view, depth, solution)
}

/// Rebuilds the tree of `solution`, found by a pass for `view` at `depth`, whose children were
/// solved at allowance `children`: its root split, and below it the children the pass found
/// ([`rebuild_pass`]).
fn rebuild_pass_solution(
    search: &mut Search,
    view: &View,
    depth: usize,
    (solution, children): (Solution, usize),
) -> Result<SubTree> {
    if depth <= 2 {
        return rebuild_solution(search, view, depth, usize::MAX, solution);
    }
    let Some(choice) = solution.split else {
        return Ok(SubTree::Leaf);
    };
    let index = search
        .arena
        .feature_index(view, choice.feature)
        .ok_or_else(|| Error::Internal("a pass's split is on a feature of no view".into()))?;
    let position = search
        .arena
        .list(view, index)
        .partition_point(|e| e.bin <= choice.bin);
    let (left_view, right_view) = search.arena.split(view, index, position);
    let left = rebuild_pass(
        search,
        &left_view,
        (depth - 1, choice.left_budget as usize),
        children,
        choice.left_cost,
    )?;
    let right = rebuild_pass(
        search,
        &right_view,
        (depth - 1, choice.right_budget as usize),
        children,
        choice.right_cost,
    )?;
    Ok(SubTree::Split {
        feature: choice.feature,
        bin: choice.bin,
        left: Box::new(left),
        right: Box::new(right),
    })
}

/// Runs passes of rising allowance from `root` (at `depth` and `budget`) until `until` after the
/// start, each below the best tree so far, improving `incumbent` in place; the pass cache holds
/// at most `cache_bytes`. Returns the number of passes run and the largest allowance whose pass
/// ran to its end: then no tree of that allowance is better than `incumbent`.
pub(crate) fn discrepancy_passes(
    search: &mut Search,
    root: &View,
    (depth, budget): (usize, usize),
    until: Duration,
    cache_bytes: usize,
    incumbent: &mut (SubTree, f64),
) -> Result<(u64, Option<u64>)> {
    let tol = search.cost.tol;
    search.passes = Some(Passes::new(search.data.n_rows, cache_bytes));
    search.deadline.set_limit(Some(until));
    search.root_incumbent = incumbent.1;
    let mut passes = 0;
    let mut proven = None;
    for allowance in 0..=MAX_ALLOWANCE {
        if search.deadline.reached() {
            break;
        }
        if let Some(state) = search.passes.as_mut() {
            state.cut = false;
        }
        passes += 1;
        let ranked = search.solve_ranked(root, depth, budget, incumbent.1, allowance);
        if let Some(solution) = ranked.outcome.solution {
            if solution.cost < incumbent.1 - tol {
                search.deadline.suspended = true;
                let (depth, _) = search.normalize(root, depth, budget);
                let tree = rebuild_pass_solution(search, root, depth, (solution, ranked.children));
                search.deadline.suspended = false;
                *incumbent = (tree?, solution.cost);
                search.root_incumbent = incumbent.1;
            }
        }
        if search.deadline.aborted() {
            break;
        }
        proven = Some(allowance as u64);
        // A path has at most `depth - 2` nodes of restricted splits, each of at most one
        // candidate per feature and the lookahead's: past that, no allowance cuts anything.
        let widest = depth.saturating_sub(2) * root.n_features;
        let cut = search.passes.as_ref().is_some_and(|state| state.cut);
        if !cut || allowance >= widest {
            break;
        }
    }
    search.passes = None;
    Ok((passes, proven))
}

/// What a pass that ran to its end at `allowance` proves of a search at `depth`: the returned
/// tree, no worse than that pass's best, is the best of the trees of the form it searched.
pub fn discrepancy_claim(depth: usize, allowance: u64) -> String {
    let restricted = depth.saturating_sub(2);
    format!(
        "no tree of depth {depth} is better than the one returned among those whose splits at \
         levels 0 to {} are each among the first candidates of their node (the root split of \
         the node's optimal depth-two subtree, then each feature's split of least weighted Gini \
         impurity, best first; the i-th costs i discrepancies) with at most {allowance} \
         discrepancies on any path, and whose subtrees at level {restricted} are optimal \
         depth-two trees over every feature and threshold (limited-discrepancy passes, \
         allowances 0 to {allowance} searched to the end)",
        restricted.saturating_sub(1)
    )
}
