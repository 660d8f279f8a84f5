//! The depth-two search by counts, for row sets whose features have few thresholds (binarised
//! data above all).
//!
//! Each threshold that splits the view (a *test*) holds its left rows as a bitset over the
//! view's rows, and the view's classes are bitsets too. For every pair of tests one pass of
//! word-wise ANDs and popcounts gives the class counts of the rows both send left; with each
//! test's own left counts and the view's totals that is the class counts of the four leaves of
//! both depth-two trees the pair makes (either test at the root, the other splitting one
//! child). Every depth-two tree is then costed from counts: the best split of each side of
//! each root test, then each root test's best tree within the budget. The search is exhaustive
//! and exact, with none of the bisection's bounds: its work is `S^2 / 2` passes of `W (K + 1)`
//! words for `S` tests, `W` words per bitset and `K` classes, against the scans' work of about
//! one row per feature pair and row (one root position per feature) at least: it is chosen
//! only where it is the smaller ([`Search::counts_pay`]), and not when rows count more than
//! once (a bitset counts each row once).
//!
//! With two classes the pair loop keeps its counts as scalars and, where the processor has it,
//! runs compiled with the `popcnt` instruction (chosen at run time: the build's x86-64 baseline
//! counts bits without it).
//!
//! Tests on features not allowed at the view's level (under a rule on levels) are not roots,
//! those not allowed at the children's level split no child. A leaf minimum is met by counts:
//! a root test or a child split is a candidate only when each of its sides holds at least the
//! minimum.

use crate::dp::known::{Solution, SplitChoice};
use crate::dp::search::{finish, Outcome, Search};
use crate::search_core::binned::split_bin;
use crate::search_core::view::View;

/// Most tests a view is searched by counts with (their bitsets take `S * W` words).
const MAX_TESTS: usize = 4096;

/// One threshold that splits the view: its feature and bin, the features' levels it may split
/// at, and how many rows it sends left.
#[derive(Debug, Clone, Copy)]
struct Test {
    feature: u32,
    bin: u32,
    /// May split the view's root (its feature is allowed at the view's level).
    root: bool,
    /// May split a child (allowed at the children's level).
    child: bool,
    /// Rows sent left.
    size: u32,
}

/// Reusable buffers of the search by counts.
#[derive(Debug, Default)]
pub(crate) struct CountScratch {
    /// Per data row: its position in the current view's first list.
    local: Vec<u32>,
    /// Words per bitset.
    words: usize,
    /// Per word: the bits of classes `0..K-1` (class `K-1` is what the total leaves), word by
    /// word (`word * (K - 1) + class`).
    classes: Vec<u64>,
    tests: Vec<Test>,
    /// Per test: the bitset of its left rows (`test * words`).
    bits: Vec<u64>,
    /// Per test: the class counts of its left rows (`test * K`).
    lefts: Vec<u32>,
    /// Per test: the cost of the best split of its left and right sides (split cost included;
    /// infinite when none may split).
    best: [Vec<f64>; 2],
    /// The class counts of the four leaves of a pair (`cell * K`).
    cells: Vec<u32>,
    /// The bitset being built.
    current: Vec<u64>,
}

/// Adds the row at position `bit` to `bits`.
#[inline]
fn set(bits: &mut [u64], bit: usize) {
    bits[bit / 64] |= 1 << (bit % 64);
}

