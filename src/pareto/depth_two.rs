//! The exact front of a row set for trees of depth at most two, without recursion (the
//! bi-objective counterpart of MurTree's specialised depth-two solver, over continuous
//! features).
//!
//! Each feature's bins are first renumbered densely over the view's rows ("local bins"), with
//! each local bin's class counts. A depth-one tree is then one pass over every feature's local
//! bins: the split after local bin `b` with `n` negatives and `p` positives on its left reaches
//! `(n, P - p)` (left predicts positive, right negative) and `(N - n, p)` (the reverse).
//!
//! For depth two, the root's split positions of each feature are visited in order. Moving the
//! root's threshold past one local bin moves its rows into the left child, which updates the
//! left child's count in each local bin of every feature (one counter per row and feature);
//! the right child's counts are the view's less the left's. At each position, one pass over all
//! local bins gives both children's depth-one fronts (as tables indexed by false positives),
//! and their sums are offered to the node's table. The work per position is the number of
//! local bins of the view, not its rows.

use crate::dp::binned::Binned;
use crate::dp::deadline::Deadline;
use crate::dp::view::{Arena, View};
use crate::pareto::entry::{leaf_front, Entry, Made, Table};
use crate::pareto::front::Point;

/// Scratch space of the depth-two solver, sized for the data once.
#[derive(Debug)]
pub(crate) struct DepthTwo {
    n_rows: usize,
    /// `local_bin[slot * n_rows + row]`: the row's local bin in the view's `slot`-th feature.
    local_bin: Vec<u32>,
    /// Per feature slot: the offset of its local bins in the flat arrays below.
    bin_start: Vec<usize>,
    /// Per flat local bin: the threshold bin of a split after it (if it is not the last).
    threshold: Vec<u32>,
    /// Per flat local bin: `[negatives, positives]` of the view.
    total: Vec<[u32; 2]>,
    /// Per flat local bin: `[negatives, positives]` in the left child of the root split.
    left: Vec<[u32; 2]>,
    left_table: Table,
    right_table: Table,
    node_table: Table,
    left_one: Vec<Entry>,
    right_one: Vec<Entry>,
    left_leaf: Vec<Entry>,
    right_leaf: Vec<Entry>,
    /// Root split positions evaluated.
    pub positions: u64,
}

/// The threshold bin between two adjacent bins: the middle candidate.
pub(crate) fn split_bin(low: u32, high: u32) -> u32 {
    low + (high - 1 - low) / 2
}

