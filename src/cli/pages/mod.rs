//! The HTML pages of the commands' runs ([`crate::export::html`]): `solve` (the tree, its
//! provenance and certificate, the solver's incumbent and bound against time), `pareto` (the
//! front, each point's tree a click away), `tune` (the validation curve with its error bars,
//! the chosen configuration and its refitted tree), `path` (loss against leaves, each
//! penalty's tree) and `rashomon` (the trees by objective, each feature's use and importance
//! across the set, a browser of its trees). Each builds a [`Page`] from the command's report and its trees.

mod front;
mod path;
mod rashomon;
mod solve;
mod tune;

pub use front::front_page;
pub use path::path_page;
pub use rashomon::rashomon_page;
pub use solve::solve_page;
pub use tune::tune_page;

use std::path::Path;

use crate::cli::output::write_file;
use crate::error::Result;
use crate::export::html::Fact;

/// A figure with `digits` decimals, or `-`.
fn decimals(value: Option<f64>, digits: usize) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.digits$}"))
}

/// The facts of the training rows: where from, how many, and their fingerprint.
fn training_facts(path: &str, rows: usize, fingerprint: &str) -> Vec<Fact> {
    vec![
        Fact::new("training", "training rows", format!("{rows} of {path}")),
        Fact::new("fingerprint", "data fingerprint", fingerprint),
    ]
}

/// Writes a page to `path`.
pub fn write_page(path: &Path, html: &str) -> Result<()> {
    write_file(path, html)
}
