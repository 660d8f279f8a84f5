//! The depth-one scan: the best single split of a row set below a target cost, in one pass
//! over each feature's sorted list.
//!
//! A split is only evaluated where the bin changes. After an evaluation whose cost is `g` above
//! the target, the next `g / max_weight` rows cannot bring the cost below the target (each row
//! moved across a threshold changes the cost by at most its weight), so they are counted
//! without evaluation (ConTree's skipping); a feature is left as soon as no evaluation it
//! still allows can be reached.

use crate::dp::binned::Element;
use crate::dp::cost::CostModel;

/// The best split of a row set, as a searched feature and a threshold bin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct BestSplit {
    /// Cost of the split: split cost plus both leaves' costs.
    pub cost: f64,
    pub feature: u32,
    pub bin: u32,
    pub left_cost: f64,
    pub right_cost: f64,
}

/// The best split of a row set (each of `lists` holding its rows sorted by one searched
/// feature, whose id it is paired with) that costs less than `target` by more than the
/// tolerance; `None` if there is none. `totals` are the row set's class counts, `counts` a
/// scratch of the same length.
#[allow(clippy::too_many_arguments)]
pub(crate) fn best_split<'a>(
    lists: impl Iterator<Item = (u32, &'a [Element])>,
    labels: &[u16],
    totals: &[u32],
    counts: &mut [u32],
    size: usize,
    target: f64,
    cost: &CostModel,
    skipping: bool,
) -> Option<BestSplit> {
    match cost.uniform_weight {
        Some(weight) => best_split_uniform(
            lists, labels, totals, counts, size, target, cost, weight, skipping,
        ),
        None => best_split_weighted(lists, labels, totals, counts, size, target, cost, skipping),
    }
}

/// [`best_split`] when every class weighs `weight`: errors are counted in integers, and
/// a split improves when it makes at most `allowed` errors.
#[allow(clippy::too_many_arguments)]
fn best_split_uniform<'a>(
    lists: impl Iterator<Item = (u32, &'a [Element])>,
    labels: &[u16],
    totals: &[u32],
    counts: &mut [u32],
    size: usize,
    target: f64,
    cost: &CostModel,
    weight: f64,
    skipping: bool,
) -> Option<BestSplit> {
    let min_leaf = cost.min_leaf as usize;
    if size < 2 * min_leaf {
        return None;
    }
    let last = size - min_leaf;
    // Improving: split_cost + weight * errors < target - tol.
    let mut allowed = ((target - cost.tol - cost.split_cost) / weight).ceil() as i64 - 1;
    let mut best = None;
    let two_classes = totals.len() == 2;
    let (total0, total1) = (
        i64::from(totals[0]),
        i64::from(totals[totals.len().min(2) - 1]),
    );
    for (feature, list) in lists {
        if allowed < 0 {
            break;
        }
        counts.iter_mut().for_each(|c| *c = 0);
        let mut skip = min_leaf as i64;
        let mut prev_bin = u32::MAX;
        let mut ones = 0i64;
        for (seen, e) in list.iter().enumerate() {
            if skip <= 0 && e.bin != prev_bin {
                if seen > last {
                    break;
                }
                let (left_errors, right_errors) = if two_classes {
                    let zeros = seen as i64 - ones;
                    (zeros.min(ones), (total0 - zeros).min(total1 - ones))
                } else {
                    let (mut left_max, mut right_max) = (0u32, 0u32);
                    for (&c, &t) in counts.iter().zip(totals) {
                        left_max = left_max.max(c);
                        right_max = right_max.max(t - c);
                    }
                    (
                        seen as i64 - i64::from(left_max),
                        (size - seen) as i64 - i64::from(right_max),
                    )
                };
                let errors = left_errors + right_errors;
                if errors <= allowed {
                    allowed = errors - 1;
                    best = Some(BestSplit {
                        cost: cost.split_cost + weight * errors as f64,
                        feature,
                        bin: prev_bin + (e.bin - 1 - prev_bin) / 2,
                        left_cost: weight * left_errors as f64,
                        right_cost: weight * right_errors as f64,
                    });
                    if allowed < 0 {
                        break;
                    }
                    skip = 1;
                } else {
                    skip = if skipping { errors - allowed } else { 1 };
                    if skip > (last - seen) as i64 {
                        break;
                    }
                }
            }
            let label = labels[e.row as usize];
            if two_classes {
                ones += i64::from(label);
            } else {
                counts[label as usize] += 1;
            }
            skip -= 1;
            prev_bin = e.bin;
        }
    }
    best
}

