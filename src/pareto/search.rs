//! The bi-objective search: the (FP, FN) front of a row set at a depth and split budget, by
//! dynamic programming over row sets with bounds.
//!
//! [`Search::solve`] answers one subproblem for a caller that already covers a region (an
//! up-set, given by its staircase; empty for the exact front): it returns points each reached
//! by a tree, such that every tree's point outside that region is weakly dominated by one of
//! them (the front is exact outside the region). It normalises the depth and budget to what the
//! rows allow, asks the cache, and hands depth two or less to [`DepthTwo`]. Deeper subproblems
//! ([`Search::general`]) try every split of every feature and merge their children's fronts
//! into the node's front, with these bounds:
//! - (A) upper bounds: the node covers its caller's region and its own front so far. A child
//!   only has to be exact where its points can leave that region: outside the intersection,
//!   over every point `r` the sibling can reach (its lower bound, before it is solved; its
//!   front, after), of the region moved down by `r`. After the first child is solved, the
//!   second is skipped when the first's front plus the second's lower bound is covered;
//! - (B) a solved subproblem's front is cached with the region it is exact outside of; a later
//!   call whose region holds that one reuses it, any other call gets the front and the region's
//!   corners as a lower bound, and skips the subproblem when its own region covers them;
//! - (C) children's lower bounds come from the cache and (D) from nearby solved splits of the
//!   same feature: splits are visited by bisection, and the left child of a position holds the
//!   left child of every position before it (the right child, of every position after it), so
//!   a solved position's child bounds them, and a whole interval of positions between two solved
//!   ones is bounded at once by the left child of the one and the right child of the other.
//!
//! Intervals are taken first in first out over all features, so every feature gets a solved
//! position early: when the search is stopped, every position not settled still has a bound,
//! and the root reports a valid lower-bound front.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::pareto::depth_two::DepthTwo;
use crate::pareto::entry::{leaf_front, points, Entry, Made, Table};
use crate::pareto::front::{
    covers_all, intersection, lowered, minkowski, nondominated, union, Point,
};
use crate::pareto::known::{lookup, FrontCache, KnownFront, Lookup};
use crate::pareto::root::RootShare;
use crate::pareto::{ParetoBounds, ParetoStats};
use crate::search_core::binned::split_bin;
use crate::search_core::binned::Binned;
use crate::search_core::budget::{budget_distributions, full};
use crate::search_core::deadline::Deadline;
use crate::search_core::view::{Arena, View};

/// A run of split positions of one feature (indices `lo..=hi` of its position list) not yet
/// settled, with the nearest solved positions before and after it that bound its children.
#[derive(Debug, Clone, Copy)]
struct Interval {
    slot: usize,
    lo: usize,
    hi: usize,
    /// The anchor whose left child's bound holds for every left child here.
    left: Option<usize>,
    /// The anchor whose right child's bound holds for every right child here.
    right: Option<usize>,
}

/// Lower-bound fronts of the children (at the largest budget) of a solved position.
#[derive(Debug, Default)]
struct Anchor {
    left: Option<Vec<Point>>,
    right: Option<Vec<Point>>,
}

/// The working space of one node, per arena level.
#[derive(Debug, Default)]
struct Level {
    table: Table,
    positions: Vec<Vec<usize>>,
    queue: VecDeque<Interval>,
    anchors: Vec<Anchor>,
    front: Vec<Entry>,
}

/// What a node of depth three or more established.
pub(crate) enum NodeResult {
    /// Its front, exact outside the caller's region.
    Done(Arc<[Entry]>),
    /// Stopped: the points found so far (each reached by a tree) and a valid lower-bound front
    /// (computed only when asked for).
    Stopped {
        found: Vec<Entry>,
        lower: Vec<Point>,
    },
}

/// The search's state: data, buffers, cache, limits and counters.
pub(crate) struct Search<'a> {
    pub data: &'a Binned,
    pub arena: Arena,
    pub cache: Arc<FrontCache>,
    pub depth_two: DepthTwo,
    pub deadline: Deadline,
    pub stats: ParetoStats,
    pub bounds: ParetoBounds,
    levels: Vec<Level>,
    scratch: Vec<Entry>,
}

pub(crate) const ZERO: [Point; 1] = [Point::ZERO];

