//! The root of a front search of depth three or more, shared out between threads.
//!
//! The root's features are dealt out one at a time, in slot order, to the threads; each thread
//! has its own search (arenas, buffers) and all share the cache of fronts
//! ([`crate::search_core::shared_cache`]) and the points each root feature has reached so far
//! ([`RootShare`]), which every thread prunes with.
//!
//! The front and the tree of each point do not depend on which thread finished first. A
//! feature's region (what it need not search) holds the leaves' points and the points of the
//! features before it, but of the features after it only what they strictly dominate: so the
//! first feature (in slot order) that reaches a point of the front always finds it, at the
//! first of its positions (in bisection order) that reaches it, with the same left point. The
//! features' fronts are then merged in slot order, an earlier entry winning a tie, and each
//! point's tree is rebuilt below the root by a fresh single-threaded search
//! ([`super::solve`]). One thread runs the same code, so any number of threads returns the
//! same trees.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::error::{Error, Result};
use crate::pareto::entry::{leaf_front, points, Entry, Table};
use crate::pareto::front::{nondominated, Point};
use crate::pareto::search::{NodeResult, Search, ZERO};
use crate::pareto::ParetoStats;
use crate::search_core::view::View;

/// What the threads share: the points each root feature has reached so far, and the next
/// feature to hand out.
pub(crate) struct RootShare {
    leaves: Vec<Point>,
    found: Vec<Mutex<Vec<Point>>>,
    next: AtomicUsize,
}

impl RootShare {
    /// The region the feature in `slot` need not search: the leaves' points and those of the
    /// features before it (weakly dominated points), and what the features after it strictly
    /// dominate.
    pub fn region(&self, slot: usize) -> Vec<Point> {
        let mut all = self.leaves.clone();
        for (other, found) in self.found.iter().enumerate() {
            if other == slot {
                continue;
            }
            let found = found.lock().unwrap_or_else(|p| p.into_inner());
            if other < slot {
                all.extend(found.iter().copied());
            } else {
                for p in found.iter() {
                    all.push(Point::new(p.fp.saturating_add(1), p.fn_));
                    all.push(Point::new(p.fp, p.fn_.saturating_add(1)));
                }
            }
        }
        nondominated(all)
    }

    /// Records the points the feature in `slot` reaches so far.
    pub fn publish(&self, slot: usize, reached: Vec<Point>) {
        *self.found[slot].lock().unwrap_or_else(|p| p.into_inner()) = reached;
    }
}

/// The root `view` of `main` at the normalised `depth >= 3` and `budget`, searched by `threads`
/// threads (`main` and `threads - 1` searches sharing its cache): its exact front, or after a
/// stop the points found and a lower-bound front. The counters of the other threads are added
/// to `stats`.
pub(crate) fn solve_root(
    main: &mut Search,
    view: &View,
    depth: usize,
    budget: usize,
    threads: usize,
    stats: &mut ParetoStats,
) -> Result<NodeResult> {
    let counts = main.arena.counts(view);
    let (negatives, positives) = (counts[0], counts[1]);
    let leaves = leaf_front(negatives, positives);
    let share = RootShare {
        leaves: points(&leaves),
        found: (0..view.n_features)
            .map(|_| Mutex::new(Vec::new()))
            .collect(),
        next: AtomicUsize::new(0),
    };
    let results: Vec<Mutex<Option<NodeResult>>> =
        (0..view.n_features).map(|_| Mutex::new(None)).collect();
    let threads = threads.clamp(1, view.n_features.max(1));
    let mut others: Vec<Search> = (1..threads)
        .map(|_| {
            Search::sharing(
                main.data,
                main.bounds,
                Arc::clone(&main.cache),
                main.deadline.fork(),
            )
        })
        .collect();
    if others.is_empty() {
        work(main, Some(view), depth, budget, &share, &results);
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| Error::Internal(format!("cannot start {threads} threads: {e}")))?;
        pool.scope(|scope| {
            let (share, results) = (&share, &results);
            for other in others.iter_mut() {
                scope.spawn(move |_| work(other, None, depth, budget, share, results));
            }
            work(main, Some(view), depth, budget, share, results);
        });
        for other in &others {
            main.deadline.join(&other.deadline);
            stats.absorb(&other.stats);
            stats.depth_two_positions += other.depth_two.positions;
            stats.depth_two_intervals_pruned += other.depth_two.intervals_pruned;
        }
    }

    // The features' fronts in slot order, the leaves first: an earlier entry wins a tie.
    let mut table = Table::default();
    table.reset(negatives);
    table.offer_all(&leaves);
    let mut lower: Vec<Point> = Vec::new();
    let mut stopped = false;
    for result in results {
        match result.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some(NodeResult::Done(front)) => table.offer_all(&front),
            Some(NodeResult::Stopped {
                found,
                lower: bound,
            }) => {
                stopped = true;
                table.offer_all(&found);
                lower.extend(bound);
            }
            None => {
                // Not started: nothing is known of its splits.
                stopped = true;
                lower.extend(ZERO);
            }
        }
    }
    let mut front: Vec<Entry> = Vec::new();
    table.read(&mut front);
    if stopped {
        lower.extend(points(&front));
        Ok(NodeResult::Stopped {
            found: front,
            lower: nondominated(lower),
        })
    } else {
        Ok(NodeResult::Done(Arc::from(front.as_slice())))
    }
}

/// One thread's share of the root: features taken from the shared counter until none is left
/// or the search stops. `root`: the root in `search`'s arena (`None`: build it there).
fn work(
    search: &mut Search,
    root: Option<&View>,
    depth: usize,
    budget: usize,
    share: &RootShare,
    results: &[Mutex<Option<NodeResult>>],
) {
    let view = match root {
        Some(view) => *view,
        None => search.arena.root(search.data),
    };
    loop {
        let slot = share.next.fetch_add(1, Ordering::Relaxed);
        if slot >= results.len() || search.deadline.reached() {
            break;
        }
        let result = search.general(&view, depth, budget, &[], true, Some((slot, share)));
        let stopped = matches!(result, NodeResult::Stopped { .. });
        match &result {
            NodeResult::Done(front) => share.publish(slot, points(front)),
            NodeResult::Stopped { found, .. } => share.publish(slot, points(found)),
        }
        *results[slot].lock().unwrap_or_else(|p| p.into_inner()) = Some(result);
        if stopped {
            break;
        }
    }
}
