//! The search for additive losses: the optimal tree of a row set is a leaf or the best split
//! with optimal subtrees on both sides, each subproblem solved once per row set (its support
//! set) and depth, with the seed's bounds.
//!
//! Costs are in the exact search's units ([`crate::dp`]): the weighted errors of the leaves
//! plus `P` per split, `P = lambda * W` (`W` the data's total weight). A tree has one leaf more
//! than splits, so its sparse objective is `(cost + P) / W`.
//!
//! [`AdditiveSearch::solve`] answers one subproblem below an upper bound `ub`, in this order:
//! - the equivalent-points floor `E` (rows no split separates cost their minority weight) and
//!   the incremental-progress bound: a split costs at least `E + P`, so a leaf costing no more
//!   is optimal (Theorems B.6 and B.9);
//! - the cache, keyed by the row set and the depth that matters (none once the depth cannot
//!   bind: a tree worth its splits has at most `(leaf - E) / P` of them);
//! - the leaf-count bound (Theorems B.4, B.5): a tree with `s` splits costs at least `E + s P`,
//!   so only trees with fewer than `(min(ub, leaf) - E) / P` splits can matter; when that
//!   leaves at most two levels, the exact search's depth-one scan and depth-two bisection
//!   solve it;
//! - otherwise every feature (best Gini split first), its split positions by bisection where
//!   solved positions bound their neighbours (the incremental similar-support bound of
//!   Section 4.2: a few rows moved change each side's optimum by at most their weight), and
//!   the one-step lookahead on the children's known lower bounds (Theorem B.3); the larger
//!   child is solved first below what the sibling's bound leaves, the other below what the
//!   first one's optimum leaves.
//!
//! Every answer is the optimum (when below `ub`) or a lower bound, and is cached; this is the
//! seed's dependency graph of subproblems with their lower and upper bounds, explored depth
//! first with the upper bound handed down rather than from a priority queue.
//!
//! The bound pass ([`AdditiveSearch::relaxed`]) runs the same recursion for lower bounds on
//! trees of any depth: where the depth binds, the subproblems two levels or fewer from the
//! limit answer the cheaper of their optimum and the leaf-count bound on deeper trees, and
//! their parents the cheaper of their leaf and their best split, as the seed refines its lower
//! bounds bottom-up. Those answers are cached apart (they are no trees) and bound the same row
//! sets one level deeper in later searches, exact or relaxed.

use crate::dp::{
    FeatureRank, Known as CachedKnown, Outcome, Search, Solution, SplitChoice, SplitSearch,
};
use crate::search_core::binned::split_bin;
use crate::search_core::cost::Scale;
use crate::search_core::view::View;
use crate::search_core::Progress as DpProgress;
use crate::sparse::equivalence::Equivalence;
use crate::sparse::{SparseStats, SparseSwitches};

/// The budget field of the sparse search's own cache entries (the exact search's depth-one
/// and depth-two entries have budgets of at most 3).
const SPARSE_BUDGET: usize = u32::MAX as usize;
/// The budget field of the bound pass's entries (see [`AdditiveSearch::relaxed`]).
const RELAXED_BUDGET: usize = u32::MAX as usize - 1;
/// The depth field of an entry whose depth does not bind.
const FREE_DEPTH: usize = u16::MAX as usize;

/// The search's state: the exact search it delegates to (data, views, cache, limits), the
/// penalty, the equivalence classes, and per-level scratch.
pub(crate) struct AdditiveSearch<'a> {
    pub dp: Search<'a>,
    /// `P`: the cost of one more leaf, in weighted errors.
    pub penalty: f64,
    pub switches: SparseSwitches,
    equivalence: Equivalence,
    searches: Vec<SplitSearch>,
    orders: Vec<Vec<FeatureRank>>,
    pub stats: SparseStats,
    /// Improvements of the root's best tree (in the search's units).
    pub trajectory: Vec<DpProgress>,
    /// The bound pass: instead of the optimum of the trees of at most `depth` levels, each
    /// subproblem whose depth binds gets a lower bound on its trees of any depth, the same
    /// recursion with the depth-limited leaves relaxed (at two levels or fewer, the cheaper of
    /// the optimum and the leaf-count bound on deeper trees). Its answers are cached apart
    /// and bound the exact search's subproblems at any depth.
    pub relaxed: bool,
    /// Whether the cache holds entries of a bound pass (looked up only then).
    pub relaxed_known: bool,
}