impl Search<'_> {
    /// Whether `view`'s depth-two subproblem is searched by counts: the switch is on, rows
    /// count once, and the pairs of tests (at most the bins a feature's rows span, less one, per
    /// feature) cost fewer word passes than the scans cost row visits.
    pub(super) fn counts_pay(&self, view: &View) -> bool {
        if !self.switches.counts || self.data.multiplies() || view.n_features == 0 {
            return false;
        }
        let m = view.size;
        let mut tests = 0usize;
        for index in 0..view.n_features {
            let list = self.arena.list(view, index);
            let span = (list[m - 1].bin - list[0].bin) as usize;
            tests += span.min(m - 1);
            if tests > MAX_TESTS {
                return false;
            }
        }
        let words = m.div_ceil(64);
        let k = self.data.n_classes;
        let pairs = (tests * tests) as f64 / 2.0;
        let count_work = pairs * (words * (k + 1)) as f64;
        let p = view.n_features as f64;
        let scan_work = p * p * m as f64;
        count_work <= scan_work
    }

    /// Depth two by counts with a budget of two or three splits: the best tree below `ub` (the
    /// leaf `best` already is, if any), or the optimum as a lower bound.
    pub(super) fn solve_depth_two_by_counts(
        &mut self,
        view: &View,
        budget: usize,
        (leaf_cost, ub, lb): (f64, f64, f64),
        best: Option<Solution>,
    ) -> Outcome {
        self.stats.depth2_counted += 1;
        let mut scratch = std::mem::take(&mut self.counted);
        self.build_tests(view, &mut scratch);
        let aborted = !self.best_child_splits(view, &mut scratch);
        let outcome = if aborted {
            finish(None, lb, leaf_cost, f64::INFINITY, true)
        } else {
            let (best, least) = self.best_root(view, &scratch, budget, ub, best);
            finish(best, lb, leaf_cost, least, false)
        };
        self.counted = scratch;
        outcome
    }

    /// The view's tests, their bitsets and left class counts, and the class bitsets.
    fn build_tests(&self, view: &View, scratch: &mut CountScratch) {
        let m = view.size;
        let k = self.data.n_classes;
        let words = m.div_ceil(64);
        let labels = &self.data.labels;
        scratch.words = words;
        if scratch.local.len() < self.data.n_rows {
            scratch.local.resize(self.data.n_rows, 0);
        }
        scratch.classes.clear();
        scratch.classes.resize(words * (k - 1), 0);
        for (position, e) in self.arena.list(view, 0).iter().enumerate() {
            scratch.local[e.row as usize] = position as u32;
            let label = labels[e.row as usize] as usize;
            if label + 1 < k {
                scratch.classes[(position / 64) * (k - 1) + label] |= 1 << (position % 64);
            }
        }
        scratch.tests.clear();
        scratch.bits.clear();
        scratch.lefts.clear();
        let levels = self.cost.levels.as_deref();
        let mut counts = vec![0u32; k];
        for index in 0..view.n_features {
            let feature = self.arena.feature(view, index);
            let (root, child) = match levels {
                None => (true, true),
                Some(levels) => (
                    levels.allows(view.level, feature),
                    levels.allows(view.level + 1, feature),
                ),
            };
            if !root && !child {
                continue;
            }
            let list = self.arena.list(view, index);
            scratch.current.clear();
            scratch.current.resize(words, 0);
            counts.iter_mut().for_each(|c| *c = 0);
            let mut start = 0;
            while start < m {
                let bin = list[start].bin;
                let mut end = start;
                while end < m && list[end].bin == bin {
                    let row = list[end].row as usize;
                    set(&mut scratch.current, scratch.local[row] as usize);
                    if k > 2 {
                        counts[labels[row] as usize] += 1;
                    }
                    end += 1;
                }
                if end == m {
                    break;
                }
                if k == 2 {
                    // Two classes: the first's count from the class bits, no label read.
                    let first = (scratch.current.iter().zip(&scratch.classes))
                        .map(|(&x, &c)| (x & c).count_ones())
                        .sum::<u32>();
                    counts[0] = first;
                    counts[1] = end as u32 - first;
                }
                scratch.tests.push(Test {
                    feature,
                    bin: split_bin(bin, list[end].bin),
                    root,
                    child,
                    size: end as u32,
                });
                scratch.bits.extend_from_slice(&scratch.current);
                scratch.lefts.extend_from_slice(&counts);
                start = end;
            }
        }
        let n = scratch.tests.len();
        for side in &mut scratch.best {
            side.clear();
            side.resize(n, f64::INFINITY);
        }
        scratch.cells.clear();
        scratch.cells.resize(4 * k, 0);
    }

    /// Every root test's best split of each side, from the counts of every pair of tests;
    /// `false` when the deadline stopped it.
    fn best_child_splits(&mut self, view: &View, scratch: &mut CountScratch) -> bool {
        let k = self.data.n_classes;
        if k == 2 {
            return self.best_child_splits_of_two(view, scratch);
        }
        let words = scratch.words;
        let totals = self.arena.counts(view);
        let sc = self.cost.split_cost;
        let least = self.cost.min_leaf.max(1);
        let n = scratch.tests.len();
        let CountScratch {
            classes,
            tests,
            bits,
            lefts,
            best,
            cells,
            ..
        } = scratch;
        let [best_left, best_right] = best;
        let popcnt = has_popcnt();
        for a in 0..n {
            if self.deadline.reached() {
                return false;
            }
            let bits_a = &bits[a * words..(a + 1) * words];
            let left_a = &lefts[a * k..(a + 1) * k];
            for b in a + 1..n {
                let (ta, tb) = (tests[a], tests[b]);
                // Pairs whose trees no level allows: neither is a root that the other may split.
                if !((ta.root && tb.child) || (tb.root && ta.child)) {
                    continue;
                }
                let bits_b = &bits[b * words..(b + 1) * words];
                let left_b = &lefts[b * k..(b + 1) * k];
                let both_size = both_counts(popcnt, (bits_a, bits_b), classes, k, &mut cells[..k]);
                // Cells: 0 left of both, 1 left of a only, 2 left of b only, 3 right of both.
                let (both, rest) = cells.split_at_mut(k);
                let (only_a, rest) = rest.split_at_mut(k);
                let (only_b, neither) = rest.split_at_mut(k);
                for c in 0..k {
                    only_a[c] = left_a[c] - both[c];
                    only_b[c] = left_b[c] - both[c];
                    neither[c] = totals[c] + both[c] - left_a[c] - left_b[c];
                }
                let sizes = [
                    both_size,
                    ta.size - both_size,
                    tb.size - both_size,
                    view.size as u32 + both_size - ta.size - tb.size,
                ];
                let leaf = |cell: &[u32], size: u32| {
                    if size < least {
                        f64::INFINITY
                    } else {
                        self.cost.leaf(cell).0
                    }
                };
                let costs = [
                    leaf(both, sizes[0]),
                    leaf(only_a, sizes[1]),
                    leaf(only_b, sizes[2]),
                    leaf(neither, sizes[3]),
                ];
                if ta.root && tb.child {
                    best_left[a] = best_left[a].min(sc + costs[0] + costs[1]);
                    best_right[a] = best_right[a].min(sc + costs[2] + costs[3]);
                }
                if tb.root && ta.child {
                    best_left[b] = best_left[b].min(sc + costs[0] + costs[2]);
                    best_right[b] = best_right[b].min(sc + costs[1] + costs[3]);
                }
            }
        }
        true
    }

    /// [`Search::best_child_splits`] for two classes, the counts as scalars
    /// ([`TwoClassPairs`]).
    fn best_child_splits_of_two(&mut self, view: &View, scratch: &mut CountScratch) -> bool {
        let CountScratch {
            words,
            classes,
            tests,
            bits,
            lefts,
            best,
            ..
        } = scratch;
        let pairs = TwoClassPairs {
            words: *words,
            tests,
            bits,
            lefts,
            classes,
            total_first: self.arena.counts(view)[0],
            rows: view.size as u32,
            split_cost: self.cost.split_cost,
            least: self.cost.min_leaf.max(1),
            cap: self.cost.max_leaf,
            weights: [self.cost.weights[0], self.cost.weights[1]],
        };
        let [best_left, best_right] = best;
        let popcnt = has_popcnt();
        for a in 0..tests.len() {
            if self.deadline.reached() {
                return false;
            }
            #[cfg(target_arch = "x86_64")]
            if popcnt {
                // SAFETY: the processor has the `popcnt` instruction (`has_popcnt`).
                #[allow(unsafe_code)]
                unsafe {
                    row_with_popcnt(&pairs, a, best_left, best_right)
                };
                continue;
            }
            let _ = popcnt;
            pairs.row(a, best_left, best_right);
        }
        true
    }

    /// The best tree below `ub` over every root test (or `best`, the leaf), and the least cost
    /// of any root test's tree.
    fn best_root(
        &self,
        view: &View,
        scratch: &CountScratch,
        budget: usize,
        ub: f64,
        best: Option<Solution>,
    ) -> (Option<Solution>, f64) {
        let k = self.data.n_classes;
        let totals = self.arena.counts(view);
        let sc = self.cost.split_cost;
        let least_rows = self.cost.min_leaf.max(1);
        let mut right = vec![0u32; k];
        let (mut best, mut ub) = (best, ub);
        let mut least = f64::INFINITY;
        for (a, test) in scratch.tests.iter().enumerate() {
            let sizes = [test.size, view.size as u32 - test.size];
            if !test.root || sizes[0] < least_rows || sizes[1] < least_rows {
                continue;
            }
            let left = &scratch.lefts[a * k..(a + 1) * k];
            for c in 0..k {
                right[c] = totals[c] - left[c];
            }
            let leaves = [self.cost.leaf(left).0, self.cost.leaf(&right).0];
            let splits = [scratch.best[0][a], scratch.best[1][a]];
            // Each side's cost and whether it splits: a split only when it beats the leaf.
            let side = |s: usize| {
                if splits[s] < leaves[s] {
                    (splits[s], true)
                } else {
                    (leaves[s], false)
                }
            };
            let (costs, splitting) = if budget >= 3 {
                let ((l, ls), (r, rs)) = (side(0), side(1));
                ([l, r], [ls, rs])
            } else {
                let with_left = splits[0] + leaves[1];
                let with_right = leaves[0] + splits[1];
                let neither = leaves[0] + leaves[1];
                if neither <= with_left && neither <= with_right {
                    (leaves, [false, false])
                } else if with_left <= with_right {
                    ([splits[0], leaves[1]], [true, false])
                } else {
                    ([leaves[0], splits[1]], [false, true])
                }
            };
            let total = sc + costs[0] + costs[1];
            least = least.min(total);
            if self.cost.improves(total, ub) {
                best = Some(Solution {
                    cost: total,
                    split: Some(SplitChoice {
                        feature: test.feature,
                        bin: test.bin,
                        left_budget: u32::from(splitting[0]),
                        right_budget: u32::from(splitting[1]),
                        left_cost: costs[0],
                        right_cost: costs[1],
                    }),
                });
                ub = total;
            }
        }
        (best, least)
    }
}

