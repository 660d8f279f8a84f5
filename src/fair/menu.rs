//! The menus of the fair search: every way a subtree of depth at most one can label a row set,
//! each with its cost and its signed parity difference ([`Entry`]), and the best pair of two
//! siblings' menus whose differences sum within the bound ([`best_pair`], a sliding-window
//! minimum over one menu sorted by difference).

use crate::search_core::binned::{split_bin, Binned};

/// What each row brings: its cost under each predicted class (0 when the class is its label)
/// and what it adds to the signed difference when predicted positive.
#[derive(Debug, Clone)]
pub(crate) struct Rows {
    /// `cost[i][c]`: the cost of predicting class `c` for row `i`.
    pub cost: Vec<[f64; 2]>,
    /// `delta[i]`: row `i`'s share of `n1 * a - n0 * b` when predicted positive.
    pub delta: Vec<i64>,
    /// The class the rates count as positive.
    pub positive: usize,
    /// Every leaf that receives rows receives at least this many.
    pub min_leaf: usize,
    /// The searched features a split may use.
    pub allowed: Vec<u32>,
    /// What a split costs.
    pub split_cost: f64,
}

/// The totals of a row set.
#[derive(Debug, Clone, Copy, Default)]
struct Totals {
    cost: [f64; 2],
    delta: i64,
    rows: usize,
}

impl Totals {
    fn add(&mut self, rows: &Rows, i: usize) {
        self.cost[0] += rows.cost[i][0];
        self.cost[1] += rows.cost[i][1];
        self.delta += rows.delta[i];
        self.rows += 1;
    }

    fn minus(&self, other: &Totals) -> Totals {
        Totals {
            cost: [self.cost[0] - other.cost[0], self.cost[1] - other.cost[1]],
            delta: self.delta - other.delta,
            rows: self.rows - other.rows,
        }
    }

    /// The leaf predicting `class`: its cost and difference.
    fn leaf(&self, class: usize, positive: usize) -> (f64, i64) {
        let d = if class == positive { self.delta } else { 0 };
        (self.cost[class], d)
    }
}

/// How a menu's entry labels its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Choice {
    Leaf(u8),
    /// A split on searched feature `feature` at threshold bin `bin`, its leaves' classes.
    Split {
        feature: u32,
        bin: u32,
        left: u8,
        right: u8,
    },
}

/// One way to label a row set.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    /// The signed difference it adds.
    pub d: i64,
    /// Its cost (split costs included).
    pub cost: f64,
    pub choice: Choice,
}

