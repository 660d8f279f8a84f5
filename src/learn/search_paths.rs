//! Rows from the exact search over paths below the root, separated between solves
//! (`--separation-rounds`): for a root split `s` (the model's `x_s`) and a choice `c` of one of
//! the root's children (a split or a leaf, the model's `y_c`),
//!
//! ```text
//! objective >= root_row + (bound_{s,c} - bound_s) * (x_s + y_c - 1)
//! ```
//!
//! where `root_row = sum_r bound_r x_r + bound_leaf * leaf` is the right-hand side of the root's
//! split row ([`super::search_rows`]) and `bound_{s,c}` the search's bound of the best tree
//! whose root takes `s` and whose child takes `c`: the child's two subtrees of two levels less
//! (or its leaf) and the other child's subtree of one level less, on the rows each receives,
//! every midpoint, no leaf minimum (a relaxation of every model's trees, so valid under every
//! side constraint). In an integer solution with `x_s = y_c = 1` the row says
//! `objective >= bound_{s,c}`; with `x_s = 1, y_c = 0` it is the root row (`bound_s`); with
//! `x_s = 0` it is at most the root row. The one coefficient past the bounds themselves is the
//! increment `bound_{s,c} - bound_s >= 0`, no big M.
//!
//! A root split at any threshold of a feature (OCT, BinOCT) takes the least bound over the
//! feature's thresholds and the one-sided split, searched in the order of the root's bounds at
//! each threshold (a lower bound of the path's there) and stopped once the next is no better,
//! or the time is out (the bound stays valid: the least of what was searched and the next
//! threshold's root bound). There are too many paths to add up front: [`PathSeparator`] adds
//! those a point of the LP relaxation violates, each bound searched once and cached.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::formulation::{RootSplit, RootSplits};
use crate::learn::search_rows::{RootRow, SearchRow};
use crate::learn::subtree_bounds::SubtreeBounds;
use crate::mip::{Expression, MipModel};
use good_lp::IntoAffineExpression;

/// One round of the loop: the LP relaxation solved, the path rows it violates added.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeparationRound {
    /// The LP relaxation's bound this round (with the rows of the rounds before), in the
    /// formulation's units; `None` when the LP was not solved to optimality in time.
    pub lp_bound: Option<f64>,
    /// The path rows added after it.
    pub rows_added: usize,
    /// The paths whose bounds were searched this round (the rest came from the cache).
    pub paths_searched: usize,
    /// Seconds the round took (LP and search).
    pub seconds: f64,
}

/// A path: the root choice's index, the child (0: left, 1: right), the child's choice's index
/// (the number of its splits: its leaf).
type PathKey = (usize, usize, usize);

/// The separator of the rows over paths below the root (see the module documentation).
pub struct PathSeparator {
    bounds: SubtreeBounds,
    root: RootSplits,
    root_row: RootRow,
    children: [Option<RootSplits>; 2],
    /// Paths' bounds in the model's units (`None`: not searched in time).
    cache: HashMap<PathKey, Option<f64>>,
    added: HashSet<PathKey>,
}

/// The value of `expression` at the model's column values `values`.
fn value_of(expression: &Expression, mip: &MipModel, values: &[f64]) -> f64 {
    let mut value = expression.constant();
    for (variable, coefficient) in expression.linear_coefficients() {
        if let Some(column) = mip.try_col(variable) {
            value += coefficient * values.get(column).copied().unwrap_or(0.0);
        }
    }
    value
}

impl PathSeparator {
    /// The separator over `root`'s choices and its children's; `None` for a tree of depth 1
    /// or a model without its children's choices.
    pub(super) fn new(
        bounds: SubtreeBounds,
        root: RootSplits,
        root_row: RootRow,
        children: [Option<RootSplits>; 2],
    ) -> Option<PathSeparator> {
        if bounds.depth < 2 || children.iter().all(Option::is_none) {
            return None;
        }
        Some(PathSeparator {
            bounds,
            root,
            root_row,
            children,
            cache: HashMap::new(),
            added: HashSet::new(),
        })
    }

    /// The path rows the point `values` (of `mip`'s columns, objective `objective`) violates,
    /// at most `most`, searched until `deadline`; and the number of paths searched.
    pub(crate) fn separate(
        &mut self,
        mip: &MipModel,
        values: &[f64],
        objective: f64,
        deadline: Option<Instant>,
        most: usize,
    ) -> Result<(Vec<SearchRow>, usize)> {
        self.bounds.source.deadline = deadline;
        let candidates = self.candidates(mip, values);
        let root_value = value_of(&self.root_row.bound, mip, values);
        let tolerance = 1e-6 * objective.abs().max(1.0);
        let mut rows = Vec::new();
        let mut searched = 0;
        for (activity, key) in candidates {
            if rows.len() >= most || deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let bound = match self.cache.get(&key) {
                Some(&bound) => bound,
                None => {
                    searched += 1;
                    let bound = self.path_bound(key)?;
                    self.cache.insert(key, bound);
                    bound
                }
            };
            let Some(bound) = bound else { continue };
            let increment = bound - self.root_row.values[key.0];
            if increment <= tolerance || root_value + increment * activity <= objective + tolerance
            {
                continue;
            }
            self.added.insert(key);
            rows.push(self.row(key, increment));
        }
        Ok((rows, searched))
    }

