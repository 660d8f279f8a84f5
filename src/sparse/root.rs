//! The root of the additive search shared out between threads, on the design of the exact
//! search's root ([`crate::search_core::root_share`]): the root's features, in the order of
//! their best Gini split, are dealt out to the threads; each thread has its own
//! [`AdditiveSearch`] (row arenas, scratch, equivalence scratch) over one shared cache, and all
//! prune with the root's best subtree so far. Of the root's cheapest subtrees, the one whose
//! split comes first (the feature's rank, then the position) wins whatever the timing; the
//! subtrees below it are rebuilt by a fresh single-threaded search (see
//! [`super::canonical`]). One thread runs the same code, so any number of threads returns the
//! same tree.

use std::sync::Arc;

use crate::dp::{FeatureRank, Outcome, Search, Solution, SplitSearch};
use crate::error::Result;
use crate::search_core::root_share::{on_threads, RootBest, RootShare};
use crate::search_core::view::View;
use crate::search_core::Progress as DpProgress;
use crate::sparse::additive::{AdditiveSearch, Opened};

/// Solves the root `view` of `main` at `depth` below `ub` with `threads` threads (`main` and
/// `threads - 1` searches sharing its cache), as [`AdditiveSearch::solve`] would.
pub(crate) fn solve_root(
    main: &mut AdditiveSearch,
    view: &View,
    depth: usize,
    ub: f64,
    threads: usize,
) -> Result<Outcome> {
    let opened = match main.open(view, depth, ub) {
        Ok(opened) => opened,
        Err(outcome) => return Ok(outcome),
    };
    if opened.small() {
        let outcome = main.solve_small(view, &opened, ub);
        return Ok(main.close(view, &opened, outcome));
    }
    let mut best = RootBest {
        cost: ub,
        solution: None,
        key: None,
        extra: (),
    };
    if main.dp.cost.improves(opened.leaf, ub) {
        best.cost = opened.leaf;
        best.solution = Some(Solution {
            cost: opened.leaf,
            split: None,
        });
    }
    let mut order = Vec::new();
    main.dp.feature_order(view, &mut order);
    let share = RootShare::new(best, &order, opened.lb, main.dp.cost.tol);
    let threads = threads.min(order.len()).max(1);
    let mut others: Vec<AdditiveSearch> = (1..threads)
        .map(|_| {
            let dp = Search::sharing(
                main.dp.data,
                main.dp.cost.clone(),
                main.dp.switches,
                Arc::clone(&main.dp.cache),
                main.dp.deadline.fork(),
            );
            main.sibling(dp)
        })
        .collect();
    let found = on_threads(main, &mut others, |search, is_main| {
        let root = if is_main {
            *view
        } else {
            search.dp.arena.root(search.dp.data)
        };
        work(search, &root, &opened, &share)
    })?;
    for other in &others {
        main.dp.deadline.join(&other.dp.deadline);
        main.stats.absorb(&other.stats);
    }
    let candidates_lb = found.into_iter().fold(f64::INFINITY, f64::min);
    let best = share.into_best();
    if let Some(solution) = best.solution.filter(|s| s.split.is_some() && !main.relaxed) {
        main.trajectory.push(DpProgress {
            seconds: main.dp.deadline.seconds(),
            incumbent: solution.cost,
            bound: main.dp.global_lb,
        });
    }
    let outcome = if main.dp.deadline.aborted() {
        Outcome {
            lb: opened.lb,
            solution: best.solution,
        }
    } else {
        match best.solution {
            Some(solution) => Outcome {
                lb: solution.cost,
                solution: Some(solution),
            },
            None => Outcome {
                lb: opened.lb.max(opened.leaf.min(candidates_lb)),
                solution: None,
            },
        }
    };
    Ok(main.close(view, &opened, outcome))
}

/// One thread's share of the root: features taken from the shared counter until none is
/// left, or the search stops. Returns the least lower bound of the candidates it settled.
fn work(
    search: &mut AdditiveSearch,
    view: &View,
    opened: &Opened,
    share: &RootShare<Solution, FeatureRank>,
) -> f64 {
    let mut positions = SplitSearch::default();
    let mut candidates_lb = f64::INFINITY;
    'features: while let Some((rank, &FeatureRank { index, .. })) = share.take() {
        if search.dp.deadline.reached() {
            break;
        }
        positions.reset(
            search.dp.arena.list(view, index),
            search.dp.data.row_counts(),
            &search.dp.cost,
            search.switches.similar_support,
            true,
            0,
            None,
            // No leaf minimum: no slack to count.
            [usize::MAX; 2],
        );
        loop {
            let (feature_ub, settled) = share.bound_for_rank(rank);
            if settled {
                break 'features;
            }
            let Some(candidate) = positions.next(feature_ub, &search.dp.cost) else {
                break;
            };
            if search.dp.deadline.reached() {
                break 'features;
            }
            let key = (rank, candidate.position);
            let ub = share.bound_for(key);
            let Some(value) = search.evaluate(
                view,
                opened.depth,
                index,
                candidate.position,
                (candidate.left_lb, candidate.right_lb),
                ub,
            ) else {
                break 'features;
            };
            if let Some(found) = value.best {
                share.offer(key, found.cost, found, |cost, best| {
                    search.dp.cost.improves(cost, best)
                });
            }
            positions.report(
                &candidate,
                value.left_known,
                value.right_known,
                value.lb,
                None,
            );
            candidates_lb = candidates_lb.min(value.lb);
        }
        candidates_lb = candidates_lb.min(positions.pruned_lb);
        search.stats.interval_pruned += positions.pruned;
    }
    candidates_lb
}
