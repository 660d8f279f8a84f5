//! What the exact search keeps per subproblem in the shared row-set cache
//! ([`crate::search_core::cache`]): its optimum and the root split that reaches it, or a lower
//! bound. The merge rule: an optimum, once known, stays; a lower bound only grows.

use crate::search_core::cache::CachedValue;
use crate::search_core::shared_cache::SharedCache;

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

/// What the cache knows about a subproblem.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Known {
    pub lower_bound: f64,
    pub solution: Option<Solution>,
}

impl Known {
    /// An optimum (its cost is also the best lower bound).
    pub fn optimum(solution: Solution) -> Known {
        Known {
            lower_bound: solution.cost,
            solution: Some(solution),
        }
    }

    /// A lower bound.
    pub fn bound(lower_bound: f64) -> Known {
        Known {
            lower_bound,
            solution: None,
        }
    }

    /// Turns an optimum into a lower bound of the same value: what is known stays true of a
    /// problem whose costs can only have grown (the sparse search's path, whose split cost
    /// increases from one solve to the next).
    pub fn demote(&mut self) {
        if let Some(solution) = self.solution.take() {
            self.lower_bound = solution.cost;
        }
    }
}

impl CachedValue for Known {
    #[inline]
    fn merge(&mut self, newer: Known) {
        if self.solution.is_none() {
            self.lower_bound = self.lower_bound.max(newer.lower_bound);
            self.solution = newer.solution;
        }
    }
}

/// The exact search's cache, shared by its threads.
pub(crate) type Cache = SharedCache<Known>;
