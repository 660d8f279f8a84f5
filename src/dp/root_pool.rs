//! The units of work of the root's search and the pool the threads take them from.
//!
//! A unit is one root feature's search, or a part of it ([`Piece`]): the interval of positions
//! left on either side of a solved or pruned one, with the solved positions around it. A unit
//! solves its interval's next position and hands the halves around it back to the pool as new
//! units, so a feature whose positions are costly is shared out between the threads below the
//! root.
//!
//! Below the root, a unit solving a root position may open a *job*: the search of one child of
//! that split, shared out in units of the same kind (the child's features, then intervals of
//! their positions). The unit's thread works on its job's units and waits for those others
//! took; idle threads take a job's units before any unit of the root, the earliest job first,
//! so the threads that wait for a job wait as little as possible.
//!
//! Units are taken in a fixed order: the job, then the feature's rank, then the depth of the
//! interval in the feature's bisection, then its first position. On one thread this is the
//! order of the serial search (each feature's intervals breadth first, as
//! [`crate::dp::SplitSearch`] queues them); on several, an idle thread takes the earliest unit
//! ready. Which thread solves what never changes the tree returned (see [`super::root`]).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use crate::dp::intervals::Piece;

/// A unit of the root's work.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Unit {
    /// The job it belongs to (`None`: the root's own).
    pub job: Option<u64>,
    /// The feature's rank (its place in the order its subproblem deals features out).
    pub rank: usize,
    /// The depth of its interval in the feature's bisection (0: the whole feature).
    pub level: usize,
    /// Its interval of the feature's positions (`None`: the whole feature).
    pub piece: Option<Piece>,
    /// Its number, and the number of the unit that handed it out.
    pub id: u64,
    pub parent: Option<u64>,
}

impl Unit {
    /// Its place in the order units are taken.
    fn key(&self) -> (usize, usize, usize, u64) {
        let first = self.piece.map_or(0, |piece| piece.lo);
        (self.rank, self.level, first, self.id)
    }
}

/// A unit ordered by [`Unit::key`].
struct Queued(Unit);

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.0.key() == other.0.key()
    }
}

impl Eq for Queued {}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.key().cmp(&other.0.key())
    }
}

type Ready = BinaryHeap<Reverse<Queued>>;

/// An open job: what its units search (`J`), its units ready and how many are being searched.
struct Job<J> {
    id: u64,
    what: Arc<J>,
    ready: Ready,
    running: usize,
}

struct State<J> {
    ready: Ready,
    /// Open jobs, earliest first.
    jobs: Vec<Job<J>>,
    /// Units taken and not yet finished (of the root and of the jobs): they may hand out more.
    running: usize,
    stopped: bool,
}

impl<J> State<J> {
    /// The earliest unit ready, a job's before the root's, counted as running.
    fn pop(&mut self) -> Option<(Unit, Option<Arc<J>>)> {
        for job in &mut self.jobs {
            if let Some(Reverse(Queued(unit))) = job.ready.pop() {
                job.running += 1;
                self.running += 1;
                return Some((unit, Some(Arc::clone(&job.what))));
            }
        }
        let Reverse(Queued(unit)) = self.ready.pop()?;
        self.running += 1;
        Some((unit, None))
    }
}

/// The units ready to be taken, and how many are being searched; `J` is what a job searches.
pub(crate) struct Pool<J> {
    state: Mutex<State<J>>,
    changed: Condvar,
    ids: AtomicU64,
}

impl<J> Pool<J> {
    /// A pool holding one root unit per feature, of ranks `0..features`.
    pub fn new(features: usize) -> Pool<J> {
        let pool = Pool {
            state: Mutex::new(State {
                ready: Ready::new(),
                jobs: Vec::new(),
                running: 0,
                stopped: false,
            }),
            changed: Condvar::new(),
            ids: AtomicU64::new(0),
        };
        let units = pool.firsts(None, features, None);
        pool.lock()
            .ready
            .extend(units.into_iter().map(|u| Reverse(Queued(u))));
        pool
    }

