//! The depth-one scan: the best single split of a row set below a target cost, in one pass
//! over each feature's sorted list.
//!
//! A split is only evaluated where the bin changes. After an evaluation whose cost is `g` above
//! the target, the next `g / max_weight` rows cannot bring the cost below the target (each row
//! moved across a threshold changes the cost by at most its weight), so they are counted
//! without evaluation (ConTree's skipping); a feature is left as soon as no evaluation it
//! still allows can be reached.
//!
//! Under a leaf minimum, only the splits that leave it on both sides are candidates; on
//! request, the scan also evaluates the others, whose least cost bounds the best split without
//! the minimum (they never become the best split, and skip as any other). Under a cap on the
//! rows of a leaf, only the splits that leave at most the cap on both sides are candidates;
//! skipping stays valid within them (each side's cost is still a plain leaf's).

use crate::search_core::binned::{Element, RowCounts};
use crate::search_core::cost::CostModel;

/// A row of a sorted list as the scan reads it: its bin, its class and its multiplicity.
pub(crate) trait ScanRow: Copy {
    /// The row's bin for the list's feature.
    fn bin(self) -> u32;
    /// The row's class, `labels` holding every row's.
    fn label(self, labels: &[u16]) -> u16;
    /// How many times the row counts, `multiplicities` holding every row's (not empty).
    fn multiplicity(self, multiplicities: &[u32]) -> u32;
}

impl ScanRow for Element {
    #[inline(always)]
    fn bin(self) -> u32 {
        self.bin
    }

    #[inline(always)]
    fn label(self, labels: &[u16]) -> u16 {
        labels[self.row as usize]
    }

    #[inline(always)]
    fn multiplicity(self, multiplicities: &[u32]) -> u32 {
        multiplicities[self.row as usize]
    }
}

/// A row of two-class data with its bin and class packed in one word (the bin shifted left
/// by one, the class in the lowest bit): half an [`Element`]'s bytes, and no look-up of the
/// row's class. The depth-two search writes its children's lists in this form when every row
/// counts once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(transparent)]
pub(crate) struct PackedRow(pub u32);

impl PackedRow {
    /// Whether every bin below `n_bins` packs (its double fits in a word).
    pub fn fits(n_bins: usize) -> bool {
        n_bins <= (u32::MAX >> 1) as usize
    }

    /// The row of bin `bin` and class `label` (0 or 1).
    #[inline(always)]
    pub fn new(bin: u32, label: u8) -> PackedRow {
        PackedRow((bin << 1) | u32::from(label))
    }
}

impl ScanRow for PackedRow {
    #[inline(always)]
    fn bin(self) -> u32 {
        self.0 >> 1
    }

    #[inline(always)]
    fn label(self, _labels: &[u16]) -> u16 {
        (self.0 & 1) as u16
    }

