//! The menus of the fair search: every way a subtree of depth at most one can label a row set
//! ([`menu`]), each with its cost, its signature ([`super::gauge`]) and its splits
//! ([`Entry`]), under the leaf minimum, the cap on a leaf's rows, the split budget and the
//! features allowed at the subtree's depth; and the
//! row sets' totals and splits the deeper fronts ([`super::fronts`]) build on.

use super::shape::Pick;
use super::sig::Sig;
use crate::search_core::binned::{split_bin, Binned, Element};

/// What each row brings, and the limits on a subtree's leaves and splits.
#[derive(Debug, Clone)]
pub(crate) struct Rows {
    /// `cost[i][c]`: the cost of predicting class `c` for row `i`.
    pub cost: Vec<[f64; 2]>,
    /// `share[i]`: what row `i` adds to a signature when predicted positive.
    pub share: Vec<Vec<(usize, i64)>>,
    /// The signature's dimension.
    pub dims: usize,
    /// The class the rates count as positive.
    pub positive: usize,
    /// Every leaf that receives rows receives at least this many.
    pub min_leaf: usize,
    /// No leaf receives more rows than this.
    pub max_leaf: Option<usize>,
    /// A tree has at most this many splits.
    pub max_splits: Option<u32>,
    /// The searched features a split may use at each depth (the root 0): none past the list.
    pub allowed: Vec<Vec<u32>>,
    /// What a split costs.
    pub split_cost: f64,
}

impl Rows {
    /// Whether a tree of `splits` splits is within the split budget.
    pub fn within_budget(&self, splits: u32) -> bool {
        self.max_splits.is_none_or(|m| splits <= m)
    }

    /// The searched features a node at `level` (the root 0) may split on.
    pub fn allowed_at(&self, level: usize) -> &[u32] {
        self.allowed.get(level).map_or(&[], Vec::as_slice)
    }
}

/// The totals of a row set.
#[derive(Debug, Clone)]
pub(crate) struct Totals {
    cost: [f64; 2],
    sig: Sig,
    rows: usize,
}

impl Totals {
    fn empty(rows: &Rows) -> Totals {
        Totals {
            cost: [0.0; 2],
            sig: Sig::zeros(rows.dims),
            rows: 0,
        }
    }

    fn add(&mut self, rows: &Rows, i: usize) {
        self.cost[0] += rows.cost[i][0];
        self.cost[1] += rows.cost[i][1];
        for &(j, x) in &rows.share[i] {
            self.sig[j] += x;
        }
        self.rows += 1;
    }

    fn minus(&self, other: &Totals) -> Totals {
        Totals {
            cost: [self.cost[0] - other.cost[0], self.cost[1] - other.cost[1]],
            sig: Sig::difference(&self.sig, &other.sig),
            rows: self.rows - other.rows,
        }
    }

    /// The leaf predicting `class` on these rows, unless it holds more rows than the cap.
    fn leaf(&self, class: usize, rows: &Rows) -> Option<Entry> {
        if rows.max_leaf.is_some_and(|m| self.rows > m) {
            return None;
        }
        let sig = if class == rows.positive {
            self.sig.clone()
        } else {
            Sig::zeros(self.sig.len())
        };
        Some(Entry {
            sig,
            cost: self.cost[class],
            splits: 0,
            shape: Pick::Leaf(class as u8),
        })
    }
}

/// One way to label a row set.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// What it adds to the signature.
    pub sig: Sig,
    /// Its cost (split costs included).
    pub cost: f64,
    pub splits: u32,
    pub shape: Pick,
}

/// The splits of the rows with `member[row]` on each allowed feature: for each, the
/// threshold bin and the totals of both sides, with both sides at least the leaf minimum.
fn splits_of(
    binned: &Binned,
    rows: &Rows,
    member: &[bool],
    total: &Totals,
    allowed: &[u32],
    mut each: impl FnMut(u32, u32, &Totals, &Totals),
) {
    for &f in allowed {
        let sorted = &binned.sorted[f as usize];
        let mut left = Totals::empty(rows);
        let mut previous: Option<u32> = None;
        for element in sorted.iter().filter(|e| member[e.row as usize]) {
            if let Some(low) = previous.filter(|&low| low < element.bin) {
                if left.rows >= rows.min_leaf && total.rows - left.rows >= rows.min_leaf {
                    let right = total.minus(&left);
                    each(f, split_bin(low, element.bin), &left, &right);
                }
            }
            left.add(rows, element.row as usize);
            previous = Some(element.bin);
        }
    }
}

/// The totals of the rows with `member[row]`.
fn totals(rows: &Rows, member: &[bool]) -> Totals {
    let mut total = Totals::empty(rows);
    for (i, _) in member.iter().enumerate().filter(|(_, &m)| m) {
        total.add(rows, i);
    }
    total
}

/// The single leaves of the rows with `member[row]` (none above the cap on a leaf's rows).
pub(crate) fn leaves(rows: &Rows, member: &[bool]) -> Vec<Entry> {
    let total = totals(rows, member);
    (0..2).filter_map(|c| total.leaf(c, rows)).collect()
}

