//! Lower bounds of the best tree under every split of the root, in one search: each candidate
//! root split's two children are solved at one level less by a single [`Search`] over the
//! whole data, whose views, cache and similarity bounds every split shares (one fresh search
//! per child, with its own binning and first incumbent, cost about a hundred times more).
//!
//! A split's bound is the sum of its children's proven lower bounds (their optima when solved,
//! which [`RootSplitBounds::children_optima`] gives), the split's own cost left to the caller.
//! Children are searched below a cap (a few rows past it): once the left child alone reaches
//! it, the right child is not searched, and the bound is the left's (at least the cap; every
//! cost is non-negative). The search stops at the deadline of its options; the splits not
//! reached by then have no bound.
//!
//! Without leaf rules, a feature's positions are bisected: a solved split bounds the others on
//! its feature by MurTree's similarity bound (a child costs no less with more rows, and at most
//! the moved rows' weight less with fewer), so an interval of positions between two solved ones
//! whose carried bounds reach the cap is bounded without a search; otherwise its middle open
//! position is solved. With leaf rules every position is solved.

use std::time::Instant;

use crate::data::{Dataset, ThresholdMode};
use crate::dp::options::DpOptions;
use crate::dp::problem::DpProblem;
use crate::dp::search::Search;
use crate::error::Result;
use crate::search_core::binned::{Binned, Element};
use crate::search_core::deadline::Deadline;

/// The bounds of one feature's root splits.
#[derive(Debug, Clone)]
struct FeatureSplits {
    /// Per split, in increasing order of threshold: the rows it sends left.
    left_sizes: Vec<usize>,
    /// Per split: the sum of its children's lower bounds; `None` when the search stopped first.
    bounds: Vec<Option<f64>>,
    /// Per split: its left and right children's optima, where they were solved.
    optima: Vec<(Option<f64>, Option<f64>)>,
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

