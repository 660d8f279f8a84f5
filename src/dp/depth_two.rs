//! The specialised depth-two search (a budget of two or three splits).
//!
//! The first split's positions are searched by bisection, feature by feature
//! ([`SplitSearch`]). At a position, each child's best depth-one subtree comes from a scan of
//! its rows ([`best_split`]), one feature at a time: the child's rows are filtered out of the
//! feature's sorted list and scanned below the child's target (with two classes, each row as
//! its bin and class packed in one word, [`PackedRow`]: half the bytes written, and the scan
//! looks no class up). The larger child goes first; the other child's target is what the first
//! leaves of the upper bound, widened by the candidate's reach so that a failure still bounds
//! the whole interval around it.
//!
//! Each solved position also records, per child and feature, a lower bound on the child's best
//! split on that feature. A neighbouring position inherits them (a child's best split on one
//! feature costs no less on more rows, less the leaf minimum's slack, and at most the weight of
//! the moved rows less on fewer: [`crate::dp::leaf_minimum`], bound 3), and a feature whose
//! inherited bound reaches the child's target is not scanned at all. Features are scanned in
//! increasing order of that bound, so the target falls early. A child too small to split under
//! the leaf minimum is its leaf, without a scan.

use crate::dp::depth_one::{best_split, BestSplit, PackedRow, ScanRow};
use crate::dp::intervals::{Candidate, Report, SplitBounds};
use crate::dp::known::{Solution, SplitChoice};
use crate::dp::leaf_minimum::LeafSlack;
use crate::dp::search::{finish, FeatureRank, Outcome, Search, SideValue, FIRST_AT_GINI};
use crate::search_core::binned::{split_bin, Binned, Element};
use crate::search_core::view::View;

/// Reusable buffers of the depth-two search.
#[derive(Debug, Default)]
pub(crate) struct PairScratch {
    /// Per row: bit 0 clear if the candidate split sends it left, set if right; bit 1 the
    /// lowest bit of its class (its class, with two classes).
    side: Vec<u8>,
    /// Whether the children's lists are packed ([`PackedRow`]: two classes, and every bin
    /// packs): then `packed` holds them and `lists` is empty, else the converse.
    packs: bool,
    /// Per child: its rows of each feature of the view, in that feature's order (feature `i`
    /// at `i * (size + 1)`), split off the view's lists when first needed.
    lists: [Vec<Element>; 2],
    /// As `lists`, packed.
    packed: [Vec<PackedRow>; 2],
    /// Per feature of the view: whether its lists are split for the current candidate.
    split: Vec<bool>,
    /// Per child: its size at the current candidate.
    sizes: [usize; 2],
    /// Per child: class counts.
    counts: [Vec<u32>; 2],
    /// Per child and feature: the bound inherited from solved neighbours (the left child's, the
    /// right child's, then under a leaf minimum the same without it).
    priors: [Vec<f64>; 4],
    /// Per child and feature: the bound this candidate proves (as `priors`).
    bounds: [Vec<f64>; 4],
    /// Per child, under a leaf minimum: a lower bound on its best single split or leaf without
    /// the minimum, from the scans of the current candidate.
    free: [f64; 2],
    /// Features by increasing prior.
    order: Vec<(f64, usize)>,
}

impl PairScratch {
    pub fn new(data: &Binned) -> PairScratch {
        let f = data.n_features();
        let k = data.n_classes;
        let packs = k == 2
            && !data.multiplies()
            && data.thresholds.iter().all(|t| PackedRow::fits(t.len() + 1));
        let room = |used: bool| if used { f * (data.n_rows + 1) } else { 0 };
        PairScratch {
            side: vec![0; data.n_rows],
            packs,
            lists: std::array::from_fn(|_| vec![Element::default(); room(!packs)]),
            packed: std::array::from_fn(|_| vec![PackedRow::default(); room(packs)]),
            split: vec![false; f],
            sizes: [0, 0],
            counts: [vec![0; k], vec![0; k]],
            priors: std::array::from_fn(|_| vec![0.0; f]),
            bounds: std::array::from_fn(|_| vec![0.0; f]),
            free: [f64::NEG_INFINITY; 2],
            order: Vec::with_capacity(f),
        }
    }
}