    #[inline(always)]
    fn multiplicity(self, _multiplicities: &[u32]) -> u32 {
        unreachable!("packed rows are made of rows that count once")
    }
}

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
/// tolerance; `None` if there is none. `rows` holds every row's class and multiplicity,
/// `totals` are the row set's class counts (rows counted their multiplicities), `counts` a
/// scratch of the same length. With `free`, under a leaf minimum, the splits that break it are
/// evaluated too, and `free` receives the least cost among them (infinite if none): every split
/// of the lists, breaking the minimum or not, then costs at least the least of `free`, the
/// best split's cost and the target.
#[allow(clippy::too_many_arguments)]
pub(crate) fn best_split<'a, R: ScanRow + 'a>(
    lists: impl Iterator<Item = (u32, &'a [R])>,
    rows: &RowCounts,
    totals: &[u32],
    counts: &mut [u32],
    size: usize,
    target: f64,
    cost: &CostModel,
    skipping: bool,
    free: Option<&mut f64>,
) -> Option<BestSplit> {
    let labels = rows.labels;
    if !rows.multiplicities.is_empty() {
        return best_split_multiplied(
            lists, rows, totals, counts, size, target, cost, skipping, free,
        );
    }
    // Each case compiled on its own: without the minimum's splits, the scan is as it was.
    match (cost.uniform_weight, free.filter(|_| cost.min_leaf > 1)) {
        (Some(weight), None) => best_split_uniform::<R, false>(
            lists, labels, totals, counts, size, target, cost, weight, skipping, None,
        ),
        (None, None) => best_split_weighted::<R, false, false>(
            lists, rows, totals, counts, size, target, cost, skipping, None,
        ),
        (_, free) => best_split_free(
            lists, rows, totals, counts, size, target, cost, skipping, free,
        ),
    }
}

/// [`best_split`] when rows count their multiplicities, out of line so that the scans of rows
/// that count once compile as they did: the weighted scan, counting each row its multiplicity
/// (the cost model's largest weight is a row's, [`CostModel::max_weight`], so skipping stays
/// valid).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn best_split_multiplied<'a, R: ScanRow + 'a>(
    lists: impl Iterator<Item = (u32, &'a [R])>,
    rows: &RowCounts,
    totals: &[u32],
    counts: &mut [u32],
    size: usize,
    target: f64,
    cost: &CostModel,
    skipping: bool,
    free: Option<&mut f64>,
) -> Option<BestSplit> {
    match free.filter(|_| cost.min_leaf > 1) {
        None => best_split_weighted::<R, false, true>(
            lists, rows, totals, counts, size, target, cost, skipping, None,
        ),
        free => best_split_weighted::<R, true, true>(
            lists, rows, totals, counts, size, target, cost, skipping, free,
        ),
    }
}

/// [`best_split`] when the splits that break the leaf minimum are evaluated too, out of line
/// so that the scan without them compiles as it did.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn best_split_free<'a, R: ScanRow + 'a>(
    lists: impl Iterator<Item = (u32, &'a [R])>,
    rows: &RowCounts,
    totals: &[u32],
    counts: &mut [u32],
    size: usize,
    target: f64,
    cost: &CostModel,
    skipping: bool,
    free: Option<&mut f64>,
) -> Option<BestSplit> {
    match cost.uniform_weight {
        Some(weight) => best_split_uniform::<R, true>(
            lists,
            rows.labels,
            totals,
            counts,
            size,
            target,
            cost,
            weight,
            skipping,
            free,
        ),
        None => best_split_weighted::<R, true, false>(
            lists, rows, totals, counts, size, target, cost, skipping, free,
        ),
    }
}

/// [`best_split`] when every class weighs `weight`: errors are counted in integers, and
/// a split improves when it makes at most `allowed` errors. `FREE`: `free` is given.
#[allow(clippy::too_many_arguments)]
fn best_split_uniform<'a, R: ScanRow + 'a, const FREE: bool>(
    lists: impl Iterator<Item = (u32, &'a [R])>,
    labels: &[u16],
    totals: &[u32],
    counts: &mut [u32],
    size: usize,
    target: f64,
    cost: &CostModel,
    weight: f64,
    skipping: bool,
    mut free: Option<&mut f64>,
) -> Option<BestSplit> {
    let range = cost.leaf_split_range(size);
    if let Some(free) = free.as_deref_mut() {
        *free = f64::INFINITY;
    }
    if range.0 > range.1 && free.is_none() {
        return None;
    }
    // Improving: split_cost + weight * errors < target - tol. A split cost past any target
    // (alpha 1e20) saturates the cast at i64::MIN: no split is allowed.
    let allowed = ceil_to_i64((target - cost.tol - cost.split_cost) / weight).saturating_sub(1);
    let mut scan = UniformScan {
        labels,
        totals,
        size,
        range,
        weight,
        split_cost: cost.split_cost,
        skipping,
        allowed,
        best: None,
        free: free.as_ref().map(|_| i64::MAX),
    };
    for (feature, list) in lists {
        if scan.allowed < 0 {
            break;
        }
        if totals.len() == 2 {
            let mut tally = TwoClasses {
                ones: 0,
                totals: [i64::from(totals[0]), i64::from(totals[1])],
            };
            scan.feature::<R, TwoClasses, FREE>(feature, list, &mut tally);
        } else {
            counts.iter_mut().for_each(|c| *c = 0);
            scan.feature::<R, ManyClasses, FREE>(feature, list, &mut ManyClasses { counts });
        }
    }
    if let (Some(free), Some(errors)) = (free, scan.free) {
        if errors < i64::MAX {
            *free = cost.split_cost + weight * errors as f64;
        }
    }
    scan.best
}

/// `x.ceil() as i64` (saturating, NaN to 0) without a call to the library's `ceil`.
#[inline(always)]
fn ceil_to_i64(x: f64) -> i64 {
    let truncated = x as i64;
    if (truncated as f64) < x {
        truncated.saturating_add(1)
    } else {
        truncated
    }
}

/// Class counts of the rows on the left of a scan position.
trait Tally {
    fn add(&mut self, label: u16);
    /// Errors of the best leaf on each side, `seen` rows on the left.
    fn errors(&self, seen: usize, size: usize, totals: &[u32]) -> (i64, i64);
}

/// Two classes: class 1 counted in a register, class 0 derived.
struct TwoClasses {
    ones: i64,
    /// The row set's count of each class.
    totals: [i64; 2],
}

impl Tally for TwoClasses {
    #[inline(always)]
    fn add(&mut self, label: u16) {
        self.ones += i64::from(label);
    }

    #[inline(always)]
    fn errors(&self, seen: usize, _size: usize, _totals: &[u32]) -> (i64, i64) {
        let zeros = seen as i64 - self.ones;
        let [total0, total1] = self.totals;
        (
            zeros.min(self.ones),
            (total0 - zeros).min(total1 - self.ones),
        )
    }
}

/// Any number of classes, counted in an array.
struct ManyClasses<'c> {
    counts: &'c mut [u32],
}

impl Tally for ManyClasses<'_> {
    #[inline(always)]
    fn add(&mut self, label: u16) {
        self.counts[label as usize] += 1;
    }

    fn errors(&self, seen: usize, size: usize, totals: &[u32]) -> (i64, i64) {
        let (mut left_max, mut right_max) = (0u32, 0u32);
        for (&c, &t) in self.counts.iter().zip(totals) {
            left_max = left_max.max(c);
            right_max = right_max.max(t - c);
        }
        (
            seen as i64 - i64::from(left_max),
            (size - seen) as i64 - i64::from(right_max),
        )
    }
}

