//! The search over one feature's split positions (ConTree's branch and bound over thresholds).
//!
//! A position `p` of a feature's sorted list sends its first `p` rows left. Positions are
//! searched by bisection: each solved position `a` bounds its unsolved neighbours `j`, since
//! the rows between them (weight `W(a, j)`, `k(a, j)` rows) change each subtree's cost by
//! at most their weight when they leave it, and by at most `g(k)` when they join it, `g`
//! being zero without a leaf minimum and `min(k, splits) · δ` with one
//! ([`super::leaf_minimum`], bounds 1 and 2):
//! - left(j) >= left(a) - g(k(a, j)) when `a < j`, and >= left(b) - W(j, b) when `j < b`;
//! - right(j) >= right(b) - g(k(j, b)) when `j < b`, and >= right(a) - W(a, j) when `a < j`;
//! - total(j) >= total(a) - W(a, j) - g(k(a, j)) and >= total(b) - W(j, b) - g(k(j, b)).
//!
//! An interval of positions between two solved ones is shrunk from both ends while these bounds
//! reach the upper bound, and its middle is solved next. Only positions that leave the leaf
//! minimum on both sides are candidates.

use std::collections::VecDeque;

use crate::dp::leaf_minimum::LeafSlack;
use crate::search_core::binned::Element;
use crate::search_core::cost::CostModel;

