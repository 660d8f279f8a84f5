//! The front of a row set for trees of depth at most two, without recursion (the bi-objective
//! counterpart of MurTree's specialised depth-two solver, over continuous features).
//!
//! Each feature's bins are first renumbered densely over the view's rows ("local bins"), with
//! each local bin's class counts. A depth-one tree is then one pass over every feature's local
//! bins: the split after local bin `b` with `n` negatives and `p` positives on its left reaches
//! `(n, P - p)` (left predicts positive, right negative) and `(N - n, p)` (the reverse).
//!
//! For depth two, the root's split positions of each feature are visited by bisection. Moving
//! the root's threshold moves rows into (or out of) the left child, which updates the left
//! child's count in each local bin of every feature (one counter per row and feature); the
//! right child's counts are the view's less the left's. At each position, one pass over all
//! local bins gives both children's depth-one fronts (as tables indexed by false positives),
//! and their sums are offered to the node's table: the work per position is the number of local
//! bins of the view, not its rows. A solved position's left front bounds the left child of
//! every later position (it holds more rows) and its right front the right child of every
//! earlier one, so an interval between two solved positions is settled at once when the sum of
//! those bounds is covered by the node's front so far, or by the region the caller already
//! covers.

use std::collections::VecDeque;

use crate::pareto::entry::{leaf_front, leaf_points, points, Entry, Made, PointTable, Table};
use crate::pareto::front::{covers_all, minkowski, union, Point};
use crate::search_core::binned::{split_bin, Binned};
use crate::search_core::deadline::Deadline;
use crate::search_core::view::{Arena, View};

/// Scratch space of the depth-two solver, sized for the data once.
#[derive(Debug)]
pub(crate) struct DepthTwo {
    n_rows: usize,
    /// `local_bin[slot * n_rows + row]`: the row's local bin in the view's `slot`-th feature.
    local_bin: Vec<u32>,
    /// Per feature slot: the offset of its local bins in the flat arrays below.
    bin_start: Vec<usize>,
    /// Per flat local bin: where its rows start in its feature's sorted list.
    row_start: Vec<usize>,
    /// Per flat local bin: the threshold bin of a split after it (if it is not the last).
    threshold: Vec<u32>,
    /// Per flat local bin: `[negatives, positives]` of the view.
    total: Vec<[u32; 2]>,
    /// Per flat local bin: `[negatives, positives]` in the left child of the root split.
    left: Vec<[u32; 2]>,
    one_table: Table,
    left_table: PointTable,
    right_table: PointTable,
    node_table: Table,
    left_one: Vec<Point>,
    right_one: Vec<Point>,
    scratch: Vec<Entry>,
    queue: VecDeque<Interval>,
    /// Per solved root position: both children's depth-one fronts.
    anchors: Vec<(Vec<Point>, Vec<Point>)>,
    /// Root split positions evaluated.
    pub positions: u64,
    /// Intervals of root positions settled by their bound.
    pub intervals_pruned: u64,
}

/// Root positions `lo..=hi` (splits after those local bins) not yet settled, with the solved
/// positions before and after them.
#[derive(Debug, Clone, Copy)]
struct Interval {
    lo: usize,
    hi: usize,
    left: Option<usize>,
    right: Option<usize>,
}

const ZERO: [Point; 1] = [Point::ZERO];

/// The depth-one front of one side of a solved position (`[ZERO]` without one).
fn anchor_side(
    anchors: &[(Vec<Point>, Vec<Point>)],
    anchor: Option<usize>,
    left: bool,
) -> &[Point] {
    match anchor {
        Some(a) if left => &anchors[a].0,
        Some(a) => &anchors[a].1,
        None => &ZERO,
    }
}

impl DepthTwo {
    pub fn new(data: &Binned) -> DepthTwo {
        DepthTwo {
            n_rows: data.n_rows,
            local_bin: Vec::new(),
            bin_start: Vec::new(),
            row_start: Vec::new(),
            threshold: Vec::new(),
            total: Vec::new(),
            left: Vec::new(),
            one_table: Table::default(),
            left_table: PointTable::default(),
            right_table: PointTable::default(),
            node_table: Table::default(),
            left_one: Vec::new(),
            right_one: Vec::new(),
            scratch: Vec::new(),
            queue: VecDeque::new(),
            anchors: Vec::new(),
            positions: 0,
            intervals_pruned: 0,
        }
    }

