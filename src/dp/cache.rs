//! The subproblem cache: what is known about a row set at a depth and split budget — its
//! optimum and the root split that reaches it, or a lower bound — under a memory cap.
//!
//! Entries are keyed by the row set itself (a dataset cache), not by the path of splits that
//! led to it (a branch cache): two different paths that select the same rows share the entry,
//! e.g. the same two splits taken in either order, or splits on two features that agree on the
//! rows at hand. The key is the view's order-independent hash; the entry keeps the rows as a
//! bitset, so a hash collision is detected and treated as a miss. Past the memory cap, the
//! least recently used entries are evicted; the search never depends on an entry staying.

use rustc_hash::FxHashMap;

use crate::dp::binned::Element;

/// A split chosen at the root of an optimal subtree, with what its children cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SplitChoice {
    /// Searched-feature id.
    pub feature: u32,
    /// Threshold bin: rows with bin `<=` it go left.
    pub bin: u32,
    pub left_budget: u32,
    pub right_budget: u32,
    pub left_cost: f64,
    pub right_cost: f64,
}

/// An optimal subtree: its cost and its root split (`None`: a single leaf).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Solution {
    pub cost: f64,
    pub split: Option<SplitChoice>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    hash: u64,
    depth: u16,
    budget: u32,
}

#[derive(Debug)]
struct Entry {
    rows: Box<[u64]>,
    size: u32,
    lower_bound: f64,
    solution: Option<Solution>,
    last_used: u64,
}

/// What the cache knows about a subproblem.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Known {
    pub lower_bound: f64,
    pub solution: Option<Solution>,
}

/// The cache.
#[derive(Debug)]
pub(crate) struct Cache {
    map: FxHashMap<Key, Entry>,
    words: usize,
    bytes: usize,
    cap: usize,
    clock: u64,
    pub evictions: u64,
    pub hits: u64,
}

/// Estimated bytes of one entry besides its bitset (entry, key, table slot).
const ENTRY_OVERHEAD: usize = std::mem::size_of::<Entry>() + std::mem::size_of::<Key>() + 16;

impl Cache {
    pub fn new(n_rows: usize, cap_bytes: usize) -> Cache {
        Cache {
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

    fn entry_bytes(&self) -> usize {
        self.words * 8 + ENTRY_OVERHEAD
    }

    /// What is known about `rows` (with hash `hash`) at `depth` and `budget`.
    pub fn get(
        &mut self,
        hash: u64,
        depth: usize,
        budget: usize,
        rows: &[Element],
    ) -> Option<Known> {
        let key = Key {
            hash,
            depth: depth as u16,
            budget: budget as u32,
        };
        self.clock += 1;
        let entry = self.map.get_mut(&key)?;
        if !same_rows(entry, rows) {
            return None;
        }
        entry.last_used = self.clock;
        self.hits += 1;
        Some(Known {
            lower_bound: entry.lower_bound,
            solution: entry.solution,
        })
    }

    /// Records an optimal solution.
    pub fn put_solution(
        &mut self,
        hash: u64,
        depth: usize,
        budget: usize,
        rows: &[Element],
        solution: Solution,
    ) {
        self.put(hash, depth, budget, rows, solution.cost, Some(solution));
    }

    /// Records a lower bound (kept only if it improves on the one known).
    pub fn put_bound(&mut self, hash: u64, depth: usize, budget: usize, rows: &[Element], lb: f64) {
        self.put(hash, depth, budget, rows, lb, None);
    }

    fn put(
        &mut self,
        hash: u64,
        depth: usize,
        budget: usize,
        rows: &[Element],
        lower_bound: f64,
        solution: Option<Solution>,
    ) {
        let key = Key {
            hash,
            depth: depth as u16,
            budget: budget as u32,
        };
        self.clock += 1;
        if let Some(entry) = self.map.get_mut(&key) {
            if same_rows(entry, rows) {
                if entry.solution.is_none() {
                    entry.lower_bound = entry.lower_bound.max(lower_bound);
                    entry.solution = solution;
                }
                entry.last_used = self.clock;
                return;
            }
        }
        let size = self.entry_bytes();
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
        let entry = Entry {
            rows: bits,
            size: rows.len() as u32,
            lower_bound,
            solution,
            last_used: self.clock,
        };
        if self.map.insert(key, entry).is_none() {
            self.bytes += size;
        }
    }

    /// Turns every optimum into a lower bound of the same value: what the cache knows stays
    /// true of a problem whose costs can only have grown (the sparse search's path, whose split
    /// cost increases from one solve to the next).
    pub fn demote_solutions(&mut self) {
        for entry in self.map.values_mut() {
            if let Some(solution) = entry.solution.take() {
                entry.lower_bound = solution.cost;
            }
        }
    }

    /// Evicts the least recently used entries until a quarter of the cap (and room for
    /// `needed` bytes) is free.
    fn evict(&mut self, needed: usize) {
        let target = (self.cap - self.cap / 4).min(self.cap.saturating_sub(needed));
        let per_entry = self.entry_bytes();
        let keep = target / per_entry;
        if self.map.len() <= keep {
            return;
        }
        let mut ages: Vec<u64> = self.map.values().map(|e| e.last_used).collect();
        let drop = self.map.len() - keep;
        let (_, &mut cutoff, _) = ages.select_nth_unstable(drop - 1);
        let before = self.map.len();
        let mut dropped = 0;
        self.map.retain(|_, e| {
            if dropped < drop && e.last_used <= cutoff {
                dropped += 1;
                false
            } else {
                true
            }
        });
        let evicted = before - self.map.len();
        self.evictions += evicted as u64;
        self.bytes = self.map.len() * per_entry;
    }
}

fn same_rows(entry: &Entry, rows: &[Element]) -> bool {
    entry.size as usize == rows.len()
        && rows
            .iter()
            .all(|e| entry.rows[e.row as usize / 64] & (1 << (e.row % 64)) != 0)
}
