//! The figures of an experiment, written to `<out>/plots/` as SVG and PNG (see each module):
//! incumbent and bound over time ([`trajectories`]), performance profiles of time to
//! optimality ([`profiles`]), and accuracy of greedy vs optimal trees ([`accuracy`]); and the
//! figure of a front of false positives and false negatives ([`front`], `milptree pareto`) and
//! of training accuracy against the gap between groups ([`fair_front`], `pareto
//! --group-column`).

pub mod accuracy;
pub mod canvas;
pub mod fair_front;
pub mod font;
pub mod front;
pub mod profiles;
pub mod trajectories;

use std::path::PathBuf;

use crate::error::{Error, Result};
use crate::experiment::store::ResultsStore;

/// What [`write_plots`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlotsWritten {
    pub files: Vec<PathBuf>,
    /// Why no figure was drawn, if none was.
    pub skipped: Option<String>,
}

/// Draws every figure of the results in `store`.
pub fn write_plots(store: &ResultsStore) -> Result<PlotsWritten> {
    let rows = store.rows();
    if rows.is_empty() {
        return Ok(PlotsWritten {
            files: Vec::new(),
            skipped: Some("no runs recorded".to_string()),
        });
    }
    if let Err(reason) = font::ensure_font() {
        return Ok(PlotsWritten {
            files: Vec::new(),
            skipped: Some(reason),
        });
    }
    let dir = store.plots_dir();
    std::fs::create_dir_all(&dir).map_err(|source| Error::Output {
        path: dir.display().to_string(),
        source,
    })?;
    let mut files = Vec::new();
    for (stem, figure) in trajectories::trajectory_figures(rows, store.trajectories()) {
        files.extend(canvas::save(&figure, &dir.join(stem))?);
    }
    for (stem, figure) in profiles::profile_figures(rows) {
        files.extend(canvas::save(&figure, &dir.join(stem))?);
    }
    for (stem, figure) in accuracy::accuracy_figures(rows) {
        files.extend(canvas::save(&figure, &dir.join(stem))?);
    }
    Ok(PlotsWritten {
        files,
        skipped: None,
    })
}
