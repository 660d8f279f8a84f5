//! The core the exact searches stand on ([`crate::dp`], [`crate::sparse`], [`crate::pareto`]):
//! what they share, and nothing of any one of them.
//!
//! - [`binned`]: the data as a search sees it, every feature mapped once to ordinal bins;
//! - [`view`]: row sets held in per-level arenas, each sorted by every feature, with the
//!   order-independent hash that keys the cache;
//! - [`cache`]: one row-set cache under a memory cap, generic over the value each search keeps
//!   and its merge rule; [`shared_cache`]: the same split into locked shards for threads;
//! - [`cost`]: the cost model of weighted errors, split cost and leaf minimum;
//! - [`feature_levels`]: the levels of the tree at which each feature may split;
//! - [`deadline`]: the time limit and interrupt, checked between units of work;
//! - [`budget`]: split budgets and their sharing between children;
//! - [`subtree`]: trees over bins and their rebuilding into the project's tree;
//! - [`termination`]: why a search stopped and the points of its progress;
//! - [`ProgressSink`]: where a search publishes its incumbent and bound for a display.

pub(crate) mod binned;
pub(crate) mod budget;
pub(crate) mod cache;
pub(crate) mod cost;
pub(crate) mod deadline;
pub(crate) mod feature_levels;
mod progress_sink;
pub(crate) mod root_share;
pub(crate) mod shared_cache;
pub(crate) mod subtree;
mod termination;
pub(crate) mod view;

pub use progress_sink::ProgressSink;
pub use termination::{Progress, Termination};

/// Fails when `data` is not what a search that counts rows takes: row weights (weighted data
/// reaches it as its rows repeated by weight, [`crate::data::Dataset::repeated_by_weight`]) or
/// missing values ([`check_complete`]). `search` names the search in the error.
pub(crate) fn check_searchable(data: &crate::data::Dataset, search: &str) -> crate::Result<()> {
    if data.is_weighted() {
        return Err(crate::Error::parameter(
            "--weight-column",
            format!("{search} counts rows: weighted rows reach it repeated by their weights"),
        ));
    }
    check_complete(data, search)
}

/// Fails when `data` has missing values (binned features have no bin for them: data with
/// missing values reaches a search as its copies, [`crate::tree::missing_copies`], as
/// [`crate::learn::learn`] makes them). `search` names the search in the error.
pub(crate) fn check_complete(data: &crate::data::Dataset, search: &str) -> crate::Result<()> {
    data.refuse_missing(&format!(
        "{search} (learn through milptree::learn, which searches over missing-value copies)"
    ))
}

/// The most threads a search takes: more than any machine it runs on has, fewer than would
/// exhaust the threads and stacks a process may hold.
pub const MAX_THREADS: usize = 1024;

/// Fails unless a search's thread count is from 1 to [`MAX_THREADS`] (an error naming
/// `--threads`).
pub(crate) fn check_threads(threads: usize) -> crate::Result<()> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(crate::Error::parameter(
            "--threads",
            format!("{threads} threads: a search takes from 1 to {MAX_THREADS}"),
        ));
    }
    Ok(())
}

/// The cache's default memory cap, in MiB.
pub const DEFAULT_MEMORY_LIMIT_MB: usize = 2048;