/// What the pair loop of two classes reads: the tests, their bitsets and first-class counts,
/// the view's first-class total and rows, and the cost model's figures.
struct TwoClassPairs<'a> {
    words: usize,
    tests: &'a [Test],
    bits: &'a [u64],
    lefts: &'a [u32],
    classes: &'a [u64],
    total_first: u32,
    rows: u32,
    split_cost: f64,
    least: u32,
    cap: u32,
    weights: [f64; 2],
}

impl TwoClassPairs<'_> {
    /// The cost of a leaf of `size` rows, `first` of the first class:
    /// [`CostModel::leaf`](crate::search_core::cost::CostModel::leaf)'s, the same sums in the
    /// same order, infinite below the leaf minimum or above the cap.
    #[inline(always)]
    fn leaf(&self, first: u32, size: u32) -> f64 {
        if size < self.least || size > self.cap {
            return f64::INFINITY;
        }
        let a = f64::from(first) * self.weights[0];
        let b = f64::from(size - first) * self.weights[1];
        ((a + b) - a.max(b)).max(0.0)
    }

    /// Test `a` paired with every later test: each root's best split of each side.
    #[inline(always)]
    fn row(&self, a: usize, best_left: &mut [f64], best_right: &mut [f64]) {
        let (words, sc) = (self.words, self.split_cost);
        let ta = self.tests[a];
        let bits_a = &self.bits[a * words..(a + 1) * words];
        let first_a = self.lefts[2 * a];
        for b in a + 1..self.tests.len() {
            let tb = self.tests[b];
            if !((ta.root && tb.child) || (tb.root && ta.child)) {
                continue;
            }
            let bits_b = &self.bits[b * words..(b + 1) * words];
            let (mut size, mut first) = (0u32, 0u32);
            for ((&x, &y), &class) in bits_a.iter().zip(bits_b).zip(self.classes) {
                let both = x & y;
                size += both.count_ones();
                first += (both & class).count_ones();
            }
            let first_b = self.lefts[2 * b];
            // Cells: left of both, left of a only, left of b only, right of both.
            let both = self.leaf(first, size);
            let only_a = self.leaf(first_a - first, ta.size - size);
            let only_b = self.leaf(first_b - first, tb.size - size);
            let neither = self.leaf(
                self.total_first + first - first_a - first_b,
                self.rows + size - ta.size - tb.size,
            );
            if ta.root && tb.child {
                best_left[a] = best_left[a].min(sc + both + only_a);
                best_right[a] = best_right[a].min(sc + only_b + neither);
            }
            if tb.root && ta.child {
                best_left[b] = best_left[b].min(sc + both + only_b);
                best_right[b] = best_right[b].min(sc + only_a + neither);
            }
        }
    }
}