    /// The rows of every path below the root split `s` (its index), one per child: with
    /// `y_c` the child's choices (exactly one of them 1 below a split root, at most one
    /// always),
    /// `objective >= root_row + sum_c inc_c * y_c - max_c inc_c * (1 - x_s)`, where `inc_c`
    /// is the path's bound over the root's (0 for a path not searched before `deadline`).
    /// With `x_s = 1` it is the path's bound; with `x_s = 0` at most the root row. The rows
    /// and the number of paths searched.
    pub(crate) fn rows_below(
        &mut self,
        s: usize,
        deadline: Option<Instant>,
    ) -> Result<(Vec<SearchRow>, usize)> {
        self.bounds.source.deadline = deadline;
        let mut rows = Vec::new();
        let mut searched = 0;
        for side in 0..2 {
            let Some(child) = self.children[side].as_ref() else {
                continue;
            };
            let choices: Vec<Expression> = child
                .splits
                .iter()
                .map(|(_, y)| y.clone())
                .chain(child.leaf.clone())
                .collect();
            let mut bound = self.root_row.bound.clone();
            let mut largest: f64 = 0.0;
            for (c, y) in choices.into_iter().enumerate() {
                let key = (s, side, c);
                let path = match self.cache.get(&key) {
                    Some(&path) => path,
                    None => {
                        searched += 1;
                        let path = self.path_bound(key)?;
                        self.cache.insert(key, path);
                        path
                    }
                };
                let increment = path.map_or(0.0, |p| p - self.root_row.values[s]);
                if increment > 1e-9 {
                    largest = largest.max(increment);
                    bound += increment * y;
                }
            }
            if largest > 1e-9 {
                let x = self.root.splits[s].1.clone();
                bound += largest * x - largest;
                rows.push(SearchRow {
                    name: format!("dp_paths_{}_{}", s, side + 2),
                    bound,
                });
            }
        }
        Ok((rows, searched))
    }

    /// The root splits most chosen at `values` (at most `most`, each with its expression),
    /// not in `skip`: where a branch on the root goes first, whose LP the loop probes.
    pub(crate) fn most_chosen(
        &self,
        mip: &MipModel,
        values: &[f64],
        most: usize,
        skip: &HashSet<usize>,
    ) -> Vec<(usize, Expression)> {
        let mut chosen: Vec<(f64, usize)> = self
            .root
            .splits
            .iter()
            .enumerate()
            .filter(|(s, _)| !skip.contains(s))
            .map(|(s, (_, x))| (value_of(x, mip, values), s))
            .filter(|&(x, _)| x > 1e-6)
            .collect();
        chosen.sort_by(|a, b| b.0.total_cmp(&a.0));
        chosen
            .into_iter()
            .take(most)
            .map(|(_, s)| (s, self.root.splits[s].1.clone()))
            .collect()
    }

    /// The paths `(x_s + y_c - 1, key)` active at `values`, not added yet, most active first.
    fn candidates(&self, mip: &MipModel, values: &[f64]) -> Vec<(f64, PathKey)> {
        let mut candidates = Vec::new();
        for (s, (_, x)) in self.root.splits.iter().enumerate() {
            let x = value_of(x, mip, values);
            if x <= 1e-6 {
                continue;
            }
            for (side, child) in self.children.iter().enumerate() {
                let Some(child) = child else { continue };
                let choices = child
                    .splits
                    .iter()
                    .map(|(_, y)| y)
                    .chain(child.leaf.as_ref());
                for (c, y) in choices.enumerate() {
                    let activity = x + value_of(y, mip, values) - 1.0;
                    if activity > 1e-6 && !self.added.contains(&(s, side, c)) {
                        candidates.push((activity, (s, side, c)));
                    }
                }
            }
        }
        candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
        candidates
    }

    /// The row of the path `key` with the increment over the root's bound `increment`.
    fn row(&self, (s, side, c): PathKey, increment: f64) -> SearchRow {
        let children = self.children[side].as_ref();
        let y = children
            .and_then(|child| child.splits.get(c).map(|(_, y)| y).or(child.leaf.as_ref()))
            .cloned()
            .unwrap_or_default();
        let activity = self.root.splits[s].1.clone() + y - 1.0;
        SearchRow {
            name: format!("dp_path_{}_{}_{}", s, side + 2, c),
            bound: self.root_row.bound.clone() + increment * activity,
        }
    }

