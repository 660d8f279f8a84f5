//! What the threads of a search did at the root, measured to judge how the search would scale
//! to more cores: the work of each unit dealt out (one root feature), and how often a thread
//! found a shard of the shared cache locked by another.

use serde::{Deserialize, Serialize};

/// One root feature's share of the search, as the thread that took it measured it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RootUnit {
    /// The feature's place in the order units are dealt out (its Gini rank).
    pub rank: usize,
    /// Wall-clock seconds the thread spent on it.
    pub seconds: f64,
    /// Subproblems entered under it.
    pub subproblems: u64,
}

/// The root's units and the cache's contention.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RootWork {
    /// Every unit finished (one a stop cut short is left out), by rank.
    pub units: Vec<RootUnit>,
    /// Lookups of the shared cache that found their shard locked and waited.
    pub lock_waits: u64,
}

impl RootWork {
    /// Adds another thread's units, keeping them ordered by rank.
    pub(crate) fn absorb(&mut self, other: &RootWork) {
        self.units.extend(other.units.iter().cloned());
        self.units.sort_by_key(|unit| unit.rank);
        self.lock_waits += other.lock_waits;
    }
}
