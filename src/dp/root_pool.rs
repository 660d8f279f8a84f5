//! The root's units of work and the pool the threads take them from.
//!
//! A unit is one root feature's search, or a part of it ([`Piece`]): the interval of positions
//! left on either side of a solved or pruned one, with the solved positions around it. A unit
//! solves its interval's next position and hands the halves around it back to the pool as new
//! units, so a feature whose positions are costly is shared out between the threads below the
//! root, and no unit holds more than one position's subtrees.
//!
//! Units are taken in a fixed order: the feature's rank, then the depth of the interval in the
//! feature's bisection, then its first position. On one thread this is the order of the serial
//! search (each feature's intervals breadth first, as [`crate::dp::SplitSearch`] queues them);
//! on several, an idle thread takes the earliest unit ready. Which thread solves what never
//! changes the tree returned (see [`super::root`]).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};

use crate::dp::intervals::Piece;

/// A unit of the root's work.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Unit {
    /// The feature's rank (its place in the order features are dealt out).
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

#[derive(Default)]
struct State {
    ready: BinaryHeap<Reverse<Queued>>,
    /// Units taken and not yet finished: they may hand out more.
    running: usize,
    stopped: bool,
}

/// The units ready to be taken, and how many are being searched.
pub(crate) struct Pool {
    state: Mutex<State>,
    changed: Condvar,
    ids: AtomicU64,
}

impl Pool {
    /// A pool holding one unit per feature, of ranks `0..features`.
    pub fn new(features: usize) -> Pool {
        let pool = Pool {
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
            ids: AtomicU64::new(0),
        };
        let units: Vec<Unit> = (0..features)
            .map(|rank| Unit {
                rank,
                level: 0,
                piece: None,
                id: pool.new_id(),
                parent: None,
            })
            .collect();
        pool.lock()
            .ready
            .extend(units.into_iter().map(|u| Reverse(Queued(u))));
        pool
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A number for a new unit.
    pub fn new_id(&self) -> u64 {
        self.ids.fetch_add(1, Ordering::Relaxed)
    }

    /// The earliest unit ready, waiting while none is but some being searched may hand out
    /// more; `None` when all are done or the pool is stopped. The caller must
    /// [`Pool::finish`] it.
    pub fn take(&self) -> Option<Unit> {
        let mut state = self.lock();
        loop {
            if state.stopped {
                return None;
            }
            if let Some(Reverse(Queued(unit))) = state.ready.pop() {
                state.running += 1;
                return Some(unit);
            }
            if state.running == 0 {
                return None;
            }
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    /// Ends a unit taken, with the units it hands out.
    pub fn finish(&self, handed_out: impl IntoIterator<Item = Unit>) {
        let mut state = self.lock();
        state.running -= 1;
        state
            .ready
            .extend(handed_out.into_iter().map(|u| Reverse(Queued(u))));
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
pub(crate) struct Taken<'a> {
    pool: Option<&'a Pool>,
}

impl<'a> Taken<'a> {
    /// The unit just taken from `pool`.
    pub fn new(pool: &'a Pool) -> Taken<'a> {
        Taken { pool: Some(pool) }
    }

    /// Ends the unit with the units it hands out.
    pub fn finish(mut self, handed_out: impl IntoIterator<Item = Unit>) {
        if let Some(pool) = self.pool.take() {
            pool.finish(handed_out);
        }
    }

    /// Ends the unit and stops the pool (the search stopped).
    pub fn stop(mut self) {
        if let Some(pool) = self.pool.take() {
            pool.finish([]);
            pool.stop();
        }
    }
}

impl Drop for Taken<'_> {
    fn drop(&mut self) {
        if let Some(pool) = self.pool.take() {
            pool.finish([]);
            pool.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handed_out(pool: &Pool, from: &Unit, count: usize) -> Vec<Unit> {
        (0..count)
            .map(|_| Unit {
                level: from.level + 1,
                parent: Some(from.id),
                id: pool.new_id(),
                ..*from
            })
            .collect()
    }

    #[test]
    fn units_are_taken_by_rank_then_level_and_handed_out_ones_before_later_features() {
        let pool = Pool::new(3);
        let first = pool.take().expect("a unit");
        let second = pool.take().expect("a unit");
        assert_eq!((first.rank, first.id, second.rank), (0, 0, 1));
        pool.finish(handed_out(&pool, &first, 2));
        // The halves of feature 0 come before feature 2's first unit.
        let next = pool.take().expect("a unit");
        assert_eq!((next.rank, next.level, next.parent), (0, 1, Some(0)));
        pool.finish([]);
        pool.finish([]);
        let ranks: Vec<usize> = std::iter::from_fn(|| {
            let unit = pool.take()?;
            pool.finish([]);
            Some(unit.rank)
        })
        .collect();
        assert_eq!(ranks, [0, 2]);
        assert!(pool.take().is_none());
    }

    #[test]
    fn a_thread_waits_for_the_units_a_running_one_hands_out() {
        let pool = Pool::new(1);
        let first = pool.take().expect("a unit");
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| pool.take().map(|unit| unit.parent));
            std::thread::sleep(std::time::Duration::from_millis(50));
            pool.finish(handed_out(&pool, &first, 1));
            assert_eq!(waiting.join().expect("joins"), Some(Some(0)));
        });
        pool.finish([]);
        assert!(pool.take().is_none());
        let stopped = Pool::new(2);
        stopped.stop();
        assert!(stopped.take().is_none());
    }

    #[test]
    fn a_unit_dropped_unfinished_stops_the_pool_and_frees_the_waiting_threads() {
        let pool = Pool::new(2);
        let _first = pool.take().expect("a unit");
        let taken = Taken::new(&pool);
        let _second = pool.take().expect("a unit");
        Taken::new(&pool).finish([]);
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
