//! milptree: optimal classification trees by mixed-integer programming.
//!
//! The library is organised by responsibility:
//! - [`data`]: reading and validating CSV data, train/test splits, candidate thresholds;
//! - [`score`]: the errors, confusion counts and metrics of a classifier, and what an error on
//!   each class costs;
//! - [`tree`]: the tree model (axis-aligned and oblique splits), prediction and the one evaluator;
//! - [`export`]: text, Graphviz DOT and JSON renderings of a tree;
//! - [`greedy`]: greedy trees (CART) used on their own and as warm starts;
//! - [`dp`]: optimal trees by dynamic programming and search (no MILP), and the plain-code
//!   objective every tree is held against;
//! - [`search_core`]: what the exact searches share: binned data, row-set views, the row-set
//!   cache, cost model, deadline, budgets, tree rebuilding and termination;
//! - [`sparse`]: sparse optimal trees (a penalty per leaf instead of a depth, GOSDT's losses);
//! - [`fair`]: the exact search under bounds on the gaps between groups' rates;
//! - [`pareto`]: the front of false positives and false negatives by a bi-objective search, and
//!   the trees optimal for F1, Matthews correlation and other metrics it decides;
//! - [`rashomon`]: every tree within a margin of the optimum, counted, ranked, sampled and voted;
//! - [`mip`]: our own record of a mixed-integer model (variables, rows, objective), assignments,
//!   feasibility checks, size reports and LP/MPS writers, built from `good_lp` expressions;
//! - [`solver`]: the HiGHS and CBC backends behind one trait, with honest reports;
//! - [`formulation`]: the tree formulations (OCT, BinOCT, OLCT), each as build / encode / decode;
//! - [`learn`]: the method layer (a formulation on a solver, ...), its outcome and typed report;
//! - [`experiment`]: experiment grids, their results tables, figures and summary;
//! - [`budget`]: the time a run may take ([`budget::Budget`]: a limit checked where it enters,
//!   the interrupt flag, shares of it for a run's phases);
//! - [`console`]: the standard streams, written without panics, capturable in memory;
//! - [`cli`]: the `milptree` command line;
//! - `python` (cargo feature `python`): the Python extension module `milptree._core`.
#![deny(unsafe_code)]

pub mod budget;
pub mod cli;
pub mod console;
pub mod constraints;
pub mod data;
pub mod dp;
pub mod error;
pub mod experiment;
pub mod export;
pub mod fair;
pub mod formulation;
pub mod greedy;
pub mod learn;
pub mod mip;
pub mod pareto;
pub mod rashomon;
pub mod score;
pub mod search_core;
pub mod setting;
pub mod solver;
pub mod sparse;
pub mod tree;
pub mod tune;

// PyO3's macros expand to unsafe calls into the Python C API; this crate's own code in the
// module has none.
#[cfg(feature = "python")]
#[allow(unsafe_code)]
mod python;

pub use error::{Error, Result};
