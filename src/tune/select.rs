//! From fits to a table: per configuration, the mean and standard deviation of the validation
//! metric over its folds and repeats, the training metric, leaves, seconds and the share of fits
//! proven optimal; and the choice: the best mean, or with the one-standard-error rule the
//! configuration with the fewest mean leaves whose mean is within one standard error
//! (`sd / sqrt(fits)`) of the best's (ties: the higher mean, then the first in grid order). A
//! configuration with a failed fit, or with no score, is never chosen.

use serde::{Deserialize, Serialize};

use crate::tune::fit::{Fit, FitStatus};
use crate::tune::grid::Config;
use crate::tune::score::TuneMetric;

/// One configuration's row of the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfigRow {
    pub config: Config,
    pub label: String,
    /// Fits run (folds times repeats when complete).
    pub fits: usize,
    pub failed: usize,
    /// Fits with a validation score.
    pub scored: usize,
    /// Fits that ended at a limit with a tree not proven optimal.
    pub limited: usize,
    /// The validation metric over the fits that scored it.
    pub mean: Option<f64>,
    pub sd: Option<f64>,
    pub se: Option<f64>,
    pub train_mean: Option<f64>,
    pub leaves_mean: Option<f64>,
    pub seconds_mean: f64,
    /// Fits proven optimal, over all fits.
    pub optimal_share: f64,
    /// `ok`, or what went wrong (`2 of 5 fits failed: ...`).
    pub status: String,
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The sample standard deviation (0 for one value).
fn sd(values: &[f64]) -> Option<f64> {
    let m = mean(values)?;
    if values.len() < 2 {
        return Some(0.0);
    }
    let squares: f64 = values.iter().map(|v| (v - m).powi(2)).sum();
    Some((squares / (values.len() - 1) as f64).sqrt())
}

/// The row of `config` over its `fits`, on `metric`.
pub fn row(config: &Config, fits: &[&Fit], metric: TuneMetric) -> ConfigRow {
    let validation: Vec<f64> = fits
        .iter()
        .filter_map(|f| f.validation.as_ref().and_then(|s| metric.of(s)))
        .collect();
    let train: Vec<f64> = fits
        .iter()
        .filter_map(|f| f.train.as_ref().and_then(|s| metric.of(s)))
        .collect();
    let leaves: Vec<f64> = fits
        .iter()
        .filter_map(|f| f.leaves.map(|l| l as f64))
        .collect();
    let seconds: Vec<f64> = fits.iter().map(|f| f.seconds).collect();
    let count = |status: FitStatus| fits.iter().filter(|f| f.status == status).count();
    let failed = count(FitStatus::Failed);
    let limited = count(FitStatus::Limit);
    let deviation = sd(&validation);
    let status = if failed > 0 {
        let first = fits
            .iter()
            .find(|f| f.status == FitStatus::Failed)
            .map_or_else(String::new, |f| f.termination.clone());
        format!("{failed} of {} fits failed: {first}", fits.len())
    } else if validation.len() < fits.len() {
        format!(
            "{} of {} fits have no {metric} (a fold lacks a class)",
            fits.len() - validation.len(),
            fits.len()
        )
    } else if limited > 0 {
        format!("{limited} of {} fits hit the time limit", fits.len())
    } else {
        "ok".to_string()
    };
    ConfigRow {
        config: *config,
        label: config.label(),
        fits: fits.len(),
        failed,
        scored: validation.len(),
        limited,
        mean: mean(&validation),
        sd: deviation,
        se: deviation.map(|d| d / (validation.len() as f64).sqrt()),
        train_mean: mean(&train),
        leaves_mean: mean(&leaves),
        seconds_mean: mean(&seconds).unwrap_or(0.0),
        optimal_share: if fits.is_empty() {
            0.0
        } else {
            count(FitStatus::Optimal) as f64 / fits.len() as f64
        },
        status,
    }
}

/// Whether a row can be chosen: every fit scored, none failed.
fn eligible(row: &ConfigRow) -> bool {
    row.fits > 0 && row.failed == 0 && row.scored == row.fits
}

/// The index of the row with the best mean (the first on a tie), if any is eligible.
pub fn best(rows: &[ConfigRow]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, row) in rows.iter().enumerate() {
        if !eligible(row) {
            continue;
        }
        if best.is_none_or(|b| row.mean > rows[b].mean) {
            best = Some(i);
        }
    }
    best
}

/// The index of the chosen row: the best, or with `one_se` the one with the fewest mean leaves
/// within one standard error of the best (ties: higher mean, then grid order).
pub fn choose(rows: &[ConfigRow], one_se: bool) -> Option<usize> {
    let best = best(rows)?;
    if !one_se {
        return Some(best);
    }
    let floor = rows[best].mean.unwrap_or(f64::NAN) - rows[best].se.unwrap_or(0.0);
    let mut chosen = best;
    for (i, row) in rows.iter().enumerate() {
        if !eligible(row) || row.mean.is_none_or(|m| m < floor) {
            continue;
        }
        let leaves = |r: &ConfigRow| r.leaves_mean.unwrap_or(f64::INFINITY);
        let (a, b) = (row, &rows[chosen]);
        let simpler = leaves(a) < leaves(b) || (leaves(a) == leaves(b) && a.mean > b.mean);
        if simpler {
            chosen = i;
        }
    }
    Some(chosen)
}
