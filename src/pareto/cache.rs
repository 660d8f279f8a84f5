//! The front cache: the exact front of a row set at a depth and split budget, under a memory
//! cap.
//!
//! Like the single-objective search's cache ([`crate::dp`]), entries are keyed by the row set
//! (its order-independent hash, with the rows kept as a bitset so that a collision is a miss),
//! not by the path of splits that reached it. Entries here hold whole fronts, whose sizes vary,
//! so the memory account is per entry; past the cap the least recently used entries go.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::dp::binned::Element;
use crate::pareto::entry::Entry;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    hash: u64,
    depth: u16,
    budget: u32,
}

#[derive(Debug)]
struct Cached {
    rows: Box<[u64]>,
    size: u32,
    front: Rc<[Entry]>,
    last_used: u64,
}

/// Fronts by row set, depth and budget.
#[derive(Debug)]
pub(crate) struct FrontCache {
    map: FxHashMap<Key, Cached>,
    words: usize,
    bytes: usize,
    cap: usize,
    clock: u64,
    pub evictions: u64,
    pub hits: u64,
}

/// Estimated bytes of one entry besides its bitset and front (entry, key, table slot).
const OVERHEAD: usize = std::mem::size_of::<Cached>() + std::mem::size_of::<Key>() + 32;

impl FrontCache {
    pub fn new(n_rows: usize, cap_bytes: usize) -> FrontCache {
        FrontCache {
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

    fn entry_bytes(&self, front_len: usize) -> usize {
        self.words * 8 + front_len * std::mem::size_of::<Entry>() + OVERHEAD
    }

    /// The front of `rows` (with hash `hash`) at `depth` and `budget`, if known.
    pub fn get(
        &mut self,
        hash: u64,
        depth: usize,
        budget: usize,
        rows: &[Element],
    ) -> Option<Rc<[Entry]>> {
        let key = Key {
            hash,
            depth: depth as u16,
            budget: budget as u32,
        };
        self.clock += 1;
        let cached = self.map.get_mut(&key)?;
        if !same_rows(cached, rows) {
            return None;
        }
        cached.last_used = self.clock;
        self.hits += 1;
        Some(Rc::clone(&cached.front))
    }

    /// Records the exact front of `rows` at `depth` and `budget`.
    pub fn put(
        &mut self,
        hash: u64,
        depth: usize,
        budget: usize,
        rows: &[Element],
        front: &Rc<[Entry]>,
    ) {
        let key = Key {
            hash,
            depth: depth as u16,
            budget: budget as u32,
        };
        self.clock += 1;
        let size = self.entry_bytes(front.len());
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
        let cached = Cached {
            rows: bits,
            size: rows.len() as u32,
            front: Rc::clone(front),
            last_used: self.clock,
        };
        if let Some(old) = self.map.insert(key, cached) {
            self.bytes -= self.entry_bytes(old.front.len());
        }
        self.bytes += size;
    }

    /// Evicts the least recently used entries until a quarter of the cap (and room for
    /// `needed` bytes) is free.
    fn evict(&mut self, needed: usize) {
        let target = (self.cap - self.cap / 4).min(self.cap.saturating_sub(needed));
        let mut ages: Vec<(u64, Key)> = self.map.iter().map(|(k, c)| (c.last_used, *k)).collect();
        ages.sort_unstable_by_key(|&(age, _)| age);
        for (_, key) in ages {
            if self.bytes <= target {
                break;
            }
            if let Some(old) = self.map.remove(&key) {
                self.bytes -= self.entry_bytes(old.front.len());
                self.evictions += 1;
            }
        }
    }
}

fn same_rows(cached: &Cached, rows: &[Element]) -> bool {
    cached.size as usize == rows.len()
        && rows
            .iter()
            .all(|e| cached.rows[e.row as usize / 64] & (1 << (e.row % 64)) != 0)
}
