//! Lower bounds of the best tree under every split of the root, in one search: each candidate
//! root split's two children are solved at one level less by a single [`Search`] over the
//! whole data, whose views, cache and similarity bounds every split shares (one fresh search
//! per child, with its own binning and first incumbent, cost about a hundred times more).
//!
//! A split's bound is the sum of its children's proven lower bounds (their optima when solved),
//! the split's own cost left to the caller. Children are searched below a cap: once the left
//! child alone reaches it, the right child is not searched, and the bound is the left's (at
//! least the cap; every cost is non-negative). The search stops at the deadline of its options;
//! the splits not reached by then have no bound.

use std::time::Instant;

use crate::data::{Dataset, ThresholdMode};
use crate::dp::options::DpOptions;
use crate::dp::problem::DpProblem;
use crate::dp::search::Search;
use crate::error::Result;
use crate::search_core::binned::Binned;
use crate::search_core::deadline::Deadline;

/// The bounds of one feature's root splits.
#[derive(Debug, Clone)]
struct FeatureSplits {
    /// Per split, in increasing order of threshold: the rows it sends left.
    left_sizes: Vec<usize>,
    /// Per split: the sum of its children's lower bounds; `None` when the search stopped first.
    bounds: Vec<Option<f64>>,
}

/// Every root split's bound (see the module documentation).
#[derive(Debug, Clone)]
pub struct RootSplitBounds {
    n_rows: usize,
    /// Per feature of the data: its splits, `None` for a feature with no candidate threshold.
    features: Vec<Option<FeatureSplits>>,
    /// Whether every split was bounded before the deadline.
    pub complete: bool,
}

impl RootSplitBounds {
    /// The bound of the root split on `feature` that sends `left_rows` rows left: `Some(None)`
    /// when the search stopped before it; `None` when no candidate split of the search sends
    /// that many rows left (a split that sends every row one way included: it is no split).
    pub fn at(&self, feature: usize, left_rows: usize) -> Option<Option<f64>> {
        if left_rows == 0 || left_rows >= self.n_rows {
            return None;
        }
        let splits = self.features.get(feature)?.as_ref()?;
        let index = splits.left_sizes.binary_search(&left_rows).ok()?;
        Some(splits.bounds[index])
    }

    /// The least bound of the root splits on `feature`: `None` when it has no candidate split,
    /// `Some(None)` when the search stopped before one of them.
    pub fn least(&self, feature: usize) -> Option<Option<f64>> {
        let splits = self.features.get(feature)?.as_ref()?;
        Some(
            splits
                .bounds
                .iter()
                .try_fold(f64::INFINITY, |least, bound| bound.map(|b| least.min(b))),
        )
    }
}

/// Bounds every split of the root of `data` by its children solved under `below` (the
/// problem of one level less; every midpoint is a candidate whatever its threshold mode, so
/// that each partition a threshold makes is one of the splits), each child searched below
/// `cap` (see the module documentation). The deadline is `options`' time limit from now.
pub fn root_split_bounds(
    data: &Dataset,
    below: &DpProblem,
    cap: f64,
    options: &DpOptions,
) -> Result<RootSplitBounds> {
    below.check(data)?;
    crate::search_core::check_complete(data, "the exact search")?;
    options.check()?;
    let binned = Binned::counting_weights(data, ThresholdMode::All);
    let cost = below.cost_model(data)?;
    let deadline = Deadline::new(Instant::now(), &options.budget);
    let cache_bytes = options.memory_limit_mb.saturating_mul(1 << 20);
    let mut search = Search::new(&binned, cost, options.bounds, cache_bytes, deadline);
    let root = search.arena.root(&binned);
    let budget = below.max_splits.unwrap_or(usize::MAX);
    let tol = search.cost.tol;
    let mut features = vec![None; data.n_features()];
    let mut complete = true;
    for index in 0..root.n_features {
        let feature = search.arena.feature(&root, index) as usize;
        let list = search.arena.list(&root, index);
        let positions: Vec<usize> = (1..list.len())
            .filter(|&p| list[p - 1].bin < list[p].bin)
            .collect();
        let mut bounds = Vec::with_capacity(positions.len());
        for &position in &positions {
            if !complete || search.deadline.reached() {
                complete = false;
                bounds.push(None);
                continue;
            }
            let (left, right) = search.arena.split(&root, index, position);
            let l = search.solve(&left, below.depth, budget, cap + tol);
            let left_value = l.solution.map_or(l.lb, |s| s.cost);
            let bound = if left_value >= cap - tol {
                left_value
            } else {
                let r = search.solve(&right, below.depth, budget, cap - left_value + tol);
                left_value + r.solution.map_or(r.lb, |s| s.cost)
            };
            if search.deadline.reached() {
                // A search cut short bounds its subproblem, but the split is counted as not
                // reached: only finished searches make bounds.
                complete = false;
                bounds.push(None);
            } else {
                bounds.push(Some(bound));
            }
        }
        features[binned.data_feature[feature]] = Some(FeatureSplits {
            left_sizes: positions,
            bounds,
        });
    }
    Ok(RootSplitBounds {
        n_rows: data.n_rows(),
        features,
        complete,
    })
}
