//! The depth-one scan: for one or two disjoint row sets ("sides") of a view, the best single
//! split below a target cost, found in one pass over every feature's sorted list.
//!
//! Each row carries a code `2 * label + side`, so both sides are counted in the same pass
//! without branching on the side. A split is only evaluated where the bin changes; after an
//! evaluation whose cost is `g` above the target, the next `g / max_weight` rows of that side
//! cannot bring the cost below the target (each row moved across a threshold changes the cost
//! by at most its weight) and are counted without evaluation (ConTree's skipping).

use crate::dp::binned::Element;
use crate::dp::cost::CostModel;

/// The best split of one side, as a searched feature and a threshold bin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SideSplit {
    /// Cost of the split: split cost plus both leaves' costs.
    pub cost: f64,
    pub feature: u32,
    pub bin: u32,
    pub left_cost: f64,
    pub right_cost: f64,
}

/// One side of a scan: its size and class totals go in with a target; the best split below
/// the target comes out.
#[derive(Debug, Clone, Default)]
pub(crate) struct ScanSide {
    pub size: u32,
    /// Only splits costing less than this (by more than the tolerance) are recorded; lowered
    /// to each recorded split's cost.
    pub target: f64,
    pub best: Option<SideSplit>,
    seen: u32,
    prev_bin: u32,
    skip: i64,
    /// The side cannot improve on its target with the current feature.
    done: bool,
}

impl ScanSide {
    pub fn new(size: u32, target: f64) -> ScanSide {
        ScanSide {
            size,
            target,
            ..ScanSide::default()
        }
    }
}

/// Reusable counters of a scan (two per class: one per side).
#[derive(Debug, Default)]
pub(crate) struct ScanCounts {
    counts: Vec<u32>,
    /// `totals[2k + s]`: rows of class `k` on side `s`.
    pub totals: Vec<u32>,
}

impl ScanCounts {
    pub fn new(n_classes: usize) -> ScanCounts {
        ScanCounts {
            counts: vec![0; 2 * n_classes],
            totals: vec![0; 2 * n_classes],
        }
    }
}

/// A far-away skip that marks a side as finished for the current feature.
const FINISHED: i64 = i64::MAX / 4;

/// Scans every feature of a view (`lists`, each paired with its searched-feature id) for the
/// best split of each side in `sides` below its target. `codes[row] = 2 * label + side`;
/// `scratch.totals` must hold each side's class totals.
pub(crate) fn scan<'a>(
    lists: impl Iterator<Item = (u32, &'a [Element])>,
    codes: &[u16],
    sides: &mut [ScanSide],
    scratch: &mut ScanCounts,
    cost: &CostModel,
    skipping: bool,
) {
    let k = cost.n_classes();
    let min_leaf = cost.min_leaf;
    let floor = cost.split_cost + cost.tol;
    let can_improve = |side: &ScanSide| side.target > floor && side.size >= 2 * min_leaf;
    for (feature, list) in lists {
        let mut active = 0;
        for side in sides.iter_mut() {
            side.seen = 0;
            side.prev_bin = u32::MAX;
            side.skip = i64::from(min_leaf);
            side.done = !can_improve(side);
            if side.done {
                side.skip = FINISHED;
            } else {
                active += 1;
            }
        }
        if active == 0 {
            return;
        }
        scratch.counts.iter_mut().for_each(|c| *c = 0);
        for e in list {
            let code = codes[e.row as usize] as usize;
            let s = code & 1;
            let side = &mut sides[s];
            if side.skip <= 0 && e.bin != side.prev_bin {
                evaluate(side, s, feature, e.bin, scratch, cost, k, skipping);
                if side.done {
                    active -= 1;
                    if active == 0 {
                        break;
                    }
                }
            }
            scratch.counts[code] += 1;
            side.seen += 1;
            side.prev_bin = e.bin;
            side.skip -= 1;
        }
    }
}

/// Evaluates the split of side `s` between its rows seen so far and the rest.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn evaluate(
    side: &mut ScanSide,
    s: usize,
    feature: u32,
    next_bin: u32,
    scratch: &ScanCounts,
    cost: &CostModel,
    k: usize,
    skipping: bool,
) {
    let min_leaf = cost.min_leaf;
    if side.seen + min_leaf > side.size {
        side.done = true;
        side.skip = FINISHED;
        return;
    }
    let (mut left_total, mut left_max, mut right_total, mut right_max) = (0.0, 0.0f64, 0.0, 0.0f64);
    for class in 0..k {
        let w = cost.weights[class];
        let left = scratch.counts[2 * class + s];
        let l = f64::from(left) * w;
        let r = f64::from(scratch.totals[2 * class + s] - left) * w;
        left_total += l;
        left_max = left_max.max(l);
        right_total += r;
        right_max = right_max.max(r);
    }
    let (left_cost, right_cost) = (left_total - left_max, right_total - right_max);
    let value = cost.split_cost + left_cost + right_cost;
    if value < side.target - cost.tol {
        side.target = value;
        side.best = Some(SideSplit {
            cost: value,
            feature,
            bin: side.prev_bin + (next_bin - 1 - side.prev_bin) / 2,
            left_cost,
            right_cost,
        });
        side.skip = 1;
        if value <= cost.split_cost + cost.tol {
            // Nothing can beat a split with no error.
            side.done = true;
            side.skip = FINISHED;
        }
    } else if skipping && cost.max_weight > 0.0 {
        let gap = (value - side.target + cost.tol) / cost.max_weight;
        side.skip = gap.floor() as i64 + 1;
    } else {
        side.skip = 1;
    }
    // The last evaluation this side can still make is at `size - min_leaf` rows seen.
    if !side.done && side.skip > i64::from(side.size - min_leaf - side.seen) {
        side.done = true;
        side.skip = FINISHED;
    }
}