/// Whether the processor counts bits in one instruction (`popcnt`); the build's baseline
/// (x86-64) does not assume it.
fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("popcnt");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// [`TwoClassPairs::row`] compiled with the `popcnt` instruction.
///
/// # Safety
/// The processor must have `popcnt` ([`has_popcnt`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
#[allow(unsafe_code)]
unsafe fn row_with_popcnt(
    pairs: &TwoClassPairs,
    a: usize,
    best_left: &mut [f64],
    best_right: &mut [f64],
) {
    pairs.row(a, best_left, best_right);
}

/// The class counts (`out`, one per class) and the number of the rows in both `a` and `b`,
/// with `classes` the per-word bits of classes `0..K-1`; by the `popcnt` instruction when
/// `popcnt` says the processor has it.
#[inline]
#[allow(unused_variables)]
fn both_counts(
    popcnt: bool,
    (a, b): (&[u64], &[u64]),
    classes: &[u64],
    k: usize,
    out: &mut [u32],
) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if popcnt {
        // SAFETY: the processor has the `popcnt` instruction (`has_popcnt`).
        #[allow(unsafe_code)]
        return unsafe { both_counts_with_popcnt(a, b, classes, k, out) };
    }
    count_both(a, b, classes, k, out)
}

/// [`count_both`] compiled with the `popcnt` instruction.
///
/// # Safety
/// The processor must have `popcnt` ([`has_popcnt`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
#[allow(unsafe_code)]
unsafe fn both_counts_with_popcnt(
    a: &[u64],
    b: &[u64],
    classes: &[u64],
    k: usize,
    out: &mut [u32],
) -> u32 {
    count_both(a, b, classes, k, out)
}

