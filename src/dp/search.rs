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

use crate::dp::binned::Binned;
use crate::dp::cache::{Cache, Solution, SplitChoice};
use crate::dp::cost::CostModel;
use crate::dp::deadline::Deadline;
use crate::dp::depth_one::{self, ScanCounts, ScanSide, SideSplit};
use crate::dp::intervals::{Candidate, SplitSearch};
use crate::dp::similarity::Similarity;
use crate::dp::view::{Arena, View};
use crate::dp::{BoundSwitches, DpProgress, DpStats};

/// What solving a subproblem below an upper bound established.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Outcome {
    /// A lower bound on the subproblem's optimum (its cost when `solution` is set).
    pub lb: f64,
    /// The optimum, when it lies below the upper bound. After a stop, the best found.
    pub solution: Option<Solution>,
}

/// The number of split nodes of a complete tree of depth `depth`.
pub(crate) fn full(depth: usize) -> usize {
    (1usize << depth.min(usize::BITS as usize - 2)) - 1
}

/// The search's state: data, cost model, buffers, cache, limits and counters.
pub(crate) struct Search<'a> {
    pub data: &'a Binned,
    pub cost: CostModel,
    pub switches: BoundSwitches,
    pub arena: Arena,
    pub cache: Cache,
    similarity: Similarity,
    /// Per row: `2 * label + side` for a depth-two scan.
    codes: Vec<u16>,
    /// Per row: `2 * label` (every row on side 0).
    label_codes: Vec<u16>,
    counts: ScanCounts,
    /// Per arena level: the split search of the subproblem at that level.
    searches: Vec<SplitSearch>,
    /// Per arena level: feature order and budget distributions.
    orders: Vec<Vec<(f64, usize)>>,
    distributions: Vec<Vec<(usize, usize)>>,
    pub deadline: Deadline,
    pub stats: DpStats,
    /// Improvements of the root's incumbent.
    pub trajectory: Vec<DpProgress>,
    /// Lower bound reported with trajectory points.
    pub global_lb: f64,
}