    /// Renumbers the bins of every feature of `view` densely and counts each local bin.
    fn prepare(&mut self, arena: &Arena, view: &View, labels: &[u16]) {
        let n = self.n_rows;
        let p = view.n_features;
        if self.local_bin.len() < p * n {
            self.local_bin.resize(p * n, 0);
        }
        self.bin_start.clear();
        self.row_start.clear();
        self.threshold.clear();
        self.total.clear();
        for slot in 0..p {
            let list = arena.list(view, slot);
            self.bin_start.push(self.total.len());
            let mut previous = list[0].bin;
            let mut local = 0u32;
            self.total.push([0, 0]);
            self.row_start.push(0);
            for (at, e) in list.iter().enumerate() {
                if e.bin != previous {
                    self.threshold.push(split_bin(previous, e.bin));
                    previous = e.bin;
                    local += 1;
                    self.total.push([0, 0]);
                    self.row_start.push(at);
                }
                self.local_bin[slot * n + e.row as usize] = local;
                let last = self.total.len() - 1;
                self.total[last][labels[e.row as usize] as usize] += 1;
            }
            // The last local bin has no split after it.
            self.threshold.push(u32::MAX);
        }
        self.bin_start.push(self.total.len());
        self.left.clear();
        self.left.resize(self.total.len(), [0, 0]);
    }

    /// Moves the root split of feature `root` so that its first `bins` local bins are on the
    /// left, from `current` bins: rows enter or leave the left child's counts.
    #[allow(clippy::too_many_arguments)]
    fn move_root(
        &mut self,
        arena: &Arena,
        view: &View,
        labels: &[u16],
        root: usize,
        current: usize,
        bins: usize,
        left_size: &mut [u32; 2],
    ) {
        let n = self.n_rows;
        let p = view.n_features;
        let list = arena.list(view, root);
        let start = self.bin_start[root];
        let end_of = |local: usize, row_start: &[usize]| {
            if start + local + 1 < self.bin_start[root + 1] {
                row_start[start + local + 1]
            } else {
                list.len()
            }
        };
        let (from, to, add) = if bins > current {
            (current, bins, true)
        } else {
            (bins, current, false)
        };
        if from == to {
            return;
        }
        let (first, last) = (
            self.row_start[start + from],
            end_of(to - 1, &self.row_start),
        );
        for e in &list[first..last] {
            let row = e.row as usize;
            let label = labels[row] as usize;
            for slot in 0..p {
                let flat = self.bin_start[slot] + self.local_bin[slot * n + row] as usize;
                if add {
                    self.left[flat][label] += 1;
                } else {
                    self.left[flat][label] -= 1;
                }
            }
            if add {
                left_size[label] += 1;
            } else {
                left_size[label] -= 1;
            }
        }
    }