/// The region a child must be exact outside of: the points `c` such that `c + r` is covered
/// for every point `r` the sibling can reach (`sibling` is a lower bound of those, or their
/// front): the intersection, over `r`, of `covered` moved down by `r`.
pub(crate) fn child_region(covered: &[Point], sibling: &[Point]) -> Vec<Point> {
    let mut region: Option<Vec<Point>> = None;
    for &r in sibling {
        let moved = lowered(covered, r);
        region = Some(match region {
            None => moved,
            Some(so_far) => intersection(&so_far, &moved),
        });
        if region.as_ref().is_some_and(Vec::is_empty) {
            break;
        }
    }
    region.unwrap_or_default()
}

impl<'a> Search<'a> {
    pub fn new(
        data: &'a Binned,
        bounds: ParetoBounds,
        cache_bytes: usize,
        deadline: Deadline,
    ) -> Search<'a> {
        let cache = Arc::new(FrontCache::new(data.n_rows, cache_bytes));
        Search::sharing(data, bounds, cache, deadline)
    }

    /// A search that shares `cache` with others (the other threads of one search).
    pub fn sharing(
        data: &'a Binned,
        bounds: ParetoBounds,
        cache: Arc<FrontCache>,
        deadline: Deadline,
    ) -> Search<'a> {
        Search {
            data,
            arena: Arena::new(data),
            cache,
            depth_two: DepthTwo::new(data),
            deadline,
            stats: ParetoStats::default(),
            bounds,
            levels: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// The depth and budget that matter for `view`: no more splits than its rows can fill or
    /// its depth can hold, no deeper than its splits; nothing when no feature splits it.
    pub fn normalize(&self, view: &View, depth: usize, budget: usize) -> (usize, usize) {
        if view.n_features == 0 {
            return (0, 0);
        }
        let budget = budget.min(full(depth)).min(view.size.saturating_sub(1));
        (depth.min(budget), budget)
    }

    fn note_memory(&mut self) {
        let bytes = (self.cache.bytes() + self.arena.bytes()) as u64;
        self.stats.peak_memory_bytes = self.stats.peak_memory_bytes.max(bytes);
    }

    /// The front of `view` with at most `depth` levels and `budget` splits, exact outside the
    /// up-set of `covered` (empty: the exact front); `None` when the deadline stopped the
    /// search.
    pub fn solve(
        &mut self,
        view: &View,
        depth: usize,
        budget: usize,
        covered: &[Point],
    ) -> Option<Arc<[Entry]>> {
        self.stats.subproblems += 1;
        let (depth, budget) = self.normalize(view, depth, budget);
        let counts = self.arena.counts(view);
        let (negatives, positives) = (counts[0], counts[1]);
        if depth == 0 || negatives == 0 || positives == 0 {
            return Some(Arc::from(leaf_front(negatives, positives)));
        }
        if depth >= 2 {
            let rows = self.arena.list(view, 0);
            match lookup(&self.cache, view.hash, depth, budget, rows, covered) {
                Lookup::Front(front) => {
                    self.stats.cache_hits += 1;
                    return Some(front);
                }
                Lookup::Bound(bound) if self.bounds.upper_bound && covers_all(covered, &bound) => {
                    self.stats.bound_pruned += 1;
                    return Some(Arc::from(Vec::new()));
                }
                _ => {}
            }
        }
        let covered = if self.bounds.upper_bound {
            covered
        } else {
            &[]
        };
        let front: Arc<[Entry]> = if depth <= 2 {
            self.stats.depth_two_calls += 1;
            let mut out = std::mem::take(&mut self.scratch);
            let finished = self.depth_two.solve(
                &self.arena,
                view,
                &self.data.labels,
                depth,
                budget,
                covered,
                self.bounds.intervals,
                &mut self.deadline,
                &mut out,
            );
            let front = Arc::from(out.as_slice());
            self.scratch = out;
            if !finished {
                return None;
            }
            front
        } else {
            match self.general(view, depth, budget, covered, false, None) {
                NodeResult::Done(front) => front,
                NodeResult::Stopped { .. } => return None,
            }
        };
        if depth >= 2 {
            let rows = self.arena.list(view, 0);
            self.cache.put(
                view.hash,
                depth,
                budget,
                rows,
                KnownFront::new(&front, covered),
            );
            self.note_memory();
        }
        Some(front)
    }

    /// The root's exact front, or after a stop, the points found and a lower-bound front.
    pub fn solve_root(&mut self, root: &View, depth: usize, budget: usize) -> NodeResult {
        let (depth, budget) = self.normalize(root, depth, budget);
        let counts = self.arena.counts(root);
        let (negatives, positives) = (counts[0], counts[1]);
        if depth <= 2 || negatives == 0 || positives == 0 {
            if let Some(front) = self.solve(root, depth, budget, &[]) {
                return NodeResult::Done(front);
            }
            return NodeResult::Stopped {
                found: leaf_front(negatives, positives),
                lower: ZERO.to_vec(),
            };
        }
        let result = self.general(root, depth, budget, &[], true, None);
        if let NodeResult::Done(front) = &result {
            let rows = self.arena.list(root, 0);
            self.cache
                .put(root.hash, depth, budget, rows, KnownFront::new(front, &[]));
        }
        result
    }

    fn ensure_level(&mut self, level: usize) {
        while self.levels.len() <= level {
            self.levels.push(Level::default());
        }
    }

    /// Depth three or more: every split position of every feature, by bisection per feature,
    /// both children solved recursively, their fronts merged into the node's. With `part`, the
    /// root's share of one thread: only the feature in that slot, whose region is what the
    /// other features found (read again before each interval) and whose points are published.
    pub(crate) fn general(
        &mut self,
        view: &View,
        depth: usize,
        budget: usize,
        covered: &[Point],
        want_bound: bool,
        part: Option<(usize, &RootShare)>,
    ) -> NodeResult {
        let level = view.level;
        self.ensure_level(level);
        let mut work = std::mem::take(&mut self.levels[level]);
        let counts = self.arena.counts(view);
        let (negatives, positives) = (counts[0], counts[1]);
        work.front = leaf_front(negatives, positives);
        let region = |front: &[Entry]| match part {
            None => union(covered, &points(front)),
            Some((slot, share)) => union(&share.region(slot), &points(front)),
        };
        let mut cover = region(&work.front);
        let mut distributions = Vec::new();
        budget_distributions(depth, budget, &mut distributions);
        let node = NodeSplits {
            depth,
            negatives,
            distributions: &distributions,
            child_most: (budget - 1).min(full(depth - 1)),
        };
        self.queue_intervals(view, part, &mut work);

        let mut stopped_at = None;
        while let Some(interval) = work.queue.pop_front() {
            if self.deadline.reached() {
                stopped_at = Some(interval);
                break;
            }
            if part.is_some() {
                cover = region(&work.front);
            }
            let left_bound = anchor_side(&work.anchors, interval.left, true);
            let right_bound = anchor_side(&work.anchors, interval.right, false);
            if self.bounds.intervals && covers_all(&cover, &minkowski(left_bound, right_bound)) {
                self.stats.intervals_pruned += 1;
                self.stats.positions_pruned += (interval.hi - interval.lo + 1) as u64;
                continue;
            }
            let mid = interval.lo + (interval.hi - interval.lo) / 2;
            let position = work.positions[interval.slot][mid];
            let sides = Sides {
                cover: &cover,
                left: left_bound,
                right: right_bound,
            };
            let Some((anchor, merged)) = self.split_at(
                view,
                (interval.slot, position),
                &node,
                &sides,
                (&mut work.table, &work.front),
            ) else {
                stopped_at = Some(interval);
                break;
            };
            if merged {
                work.table.read(&mut work.front);
                if let Some((slot, share)) = part {
                    share.publish(slot, points(&work.front));
                }
                cover = region(&work.front);
            }
            let has_left = anchor.left.is_some();
            let has_right = anchor.right.is_some();
            work.anchors.push(anchor);
            let this = Some(work.anchors.len() - 1);
            if mid > interval.lo {
                work.queue.push_back(Interval {
                    hi: mid - 1,
                    right: if has_right { this } else { interval.right },
                    ..interval
                });
            }
            if mid < interval.hi {
                work.queue.push_back(Interval {
                    lo: mid + 1,
                    left: if has_left { this } else { interval.left },
                    ..interval
                });
            }
        }

        let result = match stopped_at {
            None => NodeResult::Done(Arc::from(work.front.as_slice())),
            Some(current) => NodeResult::Stopped {
                found: work.front.clone(),
                lower: if want_bound {
                    lower_front(&work, &current)
                } else {
                    Vec::new()
                },
            },
        };
        self.levels[level] = work;
        result
    }

    /// Queues one interval of every split position per feature of `view` (the feature in
    /// `part`'s slot alone with `part`), each position where the bin changes.
    fn queue_intervals(&self, view: &View, part: Option<(usize, &RootShare)>, work: &mut Level) {
        work.positions.resize_with(view.n_features, Vec::new);
        work.queue.clear();
        work.anchors.clear();
        let slots = match part {
            Some((slot, _)) => slot..slot + 1,
            None => 0..view.n_features,
        };
        for slot in slots {
            let list = self.arena.list(view, slot);
            let positions = &mut work.positions[slot];
            positions.clear();
            positions.extend((1..list.len()).filter(|&k| list[k - 1].bin != list[k].bin));
            if !positions.is_empty() {
                work.queue.push_back(Interval {
                    slot,
                    lo: 0,
                    hi: positions.len() - 1,
                    left: None,
                    right: None,
                });
            }
        }
    }

    /// The split of `view` at `position` of the feature in `slot`: for each distribution of
    /// the budget, both children's fronts (the larger child first, the second skipped when the
    /// first's front with the second's bound adds nothing to the cover), their sums offered to
    /// `table` (seeded with the node's `front` on the first offer). Returns the children's
    /// bounds at the largest budget and whether anything was offered; `None` when the search
    /// stopped.
    fn split_at(
        &mut self,
        view: &View,
        (slot, position): (usize, usize),
        node: &NodeSplits<'_>,
        sides: &Sides<'_>,
        (table, front): (&mut Table, &[Entry]),
    ) -> Option<(Anchor, bool)> {
        let feature = self.arena.feature(view, slot);
        let bin = {
            let list = self.arena.list(view, slot);
            split_bin(list[position - 1].bin, list[position].bin)
        };
        let (left, right) = self.arena.split(view, slot, position);
        self.stats.splits += 1;
        // The larger child first: its front is the likelier to settle the split.
        let left_first = left.size >= right.size;
        let mut anchor = Anchor::default();
        let mut merged = false;
        for &(left_budget, right_budget) in node.distributions {
            let (first, first_budget, second, second_budget, second_bound) = if left_first {
                (left, left_budget, right, right_budget, sides.right)
            } else {
                (right, right_budget, left, left_budget, sides.left)
            };
            let first_region = if self.bounds.upper_bound {
                child_region(sides.cover, second_bound)
            } else {
                Vec::new()
            };
            let first_front = self.solve(&first, node.depth - 1, first_budget, &first_region)?;
            let first_points = points(&first_front);
            if first_budget == node.child_most {
                let bound = union(&first_points, &first_region);
                if left_first {
                    anchor.left = Some(bound);
                } else {
                    anchor.right = Some(bound);
                }
            }
            if first_points.is_empty()
                || (self.bounds.second_child
                    && covers_all(sides.cover, &minkowski(&first_points, second_bound)))
            {
                self.stats.second_children_pruned += 1;
                continue;
            }
            let second_region = if self.bounds.upper_bound {
                child_region(sides.cover, &first_points)
            } else {
                Vec::new()
            };
            let second_front =
                self.solve(&second, node.depth - 1, second_budget, &second_region)?;
            let second_points = points(&second_front);
            if second_budget == node.child_most {
                let bound = union(&second_points, &second_region);
                if left_first {
                    anchor.right = Some(bound);
                } else {
                    anchor.left = Some(bound);
                }
            }
            let (left_front, right_front) = if left_first {
                (&first_points, &second_points)
            } else {
                (&second_points, &first_points)
            };
            if !merged {
                table.reset(node.negatives);
                table.offer_all(front);
                merged = true;
            }
            let split = Made::split(feature, bin, Point::ZERO, (left_budget, right_budget));
            table.offer_sums(left_front, right_front, split);
        }
        Some((anchor, merged))
    }
}

