//! What the exact search reports: what it found ([`DpOutcome`]) and how it got there
//! ([`DpStats`], and the incumbent/bound trajectory of the core's progress points).

use serde::{Deserialize, Serialize};

use crate::search_core::{Progress as DpProgress, Termination as DpTermination};
use crate::tree::Tree;

/// Counters of one search.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DpStats {
    /// Subproblems (row set, depth, split budget) entered.
    pub subproblems: u64,
    /// Subproblems answered by the cache (an optimum, or a lower bound at or above the upper
    /// bound).
    pub cache_hits: u64,
    /// Entries in the cache at the end.
    pub cache_entries: u64,
    /// Entries evicted to keep the cache under its memory cap.
    pub cache_evictions: u64,
    /// Estimated peak memory of the cache and the search's buffers, in bytes.
    pub peak_memory_bytes: u64,
    /// Subproblems of depth two solved by the specialised depth-two search.
    pub depth2_calls: u64,
    /// Root splits evaluated inside depth-two searches (each one scan of every feature).
    pub depth2_splits: u64,
    /// Depth-two subproblems solved by counts (of those in `depth2_calls`).
    #[serde(default)]
    pub depth2_counted: u64,
    /// Depth-one subproblems solved on their own (not inside a depth-two search).
    pub depth1_calls: u64,
    /// Scans of one child's rows on one feature inside depth-two searches.
    pub depth1_scans: u64,
    /// Splits evaluated in subproblems of depth three or more.
    pub general_splits: u64,
    /// Candidate splits skipped because their interval's bound reached the upper bound.
    pub interval_pruned: u64,
    /// Splits skipped because their children's cached lower bounds reached the upper bound.
    pub lookahead_pruned: u64,
    /// Subproblems pruned by a similarity lower bound.
    pub similarity_pruned: u64,
    /// Subproblems pruned by a stored lower bound.
    pub bound_pruned: u64,
    /// Under a leaf minimum: children first solved without it.
    #[serde(default)]
    pub relaxed_solves: u64,
    /// Under a leaf minimum: children whose optimum without it met it.
    #[serde(default)]
    pub relaxed_met: u64,
    /// Cost of the first incumbent (the greedy start, or the single leaf).
    pub initial_objective: f64,
    /// Seconds spent on the greedy start.
    pub greedy_seconds: f64,
    /// Limited-discrepancy passes run (begun) before the exact search.
    #[serde(default)]
    pub discrepancy_passes: u64,
    /// Seconds spent on them.
    #[serde(default)]
    pub discrepancy_seconds: f64,
    /// The largest allowance whose pass ran to its end (`None`: none did, or none ran). Its
    /// claim ([`crate::dp::discrepancy_claim`]): no tree whose splits at levels `0..depth - 2`
    /// are within that many discrepancies of each node's ranked candidates, with optimal
    /// depth-two subtrees below them, is better than the tree returned.
    #[serde(default)]
    pub discrepancy_proven: Option<u64>,
    /// The objective of the best tree when the passes ended (`None`: no pass ran).
    #[serde(default)]
    pub discrepancy_objective: Option<f64>,
    /// The units of work of the root (depth three or more) and of the jobs below it (depth four
    /// or more), and the shared cache's contention.
    #[serde(default)]
    pub root_work: crate::dp::RootWork,
}

impl DpStats {
    /// Adds the counters of another thread of the same search. Each thread's peak memory
    /// counts the cache they share, so the larger peak is kept (the other threads' own buffers
    /// are left out of it).
    pub(crate) fn absorb(&mut self, other: &DpStats) {
        self.subproblems += other.subproblems;
        self.cache_hits += other.cache_hits;
        self.depth2_calls += other.depth2_calls;
        self.depth2_splits += other.depth2_splits;
        self.depth2_counted += other.depth2_counted;
        self.depth1_calls += other.depth1_calls;
        self.depth1_scans += other.depth1_scans;
        self.general_splits += other.general_splits;
        self.interval_pruned += other.interval_pruned;
        self.lookahead_pruned += other.lookahead_pruned;
        self.similarity_pruned += other.similarity_pruned;
        self.bound_pruned += other.bound_pruned;
        self.relaxed_solves += other.relaxed_solves;
        self.relaxed_met += other.relaxed_met;
        self.peak_memory_bytes = self.peak_memory_bytes.max(other.peak_memory_bytes);
        self.root_work.absorb(&other.root_work);
    }
}

/// The result of a search.
#[derive(Debug, Clone)]
pub struct DpOutcome {
    /// The best tree found (at worst a single leaf), with its training counts.
    pub tree: Tree,
    /// Its objective (weighted errors plus split costs), re-evaluated by plain code.
    pub objective: f64,
    /// A proven lower bound on the optimum; equal to `objective` when optimal.
    pub lower_bound: f64,
    pub termination: DpTermination,
    /// Wall-clock seconds of the whole search (binning and tree building included).
    pub seconds: f64,
    pub stats: DpStats,
    /// Incumbent and bound over time: the start, every improvement, the end.
    pub trajectory: Vec<DpProgress>,
}

impl DpOutcome {
    /// Whether the tree is proven optimal.
    pub fn is_optimal(&self) -> bool {
        self.termination == DpTermination::Optimal
    }
}
