//! The row-set cache shared by the threads of one search: the core's [`RowSetCache`] split into
//! shards by key, each behind its own lock, so that threads looking up different subproblems
//! rarely wait on one another and no lock is global. A single-threaded search pays one
//! uncontended lock per lookup. The memory cap is shared out evenly between the shards.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};

use crate::search_core::binned::Element;
use crate::search_core::cache::{CachedValue, RowSetCache};

/// Shards of the cache: a power of two, enough that two to a few dozen threads seldom meet.
const SHARDS: usize = 64;

/// A [`RowSetCache`] that threads share, each entry in the shard of its hash.
#[derive(Debug)]
pub(crate) struct SharedCache<V> {
    shards: Box<[Mutex<RowSetCache<V>>]>,
    /// Lookups that found their shard locked by another thread (a measure of contention;
    /// counted only then, so the uncontended path touches no shared counter).
    waits: AtomicU64,
}

impl<V: CachedValue + Clone> SharedCache<V> {
    /// An empty cache for subsets of `n_rows` rows, holding at most about `cap_bytes`.
    pub fn new(n_rows: usize, cap_bytes: usize) -> SharedCache<V> {
        let per_shard = cap_bytes / SHARDS;
        SharedCache {
            shards: (0..SHARDS)
                .map(|_| Mutex::new(RowSetCache::new(n_rows, per_shard)))
                .collect(),
            waits: AtomicU64::new(0),
        }
    }

    fn shard(&self, hash: u64) -> MutexGuard<'_, RowSetCache<V>> {
        // The low bits pick the slot inside a shard's table; the high bits pick the shard.
        let index = (hash >> 58) as usize % SHARDS;
        // A thread that panicked while holding a shard left a valid cache (no entry is
        // half-written): keep using it.
        match self.shards[index].try_lock() {
            Ok(guard) => guard,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => {
                self.waits.fetch_add(1, Ordering::Relaxed);
                self.shards[index]
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
            }
        }
    }

    /// Lookups that waited for a shard another thread held.
    pub fn lock_waits(&self) -> u64 {
        self.waits.load(Ordering::Relaxed)
    }

    /// What is known about `rows` (with hash `hash`) at `depth` and `budget`.
    #[inline]
    pub fn get(&self, hash: u64, depth: usize, budget: usize, rows: &[Element]) -> Option<V> {
        self.shard(hash).get(hash, depth, budget, rows).cloned()
    }

    /// Records `value` for `rows` at `depth` and `budget` (see [`RowSetCache::put`]).
    #[inline]
    pub fn put(&self, hash: u64, depth: usize, budget: usize, rows: &[Element], value: V) {
        self.shard(hash).put(hash, depth, budget, rows, value);
    }

    /// Revises every value known in place.
    pub fn for_each_value(&self, mut revise: impl FnMut(&mut V)) {
        for index in 0..SHARDS {
            let mut shard = self.shards[index]
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            shard.values_mut().for_each(&mut revise);
        }
    }

    fn sum(&self, of: impl Fn(&RowSetCache<V>) -> usize) -> usize {
        self.shards
            .iter()
            .map(|shard| of(&shard.lock().unwrap_or_else(|p| p.into_inner())))
            .sum()
    }

    pub fn len(&self) -> usize {
        self.sum(RowSetCache::len)
    }

    /// Estimated bytes held.
    pub fn bytes(&self) -> usize {
        self.sum(RowSetCache::bytes)
    }

    /// Entries evicted to stay under the cap.
    pub fn evictions(&self) -> u64 {
        self.sum(|shard| shard.evictions as usize) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search_core::cache::tests::{rows, Bound};

    #[test]
    fn threads_share_entries_and_merge_them() {
        let cache = SharedCache::new(256, 1 << 20);
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let cache = &cache;
                scope.spawn(move || {
                    for id in 0..64u32 {
                        let hash = u64::from(id).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        cache.put(hash, 2, 3, &rows(&[id, id + 100]), Bound(t));
                    }
                });
            }
        });
        assert_eq!(cache.len(), 64);
        for id in 0..64u32 {
            let hash = u64::from(id).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            assert_eq!(
                cache.get(hash, 2, 3, &rows(&[id + 100, id])),
                Some(Bound(3))
            );
            assert_eq!(cache.get(hash, 2, 3, &rows(&[id])), None);
        }
        cache.for_each_value(|value| value.0 = 9);
        assert_eq!(cache.get(0, 2, 3, &rows(&[0, 100])), Some(Bound(9)));
    }
}