/// A subproblem the bounds and the cache did not settle (see [`AdditiveSearch::open`]).
pub(crate) struct Opened {
    pub leaf: f64,
    floor: f64,
    /// The depth that matters.
    pub depth: usize,
    key_depth: usize,
    /// Its lower bound so far.
    pub lb: f64,
    /// The most splits a tree below the upper bound can have.
    splits: usize,
    /// Whether it is solved relaxed (see [`AdditiveSearch::relaxed`]): the bound pass, where
    /// the depth binds.
    relaxed: bool,
}

impl Opened {
    /// Whether at most two levels matter (the depth-one and depth-two solvers' work).
    pub fn small(&self) -> bool {
        self.depth.min(self.splits) <= 2
    }
}

/// One split evaluated (see [`AdditiveSearch::evaluate`]).
pub(crate) struct Evaluated {
    /// The subtree under this split when it costs less than the upper bound.
    pub best: Option<Solution>,
    /// What is known of each child's optimum.
    pub left_known: f64,
    pub right_known: f64,
    /// A lower bound on the subtrees under this split.
    pub lb: f64,
}

/// What is known of a subproblem before searching it.
struct Known {
    leaf: f64,
    floor: f64,
    /// The depth that matters (0: a leaf).
    depth: usize,
    key_depth: usize,
}