/// Every labelling of cost at most `most` of the rows with `member[row]` by a leaf or, with a
/// split budget of one or more, by one split at `level` (the root 0) and two leaves (splits on
/// the features allowed there whose sides both hold rows).
pub(crate) fn menu(
    binned: &Binned,
    rows: &Rows,
    member: &[bool],
    level: usize,
    most: f64,
) -> Vec<Entry> {
    let total = totals(rows, member);
    let mut out: Vec<Entry> = (0..2)
        .filter_map(|c| total.leaf(c, rows))
        .filter(|e| e.cost <= most)
        .collect();
    if !rows.within_budget(1) {
        return out;
    }
    splits_of(
        binned,
        rows,
        member,
        &total,
        rows.allowed_at(level),
        |feature, bin, left, right| {
            for l in 0..2 {
                let Some(le) = left.leaf(l, rows) else {
                    continue;
                };
                for r in 0..2 {
                    let Some(re) = right.leaf(r, rows) else {
                        continue;
                    };
                    if le.cost + re.cost + rows.split_cost > most {
                        continue;
                    }
                    out.push(Entry {
                        sig: Sig::sum(&le.sig, &re.sig),
                        cost: le.cost + re.cost + rows.split_cost,
                        splits: 1,
                        shape: Pick::split(feature, bin, &le.shape, &re.shape),
                    });
                }
            }
        },
    );
    out
}

/// The rows with `member[row]` in the order of each feature allowed at `level` (a subtree's
/// rows, scanned again for each of its splits by [`cheapest_sides`], whose children split at
/// `level`).
pub(crate) fn sorted_rows(
    binned: &Binned,
    rows: &Rows,
    member: &[bool],
    level: usize,
) -> Vec<Vec<Element>> {
    (rows.allowed_at(level).iter())
        .map(|&f| {
            (binned.sorted[f as usize].iter())
                .filter(|e| member[e.row as usize])
                .copied()
                .collect()
        })
        .collect()
}

/// One side's running sums in [`cheapest_sides`].
#[derive(Clone, Copy)]
struct Sweep {
    cost: [f64; 2],
    rows: usize,
    previous: Option<u32>,
}

/// The least cost of the entries [`menu`] gives each side of the rows `members` split by
/// `left[row]` (infinite for none), without building them: costs and row counts alone, both
/// sides in one scan of each of `sorted` (the members in the order of each feature the sides
/// may split on, from [`sorted_rows`]).
pub(crate) fn cheapest_sides(
    rows: &Rows,
    members: &[usize],
    sorted: &[Vec<Element>],
    left: &[bool],
) -> [f64; 2] {
    let leaf = |cost: [f64; 2], n: usize| match rows.max_leaf.is_some_and(|m| n > m) {
        true => f64::INFINITY,
        false => cost[0].min(cost[1]),
    };
    let start = Sweep {
        cost: [0.0; 2],
        rows: 0,
        previous: None,
    };
    let mut total = [start; 2];
    for &i in members {
        let t = &mut total[usize::from(!left[i])];
        t.cost = [t.cost[0] + rows.cost[i][0], t.cost[1] + rows.cost[i][1]];
        t.rows += 1;
    }
    let mut best = total.map(|t| leaf(t.cost, t.rows));
    if !rows.within_budget(1) {
        return best;
    }
    for list in sorted {
        let mut sweep = [start; 2];
        for e in list {
            let (i, side) = (e.row as usize, usize::from(!left[e.row as usize]));
            let (s, t) = (&mut sweep[side], &total[side]);
            if s.previous.is_some_and(|low| low < e.bin)
                && s.rows >= rows.min_leaf
                && t.rows - s.rows >= rows.min_leaf
            {
                let right = [t.cost[0] - s.cost[0], t.cost[1] - s.cost[1]];
                let split = leaf(s.cost, s.rows) + leaf(right, t.rows - s.rows) + rows.split_cost;
                best[side] = best[side].min(split);
            }
            s.cost = [s.cost[0] + rows.cost[i][0], s.cost[1] + rows.cost[i][1]];
            s.rows += 1;
            s.previous = Some(e.bin);
        }
    }
    best
}

/// The splits of the rows with `member[row]` on searched feature `f`: its threshold bins
/// whose sides both hold at least the leaf minimum.
pub(crate) fn splits_on(binned: &Binned, rows: &Rows, member: &[bool], f: u32) -> Vec<u32> {
    let total = totals(rows, member);
    let mut bins = Vec::new();
    splits_of(binned, rows, member, &total, &[f], |_, bin, _, _| {
        bins.push(bin)
    });
    bins
}

/// The two sides of the rows with `member[row]` split on searched feature `f` at `bin`.
pub(crate) fn sides(binned: &Binned, member: &[bool], f: u32, bin: u32) -> [Vec<bool>; 2] {
    let mut left = vec![false; member.len()];
    let mut right = vec![false; member.len()];
    for element in &binned.sorted[f as usize] {
        let i = element.row as usize;
        if member[i] {
            if element.bin <= bin {
                left[i] = true;
            } else {
                right[i] = true;
            }
        }
    }
    [left, right]
}
