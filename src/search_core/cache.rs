//! The subproblem cache every search shares: what a search knows about a row set at a depth and
//! split budget, under a memory cap. The search supplies the value it keeps ([`CachedValue`]):
//! the exact search an optimum or a lower bound, the Pareto search a front and the region
//! outside which it is exact. Its merge rule says how a later finding about the same
//! subproblem folds into what is known.
//!
//! Entries are keyed by the row set itself (a dataset cache), not by the path of splits that
//! led to it (a branch cache): two different paths that select the same rows share the entry,
//! e.g. the same two splits taken in either order, or splits on two features that agree on the
//! rows at hand. The key is the view's order-independent hash; the entry keeps the rows as a
//! bitset, so a hash collision is detected and treated as a miss. Past the memory cap, the
//! least recently used entries are evicted; no search depends on an entry staying.

use rustc_hash::FxHashMap;

use crate::search_core::binned::Element;

/// A value kept per subproblem, with its merge rule and its size.
pub(crate) trait CachedValue {
    /// Bytes the value holds outside itself (a front's points); by default none.
    fn heap_bytes(&self) -> usize {
        0
    }

    /// Folds `newer`, found later about the same subproblem, into what is known.
    fn merge(&mut self, newer: Self);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    hash: u64,
    depth: u16,
    budget: u32,
}

#[derive(Debug)]
struct Slot<V> {
    rows: Box<[u64]>,
    size: u32,
    value: V,
    last_used: u64,
}

/// Values by row set, depth and split budget.
#[derive(Debug)]
pub(crate) struct RowSetCache<V> {
    map: FxHashMap<Key, Slot<V>>,
    words: usize,
    bytes: usize,
    cap: usize,
    clock: u64,
    pub evictions: u64,
    pub hits: u64,
}

