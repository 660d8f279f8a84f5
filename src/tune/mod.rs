//! Choosing a method's parameters by k-fold cross-validation (`milptree tune`), independent of
//! the command line:
//!
//! - [`folds`]: stratified, reproducible fold assignment;
//! - [`grid`]: the tuned parameters, their values and their product ([`Config`]);
//! - [`score`]: what is measured of a tree ([`Scores`]) and the metric chosen on;
//! - [`fit`]: one fold's fits, by the library's entry point [`crate::learn::learn`] (a sparse
//!   path for the leaf penalties of the sparse search);
//! - [`select`]: the table and the choice (best mean, or the one-standard-error rule);
//! - [`store`]: the run directory that makes a run resumable;
//! - [`run`]: the driver, fits in parallel.
//!
//! The caller builds one [`crate::learn::Method`] per configuration (the data prepared for
//! it, as `solve` prepares it), calls [`cross_validate`], and refits the chosen configuration
//! on all its training rows.

pub mod fit;
pub mod folds;
pub mod grid;
pub mod run;
pub mod score;
pub mod select;
pub mod store;

pub use fit::{Fit, FitStatus};
pub use folds::{fold_rows, stratified_folds};
pub use grid::{configurations, parse_values, Config, Param};
pub use run::{assignments, cross_validate, TuneOptions, TuneResult};
pub use score::{Scores, TuneMetric};
pub use select::ConfigRow;
pub use store::Store;
