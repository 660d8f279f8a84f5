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
//! Below the root, a root position's children of depth three or more (a search of depth four or
//! more, without a leaf minimum or cap) are each searched as a *job*: the same dealing out of
//! the child's features and their positions, in units any thread may take, the child's best so
//! far shared as the root's is. The unit that solves the root position opens the job, works on
//! its units and waits for the rest, then goes on with the second child (below the bound the
//! first one leaves) and the position's report. A thread that takes a job's unit rebuilds the
//! child's rows in its own arena by the root split. So no unit holds more than one position of
//! a child: at depth four, two depth-two searches.
//!
//! The split returned does not depend on which thread finished first: of the root's cheapest
//! subtrees, the one whose split comes first in the fixed order (the feature's Gini rank, then
//! the position) wins. So a candidate that comes before the best so far is searched with room
//! for a tie (its bound is the best's cost plus the tolerance), one after it must be strictly
//! cheaper, and ties between the budget shares of one split go to the first share, as in the
//! serial search. A job answers its child's optimum below its bound, or a bound at or above it,
//! as the serial search would: only which of equally good subtrees it stores in the cache
//! depends on the threads. Below the root, the subtrees of the winner are rebuilt by the caller
//! in a fresh single-threaded search ([`super::solve`]), which does not depend on the threads
//! either. One thread runs the same code, so any number of threads returns the same tree.

use std::sync::{Arc, Mutex};
use std::time::Instant;

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

/// A subproblem whose candidate splits the threads share out: the root, or a child of a root
/// split (a job). They share its best so far ([`RootShare`]) and what its bounds are made of.
struct Shared {
    share: RootShare<'static, Solution, FeatureRank, Extra>,
    /// Its features in the order their units are dealt out.
    order: Vec<FeatureRank>,
    depth: usize,
    budget: usize,
    /// The ways to share its budget between a split's children.
    distributions: Vec<(usize, usize)>,
    /// The leaf's cost: the candidate that is not a split.
    leaf_cost: f64,
    /// The search's incumbent and lower bound when the root's search began (the other threads'
    /// searches know neither).
    incumbent: f64,
    prior: f64,
    /// For a job, the root split whose child it searches: the feature's index in the root's
    /// view, the position, and whether it is the left child. `None`: the root, which alone
    /// publishes progress and bounds.
    place: Option<(usize, usize, bool)>,
    /// The least lower bound of the candidates settled, by any thread.
    candidates_lb: Mutex<f64>,
}

