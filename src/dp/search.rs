//! The search: the optimal subtree of a row set at a depth and split budget, below an upper
//! bound, by dynamic programming over row sets with branch and bound.
//!
//! [`Search::solve`] answers one subproblem: it normalises the depth and budget to what the
//! rows allow, asks the cache, and dispatches to the depth-one scan, the specialised depth-two
//! search, or the general recursion. Every answer is either the optimum (below the upper bound)
//! or a lower bound at or above it; both are stored in the cache.
//!
//! The general recursion tries each feature (best Gini split first) and searches its split
//! positions by bisection ([`SplitSearch`]). For each position it splits the rows into the next
//! arena level, bounds the children from the cache and from the solved neighbouring positions,
//! and solves the larger child first with the upper bound left by the sibling's lower bound,
//! then the other with the bound left by the first child's optimum.
//!
//! The depth-two search does the same over the first split's positions, but finds both
//! children's best depth-one subtrees in one scan of every feature ([`depth_one::scan`]).

use std::sync::Arc;

use crate::dp::depth_one::{best_split, BestSplit};
use crate::dp::depth_two::PairScratch;
use crate::dp::depth_two_counts::CountScratch;
use crate::dp::discrepancy::Passes;
use crate::dp::intervals::{Candidate, Report, SplitBounds, SplitSearch};
use crate::dp::known::{Cache, Known, Solution, SplitChoice};
use crate::dp::relaxation::Relaxation;
use crate::dp::similarity::Similarity;
use crate::dp::{BoundSwitches, DpProgress, DpStats};
use crate::search_core::binned::{split_bin, Binned};
use crate::search_core::budget::{budget_distributions, full};
use crate::search_core::cost::CostModel;
use crate::search_core::deadline::Deadline;
use crate::search_core::feature_levels::FeatureLevels;
use crate::search_core::view::{Arena, View};

/// What solving a subproblem below an upper bound established.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Outcome {
    /// A lower bound on the subproblem's optimum (its cost when `solution` is set).
    pub lb: f64,
    /// The optimum, when it lies below the upper bound. After a stop, the best found.
    pub solution: Option<Solution>,
}

/// The search's state: data, cost model, buffers, cache, limits and counters.
pub(crate) struct Search<'a> {
    pub(crate) data: &'a Binned,
    pub(crate) cost: CostModel,
    pub(crate) switches: BoundSwitches,
    pub(crate) arena: Arena,
    pub(crate) cache: Arc<Cache>,
    pub(super) similarity: Similarity,
    /// The problem without the leaf minimum, under one ([`crate::dp::relaxation`]).
    pub(super) relaxation: Option<Relaxation>,
    /// Scratch class counts of a depth-one scan.
    pub(super) counts: Vec<u32>,
    /// Scratch of the depth-two search.
    pub(super) pair: PairScratch,
    /// Scratch of the depth-two search by counts.
    pub(super) counted: CountScratch,
    /// Per arena level: the split search of the subproblem at that level.
    pub(super) searches: Vec<SplitSearch>,
    /// Per arena level: feature order and budget distributions.
    pub(super) orders: Vec<Vec<FeatureRank>>,
    pub(super) distributions: Vec<Vec<(usize, usize)>>,
    pub(crate) deadline: Deadline,
    pub(crate) stats: DpStats,
    /// Improvements of the root's incumbent.
    pub(crate) trajectory: Vec<DpProgress>,
    /// Lower bound reported with trajectory points.
    pub(crate) global_lb: f64,
    /// The root's incumbent, reported with the root's bound as it rises.
    pub(crate) root_incumbent: f64,
    /// While the limited-discrepancy passes run, their cache ([`crate::dp`]'s `discrepancy`).
    pub(super) passes: Option<Passes>,
}

