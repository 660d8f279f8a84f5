//! The root of a search of depth three or more, shared out between threads.
//!
//! The root's candidate splits (its features, each feature's positions by bisection) are dealt
//! out to the threads in units ([`super::root_pool`]): a feature's first position, then the
//! intervals of positions beside each position solved, features in the order of their best
//! Gini split, so several threads can share one feature's positions; each thread
//! has its own search (its own row arenas, scratch and similarity memory) and all share the
//! cache ([`crate::search_core::shared_cache`]) and the root's best subtree so far ([`RootShare`]),
//! whose cost is the upper bound every thread prunes with from its next candidate on.
//!
//! The split returned does not depend on which thread finished first: of the root's cheapest
//! subtrees, the one whose split comes first in the fixed order (the feature's Gini rank, then
//! the position) wins. So a candidate that comes before the best so far is searched with room
//! for a tie (its bound is the best's cost plus the tolerance), one after it must be strictly
//! cheaper, and ties between the budget shares of one split go to the first share, as in the
//! serial search. Below the root, the subtrees of the winner are rebuilt by the caller in a
//! fresh single-threaded search ([`super::solve`]), which does not depend on the threads either.
//! One thread runs the same code, so any number of threads returns the same tree.

use std::sync::Arc;

use crate::dp::intervals::{Candidate, Report, SplitBounds, SplitSearch};
use crate::dp::known::Solution;
use crate::dp::root_pool::{Pool, Taken, Unit};
use crate::dp::search::{child_splits, finish, FeatureRank, Outcome, Search, FIRST_AT_GINI};
use crate::dp::{DpProgress, DpStats, RootUnit};
use crate::error::Result;
use crate::search_core::budget::budget_distributions;
use crate::search_core::root_share::{on_threads, RootBest, RootKey, RootShare};
use crate::search_core::view::View;

/// What the root's search keeps beside its best subtree, under the same lock.
#[derive(Debug)]
struct Extra {
    trajectory: Vec<DpProgress>,
    /// Per feature rank, what is proven about its splits so far.
    features: Vec<FeatureBound>,
    /// The root's lower bound last published (see [`Shared::settle`]).
    bound: f64,
}

/// What is proven about the splits of one root feature, whose units of work may be searched
/// by several threads at once.
#[derive(Debug)]
struct FeatureBound {
    /// The least bound of its positions solved or pruned so far (infinite: none).
    done: f64,
    /// Its units not finished yet, with the least bound of their positions.
    open: Vec<(u64, f64)>,
    /// A lower bound on every split of the feature (the largest computed so far).
    bound: f64,
}

/// What the threads share: the root's best so far and the features in their order
/// ([`RootShare`]), and what the published bounds are made of.
struct Shared<'o> {
    share: RootShare<'o, Solution, FeatureRank, Extra>,
    /// The leaf's cost: the root's candidate that is not a split.
    leaf_cost: f64,
    /// The search's incumbent and lower bound when the root's search began (the other threads'
    /// searches know neither).
    incumbent: f64,
    prior: f64,
}

impl Shared<'_> {
    /// Offers a subtree found under the split at `key` ([`RootShare::offer`]); a cheaper one is
    /// a new point of the trajectory.
    fn offer(&self, key: RootKey, found: Solution, search: &Search) {
        self.share.offer_with(
            key,
            found.cost,
            found,
            |cost, best| search.cost.improves(cost, best),
            |best| {
                let point = DpProgress {
                    seconds: search.deadline.seconds(),
                    incumbent: found.cost,
                    bound: self.prior.max(best.extra.bound),
                };
                best.extra.trajectory.push(point);
                search.deadline.progress.publish(found.cost, point.bound);
            },
        );
    }

    /// Records that the unit numbered `unit` of the feature at `rank` proved `lb` on the
    /// positions it solved or pruned and handed out the units `handed_out` (their numbers and
    /// the bounds of their positions), and publishes the root's lower bound when that raises
    /// it: the least proven bound of its candidates (the leaf, the best found, each feature's
    /// bound; a feature not yet searched has the root's own bound), so it holds while the root
    /// is being searched, on any thread.
    fn settle(
        &self,
        (rank, unit): (usize, u64),
        lb: f64,
        handed_out: impl Iterator<Item = (u64, f64)>,
        search: &Search,
    ) {
        let mut best = self.share.best();
        let Some(feature) = best.extra.features.get_mut(rank) else {
            return;
        };
        feature.open.retain(|&(id, _)| id != unit);
        feature.open.extend(handed_out);
        feature.done = feature.done.min(lb);
        let now = feature
            .open
            .iter()
            .fold(feature.done, |least, &(_, open)| least.min(open));
        feature.bound = feature.bound.max(now);
        let features = best
            .extra
            .features
            .iter()
            .fold(f64::INFINITY, |a, b| a.min(b.bound));
        let found = best.solution.map_or(f64::INFINITY, |b| b.cost);
        let bound = self
            .leaf_cost
            .min(found)
            .min(features.max(self.share.floor()));
        if bound > best.extra.bound + search.cost.tol {
            best.extra.bound = bound;
            let incumbent = found.min(self.incumbent);
            let point = DpProgress {
                seconds: search.deadline.seconds(),
                incumbent,
                bound: self.prior.max(bound),
            };
            best.extra.trajectory.push(point);
            search.deadline.progress.publish(incumbent, point.bound);
        }
    }
}