/// The state of a uniform-weight scan across features.
struct UniformScan<'a> {
    labels: &'a [u16],
    totals: &'a [u32],
    size: usize,
    /// The positions whose both sides can be leaves ([`CostModel::leaf_split_range`]).
    range: (usize, usize),
    weight: f64,
    split_cost: f64,
    skipping: bool,
    /// A split improves when it makes at most this many errors.
    allowed: i64,
    best: Option<BestSplit>,
    /// When the splits that break the leaf minimum are evaluated too (`FREE`): the fewest
    /// errors among them (`i64::MAX`: none yet).
    free: Option<i64>,
}

impl UniformScan<'_> {
    /// Scans one feature's list: rows are counted in runs of `skip` without evaluation, then
    /// up to the next bin change, where the split is evaluated. `FREE`: the splits that break
    /// the leaf minimum are evaluated too.
    #[inline(always)]
    fn feature<R: ScanRow, T: Tally, const FREE: bool>(
        &mut self,
        feature: u32,
        list: &[R],
        tally: &mut T,
    ) {
        let labels = self.labels;
        let len = list.len();
        // The positions the minimum allows, and those evaluated.
        let (lowest, highest) = self.range;
        let (first, last) = if FREE {
            (1, len.saturating_sub(1))
        } else {
            (lowest, highest)
        };
        let mut at = 0;
        let mut skip = first;
        loop {
            let end = (at + skip).min(len);
            for e in &list[at..end] {
                tally.add(e.label(labels));
            }
            at = end;
            while at < len && list[at].bin() == list[at - 1].bin() {
                tally.add(list[at].label(labels));
                at += 1;
            }
            if at > last || at >= len {
                return;
            }
            let (left_errors, right_errors) = tally.errors(at, self.size, self.totals);
            let errors = left_errors + right_errors;
            if FREE && (at < lowest || at > highest) {
                // A split that breaks the minimum: only its cost is kept.
                if let Some(free) = self.free.as_mut() {
                    *free = (*free).min(errors);
                }
                skip = if self.skipping && errors > self.allowed {
                    (errors - self.allowed) as usize
                } else {
                    1
                };
                if skip > last - at {
                    return;
                }
                continue;
            }
            if errors <= self.allowed {
                self.allowed = errors - 1;
                let (low, high) = (list[at - 1].bin(), list[at].bin());
                self.best = Some(BestSplit {
                    cost: self.split_cost + self.weight * errors as f64,
                    feature,
                    bin: low + (high - 1 - low) / 2,
                    left_cost: self.weight * left_errors as f64,
                    right_cost: self.weight * right_errors as f64,
                });
                if self.allowed < 0 {
                    return;
                }
                skip = 1;
            } else {
                skip = if self.skipping {
                    (errors - self.allowed) as usize
                } else {
                    1
                };
                if skip > last - at {
                    return;
                }
            }
        }
    }
}