impl<'a> Search<'a> {
    pub fn new(
        data: &'a Binned,
        cost: CostModel,
        switches: BoundSwitches,
        cache_bytes: usize,
        deadline: Deadline,
    ) -> Search<'a> {
        // Bounds that rely on a subtree costing no less on more rows need a leaf minimum of one.
        let monotone = cost.min_leaf <= 1;
        let switches = BoundSwitches {
            intervals: switches.intervals && monotone,
            similarity: switches.similarity && monotone,
            ..switches
        };
        let k = data.n_classes;
        Search {
            data,
            switches,
            arena: Arena::new(data),
            cache: Cache::new(data.n_rows, cache_bytes),
            similarity: Similarity::new(data, &cost),
            codes: vec![0; data.n_rows],
            label_codes: data.labels.iter().map(|&l| 2 * l).collect(),
            counts: ScanCounts::new(k),
            searches: Vec::new(),
            orders: Vec::new(),
            distributions: Vec::new(),
            deadline,
            stats: DpStats::default(),
            trajectory: Vec::new(),
            global_lb: 0.0,
            cost,
        }
    }

    fn ensure_level(&mut self, level: usize) {
        while self.searches.len() <= level {
            self.searches.push(SplitSearch::default());
            self.orders.push(Vec::new());
            self.distributions.push(Vec::new());
        }
    }

    /// The depth and budget that matter for `view`: no more splits than its rows can fill
    /// (each leaf needs `min_leaf` rows) or its depth can hold, no deeper than its splits.
    pub fn normalize(&self, view: &View, depth: usize, budget: usize) -> (usize, usize) {
        if view.n_features == 0 {
            return (0, 0);
        }
        let max_leaves = view.size / self.cost.min_leaf as usize;
        let budget = budget.min(full(depth)).min(max_leaves.saturating_sub(1));
        (depth.min(budget), budget)
    }

    fn note_memory(&mut self) {
        let bytes = (self.cache.bytes() + self.arena.bytes() + self.similarity.bytes()) as u64;
        self.stats.peak_memory_bytes = self.stats.peak_memory_bytes.max(bytes);
    }

    fn leaf_outcome(&self, leaf_cost: f64, ub: f64) -> Outcome {
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
        self.stats.subproblems += 1;
        let (depth, budget) = self.normalize(view, depth, budget);
        let (leaf_cost, _) = self.cost.leaf(self.arena.counts(view));
        if depth == 0 {
            return self.leaf_outcome(leaf_cost, ub);
        }
        if depth == 1 {
            return self.solve_depth_one(view, leaf_cost, ub);
        }
        let mut lb = 0.0;
        let known = self
            .cache
            .get(view.hash, depth, budget, self.arena.list(view, 0));
        if let Some(known) = known {
            if let Some(solution) = known.solution {
                self.stats.cache_hits += 1;
                return Outcome {
                    lb: solution.cost,
                    solution: self.cost.improves(solution.cost, ub).then_some(solution),
                };
            }
            if self.switches.infeasibility {
                lb = known.lower_bound;
                if lb >= ub - self.cost.tol {
                    self.stats.bound_pruned += 1;
                    return Outcome { lb, solution: None };
                }
            }
        }
        if self.switches.similarity {
            let similar = self.similarity.bound(&self.arena, view, depth, budget);
            if similar > lb {
                lb = similar;
                if lb >= ub - self.cost.tol {
                    self.stats.similarity_pruned += 1;
                    return Outcome { lb, solution: None };
                }
            }
        }
        let outcome = if depth == 2 {
            self.solve_depth_two(view, budget, leaf_cost, ub, lb)
        } else {
            self.solve_general(view, depth, budget, leaf_cost, ub, lb)
        };
        if self.deadline.aborted() {
            return outcome;
        }
        let rows = self.arena.list(view, 0);
        match outcome.solution {
            Some(solution) => self
                .cache
                .put_solution(view.hash, depth, budget, rows, solution),
            None if self.switches.infeasibility => self
                .cache
                .put_bound(view.hash, depth, budget, rows, outcome.lb),
            None => {}
        }
        if self.switches.similarity {
            let value = outcome.solution.map_or(outcome.lb, |s| s.cost);
            self.similarity
                .remember(&self.arena, view, depth, budget, value);
        }
        self.note_memory();
        outcome
    }

    /// Depth one: the leaf or the best single split.
    fn solve_depth_one(&mut self, view: &View, leaf_cost: f64, ub: f64) -> Outcome {
        self.stats.depth1_calls += 1;
        let target = leaf_cost.min(ub);
        let counts = self.arena.counts(view);
        for (class, &count) in counts.iter().enumerate() {
            self.counts.totals[2 * class] = count;
            self.counts.totals[2 * class + 1] = 0;
        }
        let mut sides = [ScanSide::new(view.size as u32, target)];
        let arena = &self.arena;
        depth_one::scan(
            (0..view.n_features).map(|i| (arena.feature(view, i), arena.list(view, i))),
            &self.label_codes,
            &mut sides,
            &mut self.counts,
            &self.cost,
            self.switches.depth_one_skip,
        );
        if let Some(split) = sides[0].best {
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

    /// Depth two with a budget of two or three splits: the bisection over the first split's
    /// positions, both children solved by one depth-one scan.
    fn solve_depth_two(
        &mut self,
        view: &View,
        budget: usize,
        leaf_cost: f64,
        ub: f64,
        lb: f64,
    ) -> Outcome {
        self.stats.depth2_calls += 1;
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
        let mut candidates_lb = f64::INFINITY;
        let k = self.data.n_classes;
        let m = view.size;
        let total_counts: Vec<u32> = self.arena.counts(view).to_vec();
        let mut left_counts = vec![0u32; k];
        let mut right_counts = vec![0u32; k];
        'features: for index in 0..view.n_features {
            let feature = self.arena.feature(view, index);
            search.reset(
                self.arena.list(view, index),
                &self.data.labels,
                &self.cost,
                self.switches.intervals,
                true,
            );
            while let Some(candidate) = search.next(ub, &self.cost) {
                if self.deadline.reached() {
                    break 'features;
                }
                self.stats.depth2_splits += 1;
                let position = candidate.position;
                let list = self.arena.list(view, index);
                left_counts.iter_mut().for_each(|c| *c = 0);
                for e in &list[..position] {
                    let label = self.data.labels[e.row as usize];
                    self.codes[e.row as usize] = 2 * label;
                    left_counts[label as usize] += 1;
                }
                for e in &list[position..] {
                    self.codes[e.row as usize] = 2 * self.data.labels[e.row as usize] + 1;
                }
                let bin = split_bin(list[position - 1].bin, list[position].bin);
                for class in 0..k {
                    right_counts[class] = total_counts[class] - left_counts[class];
                    self.counts.totals[2 * class] = left_counts[class];
                    self.counts.totals[2 * class + 1] = right_counts[class];
                }
                let (left_leaf, _) = self.cost.leaf(&left_counts);
                let (right_leaf, _) = self.cost.leaf(&right_counts);
                let (left_target, right_target) =
                    self.depth_two_targets(budget, ub, &candidate, left_leaf, right_leaf);
                let mut sides = [
                    ScanSide::new(position as u32, left_leaf.min(left_target)),
                    ScanSide::new((m - position) as u32, right_leaf.min(right_target)),
                ];
                let arena = &self.arena;
                depth_one::scan(
                    (0..view.n_features).map(|i| (arena.feature(view, i), arena.list(view, i))),
                    &self.codes,
                    &mut sides,
                    &mut self.counts,
                    &self.cost,
                    self.switches.depth_one_skip,
                );
                let left = side_value(left_leaf, left_target, &sides[0], sc);
                let right = side_value(right_leaf, right_target, &sides[1], sc);
                // The best combination the budget allows: two depth-one children, or one
                // depth-one child beside a leaf.
                let (total, exact, left_budget, right_budget) = if budget >= 3 {
                    (
                        sc + left.value + right.value,
                        left.exact && right.exact,
                        1,
                        1,
                    )
                } else {
                    let with_left = sc + left.value + right_leaf;
                    let with_right = sc + left_leaf + right.value;
                    if with_left <= with_right {
                        (with_left, left.exact, 1, 0)
                    } else {
                        (with_right, right.exact, 0, 1)
                    }
                };
                if exact && self.cost.improves(total, ub) {
                    let left_cost = if left_budget == 1 {
                        left.value
                    } else {
                        left_leaf
                    };
                    let right_cost = if right_budget == 1 {
                        right.value
                    } else {
                        right_leaf
                    };
                    best = Some(Solution {
                        cost: total,
                        split: Some(SplitChoice {
                            feature,
                            bin,
                            left_budget,
                            right_budget,
                            left_cost,
                            right_cost,
                        }),
                    });
                    ub = total;
                }
                search.report(&candidate, left.value, right.value, total);
                candidates_lb = candidates_lb.min(total);
                if best.is_some_and(|b| b.cost <= floor + tol) {
                    break 'features;
                }
            }
            candidates_lb = candidates_lb.min(search.pruned_lb);
            self.stats.interval_pruned += search.pruned;
        }
        self.searches[level] = search;
        finish(best, lb, leaf_cost, candidates_lb, self.deadline.aborted())
    }

    /// The targets of the two depth-one scans of a depth-two candidate: what each child must
    /// beat for the split to beat `ub`.
    fn depth_two_targets(
        &self,
        budget: usize,
        ub: f64,
        candidate: &Candidate,
        left_leaf: f64,
        right_leaf: f64,
    ) -> (f64, f64) {
        let room = ub - self.cost.split_cost;
        if !self.switches.upper_bound {
            return (room, room);
        }
        if budget >= 3 {
            (room - candidate.right_lb, room - candidate.left_lb)
        } else {
            (room - right_leaf, room - left_leaf)
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
        self.feature_order(view, &mut order);
        let mut candidates_lb = f64::INFINITY;
        'features: for &(_, index) in &order {
            let feature = self.arena.feature(view, index);
            search.reset(
                self.arena.list(view, index),
                &self.data.labels,
                &self.cost,
                self.switches.intervals,
                per_child,
            );
            while let Some(candidate) = search.next(ub, &self.cost) {
                if self.deadline.reached() {
                    break 'features;
                }
                self.stats.general_splits += 1;
                let list = self.arena.list(view, index);
                let position = candidate.position;
                let bin = split_bin(list[position - 1].bin, list[position].bin);
                let (left, right) = self.arena.split(view, index, position);
                let mut split_lb = f64::INFINITY;
                let (mut left_known, mut right_known) = (candidate.left_lb, candidate.right_lb);
                for &(left_budget, right_budget) in &distributions {
                    let left_lb =
                        self.known_lb(&left, depth - 1, left_budget, per_child, &candidate, true);
                    let right_lb = self.known_lb(
                        &right,
                        depth - 1,
                        right_budget,
                        per_child,
                        &candidate,
                        false,
                    );
                    if per_child {
                        left_known = left_known.max(left_lb);
                        right_known = right_known.max(right_lb);
                    }
                    if left_lb + right_lb + sc >= ub - tol {
                        self.stats.lookahead_pruned += 1;
                        split_lb = split_lb.min(left_lb + right_lb + sc);
                        continue;
                    }
                    // The larger child first: it is the likelier to exhaust the bound.
                    let left_first = left.size >= right.size;
                    let (first, first_budget, first_lb, second, second_budget, second_lb) =
                        if left_first {
                            (left, left_budget, left_lb, right, right_budget, right_lb)
                        } else {
                            (right, right_budget, right_lb, left, left_budget, left_lb)
                        };
                    let room = ub - sc;
                    let first_ub = if self.switches.upper_bound {
                        room - second_lb
                    } else {
                        room
                    };
                    let first_out = self.solve(&first, depth - 1, first_budget, first_ub);
                    if self.deadline.aborted() {
                        break 'features;
                    }
                    let Some(first_solution) = first_out.solution else {
                        let bound = first_out.lb.max(first_lb);
                        split_lb = split_lb.min(bound + second_lb + sc);
                        if per_child {
                            if left_first {
                                left_known = left_known.max(bound);
                            } else {
                                right_known = right_known.max(bound);
                            }
                        }
                        continue;
                    };
                    let first_cost = first_solution.cost;
                    let second_ub = if self.switches.upper_bound {
                        room - first_cost
                    } else {
                        room
                    };
                    let second_out = self.solve(&second, depth - 1, second_budget, second_ub);
                    if self.deadline.aborted() {
                        break 'features;
                    }
                    let second_value = second_out
                        .solution
                        .map_or(second_out.lb.max(second_lb), |s| s.cost);
                    if per_child {
                        let (l, r) = if left_first {
                            (first_cost, second_value)
                        } else {
                            (second_value, first_cost)
                        };
                        left_known = left_known.max(l);
                        right_known = right_known.max(r);
                    }
                    let total = sc + first_cost + second_value;
                    split_lb = split_lb.min(total);
                    let Some(second_solution) = second_out.solution else {
                        continue;
                    };
                    if self.cost.improves(total, ub) {
                        let (left_cost, right_cost) = if left_first {
                            (first_cost, second_solution.cost)
                        } else {
                            (second_solution.cost, first_cost)
                        };
                        best = Some(Solution {
                            cost: total,
                            split: Some(SplitChoice {
                                feature,
                                bin,
                                left_budget: left_budget as u32,
                                right_budget: right_budget as u32,
                                left_cost,
                                right_cost,
                            }),
                        });
                        ub = total;
                        if level == 0 {
                            self.trajectory.push(DpProgress {
                                seconds: self.deadline.seconds(),
                                incumbent: total,
                                bound: self.global_lb,
                            });
                        }
                    }
                }
                search.report(&candidate, left_known, right_known, split_lb);
                candidates_lb = candidates_lb.min(split_lb);
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

    /// A lower bound on a child's cost before solving it: its leaf cost when it can only be
    /// a leaf, the bound its solved neighbours give, and (with lookahead) the cache's.
    fn known_lb(
        &mut self,
        child: &View,
        depth: usize,
        budget: usize,
        per_child: bool,
        candidate: &Candidate,
        is_left: bool,
    ) -> f64 {
        let (depth, budget) = self.normalize(child, depth, budget);
        if depth == 0 {
            return self.cost.leaf(self.arena.counts(child)).0;
        }
        let mut lb: f64 = 0.0;
        if per_child {
            lb = if is_left {
                candidate.left_lb
            } else {
                candidate.right_lb
            };
        }
        if self.switches.lookahead && depth >= 2 {
            if let Some(known) =
                self.cache
                    .get(child.hash, depth, budget, self.arena.list(child, 0))
            {
                let cached = match known.solution {
                    Some(solution) => solution.cost,
                    None if self.switches.infeasibility => known.lower_bound,
                    None => 0.0,
                };
                lb = lb.max(cached);
            }
        }
        lb
    }

    /// The view's features, best weighted-Gini split first (ties: view order).
    pub(crate) fn feature_order(&mut self, view: &View, order: &mut Vec<(f64, usize)>) {
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
        for index in 0..view.n_features {
            left.iter_mut().for_each(|x| *x = 0.0);
            let list = self.arena.list(view, index);
            let mut best = f64::INFINITY;
            let mut left_weight = 0.0;
            for pair in list.windows(2) {
                let label = self.data.labels[pair[0].row as usize] as usize;
                let w = self.cost.weights[label];
                left[label] += w;
                left_weight += w;
                if pair[0].bin == pair[1].bin {
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
                best = best.min(impurity);
            }
            order.push((best, index));
        }
        order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }
}

/// The threshold bin between two adjacent bins of a sorted list: the middle candidate.
pub(crate) fn split_bin(low: u32, high: u32) -> u32 {
    low + (high - 1 - low) / 2
}

/// A depth-one scan's best split as a solution.
fn leaf_split(split: SideSplit) -> Solution {
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

/// What a depth-one scan proved about one side.
struct SideValue {
    /// The side's optimal depth-one cost if `exact`, else a lower bound on it.
    value: f64,
    exact: bool,
}

fn side_value(leaf: f64, target: f64, side: &ScanSide, split_cost: f64) -> SideValue {
    if let Some(split) = side.best {
        return SideValue {
            value: split.cost,
            exact: true,
        };
    }
    if leaf <= target {
        // No split beat the leaf.
        return SideValue {
            value: leaf,
            exact: true,
        };
    }
    SideValue {
        value: leaf.min(target.max(split_cost)),
        exact: false,
    }
}

/// The outcome of a searched node: its best if it found one, else the least bound of its
/// candidates (the leaf among them). After a stop, the best found with the a-priori bound.
fn finish(
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

/// Every way to share `budget - 1` splits between two children of depth `depth - 1`.
fn budget_distributions(depth: usize, budget: usize, out: &mut Vec<(usize, usize)>) {
    out.clear();
    let child_full = full(depth - 1);
    if budget > 2 * child_full {
        out.push((child_full, child_full));
        return;
    }
    let rest = budget - 1;
    let low = rest.saturating_sub(child_full);
    let high = rest.min(child_full);
    for left in low..=high {
        out.push((left, rest - left));
    }
}