impl PairScratch {
    /// Marks each row's side of the split of `list` at `position` (left before it) and counts
    /// each child's classes (each row its multiplicity), the right's as the node's `counts`
    /// less the left's.
    fn mark_sides(&mut self, list: &[Element], position: usize, data: &Binned, counts: &[u32]) {
        let labels = &data.labels;
        let [left_counts, right_counts] = &mut self.counts;
        left_counts.iter_mut().for_each(|c| *c = 0);
        for e in &list[..position] {
            let label = labels[e.row as usize];
            self.side[e.row as usize] = (label as u8 & 1) << 1;
            left_counts[label as usize] += 1;
        }
        if data.multiplies() {
            left_counts.iter_mut().for_each(|c| *c = 0);
            for e in &list[..position] {
                let row = e.row as usize;
                left_counts[labels[row] as usize] += data.multiplicities[row];
            }
        }
        for e in &list[position..] {
            self.side[e.row as usize] = 1 | (labels[e.row as usize] as u8 & 1) << 1;
        }
        for ((r, &t), &l) in right_counts.iter_mut().zip(counts).zip(left_counts.iter()) {
            *r = t - l;
        }
    }

    /// The bounds the neighbouring candidates inherit: a child not `scanned` passes on its
    /// priors; under a leaf minimum (`most`: each child's leaf plus a split) every bound is at
    /// most that (bound 3 of `leaf_minimum`), and the bounds without the minimum are kept too.
    fn inherit_bounds(&mut self, n_features: usize, scanned: [bool; 2], most: Option<[f64; 2]>) {
        for (kind, (bounds, priors)) in self.bounds.iter_mut().zip(&self.priors).enumerate() {
            let side = kind % 2;
            if kind >= 2 && most.is_none() {
                break;
            }
            if !scanned[side] {
                bounds[..n_features].copy_from_slice(&priors[..n_features]);
            }
            if let Some(most) = most {
                bounds[..n_features]
                    .iter_mut()
                    .for_each(|b| *b = b.min(most[side]));
            }
        }
    }
}

/// What a candidate's children are worth ([`Search::children_value`]): each child's value,
/// the total, whether it is exact, which children split and which were scanned.
struct ChildrenValue {
    values: [SideValue; 2],
    total: f64,
    exact: bool,
    splitting: [bool; 2],
    scanned: [bool; 2],
}

/// The report of a candidate under a leaf minimum: without the minimum, a child's best single
/// split costs at least the least of its value and its leaf less the slack (bound 2 of
/// `leaf_minimum` with one split).
fn relaxed_report(
    pair: &PairScratch,
    candidate: &Candidate,
    bounds: SplitBounds,
    (budget, sc, leaves): (usize, f64, [f64; 2]),
    slack: &LeafSlack,
) -> Report {
    let relaxed = [
        slack
            .grown_from(bounds.left, leaves[0], 1, 1)
            .max(candidate.relaxed.left)
            .max(pair.free[0]),
        slack
            .grown_from(bounds.right, leaves[1], 1, 1)
            .max(candidate.relaxed.right)
            .max(pair.free[1]),
    ];
    let relaxed_total = if budget >= 3 {
        sc + relaxed[0] + relaxed[1]
    } else {
        sc + (relaxed[0] + leaves[1]).min(leaves[0] + relaxed[1])
    };
    Report {
        bounds,
        relaxed: SplitBounds {
            left: relaxed[0],
            right: relaxed[1],
            total: relaxed_total,
        },
        leaves,
    }
}