    /// The first units of `features` features of `job`, handed out by the unit `parent`.
    fn firsts(&self, job: Option<u64>, features: usize, parent: Option<u64>) -> Vec<Unit> {
        (0..features)
            .map(|rank| Unit {
                job,
                rank,
                level: 0,
                piece: None,
                id: self.new_id(),
                parent,
            })
            .collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State<J>> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn wait<'g>(
        &self,
        state: std::sync::MutexGuard<'g, State<J>>,
    ) -> std::sync::MutexGuard<'g, State<J>> {
        self.changed
            .wait(state)
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A number for a new unit or job.
    pub fn new_id(&self) -> u64 {
        self.ids.fetch_add(1, Ordering::Relaxed)
    }

    /// Opens a job searching `what` with one first unit per feature (`features` of them), the
    /// units handed out by the unit numbered `parent`; returns its number.
    pub fn open(&self, what: Arc<J>, features: usize, parent: u64) -> u64 {
        let id = self.new_id();
        let units = self.firsts(Some(id), features, Some(parent));
        let job = Job {
            id,
            what,
            ready: units.into_iter().map(|u| Reverse(Queued(u))).collect(),
            running: 0,
        };
        self.lock().jobs.push(job);
        self.changed.notify_all();
        id
    }

    /// The earliest unit ready (a job's before the root's), with what its job searches, waiting
    /// while none is but some being searched may hand out more; `None` when all are done or
    /// the pool is stopped. The caller must [`Pool::finish`] it.
    pub fn take(&self) -> Option<(Unit, Option<Arc<J>>)> {
        let mut state = self.lock();
        loop {
            if state.stopped {
                return None;
            }
            if let Some(taken) = state.pop() {
                return Some(taken);
            }
            if state.running == 0 {
                return None;
            }
            state = self.wait(state);
        }
    }

    /// The earliest unit ready of job `job`, waiting while none is but some of its units are
    /// being searched; `None` when the job is done (it is then closed) or the pool stopped.
    /// The caller must [`Pool::finish`] it.
    pub fn take_in(&self, job: u64) -> Option<Unit> {
        let mut state = self.lock();
        loop {
            if state.stopped {
                return None;
            }
            let at = state.jobs.iter().position(|open| open.id == job)?;
            let state_ref = &mut *state;
            let open = &mut state_ref.jobs[at];
            if let Some(Reverse(Queued(unit))) = open.ready.pop() {
                open.running += 1;
                state_ref.running += 1;
                return Some(unit);
            }
            if open.running == 0 {
                state_ref.jobs.remove(at);
                return None;
            }
            state = self.wait(state);
        }
    }

    /// Whether the pool was stopped.
    pub fn stopped(&self) -> bool {
        self.lock().stopped
    }

    /// Ends a unit taken of job `job` (`None`: the root's), with the units it hands out (of
    /// the same job).
    pub fn finish(&self, job: Option<u64>, handed_out: impl IntoIterator<Item = Unit>) {
        let mut state = self.lock();
        state.running -= 1;
        let units = handed_out.into_iter().map(|u| Reverse(Queued(u)));
        match job {
            None => state.ready.extend(units),
            Some(job) => {
                if let Some(open) = state.jobs.iter_mut().find(|open| open.id == job) {
                    open.running -= 1;
                    open.ready.extend(units);
                }
            }
        }
        drop(state);
        self.changed.notify_all();
    }

    /// Stops handing out units (the search stopped).
    pub fn stop(&self) {
        self.lock().stopped = true;
        self.changed.notify_all();
    }
}

/// A unit taken from a pool, to be ended exactly once: [`Taken::finish`] hands out its units,
/// [`Taken::stop`] stops the pool. Dropped otherwise (a panic unwinding through the search),
/// it stops the pool, so no thread waits for units it would never hand out.
pub(crate) struct Taken<'a, J> {
    pool: Option<&'a Pool<J>>,
    job: Option<u64>,
}

