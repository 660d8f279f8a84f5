//! Why a search stopped ([`Termination`]) and one point of its progress ([`Progress`]): the same
//! for the exact, sparse and Pareto searches.

use serde::{Deserialize, Serialize};

/// Why the search stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// The returned tree is proven optimal.
    Optimal,
    /// The time limit was reached: the tree is the best found, the bound is valid.
    TimeLimit,
    /// The interrupt flag was set: the tree is the best found, the bound is valid.
    Interrupted,
}

/// One point of the search's progress.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// Seconds since the search started.
    pub seconds: f64,
    /// Objective of the best tree known then.
    pub incumbent: f64,
    /// Global lower bound known then.
    pub bound: f64,
}