impl<V: CachedValue> RowSetCache<V> {
    /// An empty cache for subsets of `n_rows` rows, holding at most about `cap_bytes`.
    pub fn new(n_rows: usize, cap_bytes: usize) -> RowSetCache<V> {
        RowSetCache {
            map: FxHashMap::default(),
            words: n_rows.div_ceil(64),
            bytes: 0,
            cap: cap_bytes,
            clock: 0,
            evictions: 0,
            hits: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Estimated bytes held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Estimated bytes of an entry holding `value`: its bitset, the value's own memory, and the
    /// entry, key and table slot.
    fn entry_bytes(&self, value: &V) -> usize {
        self.words * 8
            + value.heap_bytes()
            + std::mem::size_of::<Slot<V>>()
            + std::mem::size_of::<Key>()
            + 16
    }

    /// What is known about `rows` (with hash `hash`) at `depth` and `budget`.
    #[inline]
    pub fn get(&mut self, hash: u64, depth: usize, budget: usize, rows: &[Element]) -> Option<&V> {
        let key = Key {
            hash,
            depth: depth as u16,
            budget: budget as u32,
        };
        self.clock += 1;
        let slot = self.map.get_mut(&key)?;
        if !same_rows(slot, rows) {
            return None;
        }
        slot.last_used = self.clock;
        self.hits += 1;
        Some(&slot.value)
    }

    /// Records `value` for `rows` at `depth` and `budget`: merged into what is known of the
    /// same rows, else stored (replacing the entry of another row set with the same key).
    pub fn put(&mut self, hash: u64, depth: usize, budget: usize, rows: &[Element], value: V) {
        let key = Key {
            hash,
            depth: depth as u16,
            budget: budget as u32,
        };
        self.clock += 1;
        let clock = self.clock;
        if let Some(slot) = self.map.get_mut(&key) {
            if same_rows(slot, rows) {
                let before = slot.value.heap_bytes();
                slot.value.merge(value);
                slot.last_used = clock;
                self.bytes = self.bytes + slot.value.heap_bytes() - before;
                return;
            }
        }
        let size = self.entry_bytes(&value);
        if size > self.cap {
            self.evictions += 1;
            return;
        }
        if self.bytes + size > self.cap {
            self.evict(size);
        }
        let mut bits = vec![0u64; self.words].into_boxed_slice();
        for e in rows {
            bits[e.row as usize / 64] |= 1 << (e.row % 64);
        }
        let slot = Slot {
            rows: bits,
            size: rows.len() as u32,
            value,
            last_used: clock,
        };
        if let Some(old) = self.map.insert(key, slot) {
            self.bytes -= self.entry_bytes(&old.value);
        }
        self.bytes += size;
    }

    /// Every value known, to revise in place (a size the revision changes is not accounted).
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.map.values_mut().map(|slot| &mut slot.value)
    }

    /// Evicts the least recently used entries until a quarter of the cap (and room for
    /// `needed` bytes) is free.
    fn evict(&mut self, needed: usize) {
        let target = (self.cap - self.cap / 4).min(self.cap.saturating_sub(needed));
        let mut ages: Vec<(u64, Key)> = self.map.iter().map(|(k, s)| (s.last_used, *k)).collect();
        ages.sort_unstable_by_key(|&(age, _)| age);
        for (_, key) in ages {
            if self.bytes <= target {
                break;
            }
            if let Some(old) = self.map.remove(&key) {
                self.bytes -= self.entry_bytes(&old.value);
                self.evictions += 1;
            }
        }
    }
}

fn same_rows<V>(slot: &Slot<V>, rows: &[Element]) -> bool {
    slot.size as usize == rows.len()
        && rows
            .iter()
            .all(|e| slot.rows[e.row as usize / 64] & (1 << (e.row % 64)) != 0)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A lower bound that only grows.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub(crate) struct Bound(pub(crate) u64);

    impl CachedValue for Bound {
        fn merge(&mut self, newer: Bound) {
            self.0 = self.0.max(newer.0);
        }
    }

    pub(crate) fn rows(ids: &[u32]) -> Vec<Element> {
        ids.iter().map(|&row| Element { row, bin: 0 }).collect()
    }

    #[test]
    fn same_rows_merge_and_other_rows_with_the_same_key_miss() {
        let mut cache = RowSetCache::new(100, 1 << 20);
        cache.put(7, 2, 3, &rows(&[1, 5, 9]), Bound(4));
        cache.put(7, 2, 3, &rows(&[9, 1, 5]), Bound(2));
        assert_eq!(cache.get(7, 2, 3, &rows(&[5, 9, 1])), Some(&Bound(4)));
        cache.put(7, 2, 3, &rows(&[1, 5, 9]), Bound(6));
        assert_eq!(
            cache.get(7, 2, 3, &rows(&[1, 5, 9])).copied(),
            Some(Bound(6))
        );
        // The same hash over other rows (a collision), another depth, another budget: misses.
        assert_eq!(cache.get(7, 2, 3, &rows(&[1, 5, 8])), None);
        assert_eq!(cache.get(7, 1, 3, &rows(&[1, 5, 9])), None);
        assert_eq!(cache.get(7, 2, 2, &rows(&[1, 5, 9])), None);
        assert_eq!(cache.len(), 1);
        assert_eq!(cache.hits, 2);
    }

    #[test]
    fn the_least_recently_used_entries_go_past_the_cap() {
        let probe: RowSetCache<Bound> = RowSetCache::new(64, 0);
        let entry = probe.entry_bytes(&Bound(0));
        let mut cache = RowSetCache::new(64, 8 * entry);
        for id in 0..8u32 {
            cache.put(u64::from(id), 1, 1, &rows(&[id]), Bound(u64::from(id)));
        }
        // Entry 0 is used again, so entries 1 and 2 are the oldest when the ninth arrives.
        assert!(cache.get(0, 1, 1, &rows(&[0])).is_some());
        cache.put(8, 1, 1, &rows(&[8]), Bound(8));
        assert!(cache.bytes() <= 8 * entry);
        assert!(cache.evictions >= 2);
        assert!(cache.get(0, 1, 1, &rows(&[0])).is_some());
        assert!(cache.get(8, 1, 1, &rows(&[8])).is_some());
        assert!(cache.get(1, 1, 1, &rows(&[1])).is_none());
        assert!(cache.get(2, 1, 1, &rows(&[2])).is_none());
    }
}