    /// The front of `view` for trees of depth at most `depth` (1 or 2) and at most `budget`
    /// splits (`depth <= budget <= 3`), into `out`: every point is reached by a tree, and every
    /// tree's point outside the up-set of `covered` is weakly dominated by one of them (with
    /// `covered` empty, the exact front). `false` when the deadline stopped it (then `out`
    /// holds nothing of use).
    #[allow(clippy::too_many_arguments)]
    pub fn solve(
        &mut self,
        arena: &Arena,
        view: &View,
        labels: &[u16],
        depth: usize,
        budget: usize,
        covered: &[Point],
        intervals: bool,
        deadline: &mut Deadline,
        out: &mut Vec<Entry>,
    ) -> bool {
        let counts = arena.counts(view);
        let (negatives, positives) = (counts[0], counts[1]);
        self.prepare(arena, view, labels);
        if depth == 1 || budget == 1 {
            self.depth_one(arena, view, negatives, positives, out);
            return true;
        }
        let mut node = std::mem::take(&mut self.node_table);
        let mut front = std::mem::take(&mut self.scratch);
        let leaves = leaf_front(negatives, positives);
        node.reset(negatives);
        node.offer_all(&leaves);
        let mut cover = union(covered, &points(&leaves));
        let mut finished = true;
        'features: for root in 0..view.n_features {
            let feature = arena.feature(view, root);
            let root_start = self.bin_start[root];
            let root_bins = self.bin_start[root + 1] - root_start;
            self.left.iter_mut().for_each(|c| *c = [0, 0]);
            let mut left_size = [0u32; 2];
            let mut current = 0usize;
            self.queue.clear();
            self.anchors.clear();
            self.queue.push_back(Interval {
                lo: 0,
                hi: root_bins - 2,
                left: None,
                right: None,
            });
            while let Some(interval) = self.queue.pop_front() {
                let left_bound = anchor_side(&self.anchors, interval.left, true);
                let right_bound = anchor_side(&self.anchors, interval.right, false);
                if intervals && covers_all(&cover, &minkowski(left_bound, right_bound)) {
                    self.intervals_pruned += 1;
                    continue;
                }
                self.positions += 1;
                if self.positions % 64 == 0 && deadline.reached() {
                    finished = false;
                    break 'features;
                }
                // The split after local bin `mid`.
                let mid = interval.lo + (interval.hi - interval.lo) / 2;
                self.move_root(arena, view, labels, root, current, mid + 1, &mut left_size);
                current = mid + 1;
                let right_size = [negatives - left_size[0], positives - left_size[1]];
                self.children_fronts(view, left_size, right_size);
                let threshold = self.threshold[root_start + mid];
                if budget >= 3 {
                    let split = Made::split(feature, threshold, Point::ZERO, (1, 1));
                    node.offer_sums(&self.left_one, &self.right_one, split);
                } else {
                    let left_leaf = leaf_points(left_size[0], left_size[1]);
                    let right_leaf = leaf_points(right_size[0], right_size[1]);
                    let split = Made::split(feature, threshold, Point::ZERO, (1, 0));
                    node.offer_sums(&self.left_one, &right_leaf, split);
                    let split = Made::split(feature, threshold, Point::ZERO, (0, 1));
                    node.offer_sums(&left_leaf, &self.right_one, split);
                }
                if intervals {
                    node.read(&mut front);
                    cover = union(covered, &points(&front));
                }
                self.anchors
                    .push((self.left_one.clone(), self.right_one.clone()));
                let this = Some(self.anchors.len() - 1);
                if mid > interval.lo {
                    self.queue.push_back(Interval {
                        hi: mid - 1,
                        right: this,
                        ..interval
                    });
                }
                if mid < interval.hi {
                    self.queue.push_back(Interval {
                        lo: mid + 1,
                        left: this,
                        ..interval
                    });
                }
            }
        }
        node.read(out);
        self.node_table = node;
        self.scratch = front;
        finished
    }

    /// The depth-one front of the whole view.
    fn depth_one(
        &mut self,
        arena: &Arena,
        view: &View,
        negatives: u32,
        positives: u32,
        out: &mut Vec<Entry>,
    ) {
        let mut table = std::mem::take(&mut self.one_table);
        table.reset(negatives);
        table.offer_all(&leaf_front(negatives, positives));
        for slot in 0..view.n_features {
            let feature = arena.feature(view, slot);
            let (start, end) = (self.bin_start[slot], self.bin_start[slot + 1]);
            let (mut n, mut p) = (0u32, 0u32);
            for flat in start..end - 1 {
                n += self.total[flat][0];
                p += self.total[flat][1];
                offer_split(
                    &mut table,
                    feature,
                    self.threshold[flat],
                    n,
                    p,
                    negatives,
                    positives,
                );
            }
        }
        table.read(out);
        self.one_table = table;
    }

    /// The depth-one fronts (points) of both children of the current root split, into
    /// `left_one` and `right_one`. A local bin holding no row of a side leaves that side's
    /// split points as they were at the bin before, so it offers nothing there.
    fn children_fronts(&mut self, view: &View, left_size: [u32; 2], right_size: [u32; 2]) {
        let (left_table, right_table) = (&mut self.left_table, &mut self.right_table);
        left_table.reset(left_size[0]);
        right_table.reset(right_size[0]);
        for leaf in leaf_points(left_size[0], left_size[1]) {
            left_table.offer(leaf);
        }
        for leaf in leaf_points(right_size[0], right_size[1]) {
            right_table.offer(leaf);
        }
        let [left_negatives, left_positives] = left_size;
        let [right_negatives, right_positives] = right_size;
        for slot in 0..view.n_features {
            let (start, end) = (self.bin_start[slot], self.bin_start[slot + 1]);
            let (mut ln, mut lp, mut rn, mut rp) = (0u32, 0u32, 0u32, 0u32);
            for flat in start..end - 1 {
                let [l_neg, l_pos] = self.left[flat];
                let [t_neg, t_pos] = self.total[flat];
                let (r_neg, r_pos) = (t_neg - l_neg, t_pos - l_pos);
                if l_neg + l_pos > 0 {
                    ln += l_neg;
                    lp += l_pos;
                    // Left predicts positive, right negative; and the reverse.
                    left_table.offer(Point::new(ln, left_positives - lp));
                    left_table.offer(Point::new(left_negatives - ln, lp));
                }
                if r_neg + r_pos > 0 {
                    rn += r_neg;
                    rp += r_pos;
                    right_table.offer(Point::new(rn, right_positives - rp));
                    right_table.offer(Point::new(right_negatives - rn, rp));
                }
            }
        }
        left_table.read(&mut self.left_one);
        right_table.read(&mut self.right_one);
    }
}

/// Offers the two points of a depth-one split with `n` negatives and `p` positives on its left,
/// of a row set of `negatives` and `positives`. A split with an empty side reaches a leaf's
/// point, which the leaf already holds, so it is never kept.
#[inline]
fn offer_split(
    table: &mut Table,
    feature: u32,
    threshold: u32,
    n: u32,
    p: u32,
    negatives: u32,
    positives: u32,
) {
    // Left predicts positive, right negative.
    table.offer(
        Point::new(n, positives - p),
        Made::split(feature, threshold, Point::new(n, 0), (0, 0)),
    );
    // Left predicts negative, right positive.
    table.offer(
        Point::new(negatives - n, p),
        Made::split(feature, threshold, Point::new(0, p), (0, 0)),
    );
}
