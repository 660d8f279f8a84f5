//! Experiments: grids of runs (datasets × depths × formulations × solvers × warm starts ×
//! seeds), run in process or spread over machines as `milptree solve` jobs, with results
//! tables, trajectories, figures and a Markdown summary.
//!
//! - [`grid`]: the grid as given ([`GridSpec`], from flags or a TOML file, see [`grid_file`])
//!   and validated ([`Grid`]); [`config`]: one configuration and its run key;
//!   [`grid_constraints`]: side constraints in a grid;
//! - [`datasets`]: reading the datasets and preparing a run's split;
//! - [`runner`]: the in-process runner (resumable, with progress bars, see [`progress`]);
//! - [`jobs`]: `--emit-jobs` command lines and `--collect`;
//! - [`facts`], [`baseline`], [`row`]: what a run produced, its greedy baseline, its table row;
//! - [`store`]: the results directory; [`trajectory`]: trajectory files;
//! - [`primal_integral`], [`profile`]: the primal integral and performance profiles;
//! - [`summary`]: `summary.md`; [`plots`]: the figures.

pub mod baseline;
pub mod config;
pub mod datasets;

pub mod grid;
pub mod grid_constraints;
pub mod grid_file;
pub mod jobs;
pub mod plots;
pub mod primal_integral;
pub mod profile;
pub mod progress;
pub mod row;
pub mod runner;
pub mod store;
pub mod summary;
pub mod trajectory;

pub use config::{DatasetEntry, RunConfig};
pub use grid::{Grid, GridSpec};
pub use row::Row;
pub use store::ResultsStore;

use crate::error::Result;

/// Writes `summary.md` from the rows in `store`.
pub fn write_summary(store: &ResultsStore) -> Result<std::path::PathBuf> {
    let path = store.summary_path();
    store::write_atomically(&path, summary::summary_markdown(store.rows()).as_bytes())?;
    Ok(path)
}
