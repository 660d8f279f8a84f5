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
//! Under a leaf minimum, each solved position also reports bounds on the problem without it
//! ([`super::relaxation`]), whose optima bound the problem's and follow the bounds above with
//! `g = 0`; a position's bounds are the larger of both.
//!
//! An interval of positions between two solved ones is shrunk from both ends while these bounds
//! reach the upper bound, and its middle is solved next. Only positions that leave the leaf
//! minimum on both sides are candidates.

use std::collections::VecDeque;

use crate::dp::leaf_minimum::LeafSlack;
use crate::search_core::binned::{Element, RowCounts};
use crate::search_core::cost::CostModel;

/// Lower bounds on the subtrees under one split: each child's optimum and the total (split
/// cost included).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SplitBounds {
    pub left: f64,
    pub right: f64,
    pub total: f64,
}

impl SplitBounds {
    /// Nothing known.
    pub const NONE: SplitBounds = SplitBounds {
        left: 0.0,
        right: 0.0,
        total: f64::NEG_INFINITY,
    };

    fn max(self, other: SplitBounds) -> SplitBounds {
        SplitBounds {
            left: self.left.max(other.left),
            right: self.right.max(other.right),
            total: self.total.max(other.total),
        }
    }
}

/// What solving a position proved ([`SplitSearch::report_with`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Report {
    /// Bounds on the problem (exact costs when solved).
    pub bounds: SplitBounds,
    /// Bounds on the problem without the leaf minimum (the same without one).
    pub relaxed: SplitBounds,
    /// The leaf costs of the two children.
    pub leaves: [f64; 2],
}

/// A position to solve, with the lower bounds its solved neighbours give.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Candidate {
    /// Rows sent left.
    pub position: usize,
    pub left_lb: f64,
    pub right_lb: f64,
    /// Lower bound on the split's total cost (split cost included).
    pub lb: f64,
    /// The same bounds on the problem without the leaf minimum (without one: these).
    pub relaxed: SplitBounds,
    /// Weight of the rows between this position and the farther end of its interval: how
    /// far above the upper bound a bound on this position can still prune its neighbours
    /// (without a leaf minimum, or through the bounds without it).
    pub reach: f64,
    slot: usize,
    interval: Interval,
}

impl Candidate {
    /// The position `position` alone, nothing known of it but the split cost `split_cost`:
    /// a split evaluated outside any feature's bisection (the limited-discrepancy passes).
    pub(crate) fn alone(position: usize, split_cost: f64) -> Candidate {
        Candidate {
            position,
            left_lb: 0.0,
            right_lb: 0.0,
            lb: split_cost,
            relaxed: SplitBounds {
                left: 0.0,
                right: 0.0,
                total: split_cost,
            },
            reach: 0.0,
            slot: 0,
            interval: Interval {
                lo: 0,
                hi: 0,
                left: None,
                right: None,
            },
        }
    }
}

