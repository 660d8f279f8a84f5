//! The front cache: what is known of the front of a row set at a depth and split budget, under
//! a memory cap.
//!
//! A subproblem is solved for a caller that already covers a region (an up-set given by its
//! staircase, empty for the exact front): the front it returns is exact outside that region.
//! An entry keeps both; it answers a later call whose region contains its own, and otherwise
//! gives a lower bound (the front and the region's corners together bound every tree).
//!
//! Like the single-objective search's cache ([`crate::dp`]), entries are keyed by the row set
//! (its order-independent hash, with the rows kept as a bitset so that a collision is a miss),
//! not by the path of splits that reached it. Entries here hold whole fronts, whose sizes vary,
//! so the memory account is per entry; past the cap the least recently used entries go.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::dp::binned::Element;
use crate::pareto::entry::{points, Entry};
use crate::pareto::front::{covers_all, union, Point};

/// What the cache knows of a subproblem for a caller's covered region.
#[derive(Debug)]
pub(crate) enum Lookup {
    /// A front that is exact outside the caller's region.
    Front(Rc<[Entry]>),
    /// A lower-bound front of the subproblem.
    Bound(Vec<Point>),
    Miss,
}

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
    /// The region outside which `front` is exact.
    covered: Box<[Point]>,
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

    fn entry_bytes(&self, front_len: usize, covered_len: usize) -> usize {
        self.words * 8
            + front_len * std::mem::size_of::<Entry>()
            + covered_len * std::mem::size_of::<Point>()
            + OVERHEAD
    }

    /// What is known of `rows` (with hash `hash`) at `depth` and `budget` for a caller that
    /// covers the up-set of `covered`.
    pub fn get(
        &mut self,
        hash: u64,
        depth: usize,
        budget: usize,
        rows: &[Element],
        covered: &[Point],
    ) -> Lookup {
        match self.find(hash, depth, budget, rows) {
            None => Lookup::Miss,
            Some(cached) if covers_all(covered, &cached.covered) => {
                Lookup::Front(Rc::clone(&cached.front))
            }
            Some(cached) => Lookup::Bound(union(&points(&cached.front), &cached.covered)),
        }
    }

    /// The front known for `rows`, whatever region it is exact outside of.
    pub fn get_any(
        &mut self,
        hash: u64,
        depth: usize,
        budget: usize,
        rows: &[Element],
    ) -> Option<Rc<[Entry]>> {
        self.find(hash, depth, budget, rows)
            .map(|cached| Rc::clone(&cached.front))
    }

    fn find(
        &mut self,
        hash: u64,
        depth: usize,
        budget: usize,
        rows: &[Element],
    ) -> Option<&Cached> {
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
        Some(cached)
    }

    /// Records the front of `rows` at `depth` and `budget`, exact outside the up-set of
    /// `covered` (replacing what was known).
    pub fn put(
        &mut self,
        hash: u64,
        depth: usize,
        budget: usize,
        rows: &[Element],
        front: &Rc<[Entry]>,
        covered: &[Point],
    ) {
        let key = Key {
            hash,
            depth: depth as u16,
            budget: budget as u32,
        };
        self.clock += 1;
        let size = self.entry_bytes(front.len(), covered.len());
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
            covered: covered.into(),
            last_used: self.clock,
        };
        if let Some(old) = self.map.insert(key, cached) {
            self.bytes -= self.entry_bytes(old.front.len(), old.covered.len());
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
                self.bytes -= self.entry_bytes(old.front.len(), old.covered.len());
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
