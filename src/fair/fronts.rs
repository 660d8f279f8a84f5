//! The fair search proper: the front of every subtree below the root ([`front`]: per
//! signature, the cheapest labelling by a tree of the depth left, found by pairing the
//! children's fronts of each split), and the root ([`search`]): for each root split, the
//! cheapest pair of its children's fronts whose summed signature keeps the bounds, the root
//! splits of each feature on their own thread. A shared ceiling (the cheapest tree found that
//! keeps the bounds) drops entries that cost more; only entries strictly above it are dropped
//! and the first of the cheapest is kept in a fixed order, so the tree is the same on any
//! number of threads.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::gauge::Gauge;
use super::menu::{self, Entry, Rows};
use super::pair::{best_pair, reduce};
use super::shape::Pick;
use super::sig::Sig;
use crate::error::{Error, Result};
use crate::search_core::binned::Binned;

/// What the search works on: the binned data, each row's costs and shares, and the bounds.
pub(crate) struct Context<'a> {
    pub binned: &'a Binned,
    pub rows: &'a Rows,
    pub gauge: &'a Gauge,
    /// The cost of the cheapest tree found that keeps the bounds (an `f64`'s bits).
    ceiling: AtomicU64,
}

impl<'a> Context<'a> {
    pub fn new(binned: &'a Binned, rows: &'a Rows, gauge: &'a Gauge) -> Context<'a> {
        Context {
            binned,
            rows,
            gauge,
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
}

/// The front of the rows with `member[row]` for trees of depth at most `depth` (1 or more):
/// per signature the cheapest labelling (for its number of splits under a split budget), none
/// above the ceiling; `None` when `stop` says so. A root's child at depth one gets its whole
/// menu (pairing it costs less than reducing it).
fn front(
    cx: &Context,
    member: &[bool],
    depth: usize,
    root_child: bool,
    stop: &(impl Fn() -> bool + Sync),
) -> Option<Vec<Entry>> {
    let rows = cx.rows;
    if depth == 1 {
        let ceiling = cx.ceiling();
        let menu = menu::menu(cx.binned, rows, member, true);
        let kept = menu.into_iter().filter(|e| e.cost <= ceiling).collect();
        return Some(if root_child { kept } else { reduce(kept, rows) });
    }
    let mut out = menu::leaves(rows, member);
    if !rows.within_budget(1) {
        return Some(out);
    }
    for &f in &rows.allowed {
        for bin in menu::splits_on(cx.binned, rows, member, f) {
            if stop() {
                return None;
            }
            let [l, r] = menu::sides(cx.binned, member, f, bin);
            let left = front(cx, &l, depth - 1, false, stop)?;
            let right = front(cx, &r, depth - 1, false, stop)?;
            let ceiling = cx.ceiling();
            for le in &left {
                for re in &right {
                    let cost = le.cost + re.cost + rows.split_cost;
                    let splits = le.splits + re.splits + 1;
                    if cost <= ceiling && rows.within_budget(splits) {
                        out.push(Entry {
                            sig: Sig::sum(&le.sig, &re.sig),
                            cost,
                            splits,
                            shape: Pick::split(f, bin, &le.shape, &re.shape),
                        });
                    }
                }
            }
        }
    }
    Some(reduce(out, rows))
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
        let [l, r] = menu::sides(cx.binned, &everyone, f, bin);
        let fronts = front(cx, &l, depth - 1, true, stop).zip(front(cx, &r, depth - 1, true, stop));
        let (Some((left, right)), false) = (fronts, stop()) else {
            under.stopped = true;
            return under;
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

/// The cheapest tree of depth at most `depth` in `cx` that keeps the bounds, with `threads`
/// threads, until `stop` says so.
pub(crate) fn search(
    cx: &Context,
    depth: usize,
    threads: usize,
    stop: &(impl Fn() -> bool + Sync),
) -> Result<Searched> {
    let rows = cx.rows;
    let everyone = vec![true; rows.cost.len()];
    let mut found: Option<Found> = None;
    for e in menu::menu(cx.binned, rows, &everyone, true) {
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
    let mut searched = Searched {
        best: found,
        root_splits: 0,
        stopped: false,
    };
    if depth < 2 || !rows.within_budget(2) {
        return Ok(searched);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Internal(format!("the search's threads: {e}")))?;
    let per_feature: Vec<Searched> = pool.install(|| {
        rows.allowed
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
