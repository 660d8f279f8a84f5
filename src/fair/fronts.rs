//! The fair search proper: the front of every subtree below the root ([`front`]: per
//! signature, the cheapest labelling by a tree of the depth left, found by pairing the
//! children's fronts of each split), and the root ([`search`]): for each root split, the
//! cheapest pair of its children's fronts whose summed signature keeps the bounds, the root
//! splits of each feature on their own thread. A shared ceiling (the cheapest tree found that
//! keeps the bounds) drops entries that cost more; only entries strictly above it are dropped
//! and the first of the cheapest is kept in a fixed order, so the tree is the same on any
//! number of threads.
//!
//! With bounds on (the default), an entry is also dropped when it cannot be part of a tree
//! that costs no more than the ceiling: when its cost, the parent's split and the least cost
//! of its sibling subtree (the cheapest labelling of the sibling's rows, fair or not) exceed
//! the ceiling; a root split whose children's least costs exceed it is not paired; and at
//! depth 3 the cheapest fair tree of depth 2 is found first, so the ceiling starts low. An
//! entry dropped this way is in no tree cheaper than one already found, so the optimum and
//! the tree returned are those without the bounds (kept switchable to test that).

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::gauge::Gauge;
use super::menu::{self, Entry, Rows};
use super::pair::{best_pair, reduce, Weighed};
use super::shape::Pick;
use super::sig::Sig;
use crate::error::{Error, Result};
use crate::search_core::binned::Binned;

/// What the search works on: the binned data, each row's costs and shares, and the bounds.
pub(crate) struct Context<'a> {
    pub binned: &'a Binned,
    pub rows: &'a Rows,
    pub gauge: &'a Gauge,
    /// Whether to prune with the siblings' least costs and start depth 3 from depth 2.
    bounds: bool,
    /// The cost of the cheapest tree found that keeps the bounds (an `f64`'s bits).
    ceiling: AtomicU64,
}

impl<'a> Context<'a> {
    pub fn new(binned: &'a Binned, rows: &'a Rows, gauge: &'a Gauge, bounds: bool) -> Context<'a> {
        Context {
            binned,
            rows,
            gauge,
            bounds,
            ceiling: AtomicU64::new(f64::INFINITY.to_bits()),
        }
    }

    fn ceiling(&self) -> f64 {
        f64::from_bits(self.ceiling.load(Ordering::Relaxed))
    }

    /// Lowers the ceiling to `cost` (costs are not negative, so their bits order as they do).
    fn lower_ceiling(&self, cost: f64) {
        self.ceiling.fetch_min(cost.to_bits(), Ordering::Relaxed);
    }

    /// What a subtree's entry may cost at most when the rest of the tree costs at least
    /// `outside` (counted with bounds on only).
    fn room(&self, outside: f64) -> f64 {
        match (self.bounds, outside.is_finite()) {
            (false, _) => self.ceiling(),
            (true, true) => self.ceiling() - outside,
            // No labelling of the rest: nothing fits (and no infinity less infinity).
            (true, false) => f64::NEG_INFINITY,
        }
    }
}

/// The least cost of `entries` (infinite for none).
fn least(entries: &[Entry]) -> f64 {
    entries.iter().map(|e| e.cost).fold(f64::INFINITY, f64::min)
}

/// `entries` by increasing cost (stable).
fn by_cost(mut entries: Vec<Entry>) -> Vec<Entry> {
    entries.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    entries
}

/// One split of a subtree of depth two and the least costs of its children (of depth one).
struct TwoSplit {
    feature: u32,
    bin: u32,
    least: [f64; 2],
}

/// A subtree of depth two before pairing: its rows, the depth of its root, its leaves, splits
/// and least cost.
struct Two<'m> {
    member: &'m [bool],
    level: usize,
    leaves: Vec<Entry>,
    splits: Vec<TwoSplit>,
    least: f64,
}

/// The rows with `member[row]` prepared for a front of depth two whose root is at `level`: every
/// split with the least costs of its children; `None` when `stop` says so.
fn two<'m>(
    cx: &Context,
    member: &'m [bool],
    level: usize,
    stop: &(impl Fn() -> bool + Sync),
) -> Option<Two<'m>> {
    let rows = cx.rows;
    let leaves = menu::leaves(rows, member);
    let mut out = Two {
        member,
        level,
        least: least(&leaves),
        leaves,
        splits: Vec::new(),
    };
    if !rows.within_budget(1) {
        return Some(out);
    }
    let members: Vec<usize> = (0..member.len()).filter(|&i| member[i]).collect();
    let sorted = menu::sorted_rows(cx.binned, rows, member, level + 1);
    for &feature in rows.allowed_at(level) {
        for bin in menu::splits_on(cx.binned, rows, member, feature) {
            if stop() {
                return None;
            }
            let [left, _] = menu::sides(cx.binned, member, feature, bin);
            let least = menu::cheapest_sides(rows, &members, &sorted, &left);
            out.least = out.least.min(least[0] + least[1] + rows.split_cost);
            out.splits.push(TwoSplit {
                feature,
                bin,
                least,
            });
        }
    }
    Some(out)
}

