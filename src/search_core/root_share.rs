//! The root of a search shared out between threads: the candidate splits are dealt out item by
//! item (a feature and its positions) in a fixed order, and the root's best subtree so far
//! ([`RootBest`]) is the upper bound every thread prunes with from its next candidate on.
//!
//! The winner does not depend on which thread finished first: of the root's cheapest subtrees,
//! the one whose split comes first in the fixed order (the item's rank, then the position)
//! wins. So a candidate that comes before the best so far is searched with room for a tie (its
//! bound is the best's cost plus twice the tolerance), one after it must be strictly cheaper.
//! [`on_threads`] runs one worker per thread on a pool and collects what each returns.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::error::{Error, Result};

/// A root split's place in the fixed order: the item's rank, then the position.
pub(crate) type RootKey = (usize, usize);

/// The root's best subtree so far, and what a search keeps beside it under the same lock
/// (`extra`).
#[derive(Debug)]
pub(crate) struct RootBest<S, X = ()> {
    /// Its cost, or the upper bound the root was given while nothing beats it.
    pub cost: f64,
    pub solution: Option<S>,
    /// The place of its split (`None`: a leaf, or nothing found yet).
    pub key: Option<RootKey>,
    pub extra: X,
}

/// What the threads share: the best so far, the next item to hand out, the items in their
/// fixed order, the root's lower bound and the tolerance of the costs.
pub(crate) struct RootShare<'o, S, I, X = ()> {
    best: Mutex<RootBest<S, X>>,
    next: AtomicUsize,
    pub order: &'o [I],
    floor: f64,
    tol: f64,
}

impl<'o, S: Copy, I, X> RootShare<'o, S, I, X> {
    pub fn new(
        best: RootBest<S, X>,
        order: &'o [I],
        floor: f64,
        tol: f64,
    ) -> RootShare<'o, S, I, X> {
        RootShare {
            best: Mutex::new(best),
            next: AtomicUsize::new(0),
            order,
            floor,
            tol,
        }
    }

    pub fn best(&self) -> MutexGuard<'_, RootBest<S, X>> {
        self.best
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The root's lower bound.
    pub fn floor(&self) -> f64 {
        self.floor
    }

    /// The next item to search and its rank, `None` when all are handed out.
    pub fn take(&self) -> Option<(usize, &'o I)> {
        let rank = self.next.fetch_add(1, Ordering::Relaxed);
        self.order.get(rank).map(|item| (rank, item))
    }

    /// The upper bound of a candidate at `key`: room for a tie if it comes before the best.
    pub fn bound_for(&self, key: RootKey) -> f64 {
        let best = self.best();
        match best.key {
            Some(best_key) if key < best_key => best.cost + 2.0 * self.tol,
            _ => best.cost,
        }
    }

    /// The upper bound for an item's position search at `rank` (room for a tie if some of its
    /// positions may come before the best), and whether no candidate of this rank or a later
    /// one can win any more (the best reaches the root's lower bound).
    pub fn bound_for_rank(&self, rank: usize) -> (f64, bool) {
        let best = self.best();
        let settled = best.solution.is_some()
            && best.cost <= self.floor + self.tol
            && best.key.is_none_or(|(best_rank, _)| rank > best_rank);
        match best.key {
            Some((best_rank, _)) if rank <= best_rank => (best.cost + 2.0 * self.tol, settled),
            _ => (best.cost, settled),
        }
    }

    /// Offers a subtree of `cost` found under the split at `key`: it wins if `cheaper` (the
    /// caller's test against the best's cost, read under the same lock through `is_cheaper`),
    /// or as cheap and earlier in the order. Returns whether it was cheaper.
    pub fn offer(
        &self,
        key: RootKey,
        cost: f64,
        solution: S,
        is_cheaper: impl Fn(f64, f64) -> bool,
    ) -> bool {
        self.offer_with(key, cost, solution, is_cheaper, |_| {})
    }

    /// [`RootShare::offer`], and `on_cheaper` run on the new best, still under the lock, when
    /// the offer was cheaper.
    pub fn offer_with(
        &self,
        key: RootKey,
        cost: f64,
        solution: S,
        is_cheaper: impl Fn(f64, f64) -> bool,
        on_cheaper: impl FnOnce(&mut RootBest<S, X>),
    ) -> bool {
        let mut best = self.best();
        let cheaper = is_cheaper(cost, best.cost);
        let tie_before = best.solution.is_some()
            && (cost - best.cost).abs() <= self.tol
            && best.key.is_some_and(|best_key| key < best_key);
        if cheaper || tie_before {
            best.cost = cost;
            best.solution = Some(solution);
            best.key = Some(key);
            if cheaper {
                on_cheaper(&mut best);
            }
        }
        cheaper
    }

    pub fn into_best(self) -> RootBest<S, X> {
        self.best
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Runs `work` on `main` (told it is the main one) and on each of `others` at once, one
/// thread each on a pool of `1 + others.len()` threads (`main` alone on the calling thread
/// when there are no others), and returns what they return, `main`'s first.
pub(crate) fn on_threads<W: Send, T: Send>(
    main: &mut W,
    others: &mut [W],
    work: impl Fn(&mut W, bool) -> T + Sync,
) -> Result<Vec<T>> {
    if others.is_empty() {
        return Ok(vec![work(main, true)]);
    }
    let threads = others.len() + 1;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Internal(format!("cannot start {threads} threads: {e}")))?;
    let results: Mutex<Vec<(usize, T)>> = Mutex::new(Vec::with_capacity(threads));
    pool.scope(|scope| {
        let (results, work) = (&results, &work);
        for (i, other) in others.iter_mut().enumerate() {
            scope.spawn(move |_| {
                let value = work(other, false);
                results
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push((i + 1, value));
            });
        }
        let value = work(main, true);
        results
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((0, value));
    });
    let mut results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    results.sort_by_key(|(i, _)| *i);
    Ok(results.into_iter().map(|(_, value)| value).collect())
}