impl<'a> Search<'a> {
    pub fn new(
        data: &'a Binned,
        cost: CostModel,
        switches: BoundSwitches,
        cache_bytes: usize,
        deadline: Deadline,
    ) -> Search<'a> {
        // Under a leaf minimum or a cap on the rows of a leaf, the problem without them has half
        // the cache.
        let relaxes = cost.min_leaf > 1 || cost.caps_leaves();
        let cache_bytes = if relaxes {
            cache_bytes / 2
        } else {
            cache_bytes
        };
        let cache = Arc::new(Cache::new(data.n_rows, cache_bytes));
        let mut search = Search::sharing(data, cost, switches, cache, deadline);
        if relaxes {
            let relaxed = Arc::new(Cache::new(data.n_rows, cache_bytes));
            search.relaxation = Some(Relaxation::new(data, &search.cost, relaxed));
        }
        search
    }

    /// A search that shares `cache` with others (the other threads of one search; under a
    /// leaf minimum, they also share the cache without it: [`Search::share_relaxation`]).
    pub fn sharing(
        data: &'a Binned,
        cost: CostModel,
        switches: BoundSwitches,
        cache: Arc<Cache>,
        deadline: Deadline,
    ) -> Search<'a> {
        let k = data.n_classes;
        Search {
            data,
            switches,
            arena: Arena::new(data),
            cache,
            similarity: Similarity::new(data, &cost),
            relaxation: None,
            counts: vec![0; k],
            pair: PairScratch::new(data),
            counted: CountScratch::default(),
            searches: Vec::new(),
            orders: Vec::new(),
            distributions: Vec::new(),
            deadline,
            stats: DpStats::default(),
            trajectory: Vec::new(),
            global_lb: 0.0,
            root_incumbent: f64::INFINITY,
            passes: None,
            cost,
        }
    }

    /// Shares the cache without the leaf minimum of `main`, another thread of the same search.
    pub(crate) fn share_relaxation(&mut self, main: &Search) {
        self.relaxation = main
            .relaxation
            .as_ref()
            .map(|relaxation| relaxation.share(self.data, &self.cost));
    }

    /// Whether the similarity bounds apply: on, and no cap on the rows of a leaf (under a cap,
    /// a row set's optimum is no longer within the weight of the rows apart of its neighbour's:
    /// a leaf that gains rows can break the cap; the problem without the cap, solved first,
    /// keeps them: [`crate::dp::relaxation`]).
    pub(super) fn similar_bounds(&self) -> bool {
        self.switches.similarity && !self.cost.caps_leaves()
    }

    /// Whether the split positions are searched by bisection with neighbour bounds: on, and no
    /// cap on the rows of a leaf (as for [`Search::similar_bounds`]).
    pub(crate) fn bisects(&self) -> bool {
        self.switches.intervals && !self.cost.caps_leaves()
    }

    /// Whether searched feature `feature` may split `view` (at its level of the tree).
    #[inline]
    pub(crate) fn allows(&self, view: &View, feature: u32) -> bool {
        self.cost
            .levels
            .as_ref()
            .is_none_or(|levels| levels.allows(view.level, feature))
    }

    /// The depth the caches and the similarity memory key `view` by with `depth` levels left:
    /// `depth`, and its level too under a rule on the levels at which features split.
    #[inline]
    pub(crate) fn key_depth(&self, view: &View, depth: usize) -> usize {
        match self.cost.levels {
            None => depth,
            Some(_) => FeatureLevels::key_depth(view.level, depth),
        }
    }

    pub(super) fn ensure_level(&mut self, level: usize) {
        while self.searches.len() <= level {
            self.searches.push(SplitSearch::default());
            self.orders.push(Vec::new());
            self.distributions.push(Vec::new());
        }
    }

    /// The depth and budget that matter for `view`: no more splits than its rows can fill
    /// (each leaf needs `min_leaf` rows) or its depth can hold, no deeper than its splits; none
    /// when no feature may split it at its level.
    pub fn normalize(&self, view: &View, depth: usize, budget: usize) -> (usize, usize) {
        if view.n_features == 0 {
            return (0, 0);
        }
        if self.cost.levels.is_some()
            && !(0..view.n_features).any(|i| self.allows(view, self.arena.feature(view, i)))
        {
            return (0, 0);
        }
        let max_leaves = view.size / self.cost.min_leaf as usize;
        let budget = budget.min(full(depth)).min(max_leaves.saturating_sub(1));
        (depth.min(budget), budget)
    }

    fn note_memory(&mut self) {
        let relaxed = self.relaxation.as_ref().map_or(0, Relaxation::bytes)
            + self.passes.as_ref().map_or(0, Passes::bytes);
        let bytes =
            (self.cache.bytes() + self.arena.bytes() + self.similarity.bytes() + relaxed) as u64;
        self.stats.peak_memory_bytes = self.stats.peak_memory_bytes.max(bytes);
    }

    pub(super) fn leaf_outcome(&self, leaf_cost: f64, ub: f64) -> Outcome {
        Outcome {
            lb: leaf_cost,
            solution: self.cost.improves(leaf_cost, ub).then_some(Solution {
                cost: leaf_cost,
                split: None,
            }),
        }
    }

    /// The optimal subtree of `view` with at most `depth` levels and `budget` splits, if it
    /// costs less than `ub`; otherwise a lower bound at or above `ub`.
    pub fn solve(&mut self, view: &View, depth: usize, budget: usize, ub: f64) -> Outcome {
        self.solve_above(view, depth, budget, ub, 0.0)
    }

    /// [`Search::solve`], knowing that the optimum is at least `lb`.
    pub(super) fn solve_above(
        &mut self,
        view: &View,
        depth: usize,
        budget: usize,
        ub: f64,
        lb: f64,
    ) -> Outcome {
        self.stats.subproblems += 1;
        let (depth, budget) = self.normalize(view, depth, budget);
        let (leaf_cost, _) = self.cost.leaf(self.arena.counts(view));
        if depth == 0 {
            return self.leaf_outcome(leaf_cost, ub);
        }
        if depth == 1 {
            return self.solve_depth_one(view, leaf_cost, ub);
        }
        let mut lb = lb;
        let key = self.key_depth(view, depth);
        let known = self
            .cache
            .get(view.hash, key, budget, self.arena.list(view, 0));
        if let Some(known) = known {
            if let Some(solution) = known.solution {
                self.stats.cache_hits += 1;
                return Outcome {
                    lb: solution.cost,
                    solution: self.cost.improves(solution.cost, ub).then_some(solution),
                };
            }
            if self.switches.infeasibility {
                lb = lb.max(known.lower_bound);
                if lb >= ub - self.cost.tol {
                    self.stats.bound_pruned += 1;
                    return Outcome { lb, solution: None };
                }
            }
        }
        if self.similar_bounds() {
            let similar = self.similarity.bound(&self.arena, view, key, budget);
            if similar > lb {
                lb = similar;
                if lb >= ub - self.cost.tol {
                    self.stats.similarity_pruned += 1;
                    return Outcome { lb, solution: None };
                }
            }
        }
        // The depth-two search bounds positions by their neighbours: not under a cap.
        let outcome = if depth == 2 && !self.cost.caps_leaves() {
            self.solve_depth_two(view, budget, leaf_cost, ub, lb)
        } else {
            self.solve_general(view, depth, budget, leaf_cost, ub, lb)
        };
        if self.deadline.aborted() {
            return outcome;
        }
        self.store(view, depth, budget, &outcome);
        if self.similar_bounds() {
            let value = outcome.solution.map_or(outcome.lb, |s| s.cost);
            self.similarity
                .remember(&self.arena, view, key, budget, value);
        }
        self.note_memory();
        outcome
    }

    /// Records what `outcome` established about `view` at `depth` and `budget` in the cache:
    /// its optimum, or its lower bound (with infeasibility bounds on).
    pub(crate) fn store(&self, view: &View, depth: usize, budget: usize, outcome: &Outcome) {
        let rows = self.arena.list(view, 0);
        let depth = self.key_depth(view, depth);
        match outcome.solution {
            Some(solution) => {
                self.cache
                    .put(view.hash, depth, budget, rows, Known::optimum(solution))
            }
            None if self.switches.infeasibility => {
                self.cache
                    .put(view.hash, depth, budget, rows, Known::bound(outcome.lb))
            }
            None => {}
        }
    }

    /// Depth one: the leaf or the best single split.
    fn solve_depth_one(&mut self, view: &View, leaf_cost: f64, ub: f64) -> Outcome {
        self.stats.depth1_calls += 1;
        let target = leaf_cost.min(ub);
        let split = self.scan(view, target);
        if let Some(split) = split {
            return Outcome {
                lb: split.cost,
                solution: Some(leaf_split(split)),
            };
        }
        if self.cost.improves(leaf_cost, ub) {
            return self.leaf_outcome(leaf_cost, ub);
        }
        Outcome {
            lb: leaf_cost.min(target.max(self.cost.split_cost)),
            solution: None,
        }
    }

    /// The best single split of `view` below `target` (on the features allowed at its level).
    pub(super) fn scan(&mut self, view: &View, target: f64) -> Option<BestSplit> {
        let arena = &self.arena;
        let lists = (0..view.n_features).map(|i| (arena.feature(view, i), arena.list(view, i)));
        let rows = self.data.row_counts();
        let (counts, size) = (arena.counts(view), view.size);
        let skipping = self.switches.depth_one_skip;
        // Without a rule on levels, the scan compiles as it did.
        match self.cost.levels.as_deref() {
            None => best_split(
                lists,
                &rows,
                counts,
                &mut self.counts,
                size,
                target,
                &self.cost,
                skipping,
                None,
            ),
            Some(levels) => best_split(
                lists.filter(|&(feature, _)| levels.allows(view.level, feature)),
                &rows,
                counts,
                &mut self.counts,
                size,
                target,
                &self.cost,
                skipping,
                None,
            ),
        }
    }

    /// Depth three or more: every feature, its positions by bisection, both children solved
    /// recursively.
    fn solve_general(
        &mut self,
        view: &View,
        depth: usize,
        budget: usize,
        leaf_cost: f64,
        ub: f64,
        lb: f64,
    ) -> Outcome {
        let sc = self.cost.split_cost;
        let tol = self.cost.tol;
        let mut ub = ub;
        let mut best = None;
        if self.cost.improves(leaf_cost, ub) {
            best = Some(Solution {
                cost: leaf_cost,
                split: None,
            });
            ub = leaf_cost;
        }
        let floor = lb.max(leaf_cost.min(sc));
        if best.is_some_and(|b| b.cost <= floor + tol) || ub <= sc + tol {
            return match best {
                Some(b) => Outcome {
                    lb: b.cost,
                    solution: best,
                },
                None => Outcome {
                    lb: lb.max(leaf_cost.min(sc)),
                    solution: None,
                },
            };
        }
        let level = view.level;
        self.ensure_level(level);
        let mut search = std::mem::take(&mut self.searches[level]);
        let mut order = std::mem::take(&mut self.orders[level]);
        let mut distributions = std::mem::take(&mut self.distributions[level]);
        budget_distributions(depth, budget, &mut distributions);
        let per_child = distributions.len() == 1;
        let child_splits = child_splits(depth, budget);
        self.feature_order(view, &mut order);
        let mut candidates_lb = f64::INFINITY;
        'features: for (
            rank,
            &FeatureRank {
                index,
                position: gini_position,
                ..
            },
        ) in order.iter().enumerate()
        {
            let feature = self.arena.feature(view, index);
            search.reset(
                self.arena.list(view, index),
                self.data.row_counts(),
                &self.cost,
                self.bisects(),
                per_child,
                0,
                (rank < FIRST_AT_GINI).then_some(gini_position),
                [child_splits; 2],
            );
            while let Some(candidate) = search.next(ub, &self.cost) {
                if self.deadline.reached() {
                    break 'features;
                }
                let Some(value) = self.evaluate_split(
                    view,
                    depth,
                    (index, feature),
                    &candidate,
                    &distributions,
                    ub,
                ) else {
                    break 'features;
                };
                if let Some(found) = value.best {
                    best = Some(found);
                    ub = found.cost;
                    if level == 0 {
                        self.trajectory.push(DpProgress {
                            seconds: self.deadline.seconds(),
                            incumbent: found.cost,
                            bound: self.global_lb,
                        });
                        self.deadline.progress.publish(found.cost, self.global_lb);
                    }
                }
                search.report_with(&candidate, value.report, None);
                candidates_lb = candidates_lb.min(value.lb);
                if best.is_some_and(|b| b.cost <= floor + tol) {
                    break 'features;
                }
            }
            candidates_lb = candidates_lb.min(search.pruned_lb);
            self.stats.interval_pruned += search.pruned;
        }
        self.searches[level] = search;
        self.orders[level] = order;
        self.distributions[level] = distributions;
        finish(best, lb, leaf_cost, candidates_lb, self.deadline.aborted())
    }

    /// Evaluates the split of `view` at `candidate`'s position of the feature at `index` (whose
    /// id is `feature`): for each way to share the budget, both children below `ub`, the larger
    /// first. Returns what it established, the cheapest subtree below `ub` under this split
    /// (the first way to share the budget among equals), or `None` if the search was stopped.
    /// Under a leaf minimum, the children are solved first without it ([`Search::solve_relaxing`])
    /// and what that proves is reported beside.
    pub(super) fn evaluate_split(
        &mut self,
        view: &View,
        depth: usize,
        split: (usize, u32),
        candidate: &Candidate,
        distributions: &[(usize, usize)],
        ub: f64,
    ) -> Option<SplitValue> {
        self.evaluate_split_by(
            view,
            depth,
            split,
            candidate,
            distributions,
            ub,
            &mut |search, child, (depth, budget), ub, _| {
                search.solve_relaxing(child, depth, budget, ub)
            },
        )
    }

    /// [`Search::evaluate_split`], each child solved by `solve_child`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn evaluate_split_by(
        &mut self,
        view: &View,
        depth: usize,
        (index, feature): (usize, u32),
        candidate: &Candidate,
        distributions: &[(usize, usize)],
        ub: f64,
        solve_child: &mut SolveChild<'_, 'a>,
    ) -> Option<SplitValue> {
        let sc = self.cost.split_cost;
        let tol = self.cost.tol;
        let per_child = distributions.len() == 1;
        let mut ub = ub;
        let mut best = None;
        self.stats.general_splits += 1;
        let list = self.arena.list(view, index);
        let position = candidate.position;
        let bin = split_bin(list[position - 1].bin, list[position].bin);
        let (left, right) = self.arena.split(view, index, position);
        let leaves = [
            self.cost.leaf(self.arena.counts(&left)).0,
            self.cost.leaf(self.arena.counts(&right)).0,
        ];
        let mut split_lb = f64::INFINITY;
        let mut relaxed_lb = f64::INFINITY;
        // Per child: lower bounds with the leaf minimum and without it.
        let mut known = [candidate.left_lb, candidate.right_lb];
        let mut relaxed = [candidate.relaxed.left, candidate.relaxed.right];
        for &(left_budget, right_budget) in distributions {
            let budgets = [left_budget, right_budget];
            let (left_lb, left_free) =
                self.known_lb(&left, depth - 1, left_budget, per_child, candidate, true);
            let (right_lb, right_free) =
                self.known_lb(&right, depth - 1, right_budget, per_child, candidate, false);
            let mut lbs = [left_lb, right_lb];
            let mut frees = [left_free, right_free];
            if per_child {
                known = [known[0].max(left_lb), known[1].max(right_lb)];
                relaxed = [relaxed[0].max(left_free), relaxed[1].max(right_free)];
            }
            if left_lb + right_lb + sc >= ub - tol {
                self.stats.lookahead_pruned += 1;
                split_lb = split_lb.min(left_lb + right_lb + sc);
                relaxed_lb = relaxed_lb.min(left_free + right_free + sc);
                continue;
            }
            // The larger child first: it is the likelier to exhaust the bound.
            let (first, second) = if left.size >= right.size {
                (0, 1)
            } else {
                (1, 0)
            };
            let views = [left, right];
            let room = ub - sc;
            let first_ub = if self.switches.upper_bound {
                room - lbs[second] + candidate.reach
            } else {
                room
            };
            let (first_out, first_free) = solve_child(
                self,
                &views[first],
                (depth - 1, budgets[first]),
                first_ub,
                first,
            );
            if self.deadline.aborted() {
                return None;
            }
            frees[first] = frees[first].max(first_free);
            let Some(first_solution) = first_out.solution else {
                lbs[first] = first_out.lb.max(lbs[first]);
                split_lb = split_lb.min(lbs[0] + lbs[1] + sc);
                relaxed_lb = relaxed_lb.min(frees[0] + frees[1] + sc);
                if per_child {
                    known[first] = known[first].max(lbs[first]);
                    relaxed[first] = relaxed[first].max(frees[first]);
                }
                continue;
            };
            let first_cost = first_solution.cost;
            let second_ub = if self.switches.upper_bound {
                room - first_cost + candidate.reach
            } else {
                room
            };
            let (second_out, second_free) = solve_child(
                self,
                &views[second],
                (depth - 1, budgets[second]),
                second_ub,
                second,
            );
            if self.deadline.aborted() {
                return None;
            }
            frees[second] = frees[second].max(second_free);
            let second_value = second_out
                .solution
                .map_or(second_out.lb.max(lbs[second]), |s| s.cost);
            lbs[first] = first_cost;
            lbs[second] = second_value;
            if per_child {
                known = [known[0].max(lbs[0]), known[1].max(lbs[1])];
                relaxed = [relaxed[0].max(frees[0]), relaxed[1].max(frees[1])];
            }
            let total = sc + first_cost + second_value;
            split_lb = split_lb.min(total);
            relaxed_lb = relaxed_lb.min(frees[0] + frees[1] + sc);
            let Some(second_solution) = second_out.solution else {
                continue;
            };
            if self.cost.improves(total, ub) {
                let mut costs = [0.0; 2];
                costs[first] = first_cost;
                costs[second] = second_solution.cost;
                best = Some(Solution {
                    cost: total,
                    split: Some(SplitChoice {
                        feature,
                        bin,
                        left_budget: left_budget as u32,
                        right_budget: right_budget as u32,
                        left_cost: costs[0],
                        right_cost: costs[1],
                    }),
                });
                ub = total;
            }
        }
        Some(SplitValue {
            lb: split_lb,
            report: Report {
                bounds: SplitBounds {
                    left: known[0],
                    right: known[1],
                    total: split_lb,
                },
                relaxed: SplitBounds {
                    left: relaxed[0],
                    right: relaxed[1],
                    total: relaxed_lb,
                },
                leaves,
            },
            best,
        })
    }

    /// Lower bounds on a child's cost before solving it, with the leaf minimum and without it:
    /// its leaf cost when it can only be a leaf, the bounds its solved neighbours give, and
    /// (with lookahead) the caches'.
    fn known_lb(
        &mut self,
        child: &View,
        depth: usize,
        budget: usize,
        per_child: bool,
        candidate: &Candidate,
        is_left: bool,
    ) -> (f64, f64) {
        let free = if per_child {
            if is_left {
                candidate.relaxed.left
            } else {
                candidate.relaxed.right
            }
        } else {
            0.0
        };
        let free = free.max(self.relaxed_known(child, depth, budget));
        let (depth, budget) = self.normalize(child, depth, budget);
        if depth == 0 {
            return (self.cost.leaf(self.arena.counts(child)).0, free);
        }
        let mut lb: f64 = free;
        if per_child {
            lb = lb.max(if is_left {
                candidate.left_lb
            } else {
                candidate.right_lb
            });
        }
        if self.switches.lookahead && depth >= 2 {
            let key = self.key_depth(child, depth);
            if let Some(known) = self
                .cache
                .get(child.hash, key, budget, self.arena.list(child, 0))
            {
                let cached = match known.solution {
                    Some(solution) => solution.cost,
                    None if self.switches.infeasibility => known.lower_bound,
                    None => 0.0,
                };
                lb = lb.max(cached);
            }
        }
        (lb, free)
    }

    /// The view's features allowed at its level, best weighted-Gini split first (ties: view
    /// order), among the splits that leave the leaf minimum on both sides (infinite impurity if
    /// none does).
    pub(crate) fn feature_order(&mut self, view: &View, order: &mut Vec<FeatureRank>) {
        order.clear();
        let k = self.data.n_classes;
        let total: Vec<f64> = self
            .arena
            .counts(view)
            .iter()
            .zip(&self.cost.weights)
            .map(|(&c, &w)| f64::from(c) * w)
            .collect();
        let total_weight: f64 = total.iter().sum();
        let mut left = vec![0.0; k];
        let min_leaf = self.cost.min_leaf as usize;
        let last = view.size.saturating_sub(min_leaf);
        let multiplies = self.data.multiplies();
        for index in 0..view.n_features {
            if !self.allows(view, self.arena.feature(view, index)) {
                continue;
            }
            left.iter_mut().for_each(|x| *x = 0.0);
            let list = self.arena.list(view, index);
            let mut best = f64::INFINITY;
            let mut best_position = 0;
            let mut left_weight = 0.0;
            for (at, pair) in list.windows(2).enumerate() {
                let row = pair[0].row as usize;
                let label = self.data.labels[row] as usize;
                let w = if multiplies {
                    self.cost.weights[label] * f64::from(self.data.multiplicities[row])
                } else {
                    self.cost.weights[label]
                };
                left[label] += w;
                left_weight += w;
                if pair[0].bin == pair[1].bin || at + 1 < min_leaf || at + 1 > last {
                    continue;
                }
                let right_weight = total_weight - left_weight;
                let mut impurity = 0.0;
                if left_weight > 0.0 {
                    impurity += left_weight - left.iter().map(|x| x * x).sum::<f64>() / left_weight;
                }
                if right_weight > 0.0 {
                    impurity += right_weight
                        - left
                            .iter()
                            .zip(&total)
                            .map(|(l, t)| (t - l) * (t - l))
                            .sum::<f64>()
                            / right_weight;
                }
                if impurity < best {
                    best = impurity;
                    best_position = at + 1;
                }
            }
            order.push(FeatureRank {
                impurity: best,
                index,
                position: best_position,
            });
        }
        order.sort_by(|a, b| {
            a.impurity
                .total_cmp(&b.impurity)
                .then(a.index.cmp(&b.index))
        });
    }
}

