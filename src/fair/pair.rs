//! Pairing two siblings' menus: the cheapest pair whose summed signature keeps the bounds
//! ([`best_pair`]), by a sliding-window minimum over one menu sorted by difference when the
//! signature is one difference and no split budget counts, and otherwise by walking both
//! menus by increasing cost until no cheaper pair is left; and the reduction of a menu to its
//! front ([`reduce`]): per signature, the entries no other beats on both cost and splits.

use std::collections::VecDeque;

use super::gauge::Gauge;
use super::menu::{Entry, Rows};
use super::sig::Sig;

/// The cheapest pair found: its cost (without the parent's split) and the two entries.
pub(crate) type Pair = (f64, Entry, Entry);

/// The cheapest pair of an entry of `left` and one of `right` whose summed signature keeps
/// `gauge` and whose splits and the parent's fit the budget of `rows`, of cost at most
/// `ceiling` (the first of the cheapest in a fixed order, so the pair chosen does not depend
/// on the ceiling).
pub(crate) fn best_pair(
    left: Vec<Entry>,
    right: Vec<Entry>,
    gauge: &Gauge,
    rows: &Rows,
    ceiling: f64,
) -> Option<Pair> {
    match gauge.one_limit() {
        Some(limit) if rows.max_splits.is_none() => window_pair(left, right, limit),
        _ => walked_pair(left, right, gauge, rows, ceiling),
    }
}

/// [`best_pair`] on one difference without a split budget: `left` sorted by difference,
/// `right` walked by decreasing difference, so the window of `left`'s differences that fit
/// moves one way, and a queue of increasing costs gives its cheapest entry. Sorting is
/// stable, so the pair chosen among equals depends on the menus' order only.
fn window_pair(mut left: Vec<Entry>, mut right: Vec<Entry>, limit: i64) -> Option<Pair> {
    left.sort_by_key(|e| e.sig[0]);
    right.sort_by_key(|e| std::cmp::Reverse(e.sig[0]));
    let mut queue: VecDeque<usize> = VecDeque::new();
    let mut next = 0;
    let mut best: Option<(f64, usize, usize)> = None;
    for (ri, r) in right.iter().enumerate() {
        let (low, high) = (-limit - r.sig[0], limit - r.sig[0]);
        while next < left.len() && left[next].sig[0] <= high {
            while queue
                .back()
                .is_some_and(|&b| left[b].cost > left[next].cost)
            {
                queue.pop_back();
            }
            queue.push_back(next);
            next += 1;
        }
        while queue.front().is_some_and(|&f| left[f].sig[0] < low) {
            queue.pop_front();
        }
        if let Some(&f) = queue.front() {
            let cost = left[f].cost + r.cost;
            if best.is_none_or(|b| cost < b.0) {
                best = Some((cost, f, ri));
            }
        }
    }
    best.map(|(cost, l, r)| (cost, left.swap_remove(l), right.swap_remove(r)))
}

/// [`best_pair`] in general: both menus by increasing cost (stable), each pair of cost at
/// most the best so far (and `ceiling`) checked.
fn walked_pair(
    mut left: Vec<Entry>,
    mut right: Vec<Entry>,
    gauge: &Gauge,
    rows: &Rows,
    ceiling: f64,
) -> Option<Pair> {
    left.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    right.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    let cheapest_right = right.first()?.cost;
    let mut best: Option<(f64, usize, usize)> = None;
    let mut scratch: Vec<i64> = Vec::with_capacity(gauge.dims);
    for (li, l) in left.iter().enumerate() {
        let bar = best.map_or(ceiling, |b| b.0.min(ceiling));
        if l.cost + cheapest_right > bar {
            break;
        }
        for (ri, r) in right.iter().enumerate() {
            let cost = l.cost + r.cost;
            if cost > bar || best.is_some_and(|b| cost >= b.0) {
                break;
            }
            if rows.within_budget(l.splits + r.splits + 1)
                && gauge.keeps_sum(&l.sig, &r.sig, &mut scratch)
            {
                best = Some((cost, li, ri));
                break;
            }
        }
    }
    best.map(|(cost, l, r)| (cost, left.swap_remove(l), right.swap_remove(r)))
}

/// What [`reduce`] reads of an entry.
pub(crate) trait Weighed {
    fn sig(&self) -> &Sig;
    fn cost(&self) -> f64;
    fn splits(&self) -> u32;
}

impl Weighed for Entry {
    fn sig(&self) -> &Sig {
        &self.sig
    }
    fn cost(&self) -> f64 {
        self.cost
    }
    fn splits(&self) -> u32 {
        self.splits
    }
}

/// The front of `entries`: for each signature, the entries of least cost for their number of
/// splits that no entry of fewer splits matches in cost (least cost alone without a split
/// budget), the first of equals in `entries`' order kept.
pub(crate) fn reduce<T: Weighed>(mut entries: Vec<T>, rows: &Rows) -> Vec<T> {
    let budget = rows.max_splits.is_some();
    let splits = |e: &T| if budget { e.splits() } else { 0 };
    entries.sort_by(|a, b| {
        a.sig()
            .cmp(b.sig())
            .then(splits(a).cmp(&splits(b)))
            .then(a.cost().total_cmp(&b.cost()))
    });
    let mut kept: Vec<T> = Vec::with_capacity(entries.len());
    let mut least = f64::INFINITY;
    for entry in entries {
        let same = kept.last().is_some_and(|k| k.sig() == entry.sig());
        if !same {
            least = f64::INFINITY;
        }
        if entry.cost() < least {
            least = entry.cost();
            kept.push(entry);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fair::shape::Pick;
    use proptest::prelude::*;

    fn entries(raw: &[(i64, u8)]) -> Vec<Entry> {
        raw.iter()
            .map(|&(d, c)| Entry {
                sig: crate::fair::sig::Sig::of(&[d]),
                cost: f64::from(c),
                splits: 0,
                shape: Pick::Leaf(0),
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
                .filter(|(l, r)| (l.sig[0] + r.sig[0]).abs() <= limit)
                .map(|(l, r)| l.cost + r.cost)
                .fold(None, |m: Option<f64>, c| Some(m.map_or(c, |m| m.min(c))));
            let found = window_pair(left, right, limit);
            prop_assert_eq!(found.as_ref().map(|f| f.0), brute);
            if let Some((cost, l, r)) = found {
                prop_assert!((l.sig[0] + r.sig[0]).abs() <= limit);
                prop_assert_eq!(l.cost + r.cost, cost);
            }
        }
    }
}