impl Search<'_> {
    /// Depth two with a budget of two or three splits.
    pub(super) fn solve_depth_two(
        &mut self,
        view: &View,
        budget: usize,
        leaf_cost: f64,
        ub: f64,
        lb: f64,
    ) -> Outcome {
        self.stats.depth2_calls += 1;
        let sc = self.cost.split_cost;
        let tol = self.cost.tol;
        let mut ub = ub;
        let mut best = None;
        if self.cost.improves(leaf_cost, ub) {
            best = Some(Solution {
                cost: leaf_cost,
                split: None,
            });
            ub = leaf_cost;
        }
        let floor = lb.max(leaf_cost.min(sc));
        if best.is_some_and(|b| b.cost <= floor + tol) || ub <= sc + tol {
            // Every split costs at least `sc`: the bound of a search that tried none.
            return finish(best, lb, leaf_cost, sc, false);
        }
        if self.counts_pay(view) {
            return self.solve_depth_two_by_counts(view, budget, (leaf_cost, ub, lb), best);
        }
        let level = view.level;
        self.ensure_level(level);
        let mut search = std::mem::take(&mut self.searches[level]);
        let mut pair = std::mem::take(&mut self.pair);
        let mut candidates_lb = f64::INFINITY;
        let n_features = view.n_features;
        let m = view.size;
        let leaf_minimum = self.cost.min_leaf > 1;
        let slack = LeafSlack::new(&self.cost);
        let mut order = std::mem::take(&mut self.orders[level]);
        self.feature_order(view, &mut order);
        'features: for (
            rank,
            &FeatureRank {
                index,
                position: gini_position,
                ..
            },
        ) in order.iter().enumerate()
        {
            let feature = self.arena.feature(view, index);
            search.reset(
                self.arena.list(view, index),
                self.data.row_counts(),
                &self.cost,
                self.switches.intervals,
                true,
                n_features,
                (rank < FIRST_AT_GINI).then_some(gini_position),
                // Each child is a leaf or a single split.
                [1, 1],
            );
            while let Some(candidate) = search.next(ub, &self.cost) {
                if self.deadline.reached() {
                    break 'features;
                }
                self.stats.depth2_splits += 1;
                let position = candidate.position;
                let list = self.arena.list(view, index);
                let bin = split_bin(list[position - 1].bin, list[position].bin);
                pair.mark_sides(list, position, self.data, self.arena.counts(view));
                pair.split[..n_features].iter_mut().for_each(|s| *s = false);
                pair.sizes = [position, m - position];
                let leaves = [
                    self.cost.leaf(&pair.counts[0]).0,
                    self.cost.leaf(&pair.counts[1]).0,
                ];
                let sizes = [position, m - position];
                {
                    let [left, right, free_left, free_right] = &mut pair.priors;
                    search.feature_priors(&candidate, [left, right, free_left, free_right]);
                }
                pair.free = [f64::NEG_INFINITY; 2];
                let ChildrenValue {
                    values,
                    total,
                    exact,
                    splitting,
                    scanned,
                } = self.children_value(view, &mut pair, &candidate, (budget, ub), (sizes, leaves));
                pair.inherit_bounds(
                    n_features,
                    scanned,
                    leaf_minimum.then_some(leaves.map(|l| l + sc)),
                );
                if exact && self.cost.improves(total, ub) {
                    let cost_of = |side: usize| {
                        if splitting[side] {
                            values[side].value
                        } else {
                            leaves[side]
                        }
                    };
                    best = Some(Solution {
                        cost: total,
                        split: Some(SplitChoice {
                            feature,
                            bin,
                            left_budget: u32::from(splitting[0]),
                            right_budget: u32::from(splitting[1]),
                            left_cost: cost_of(0),
                            right_cost: cost_of(1),
                        }),
                    });
                    ub = total;
                }
                let bounds = SplitBounds {
                    left: values[0].value,
                    right: values[1].value,
                    total,
                };
                let report = if leaf_minimum {
                    relaxed_report(&pair, &candidate, bounds, (budget, sc, leaves), &slack)
                } else {
                    Report {
                        bounds,
                        relaxed: bounds,
                        leaves,
                    }
                };
                let [left, right, free_left, free_right] = &pair.bounds;
                let inherited: [&[f64]; 4] = if leaf_minimum {
                    [left, right, free_left, free_right]
                } else {
                    [left, right, left, right]
                };
                search.report_with(&candidate, report, Some(inherited));
                candidates_lb = candidates_lb.min(total);
                if best.is_some_and(|b| b.cost <= floor + tol) {
                    break 'features;
                }
            }
            candidates_lb = candidates_lb.min(search.pruned_lb);
            self.stats.interval_pruned += search.pruned;
        }
        self.searches[level] = search;
        self.orders[level] = order;
        self.pair = pair;
        finish(best, lb, leaf_cost, candidates_lb, self.deadline.aborted())
    }

    /// What the children of `candidate` (of `sizes` rows and leaf costs `leaves`) are worth
    /// within `budget` splits below `ub`: with three, both split or not, the larger scanned
    /// first and the other only when the first's value is exact; with two, one child splits and
    /// the other is a leaf, both scanned.
    fn children_value(
        &mut self,
        view: &View,
        pair: &mut PairScratch,
        candidate: &Candidate,
        (budget, ub): (usize, f64),
        (sizes, leaves): ([usize; 2], [f64; 2]),
    ) -> ChildrenValue {
        let sc = self.cost.split_cost;
        let propagate = self.switches.upper_bound;
        let child_priors = [candidate.left_lb, candidate.right_lb];
        let room = ub - sc;
        // The larger child first; the other's target is what the first leaves.
        let first = usize::from(sizes[1] > sizes[0]);
        let second = 1 - first;
        let mut values = [
            SideValue {
                value: child_priors[0],
                exact: false,
            },
            SideValue {
                value: child_priors[1],
                exact: false,
            },
        ];
        let mut scanned = [false; 2];
        let (total, exact, splitting) = if budget >= 3 {
            let target = if propagate {
                room - child_priors[second] + candidate.reach
            } else {
                room
            };
            values[first] =
                self.child_value(view, pair, first, sizes[first], leaves[first], target);
            values[first].value = values[first].value.max(child_priors[first]);
            scanned[first] = true;
            if values[first].exact {
                let target = if propagate {
                    room - values[first].value + candidate.reach
                } else {
                    room
                };
                values[second] =
                    self.child_value(view, pair, second, sizes[second], leaves[second], target);
                values[second].value = values[second].value.max(child_priors[second]);
                scanned[second] = true;
            }
            let total = sc + values[0].value + values[1].value;
            (total, values[0].exact && values[1].exact, [true, true])
        } else {
            // Two splits: one child splits, the other is a leaf.
            let target = if propagate {
                room - leaves[second] + candidate.reach
            } else {
                room
            };
            values[first] =
                self.child_value(view, pair, first, sizes[first], leaves[first], target);
            scanned[first] = true;
            let with_first = sc + values[first].value + leaves[second];
            let bound = if values[first].exact {
                ub.min(with_first)
            } else {
                ub
            };
            let target = if propagate {
                bound - sc - leaves[first] + candidate.reach
            } else {
                room
            };
            values[second] =
                self.child_value(view, pair, second, sizes[second], leaves[second], target);
            scanned[second] = true;
            let with_second = sc + leaves[first] + values[second].value;
            if with_first <= with_second {
                let mut splitting = [false; 2];
                splitting[first] = true;
                (with_first, values[first].exact, splitting)
            } else {
                let mut splitting = [false; 2];
                splitting[second] = true;
                (with_second, values[second].exact, splitting)
            }
        };
        ChildrenValue {
            values,
            total,
            exact,
            splitting,
            scanned,
        }
    }

    /// What a depth-one scan of child `side` (its rows marked in `pair.side`) below `target`
    /// proves about the child's depth-one optimum; records per-feature bounds in
    /// `pair.bounds[side]` (and `pair.bounds[side + 2]`, `pair.free[side]` under a leaf
    /// minimum).
    fn child_value(
        &mut self,
        view: &View,
        pair: &mut PairScratch,
        side: usize,
        size: usize,
        leaf: f64,
        target: f64,
    ) -> SideValue {
        if self.cost.min_leaf > 1 && size < 2 * self.cost.min_leaf as usize {
            // Too few rows to split under the leaf minimum: a leaf, whatever the feature.
            let n = view.n_features;
            let most = leaf + self.cost.split_cost;
            pair.bounds[side][..n].fill(most);
            let [_, _, free_left, free_right] = &mut pair.bounds;
            let free = if side == 0 { free_left } else { free_right };
            free[..n].copy_from_slice(&pair.priors[side + 2][..n]);
            return SideValue {
                value: leaf,
                exact: true,
            };
        }
        // With the leaf as incumbent, the optimum is the best split below it, or the leaf.
        let exact_anyway = leaf <= target;
        let target = target.min(leaf);
        let found = if self.cost.min_leaf > 1 {
            self.scan_child::<true>(view, pair, side, size, leaf, target)
        } else {
            self.scan_child::<false>(view, pair, side, size, leaf, target)
        };
        match found {
            Some(split) => SideValue {
                value: split.cost,
                exact: true,
            },
            None if exact_anyway => SideValue {
                value: leaf,
                exact: true,
            },
            None => SideValue {
                value: leaf.min(target.max(self.cost.split_cost)),
                exact: false,
            },
        }
    }

    /// The best split of child `side` below `target`, feature by feature in increasing order
    /// of their inherited bounds, skipping those whose bound reaches the target and those not
    /// allowed at the child's level. Under a leaf
    /// minimum, the scans also bound each feature's splits without it, and so the child's best
    /// split or leaf without it (`pair.free[side]`).
    fn scan_child<const FREE: bool>(
        &mut self,
        view: &View,
        pair: &mut PairScratch,
        side: usize,
        size: usize,
        leaf: f64,
        target: f64,
    ) -> Option<BestSplit> {
        let n_features = view.n_features;
        let tol = self.cost.tol;
        let floor = self.cost.split_cost + tol;
        let leaf_minimum = FREE;
        let priors = &pair.priors[side];
        let [left, right, free_left, free_right] = &mut pair.bounds;
        let (bounds, free_bounds) = if side == 0 {
            (left, free_left)
        } else {
            (right, free_right)
        };
        bounds[..n_features].copy_from_slice(&priors[..n_features]);
        if leaf_minimum {
            free_bounds[..n_features].copy_from_slice(&pair.priors[side + 2][..n_features]);
        }
        pair.order.clear();
        match self.cost.levels.as_deref() {
            None => pair
                .order
                .extend((0..n_features).map(|index| (priors[index], index))),
            Some(levels) => {
                for index in 0..n_features {
                    if levels.allows(view.level + 1, self.arena.feature(view, index)) {
                        pair.order.push((priors[index], index));
                    } else {
                        // Not allowed at the children's level: no split on it.
                        bounds[index] = f64::INFINITY;
                        if leaf_minimum {
                            free_bounds[index] = f64::INFINITY;
                        }
                    }
                }
            }
        }
        pair.order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let mut target = target;
        let mut best = None;
        let sizes = pair.sizes;
        for &(prior, index) in &pair.order {
            if target <= floor || prior >= target - tol {
                break;
            }
            if !pair.split[index] {
                // Both children's rows of this feature, in one pass.
                let list = self.arena.list(view, index);
                let starts = [index * (sizes[0] + 1), index * (sizes[1] + 1)];
                if pair.packs {
                    let [left_rows, right_rows] = &mut pair.packed;
                    split_list(
                        list,
                        &pair.side,
                        (left_rows, right_rows),
                        starts,
                        |e, code| PackedRow::new(e.bin, code >> 1),
                    );
                } else {
                    let [left_rows, right_rows] = &mut pair.lists;
                    split_list(list, &pair.side, (left_rows, right_rows), starts, |e, _| e);
                }
                pair.split[index] = true;
            }
            let start = index * (size + 1);
            let feature = self.arena.feature(view, index);
            let mut free = f64::INFINITY;
            let free_scan = leaf_minimum.then_some(&mut free);
            let totals = &pair.counts[side];
            let found = if pair.packs {
                let rows = &pair.packed[side][start..start + size];
                self.scan_rows(feature, rows, totals, target, free_scan)
            } else {
                let rows = &pair.lists[side][start..start + size];
                self.scan_rows(feature, rows, totals, target, free_scan)
            };
            let Some(found) = found else {
                // The feature no longer splits this child: its splits send every row one way.
                bounds[index] = bounds[index].max(leaf + self.cost.split_cost);
                if FREE {
                    free_bounds[index] = free_bounds[index].max(leaf + self.cost.split_cost);
                }
                continue;
            };
            match found {
                Some(split) => {
                    bounds[index] = bounds[index].max(split.cost);
                    if FREE {
                        free_bounds[index] = free_bounds[index].max(free.min(split.cost));
                    }
                    target = split.cost;
                    best = Some(split);
                }
                None => {
                    bounds[index] = bounds[index].max(target);
                    if FREE {
                        free_bounds[index] = free_bounds[index].max(free.min(target));
                    }
                }
            }
        }
        if leaf_minimum {
            // Without the minimum: the leaf, or a split on some feature.
            pair.free[side] = free_bounds[..n_features]
                .iter()
                .fold(leaf, |least, &bound| least.min(bound));
        }
        best
    }

    /// The best split below `target` of a child's `rows` of searched feature `feature`
    /// (`totals` its class counts; `free` as for [`best_split`]), or `None` when the feature no
    /// longer splits them (one bin).
    fn scan_rows<R: ScanRow>(
        &mut self,
        feature: u32,
        rows: &[R],
        totals: &[u32],
        target: f64,
        free: Option<&mut f64>,
    ) -> Option<Option<BestSplit>> {
        if rows[0].bin() == rows[rows.len() - 1].bin() {
            return None;
        }
        let found = best_split(
            std::iter::once((feature, rows)),
            &self.data.row_counts(),
            totals,
            &mut self.counts,
            rows.len(),
            target,
            &self.cost,
            self.switches.depth_one_skip,
            free,
        );
        self.stats.depth1_scans += 1;
        Some(found)
    }
}

