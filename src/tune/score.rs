//! What a tuning run measures of a tree on a set of rows ([`Scores`]: every metric at once, so
//! that stored fits serve any `--metric`), and the metric it selects on ([`TuneMetric`]).
//! Every figure comes from the plain evaluator ([`Tree::evaluate`]) and, for the AUC, from the
//! leaf-frequency or logistic probabilities `predict --proba` gives.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::tree::{ProbabilityModel, Tree};

/// The metric a tuning run maximises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TuneMetric {
    #[default]
    Accuracy,
    Balanced,
    F1,
    Mcc,
    Auc,
}

impl TuneMetric {
    pub const NAMES: &'static str = "accuracy, balanced, f1, mcc, auc";

    pub fn name(self) -> &'static str {
        match self {
            TuneMetric::Accuracy => "accuracy",
            TuneMetric::Balanced => "balanced",
            TuneMetric::F1 => "f1",
            TuneMetric::Mcc => "mcc",
            TuneMetric::Auc => "auc",
        }
    }

    /// Whether the metric is defined on two classes only.
    pub fn needs_two_classes(self) -> bool {
        matches!(self, TuneMetric::F1 | TuneMetric::Mcc | TuneMetric::Auc)
    }

    /// Its value among `scores`, when defined.
    pub fn of(self, scores: &Scores) -> Option<f64> {
        match self {
            TuneMetric::Accuracy => Some(scores.accuracy),
            TuneMetric::Balanced => Some(scores.balanced_accuracy),
            TuneMetric::F1 => scores.f1,
            TuneMetric::Mcc => scores.mcc,
            TuneMetric::Auc => scores.auc,
        }
    }
}

impl fmt::Display for TuneMetric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TuneMetric {
    type Err = Error;

    fn from_str(text: &str) -> Result<TuneMetric> {
        [
            TuneMetric::Accuracy,
            TuneMetric::Balanced,
            TuneMetric::F1,
            TuneMetric::Mcc,
            TuneMetric::Auc,
        ]
        .into_iter()
        .find(|m| m.name() == text)
        .ok_or_else(|| {
            Error::parameter(
                "--metric",
                format!("`{text}` is not one of: {}", TuneMetric::NAMES),
            )
        })
    }
}

/// A tree's figures on a set of rows. The two-class figures (of the second class, as the
/// evaluator's) are `None` on other data, and the AUC also when a class is absent.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Scores {
    pub accuracy: f64,
    pub balanced_accuracy: f64,
    pub f1: Option<f64>,
    pub mcc: Option<f64>,
    pub auc: Option<f64>,
}

impl Scores {
    /// The figures of `tree` on `data` (whose classes are the tree's).
    pub fn of(tree: &Tree, data: &Dataset) -> Result<Scores> {
        let summary = tree
            .evaluate(data.rows(), data.labels(), data.classes())?
            .summary();
        let area = if data.n_classes() == 2 {
            ProbabilityModel::for_tree(tree, None)?.auc(data.rows(), data.labels())
        } else {
            None
        };
        Ok(Scores {
            accuracy: summary.accuracy,
            balanced_accuracy: summary.balanced_accuracy,
            f1: summary.f1,
            mcc: summary.mcc,
            auc: area,
        })
    }
}
