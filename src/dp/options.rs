//! How a search runs: time and memory limits, interruption, a known upper bound, and switches
//! that turn each pruning technique off for measurement ([`DpOptions`], [`BoundSwitches`]).

use serde::{Deserialize, Serialize};

use crate::budget::Budget;
use crate::error::{Error, Result};
use crate::search_core::{ProgressSink, DEFAULT_MEMORY_LIMIT_MB};

/// The pruning techniques of the search, each of which can be turned off to measure what it
/// brings. Turning any of them off never changes the optimum, only the time to prove it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoundSwitches {
    /// (A) Upper-bound propagation: a child only has to beat the parent's best minus what its
    /// sibling is known to cost (its lower bound before, its optimum after it is solved).
    /// Off: each child only has to beat the parent's best minus the split cost.
    pub upper_bound: bool,
    /// (B) Infeasibility bounds: a subproblem that found nothing below its upper bound stores
    /// that bound as a lower bound in the cache, and later calls are pruned by it.
    pub infeasibility: bool,
    /// (C) Lookahead: before solving the children of a split, the sum of their cached lower
    /// bounds is held against the upper bound; a failed node records the least lower bound of
    /// its candidates rather than the upper bound alone.
    pub lookahead: bool,
    /// (D) Similarity: a subproblem's lower bound from the last subproblems solved at the same
    /// depth, less the weight of the rows they do not share.
    pub similarity: bool,
    /// (E) Split intervals: the splits of one feature are searched by bisection, and the
    /// solved ones bound their neighbours (a few rows moved change a subtree's cost by at most
    /// their weight), so whole intervals of thresholds are skipped.
    pub intervals: bool,
    /// (F) Depth-one skipping: in a depth-one scan, a threshold whose cost is far above the
    /// target lets the scan skip as many following rows as the gap allows.
    pub depth_one_skip: bool,
    /// (G) Greedy start: a first incumbent from the optimal depth-two tree extended by optimal
    /// depth-two subtrees, before the exact search.
    pub greedy_start: bool,
    /// (H) Bound ascent, in searches with a time limit that have not ended in its first tenth:
    /// until half the limit, up to eight rounds below targets rising from the proven lower
    /// bound (a quarter of the gap each) before the search below the incumbent resumes; a
    /// round that finds nothing proves its target a lower bound (kept in the cache for the
    /// next round), one that finds a tree ends the search with the optimum. A long search thus
    /// reports a rising lower bound, not only the one its root's candidates have proven. Off by
    /// default: the rounds take time from the search for the optimum (pima at depth 4 under a
    /// 120 s limit: 35 s without them, 51 s with them).
    pub ascent: bool,
    /// (I) Bound probes, in searches with a time limit that have not ended when the rounds
    /// below targets start ([`DpOptions::target_rounds`], by default from a tenth to half of
    /// the limit): rounds below targets rising geometrically from a low first one (a 64th of
    /// the gap between the proven bound and the incumbent, then twice the proven bound), so
    /// that every root split's bound rises above the first target cheaply (a low target prunes
    /// most positions by their neighbours) and each round that finishes proves its target a
    /// lower bound, kept in the cache for the next round. Without it (and without the ascent)
    /// a search stopped while its root is open proves nothing of the root features it has not
    /// reached: its bound stays at zero. The ascent, when on, sets the targets instead. Off by
    /// default: on the open depth-4 instances (every midpoint, 300 s on a loaded machine, 30 to
    /// 60 CPU seconds) the bound stayed at zero in the default share, and with the whole limit
    /// (`target_rounds` (0, 1)) rose only on seismic-bumps (to 18.875, beside the greedy tree's
    /// 151: no time was left to improve the incumbent).
    pub probe: bool,
    /// (J) Depth two by counts: a depth-two subproblem whose features have few thresholds
    /// (binarised data) is solved exhaustively from the class counts of every pair of
    /// thresholds, bitsets ANDed and counted a word at a time
    /// ([`crate::dp`]'s `depth_two_counts`), where that is less work than the scans. Off: the
    /// scans and bisection of every depth-two subproblem.
    pub counts: bool,
    /// (K) Limited-discrepancy passes, in searches of depth five or more with a time limit:
    /// until [`DpOptions::discrepancy_until`] of the limit, passes that try at each node of
    /// depth three or more only its best-ranked features (each at its best Gini threshold, the
    /// `i`-th costing `i` discrepancies) within an allowance per path that widens pass by
    /// pass, subtrees of depth two solved exactly ([`crate::dp`]'s `discrepancy`); the exact
    /// search then starts below their best tree. Off: the exact search from the greedy tree.
    #[serde(default = "on")]
    pub discrepancy: bool,
}

fn on() -> bool {
    true
}

impl Default for BoundSwitches {
    fn default() -> Self {
        BoundSwitches {
            upper_bound: true,
            infeasibility: true,
            lookahead: true,
            similarity: true,
            intervals: true,
            depth_one_skip: true,
            greedy_start: true,
            ascent: false,
            probe: false,
            counts: true,
            discrepancy: true,
        }
    }
}