/// An interval of one feature's positions neither solved nor pruned, with the solved
/// positions around it: a part of the feature's search that can be searched on its own
/// ([`SplitSearch::take_pieces`], [`SplitSearch::load`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Piece {
    /// Its first and last slot among the feature's positions.
    pub lo: usize,
    pub hi: usize,
    left: Option<Solved>,
    right: Option<Solved>,
    /// The least lower bound of its positions when it was taken.
    pub lb: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Solved {
    slot: usize,
    report: Report,
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
    /// Rows of the list.
    size: usize,
    solved: Vec<Solved>,
    queue: VecDeque<Interval>,
    bisect: bool,
    per_child: bool,
    /// Per-feature bounds kept for each solved position (0: none): `2 * features` values each,
    /// the left child's then the right child's, and under a leaf minimum as many again without
    /// it.
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
    /// Prepares the search of the positions of `list` (rows sorted by one feature, their
    /// classes and multiplicities in `rows`) that leave at least `min_leaf` rows on each side. `bisect`: search by bisection with neighbour
    /// bounds; `per_child`: the solved positions report one bound per child (else only totals);
    /// `features`: the solved positions also report one bound per child and feature (the
    /// child's best split on that feature), for that many features. `first`: the position to
    /// solve first (else the middle one). `child_splits`: the most splits of the left and of
    /// the right child's subtree (what the leaf minimum's slack counts).
    #[allow(clippy::too_many_arguments)]
    pub fn reset(
        &mut self,
        list: &[Element],
        rows: RowCounts,
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
        self.size = m;
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
            if rows.multiplicities.is_empty() {
                for e in list {
                    total += cost.weights[rows.labels[e.row as usize] as usize];
                    self.prefix.push(total);
                }
            } else {
                for e in list {
                    let row = e.row as usize;
                    let times = f64::from(rows.multiplicities[row]);
                    total += cost.weights[rows.labels[row] as usize] * times;
                    self.prefix.push(total);
                }
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

    /// Lower bounds at `slot` from the solved positions around it: on the problem, and on
    /// the problem without the leaf minimum (the same without one).
    fn bound(
        &self,
        slot: usize,
        interval: &Interval,
        split_cost: f64,
    ) -> (SplitBounds, SplitBounds) {
        if self.slack.binds() {
            self.bound_of::<true>(slot, interval, split_cost)
        } else {
            self.bound_of::<false>(slot, interval, split_cost)
        }
    }

    /// [`SplitSearch::bound`], under a leaf minimum when `BINDS`.
    #[inline(always)]
    fn bound_of<const BINDS: bool>(
        &self,
        slot: usize,
        interval: &Interval,
        split_cost: f64,
    ) -> (SplitBounds, SplitBounds) {
        let position = self.positions[slot];
        let (mut bounds, mut relaxed) = (SplitBounds::NONE, SplitBounds::NONE);
        if let Some(Solved { slot, report: a }) = interval.left.map(|i| &self.solved[i]) {
            let from = self.positions[*slot];
            let moved = self.prefix[position] - self.prefix[from];
            let (mut left, mut total) = (a.bounds.left, a.bounds.total - moved);
            if BINDS {
                let rows = position - from;
                // The left child, grown to `position` rows, holds no more splits than they
                // allow.
                let splits = self.child_splits[0].min(self.slack.most_splits(position));
                left = self.slack.grown_from(left, a.leaves[0], rows, splits);
                total -= self.slack.grown(rows, splits);
                relaxed = relaxed.max(SplitBounds {
                    left: a.relaxed.left,
                    right: a.relaxed.right - moved,
                    total: a.relaxed.total - moved,
                });
            }
            if self.per_child {
                bounds.left = bounds.left.max(left);
                bounds.right = bounds.right.max(a.bounds.right - moved);
            }
            bounds.total = bounds.total.max(total);
        }
        if let Some(Solved { slot, report: b }) = interval.right.map(|i| &self.solved[i]) {
            let to = self.positions[*slot];
            let moved = self.prefix[to] - self.prefix[position];
            let (mut right, mut total) = (b.bounds.right, b.bounds.total - moved);
            if BINDS {
                let rows = to - position;
                let splits = self.child_splits[1].min(self.slack.most_splits(self.size - position));
                right = self.slack.grown_from(right, b.leaves[1], rows, splits);
                total -= self.slack.grown(rows, splits);
                relaxed = relaxed.max(SplitBounds {
                    left: b.relaxed.left - moved,
                    right: b.relaxed.right,
                    total: b.relaxed.total - moved,
                });
            }
            if self.per_child {
                bounds.left = bounds.left.max(b.bounds.left - moved);
                bounds.right = bounds.right.max(right);
            }
            bounds.total = bounds.total.max(total);
        }
        if !BINDS {
            bounds.total = bounds.total.max(bounds.left + bounds.right + split_cost);
            return (bounds, bounds);
        }
        if !self.per_child {
            (relaxed.left, relaxed.right) = (0.0, 0.0);
        }
        relaxed.total = relaxed.total.max(relaxed.left + relaxed.right + split_cost);
        let mut bounds = bounds.max(relaxed);
        bounds.total = bounds.total.max(bounds.left + bounds.right + split_cost);
        (bounds, relaxed)
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
                relaxed: SplitBounds {
                    left: 0.0,
                    right: 0.0,
                    total: sc,
                },
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
        while let Some(interval) = self.queue.pop_front() {
            if let Some(candidate) = self.step(interval, limit, sc) {
                return Some(candidate);
            }
        }
        None
    }

    /// [`SplitSearch::next`] on the first queued interval alone (with bisection): its position
    /// worth solving, or `None` when it is pruned, its unpruned halves queued. Solving one
    /// interval at a time and handing out the rest ([`SplitSearch::take_pieces`]) searches the
    /// same positions, in the same order on one thread, as [`SplitSearch::next`].
    pub fn next_in_front(&mut self, ub: f64, cost: &CostModel) -> Option<Candidate> {
        debug_assert!(self.bisect, "pieces need bisection");
        let interval = self.queue.pop_front()?;
        self.step(interval, ub - cost.tol, cost.split_cost)
    }

    /// Shrinks `interval` by the bounds, then returns its position to solve, or queues the
    /// halves around a pruned one and returns `None`.
    fn step(&mut self, mut interval: Interval, limit: f64, sc: f64) -> Option<Candidate> {
        // Shrink from both ends while the bound reaches the upper bound.
        loop {
            let lb = self.bound(interval.lo, &interval, sc).0.total;
            if lb < limit {
                break;
            }
            self.prune(lb);
            if interval.lo == interval.hi {
                break;
            }
            interval.lo += 1;
        }
        if self.bound(interval.lo, &interval, sc).0.total >= limit {
            return None;
        }
        while interval.hi > interval.lo {
            let lb = self.bound(interval.hi, &interval, sc).0.total;
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
        let (bounds, relaxed) = self.bound(slot, &interval, sc);
        let lb = bounds.total;
        if lb >= limit {
            self.prune(lb);
            self.push_halves(&interval, slot, interval.left, interval.right);
            return None;
        }
        let position = self.positions[slot];
        let below = self.prefix[position] - self.prefix[self.positions[interval.lo]];
        let above = self.prefix[self.positions[interval.hi]] - self.prefix[position];
        Some(Candidate {
            position,
            left_lb: bounds.left,
            right_lb: bounds.right,
            lb,
            relaxed,
            reach: below.max(above),
            slot,
            interval,
        })
    }

    /// Empties the queue into `out`: each interval of positions neither solved nor pruned, as a
    /// piece another search of the same list can take up ([`SplitSearch::load`]), with the
    /// least bound of its positions.
    pub fn take_pieces(&mut self, split_cost: f64, out: &mut Vec<Piece>) {
        while let Some(interval) = self.queue.pop_front() {
            let lb = (interval.lo..=interval.hi)
                .map(|slot| self.bound(slot, &interval, split_cost).0.total)
                .fold(f64::INFINITY, f64::min);
            out.push(Piece {
                lo: interval.lo,
                hi: interval.hi,
                left: interval.left.map(|i| self.solved[i]),
                right: interval.right.map(|i| self.solved[i]),
                lb,
            });
        }
    }

    /// Takes up `piece` of the list this search was last [`SplitSearch::reset`] on (with
    /// bisection, without per-feature bounds): its interval is the one queued, its bounding
    /// positions the ones solved.
    pub fn load(&mut self, piece: &Piece) {
        debug_assert!(self.bisect && self.features == 0);
        self.solved.clear();
        self.queue.clear();
        self.feature_bounds.clear();
        self.first = None;
        self.pruned_lb = f64::INFINITY;
        self.pruned = 0;
        let mut index = |solved: Option<Solved>| {
            solved.map(|solved| {
                self.solved.push(solved);
                self.solved.len() - 1
            })
        };
        let left = index(piece.left);
        let right = index(piece.right);
        self.queue.push_back(Interval {
            lo: piece.lo,
            hi: piece.hi,
            left,
            right,
        });
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
    /// on each feature. Without a leaf minimum only ([`SplitSearch::report_with`] otherwise).
    pub fn report(
        &mut self,
        candidate: &Candidate,
        left: f64,
        right: f64,
        total: f64,
        per_feature: Option<(&[f64], &[f64])>,
    ) {
        debug_assert!(!self.slack.binds(), "a leaf minimum needs report_with");
        let bounds = SplitBounds { left, right, total };
        let report = Report {
            bounds,
            relaxed: bounds,
            leaves: [f64::INFINITY; 2],
        };
        self.report_with(candidate, report, per_feature.map(|(l, r)| [l, r, l, r]));
    }

    /// Records what solving `candidate` proved ([`Report`]), and optionally a lower bound on
    /// each child's best split on each feature or its leaf plus the split cost, whichever is
    /// less (bound 3 of [`super::leaf_minimum`]): the left child's, the right child's, then the
    /// same without the leaf minimum (read under one only).
    pub fn report_with(
        &mut self,
        candidate: &Candidate,
        report: Report,
        per_feature: Option<[&[f64]; 4]>,
    ) {
        if !self.bisect {
            return;
        }
        if self.features > 0 {
            let kept = if self.slack.binds() { 4 } else { 2 };
            match per_feature {
                Some(bounds) => {
                    for side in &bounds[..kept] {
                        self.feature_bounds
                            .extend_from_slice(&side[..self.features]);
                    }
                }
                None => self
                    .feature_bounds
                    .extend(std::iter::repeat_n(0.0, kept * self.features)),
            }
        }
        let index = self.solved.len();
        self.solved.push(Solved {
            slot: candidate.slot,
            report,
        });
        self.push_halves(
            &candidate.interval,
            candidate.slot,
            Some(index),
            Some(index),
        );
    }

    /// Lower bounds on each child's best split on each feature or its leaf plus the split
    /// cost at `candidate`, into `out` (the left child's, the right child's, then the same
    /// without the leaf minimum, written under one only), from the solved positions around it
    /// ([`super::leaf_minimum`], bound 3: on fewer rows these cost at most the weight of the
    /// rows lost less; on more rows, without the minimum no less, and with it no less than
    /// their least with the leaf plus the split cost less `(m - 1) w`); zero where nothing is
    /// known.
    pub fn feature_priors(&self, candidate: &Candidate, out: [&mut [f64]; 4]) {
        let n = self.features;
        let binds = self.slack.binds();
        let [left, right, free_left, free_right] = out;
        left[..n].fill(0.0);
        right[..n].fill(0.0);
        if binds {
            free_left[..n].fill(0.0);
            free_right[..n].fill(0.0);
        }
        if n == 0 {
            return;
        }
        let stride = if binds { 4 * n } else { 2 * n };
        let position = self.positions[candidate.slot];
        if let Some(a) = candidate.interval.left {
            let solved = self.solved[a];
            let moved = self.prefix[position] - self.prefix[self.positions[solved.slot]];
            let bounds = &self.feature_bounds[stride * a..stride * (a + 1)];
            let leaf = solved.report.leaves[0];
            for f in 0..n {
                left[f] = left[f].max(self.slack.grown_split_from(bounds[f], leaf));
                right[f] = right[f].max(bounds[n + f] - moved);
            }
            if binds {
                for f in 0..n {
                    free_left[f] = free_left[f].max(bounds[2 * n + f]);
                    free_right[f] = free_right[f].max(bounds[3 * n + f] - moved);
                }
            }
        }
        if let Some(b) = candidate.interval.right {
            let solved = self.solved[b];
            let moved = self.prefix[self.positions[solved.slot]] - self.prefix[position];
            let bounds = &self.feature_bounds[stride * b..stride * (b + 1)];
            let leaf = solved.report.leaves[1];
            for f in 0..n {
                left[f] = left[f].max(bounds[f] - moved);
                right[f] = right[f].max(self.slack.grown_split_from(bounds[n + f], leaf));
            }
            if binds {
                for f in 0..n {
                    free_left[f] = free_left[f].max(bounds[2 * n + f] - moved);
                    free_right[f] = free_right[f].max(bounds[3 * n + f]);
                }
            }
        }
        if binds {
            // The problem without the minimum bounds the problem with it.
            for f in 0..n {
                left[f] = left[f].max(free_left[f]);
                right[f] = right[f].max(free_right[f]);
            }
        }
    }
}