impl<'a, J> Taken<'a, J> {
    /// The unit of `job` just taken from `pool`.
    pub fn new(pool: &'a Pool<J>, job: Option<u64>) -> Taken<'a, J> {
        Taken {
            pool: Some(pool),
            job,
        }
    }

    /// Ends the unit with the units it hands out.
    pub fn finish(mut self, handed_out: impl IntoIterator<Item = Unit>) {
        if let Some(pool) = self.pool.take() {
            pool.finish(self.job, handed_out);
        }
    }

    /// Ends the unit and stops the pool (the search stopped).
    pub fn stop(mut self) {
        if let Some(pool) = self.pool.take() {
            pool.finish(self.job, []);
            pool.stop();
        }
    }
}

impl<J> Drop for Taken<'_, J> {
    fn drop(&mut self) {
        if let Some(pool) = self.pool.take() {
            pool.finish(self.job, []);
            pool.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type TestPool = Pool<&'static str>;

    fn handed_out(pool: &TestPool, from: &Unit, count: usize) -> Vec<Unit> {
        (0..count)
            .map(|_| Unit {
                level: from.level + 1,
                parent: Some(from.id),
                id: pool.new_id(),
                ..*from
            })
            .collect()
    }

    fn take(pool: &TestPool) -> Option<Unit> {
        pool.take().map(|(unit, _)| unit)
    }

    #[test]
    fn units_are_taken_by_rank_then_level_and_handed_out_ones_before_later_features() {
        let pool = TestPool::new(3);
        let first = take(&pool).expect("a unit");
        let second = take(&pool).expect("a unit");
        assert_eq!((first.rank, first.id, second.rank), (0, 0, 1));
        pool.finish(None, handed_out(&pool, &first, 2));
        // The halves of feature 0 come before feature 2's first unit.
        let next = take(&pool).expect("a unit");
        assert_eq!((next.rank, next.level, next.parent), (0, 1, Some(0)));
        pool.finish(None, []);
        pool.finish(None, []);
        let ranks: Vec<usize> = std::iter::from_fn(|| {
            let unit = take(&pool)?;
            pool.finish(None, []);
            Some(unit.rank)
        })
        .collect();
        assert_eq!(ranks, [0, 2]);
        assert!(pool.take().is_none());
    }

    #[test]
    fn a_jobs_units_come_before_the_roots_and_its_owner_takes_only_them() {
        let pool = TestPool::new(2);
        let owner = take(&pool).expect("a unit");
        let job = pool.open(Arc::new("left child"), 2, owner.id);
        // An idle thread takes the job's first unit before the root's second feature.
        let (unit, what) = pool.take().expect("a unit");
        assert_eq!(
            (unit.job, unit.rank, unit.parent),
            (Some(job), 0, Some(owner.id))
        );
        assert_eq!(what.as_deref(), Some(&"left child"));
        let mine = pool.take_in(job).expect("the job's second unit");
        assert_eq!((mine.job, mine.rank), (Some(job), 1));
        pool.finish(Some(job), []);
        std::thread::scope(|scope| {
            // The owner waits for the unit the idle thread holds, which hands out one more.
            let waiting = scope.spawn(|| {
                let more = pool.take_in(job).map(|unit| unit.level);
                pool.finish(Some(job), []);
                (more, pool.take_in(job).is_none())
            });
            std::thread::sleep(std::time::Duration::from_millis(50));
            pool.finish(Some(job), handed_out(&pool, &unit, 1));
            assert_eq!(waiting.join().expect("joins"), (Some(1), true));
        });
        // The job is closed: the root's second feature is next.
        pool.finish(None, []);
        assert_eq!(
            take(&pool).map(|unit| (unit.job, unit.rank)),
            Some((None, 1))
        );
        pool.finish(None, []);
        assert!(pool.take().is_none());
    }

    #[test]
    fn a_thread_waits_for_the_units_a_running_one_hands_out() {
        let pool = TestPool::new(1);
        let first = take(&pool).expect("a unit");
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| take(&pool).map(|unit| unit.parent));
            std::thread::sleep(std::time::Duration::from_millis(50));
            pool.finish(None, handed_out(&pool, &first, 1));
            assert_eq!(waiting.join().expect("joins"), Some(Some(0)));
        });
        pool.finish(None, []);
        assert!(pool.take().is_none());
        let stopped = TestPool::new(2);
        stopped.stop();
        assert!(stopped.take().is_none());
    }

    #[test]
    fn a_unit_dropped_unfinished_stops_the_pool_and_frees_the_waiting_threads() {
        let pool = TestPool::new(2);
        let _first = take(&pool).expect("a unit");
        let taken = Taken::new(&pool, None);
        let _second = take(&pool).expect("a unit");
        Taken::new(&pool, None).finish([]);
        std::thread::scope(|scope| {
            // The first unit is running: the other thread waits for what it hands out, which
            // it never does.
            let waiting = scope.spawn(|| pool.take().is_none());
            std::thread::sleep(std::time::Duration::from_millis(50));
            drop(taken);
            assert!(waiting.join().expect("joins"));
        });
    }
}