    /// The optima of the two children of the root split on `feature` that sends `left_rows`
    /// rows left, where the search solved them (below the cap and a little past it).
    pub fn children_optima(&self, feature: usize, left_rows: usize) -> (Option<f64>, Option<f64>) {
        if left_rows == 0 || left_rows >= self.n_rows {
            return (None, None);
        }
        let Some(splits) = self.features.get(feature).and_then(Option::as_ref) else {
            return (None, None);
        };
        match splits.left_sizes.binary_search(&left_rows) {
            Ok(index) => splits.optima[index],
            Err(_) => (None, None),
        }
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
    let neighbours = Neighbours::new(&search, &binned);
    // Children are searched a little past the cap, so that a solved split bounds its
    // neighbours beyond it.
    let reach = REACH * search.cost.max_weight;
    let mut features = vec![None; data.n_features()];
    let mut complete = true;
    for index in 0..root.n_features {
        let feature = search.arena.feature(&root, index) as usize;
        let list = search.arena.list(&root, index);
        let positions: Vec<usize> = (1..list.len())
            .filter(|&p| list[p - 1].bin < list[p].bin)
            .collect();
        let prefix = neighbours.prefix(list);
        let solve_at = |search: &mut Search, position: usize, carried: (f64, f64)| {
            let (left, right) = search.arena.split(&root, index, position);
            let l = search.solve(&left, below.depth, budget, cap + reach + tol);
            let left_optimum = l.solution.map(|s| s.cost);
            let left_value = left_optimum.unwrap_or(l.lb).max(carried.0);
            let (right_value, right_optimum) = if left_value >= cap + reach - tol {
                (carried.1, None)
            } else {
                let r = search.solve(&right, below.depth, budget, cap + reach - left_value + tol);
                let optimum = r.solution.map(|s| s.cost);
                (optimum.unwrap_or(r.lb).max(carried.1), optimum)
            };
            // A search cut short bounds its subproblem, but the split is counted as not
            // reached: only finished searches make bounds.
            (!search.deadline.reached()).then_some((
                left_value,
                right_value,
                (left_optimum, right_optimum),
            ))
        };
        let mut bounds = vec![None; positions.len()];
        let mut optima = vec![(None, None); positions.len()];
        if !neighbours.monotone {
            for (q, &position) in positions.iter().enumerate() {
                if !complete || search.deadline.reached() {
                    complete = false;
                    break;
                }
                match solve_at(&mut search, position, (0.0, 0.0)) {
                    Some((l, r, known)) => {
                        bounds[q] = Some(l + r);
                        optima[q] = known;
                    }
                    None => complete = false,
                }
            }
        } else {
            // Bisection: an interval of positions between two solved ones (or the ends) whose
            // carried bounds all reach the cap is bounded; otherwise its middle unbounded
            // position is solved and both halves are looked at again.
            let mut best = vec![(0.0f64, 0.0f64); positions.len()];
            let mut stack: Vec<(Option<Anchor>, Option<Anchor>, usize, usize)> =
                vec![(None, None, 0, positions.len())];
            while let Some((before, after, lo, hi)) = stack.pop() {
                let mut open = Vec::new();
                for q in lo..hi {
                    let carried = neighbours.carried(&prefix, positions[q], before, after);
                    let b = &mut best[q];
                    *b = (b.0.max(carried.0), b.1.max(carried.1));
                    if b.0 + b.1 >= cap - tol {
                        bounds[q] = Some(b.0 + b.1);
                    } else {
                        open.push(q);
                    }
                }
                if open.is_empty() {
                    continue;
                }
                if !complete || search.deadline.reached() {
                    complete = false;
                    continue;
                }
                let m = open[open.len() / 2];
                let Some((left, right, known)) = solve_at(&mut search, positions[m], best[m])
                else {
                    complete = false;
                    continue;
                };
                bounds[m] = Some(left + right);
                optima[m] = known;
                let anchor = Anchor {
                    position: positions[m],
                    left,
                    right,
                };
                stack.push((before, Some(anchor), lo, m));
                stack.push((Some(anchor), after, m + 1, hi));
            }
        }
        features[binned.data_feature[feature]] = Some(FeatureSplits {
            left_sizes: positions,
            bounds,
            optima,
        });
    }
    Ok(RootSplitBounds {
        n_rows: data.n_rows(),
        features,
        complete,
    })
}

/// How far past the cap children are searched, in rows of the largest weight.
const REACH: f64 = 4.0;

/// A solved split: where it falls and its children's bounds.
#[derive(Debug, Clone, Copy)]
struct Anchor {
    position: usize,
    left: f64,
    right: f64,
}

/// MurTree's similarity bound between a feature's split positions, without leaf rules: a
/// child's best tree costs no less with more rows, and at most the weight of the rows taken
/// away less with fewer. A solved split bounds the children of every other split on its feature.
struct Neighbours {
    /// Whether the bound holds: no leaf minimum or cap.
    monotone: bool,
    /// Per row of the binned data: its weight in the objective.
    row_weights: Vec<f64>,
}

impl Neighbours {
    fn new(search: &Search, binned: &Binned) -> Neighbours {
        let weights = &search.cost.weights;
        let row_weights = (0..binned.n_rows)
            .map(|row| {
                let times = binned
                    .multiplicities
                    .get(row)
                    .map_or(1.0, |&m| f64::from(m));
                weights[binned.labels[row] as usize] * times
            })
            .collect();
        Neighbours {
            monotone: search.cost.min_leaf <= 1 && search.cost.max_leaf == u32::MAX,
            row_weights,
        }
    }

    /// The weight of the first `i` rows of `list`, for every `i`.
    fn prefix(&self, list: &[Element]) -> Vec<f64> {
        let mut prefix = Vec::with_capacity(list.len() + 1);
        prefix.push(0.0);
        let mut total = 0.0;
        for e in list {
            total += self.row_weights[e.row as usize];
            prefix.push(total);
        }
        prefix
    }

    /// Bounds of the children of the split at `position` carried from solved splits before and
    /// after it.
    fn carried(
        &self,
        prefix: &[f64],
        position: usize,
        before: Option<Anchor>,
        after: Option<Anchor>,
    ) -> (f64, f64) {
        let (mut left, mut right) = (0.0f64, 0.0f64);
        if let Some(a) = before {
            let moved = prefix[position] - prefix[a.position];
            left = left.max(a.left);
            right = right.max(a.right - moved);
        }
        if let Some(b) = after {
            let moved = prefix[b.position] - prefix[position];
            left = left.max(b.left - moved);
            right = right.max(b.right);
        }
        (left, right)
    }
}
