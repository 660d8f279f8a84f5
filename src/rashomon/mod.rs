//! The Rashomon set: every tree of depth at most the problem's whose objective is within a
//! margin of the optimum, over every candidate threshold, read from a graph of row sets built
//! with budgets rather than listed ([`RashomonSet`]).
//!
//! A tree is its splits: two trees are one when each node sends the same training rows each
//! way (the midpoint of the node's values stands for the candidate thresholds between them,
//! and [`Shape::variants`] says how many); any node may be a leaf, and a leaf takes its best
//! class (the first on a tie), so ties make no extra trees. Splits on two features that part
//! the rows alike are two trees (they differ on new data).
//!
//! Under fairness bounds (two classes) a leaf takes either class, each labelling a tree of its
//! own, and the set holds the trees whose gaps keep the bounds: the counts are kept by
//! objective and fairness key ([`Profile`]), and the optimum is the fair search's
//! ([`crate::fair`]).
//!
//! The set holds the count by objective (exact big integers), the trees in objective order
//! by rank, uniform samples, the votes of the set on any rows, and how many trees go without
//! each feature. The optimum comes from the exact search ([`crate::dp`]), and the set's least
//! objective is checked against it; every tree taken from the set is rebuilt and its objective
//! re-evaluated by [`crate::dp::objective_of`].

mod fair_key;
mod graph;
pub mod importance;
mod least;
mod profile;
pub mod report;
mod set;

pub use graph::Stop;
pub use profile::Profile;
pub use set::{
    approx, Limits, Margin, Ranked, RashomonSet, Restriction, Shape, DEFAULT_MEMORY_LIMIT_MB,
};
