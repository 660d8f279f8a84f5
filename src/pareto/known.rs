//! What the Pareto search keeps per subproblem in the shared row-set cache
//! ([`crate::search_core::cache`], in shards for threads: [`crate::search_core::shared_cache`]): the front of a row set at a depth and split budget, and
//! the region outside which it is exact.
//!
//! A subproblem is solved for a caller that already covers a region (an up-set given by its
//! staircase, empty for the exact front): the front it returns is exact outside that region.
//! An entry keeps both; it answers a later call whose region contains its own, and otherwise
//! gives a lower bound (the front and the region's corners together bound every tree). The
//! merge rule: the later front replaces the earlier one.

use std::sync::Arc;

use crate::pareto::entry::{points, Entry};
use crate::pareto::front::{covers_all, union, Point};
use crate::search_core::binned::Element;
use crate::search_core::cache::CachedValue;
use crate::search_core::shared_cache::SharedCache;

/// A front, exact outside the up-set of `covered`.
#[derive(Debug, Clone)]
pub(crate) struct KnownFront {
    pub front: Arc<[Entry]>,
    /// The region outside which `front` is exact.
    pub covered: Box<[Point]>,
}

impl CachedValue for KnownFront {
    fn heap_bytes(&self) -> usize {
        self.front.len() * std::mem::size_of::<Entry>()
            + self.covered.len() * std::mem::size_of::<Point>()
            + 16
    }

    fn merge(&mut self, newer: KnownFront) {
        *self = newer;
    }
}

/// Fronts by row set, depth and budget, shared by the threads of one search.
pub(crate) type FrontCache = SharedCache<KnownFront>;

/// What the cache knows of a subproblem for a caller's covered region.
#[derive(Debug)]
pub(crate) enum Lookup {
    /// A front that is exact outside the caller's region.
    Front(Arc<[Entry]>),
    /// A lower-bound front of the subproblem.
    Bound(Vec<Point>),
    Miss,
}

/// What `cache` knows of `rows` (with hash `hash`) at `depth` and `budget` for a caller that
/// covers the up-set of `covered`.
pub(crate) fn lookup(
    cache: &FrontCache,
    hash: u64,
    depth: usize,
    budget: usize,
    rows: &[Element],
    covered: &[Point],
) -> Lookup {
    match cache.get(hash, depth, budget, rows) {
        None => Lookup::Miss,
        Some(known) if covers_all(covered, &known.covered) => Lookup::Front(known.front),
        Some(known) => Lookup::Bound(union(&points(&known.front), &known.covered)),
    }
}

impl KnownFront {
    /// `front`, exact outside the up-set of `covered`.
    pub fn new(front: &Arc<[Entry]>, covered: &[Point]) -> KnownFront {
        KnownFront {
            front: Arc::clone(front),
            covered: covered.into(),
        }
    }
}