/// [`best_split`] with any class weights, in floating point.
#[allow(clippy::too_many_arguments)]
fn best_split_weighted<'a>(
    lists: impl Iterator<Item = (u32, &'a [Element])>,
    labels: &[u16],
    totals: &[u32],
    counts: &mut [u32],
    size: usize,
    target: f64,
    cost: &CostModel,
    skipping: bool,
) -> Option<BestSplit> {
    let min_leaf = cost.min_leaf as usize;
    // No split costs less than the split cost.
    let floor = cost.split_cost + cost.tol;
    if size < 2 * min_leaf {
        return None;
    }
    let last = size - min_leaf;
    let skip_scale = if skipping && cost.max_weight > 0.0 {
        1.0 / cost.max_weight
    } else {
        0.0
    };
    let mut target = target;
    let mut best = None;
    let two_classes = totals.len() == 2;
    for (feature, list) in lists {
        if target <= floor {
            break;
        }
        counts.iter_mut().for_each(|c| *c = 0);
        let mut skip = min_leaf as i64;
        let mut prev_bin = u32::MAX;
        // With two classes, class 1 is counted in a register and class 0 derived from it.
        let mut ones = 0u32;
        for (seen, e) in list.iter().enumerate() {
            if skip <= 0 && e.bin != prev_bin {
                if seen > last {
                    break;
                }
                if two_classes {
                    counts[0] = seen as u32 - ones;
                    counts[1] = ones;
                }
                let (value, left_cost, right_cost) = split_cost(counts, totals, cost);
                if value < target - cost.tol {
                    target = value;
                    best = Some(BestSplit {
                        cost: value,
                        feature,
                        bin: prev_bin + (e.bin - 1 - prev_bin) / 2,
                        left_cost,
                        right_cost,
                    });
                    if target <= floor {
                        break;
                    }
                    skip = 1;
                } else {
                    // `value >= target - tol`: the gap is non-negative, truncation floors it.
                    skip = ((value - target + cost.tol) * skip_scale) as i64 + 1;
                    if skip > (last - seen) as i64 {
                        break;
                    }
                }
            }
            let label = labels[e.row as usize];
            if two_classes {
                ones += u32::from(label);
            } else {
                counts[label as usize] += 1;
            }
            skip -= 1;
            prev_bin = e.bin;
        }
    }
    best
}

/// The cost of splitting a row set of class counts `totals` into `left` and the rest: split
/// cost plus both leaves' costs, and each leaf's cost.
#[inline]
fn split_cost(left: &[u32], totals: &[u32], cost: &CostModel) -> (f64, f64, f64) {
    let (mut left_total, mut left_max, mut right_total, mut right_max) = (0.0, 0.0f64, 0.0, 0.0f64);
    for ((&l, &t), &w) in left.iter().zip(totals).zip(&cost.weights) {
        let l_weight = f64::from(l) * w;
        let r_weight = f64::from(t - l) * w;
        left_total += l_weight;
        left_max = left_max.max(l_weight);
        right_total += r_weight;
        right_max = right_max.max(r_weight);
    }
    let (left_cost, right_cost) = (left_total - left_max, right_total - right_max);
    (
        cost.split_cost + left_cost + right_cost,
        left_cost,
        right_cost,
    )
}