/// A position to solve, with the lower bounds its solved neighbours give.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Candidate {
    /// Rows sent left.
    pub position: usize,
    pub left_lb: f64,
    pub right_lb: f64,
    /// Lower bound on the split's total cost (split cost included).
    pub lb: f64,
    /// What the bounds of the farther end of its interval lose to those of this position
    /// (the weight of the rows between them, and the leaf minimum's slack): how far above the
    /// upper bound a bound on this position can still prune its neighbours.
    pub reach: f64,
    slot: usize,
    interval: Interval,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Solved {
    slot: usize,
    left: f64,
    right: f64,
    total: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Interval {
    lo: usize,
    hi: usize,
    left: Option<usize>,
    right: Option<usize>,
}

/// The split positions of one feature of one subproblem and what is known about them.
#[derive(Debug, Default)]
pub(crate) struct SplitSearch {
    positions: Vec<usize>,
    /// Weight of the first `i` rows of the list.
    prefix: Vec<f64>,
    /// What a leaf minimum takes from the bounds of a child that gains rows.
    slack: LeafSlack,
    /// The most splits of the left and of the right child's subtree.
    child_splits: [usize; 2],
    solved: Vec<Solved>,
    queue: VecDeque<Interval>,
    bisect: bool,
    per_child: bool,
    /// Per-feature bounds kept for each solved position (0: none): `2 * features` values each,
    /// the left child's then the right child's.
    features: usize,
    feature_bounds: Vec<f64>,
    next_slot: usize,
    /// The slot to split the first interval at (else its middle).
    first: Option<usize>,
    /// The least lower bound of a position pruned without being solved (infinite if none).
    pub pruned_lb: f64,
    /// Positions pruned without being solved.
    pub pruned: u64,
}

impl SplitSearch {
    /// Prepares the search of the positions of `list` (rows sorted by one feature) that leave
    /// at least `min_leaf` rows on each side. `bisect`: search by bisection with neighbour
    /// bounds; `per_child`: the solved positions report one bound per child (else only totals);
    /// `features`: the solved positions also report one bound per child and feature (the
    /// child's best split on that feature), for that many features. `first`: the position to
    /// solve first (else the middle one). `child_splits`: the most splits of the left and of
    /// the right child's subtree (what the leaf minimum's slack counts).
    #[allow(clippy::too_many_arguments)]
    pub fn reset(
        &mut self,
        list: &[Element],
        labels: &[u16],
        cost: &CostModel,
        bisect: bool,
        per_child: bool,
        features: usize,
        first: Option<usize>,
        child_splits: [usize; 2],
    ) {
        let m = list.len();
        self.slack = LeafSlack::new(cost);
        self.child_splits = child_splits;
        let min_leaf = cost.min_leaf as usize;
        self.positions.clear();
        if m >= 2 * min_leaf {
            for p in min_leaf..=m - min_leaf {
                if list[p - 1].bin != list[p].bin {
                    self.positions.push(p);
                }
            }
        }
        self.bisect = bisect;
        self.per_child = per_child;
        self.features = if bisect && per_child { features } else { 0 };
        self.feature_bounds.clear();
        self.solved.clear();
        self.queue.clear();
        self.next_slot = 0;
        self.first = None;
        self.pruned_lb = f64::INFINITY;
        self.pruned = 0;
        if bisect {
            self.prefix.clear();
            self.prefix.push(0.0);
            let mut total = 0.0;
            for e in list {
                total += cost.weights[labels[e.row as usize] as usize];
                self.prefix.push(total);
            }
            self.first = first.and_then(|p| self.positions.binary_search(&p).ok());
            if !self.positions.is_empty() {
                self.queue.push_back(Interval {
                    lo: 0,
                    hi: self.positions.len() - 1,
                    left: None,
                    right: None,
                });
            }
        }
    }

    /// Lower bounds (left, right, total) at `slot` from the solved positions around it.
    fn bound(&self, slot: usize, interval: &Interval, split_cost: f64) -> (f64, f64, f64) {
        let position = self.positions[slot];
        let (mut left, mut right, mut total) = (0.0f64, 0.0f64, f64::NEG_INFINITY);
        if let Some(a) = interval.left.map(|i| self.solved[i]) {
            let from = self.positions[a.slot];
            let moved = self.prefix[position] - self.prefix[from];
            let grown = self.slack.grown(position - from, self.child_splits[0]);
            if self.per_child {
                left = left.max(a.left - grown);
                right = right.max(a.right - moved);
            }
            total = total.max(a.total - moved - grown);
        }
        if let Some(b) = interval.right.map(|i| self.solved[i]) {
            let to = self.positions[b.slot];
            let moved = self.prefix[to] - self.prefix[position];
            let grown = self.slack.grown(to - position, self.child_splits[1]);
            if self.per_child {
                left = left.max(b.left - moved);
                right = right.max(b.right - grown);
            }
            total = total.max(b.total - moved - grown);
        }
        (left, right, total.max(left + right + split_cost))
    }

    /// The next position worth solving under upper bound `ub`, or `None` when every position
    /// is solved or pruned.
    pub fn next(&mut self, ub: f64, cost: &CostModel) -> Option<Candidate> {
        let sc = cost.split_cost;
        let limit = ub - cost.tol;
        if !self.bisect {
            let slot = self.next_slot;
            if slot >= self.positions.len() {
                return None;
            }
            self.next_slot += 1;
            return Some(Candidate {
                position: self.positions[slot],
                left_lb: 0.0,
                right_lb: 0.0,
                lb: sc,
                reach: 0.0,
                slot,
                interval: Interval {
                    lo: slot,
                    hi: slot,
                    left: None,
                    right: None,
                },
            });
        }
        while let Some(mut interval) = self.queue.pop_front() {
            // Shrink from both ends while the bound reaches the upper bound.
            loop {
                let (_, _, lb) = self.bound(interval.lo, &interval, sc);
                if lb < limit {
                    break;
                }
                self.prune(lb);
                if interval.lo == interval.hi {
                    break;
                }
                interval.lo += 1;
            }
            if self.bound(interval.lo, &interval, sc).2 >= limit {
                continue;
            }
            while interval.hi > interval.lo {
                let (_, _, lb) = self.bound(interval.hi, &interval, sc);
                if lb < limit {
                    break;
                }
                self.prune(lb);
                interval.hi -= 1;
            }
            let middle = interval.lo + (interval.hi - interval.lo) / 2;
            let slot = match self.first.take() {
                Some(first) if (interval.lo..=interval.hi).contains(&first) => first,
                _ => middle,
            };
            let (left_lb, right_lb, lb) = self.bound(slot, &interval, sc);
            if lb >= limit {
                self.prune(lb);
                self.push_halves(&interval, slot, interval.left, interval.right);
                continue;
            }
            let position = self.positions[slot];
            let (lo, hi) = (self.positions[interval.lo], self.positions[interval.hi]);
            // The lowest position sees this one as its right neighbour, the highest as its left.
            let below = self.prefix[position] - self.prefix[lo]
                + self.slack.grown(position - lo, self.child_splits[1]);
            let above = self.prefix[hi] - self.prefix[position]
                + self.slack.grown(hi - position, self.child_splits[0]);
            return Some(Candidate {
                position,
                left_lb,
                right_lb,
                lb,
                reach: below.max(above),
                slot,
                interval,
            });
        }
        None
    }

    /// A lower bound on the total cost of every position neither solved nor pruned yet (from
    /// the solved positions around it; the split cost alone without bisection), infinite when
    /// none is left. Valid between a [`SplitSearch::report`] and the next
    /// [`SplitSearch::next`], when every position is solved, pruned or queued.
    pub fn unsettled_lb(&self, split_cost: f64) -> f64 {
        if !self.bisect {
            return if self.next_slot < self.positions.len() {
                split_cost
            } else {
                f64::INFINITY
            };
        }
        let mut lb = f64::INFINITY;
        for interval in &self.queue {
            for slot in interval.lo..=interval.hi {
                lb = lb.min(self.bound(slot, interval, split_cost).2);
            }
        }
        lb
    }

    fn prune(&mut self, lb: f64) {
        self.pruned += 1;
        self.pruned_lb = self.pruned_lb.min(lb);
    }

    fn push_halves(
        &mut self,
        interval: &Interval,
        slot: usize,
        left: Option<usize>,
        right: Option<usize>,
    ) {
        if slot > interval.lo {
            self.queue.push_back(Interval {
                lo: interval.lo,
                hi: slot - 1,
                left: interval.left,
                right,
            });
        }
        if slot < interval.hi {
            self.queue.push_back(Interval {
                lo: slot + 1,
                hi: interval.hi,
                left,
                right: interval.right,
            });
        }
    }

    /// Records what solving `candidate` proved: lower bounds on its left and right subtrees
    /// (exact costs when solved) and on its total, and optionally on each child's best split
    /// on each feature.
    pub fn report(
        &mut self,
        candidate: &Candidate,
        left: f64,
        right: f64,
        total: f64,
        per_feature: Option<(&[f64], &[f64])>,
    ) {
        if !self.bisect {
            return;
        }
        if self.features > 0 {
            match per_feature {
                Some((l, r)) => {
                    self.feature_bounds.extend_from_slice(&l[..self.features]);
                    self.feature_bounds.extend_from_slice(&r[..self.features]);
                }
                None => self
                    .feature_bounds
                    .extend(std::iter::repeat_n(0.0, 2 * self.features)),
            }
        }
        let index = self.solved.len();
        self.solved.push(Solved {
            slot: candidate.slot,
            left,
            right,
            total,
        });
        self.push_halves(
            &candidate.interval,
            candidate.slot,
            Some(index),
            Some(index),
        );
    }

    /// Lower bounds on each child's best split on each feature at `candidate`, from the
    /// solved positions around it, whose reported bounds must not exceed the child's leaf plus
    /// the split cost ([`super::leaf_minimum`], bound 3: a child's best split on one feature
    /// costs at most `(m - 1) w` less on more rows, and at most their weight less on fewer);
    /// zero where nothing is known.
    pub fn feature_priors(&self, candidate: &Candidate, left: &mut [f64], right: &mut [f64]) {
        let n = self.features;
        left[..n].iter_mut().for_each(|x| *x = 0.0);
        right[..n].iter_mut().for_each(|x| *x = 0.0);
        if n == 0 {
            return;
        }
        let position = self.positions[candidate.slot];
        if let Some(a) = candidate.interval.left {
            let moved = self.prefix[position] - self.prefix[self.positions[self.solved[a].slot]];
            let bounds = &self.feature_bounds[2 * n * a..2 * n * (a + 1)];
            let grown = self.slack.grown_split();
            for f in 0..n {
                left[f] = left[f].max(bounds[f] - grown);
                right[f] = right[f].max(bounds[n + f] - moved);
            }
        }
        if let Some(b) = candidate.interval.right {
            let moved = self.prefix[self.positions[self.solved[b].slot]] - self.prefix[position];
            let bounds = &self.feature_bounds[2 * n * b..2 * n * (b + 1)];
            let grown = self.slack.grown_split();
            for f in 0..n {
                left[f] = left[f].max(bounds[f] - moved);
                right[f] = right[f].max(bounds[n + f] - grown);
            }
        }
    }
}