/// The most splits of either child's subtree in a tree of `depth` and `budget` splits.
pub(crate) fn child_splits(depth: usize, budget: usize) -> usize {
    budget.saturating_sub(1).min(full(depth - 1))
}

/// How many of the best-ranked features are first split at their best Gini split rather than
/// in the middle.
pub(crate) const FIRST_AT_GINI: usize = 1;

/// A feature of a view ranked by its best weighted-Gini split, and where that split is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FeatureRank {
    pub impurity: f64,
    /// The feature's position among the view's features.
    pub index: usize,
    /// The split position of the best Gini split.
    pub position: usize,
}

/// How [`Search::evaluate_split_by`] solves a child: given the search, the child, its depth
/// and budget, its upper bound and its side (0 left, 1 right), it answers as
/// [`Search::solve_relaxing`] does.
pub(super) type SolveChild<'s, 'a> =
    dyn FnMut(&mut Search<'a>, &View, (usize, usize), f64, usize) -> (Outcome, f64) + 's;

/// What evaluating one split established ([`Search::evaluate_split`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct SplitValue {
    /// A lower bound on the cost of the subtrees under this split (their least cost when
    /// `best` is set and the bound did not cut the others).
    pub lb: f64,
    /// Lower bounds on each child's cost and the total (`lb`), with the leaf minimum and
    /// without it, for the neighbouring positions.
    pub report: Report,
    /// The cheapest subtree under this split below the upper bound, if any.
    pub best: Option<Solution>,
}

/// A depth-one scan's best split as a solution.
fn leaf_split(split: BestSplit) -> Solution {
    Solution {
        cost: split.cost,
        split: Some(SplitChoice {
            feature: split.feature,
            bin: split.bin,
            left_budget: 0,
            right_budget: 0,
            left_cost: split.left_cost,
            right_cost: split.right_cost,
        }),
    }
}

/// What a depth-one scan proved about one child.
#[derive(Debug, Clone, Copy)]
pub(super) struct SideValue {
    /// The child's optimal depth-one cost if `exact`, else a lower bound on it.
    pub value: f64,
    pub exact: bool,
}

/// The outcome of a searched node: its best if it found one, else the least bound of its
/// candidates (the leaf among them). After a stop, the best found with the a-priori bound.
pub(crate) fn finish(
    best: Option<Solution>,
    lb: f64,
    leaf_cost: f64,
    candidates_lb: f64,
    aborted: bool,
) -> Outcome {
    if aborted {
        return Outcome { lb, solution: best };
    }
    match best {
        Some(solution) => Outcome {
            lb: solution.cost,
            solution: Some(solution),
        },
        None => Outcome {
            lb: lb.max(leaf_cost.min(candidates_lb)),
            solution: None,
        },
    }
}