/// What every split of a node shares: its depth, its negatives, the distributions of its
/// budget between the children, and a child's largest useful budget.
struct NodeSplits<'a> {
    depth: usize,
    negatives: u32,
    distributions: &'a [(usize, usize)],
    child_most: usize,
}

/// The node's cover and the bounds on its children's fronts an interval's anchors give.
struct Sides<'a> {
    cover: &'a [Point],
    left: &'a [Point],
    right: &'a [Point],
}

/// A lower-bound front of a node stopped at `current`: its front found so far with, for the
/// current interval and every queued one, the sum of its anchors' bounds on the children.
fn lower_front(work: &Level, current: &Interval) -> Vec<Point> {
    let mut all = points(&work.front);
    for interval in std::iter::once(current).chain(work.queue.iter()) {
        let left_bound = anchor_side(&work.anchors, interval.left, true);
        let right_bound = anchor_side(&work.anchors, interval.right, false);
        all.extend(minkowski(left_bound, right_bound));
    }
    nondominated(all)
}

/// The front an anchor gives for one side (`[ZERO]`, the trivial bound, without one).
fn anchor_side(anchors: &[Anchor], anchor: Option<usize>, left: bool) -> &[Point] {
    anchor
        .and_then(|a| {
            let anchor = &anchors[a];
            if left {
                anchor.left.as_deref()
            } else {
                anchor.right.as_deref()
            }
        })
        .unwrap_or(&ZERO)
}
