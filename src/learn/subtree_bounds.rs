//! The exact search's lower bounds of subtrees, for the rows of [`super::search_rows`] and
//! [`super::search_paths`]: the best subtree of a given depth on a set of rows (every midpoint,
//! no leaf minimum, no cap on splits: a relaxation of every model's subtree), the bound of a
//! root split by its two subtrees of one level less, and the root's thresholds of a feature.
//! Bounds are in the search's units; a subtree not solved before the source's deadline is
//! `None`. The root's halves are cached: the paths below the root come back to them. The
//! bounds of the root's splits come from one search over the whole data
//! ([`dp::root_split_bounds`]) where it takes the data (no missing values).

use std::cell::RefCell;
use std::collections::HashMap;

use crate::budget::Budget;
use crate::data::ThresholdMode;
use crate::dp::{self, DpOptions, DpProblem, RootSplitBounds};
use crate::error::Result;
use crate::formulation::RootSplit;
use crate::learn::search_rows::SearchRowSource;

/// The bounds of a root split's two subtrees: left, right (`None`: not searched in time).
type Halves = (Option<f64>, Option<f64>);

/// The search's bounds of subtrees on the source's data (see the module documentation).
pub(super) struct SubtreeBounds {
    pub(super) source: SearchRowSource,
    /// The subtrees' problems by depth (index `d - 1`: depth `d`), every midpoint, no leaf
    /// minimum; below the tree's depth.
    below: Vec<DpProblem>,
    /// The tree's depth.
    pub(super) depth: usize,
    class_weights: Vec<f64>,
    pub(super) split_cost: f64,
    pub(super) all: Vec<usize>,
    /// The root's subtree bound on every row (for a one-sided root split).
    pub(super) one_sided: Option<f64>,
    /// The root's halves' bounds by (feature, threshold bits): left, right.
    halves: RefCell<HashMap<(usize, u64), Halves>>,
    /// Every root split's two subtrees, solved by one search; `None` at depth one, or on data
    /// the search does not take (missing values).
    root_splits: Option<RootSplitBounds>,
}

impl SubtreeBounds {
    pub(super) fn new(source: &SearchRowSource) -> Result<SubtreeBounds> {
        let problem = source.problem.clone();
        let below = (1..problem.depth)
            .map(|depth| DpProblem {
                depth,
                max_splits: None,
                thresholds: ThresholdMode::All,
                min_leaf: 1,
                ..problem.clone()
            })
            .collect();
        let mut bounds = SubtreeBounds {
            source: source.clone(),
            below,
            depth: problem.depth,
            class_weights: problem.class_weights.clone(),
            split_cost: problem.split_cost,
            all: (0..source.data.n_rows()).collect(),
            one_sided: None,
            halves: RefCell::new(HashMap::new()),
            root_splits: None,
        };
        bounds.one_sided = bounds.subtree(&bounds.all.clone(), bounds.depth.saturating_sub(1))?;
        let below = bounds
            .depth
            .checked_sub(2)
            .and_then(|d| bounds.below.get(d));
        if let Some(below) = below.filter(|_| !source.data.has_missing()) {
            let options = DpOptions {
                budget: bounds.budget_left(),
                ..DpOptions::default()
            };
            let cap = source.upper_bound - bounds.split_cost;
            bounds.root_splits = Some(dp::root_split_bounds(&source.data, below, cap, &options)?);
        }
        Ok(bounds)
    }

    /// Seconds to the source's deadline (`None`: no deadline).
    fn budget_left(&self) -> Budget {
        Budget::unlimited()
            .with_interrupt(self.source.interrupt.clone())
            .until(self.source.deadline)
    }

    /// The least cost of a leaf on `rows` (every row in it, the cheapest class predicted).
    pub(super) fn leaf_cost(&self, rows: &[usize]) -> f64 {
        let labels = self.source.data.labels();
        let mut totals = vec![0.0; self.class_weights.len()];
        for &i in rows {
            totals[labels[i]] += self.class_weights[labels[i]];
        }
        let all: f64 = totals.iter().sum();
        all - totals.iter().copied().fold(0.0, f64::max)
    }