impl Shared {
    /// Opens `view` (at `depth`, with `budget`, below `ub`, its optimum at least `lb`) to be
    /// shared out: its leaf as the best so far when it beats `ub`, its features in their
    /// order. `Err` holds the answer when the leaf or the bounds settle it at once.
    fn open(
        search: &mut Search,
        view: &View,
        (depth, budget): (usize, usize),
        (lb, ub): (f64, f64),
        place: Option<(usize, usize, bool)>,
    ) -> std::result::Result<Shared, Outcome> {
        let tol = search.cost.tol;
        let sc = search.cost.split_cost;
        let (leaf_cost, _) = search.cost.leaf(search.arena.counts(view));
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
        if search.cost.improves(leaf_cost, ub) {
            best.cost = leaf_cost;
            best.solution = Some(Solution {
                cost: leaf_cost,
                split: None,
            });
        }
        let floor = lb.max(leaf_cost.min(sc));
        if best.solution.is_some_and(|b| b.cost <= floor + tol) || best.cost <= sc + tol {
            return Err(match best.solution {
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
        search.feature_order(view, &mut order);
        // The pool numbers the root's first units by rank.
        best.extra.features = (0..order.len() as u64)
            .map(|id| FeatureBound {
                done: f64::INFINITY,
                open: vec![(id, floor)],
                bound: floor,
            })
            .collect();
        best.extra.bound = floor;
        let mut distributions = Vec::new();
        budget_distributions(depth, budget, &mut distributions);
        Ok(Shared {
            share: RootShare::new(best, &[], floor, tol),
            order,
            depth,
            budget,
            distributions,
            leaf_cost,
            incumbent: search.root_incumbent,
            prior: search.global_lb,
            place,
            candidates_lb: Mutex::new(f64::INFINITY),
        })
    }

    /// Offers a subtree found under the split at `key` ([`RootShare::offer`]); at the root, a
    /// cheaper one is a new point of the trajectory.
    fn offer(&self, key: RootKey, found: Solution, search: &Search) {
        if self.place.is_some() {
            self.share.offer(key, found.cost, found, |cost, best| {
                search.cost.improves(cost, best)
            });
            return;
        }
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

    /// The upper bound of the candidate at `key` ([`RootShare::bound_for`]). A job's is the
    /// best's cost: which of equally good subtrees it finds does not matter (see the module's
    /// documentation), so it searches no ties.
    fn bound_for(&self, key: RootKey) -> f64 {
        match self.place {
            None => self.share.bound_for(key),
            Some(_) => self.share.best().cost,
        }
    }

    /// The upper bound of the positions of the feature at `rank`, and whether no candidate of
    /// it can win any more ([`RootShare::bound_for_rank`]; for a job, as [`Shared::bound_for`]).
    fn bound_for_rank(&self, rank: usize, tol: f64) -> (f64, bool) {
        if self.place.is_none() {
            return self.share.bound_for_rank(rank);
        }
        let best = self.share.best();
        let settled = best.solution.is_some() && best.cost <= self.share.floor() + tol;
        (best.cost, settled)
    }

    /// Lowers the least bound of the candidates settled to `lb`.
    fn settled(&self, lb: f64) {
        let mut least = self
            .candidates_lb
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *least = least.min(lb);
    }

    /// What the threads established: the best found (if any) and the least bound of the
    /// candidates settled.
    fn result(&self) -> (Option<Solution>, f64) {
        let least = *self
            .candidates_lb
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        (self.share.best().solution, least)
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
    let shared = match Shared::open(main, view, (depth, budget), (lb, ub), None) {
        Ok(shared) => shared,
        Err(outcome) => return Ok(outcome),
    };
    let pool = Pool::new(shared.order.len());

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
    on_threads(main, &mut others, |search, is_main| {
        let root = if is_main {
            *view
        } else {
            search.arena.root(search.data)
        };
        work(search, &root, &shared, &pool);
    })?;
    for other in &others {
        main.deadline.join(&other.deadline);
        let stats: DpStats = other.stats.clone();
        main.stats.absorb(&stats);
    }
    let (_, candidates_lb) = shared.result();
    let leaf_cost = shared.leaf_cost;
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

/// A segment of a root unit's work ([`crate::dp::RootWork`]): where and when it began.
#[derive(Debug, Clone, Copy)]
struct Segment {
    start: Instant,
    subproblems: u64,
    /// The unit's rank, level and first position.
    unit: (usize, usize, usize),
    parent: Option<u64>,
    waits_for: Option<u64>,
}

impl Segment {
    /// The first segment of `unit`, beginning now.
    fn first(search: &Search, unit: &Unit) -> Segment {
        Segment {
            start: Instant::now(),
            subproblems: search.stats.subproblems,
            unit: (
                unit.rank,
                unit.level,
                unit.piece.map_or(0, |piece| piece.lo),
            ),
            parent: unit.parent,
            waits_for: None,
        }
    }

    /// The segment beginning now, after this one (recorded as `id`) and the job `job`.
    fn after(&self, search: &Search, id: u64, job: u64) -> Segment {
        Segment {
            start: Instant::now(),
            subproblems: search.stats.subproblems,
            unit: self.unit,
            parent: Some(id),
            waits_for: Some(job),
        }
    }

    /// Records the segment as the unit numbered `id` in `search`'s statistics.
    fn record(&self, search: &mut Search, id: u64) {
        let (rank, level, first) = self.unit;
        search.stats.root_work.units.push(RootUnit {
            rank,
            level,
            first,
            id,
            parent: self.parent,
            job: None,
            waits_for: self.waits_for,
            seconds: self.start.elapsed().as_secs_f64(),
            subproblems: search.stats.subproblems - self.subproblems,
        });
    }
}

/// What one thread keeps between units: per kind of unit (the root's, a job's) a split search
/// and the feature it was last reset on, the root split whose child its arena holds at level
/// one, and the current segment of the root unit it works on.
struct Local {
    positions: [SplitSearch; 2],
    loaded: [Option<(Option<u64>, usize)>; 2],
    child: Option<((usize, usize, bool), View)>,
    segment: Option<Segment>,
}

impl Local {
    /// The child of the root split at `place` (see [`Shared::place`]), rebuilt in `search`'s
    /// arena from `root` unless it holds it already.
    fn child(&mut self, search: &mut Search, root: &View, place: (usize, usize, bool)) -> View {
        if let Some((held, view)) = self.child {
            if held == place {
                return view;
            }
        }
        let (index, position, left) = place;
        let (l, r) = search.arena.split(root, index, position);
        let view = if left { l } else { r };
        self.child = Some((place, view));
        view
    }
}

/// Settles `candidate` of the feature of rank `rank` of `shared` (`index` in its `view`,
/// `feature` in the data): a candidate its own bound prunes is settled by that bound; any other
/// is searched, its best tree offered to `shared`; at the root, children of depth three or
/// more are searched as jobs ([`solve_job`]). `None` when the search stopped.
fn settle(
    (search, local): (&mut Search, &mut Local),
    (view, root): (&View, &View),
    shared: &Shared,
    (rank, index, feature): (usize, usize, u32),
    candidate: &Candidate,
    pool: &Pool<Shared>,
) -> Option<Report> {
    let key = (rank, candidate.position);
    let ub = shared.bound_for(key);
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
    let split = (index, feature);
    let (depth, distributions) = (shared.depth, &shared.distributions);
    let value = if shared.place.is_none() {
        search.evaluate_split_by(
            view,
            depth,
            split,
            candidate,
            distributions,
            ub,
            &mut |search, child, (depth, budget), ub, side| {
                let place = (index, candidate.position, side == 0);
                solve_job(
                    (search, local),
                    (child, root),
                    place,
                    (depth, budget),
                    ub,
                    pool,
                )
            },
        )?
    } else {
        search.evaluate_split(view, depth, split, candidate, distributions, ub)?
    };
    if let Some(found) = value.best {
        shared.offer(key, found, search);
    }
    Some(value.report)
}

/// Solves `child` (at `depth` with `budget`, below `ub`), the child at `place` of a root split,
/// as [`Search::solve_relaxing`] would: one of depth three or more, without a leaf minimum or
/// cap, as a job shared out in units ([`super::root_pool`]), of which this thread takes its
/// share while others take theirs; any other child in this thread alone.
fn solve_job(
    (search, local): (&mut Search, &mut Local),
    (child, root): (&View, &View),
    place: (usize, usize, bool),
    (depth, budget): (usize, usize),
    ub: f64,
    pool: &Pool<Shared>,
) -> (Outcome, f64) {
    let (depth, budget) = search.normalize(child, depth, budget);
    if depth < 3 || search.relaxes() {
        return search.solve_relaxing(child, depth, budget, ub);
    }
    search.stats.subproblems += 1;
    let tol = search.cost.tol;
    let key = search.key_depth(child, depth);
    let mut lb = 0.0;
    let rows = search.arena.list(child, 0);
    if let Some(known) = search.cache.get(child.hash, key, budget, rows) {
        if let Some(solution) = known.solution {
            search.stats.cache_hits += 1;
            let outcome = Outcome {
                lb: solution.cost,
                solution: search.cost.improves(solution.cost, ub).then_some(solution),
            };
            return (outcome, outcome.lb);
        }
        if search.switches.infeasibility {
            lb = known.lower_bound;
            if lb >= ub - tol {
                search.stats.bound_pruned += 1;
                return (Outcome { lb, solution: None }, lb);
            }
        }
    }
    if search.similar_bounds() {
        let similar = search.similarity.bound(&search.arena, child, key, budget);
        if similar > lb {
            lb = similar;
            if lb >= ub - tol {
                search.stats.similarity_pruned += 1;
                return (Outcome { lb, solution: None }, lb);
            }
        }
    }
    let shared = match Shared::open(search, child, (depth, budget), (lb, ub), Some(place)) {
        Ok(shared) => Arc::new(shared),
        Err(outcome) => return (outcome, outcome.lb),
    };
    // The root unit's segment so far ends where the job begins.
    let segment = local
        .segment
        .expect("a job is opened by a root unit, which keeps a segment");
    let segment_id = pool.new_id();
    segment.record(search, segment_id);
    let features = shared.order.len();
    let job = pool.open(Arc::clone(&shared), features, segment_id);
    local.child = Some((place, *child));
    // The time spent waiting for the job's units on other threads: the job's time less its
    // units' (the unit records of this thread since the job opened).
    let (opened, recorded) = (Instant::now(), search.stats.root_work.units.len());
    while let Some(unit) = pool.take_in(job) {
        if run_unit((search, local), (child, root), &shared, unit, pool) {
            break;
        }
    }
    let work = &mut search.stats.root_work;
    let own: f64 = work.units[recorded..].iter().map(|unit| unit.seconds).sum();
    work.job_wait_seconds += (opened.elapsed().as_secs_f64() - own).max(0.0);
    local.segment = Some(segment.after(search, segment_id, job));
    if pool.stopped() {
        // Another thread stopped the search: this one stops too.
        search.deadline.reached();
        return (Outcome { lb, solution: None }, lb);
    }
    let (best, candidates_lb) = shared.result();
    let outcome = finish(best, lb, shared.leaf_cost, candidates_lb, false);
    search.store(child, depth, budget, &outcome);
    if search.similar_bounds() {
        let value = outcome.solution.map_or(outcome.lb, |s| s.cost);
        search
            .similarity
            .remember(&search.arena, child, key, budget, value);
    }
    (outcome, outcome.lb)
}

/// One thread's share of the root (`root`, in `search`'s arena): units taken from the pool
/// until none is left, or the search stops.
fn work(search: &mut Search, root: &View, shared: &Shared, pool: &Pool<Shared>) {
    let mut local = Local {
        positions: Default::default(),
        loaded: [None; 2],
        child: None,
        segment: None,
    };
    while let Some((unit, job)) = pool.take() {
        let stopped = match job {
            None => run_unit((search, &mut local), (root, root), shared, unit, pool),
            Some(job) => {
                let place = job.place.expect("a job searches a child of a root split");
                let child = local.child(search, root, place);
                run_unit((search, &mut local), (&child, root), &job, unit, pool)
            }
        };
        if stopped {
            break;
        }
    }
}

/// Searches `unit` of `shared` (whose rows are `view` in `search`'s arena; the root's are
/// `root`): it solves one position of its interval (with bisection; without, each position of
/// its feature in turn) and hands out the rest. Returns whether the search stopped.
fn run_unit(
    (search, local): (&mut Search, &mut Local),
    (view, root): (&View, &View),
    shared: &Shared,
    unit: Unit,
    pool: &Pool<Shared>,
) -> bool {
    let taken = Taken::new(pool, unit.job);
    if search.deadline.reached() {
        taken.stop();
        return true;
    }
    let view = *view;
    let (depth, budget) = (shared.depth, shared.budget);
    let bisect = search.bisects();
    let is_root = unit.job.is_none();
    let slot = usize::from(!is_root);
    if is_root {
        // A root unit splits the root's rows anew: the child the arena held is gone.
        local.child = None;
        local.segment = Some(Segment::first(search, &unit));
    }
    let rank = unit.rank;
    let FeatureRank {
        index,
        position: gini_position,
        ..
    } = shared.order[rank];
    let unit_start = Instant::now();
    let unit_subproblems = search.stats.subproblems;
    let feature = search.arena.feature(&view, index);
    // While the unit runs, its split search is out of `local`.
    let mut positions = std::mem::take(&mut local.positions[slot]);
    if unit.piece.is_none() || local.loaded[slot].take() != Some((unit.job, rank)) {
        let first = unit.piece.is_none() && rank < FIRST_AT_GINI;
        positions.reset(
            search.arena.list(&view, index),
            search.data.row_counts(),
            &search.cost,
            bisect,
            shared.distributions.len() == 1,
            0,
            first.then_some(gini_position),
            [child_splits(depth, budget); 2],
        );
    }
    if let Some(piece) = &unit.piece {
        positions.load(piece);
    }
    // The least bound of the unit's solved positions.
    let mut unit_lb = f64::INFINITY;
    let mut settled;
    loop {
        let feature_ub;
        (feature_ub, settled) = shared.bound_for_rank(rank, search.cost.tol);
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
        let report = if search.deadline.reached() {
            None
        } else {
            settle(
                (search, local),
                (&view, root),
                shared,
                (rank, index, feature),
                &candidate,
                pool,
            )
        };
        let Some(report) = report else {
            local.positions[slot] = positions;
            taken.stop();
            return true;
        };
        positions.report_with(&candidate, report, None);
        unit_lb = unit_lb.min(report.bounds.total);
        if bisect {
            break;
        }
    }
    let unit_lb = unit_lb.min(positions.pruned_lb);
    shared.settled(unit_lb);
    search.stats.interval_pruned += positions.pruned;
    let mut pieces = Vec::new();
    if bisect && !settled {
        positions.take_pieces(search.cost.split_cost, &mut pieces);
    }
    local.positions[slot] = positions;
    local.loaded[slot] = Some((unit.job, rank));
    let handed_out: Vec<Unit> = pieces
        .iter()
        .map(|piece| Unit {
            job: unit.job,
            rank,
            level: unit.level + 1,
            piece: Some(*piece),
            id: pool.new_id(),
            parent: Some(unit.id),
        })
        .collect();
    if is_root {
        if !settled {
            let bounds = handed_out
                .iter()
                .zip(&pieces)
                .map(|(unit, piece)| (unit.id, piece.lb));
            shared.settle((rank, unit.id), unit_lb, bounds, search);
        }
        let segment = local.segment.take().expect("a root unit keeps a segment");
        segment.record(search, unit.id);
    } else {
        search.stats.root_work.units.push(RootUnit {
            rank,
            level: unit.level,
            first: unit.piece.map_or(0, |piece| piece.lo),
            id: unit.id,
            parent: unit.parent,
            job: unit.job,
            waits_for: None,
            seconds: unit_start.elapsed().as_secs_f64(),
            subproblems: search.stats.subproblems - unit_subproblems,
        });
    }
    taken.finish(handed_out);
    false
}