impl DepthTwo {
    pub fn new(data: &Binned) -> DepthTwo {
        DepthTwo {
            n_rows: data.n_rows,
            local_bin: Vec::new(),
            bin_start: Vec::new(),
            threshold: Vec::new(),
            total: Vec::new(),
            left: Vec::new(),
            left_table: Table::default(),
            right_table: Table::default(),
            node_table: Table::default(),
            left_one: Vec::new(),
            right_one: Vec::new(),
            left_leaf: Vec::new(),
            right_leaf: Vec::new(),
            positions: 0,
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
        self.threshold.clear();
        self.total.clear();
        for slot in 0..p {
            let list = arena.list(view, slot);
            self.bin_start.push(self.total.len());
            let mut previous = list[0].bin;
            let mut local = 0u32;
            self.total.push([0, 0]);
            for e in list {
                if e.bin != previous {
                    self.threshold.push(split_bin(previous, e.bin));
                    previous = e.bin;
                    local += 1;
                    self.total.push([0, 0]);
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

    /// The exact front of `view` (`negatives`, `positives` rows) for trees of depth at most
    /// `depth` (1 or 2) and at most `budget` splits (`depth <= budget <= 3`), into `out`.
    /// `false` when the deadline stopped it (then `out` holds nothing of use).
    #[allow(clippy::too_many_arguments)]
    pub fn solve(
        &mut self,
        arena: &Arena,
        view: &View,
        labels: &[u16],
        depth: usize,
        budget: usize,
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
        node.reset(negatives);
        node.offer_all(&leaf_front(negatives, positives));
        let n = self.n_rows;
        let p = view.n_features;
        let mut finished = true;
        'features: for root in 0..p {
            if deadline.reached() {
                finished = false;
                break 'features;
            }
            let feature = arena.feature(view, root);
            self.left.iter_mut().for_each(|c| *c = [0, 0]);
            let list = arena.list(view, root);
            let (root_start, root_end) = (self.bin_start[root], self.bin_start[root + 1]);
            let mut at = 0usize;
            let (mut left_negatives, mut left_positives) = (0u32, 0u32);
            for root_bin in 0..(root_end - root_start - 1) {
                // Move the rows of this local bin into the left child.
                let local = root_bin as u32;
                while at < list.len() && self.local_bin[root * n + list[at].row as usize] == local {
                    let row = list[at].row as usize;
                    let label = labels[row] as usize;
                    for slot in 0..p {
                        let flat = self.bin_start[slot] + self.local_bin[slot * n + row] as usize;
                        self.left[flat][label] += 1;
                    }
                    if label == 0 {
                        left_negatives += 1;
                    } else {
                        left_positives += 1;
                    }
                    at += 1;
                }
                self.positions += 1;
                if self.positions % 64 == 0 && deadline.reached() {
                    finished = false;
                    break 'features;
                }
                let right_negatives = negatives - left_negatives;
                let right_positives = positives - left_positives;
                self.children_fronts(
                    arena,
                    view,
                    [left_negatives, left_positives],
                    [right_negatives, right_positives],
                );
                let threshold = self.threshold[root_start + root_bin];
                if budget >= 3 {
                    let split = Made::split(feature, threshold, Point::ZERO, (1, 1));
                    node.offer_sums(&self.left_one, &self.right_one, split);
                } else {
                    self.left_leaf = leaf_front(left_negatives, left_positives);
                    self.right_leaf = leaf_front(right_negatives, right_positives);
                    let split = Made::split(feature, threshold, Point::ZERO, (1, 0));
                    node.offer_sums(&self.left_one, &self.right_leaf, split);
                    let split = Made::split(feature, threshold, Point::ZERO, (0, 1));
                    node.offer_sums(&self.left_leaf, &self.right_one, split);
                }
            }
        }
        node.read(out);
        self.node_table = node;
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
        let mut table = std::mem::take(&mut self.left_table);
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
        self.left_table = table;
    }

    /// The depth-one fronts of both children of the current root split, into `left_one` and
    /// `right_one`.
    fn children_fronts(
        &mut self,
        arena: &Arena,
        view: &View,
        left_size: [u32; 2],
        right_size: [u32; 2],
    ) {
        let (left_table, right_table) = (&mut self.left_table, &mut self.right_table);
        left_table.reset(left_size[0]);
        right_table.reset(right_size[0]);
        left_table.offer_all(&leaf_front(left_size[0], left_size[1]));
        right_table.offer_all(&leaf_front(right_size[0], right_size[1]));
        for slot in 0..view.n_features {
            let feature = arena.feature(view, slot);
            let (start, end) = (self.bin_start[slot], self.bin_start[slot + 1]);
            let (mut ln, mut lp, mut rn, mut rp) = (0u32, 0u32, 0u32, 0u32);
            for flat in start..end - 1 {
                let [l_neg, l_pos] = self.left[flat];
                let [t_neg, t_pos] = self.total[flat];
                ln += l_neg;
                lp += l_pos;
                rn += t_neg - l_neg;
                rp += t_pos - l_pos;
                let threshold = self.threshold[flat];
                offer_split(
                    left_table,
                    feature,
                    threshold,
                    ln,
                    lp,
                    left_size[0],
                    left_size[1],
                );
                offer_split(
                    right_table,
                    feature,
                    threshold,
                    rn,
                    rp,
                    right_size[0],
                    right_size[1],
                );
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