impl<'a> AdditiveSearch<'a> {
    pub fn new(
        dp: Search<'a>,
        penalty: f64,
        switches: SparseSwitches,
        equivalence: Equivalence,
    ) -> AdditiveSearch<'a> {
        AdditiveSearch {
            dp,
            penalty,
            switches,
            equivalence,
            searches: Vec::new(),
            orders: Vec::new(),
            stats: SparseStats::default(),
            trajectory: Vec::new(),
            relaxed: false,
            relaxed_known: false,
        }
    }

    /// Another search of the same problem on `dp` (another thread's, sharing the cache).
    pub fn sibling(&self, dp: Search<'a>) -> AdditiveSearch<'a> {
        let mut sibling =
            AdditiveSearch::new(dp, self.penalty, self.switches, self.equivalence.clone());
        sibling.relaxed = self.relaxed;
        sibling.relaxed_known = self.relaxed_known;
        sibling
    }

    /// Whether the depth binds `view` at `depth`: whether trees of more levels could be
    /// better than its optimum at `depth` (the bound pass relaxes only those).
    pub fn depth_binds(&mut self, view: &View, depth: usize) -> bool {
        let known = self.know(view, depth);
        known.depth > 0 && known.key_depth != FREE_DEPTH
    }

    /// What a bound pass proved of `view` at one level less than `depth` (the previous pass
    /// visited it there): a lower bound on its trees of any depth (0 when none is known).
    fn relaxed_lb(&mut self, view: &View, depth: usize) -> f64 {
        if !self.relaxed_known || depth <= 1 || depth == FREE_DEPTH {
            return 0.0;
        }
        self.dp
            .cache
            .get(
                view.hash,
                depth - 1,
                RELAXED_BUDGET,
                self.dp.arena.list(view, 0),
            )
            .map_or(0.0, |known| {
                known.solution.map_or(known.lower_bound, |s| s.cost)
            })
    }

    /// Sets a new penalty for the next solve. The penalty may only grow: what the cache holds
    /// stays a valid lower bound.
    pub fn raise_penalty(&mut self, penalty: f64, scale: Scale) -> crate::Result<()> {
        self.penalty = penalty;
        self.dp.cost.set_split_cost(penalty, scale)?;
        self.dp.cache.for_each_value(CachedKnown::demote);
        Ok(())
    }

    fn tol(&self) -> f64 {
        self.dp.cost.tol
    }

    /// The equivalent-points floor of `view` (0 with the bound off, and for a view no feature
    /// splits, which has no sorted list to read: there, 0 is still a valid floor).
    pub fn floor(&mut self, view: &View) -> f64 {
        if self.switches.equivalence && view.n_features > 0 {
            self.equivalence.floor(self.dp.arena.list(view, 0))
        } else {
            0.0
        }
    }

    /// Bytes held besides the exact search's own.
    pub fn bytes(&self) -> usize {
        self.equivalence.bytes()
    }

    /// The most splits a tree of `view` can have and still beat `target`, given its floor.
    fn max_splits(&self, floor: f64, target: f64, size: usize) -> usize {
        if !self.switches.leaf_count || self.penalty <= 0.0 {
            return size.saturating_sub(1);
        }
        let room = (target - self.tol() - floor) / self.penalty;
        if room <= 0.0 {
            return 0;
        }
        // Splits s with floor + s P < target: s < room.
        let bound = room.ceil() - 1.0;
        if bound >= size as f64 {
            size.saturating_sub(1)
        } else {
            bound.max(0.0) as usize
        }
    }

    fn know(&mut self, view: &View, depth: usize) -> Known {
        let (leaf, _) = self.dp.cost.leaf(self.dp.arena.counts(view));
        if view.n_features == 0 || view.size <= 1 || depth == 0 {
            return Known {
                leaf,
                floor: leaf,
                depth: 0,
                key_depth: 0,
            };
        }
        let floor = if self.switches.equivalence {
            self.equivalence.floor(self.dp.arena.list(view, 0))
        } else {
            0.0
        };
        // No tree worth its splits has more than this many of them.
        let useful = self.max_splits(floor, leaf, view.size);
        let key_depth = if depth >= useful { FREE_DEPTH } else { depth };
        Known {
            leaf,
            floor,
            depth: depth.min(useful.max(1)),
            key_depth,
        }
    }

    fn leaf_outcome(&self, leaf: f64, ub: f64) -> Outcome {
        Outcome {
            lb: leaf,
            solution: self.dp.cost.improves(leaf, ub).then_some(Solution {
                cost: leaf,
                split: None,
            }),
        }
    }

    /// The optimal subtree of `view` of at most `depth` levels if it costs less than `ub`;
    /// otherwise a lower bound at or above `ub`.
    pub fn solve(&mut self, view: &View, depth: usize, ub: f64) -> Outcome {
        let opened = match self.open(view, depth, ub) {
            Ok(opened) => opened,
            Err(outcome) => return outcome,
        };
        let outcome = if opened.small() {
            self.solve_small(view, &opened, ub)
        } else {
            // Below a subproblem the depth does not bind, the bound pass is the exact search.
            let relaxed = self.relaxed;
            self.relaxed = opened.relaxed;
            let outcome = self.solve_general(view, opened.depth, opened.leaf, ub, opened.lb);
            self.relaxed = relaxed;
            outcome
        };
        self.close(view, &opened, outcome)
    }

    /// What the bounds and the cache settle of a subproblem before any split is searched:
    /// `Err` with its answer, or `Ok` with what the search needs.
    pub(crate) fn open(
        &mut self,
        view: &View,
        depth: usize,
        ub: f64,
    ) -> std::result::Result<Opened, Outcome> {
        self.stats.subproblems += 1;
        let tol = self.tol();
        let p = self.penalty;
        let known = self.know(view, depth);
        let leaf = known.leaf;
        if known.depth == 0 {
            return Err(self.leaf_outcome(leaf, ub));
        }
        // Incremental progress and equivalent points: no split can beat this leaf.
        if self.switches.equivalence && leaf <= known.floor + p + tol {
            self.stats.leaf_optimal += 1;
            return Err(self.leaf_outcome(leaf, ub));
        }
        let mut lb = leaf.min(known.floor + p);
        let relaxed = self.relaxed && known.key_depth != FREE_DEPTH;
        let budget = if relaxed {
            RELAXED_BUDGET
        } else {
            SPARSE_BUDGET
        };
        if let Some(cached) = self.dp.cache.get(
            view.hash,
            known.key_depth,
            budget,
            self.dp.arena.list(view, 0),
        ) {
            if let Some(solution) = cached.solution {
                self.stats.cache_hits += 1;
                return Err(Outcome {
                    lb: solution.cost,
                    solution: self.dp.cost.improves(solution.cost, ub).then_some(solution),
                });
            }
            lb = lb.max(cached.lower_bound);
        }
        lb = lb.max(self.relaxed_lb(view, known.key_depth));
        if lb >= ub - tol {
            self.stats.bound_pruned += 1;
            return Err(Outcome { lb, solution: None });
        }
        let splits = self.max_splits(known.floor, ub.min(leaf), view.size);
        Ok(Opened {
            leaf,
            floor: known.floor,
            depth: known.depth,
            key_depth: known.key_depth,
            lb,
            splits,
            relaxed,
        })
    }

    /// A subproblem the leaf-count bound limits to two levels: the exact search's depth-one
    /// scan and depth-two bisection.
    pub(crate) fn solve_small(&mut self, view: &View, opened: &Opened, ub: f64) -> Outcome {
        self.stats.depth_two_calls += 1;
        let splits = opened.splits;
        let levels = opened.depth.min(splits);
        let out = self.dp.solve(view, levels, splits.min(3), ub);
        if opened.relaxed {
            // Trees beyond the ones searched have more than `levels` splits.
            let beyond = opened.floor + (levels + 1) as f64 * self.penalty;
            let value = out.solution.map_or(out.lb, |s| s.cost).min(beyond);
            return Outcome {
                lb: value.max(opened.lb),
                solution: self.dp.cost.improves(value, ub).then_some(Solution {
                    cost: value,
                    split: None,
                }),
            };
        }
        // Trees beyond the ones searched have more than `splits` splits.
        let beyond = opened.floor + (splits + 1) as f64 * self.penalty;
        Outcome {
            lb: out.lb.min(beyond).max(opened.lb),
            solution: out.solution,
        }
    }

    /// Caches the answer of an opened subproblem (unless the search was stopped meanwhile).
    pub(crate) fn close(&mut self, view: &View, opened: &Opened, outcome: Outcome) -> Outcome {
        if self.dp.deadline.aborted() {
            return outcome;
        }
        let rows = self.dp.arena.list(view, 0);
        let known = match outcome.solution {
            Some(solution) => CachedKnown::optimum(solution),
            None => CachedKnown::bound(outcome.lb),
        };
        let budget = if opened.relaxed {
            RELAXED_BUDGET
        } else {
            SPARSE_BUDGET
        };
        self.dp
            .cache
            .put(view.hash, opened.key_depth, budget, rows, known);
        outcome
    }

    /// A lower bound on a child before solving it: its leaf when it cannot split, else what
    /// the cache knows, and at least the cheaper of its leaf and one split.
    fn known_lb(&mut self, child: &View, depth: usize) -> f64 {
        let (leaf, _) = self.dp.cost.leaf(self.dp.arena.counts(child));
        if child.n_features == 0 || child.size <= 1 || depth == 0 {
            return leaf;
        }
        let mut lb = leaf.min(self.penalty);
        if !self.switches.lookahead {
            return lb;
        }
        let here = if self.relaxed {
            RELAXED_BUDGET
        } else {
            SPARSE_BUDGET
        };
        for (key_depth, budget) in [(depth, here), (FREE_DEPTH, SPARSE_BUDGET)] {
            if let Some(cached) =
                self.dp
                    .cache
                    .get(child.hash, key_depth, budget, self.dp.arena.list(child, 0))
            {
                lb = lb.max(cached.solution.map_or(cached.lower_bound, |s| s.cost));
                break;
            }
        }
        lb.max(self.relaxed_lb(child, depth))
    }

    fn ensure_level(&mut self, level: usize) {
        while self.searches.len() <= level {
            self.searches.push(SplitSearch::default());
            self.orders.push(Vec::new());
        }
    }

    /// Three levels or more: every feature, its positions by bisection, both children solved
    /// recursively.
    fn solve_general(&mut self, view: &View, depth: usize, leaf: f64, ub: f64, lb: f64) -> Outcome {
        let tol = self.tol();
        let mut ub = ub;
        let mut best = None;
        if self.dp.cost.improves(leaf, ub) {
            best = Some(Solution {
                cost: leaf,
                split: None,
            });
            ub = leaf;
        }
        let level = view.level;
        self.ensure_level(level);
        let mut search = std::mem::take(&mut self.searches[level]);
        let mut order = std::mem::take(&mut self.orders[level]);
        self.dp.feature_order(view, &mut order);
        let mut candidates_lb = f64::INFINITY;
        let bisect = self.switches.similar_support;
        'features: for &FeatureRank { index, .. } in &order {
            search.reset(
                self.dp.arena.list(view, index),
                self.dp.data.row_counts(),
                &self.dp.cost,
                bisect,
                true,
                0,
                None,
                // No leaf minimum: no slack to count.
                [usize::MAX; 2],
            );
            while let Some(candidate) = search.next(ub, &self.dp.cost) {
                if self.dp.deadline.reached() {
                    break 'features;
                }
                let Some(value) = self.evaluate(
                    view,
                    depth,
                    index,
                    candidate.position,
                    (candidate.left_lb, candidate.right_lb),
                    ub,
                ) else {
                    break 'features;
                };
                if let Some(found) = value.best {
                    best = Some(found);
                    ub = found.cost;
                    if level == 0 && !self.relaxed {
                        self.trajectory.push(DpProgress {
                            seconds: self.dp.deadline.seconds(),
                            incumbent: found.cost,
                            bound: self.dp.global_lb,
                        });
                    }
                }
                search.report(
                    &candidate,
                    value.left_known,
                    value.right_known,
                    value.lb,
                    None,
                );
                candidates_lb = candidates_lb.min(value.lb);
                if best.is_some_and(|b: Solution| b.cost <= lb + tol) {
                    break 'features;
                }
            }
            candidates_lb = candidates_lb.min(search.pruned_lb);
            self.stats.interval_pruned += search.pruned;
        }
        self.searches[level] = search;
        self.orders[level] = order;
        if self.dp.deadline.aborted() {
            return Outcome { lb, solution: best };
        }
        match best {
            Some(solution) => Outcome {
                lb: solution.cost,
                solution: Some(solution),
            },
            None => Outcome {
                lb: lb.max(leaf.min(candidates_lb)),
                solution: None,
            },
        }
    }

    /// The split of `view` on its feature `index` at `position` (the rows before it go left),
    /// its children of at most `depth - 1` levels solved below what `ub` leaves them, with the
    /// one-step lookahead first (`bounds`: the split search's bounds on the children). `None`
    /// if the search was stopped meanwhile.
    pub(crate) fn evaluate(
        &mut self,
        view: &View,
        depth: usize,
        index: usize,
        position: usize,
        bounds: (f64, f64),
        ub: f64,
    ) -> Option<Evaluated> {
        let p = self.penalty;
        let tol = self.tol();
        self.stats.splits += 1;
        let feature = self.dp.arena.feature(view, index);
        let list = self.dp.arena.list(view, index);
        let bin = split_bin(list[position - 1].bin, list[position].bin);
        let (left, right) = self.dp.arena.split(view, index, position);
        let left_lb = bounds.0.max(self.known_lb(&left, depth - 1));
        let right_lb = bounds.1.max(self.known_lb(&right, depth - 1));
        let (mut left_known, mut right_known) = (left_lb, right_lb);
        if left_lb + right_lb + p >= ub - tol {
            self.stats.lookahead_pruned += 1;
            return Some(Evaluated {
                best: None,
                left_known,
                right_known,
                lb: left_lb + right_lb + p,
            });
        }
        let left_first = left.size >= right.size;
        let (first, first_lb, second, second_lb) = if left_first {
            (left, left_lb, right, right_lb)
        } else {
            (right, right_lb, left, left_lb)
        };
        let first_out = self.solve(&first, depth - 1, ub - p - second_lb);
        if self.dp.deadline.aborted() {
            return None;
        }
        let Some(first_solution) = first_out.solution else {
            let bound = first_out.lb.max(first_lb);
            if left_first {
                left_known = left_known.max(bound);
            } else {
                right_known = right_known.max(bound);
            }
            return Some(Evaluated {
                best: None,
                left_known,
                right_known,
                lb: bound + second_lb + p,
            });
        };
        let first_cost = first_solution.cost;
        let second_out = self.solve(&second, depth - 1, ub - p - first_cost);
        if self.dp.deadline.aborted() {
            return None;
        }
        let second_value = second_out
            .solution
            .map_or(second_out.lb.max(second_lb), |s| s.cost);
        let (l, r) = if left_first {
            (first_cost, second_value)
        } else {
            (second_value, first_cost)
        };
        left_known = left_known.max(l);
        right_known = right_known.max(r);
        let total = p + first_cost + second_value;
        let best = (second_out.solution.is_some() && self.dp.cost.improves(total, ub)).then_some(
            Solution {
                cost: total,
                split: Some(SplitChoice {
                    feature,
                    bin,
                    left_budget: 0,
                    right_budget: 0,
                    left_cost: l,
                    right_cost: r,
                }),
            },
        );
        Some(Evaluated {
            best,
            left_known,
            right_known,
            lb: total,
        })
    }
}