/// What [`both_counts`] returns, by whatever bit count the build has.
#[inline(always)]
fn count_both(a: &[u64], b: &[u64], classes: &[u64], k: usize, out: &mut [u32]) -> u32 {
    let mut total = 0u32;
    out.iter_mut().for_each(|c| *c = 0);
    let named = k - 1;
    for (w, (&x, &y)) in a.iter().zip(b).enumerate() {
        let both = x & y;
        total += both.count_ones();
        for (c, &class) in classes[w * named..(w + 1) * named].iter().enumerate() {
            out[c] += (both & class).count_ones();
        }
    }
    let named_total: u32 = out[..named].iter().sum();
    out[named] = total - named_total;
    total
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use crate::data::Dataset;
    use crate::dp::{solve_at_levels, BoundSwitches, DpOptions, DpProblem};

    /// Random 0/1 data of `n` rows, `p` features and two classes.
    fn binary(seed: u64, n: usize, p: usize) -> Dataset {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|_| {
                (0..p)
                    .map(|_| f64::from(rng.random_range(0..2u8)))
                    .collect()
            })
            .collect();
        let labels: Vec<usize> = (0..n)
            .map(|i| (i % 2) ^ rng.random_range(0..2usize))
            .collect();
        Dataset::from_parts(
            "binary",
            (0..p).map(|j| format!("x{j}")).collect(),
            vec!["a".into(), "b".into()],
            rows,
            labels,
        )
        .expect("a valid dataset")
    }

    /// Under a rule on the levels at which features split (the search refuses a tree that
    /// breaks it), the counts reach the optimum of the scans and do solve depth-two
    /// subproblems.
    #[test]
    fn counts_keep_the_levels_at_which_features_split() {
        let depths = vec![Some(vec![0]), Some(vec![1, 2]), None, Some(vec![2])];
        for seed in 0..10u64 {
            let data = binary(seed, 48, 5);
            for depth in [2, 3] {
                let problem = DpProblem::accuracy(&data, depth);
                let run = |counts: bool| {
                    let options = DpOptions {
                        bounds: BoundSwitches {
                            counts,
                            ..BoundSwitches::default()
                        },
                        ..DpOptions::default()
                    };
                    solve_at_levels(&data, &problem, &depths, &options).expect("solves")
                };
                let (counted, scanned) = (run(true), run(false));
                assert_eq!(counted.objective, scanned.objective, "seed {seed}");
                assert!(counted.stats.depth2_counted > 0, "seed {seed}");
                assert_eq!(scanned.stats.depth2_counted, 0, "seed {seed}");
            }
        }
    }
}