/// [`best_split`] with any class weights, in floating point. `FREE`: `free` is given.
/// `MULTIPLIED`: each row counts its multiplicity (`rows.multiplicities` is not empty).
#[allow(clippy::too_many_arguments)]
fn best_split_weighted<'a, R: ScanRow + 'a, const FREE: bool, const MULTIPLIED: bool>(
    lists: impl Iterator<Item = (u32, &'a [R])>,
    rows: &RowCounts,
    totals: &[u32],
    counts: &mut [u32],
    size: usize,
    target: f64,
    cost: &CostModel,
    skipping: bool,
    mut free: Option<&mut f64>,
) -> Option<BestSplit> {
    // No split costs less than the split cost.
    let floor = cost.split_cost + cost.tol;
    if let Some(free) = free.as_deref_mut() {
        *free = f64::INFINITY;
    }
    let tracking = FREE;
    // The positions the minimum (and a cap on the rows of a leaf) allow, and those evaluated.
    let (lowest, highest) = cost.leaf_split_range(size);
    if lowest > highest && !tracking {
        return None;
    }
    let (first, last) = if tracking {
        (1, size.saturating_sub(1))
    } else {
        (lowest, highest)
    };
    let mut least_free = f64::INFINITY;
    let skip_scale = if skipping && cost.max_weight > 0.0 {
        1.0 / cost.max_weight
    } else {
        0.0
    };
    let mut target = target;
    let mut best = None;
    let two_classes = totals.len() == 2;
    let (labels, multiplicities) = (rows.labels, rows.multiplicities);
    for (feature, list) in lists {
        if target <= floor {
            break;
        }
        counts.iter_mut().for_each(|c| *c = 0);
        let mut skip = first as i64;
        let mut prev_bin = u32::MAX;
        // With two classes, class 1 is counted in a register and class 0 derived from it
        // (from the rows seen, or with multiplicities from their count).
        let mut ones = 0u32;
        let mut counted = 0u32;
        for (seen, &e) in list.iter().enumerate() {
            let bin = e.bin();
            if skip <= 0 && bin != prev_bin {
                if seen > last {
                    break;
                }
                if two_classes {
                    counts[0] = if MULTIPLIED { counted } else { seen as u32 } - ones;
                    counts[1] = ones;
                }
                let (value, left_cost, right_cost) = split_cost(counts, totals, cost);
                if FREE && (seen < lowest || seen > highest) {
                    // A split that breaks the minimum: only its cost is kept.
                    least_free = least_free.min(value);
                    skip = if value >= target - cost.tol {
                        ((value - target + cost.tol) * skip_scale) as i64 + 1
                    } else {
                        1
                    };
                    if skip > (last - seen) as i64 {
                        break;
                    }
                } else if value < target - cost.tol {
                    target = value;
                    best = Some(BestSplit {
                        cost: value,
                        feature,
                        bin: prev_bin + (bin - 1 - prev_bin) / 2,
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
            let label = e.label(labels);
            let times = if MULTIPLIED {
                e.multiplicity(multiplicities)
            } else {
                1
            };
            if two_classes {
                ones += u32::from(label) * times;
                if MULTIPLIED {
                    counted += times;
                }
            } else {
                counts[label as usize] += times;
            }
            skip -= 1;
            prev_bin = bin;
        }
    }
    if let Some(free) = free {
        *free = least_free;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search_core::cost::Scale;
    use rand::{Rng, SeedableRng};

    /// The cost of the split of `list` after its first `at` rows, by plain counting.
    fn cost_at(list: &[Element], labels: &[u16], at: usize, cost: &CostModel) -> f64 {
        let k = cost.weights.len();
        let (mut left, mut right) = (vec![0u32; k], vec![0u32; k]);
        for (i, e) in list.iter().enumerate() {
            let side = if i < at { &mut left } else { &mut right };
            side[labels[e.row as usize] as usize] += 1;
        }
        cost.split_cost + cost.leaf(&left).0 + cost.leaf(&right).0
    }

    /// The rounding up behind the scans' error allowance is `f64::ceil` cast as `as` casts:
    /// saturating past either end, NaN to 0, negative fractions towards zero.
    #[test]
    fn rounding_up_is_ceil_then_cast() {
        let cases = [
            2.5,
            2.0,
            -2.5,
            -0.5,
            0.0,
            -0.0,
            1e-300,
            7.999_999_999,
            1e20,
            -1e20,
            9.3e18,
            -9.3e18,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            4_503_599_627_370_495.5,
        ];
        for x in cases {
            assert_eq!(ceil_to_i64(x), x.ceil() as i64, "{x}");
        }
    }

    /// Two-class rows packed with their class scan as the same rows looked up by row index:
    /// the same best split (cost, feature, bin, both sides), the same bound of the splits that
    /// break the leaf minimum, under uniform and class weights, with and without skipping.
    #[test]
    fn packed_rows_scan_as_their_elements() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut found = 0;
        for case in 0..600 {
            let size = rng.random_range(2..60usize);
            let labels: Vec<u16> = (0..size).map(|_| rng.random_range(0..2)).collect();
            let mut bins: Vec<u32> = (0..size).map(|_| rng.random_range(0..12)).collect();
            bins.sort_unstable();
            // Rows out of order, as a child's list holds them.
            let mut rows: Vec<u32> = (0..size as u32).collect();
            rand::seq::SliceRandom::shuffle(rows.as_mut_slice(), &mut rng);
            let list: Vec<Element> = rows
                .iter()
                .zip(&bins)
                .map(|(&row, &bin)| Element { row, bin })
                .collect();
            let packed: Vec<PackedRow> = list
                .iter()
                .map(|e| PackedRow::new(e.bin, labels[e.row as usize] as u8))
                .collect();
            let weights = if case % 2 == 0 {
                vec![1.0, 1.0]
            } else {
                vec![1.0, rng.random_range(2..5) as f64 / 2.0]
            };
            let min_leaf = rng.random_range(1..4usize);
            let scale = Scale {
                rows: size,
                total_weight: size as f64 * 2.5,
            };
            let cost = CostModel::new(&weights, 0.5, min_leaf, scale).expect("resolvable weights");
            let mut totals = vec![0u32; 2];
            labels.iter().for_each(|&l| totals[l as usize] += 1);
            let target = rng.random_range(1..(size as u32 / 2 + 3)) as f64;
            for (skipping, freeing) in [(false, false), (true, false), (true, true)] {
                // The best split of `rows` (classes from `labels`) and the bound it gives.
                fn scan<R: ScanRow>(
                    rows: &[R],
                    labels: &[u16],
                    totals: &[u32],
                    (target, cost): (f64, &CostModel),
                    (skipping, freeing): (bool, bool),
                ) -> (Option<BestSplit>, f64) {
                    let mut free = 0.0;
                    let found = best_split(
                        std::iter::once((3, rows)),
                        &RowCounts {
                            labels,
                            multiplicities: &[],
                        },
                        totals,
                        &mut [0; 2],
                        rows.len(),
                        target,
                        cost,
                        skipping,
                        freeing.then_some(&mut free),
                    );
                    (found, free)
                }
                let modes = (skipping, freeing);
                let (by_elements, free_elements) =
                    scan(&list, &labels, &totals, (target, &cost), modes);
                let (by_packed, free_packed) = scan(&packed, &[], &totals, (target, &cost), modes);
                let what = format!("case {case}, skipping {skipping}, free {freeing}");
                assert_eq!(by_elements, by_packed, "{what}");
                assert_eq!(free_elements.to_bits(), free_packed.to_bits(), "{what}");
                found += usize::from(by_packed.is_some());
            }
        }
        // The targets leave room for both outcomes.
        assert!((300..1500).contains(&found), "{found} splits found");
    }

    /// Under leaf minima, with and without skipping, uniform and class weights: the best split
    /// is the cheapest split that leaves the minimum on both sides (when below the target),
    /// and the least cost of the splits that break it bounds them as documented: exactly when
    /// nothing is skipped, from below otherwise.
    #[test]
    fn the_scan_bounds_the_splits_that_break_the_minimum() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(47);
        for case in 0..400 {
            let size = rng.random_range(2..40usize);
            let k = rng.random_range(2..4usize);
            let labels: Vec<u16> = (0..size).map(|_| rng.random_range(0..k) as u16).collect();
            let mut bins: Vec<u32> = (0..size).map(|_| rng.random_range(0..8)).collect();
            bins.sort_unstable();
            let list: Vec<Element> = (0..size)
                .map(|row| Element {
                    row: row as u32,
                    bin: bins[row],
                })
                .collect();
            let weights: Vec<f64> = if case % 2 == 0 {
                vec![1.0; k]
            } else {
                (0..k)
                    .map(|_| rng.random_range(1..4) as f64 / 2.0)
                    .collect()
            };
            let min_leaf = rng.random_range(1..6usize);
            let scale = Scale {
                rows: size,
                total_weight: size as f64 * weights.iter().cloned().fold(0.0, f64::max),
            };
            let cost = CostModel::new(&weights, 0.0, min_leaf, scale).expect("resolvable weights");
            let mut totals = vec![0u32; k];
            labels.iter().for_each(|&l| totals[l as usize] += 1);
            let positions: Vec<usize> = (1..size).filter(|&p| bins[p - 1] != bins[p]).collect();
            let (kept, broken): (Vec<usize>, Vec<usize>) = positions
                .iter()
                .partition(|&&p| p >= min_leaf && size - p >= min_leaf);
            let least = |ps: &[usize]| {
                ps.iter()
                    .map(|&p| cost_at(&list, &labels, p, &cost))
                    .fold(f64::INFINITY, f64::min)
            };
            let target = least(&positions) + rng.random_range(0..4) as f64;
            for skipping in [false, true] {
                let mut free = 0.0;
                let found = best_split(
                    std::iter::once((0, list.as_slice())),
                    &RowCounts {
                        labels: &labels,
                        multiplicities: &[],
                    },
                    &totals,
                    &mut vec![0; k],
                    size,
                    target,
                    &cost,
                    skipping,
                    Some(&mut free),
                );
                let best = least(&kept);
                let what = format!("case {case}, skipping {skipping}");
                match found {
                    Some(split) => assert!((split.cost - best).abs() < 1e-9, "{what}"),
                    None => assert!(best >= target - cost.tol, "{what}"),
                }
                let floor = found.map_or(target, |s| s.cost).min(free);
                assert!(least(&positions) >= floor - 1e-9, "{what}");
                if min_leaf > 1 && !skipping && found.is_none() && target > cost.tol {
                    assert!(
                        (free - least(&broken)).abs() < 1e-9 || free == least(&broken),
                        "{what}: {free} vs {} (target {target}, min leaf {min_leaf}, size {size}, bins {bins:?}, labels {labels:?})",
                        least(&broken)
                    );
                }
            }
        }
    }
}