/// Solves the root `view` of `main` at `depth >= 3` and `budget` below `ub` with `threads`
/// threads (`main` and `threads - 1` searches sharing its cache), as [`Search::solve`] would.
pub(crate) fn solve_root(
    main: &mut Search,
    view: &View,
    depth: usize,
    budget: usize,
    ub: f64,
    threads: usize,
) -> Result<Outcome> {
    let (depth, budget) = main.normalize(view, depth, budget);
    if depth <= 2 || threads == 0 {
        return Ok(main.solve(view, depth, budget, ub));
    }
    main.stats.subproblems += 1;
    let tol = main.cost.tol;
    let sc = main.cost.split_cost;
    let (leaf_cost, _) = main.cost.leaf(main.arena.counts(view));
    let rows = main.arena.list(view, 0);
    let mut lb = 0.0;
    if main.switches.infeasibility {
        let key = main.key_depth(view, depth);
        if let Some(known) = main.cache.get(view.hash, key, budget, rows) {
            lb = known.lower_bound;
            if lb >= ub - tol {
                main.stats.bound_pruned += 1;
                return Ok(Outcome { lb, solution: None });
            }
        }
    }
    let mut best = RootBest {
        cost: ub,
        solution: None,
        key: None,
        extra: Extra {
            trajectory: Vec::new(),
            features: Vec::new(),
            bound: 0.0,
        },
    };
    if main.cost.improves(leaf_cost, ub) {
        best.cost = leaf_cost;
        best.solution = Some(Solution {
            cost: leaf_cost,
            split: None,
        });
    }
    let floor = lb.max(leaf_cost.min(sc));
    if best.solution.is_some_and(|b| b.cost <= floor + tol) || best.cost <= sc + tol {
        return Ok(match best.solution {
            Some(b) => Outcome {
                lb: b.cost,
                solution: best.solution,
            },
            None => Outcome {
                lb: floor,
                solution: None,
            },
        });
    }
    let mut order = Vec::new();
    main.feature_order(view, &mut order);
    // The pool numbers the features' units by rank.
    let pool = Pool::new(order.len());
    best.extra.features = (0..order.len() as u64)
        .map(|id| FeatureBound {
            done: f64::INFINITY,
            open: vec![(id, floor)],
            bound: floor,
        })
        .collect();
    best.extra.bound = floor;
    let shared = Shared {
        share: RootShare::new(best, &order, floor, tol),
        leaf_cost,
        incumbent: main.root_incumbent,
        prior: main.global_lb,
    };

    let threads = threads.max(1);
    let mut others: Vec<Search> = (1..threads)
        .map(|_| {
            Search::sharing(
                main.data,
                main.cost.clone(),
                main.switches,
                Arc::clone(&main.cache),
                main.deadline.fork(),
            )
        })
        .map(|mut other| {
            other.share_relaxation(main);
            other
        })
        .collect();
    let found = on_threads(main, &mut others, |search, is_main| {
        let root = if is_main {
            *view
        } else {
            search.arena.root(search.data)
        };
        work(search, &root, depth, budget, &shared, &pool)
    })?;
    for other in &others {
        main.deadline.join(&other.deadline);
        let stats: DpStats = other.stats.clone();
        main.stats.absorb(&stats);
    }
    let candidates_lb = found.into_iter().fold(f64::INFINITY, f64::min);
    let best = shared.share.into_best();
    main.trajectory.extend(best.extra.trajectory);
    let aborted = main.deadline.aborted();
    // After a stop, the root's bound is what its candidates proved.
    let lb = if aborted {
        lb.max(best.extra.bound)
    } else {
        lb
    };
    let outcome = finish(best.solution, lb, leaf_cost, candidates_lb, aborted);
    if !aborted {
        main.store(view, depth, budget, &outcome);
    }
    Ok(outcome)
}

