//! What the bi-objective search reports: the front with one tree per point
//! ([`ParetoOutcome`], [`FrontTree`]), a lower-bound front when it was stopped, its counters
//! ([`ParetoStats`]), and the best point for a metric.
//!
//! Points count rows; on rows repeated by their weights' multiples of one unit per class
//! (see [`crate::data::Dataset::factored_by_class`]) they count units, and
//! [`ParetoOutcome::units`] turns them into weights: the metrics and the weighted errors
//! ([`ParetoOutcome::errors`]) are the weighted data's.

use serde::{Deserialize, Serialize};

use crate::score::{ClassUnits, Confusion, Errors, Metric, Point};
use crate::search_core::Termination as DpTermination;
use crate::tree::Tree;

/// Counters of one search.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ParetoStats {
    /// Subproblems (row set, depth, split budget) entered.
    pub subproblems: u64,
    /// Subproblems answered by the cache.
    pub cache_hits: u64,
    /// Entries in the cache at the end.
    pub cache_entries: u64,
    /// Entries evicted to keep the cache under its memory cap.
    pub cache_evictions: u64,
    /// Estimated peak memory of the cache and the search's buffers, in bytes.
    pub peak_memory_bytes: u64,
    /// Subproblems of depth one or two solved by the specialised solver.
    pub depth_two_calls: u64,
    /// Root splits evaluated inside the specialised solver.
    pub depth_two_positions: u64,
    /// Intervals of those root splits settled by their bound without evaluating any.
    pub depth_two_intervals_pruned: u64,
    /// Splits of subproblems of depth three or more whose children were solved.
    pub splits: u64,
    /// Intervals of split positions settled by their bound without solving any.
    pub intervals_pruned: u64,
    /// Split positions in those intervals.
    pub positions_pruned: u64,
    /// Splits whose second child was not solved, its bound showing it useless.
    pub second_children_pruned: u64,
    /// Subproblems skipped because a cached lower bound lay in the region already covered.
    pub bound_pruned: u64,
    /// Points found whose trees were not rebuilt within [`crate::pareto::REBUILD_GRACE`] of the
    /// limit, and are left out of the front.
    #[serde(default)]
    pub trees_not_rebuilt: u64,
}

impl ParetoStats {
    /// Adds the counters of another thread of the same search (the cache's are shared).
    pub(crate) fn absorb(&mut self, other: &ParetoStats) {
        self.subproblems += other.subproblems;
        self.cache_hits += other.cache_hits;
        self.peak_memory_bytes = self.peak_memory_bytes.max(other.peak_memory_bytes);
        self.depth_two_calls += other.depth_two_calls;
        self.splits += other.splits;
        self.intervals_pruned += other.intervals_pruned;
        self.positions_pruned += other.positions_pruned;
        self.second_children_pruned += other.second_children_pruned;
        self.bound_pruned += other.bound_pruned;
    }
}

/// One point of the front and a tree that reaches it.
#[derive(Debug, Clone)]
pub struct FrontTree {
    pub point: Point,
    /// The tree's split nodes.
    pub splits: usize,
    /// Whether the point is proven to be on the front.
    pub proven: bool,
    /// The tree, with its training counts; leaves predict class 1 (positive) or 0.
    pub tree: Tree,
}

/// The result of a search.
#[derive(Debug, Clone)]
pub struct ParetoOutcome {
    /// Positive (class 1) and negative training rows (units of [`ParetoOutcome::units`]).
    pub positives: u64,
    pub negatives: u64,
    /// The weight of one counted row of each class ([`ClassUnits::ONE`] when rows count as
    /// themselves).
    pub units: ClassUnits,
    /// The nondominated points found, by increasing false positives, each with its tree: the
    /// Pareto front when the search finished.
    pub front: Vec<FrontTree>,
    /// A lower-bound front: every tree's point is weakly dominated by one of these. Equal to the
    /// front's points when the search finished.
    pub lower_bound: Vec<Point>,
    pub termination: DpTermination,
    /// Wall-clock seconds of the whole search (trees included).
    pub seconds: f64,
    pub stats: ParetoStats,
}

impl ParetoOutcome {
    /// Whether the front is complete (proven).
    pub fn is_complete(&self) -> bool {
        self.termination == DpTermination::Optimal
    }

    /// The confusion counts of `point` on the training rows, in weight.
    pub fn confusion(&self, point: Point) -> Confusion {
        Confusion::of(point, self.positives, self.negatives).scaled(self.units)
    }

    /// The weighted errors of `point`.
    pub fn errors(&self, point: Point) -> Errors {
        self.units.errors(point)
    }

    /// The value of `metric` at `point`.
    pub fn value(&self, metric: Metric, point: Point) -> f64 {
        metric.value(self.confusion(point))
    }

    /// The front's best point for `metric`: the highest value, ties to the fewest errors (in
    /// weight), then the fewest false positives.
    pub fn best(&self, metric: Metric) -> Option<&FrontTree> {
        self.front.iter().min_by(|a, b| {
            let (va, vb) = (self.value(metric, a.point), self.value(metric, b.point));
            let (ea, eb) = (self.errors(a.point), self.errors(b.point));
            vb.total_cmp(&va)
                .then(ea.total().total_cmp(&eb.total()))
                .then(a.point.fp.cmp(&b.point.fp))
        })
    }

    /// The most `metric` any tree can reach: the best value over the lower-bound front (every
    /// metric is non-increasing in both error counts). Equal to the best tree's value when the
    /// front is complete.
    pub fn bound(&self, metric: Metric) -> f64 {
        self.lower_bound
            .iter()
            .map(|&p| self.value(metric, p))
            .fold(f64::NEG_INFINITY, f64::max)
    }
}
