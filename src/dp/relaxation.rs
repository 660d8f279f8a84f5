//! The problem without the leaf minimum (and without the cap on the rows of a leaf), as a
//! bound on the problem with them.
//!
//! Under a cap, every tree the cap allows is a tree without it, and the optimum without it
//! (and without a leaf minimum) never falls when rows are added; what follows for the minimum
//! holds for the cap, and for both together: a relaxed tree that meets both is the optimum with
//! them. The similarity bounds, the split intervals and the depth-two search, which bound a row
//! set by its neighbours, are off under a cap ([`Search::similar_bounds`],
//! [`Search::bisects`]) and on again in the problem without it, which is most of the search
//! where the cap does not bind.
//!
//! Under a leaf minimum, a subproblem's optimum is at least its optimum without the minimum
//! (every tree the minimum allows is a tree without it), and that optimum never falls when rows
//! are added (bound 2 of [`super::leaf_minimum`] with a minimum of one). So the search solves
//! each child of depth two or more first without the minimum, below the same upper bound
//! ([`Search::solve_relaxing`]):
//! - if nothing is found below the bound, nothing is found with the minimum either;
//! - if the tree found meets the minimum, it is also the optimum with it;
//! - otherwise the child is solved with the minimum, bounded below by the tree found.
//!
//! The optima and bounds without the minimum then bound the neighbouring split positions with
//! no slack ([`super::intervals`]). Inside the depth-two search, whose children are single
//! splits, the scans that find a child's best split under the minimum also evaluate the splits
//! that break it ([`super::depth_one`]), which bounds the child's best split without it. Where the minimum does not bind, the search thus does the
//! work of the search without it, plus a check of the leaves of the trees it finds; where it
//! binds, these bounds are weaker and the slack of [`super::leaf_minimum`] takes over.
//!
//! The problem without the minimum has its own cache (half the memory cap) and similarity
//! memory; the search swaps them in, with a minimum of one, while it solves without the
//! minimum ([`Relaxation`]).

use std::sync::Arc;

use crate::dp::known::{Cache, Known, Solution};
use crate::dp::leaf_minimum::LeafSlack;
use crate::dp::search::{Outcome, Search};
use crate::dp::similarity::Similarity;
use crate::dp::subtree::rebuild_solution;
use crate::search_core::binned::Binned;
use crate::search_core::cost::CostModel;
use crate::search_core::subtree::SubTree;
use crate::search_core::view::View;

/// What the search swaps in to solve without the leaf minimum (and holds, meanwhile, of the
/// problem with it).
#[derive(Debug)]
pub(crate) struct Relaxation {
    cache: Arc<Cache>,
    similarity: Similarity,
    min_leaf: u32,
    max_leaf: u32,
    /// Whether the search is solving without the minimum.
    active: bool,
}

impl Relaxation {
    /// The relaxation of a search of `data` under `cost` (whose leaf minimum is above one),
    /// with `cache` for the problem without the minimum.
    pub fn new(data: &Binned, cost: &CostModel, cache: Arc<Cache>) -> Relaxation {
        let relaxed = CostModel {
            min_leaf: 1,
            max_leaf: u32::MAX,
            ..cost.clone()
        };
        Relaxation {
            cache,
            similarity: Similarity::new(data, &relaxed),
            min_leaf: 1,
            max_leaf: u32::MAX,
            active: false,
        }
    }

    /// The relaxation of another thread of the same search: the same cache, its own memory.
    pub fn share(&self, data: &Binned, cost: &CostModel) -> Relaxation {
        Relaxation::new(data, cost, Arc::clone(&self.cache))
    }

    /// The memory of its cache and similarity memory.
    pub fn bytes(&self) -> usize {
        self.cache.bytes() + self.similarity.bytes()
    }
}

