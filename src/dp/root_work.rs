//! What the threads of a search did at the root, measured to judge how the search would scale
//! to more cores: the work of each unit dealt out (one root feature's first position, or an
//! interval of its positions handed out by another unit, and below the root the units of the
//! jobs that search a root split's children: [`super::root_pool`]), and how often a thread
//! found a shard of the shared cache locked by another.
//!
//! A root unit that opens jobs is recorded in segments: the work before its first job, between
//! its jobs and after its last, each segment after the one before it and after every unit of
//! the job it waited for; the last segment bears the unit's number. The time the unit's thread
//! spends on its jobs' units is theirs, and the time it waits for them no unit's.

use serde::{Deserialize, Serialize};

/// One unit of the root's search, as the thread that took it measured it. Units are taken in
/// the order of (`job`, `rank`, `level`, `first`), a job's before the root's, each once the unit
/// that handed it out (`parent`) has finished and, for a segment that waits for a job
/// (`waits_for`), once every unit of that job has.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RootUnit {
    /// The feature's place in the order units are dealt out (its Gini rank).
    pub rank: usize,
    /// The depth of its interval in the feature's bisection (0: the feature's first unit).
    #[serde(default)]
    pub level: usize,
    /// The first of its interval's positions, counted among the feature's candidates.
    #[serde(default)]
    pub first: usize,
    /// Its number, and the number of the unit that handed it out (`None`: a feature's first).
    #[serde(default)]
    pub id: u64,
    #[serde(default)]
    pub parent: Option<u64>,
    /// The job it belongs to (`None`: the root's own units).
    #[serde(default)]
    pub job: Option<u64>,
    /// The job whose every unit must finish before this segment starts.
    #[serde(default)]
    pub waits_for: Option<u64>,
    /// Wall-clock seconds the thread spent on it.
    pub seconds: f64,
    /// Subproblems entered under it.
    pub subproblems: u64,
}

/// The root's units and the cache's contention.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RootWork {
    /// Every unit finished (one a stop cut short is left out), by number.
    pub units: Vec<RootUnit>,
    /// Lookups of the shared cache that found their shard locked and waited.
    pub lock_waits: u64,
    /// Seconds the threads that opened jobs spent waiting for their units on other threads
    /// (besides the small bookkeeping between units).
    #[serde(default)]
    pub job_wait_seconds: f64,
}

impl RootWork {
    /// Adds another thread's units, keeping them ordered by number.
    pub(crate) fn absorb(&mut self, other: &RootWork) {
        self.units.extend(other.units.iter().cloned());
        self.units.sort_by_key(|unit| unit.id);
        self.lock_waits += other.lock_waits;
        self.job_wait_seconds += other.job_wait_seconds;
    }
}