/// Writes the rows of `list` to the children's lists, the left child's from `starts[0]` of
/// `left` and the right's from `starts[1]` of `right` (each with one spare slot after its
/// rows), by their side in `codes` (bit 0 set: right), each as `row` makes it from the element
/// and its code.
#[inline(always)]
#[allow(unsafe_code)]
fn split_list<R: Copy>(
    list: &[Element],
    codes: &[u8],
    (left, right): (&mut [R], &mut [R]),
    starts: [usize; 2],
    row: impl Fn(Element, u8) -> R,
) {
    // Every write lands below `start + list.len()` of its buffer, whatever the codes say.
    assert!(starts[0] + list.len() <= left.len() && starts[1] + list.len() <= right.len());
    // Every row is written to both lists and kept by one (the other's cursor does not move),
    // so no branch follows the side.
    let (mut to_left, mut to_right) = (starts[0], starts[1]);
    for &e in list {
        let code = codes[e.row as usize];
        let goes_right = usize::from(code & 1);
        let made = row(e, code);
        // SAFETY: before the `i`-th row of `list` is written, each cursor has moved at most
        // `i` times from its start, so it is below `start + list.len()`, within its buffer by
        // the assertion above.
        unsafe {
            *left.get_unchecked_mut(to_left) = made;
            *right.get_unchecked_mut(to_right) = made;
        }
        to_left += 1 - goes_right;
        to_right += goes_right;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Each child's list is the parent's rows of its side in the parent's order, written from
    /// its start, whatever the sides; nothing outside the written rows changes.
    #[test]
    fn split_lists_keep_each_sides_rows_in_order() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..200 {
            let n = rng.random_range(1..60usize);
            let codes: Vec<u8> = (0..n).map(|_| rng.random_range(0..4)).collect();
            let list: Vec<Element> = (0..n as u32)
                .map(|row| Element {
                    row: (row * 7 + 3) % n as u32,
                    bin: row / 3,
                })
                .collect();
            let starts = [rng.random_range(0..5usize), rng.random_range(0..5usize)];
            let spare = [rng.random_range(0..3usize), rng.random_range(0..3usize)];
            let mut left = vec![u32::MAX; starts[0] + n + spare[0]];
            let mut right = vec![u32::MAX; starts[1] + n + spare[1]];
            split_list(&list, &codes, (&mut left, &mut right), starts, |e, code| {
                e.row * 4 + u32::from(code)
            });
            for (side, out) in [&left, &right].into_iter().enumerate() {
                let kept: Vec<u32> = list
                    .iter()
                    .filter(|e| usize::from(codes[e.row as usize] & 1) == side)
                    .map(|e| e.row * 4 + u32::from(codes[e.row as usize]))
                    .collect();
                let start = starts[side];
                assert_eq!(&out[start..start + kept.len()], kept.as_slice());
                assert!(out[..start].iter().all(|&x| x == u32::MAX));
                assert!(out[start + n..].iter().all(|&x| x == u32::MAX));
            }
        }
    }
}