impl BoundSwitches {
    /// The names of the switches, in the order of [`BoundSwitches::without`].
    pub const NAMES: [&'static str; 11] = [
        "upper_bound",
        "infeasibility",
        "lookahead",
        "similarity",
        "intervals",
        "depth_one_skip",
        "greedy_start",
        "ascent",
        "probe",
        "counts",
        "discrepancy",
    ];

    /// The default switches but the one named `name` (one of [`BoundSwitches::NAMES`]) off.
    pub fn without(name: &str) -> Result<BoundSwitches> {
        let mut switches = BoundSwitches::default();
        *switches.named(name)? = false;
        Ok(switches)
    }

    /// The default switches but the one named `name` (one of [`BoundSwitches::NAMES`]) on.
    pub fn with(name: &str) -> Result<BoundSwitches> {
        let mut switches = BoundSwitches::default();
        *switches.named(name)? = true;
        Ok(switches)
    }

    /// The switch named `name` (one of [`BoundSwitches::NAMES`]).
    pub fn named(&mut self, name: &str) -> Result<&mut bool> {
        Ok(match name {
            "upper_bound" => &mut self.upper_bound,
            "infeasibility" => &mut self.infeasibility,
            "lookahead" => &mut self.lookahead,
            "similarity" => &mut self.similarity,
            "intervals" => &mut self.intervals,
            "depth_one_skip" => &mut self.depth_one_skip,
            "greedy_start" => &mut self.greedy_start,
            "ascent" => &mut self.ascent,
            "probe" => &mut self.probe,
            "counts" => &mut self.counts,
            "discrepancy" => &mut self.discrepancy,
            other => {
                return Err(Error::parameter(
                    "bound",
                    format!(
                        "`{other}` is not one of: {}",
                        BoundSwitches::NAMES.join(", ")
                    ),
                ))
            }
        })
    }
}

/// Options of one search.
#[derive(Debug, Clone)]
pub struct DpOptions {
    /// The time the search may take (a zero limit stops at the first check) and the flag
    /// that interrupts it: the search then stops at its next check with its best tree and a
    /// valid lower bound.
    pub budget: Budget,
    /// Cap on the memory of the subproblem cache, in MiB (estimated from entry sizes); past it
    /// the least recently used entries are evicted. `0` keeps nothing in the cache.
    pub memory_limit_mb: usize,
    /// Which pruning techniques are on (all by default).
    pub bounds: BoundSwitches,
    /// A known upper bound on the optimum (e.g. the objective of a tree found elsewhere). The
    /// search then only looks for trees at most this costly; if there is none (the bound was
    /// wrong), it searches again without it.
    pub upper_bound: Option<f64>,
    /// Where the search publishes its incumbent and bound as they improve.
    pub progress: ProgressSink,
    /// Threads of the search (at least 1; default 1). The root's candidate splits of a tree of
    /// depth three or more are shared out between them a position at a time, and at depth
    /// four or more (without a leaf minimum or cap) so are those of the children of depth three
    /// or more of each root split; the optimum and the tree returned are the same for any
    /// number.
    pub threads: usize,
    /// The shares of the time limit at which the rounds below targets (the probes, or the
    /// ascent: [`BoundSwitches::probe`], [`BoundSwitches::ascent`]) start and after which none
    /// starts (default a tenth and a half: searches that end within a tenth of their limit pay
    /// nothing for them). A start of zero runs them first.
    pub target_rounds: (f64, f64),
    /// The share of the time limit until which the limited-discrepancy passes run
    /// ([`BoundSwitches::discrepancy`]; default three quarters).
    pub discrepancy_until: f64,
}

impl Default for DpOptions {
    fn default() -> Self {
        DpOptions {
            budget: Budget::unlimited(),
            memory_limit_mb: DEFAULT_MEMORY_LIMIT_MB,
            bounds: BoundSwitches::default(),
            upper_bound: None,
            progress: ProgressSink::default(),
            threads: 1,
            target_rounds: (0.1, 0.5),
            discrepancy_until: 0.75,
        }
    }
}

impl DpOptions {
    /// Checks the options: a finite upper bound, from 1 to
    /// [`crate::search_core::MAX_THREADS`] threads and the target rounds' shares in order.
    pub fn check(&self) -> Result<()> {
        crate::search_core::check_threads(self.threads)?;
        let (from, until) = self.target_rounds;
        if !(0.0..=1.0).contains(&from) || !(from..=1.0).contains(&until) {
            return Err(Error::parameter(
                "target rounds",
                format!("({from}, {until}) are not shares of the time limit in increasing order"),
            ));
        }
        if !(0.0..=1.0).contains(&self.discrepancy_until) {
            return Err(Error::parameter(
                "discrepancy share",
                format!(
                    "{} is not a share of the time limit",
                    self.discrepancy_until
                ),
            ));
        }
        if let Some(bound) = self.upper_bound {
            if !bound.is_finite() {
                return Err(Error::parameter(
                    "upper bound",
                    format!("{bound} is not finite"),
                ));
            }
        }
        Ok(())
    }
}