/// Settles root `candidate` of the feature of rank `rank` (`index` in the view, `feature` in
/// the data): a candidate its own bound prunes is settled by that bound; any other is searched,
/// its best tree offered to `shared`. `None` when the search stopped.
fn settle(
    search: &mut Search,
    view: &View,
    (depth, distributions): (usize, &[(usize, usize)]),
    (rank, index, feature): (usize, usize, u32),
    candidate: &Candidate,
    shared: &Shared,
) -> Option<Report> {
    let key = (rank, candidate.position);
    let ub = shared.share.bound_for(key);
    if candidate.lb >= ub - search.cost.tol {
        let bounds = SplitBounds {
            left: candidate.left_lb,
            right: candidate.right_lb,
            total: candidate.lb,
        };
        return Some(Report {
            bounds,
            relaxed: candidate.relaxed,
            // The leaves cost at least the children's bounds: the weakest bounds of a leaf
            // minimum follow.
            leaves: [candidate.left_lb, candidate.right_lb],
        });
    }
    let value =
        search.evaluate_split(view, depth, (index, feature), candidate, distributions, ub)?;
    if let Some(found) = value.best {
        shared.offer(key, found, search);
    }
    Some(value.report)
}

/// One thread's share of the root (`view`, in `search`'s arena): units taken from the pool
/// until none is left, or the search stops. Each unit solves one position of its interval
/// (with bisection; without, each position of its feature in turn) and hands out the rest.
/// Returns the least lower bound of the candidates it settled.
fn work(
    search: &mut Search,
    view: &View,
    depth: usize,
    budget: usize,
    shared: &Shared,
    pool: &Pool,
) -> f64 {
    let view = *view;
    let sc = search.cost.split_cost;
    let bisect = search.bisects();
    let mut distributions = Vec::new();
    budget_distributions(depth, budget, &mut distributions);
    let per_child = distributions.len() == 1;
    let mut positions = SplitSearch::default();
    // The rank of the feature `positions` was last reset on.
    let mut loaded = None;
    let mut pieces = Vec::new();
    let mut candidates_lb = f64::INFINITY;
    while let Some(unit) = pool.take() {
        let taken = Taken::new(pool);
        if search.deadline.reached() {
            taken.stop();
            break;
        }
        let rank = unit.rank;
        let FeatureRank {
            index,
            position: gini_position,
            ..
        } = shared.share.order[rank];
        let unit_start = std::time::Instant::now();
        let unit_subproblems = search.stats.subproblems;
        let feature = search.arena.feature(&view, index);
        if unit.piece.is_none() || loaded != Some(rank) {
            let first = unit.piece.is_none() && rank < FIRST_AT_GINI;
            positions.reset(
                search.arena.list(&view, index),
                &search.data.labels,
                &search.cost,
                bisect,
                per_child,
                0,
                first.then_some(gini_position),
                [child_splits(depth, budget); 2],
            );
            loaded = Some(rank);
        }
        if let Some(piece) = &unit.piece {
            positions.load(piece);
        }
        // The least bound of the unit's solved positions.
        let mut unit_lb = f64::INFINITY;
        let mut settled;
        let mut stopped = false;
        loop {
            let feature_ub;
            (feature_ub, settled) = shared.share.bound_for_rank(rank);
            if settled {
                break;
            }
            let next = if bisect {
                positions.next_in_front(feature_ub, &search.cost)
            } else {
                positions.next(feature_ub, &search.cost)
            };
            let Some(candidate) = next else {
                break;
            };
            if search.deadline.reached() {
                stopped = true;
                break;
            }
            let Some(report) = settle(
                search,
                &view,
                (depth, &distributions),
                (rank, index, feature),
                &candidate,
                shared,
            ) else {
                stopped = true;
                break;
            };
            positions.report_with(&candidate, report, None);
            unit_lb = unit_lb.min(report.bounds.total);
            if bisect {
                break;
            }
        }
        if stopped {
            taken.stop();
            break;
        }
        candidates_lb = candidates_lb.min(unit_lb).min(positions.pruned_lb);
        search.stats.interval_pruned += positions.pruned;
        pieces.clear();
        if bisect && !settled {
            positions.take_pieces(sc, &mut pieces);
        }
        let handed_out: Vec<Unit> = pieces
            .iter()
            .map(|piece| Unit {
                rank,
                level: unit.level + 1,
                piece: Some(*piece),
                id: pool.new_id(),
                parent: Some(unit.id),
            })
            .collect();
        if !settled {
            let bounds = handed_out
                .iter()
                .zip(&pieces)
                .map(|(unit, piece)| (unit.id, piece.lb));
            shared.settle(
                (rank, unit.id),
                unit_lb.min(positions.pruned_lb),
                bounds,
                search,
            );
        }
        search.stats.root_work.units.push(RootUnit {
            rank,
            level: unit.level,
            first: unit.piece.map_or(0, |piece| piece.lo),
            id: unit.id,
            parent: unit.parent,
            seconds: unit_start.elapsed().as_secs_f64(),
            subproblems: search.stats.subproblems - unit_subproblems,
        });
        taken.finish(handed_out);
    }
    candidates_lb
}