    /// The search's lower bound of the best subtree of depth `depth` on `rows` (0: a leaf);
    /// `None` when the time is out.
    pub(super) fn subtree(&self, rows: &[usize], depth: usize) -> Result<Option<f64>> {
        if rows.is_empty() {
            return Ok(Some(0.0));
        }
        let Some(problem) = depth.checked_sub(1).and_then(|d| self.below.get(d)) else {
            return Ok(Some(self.leaf_cost(rows)));
        };
        let left = self.budget_left();
        if left.duration() == Some(std::time::Duration::ZERO) {
            return Ok(None);
        }
        let options = DpOptions {
            budget: left,
            ..DpOptions::default()
        };
        let found = dp::solve(&self.source.data.subset(rows), problem, &options)?;
        Ok(Some(found.lower_bound))
    }

    /// `rows` split by `x_feature <= threshold`: those left, those right.
    pub(super) fn partition(
        &self,
        rows: &[usize],
        feature: usize,
        threshold: f64,
    ) -> (Vec<usize>, Vec<usize>) {
        let data = self.source.data.rows();
        rows.iter().partition(|&&i| data[i][feature] <= threshold)
    }

    /// The bounds of the root's two subtrees under `x_feature <= threshold` (cached).
    pub(super) fn halves(&self, feature: usize, threshold: f64) -> Result<Halves> {
        let key = (feature, threshold.to_bits());
        if let Some(&found) = self.halves.borrow().get(&key) {
            return Ok(found);
        }
        let (left, right) = self.partition(&self.all, feature, threshold);
        let below = self.depth.saturating_sub(1);
        let found = (self.subtree(&left, below)?, self.subtree(&right, below)?);
        if found.0.is_some() && found.1.is_some() {
            self.halves.borrow_mut().insert(key, found);
        }
        Ok(found)
    }

    /// The bound of the root split `x_feature <= threshold`; `None` when the time is out.
    pub(super) fn at(&self, feature: usize, threshold: f64) -> Result<Option<f64>> {
        if let Some(searched) = &self.root_splits {
            let (left, right) = self.partition(&self.all, feature, threshold);
            if left.is_empty() || right.is_empty() {
                return Ok(self.one_sided.map(|b| b + self.split_cost));
            }
            if let Some(bound) = searched.at(feature, left.len()) {
                return Ok(bound.map(|b| b + self.split_cost));
            }
        }
        let (Some(l), Some(r)) = self.halves(feature, threshold)? else {
            return Ok(None);
        };
        Ok(Some(l + r + self.split_cost))
    }

    /// The thresholds `x <= v` of `feature` on `rows` that send rows both ways: every value
    /// but the largest (the partitions of every midpoint).
    pub(super) fn thresholds(&self, rows: &[usize], feature: usize) -> Vec<f64> {
        let data = self.source.data.rows();
        let mut values: Vec<f64> = rows
            .iter()
            .map(|&i| data[i][feature])
            .filter(|v| !v.is_nan())
            .collect();
        values.sort_by(f64::total_cmp);
        values.dedup();
        values.pop();
        values
    }

    /// The bound of a root split; `None` when the time is out.
    pub(super) fn of(&self, split: &RootSplit) -> Result<Option<f64>> {
        match *split {
            RootSplit::Threshold { feature, threshold } => self.at(feature, threshold),
            RootSplit::AnyThreshold { feature } => {
                // A split that sends every row one way is a subtree of one level less.
                let Some(mut least) = self.one_sided else {
                    return Ok(None);
                };
                if let Some(searched) = &self.root_splits {
                    return Ok(match searched.least(feature) {
                        None => Some(least),
                        Some(bound) => bound.map(|b| least.min(b + self.split_cost)),
                    });
                }
                for value in self.thresholds(&self.all, feature) {
                    match self.at(feature, value)? {
                        Some(bound) => least = least.min(bound),
                        None => return Ok(None),
                    }
                }
                Ok(Some(least))
            }
        }
    }
}
