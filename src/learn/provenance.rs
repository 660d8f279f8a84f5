//! The provenance a tree file records ([`Provenance`]), made from a run's [`Outcome`] and the
//! training rows as read.

use std::path::Path;

use crate::data::Dataset;
use crate::learn::Outcome;
use crate::tree::{CertificateNote, Provenance, TrainingRows};

/// The training rows block: `train` as read from `path` (before any relabelling), split with
/// `seed` and `test_fraction`.
pub fn training_rows(
    train: &Dataset,
    path: &Path,
    seed: Option<u64>,
    test_fraction: Option<f64>,
) -> TrainingRows {
    TrainingRows {
        path: path.display().to_string(),
        rows: train.n_rows(),
        fingerprint: train.fingerprint(),
        split_seed: seed,
        test_fraction,
    }
}

/// How `outcome`'s tree was made. The objective is the plain evaluation of the returned tree;
/// the bound is the best the run proved (the solver's, or the certificate's search's when
/// higher), and the gap is computed from the two with the reports' one formula; the
/// certificate's verdict and the side constraints' values come with it.
pub fn of_outcome(outcome: &Outcome, training: TrainingRows) -> Provenance {
    let report = &outcome.report;
    let objective = outcome.evaluated_objective.or(report.objective);
    let certified = outcome
        .certificate
        .as_ref()
        .and_then(|c| c.dp.as_ref())
        .map(|dp| dp.bound);
    let bound = match (report.best_bound, certified) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    let (_, gap) = crate::solver::gaps(objective, bound);
    Provenance {
        method: outcome.name.to_string(),
        parameters: outcome.parameters.clone(),
        solver: report.solver.clone(),
        termination: report.termination.name().to_string(),
        tree_source: outcome
            .tree_source()
            .and_then(|s| serde_json::to_value(s).ok())
            .and_then(|v| v.as_str().map(str::to_string)),
        objective,
        bound,
        gap,
        seconds: Some(report.seconds),
        time_limit: report.time_limit,
        milptree_version: Provenance::this_version(),
        training,
        certificate: outcome.certificate.as_ref().map(|c| CertificateNote {
            verdict: c.verdict.name().to_string(),
            message: c.message.clone(),
        }),
        side_constraints: Some(outcome.side_constraints.clone()).filter(|v| !v.is_null()),
    }
}