/// The splits of the rows with `member[row]` on each allowed feature: for each, the
/// threshold bin and the totals of the left side, with both sides at least the leaf minimum.
fn splits_of(
    binned: &Binned,
    rows: &Rows,
    member: &[bool],
    total: &Totals,
    mut each: impl FnMut(u32, u32, &Totals, &Totals),
) {
    for &f in &rows.allowed {
        let sorted = &binned.sorted[f as usize];
        let mut left = Totals::default();
        let mut previous: Option<u32> = None;
        for element in sorted.iter().filter(|e| member[e.row as usize]) {
            if let Some(low) = previous.filter(|&low| low < element.bin) {
                let right = total.minus(&left);
                if left.rows >= rows.min_leaf && right.rows >= rows.min_leaf {
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
    let mut total = Totals::default();
    for (i, _) in member.iter().enumerate().filter(|(_, &m)| m) {
        total.add(rows, i);
    }
    total
}

/// Every labelling of the rows with `member[row]` by a leaf or, with `split`, by one split
/// and two leaves (splits whose sides both hold rows).
pub(crate) fn menu(binned: &Binned, rows: &Rows, member: &[bool], split: bool) -> Vec<Entry> {
    let total = totals(rows, member);
    let mut out = Vec::new();
    for class in 0..2u8 {
        let (cost, d) = total.leaf(class as usize, rows.positive);
        out.push(Entry {
            d,
            cost,
            choice: Choice::Leaf(class),
        });
    }
    if !split {
        return out;
    }
    splits_of(binned, rows, member, &total, |feature, bin, left, right| {
        for l in 0..2u8 {
            let (lc, ld) = left.leaf(l as usize, rows.positive);
            for r in 0..2u8 {
                let (rc, rd) = right.leaf(r as usize, rows.positive);
                out.push(Entry {
                    d: ld + rd,
                    cost: lc + rc + rows.split_cost,
                    choice: Choice::Split {
                        feature,
                        bin,
                        left: l,
                        right: r,
                    },
                });
            }
        }
    });
    out
}

/// The root splits of the rows with `member[row]`: feature `f`'s threshold bins whose sides
/// both hold at least the leaf minimum.
pub(crate) fn root_splits(binned: &Binned, rows: &Rows, member: &[bool], f: u32) -> Vec<u32> {
    let only = Rows {
        allowed: vec![f],
        ..rows.clone()
    };
    let total = totals(rows, member);
    let mut bins = Vec::new();
    splits_of(binned, &only, member, &total, |_, bin, _, _| bins.push(bin));
    bins
}

/// The cheapest entry of `menu` whose difference lies within `limit` either way (the first
/// of the cheapest).
pub(crate) fn best_within(menu: &[Entry], limit: i64) -> Option<Entry> {
    let mut best: Option<Entry> = None;
    for e in menu.iter().filter(|e| e.d.abs() <= limit) {
        if best.is_none_or(|b| e.cost < b.cost) {
            best = Some(*e);
        }
    }
    best
}

/// The cheapest pair of an entry of `left` and one of `right` whose differences sum within
/// `limit` either way: `left` sorted by difference, `right` walked by decreasing difference,
/// so the window of `left`'s differences that fit moves one way, and a queue of increasing
/// costs gives its cheapest entry. Sorting is stable, so the pair chosen among equals
/// depends on the menus' order only.
pub(crate) fn best_pair(
    mut left: Vec<Entry>,
    mut right: Vec<Entry>,
    limit: i64,
) -> Option<(f64, Entry, Entry)> {
    left.sort_by_key(|e| e.d);
    right.sort_by_key(|e| std::cmp::Reverse(e.d));
    let mut queue: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    let mut next = 0;
    let mut best: Option<(f64, Entry, Entry)> = None;
    for r in &right {
        let (low, high) = (-limit - r.d, limit - r.d);
        while next < left.len() && left[next].d <= high {
            while queue
                .back()
                .is_some_and(|&b| left[b].cost > left[next].cost)
            {
                queue.pop_back();
            }
            queue.push_back(next);
            next += 1;
        }
        while queue.front().is_some_and(|&f| left[f].d < low) {
            queue.pop_front();
        }
        if let Some(&f) = queue.front() {
            let cost = left[f].cost + r.cost;
            if best.as_ref().is_none_or(|b| cost < b.0) {
                best = Some((cost, left[f], *r));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn entries(raw: &[(i64, u8)]) -> Vec<Entry> {
        raw.iter()
            .map(|&(d, c)| Entry {
                d,
                cost: f64::from(c),
                choice: Choice::Leaf(0),
            })
            .collect()
    }

    proptest! {
        #[test]
        fn the_window_finds_the_cheapest_pair_within_the_limit(
            a in prop::collection::vec((-20i64..20, 0u8..30), 0..12),
            b in prop::collection::vec((-20i64..20, 0u8..30), 0..12),
            limit in 0i64..15,
        ) {
            let (left, right) = (entries(&a), entries(&b));
            let brute = left
                .iter()
                .flat_map(|l| right.iter().map(move |r| (l, r)))
                .filter(|(l, r)| (l.d + r.d).abs() <= limit)
                .map(|(l, r)| l.cost + r.cost)
                .fold(None, |m: Option<f64>, c| Some(m.map_or(c, |m| m.min(c))));
            let found = best_pair(left, right, limit);
            prop_assert_eq!(found.map(|f| f.0), brute);
            if let Some((cost, l, r)) = found {
                prop_assert!((l.d + r.d).abs() <= limit);
                prop_assert_eq!(l.cost + r.cost, cost);
            }
        }
    }
}
