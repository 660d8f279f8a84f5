//! What an error costs: the same cost for every class, or a cost per class that makes every
//! class weigh the same ([`Objective`]), and the costs a user gives per class label
//! ([`ClassWeight`]). Every method weighs its errors with these.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::data::Dataset;
use crate::error::{Error, Result};

/// What a misclassification costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    /// Every error costs 1.
    #[default]
    Accuracy,
    /// An error on a row of class `k` costs `n / (K * n_k)`, so every class weighs the same.
    Balanced,
}

impl Objective {
    /// The cost of one error on each class of `data`, per unit of row weight. Balanced: an
    /// error on class `k` costs `W / (K * W_k)`, with `W` the total weight of the rows and `W_k`
    /// that of class `k` (row counts when the rows have no weights); a class of weight 0 costs 0.
    pub fn class_weights(&self, data: &Dataset) -> Vec<f64> {
        let totals = data.class_weight_totals();
        let n = data.total_weight();
        let k = data.n_classes() as f64;
        totals
            .iter()
            .map(|&n_k| match self {
                Objective::Accuracy => 1.0,
                Objective::Balanced if n_k > 0.0 => n / (k * n_k),
                Objective::Balanced => 0.0,
            })
            .collect()
    }

    /// The cost of an error on each row of `data`: its class's cost ([`Objective::class_weights`])
    /// times `class_factors[class]` (the user's class weights, 1 for every class when empty)
    /// times the row's weight.
    pub fn row_costs(&self, data: &Dataset, class_factors: &[f64]) -> Vec<f64> {
        let per_class: Vec<f64> = self
            .class_weights(data)
            .iter()
            .enumerate()
            .map(|(k, cost)| cost * class_factors.get(k).copied().unwrap_or(1.0))
            .collect();
        data.labels()
            .iter()
            .enumerate()
            .map(|(i, &label)| per_class[label] * data.weight(i))
            .collect()
    }
}

impl fmt::Display for Objective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Objective::Accuracy => "accuracy",
            Objective::Balanced => "balanced",
        })
    }
}

impl FromStr for Objective {
    type Err = Error;
    fn from_str(text: &str) -> Result<Self> {
        match text {
            "accuracy" => Ok(Objective::Accuracy),
            "balanced" => Ok(Objective::Balanced),
            other => Err(Error::parameter(
                "--objective",
                format!("`{other}` is not one of: accuracy, balanced"),
            )),
        }
    }
}

/// One `--class-weight LABEL=W`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClassWeight {
    pub label: String,
    pub weight: f64,
}

impl FromStr for ClassWeight {
    type Err = Error;
    fn from_str(text: &str) -> Result<Self> {
        let (label, weight) = text.rsplit_once('=').ok_or_else(|| {
            Error::parameter("--class-weight", format!("`{text}` is not LABEL=WEIGHT"))
        })?;
        let weight: f64 = weight.trim().parse().map_err(|_| {
            Error::parameter(
                "--class-weight",
                format!("`{weight}` in `{text}` is not a number"),
            )
        })?;
        if !(weight.is_finite() && weight >= 0.0) {
            return Err(Error::parameter(
                "--class-weight",
                format!("{weight} in `{text}` is not a finite non-negative weight"),
            ));
        }
        Ok(ClassWeight {
            label: label.to_string(),
            weight,
        })
    }
}

/// The cost of an error on each class of `data`: `given` for the classes it names, 1 for the
/// others. A label that is not a class of the data is an error naming `option`.
pub fn class_weight_vector(
    given: &[ClassWeight],
    data: &Dataset,
    option: &str,
) -> Result<Vec<f64>> {
    let mut weights = vec![1.0; data.n_classes()];
    for weight in given {
        weights[class_index(data, &weight.label, option)?] = weight.weight;
    }
    Ok(weights)
}

/// The index of the class `label` of `data`; an error naming `option` when there is none.
pub fn class_index(data: &Dataset, label: &str, option: &str) -> Result<usize> {
    data.classes()
        .iter()
        .position(|c| c == label)
        .ok_or_else(|| {
            Error::parameter(
                option,
                format!(
                    "`{label}` is not a class of the data ({})",
                    data.classes().join(", ")
                ),
            )
        })
}
