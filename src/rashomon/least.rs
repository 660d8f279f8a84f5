//! The lower bounds the set's graph prunes with: a node's split positions (the gaps between
//! its rows' values that hold a candidate threshold), the least objective of a row set at depth
//! one by one scan per feature, at depth two or more by the exact search on those rows, and
//! the exact search's bounds on every split of a node of depth two or more
//! ([`crate::dp::root_split_bounds`]), which also give the optima of the sides it solved (the
//! graph reads them instead of searching those sides again).

use std::time::Instant;

use crate::budget::Budget;
use crate::data::midpoint;
use crate::dp::{self, root_split_bounds, DpOptions, DpProblem, RootSplitBounds};
use crate::error::Error;
use crate::rashomon::graph::{GraphInput, Leaf};

/// A position of a feature's sorted rows after which a split falls.
#[derive(Debug, Clone, Copy)]
pub struct Gap {
    /// The last row (in the sorted list) that goes left.
    pub position: usize,
    /// The values on either side of the split.
    pub low: f64,
    pub high: f64,
    /// How many candidate thresholds lie between them.
    pub variants: u64,
}

impl Gap {
    /// The split's threshold: the midpoint of the values on either side.
    pub fn threshold(&self) -> f64 {
        midpoint(self.low, self.high)
    }
}

/// The positions of `sorted` (rows sorted by `feature`) after which a split falls: where the
/// candidate thresholds below the next row's value outnumber those below this row's.
pub fn gaps(input: &GraphInput, feature: usize, sorted: &[u32]) -> Vec<Gap> {
    let column = &input.values[feature];
    let ranks = &input.ranks[feature];
    let mut gaps = Vec::new();
    for (p, pair) in sorted.windows(2).enumerate() {
        let (a, b) = (pair[0] as usize, pair[1] as usize);
        let variants = ranks[b].saturating_sub(ranks[a]);
        if variants > 0 {
            gaps.push(Gap {
                position: p,
                low: column[a],
                high: column[b],
                variants: u64::from(variants),
            });
        }
    }
    gaps
}

/// A split into two leaves: its feature, position, best leaves (and under fairness the other
/// class's) and least objective.
#[derive(Debug, Clone, Copy)]
pub struct LeafSplit {
    pub feature: usize,
    pub gap: Gap,
    pub left: Leaf,
    pub right: Leaf,
    pub left_other: Option<Leaf>,
    pub right_other: Option<Leaf>,
    pub cost: f64,
}

/// The least objective of a split of `ids` into two leaves (infinite when none meets the leaf
/// rules), by one scan of each feature's sorted rows; the splits of objective at most `budget`
/// are added to `within`.
pub fn depth_one(
    input: &GraphInput,
    ids: &[u32],
    by_feature: &[Vec<u32>],
    budget: f64,
    within: &mut Vec<LeafSplit>,
) -> f64 {
    let n = ids.len();
    let mut total = vec![0.0; input.n_classes];
    for &i in ids {
        total[input.labels[i as usize]] += input.row_costs[i as usize];
    }
    let allowed = |rows: usize| rows >= input.min_leaf && rows <= input.max_leaf;
    let fair = input.fair.as_ref();
    let total_key = input.positive_key(ids);
    let mut least = f64::INFINITY;
    let mut right = vec![0.0; input.n_classes];
    for (feature, sorted) in by_feature.iter().enumerate() {
        if input.skips(feature, ids, 1) {
            continue;
        }
        let mut left = vec![0.0; input.n_classes];
        let mut left_key = 0i128;
        let mut next = 0;
        for gap in gaps(input, feature, sorted) {
            let p = gap.position;
            while next <= p {
                let i = sorted[next] as usize;
                left[input.labels[i]] += input.row_costs[i];
                if let Some(fair) = fair {
                    left_key += fair.row_key(i);
                }
                next += 1;
            }
            if !allowed(p + 1) || !allowed(n - p - 1) {
                continue;
            }
            for ((r, t), l) in right.iter_mut().zip(&total).zip(&left) {
                *r = t - l;
            }
            let (l, left_other) = input.labelled(&left, left_key);
            let (r, right_other) = input.labelled(&right, total_key - left_key);
            let cost = l.cost + r.cost + input.split_cost;
            least = least.min(cost);
            if cost <= budget + input.tolerance {
                within.push(LeafSplit {
                    feature,
                    gap,
                    left: l,
                    right: r,
                    left_other,
                    right_other,
                    cost,
                });
            }
        }
    }
    least
}

/// A lower bound on the least objective of the trees of `ids` at `depth` (two or more): the
/// exact search's optimum on those rows, its bound when the time ran out, infinite when no tree
/// meets the leaf rules, and 0 (no bound) on any other failure.
pub fn exact(
    input: &GraphInput,
    ids: &[u32],
    depth: usize,
    time: &Budget,
    started: Instant,
) -> f64 {
    let problem = DpProblem {
        depth,
        ..input.problem.clone()
    };
    let options = DpOptions {
        budget: time.left_since(started),
        ..DpOptions::default()
    };
    let solved = if ids.len() == input.labels.len() {
        dp::solve(&input.data, &problem, &options)
    } else {
        let rows: Vec<usize> = ids.iter().map(|&i| i as usize).collect();
        dp::solve(&input.data.subset(&rows), &problem, &options)
    };
    match solved {
        Ok(outcome) => outcome.lower_bound,
        Err(Error::Infeasible(_)) => f64::INFINITY,
        Err(_) => 0.0,
    }
}

/// The exact search's lower bounds on the best tree under each split of `ids` at `depth`, its
/// children solved at one level less below `cap`, when they can be had within the time left
/// (`None` otherwise: the node is searched without them).
pub fn split_bounds(
    input: &GraphInput,
    ids: &[u32],
    depth: usize,
    cap: f64,
    time: &Budget,
    started: Instant,
) -> Option<RootSplitBounds> {
    let whole = ids.len() == input.labels.len();
    let below = DpProblem {
        depth: depth - 1,
        ..input.problem.clone()
    };
    let options = DpOptions {
        budget: time.left_since(started),
        ..DpOptions::default()
    };
    let bounds = if whole {
        root_split_bounds(&input.data, &below, cap, &options)
    } else {
        let rows: Vec<usize> = ids.iter().map(|&i| i as usize).collect();
        root_split_bounds(&input.data.subset(&rows), &below, cap, &options)
    };
    bounds.ok()
}
