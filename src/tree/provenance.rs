//! How a tree was made ([`Provenance`]), as tree files from version 2 on record it: the method
//! and its parameters, why the run stopped and how good the tree is known to be, the program's
//! version, which training rows it was learned on (their count and fingerprint, and the
//! split that set them apart), and, where the run had them, the certificate's verdict and the
//! side constraints with the tree's values under them. A figure a run does not give is `None`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The training rows a tree was learned on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainingRows {
    /// The data file as given on the command line.
    pub path: String,
    /// How many rows (after the train/test split).
    pub rows: usize,
    /// `sha256:` and the hex digest of the rows as read (see
    /// [`crate::data::Dataset::fingerprint`]).
    pub fingerprint: String,
    /// The seed of the train/test split; `None` when the command takes none.
    pub split_seed: Option<u64>,
    /// The fraction held out as the test set; `None`: none.
    pub test_fraction: Option<f64>,
}

/// The certificate of a MILP result, as a tree file records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CertificateNote {
    /// `agrees`, `incumbent_optimal`, `incumbent_suboptimal`, `unknown`, `CONTRADICTION` or
    /// `not_applicable` (see [`crate::learn::certificate::Verdict`]).
    pub verdict: String,
    /// What the verdict rests on.
    pub message: String,
}

/// How a tree was made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// `oct`, `binoct`, `flowoct`, `olct`, `dp`, `sparse`, `cart`, ...
    pub method: String,
    /// The method's parameters, depth included.
    pub parameters: Value,
    /// The program that ran it (`highs`, `cbc`, `dp`, `sparse`, `cart`).
    pub solver: String,
    /// Why the run ended: `optimal`, `time_limit`, `interrupted`, ... (see
    /// [`crate::solver::Termination::name`]); `completed` for a greedy tree, which claims no
    /// optimum.
    pub termination: String,
    /// Where the tree came from when a run knows more than one (`solver`, `certificate`,
    /// `search`).
    #[serde(default)]
    pub tree_source: Option<String>,
    /// The method's objective of the tree, by plain code.
    pub objective: Option<f64>,
    /// The best lower bound the run proved, in the same units.
    pub bound: Option<f64>,
    /// `(objective - bound) / |objective|`, as reports compute it.
    pub gap: Option<f64>,
    /// Wall seconds of the run.
    pub seconds: Option<f64>,
    /// The time limit it ran with.
    #[serde(default)]
    pub time_limit: Option<f64>,
    /// The version of milptree that wrote the file.
    pub milptree_version: String,
    pub training: TrainingRows,
    /// The certificate's verdict on a MILP result; `None`: no certificate was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<CertificateNote>,
    /// The side constraints and the tree's values under them (the solve report's
    /// `side_constraints`); `None`: the run had none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_constraints: Option<Value>,
}

impl Provenance {
    /// This build's version, for [`Provenance::milptree_version`].
    pub fn this_version() -> String {
        env!("CARGO_PKG_VERSION").to_string()
    }

    /// The provenance as lines of `name: value` text (a header for `show`).
    pub fn lines(&self) -> Vec<String> {
        let figure = |value: Option<f64>| value.map_or_else(|| "-".to_string(), |v| v.to_string());
        let training = &self.training;
        let mut lines = vec![
            format!("learned by: {} ({})", self.method, self.solver),
            format!("parameters: {}", self.parameters),
            format!(
                "termination: {}{}",
                self.termination,
                self.tree_source
                    .as_ref()
                    .map_or_else(String::new, |source| format!(", tree from {source}"))
            ),
            format!(
                "objective: {}, bound: {}, gap: {}",
                figure(self.objective),
                figure(self.bound),
                self.gap
                    .map_or_else(|| "-".to_string(), |g| format!("{:.4}%", 100.0 * g))
            ),
            format!(
                "seconds: {}, time limit: {}",
                self.seconds
                    .map_or_else(|| "-".to_string(), |s| format!("{s:.3}")),
                figure(self.time_limit)
            ),
            format!(
                "training rows: {} of {} ({})",
                training.rows, training.path, training.fingerprint
            ),
        ];
        lines.push(format!(
            "split: seed {}, test fraction {}",
            training
                .split_seed
                .map_or_else(|| "-".to_string(), |s| s.to_string()),
            figure(training.test_fraction)
        ));
        if let Some(certificate) = &self.certificate {
            lines.push(format!(
                "certificate: {} ({})",
                certificate.verdict, certificate.message
            ));
        }
        if let Some(constraints) = &self.side_constraints {
            lines.push(format!("side constraints: {constraints}"));
        }
        lines.push(format!("milptree version: {}", self.milptree_version));
        lines
    }
}