/// A pair of a front of depth two before it is built: where it comes from.
enum Origin {
    Leaf(usize),
    Pair {
        split: usize,
        left: usize,
        right: usize,
    },
}

/// An entry of a front of depth two before it is built.
struct Candidate {
    sig: Sig,
    cost: f64,
    splits: u32,
    from: Origin,
}

impl Weighed for Candidate {
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

/// The front of depth two of `two` (per signature the cheapest labelling, for its number of
/// splits under a split budget), none above what [`Context::room`] leaves when the rest of
/// the tree costs at least `outside`; `None` when `stop` says so.
fn paired(
    cx: &Context,
    two: &Two,
    outside: f64,
    stop: &(impl Fn() -> bool + Sync),
) -> Option<Vec<Entry>> {
    let rows = cx.rows;
    let split_cost = rows.split_cost;
    let room = cx.room(outside);
    let mut found: Vec<Candidate> = (two.leaves.iter().enumerate())
        .filter(|(_, e)| e.cost <= room)
        .map(|(i, e)| Candidate {
            sig: e.sig.clone(),
            cost: e.cost,
            splits: 0,
            from: Origin::Leaf(i),
        })
        .collect();
    let mut menus: Vec<[Vec<Entry>; 2]> = Vec::new();
    let mut picked: Vec<(u32, u32)> = Vec::new();
    for split in &two.splits {
        if stop() {
            return None;
        }
        let room = cx.room(outside);
        let least = split.least;
        if least[0] + least[1] + split_cost > room {
            continue;
        }
        let sides = menu::sides(cx.binned, two.member, split.feature, split.bin);
        let [left, right] = [0, 1].map(|side| {
            let most = room - split_cost - least[1 - side];
            by_cost(reduce(
                menu::menu(cx.binned, rows, &sides[side], two.level + 1, most),
                rows,
            ))
        });
        for (li, l) in left.iter().enumerate() {
            for (ri, r) in right.iter().enumerate() {
                let cost = l.cost + r.cost + split_cost;
                if cost > room {
                    break;
                }
                let splits = l.splits + r.splits + 1;
                if rows.within_budget(splits) {
                    found.push(Candidate {
                        sig: Sig::sum(&l.sig, &r.sig),
                        cost,
                        splits,
                        from: Origin::Pair {
                            split: menus.len(),
                            left: li,
                            right: ri,
                        },
                    });
                }
            }
        }
        menus.push([left, right]);
        picked.push((split.feature, split.bin));
    }
    let built = reduce(found, rows).into_iter().map(|c| {
        let shape = match c.from {
            Origin::Leaf(i) => two.leaves[i].shape.clone(),
            Origin::Pair { split, left, right } => {
                let (feature, bin) = picked[split];
                let [l, r] = &menus[split];
                Pick::split(feature, bin, &l[left].shape, &r[right].shape)
            }
        };
        Entry {
            sig: c.sig,
            cost: c.cost,
            splits: c.splits,
            shape,
        }
    });
    Some(built.collect())
}

/// The cheapest tree found that keeps the bounds.
pub(crate) struct Found {
    pub cost: f64,
    pub sig: Sig,
    pub shape: Pick,
}

/// What the search gave.
pub(crate) struct Searched {
    /// The cheapest tree found that keeps the bounds (none: no tree keeps them, or the search
    /// stopped before finding one).
    pub best: Option<Found>,
    /// The root splits whose children's fronts were paired.
    pub root_splits: u64,
    /// Whether the time limit or an interrupt cut it short.
    pub stopped: bool,
}

/// The fronts of the two children of a root split at `depth` (2 or 3) on the sides `sides`,
/// ready to pair: a child of depth one gets its whole menu (pairing it costs less than
/// reducing it); `Some(None)` when the children's least costs exceed the ceiling (bounds on),
/// `None` when `stop` says so.
fn children(
    cx: &Context,
    depth: usize,
    sides: [Vec<bool>; 2],
    stop: &(impl Fn() -> bool + Sync),
) -> Option<Option<[Vec<Entry>; 2]>> {
    let split_cost = cx.rows.split_cost;
    let beyond = |least: [f64; 2]| cx.bounds && least[0] + least[1] + split_cost > cx.ceiling();
    if depth == 2 {
        let [left, right] = sides.map(|m| menu::menu(cx.binned, cx.rows, &m, 1, f64::INFINITY));
        let least = [least(&left), least(&right)];
        if beyond(least) {
            return Some(None);
        }
        let keep = |menu: Vec<Entry>, other: f64| -> Vec<Entry> {
            let room = cx.room(split_cost + other);
            menu.into_iter().filter(|e| e.cost <= room).collect()
        };
        return Some(Some([keep(left, least[1]), keep(right, least[0])]));
    }
    let [l, r] = sides;
    let left = two(cx, &l, 1, stop)?;
    if beyond([left.least, 0.0]) {
        return Some(None);
    }
    let right = two(cx, &r, 1, stop)?;
    if beyond([left.least, right.least]) {
        return Some(None);
    }
    let left_front = paired(cx, &left, split_cost + right.least, stop)?;
    let right_front = paired(cx, &right, split_cost + left.least, stop)?;
    Some(Some([left_front, right_front]))
}

/// The cheapest root split on searched feature `f` whose children's fronts pair within the
/// bounds, until `stop` says so.
fn best_under_feature(
    cx: &Context,
    depth: usize,
    f: u32,
    stop: &(impl Fn() -> bool + Sync),
) -> Searched {
    let rows = cx.rows;
    let everyone = vec![true; rows.cost.len()];
    let mut under = Searched {
        best: None,
        root_splits: 0,
        stopped: false,
    };
    for bin in menu::splits_on(cx.binned, rows, &everyone, f) {
        let sides = menu::sides(cx.binned, &everyone, f, bin);
        let (Some(fronts), false) = (children(cx, depth, sides, stop), stop()) else {
            under.stopped = true;
            return under;
        };
        let Some([left, right]) = fronts else {
            continue;
        };
        under.root_splits += 1;
        let ceiling = cx.ceiling() - rows.split_cost;
        if let Some((cost, le, re)) = best_pair(left, right, cx.gauge, rows, ceiling) {
            let cost = cost + rows.split_cost;
            if under.best.as_ref().is_none_or(|b| cost < b.cost) {
                under.best = Some(Found {
                    cost,
                    sig: Sig::sum(&le.sig, &re.sig),
                    shape: Pick::split(f, bin, &le.shape, &re.shape),
                });
                cx.lower_ceiling(cost);
            }
        }
    }
    under
}

/// The cheapest tree of depth at most one that keeps the bounds, the ceiling lowered to it.
fn best_leaf_or_stump(cx: &Context) -> Searched {
    let everyone = vec![true; cx.rows.cost.len()];
    let mut found: Option<Found> = None;
    for e in menu::menu(cx.binned, cx.rows, &everyone, 0, f64::INFINITY) {
        if cx.gauge.keeps(&e.sig) && found.as_ref().is_none_or(|f| e.cost < f.cost) {
            found = Some(Found {
                cost: e.cost,
                sig: e.sig,
                shape: e.shape,
            });
        }
    }
    if let Some(f) = &found {
        cx.lower_ceiling(f.cost);
    }
    Searched {
        best: found,
        root_splits: 0,
        stopped: false,
    }
}

/// The cheapest tree of depth at most `depth` in `cx` that keeps the bounds, with `threads`
/// threads, until `stop` says so (with bounds on, depth 3 starts from depth 2's tree: the
/// cheapest of depth 3 replaces it only when it costs less).
pub(crate) fn search(
    cx: &Context,
    depth: usize,
    threads: usize,
    stop: &(impl Fn() -> bool + Sync),
) -> Result<Searched> {
    let rows = cx.rows;
    let mut searched = match (depth, cx.bounds) {
        (3.., true) => search(cx, depth - 1, threads, stop)?,
        _ => best_leaf_or_stump(cx),
    };
    if searched.stopped || depth < 2 || !rows.within_budget(2) {
        return Ok(searched);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Internal(format!("the search's threads: {e}")))?;
    let per_feature: Vec<Searched> = pool.install(|| {
        rows.allowed_at(0)
            .par_iter()
            .map(|&f| best_under_feature(cx, depth, f, stop))
            .collect()
    });
    for under in per_feature {
        searched.root_splits += under.root_splits;
        searched.stopped |= under.stopped;
        if let Some(best) = under.best {
            if searched.best.as_ref().is_none_or(|f| best.cost < f.cost) {
                searched.best = Some(best);
            }
        }
    }
    Ok(searched)
}