    /// The bound of the path `key` in the model's units (raised for tests like the root's);
    /// `None` when the time ran out first. Not capped at the search's best tree, as the root's
    /// bounds are: under side constraints a path's bound past the best tree without them is
    /// what the row is for.
    fn path_bound(&self, (s, side, c): PathKey) -> Result<Option<f64>> {
        let source = &self.bounds.source;
        let Some(child) = self.children[side].as_ref() else {
            return Ok(None);
        };
        let choice = child.splits.get(c).map(|(split, _)| *split);
        let Some(bound) = self.search_path(&self.root.splits[s].0, side, choice.as_ref())? else {
            return Ok(None);
        };
        let raise = source.raised_for_tests + source.raised_paths_for_tests;
        let value = bound + raise;
        Ok(Some(source.counterpart.to_model(value)))
    }

    /// The search's bound of the trees whose root takes `split` and whose child `side` takes
    /// `choice` (`None`: a leaf), in its units (see the module documentation).
    fn search_path(
        &self,
        split: &RootSplit,
        side: usize,
        choice: Option<&RootSplit>,
    ) -> Result<Option<f64>> {
        let b = &self.bounds;
        let (feature, mut thresholds) = match *split {
            RootSplit::Threshold { feature, threshold } => (feature, vec![threshold]),
            RootSplit::AnyThreshold { feature } => (feature, b.thresholds(&b.all, feature)),
        };
        // (the root's bound there, the threshold; `None`: one-sided).
        let mut order = Vec::with_capacity(thresholds.len() + 1);
        if matches!(split, RootSplit::AnyThreshold { .. }) {
            let Some(one_sided) = b.one_sided else {
                return Ok(None);
            };
            order.push((one_sided, None));
        }
        for threshold in thresholds.drain(..) {
            let Some(at) = b.at(feature, threshold)? else {
                return Ok(None);
            };
            order.push((at, Some(threshold)));
        }
        order.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut best = f64::INFINITY;
        for (at, threshold) in order {
            if at >= best {
                break;
            }
            // A one-sided root split's paths are bounded by its subtree alone.
            let Some(threshold) = threshold else {
                best = at;
                continue;
            };
            match self.through(feature, threshold, side, choice)? {
                Some(value) => best = best.min(value.max(at)),
                None => return Ok(Some(best.min(at))),
            }
        }
        Ok(best.is_finite().then_some(best))
    }

    /// The bound of the trees whose root splits `x_feature <= threshold` and whose child
    /// `side` takes `choice`; `None` when the time is out.
    fn through(
        &self,
        feature: usize,
        threshold: f64,
        side: usize,
        choice: Option<&RootSplit>,
    ) -> Result<Option<f64>> {
        let b = &self.bounds;
        let (left, right) = b.partition(&b.all, feature, threshold);
        let (halves_left, halves_right) = b.halves(feature, threshold)?;
        let (rows, other) = if side == 0 {
            (left, halves_right)
        } else {
            (right, halves_left)
        };
        let (Some(other), Some(child)) = (other, self.child(&rows, choice)?) else {
            return Ok(None);
        };
        Ok(Some(child + other + b.split_cost))
    }

    /// The bound of a child taking `choice` on `rows` (two levels below the root are its
    /// subtrees); `None` when the time is out.
    fn child(&self, rows: &[usize], choice: Option<&RootSplit>) -> Result<Option<f64>> {
        let b = &self.bounds;
        let depth = b.depth.saturating_sub(2);
        let split = |feature: usize, threshold: f64| -> Result<Option<f64>> {
            let (l, r) = b.partition(rows, feature, threshold);
            Ok(match (b.subtree(&l, depth)?, b.subtree(&r, depth)?) {
                (Some(l), Some(r)) => Some(l + r + b.split_cost),
                _ => None,
            })
        };
        match choice {
            None => Ok(Some(b.leaf_cost(rows))),
            Some(&RootSplit::Threshold { feature, threshold }) => split(feature, threshold),
            Some(&RootSplit::AnyThreshold { feature }) => {
                // A split that sends every row one way is a subtree of two levels less.
                let Some(mut least) = b.subtree(rows, depth)? else {
                    return Ok(None);
                };
                for threshold in b.thresholds(rows, feature) {
                    match split(feature, threshold)? {
                        Some(value) => least = least.min(value),
                        None => return Ok(None),
                    }
                }
                Ok(Some(least))
            }
        }
    }
}