impl Search<'_> {
    /// Whether children are solved first without the leaf minimum: there is one, and the
    /// search is not solving without it already.
    pub(super) fn relaxes(&self) -> bool {
        self.relaxation.as_ref().is_some_and(|r| !r.active)
    }

    /// Swaps the cache, similarity memory and leaf minimum of the problem with the minimum for
    /// those without it, or back.
    fn swap_relaxation(&mut self) {
        if let Some(relaxation) = self.relaxation.as_mut() {
            std::mem::swap(&mut self.cache, &mut relaxation.cache);
            std::mem::swap(&mut self.similarity, &mut relaxation.similarity);
            std::mem::swap(&mut self.cost.min_leaf, &mut relaxation.min_leaf);
            std::mem::swap(&mut self.cost.max_leaf, &mut relaxation.max_leaf);
            relaxation.active = !relaxation.active;
        }
    }

    /// Runs `work` on the problem without the leaf minimum.
    fn relaxed<T>(&mut self, work: impl FnOnce(&mut Self) -> T) -> T {
        self.swap_relaxation();
        let out = work(self);
        self.swap_relaxation();
        out
    }

    /// [`Search::solve`] for a child, and a lower bound on its optimum without the leaf
    /// minimum. Under a minimum, a child of depth two or more is solved first without it (see
    /// the module's documentation).
    pub(super) fn solve_relaxing(
        &mut self,
        view: &View,
        depth: usize,
        budget: usize,
        ub: f64,
    ) -> (Outcome, f64) {
        if !self.relaxes() {
            let outcome = self.solve(view, depth, budget, ub);
            return (outcome, outcome.lb);
        }
        let (kept_depth, kept_budget) = self.normalize(view, depth, budget);
        if kept_depth <= 1 {
            let outcome = self.solve(view, depth, budget, ub);
            let relaxed = self.relaxed_small(view, depth, budget, kept_depth, outcome.lb);
            return (outcome, relaxed);
        }
        self.stats.relaxed_solves += 1;
        let relaxed = self.relaxed(|search| search.solve(view, depth, budget, ub));
        let Some(found) = relaxed.solution else {
            return (relaxed, relaxed.lb);
        };
        if self.deadline.aborted() {
            return (
                Outcome {
                    lb: 0.0,
                    solution: None,
                },
                0.0,
            );
        }
        let rows = self.arena.list(view, 0);
        let key = self.key_depth(view, kept_depth);
        if let Some(known) = self.cache.get(view.hash, key, kept_budget, rows) {
            if let Some(solution) = known.solution {
                return (
                    Outcome {
                        lb: solution.cost,
                        solution: self.cost.improves(solution.cost, ub).then_some(solution),
                    },
                    found.cost,
                );
            }
        }
        if self.meets_leaf_limits(view, depth, budget, found) {
            self.stats.relaxed_met += 1;
            self.cache.put(
                view.hash,
                key,
                kept_budget,
                self.arena.list(view, 0),
                Known::optimum(found),
            );
            return (relaxed, found.cost);
        }
        (
            self.solve_above(view, depth, budget, ub, found.cost),
            found.cost,
        )
    }

    /// A lower bound without the leaf minimum on a child of `view` that the minimum keeps to
    /// `kept_depth` (0 or 1) and whose optimum with it is at least `value`.
    fn relaxed_small(
        &mut self,
        view: &View,
        depth: usize,
        budget: usize,
        kept_depth: usize,
        value: f64,
    ) -> f64 {
        if self.cost.caps_leaves() {
            // The bounds of the minimum's slack do not hold under a cap.
            return self.relaxed_known(view, depth, budget);
        }
        let leaf = self.cost.leaf(self.arena.counts(view)).0;
        let free_depth = self.relaxed(|search| search.normalize(view, depth, budget).0);
        match (kept_depth, free_depth) {
            (0, 0) => leaf,
            // One split: bound 2 of `leaf_minimum` with `b = 1`.
            (1, 1) => LeafSlack::new(&self.cost).grown_from(value, leaf, 1, 1),
            _ => self.relaxed_known(view, depth, budget),
        }
    }

    /// What the cache without the leaf minimum knows of `view` at `depth` and `budget`: a lower
    /// bound on its optimum without the minimum (0 when nothing is known).
    pub(super) fn relaxed_known(&mut self, view: &View, depth: usize, budget: usize) -> f64 {
        if !self.relaxes() || !self.switches.lookahead {
            return 0.0;
        }
        self.relaxed(|search| {
            let (depth, budget) = search.normalize(view, depth, budget);
            if depth == 0 {
                return search.cost.leaf(search.arena.counts(view)).0;
            }
            if depth < 2 {
                return 0.0;
            }
            let rows = search.arena.list(view, 0);
            let key = search.key_depth(view, depth);
            match search.cache.get(view.hash, key, budget, rows) {
                Some(Known {
                    solution: Some(solution),
                    ..
                }) => solution.cost,
                Some(known) if search.switches.infeasibility => known.lower_bound,
                _ => 0.0,
            }
        })
    }

    /// Whether the tree of `solution`, an optimum of `view` without the leaf minimum and the
    /// cap, meets them.
    fn meets_leaf_limits(
        &mut self,
        view: &View,
        depth: usize,
        budget: usize,
        solution: Solution,
    ) -> bool {
        let tree = self.relaxed(|search| rebuild_solution(search, view, depth, budget, solution));
        match tree {
            Ok(tree) => {
                self.smallest_leaf(view, &tree) >= self.cost.min_leaf as usize
                    && (!self.cost.caps_leaves()
                        || self.largest_leaf(view, &tree) <= self.cost.max_leaf as usize)
            }
            Err(_) => false,
        }
    }

    /// At least the most rows of `view` a leaf of `tree` receives (exactly, unless a split of
    /// the tree sends every row one way; `usize::MAX` when it is not one of the view's).
    fn largest_leaf(&mut self, view: &View, tree: &SubTree) -> usize {
        match tree {
            SubTree::Leaf => view.size,
            SubTree::Split {
                feature,
                bin,
                left,
                right,
            } => {
                let Some(index) = self.arena.feature_index(view, *feature) else {
                    return usize::MAX;
                };
                let position = self
                    .arena
                    .list(view, index)
                    .partition_point(|e| e.bin <= *bin);
                if position == 0 || position == view.size {
                    // Every row on one side: no leaf holds more than the view.
                    return view.size;
                }
                let (left_view, right_view) = self.arena.split(view, index, position);
                let left = self.largest_leaf(&left_view, left);
                left.max(self.largest_leaf(&right_view, right))
            }
        }
    }

    /// The fewest rows of `view` a leaf of `tree` receives.
    fn smallest_leaf(&mut self, view: &View, tree: &SubTree) -> usize {
        match tree {
            SubTree::Leaf => view.size,
            SubTree::Split {
                feature,
                bin,
                left,
                right,
            } => {
                let Some(index) = self.arena.feature_index(view, *feature) else {
                    return 0;
                };
                let position = self
                    .arena
                    .list(view, index)
                    .partition_point(|e| e.bin <= *bin);
                if position == 0 || position == view.size {
                    return 0;
                }
                let (left_view, right_view) = self.arena.split(view, index, position);
                let left = self.smallest_leaf(&left_view, left);
                if left < self.cost.min_leaf as usize {
                    return left;
                }
                left.min(self.smallest_leaf(&right_view, right))
            }
        }
    }
}
